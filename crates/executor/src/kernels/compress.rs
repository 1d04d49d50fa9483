//! Compress-1 (`ovir1`, ONNX Compress-11): the slices along `axis` (or the
//! elements of the flattened data) whose condition is true, among the first
//! `min(len(cond), dim)`. The kept count is data-dependent: the kernel
//! decides it and the executor checks it against the inferred range.

use super::{norm_axis, Call, KResult};
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
    // Output slice r = (outer index, kept position j) of `inner` elements.
    let inner = element_count(&shape[axis + 1..])?;
    let t = super::copy_slices(data, out, inner, |r| {
        let (o, j) = (r / kept.len(), r % kept.len());
        (o * length + kept[j]) * inner
    })?;
    Ok(vec![t])
}
