//! SoftMax-1/8 along `axis` (default 1; inference rejects a negative axis in v1), computed
//! in f64 and numerically stable: the slice's maximum is subtracted before
//! exponentiating. Floating-point types only.

use super::{from_f64s, norm_axis, to_f64s, unsupported, Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    if !x.element_type.is_real() {
        return Err(unsupported("SoftMax", x.element_type));
    }
    let out = call.out_shape(0)?;
    if out != x.shape {
        return Err("internal: the inferred shape differs from the input's".into());
    }
    let axis = call.attr_i64("axis")?.unwrap_or(1);
    let axis = norm_axis(axis, x.shape.len())?;
    let mut v = to_f64s(x)?;
    let len = x.shape[axis];
    let inner: usize = x.shape[axis + 1..].iter().product();
    let outer: usize = x.shape[..axis].iter().product();
    for o in 0..outer {
        for i in 0..inner {
            let at = |j: usize| (o * len + j) * inner + i;
            let max = (0..len).map(|j| v[at(j)]).fold(f64::NEG_INFINITY, f64::max);
            let mut sum = 0.0;
            for j in 0..len {
                let e = (v[at(j)] - max).exp();
                v[at(j)] = e;
                sum += e;
            }
            for j in 0..len {
                v[at(j)] /= sum;
            }
        }
    }
    Ok(vec![from_f64s(x.element_type, out, &v)?])
}
