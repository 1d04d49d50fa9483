//! LRN-1 as OpenVINO's reference: `x / (bias + alpha / size^len(axes) *
//! sum)^beta`, the sum of the squares over the box of `(size - 1) / 2`
//! elements on each side of `x` along every axis (clipped at the edges).
//! The box sum is separable: a window sum along one axis after the other.
//! Computed in f64.

use shape_infer::ops::lrn::{attributes, checked_axes};

use super::{from_f64s, to_f64s, unsupported, Call, KResult};
use crate::tensor::{byte_size, Tensor};

/// Windows up to this many elements are summed directly; longer ones by
/// prefix sums (linear in the axis length whatever `size` says).
const DIRECT_WINDOW: usize = 64;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    if !x.element_type.is_real() {
        return Err(unsupported("LRN", x.element_type));
    }
    let out = call.out_shape(0)?;
    if x.shape != out {
        return Err(format!(
            "internal: the output {out:?} is not the data's shape {:?}",
            x.shape
        )
        .into());
    }
    let a = attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    let axes =
        checked_axes(&call.input(1)?.to_i64s()?, x.shape.len()).map_err(|e| e.to_string())?;
    byte_size(x.element_type, &x.shape)?;
    let values = to_f64s(x)?;
    let mut sums: Vec<f64> = values.iter().map(|v| v * v).collect();
    // A window wider than the tensor covers every dim whole.
    let half = usize::try_from((a.size - 1) / 2).unwrap_or(usize::MAX);
    for &axis in &axes {
        window_sums(&mut sums, &x.shape, axis, half);
    }
    let count = i32::try_from(axes.len()).unwrap_or(i32::MAX);
    let scale = a.alpha / (a.size as f64).powi(count);
    for (s, &v) in sums.iter_mut().zip(&values) {
        *s = v / (a.bias + scale * *s).powf(a.beta);
    }
    Ok(vec![from_f64s(x.element_type, out, &sums)?])
}

/// Replaces each element of `values` (of `shape`, row-major) by the sum of
/// the elements within `half` of it along `axis`.
fn window_sums(values: &mut [f64], shape: &[usize], axis: usize, half: usize) {
    let n = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    if n == 0 || inner == 0 || values.is_empty() {
        return;
    }
    let outer = values.len() / (n * inner);
    let mut line = vec![0.0; n];
    let mut prefix = vec![0.0; n + 1];
    for o in 0..outer {
        for i in 0..inner {
            let base = o * n * inner + i;
            for (k, v) in line.iter_mut().enumerate() {
                *v = values[base + k * inner];
            }
            let window = |k: usize| {
                (
                    k.saturating_sub(half),
                    k.saturating_add(half).saturating_add(1).min(n),
                )
            };
            if half.saturating_mul(2) < DIRECT_WINDOW {
                for k in 0..n {
                    let (lo, hi) = window(k);
                    values[base + k * inner] = line[lo..hi].iter().sum();
                }
            } else {
                for k in 0..n {
                    prefix[k + 1] = prefix[k] + line[k];
                }
                for k in 0..n {
                    let (lo, hi) = window(k);
                    values[base + k * inner] = prefix[hi] - prefix[lo];
                }
            }
        }
    }
}
