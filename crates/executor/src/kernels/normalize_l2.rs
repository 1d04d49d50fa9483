//! NormalizeL2-1: each element divided by the L2 norm of its group (the
//! elements that differ only along the axes), `sqrt(max(sum, eps))` or
//! `sqrt(sum + eps)`; sums in f64.

use super::{from_f64s, norm_axis, to_f64s, Call, KResult};
use crate::broadcast::{row_major_strides, walk};
use crate::tensor::{byte_size, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let rank = x.shape.len();
    let mut reduced = vec![false; rank];
    for a in call.input(1)?.to_i64s()? {
        reduced[norm_axis(a, rank)?] = true;
    }
    let eps = call.attr_f64("eps")?.unwrap_or(0.0);
    let max_mode = call
        .node
        .attributes
        .get("eps_mode")
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("max"));
    byte_size(x.element_type, &x.shape)?;
    let kept: Vec<usize> = (0..rank)
        .map(|a| if reduced[a] { 1 } else { x.shape[a] })
        .collect();
    let mut strides = row_major_strides(&kept);
    for a in 0..rank {
        if reduced[a] {
            strides[a] = 0;
        }
    }
    let mut groups = Vec::with_capacity(x.len());
    walk(&x.shape, &[0], &[strides], |o| groups.push(o[0]));
    let mut values = to_f64s(x)?;
    let mut sums = vec![0.0; kept.iter().product()];
    for (&v, &g) in values.iter().zip(&groups) {
        sums[g] += v * v;
    }
    let norms: Vec<f64> = sums
        .iter()
        .map(|&s| if max_mode { s.max(eps) } else { s + eps }.sqrt())
        .collect();
    for (v, &g) in values.iter_mut().zip(&groups) {
        *v /= norms[g];
    }
    Ok(vec![from_f64s(x.element_type, x.shape.clone(), &values)?])
}
