//! GRN-1: `x / sqrt(sum(x², axis 1) + bias)` per position, computed in f64
//! and rounded once to the type; integer data is rounded to nearest, as
//! OpenVINO's CPU plugin (which computes in f32 and converts with rounding).

use super::{from_f64s, to_f64s, unsupported, Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let t = x.element_type;
    if !(t.is_real() || t.is_integral()) {
        return Err(unsupported("GRN", t));
    }
    if !(2..=4).contains(&x.shape.len()) {
        return Err(format!("GRN takes rank 2, 3 or 4, not {}", x.shape.len()).into());
    }
    let bias = call.attr_f64("bias")?.ok_or("`bias` is missing")?;
    let (outer, channels) = (x.shape[0], x.shape[1]);
    let inner: usize = x.shape[2..].iter().product();
    let mut v = to_f64s(x)?;
    for o in 0..outer {
        for i in 0..inner {
            let at = |c: usize| (o * channels + c) * inner + i;
            let sum: f64 = (0..channels).map(|c| v[at(c)] * v[at(c)]).sum();
            let norm = (sum + bias).sqrt();
            for c in 0..channels {
                v[at(c)] /= norm;
            }
        }
    }
    if t.is_integral() {
        v.iter_mut().for_each(|e| *e = e.round_ties_even());
    }
    Ok(vec![from_f64s(t, x.shape.clone(), &v)?])
}
