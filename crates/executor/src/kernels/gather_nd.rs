//! GatherND-5/8: slices of the data addressed by the index tuples in the
//! last dim of the indices, after `batch_dims` leading dims shared by both.
//! GatherND-5 differs only in its output shape (inference's), not in the
//! elements. Negative indices count from the end; an index out of range or
//! differing batch dims are errors. Raw bytes.

use super::{Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (data, indices) = (call.input(0)?, call.input(1)?);
    let out = call.out_shape(0)?;
    let raw = call.attr_i64("batch_dims")?.unwrap_or(0);
    let bd = usize::try_from(raw).map_err(|_| format!("batch_dims {raw} is negative"))?;
    let (ds, is) = (&data.shape, &indices.shape);
    if bd >= ds.len() || bd >= is.len() {
        return Err(format!("batch_dims {bd} must be below the ranks of {ds:?} and {is:?}").into());
    }
    if ds[..bd] != is[..bd] {
        return Err(format!("the batch dims of data {ds:?} and indices {is:?} differ").into());
    }
    let k = is[is.len() - 1];
    if bd + k > ds.len() {
        return Err(format!(
            "index tuples of length {k} with batch_dims {bd} exceed the data {ds:?}"
        )
        .into());
    }
    let slice: usize = ds[bd + k..].iter().product();
    let per_batch_data: usize = ds[bd..].iter().product();
    let per_batch_tuples: usize = is[bd..is.len() - 1].iter().product();
    let idx = indices.to_i64s()?;
    let tuples: usize = is[..is.len() - 1].iter().product();
    let mut starts = Vec::with_capacity(tuples);
    for t in 0..tuples {
        let batch = t.checked_div(per_batch_tuples).unwrap_or(0);
        let mut offset = 0usize;
        for j in 0..k {
            let dim = ds[bd + j];
            let i = idx[t * k + j];
            let p = if i < 0 { i + dim as i64 } else { i };
            if p < 0 || p >= dim as i64 {
                return Err(format!("index {i} is out of range for a dim of {dim}").into());
            }
            offset = offset * dim + p as usize;
        }
        starts.push(batch * per_batch_data + offset * slice);
    }
    let t = super::copy_slices(data, out, slice, |r| {
        starts.get(r).copied().unwrap_or(usize::MAX)
    })?;
    Ok(vec![t])
}
