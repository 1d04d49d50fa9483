//! Concat-1: the inputs joined along `axis` (raw bytes, any element type).

use super::{norm_axis, Call, KResult};
use crate::tensor::{byte_size, element_width, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let out = call.out_shape(0)?;
    let axis = norm_axis(
        call.attr_i64("axis")?.ok_or("`axis` is missing")?,
        out.len(),
    )?;
    let first = call.input(0)?;
    let w = element_width(first.element_type)?;
    let outer: usize = out[..axis].iter().product();
    let mut bytes = Vec::with_capacity(byte_size(first.element_type, &out)?);
    // Each input contributes a block of (its axis dim × inner) elements per outer index.
    let blocks: Vec<(&[u8], usize)> = call
        .inputs
        .iter()
        .map(|t| {
            let block: usize = t.shape.get(axis..).map_or(0, |s| s.iter().product());
            (t.bytes(), block * w)
        })
        .collect();
    for o in 0..outer {
        for &(src, block) in &blocks {
            let chunk = src
                .get(o * block..(o + 1) * block)
                .ok_or("internal: an input does not match the inferred shape")?;
            bytes.extend_from_slice(chunk);
        }
    }
    Ok(vec![Tensor::from_bytes(first.element_type, out, bytes)?])
}
