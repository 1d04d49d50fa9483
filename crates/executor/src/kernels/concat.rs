//! Concat-1: the inputs joined along `axis` (raw bytes, any element type).
//! Per index of the axes before `axis`, each input contributes one
//! contiguous block; those output rows are filled in parallel when large.

use std::sync::atomic::{AtomicBool, Ordering};

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
    let size = byte_size(first.element_type, &out)?;
    // Each input's block: (its axis dim × inner) elements per outer index.
    let blocks: Vec<(&[u8], usize)> = call
        .inputs
        .iter()
        .map(|t| {
            let block: usize = t.shape.get(axis..).map_or(0, |s| s.iter().product());
            (t.bytes(), block * w)
        })
        .collect();
    let row: usize = blocks.iter().map(|&(_, b)| b).sum();
    let mismatch = AtomicBool::new(false);
    let bytes = crate::parallel::filled(size, row, |first_row, chunk| {
        for (o, dst) in (first_row..).zip(chunk.chunks_exact_mut(row)) {
            let mut at = 0;
            for &(src, block) in &blocks {
                match src.get(o * block..(o + 1) * block) {
                    Some(s) => dst[at..at + block].copy_from_slice(s),
                    None => mismatch.store(true, Ordering::Relaxed),
                }
                at += block;
            }
        }
    });
    if mismatch.into_inner() {
        return Err("internal: an input does not match the inferred shape".into());
    }
    Ok(vec![Tensor::from_bytes(first.element_type, out, bytes)?])
}
