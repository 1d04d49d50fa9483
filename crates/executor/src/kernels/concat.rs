//! Concat-1: the inputs joined along `axis` (raw bytes, any element type).
//! Per index of the axes before `axis`, each input contributes one
//! contiguous block; the output is filled in parallel, in runs of
//! elements, when large.

use std::sync::atomic::{AtomicBool, Ordering};

use super::{norm_axis, Call, KResult};
use crate::tensor::{byte_size, element_width, Tensor};

/// Output bytes from which the copy runs on the threads. A copy is all
/// memory traffic, a few µs for 128 KiB, and with the workers awake a
/// split costs about as much: from 128 KiB on, SqueezeNet's 746 KiB joins
/// took 0.011 → 0.008 ms at two threads, its 1.5 MB ones 0.024 → 0.014
/// (cut at all only since the output is cut by elements), on a machine
/// whose second core was free (docs/performance.md, `thr13`).
const PARALLEL_MIN_BYTES: usize = 128 << 10;

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
    if row == 0 && size != 0 {
        return Err("internal: the inputs do not match the inferred shape".into());
    }
    let mismatch = AtomicBool::new(false);
    // Cut by elements, not by output rows: at batch 1 along the channels
    // the output is one row (SqueezeNet's 1.5 MB joins), which would leave
    // the copy on one thread.
    let bytes = crate::parallel::filled_from(size, w, PARALLEL_MIN_BYTES, |first, chunk| {
        let (mut o, mut offset) = ((first * w) / row, (first * w) % row);
        let mut rest = chunk;
        while !rest.is_empty() {
            let mut at = 0;
            for &(src, block) in &blocks {
                if offset >= at + block {
                    at += block;
                    continue;
                }
                let from = offset - at;
                let len = (block - from).min(rest.len());
                let (dst, tail) = std::mem::take(&mut rest).split_at_mut(len);
                match src.get(o * block + from..o * block + from + len) {
                    Some(s) => dst.copy_from_slice(s),
                    None => mismatch.store(true, Ordering::Relaxed),
                }
                rest = tail;
                offset += len;
                at += block;
                if rest.is_empty() {
                    break;
                }
            }
            (o, offset) = (o + 1, 0);
        }
    });
    if mismatch.into_inner() {
        return Err("internal: an input does not match the inferred shape".into());
    }
    Ok(vec![Tensor::from_bytes(first.element_type, out, bytes)?])
}
