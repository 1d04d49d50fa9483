//! Compress-1 (`ovir1`, ONNX Compress-11): the slices along `axis` (or the
//! elements of the flattened data) whose condition is true, among the first
//! `min(len(cond), dim)`. The kept count is data-dependent: the kernel
//! decides it and the executor checks it against the inferred range.

use super::{norm_axis, Call, KResult};
use crate::broadcast::{row_major_strides, walk};
use crate::tensor::{element_count, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (data, cond) = (call.input(0)?, call.input(1)?);
    if cond.shape.len() != 1 {
        return Err(format!("the condition must be 1-D, got {:?}", cond.shape).into());
    }
    let mask = cond.nonzero_mask()?;
    let (shape, axis) = match call.attr_i64("axis")? {
        Some(a) => (data.shape.clone(), norm_axis(a, data.shape.len())?),
        None => (vec![element_count(&data.shape)?], 0),
    };
    let length = shape[axis];
    let kept: Vec<usize> = (0..length.min(mask.len())).filter(|&i| mask[i]).collect();
    let mut out = shape.clone();
    out[axis] = kept.len();
    let own = row_major_strides(&shape);
    let t = super::gather_elements(data, out.clone(), |push| {
        // Outer axes before `axis`, the kept positions, inner axes after.
        let outer: usize = shape[..axis].iter().product();
        let inner_shape: Vec<usize> = shape[axis + 1..].to_vec();
        let inner_strides = vec![own[axis + 1..].to_vec()];
        for o in 0..outer {
            for &k in &kept {
                let base = (o * length + k) as isize * own[axis];
                walk(&inner_shape, &[base], &inner_strides, |i| push(i[0]));
            }
        }
    })?;
    Ok(vec![t])
}
