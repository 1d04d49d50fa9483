//! Gather-1/7/8: slices of the data along `axis` (input 2) picked by the
//! indices (input 1), with `batch_dims`. Negative indices count from the end
//! (Gather-8); an index out of range is an error. Raw bytes.

use super::{norm_axis, Call, KResult};
use crate::tensor::{element_count, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (data, indices) = (call.input(0)?, call.input(1)?);
    let out = call.out_shape(0)?;
    let axis_v = call.input(2)?.to_i64s()?;
    let [axis] = axis_v.as_slice() else {
        return Err("the axis (input 2) must hold one value".into());
    };
    let rank = data.shape.len();
    let axis = norm_axis(*axis, rank)?;
    let bd = call.attr_i64("batch_dims")?.unwrap_or(0);
    let irank = indices.shape.len() as i64;
    let batch_dims = usize::try_from(if bd < 0 { bd + irank } else { bd })
        .map_err(|_| format!("batch_dims {bd} is out of range"))?;
    if batch_dims > axis || batch_dims > indices.shape.len() {
        return Err(format!("batch_dims {bd} is out of range").into());
    }
    let idx = indices.to_i64s()?;
    let outer: usize = element_count(&data.shape[batch_dims..axis])?;
    let len = data.shape[axis];
    let inner: usize = element_count(&data.shape[axis + 1..])?;
    let per_batch = element_count(&indices.shape[batch_dims..])?;
    let mut positions = Vec::with_capacity(idx.len());
    for &i in &idx {
        let p = if i < 0 { i + len as i64 } else { i };
        if p < 0 || p >= len as i64 {
            return Err(format!("index {i} is out of range for a dim of {len}").into());
        }
        positions.push(p as usize);
    }
    // Output slice r = (batch × outer index, position j) of `inner` elements.
    let t = super::copy_slices(data, out, inner, |r| {
        let (bo, j) = (r / per_batch, r % per_batch);
        (bo * len + positions[bo / outer * per_batch + j]) * inner
    })?;
    Ok(vec![t])
}
