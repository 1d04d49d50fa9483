//! StridedSlice-1: begin/end/stride inputs with TensorFlow-style masks
//! (`begin_mask`/`end_mask`: 1 ignores begin/end there; `new_axis_mask`
//! inserts a dim of 1; `shrink_axis_mask` takes index `begin` and drops the
//! dim; `ellipsis_mask` stands for the remaining input dims).
//!
//! The output shape is inference's; the kernel only computes each axis's
//! first index (the Slice kernel's clamping) and step, and checks that every
//! read is inside the input. Raw bytes.

use super::slice::{check_reads, first_index};
use super::{Call, KResult};
use crate::broadcast::row_major_strides;
use crate::tensor::Tensor;

fn mask(call: &Call<'_>, key: &str) -> KResult<Vec<bool>> {
    Ok(call
        .node
        .attributes
        .i64_list(key)
        .map_err(|e| e.to_string())?
        .unwrap_or_default()
        .into_iter()
        .map(|v| v != 0)
        .collect())
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let data = call.input(0)?;
    let out = call.out_shape(0)?;
    let begin = call.input(1)?.to_i64s()?;
    let end = call.input(2)?.to_i64s()?;
    let n = begin.len();
    let stride = match call.inputs.get(3) {
        Some(t) => t.to_i64s()?,
        None => vec![1; n],
    };
    if end.len() != n || stride.len() != n {
        return Err("begin, end and stride have different lengths".into());
    }
    let masks = [
        mask(call, "begin_mask")?,
        mask(call, "end_mask")?,
        mask(call, "new_axis_mask")?,
        mask(call, "shrink_axis_mask")?,
        mask(call, "ellipsis_mask")?,
    ];
    let bit = |m: usize, i: usize| masks[m].get(i).copied().unwrap_or(false);
    let rank = data.shape.len();
    let consuming = (0..n).filter(|&i| !bit(4, i) && !bit(2, i)).count();
    if consuming > rank {
        return Err(
            format!("{consuming} entries slice an axis but the input has rank {rank}").into(),
        );
    }
    let own = row_major_strides(&data.shape);
    let mut base: i128 = 0;
    // Per output axis: (input axis or None for a new axis, first, step).
    let mut axes: Vec<(Option<usize>, i64, i64)> = Vec::new();
    let mut axis = 0usize;
    let mut seen = 0usize;
    for i in 0..n {
        if bit(4, i) {
            let covered = rank
                .checked_sub(consuming - seen)
                .and_then(|r| r.checked_sub(axis))
                .ok_or("more than one ellipsis")?;
            for a in axis..axis + covered {
                axes.push((Some(a), 0, 1));
            }
            axis += covered;
        } else if bit(2, i) {
            axes.push((None, 0, 1));
        } else {
            let dim = data.shape[axis] as i64;
            if bit(3, i) {
                let b = begin[i];
                let p = if b < 0 { b.saturating_add(dim) } else { b };
                if !(0..dim).contains(&p) {
                    return Err(
                        format!("shrink index {b} is out of range for a dim of {dim}").into(),
                    );
                }
                base += p as i128 * own[axis] as i128;
            } else {
                let step = stride[i];
                if step == 0 {
                    return Err("stride is 0".into());
                }
                let start = if bit(0, i) {
                    if step > 0 {
                        0
                    } else {
                        i64::MAX
                    }
                } else {
                    begin[i]
                };
                axes.push((Some(axis), first_index(start, step, dim), step));
            }
            axis += 1;
            seen += 1;
        }
    }
    for a in axis..rank {
        axes.push((Some(a), 0, 1));
    }
    if axes.len() != out.len() {
        return Err(format!(
            "internal: the slice has {} output axes but inference gave {out:?}",
            axes.len()
        )
        .into());
    }
    let mut strides = Vec::with_capacity(out.len());
    for (k, &(a, first, step)) in axes.iter().enumerate() {
        match a {
            None => {
                if out[k] != 1 {
                    return Err("internal: a new axis is not 1".into());
                }
                strides.push(0isize);
            }
            Some(a) => {
                check_reads(first, step, out[k], data.shape[a], a)?;
                base += first as i128 * own[a] as i128;
                // An axis read at most once never moves (a vast step times
                // the stride would overflow); longer reads stay inside.
                strides.push(if out[k] > 1 {
                    step as isize * own[a]
                } else {
                    0
                });
            }
        }
    }
    let base = isize::try_from(base).map_err(|_| "internal: offset overflow")?;
    Ok(vec![super::strided(data, out, base, &strides)?])
}
