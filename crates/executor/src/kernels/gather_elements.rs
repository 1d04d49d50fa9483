//! GatherElements-6: one element of the data per index along `axis`, the
//! output of the indices' shape. Negative indices count from the end; an
//! index out of range, or a dim other than `axis` that differs between data
//! and indices, is an error. Raw bytes.

use super::{norm_axis, Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (data, indices) = (call.input(0)?, call.input(1)?);
    let out = call.out_shape(0)?;
    let rank = data.shape.len();
    let axis = norm_axis(call.attr_i64("axis")?.unwrap_or(0), rank)?;
    if indices.shape.len() != rank {
        return Err(format!(
            "indices {:?} must have the rank of the data {:?}",
            indices.shape, data.shape
        )
        .into());
    }
    for (i, (&d, &n)) in data.shape.iter().zip(&indices.shape).enumerate() {
        if i != axis && d != n {
            return Err(format!(
                "dim {i} of indices {:?} differs from the data's {:?}",
                indices.shape, data.shape
            )
            .into());
        }
    }
    let idx = indices.to_i64s()?;
    let len = data.shape[axis];
    let ilen = indices.shape[axis];
    let inner: usize = data.shape[axis + 1..].iter().product();
    let mut src = Vec::with_capacity(idx.len());
    for (k, &i) in idx.iter().enumerate() {
        let p = if i < 0 { i + len as i64 } else { i };
        if p < 0 || p >= len as i64 {
            return Err(format!("index {i} is out of range for a dim of {len}").into());
        }
        let (outer, rest) = (k / (ilen * inner), k % inner);
        src.push((outer * len + p as usize) * inner + rest);
    }
    let t = super::gather_elements(data, out, |emit| src.iter().for_each(|&s| emit(s)))?;
    Ok(vec![t])
}
