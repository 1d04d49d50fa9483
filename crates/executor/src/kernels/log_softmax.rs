//! LogSoftmax-5 along `axis`, computed in f64 and numerically stable:
//! `x - max - ln(sum(exp(x - max)))` per slice. Integer data is computed
//! the same way and rounded to nearest, as OpenVINO's CPU plugin (which
//! computes in f32 and converts with rounding).

use super::{from_f64s, norm_axis, to_f64s, unsupported, Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let t = x.element_type;
    if !(t.is_real() || t.is_integral()) {
        return Err(unsupported("LogSoftmax", t));
    }
    let out = call.out_shape(0)?;
    if out != x.shape {
        return Err("internal: the inferred shape differs from the input's".into());
    }
    let axis = call.attr_i64("axis")?.unwrap_or(1);
    // A scalar is a slice of one element.
    let (len, inner, outer) = if x.shape.is_empty() {
        norm_axis(axis, 1)?;
        (1, 1, 1)
    } else {
        let axis = norm_axis(axis, x.shape.len())?;
        (
            x.shape[axis],
            x.shape[axis + 1..].iter().product::<usize>(),
            x.shape[..axis].iter().product::<usize>(),
        )
    };
    let mut v = to_f64s(x)?;
    for o in 0..outer {
        for i in 0..inner {
            let at = |j: usize| (o * len + j) * inner + i;
            let max = (0..len).map(|j| v[at(j)]).fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = (0..len).map(|j| (v[at(j)] - max).exp()).sum();
            let shift = max + sum.ln();
            for j in 0..len {
                v[at(j)] -= shift;
            }
        }
    }
    if t.is_integral() {
        v.iter_mut().for_each(|e| *e = e.round_ties_even());
    }
    Ok(vec![from_f64s(t, out, &v)?])
}
