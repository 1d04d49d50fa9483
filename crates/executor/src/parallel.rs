//! When kernels use more than one thread.
//!
//! A kernel writes its output in chunks of whole units (elements or rows).
//! Small outputs stay on the calling thread: below [`PARALLEL_MIN_BYTES`]
//! handing chunks to rayon's pool costs more than it saves. Large ones are
//! split into tasks of about [`TASK_BYTES`], which also spreads the page
//! faults of a fresh output buffer over the threads.

use rayon::prelude::*;

/// Outputs smaller than this are computed on the calling thread.
pub(crate) const PARALLEL_MIN_BYTES: usize = 1 << 20;

/// About how many output bytes one parallel task writes.
const TASK_BYTES: usize = 256 << 10;

/// Calls `fill(first_unit, chunk)` over `out` cut into chunks of whole
/// units of `unit` bytes (`first_unit` is the index of the chunk's first
/// unit); in parallel when `out` is large. `out.len()` must be a multiple
/// of `unit`.
pub(crate) fn for_chunks(out: &mut [u8], unit: usize, fill: impl Fn(usize, &mut [u8]) + Sync) {
    if unit == 0 || out.is_empty() {
        return;
    }
    if out.len() < PARALLEL_MIN_BYTES || rayon::current_num_threads() < 2 {
        fill(0, out);
        return;
    }
    let units_per_task = (TASK_BYTES / unit).max(1);
    out.par_chunks_mut(units_per_task * unit)
        .enumerate()
        .for_each(|(task, chunk)| fill(task * units_per_task, chunk));
}

/// A buffer of `len` bytes filled by [`for_chunks`].
///
/// `fill` must write every byte of its chunk: the buffer may be a freed
/// intermediate's (see [`crate::pool`]), not zeroed.
pub(crate) fn filled(
    len: usize,
    unit: usize,
    fill: impl Fn(usize, &mut [u8]) + Sync,
) -> crate::pool::Buffer {
    // A new buffer of this size comes from the allocator as fresh pages,
    // first touched by the (parallel) fill.
    let mut out = crate::pool::take(len);
    for_chunks(&mut out, unit, fill);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unit_is_filled_once_in_order() {
        for len in [0usize, 4, 4096, PARALLEL_MIN_BYTES + 12] {
            let out = filled(len, 4, |first, chunk| {
                for (k, c) in chunk.chunks_exact_mut(4).enumerate() {
                    c.copy_from_slice(&((first + k) as u32).to_le_bytes());
                }
            });
            assert_eq!(out.len(), len);
            for (k, c) in out.chunks_exact(4).enumerate() {
                assert_eq!(u32::from_le_bytes(c.try_into().unwrap()), k as u32);
            }
        }
    }
}
