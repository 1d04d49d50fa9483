//! Slice-8 (ONNX Slice-13): `data[start:stop:step]` along the given axes.
//!
//! The output shape is inference's; the kernel only computes each sliced
//! axis's first index (negative values count from the end; clamped to
//! `[0, dim]` for positive steps and `[0, dim - 1]` for negative ones) and
//! reads with the step. A read outside the input means inference and the
//! kernel disagree: an error, never a panic.

use super::{norm_axis, strided, Call, KResult};
use crate::broadcast::row_major_strides;
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let data = call.input(0)?;
    let out = call.out_shape(0)?;
    let starts = call.input(1)?.to_i64s()?;
    let n = starts.len();
    let steps = match call.inputs.get(3) {
        Some(t) => t.to_i64s()?,
        None => vec![1; n],
    };
    let axes = match call.inputs.get(4) {
        Some(t) => t.to_i64s()?,
        None => (0..n as i64).collect(),
    };
    if steps.len() != n || axes.len() != n {
        return Err("start, step and axes have different lengths".into());
    }
    let rank = data.shape.len();
    if out.len() != rank {
        return Err("internal: the inferred rank differs from the input's".into());
    }
    let own = row_major_strides(&data.shape);
    let mut first = vec![0i64; rank];
    let mut step_of = vec![1i64; rank];
    for i in 0..n {
        let a = norm_axis(axes[i], rank)?;
        let dim = data.shape[a] as i64;
        let step = steps[i];
        if step == 0 {
            return Err("step is 0".into());
        }
        let s = first_index(starts[i], step, dim);
        first[a] = s;
        step_of[a] = step;
    }
    // Every read must be inside the input.
    for a in 0..rank {
        check_reads(first[a], step_of[a], out[a], data.shape[a], a)?;
    }
    let base: isize = (0..rank).map(|a| first[a] as isize * own[a]).sum();
    // An axis read at most once never moves, whatever its step (a vast
    // step times the stride would overflow); longer reads stay inside the
    // input (checked above), so their strides fit.
    let strides: Vec<isize> = (0..rank)
        .map(|a| {
            if out[a] > 1 {
                step_of[a] as isize * own[a]
            } else {
                0
            }
        })
        .collect();
    Ok(vec![strided(data, out, base, &strides)?])
}

/// The first index read along an axis of `dim` for a slice starting at
/// `start` (negative: from the end) with `step`: clamped to `[0, dim]` for
/// positive steps and `[0, dim - 1]` for negative ones (ONNX rules).
pub(crate) fn first_index(start: i64, step: i64, dim: i64) -> i64 {
    let s = if start < 0 {
        start.saturating_add(dim)
    } else {
        start
    };
    if step > 0 {
        s.clamp(0, dim)
    } else {
        s.clamp(0, (dim - 1).max(0))
    }
}

/// An error unless `len` reads from `first` by `step` stay inside `dim`
/// (the inferred length and the kernel's first index must agree).
pub(crate) fn check_reads(
    first: i64,
    step: i64,
    len: usize,
    dim: usize,
    axis: usize,
) -> KResult<()> {
    if len == 0 {
        return Ok(());
    }
    let last = first as i128 + (len as i128 - 1) * step as i128;
    if first < 0 || first >= dim as i64 || last < 0 || last >= dim as i128 {
        return Err(format!(
            "internal: the inferred length {len} of axis {axis} reads outside the input dim {dim}"
        )
        .into());
    }
    Ok(())
}
