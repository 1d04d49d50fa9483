//! Reuse of freed intermediate buffers, within a run and from one run to
//! the next.
//!
//! Fresh memory costs a page fault per 4 KiB page on its first write (the
//! OS hands it out zeroed, lazily), and glibc gives memory back to the OS
//! eagerly (anything over 32 MiB is mapped anew each time; freed space at
//! the top of a heap is trimmed): for a large tensor the faults cost more
//! than the kernel. While a run is on, the executor hands the buffers of
//! intermediates it frees to this pool and [`take`] (behind
//! [`crate::parallel::filled`] and [`Tensor::computed`]) gives one back for
//! an output of about the same size (the smallest of `len..=len * 5/4`
//! bytes; it is cut to `len` for good). The pool is per thread (the
//! executor's) and holds at most [`MAX_BUFFERS`], within a budget of four
//! times the most bytes the run's live tensors have held at once. When the
//! run ends, what it holds goes back to the executor's spare buffers for
//! the next run (as OpenVINO's CPU plugin keeps its memory from one
//! inference to the next): in steady state a run of a model maps no new
//! memory. Kernels' scratch space ([`with_scratch`]: the im2col tiles) is
//! one more buffer kept the same way.

use std::cell::RefCell;
use std::sync::{Mutex, PoisonError};

use crate::tensor::Tensor;

/// Buffers smaller than this are left to the allocator.
const MIN_BYTES: usize = 64 << 10;

/// How many freed buffers the pool keeps at most.
const MAX_BUFFERS: usize = 64;

/// The freed buffers of a run, oldest first, how many bytes of them it may
/// hold, and the kernels' scratch buffer.
struct Pool {
    buffers: Vec<Vec<u8>>,
    budget: u64,
    scratch: Vec<u8>,
}

thread_local! {
    /// `None` outside a run: nothing is kept.
    static POOL: RefCell<Option<Pool>> = const { RefCell::new(None) };
}

/// An executor's buffers kept from one run for the next: freed
/// intermediates' and the scratch buffer.
pub(crate) type Spare = Mutex<(Vec<Vec<u8>>, Vec<u8>)>;

/// Keeps freed buffers for reuse on this thread until dropped, then gives
/// them to `spare`.
pub(crate) struct PoolGuard<'a> {
    spare: &'a Spare,
}

/// Turns the pool on for this thread, starting with the buffers of `spare`
/// (and as many bytes of budget as they hold), until the guard is dropped.
pub(crate) fn during_run(spare: &Spare) -> PoolGuard<'_> {
    let (buffers, scratch) =
        std::mem::take(&mut *spare.lock().unwrap_or_else(PoisonError::into_inner));
    let budget = buffers.iter().map(|b| b.len() as u64).sum();
    POOL.with(|p| {
        *p.borrow_mut() = Some(Pool {
            buffers,
            budget,
            scratch,
        })
    });
    PoolGuard { spare }
}

impl Drop for PoolGuard<'_> {
    fn drop(&mut self) {
        if let Some(pool) = POOL.with(|p| p.borrow_mut().take()) {
            let mut spare = self.spare.lock().unwrap_or_else(PoisonError::into_inner);
            spare.0.extend(pool.buffers);
            if pool.scratch.len() > spare.1.len() {
                spare.1 = pool.scratch;
            }
        }
    }
}

/// Lets the pool hold four times `bytes` (the executor passes the bytes its
/// live tensors hold: the pool keeps at most four times what a run needs at
/// once; in steady state it holds each size the run needs, about as many
/// bytes as the run's intermediates).
pub(crate) fn allow(bytes: u64) {
    POOL.with(|p| {
        if let Some(pool) = p.borrow_mut().as_mut() {
            pool.budget = pool.budget.max(bytes.saturating_mul(4));
        }
    });
}

/// Offers the buffer of a tensor the run no longer needs. Kept when the
/// pool is on, the buffer is large, owned and not shared by a view.
pub(crate) fn recycle(t: Tensor) {
    if t.data.len() >= MIN_BYTES {
        if let Ok(buffer) = t.data.into_vec() {
            give_back(buffer);
        }
    }
}

/// Offers a buffer the caller no longer needs: kept when the pool is on and
/// the buffer large, the oldest ones dropped to stay within the budget.
pub(crate) fn give_back(buffer: Vec<u8>) {
    if buffer.len() < MIN_BYTES {
        return;
    }
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        let Some(pool) = p.as_mut() else { return };
        pool.buffers.push(buffer);
        let mut total: u64 = pool.buffers.iter().map(|b| b.len() as u64).sum();
        while total > pool.budget || pool.buffers.len() > MAX_BUFFERS {
            // The oldest buffer another one could stand in for, else the
            // oldest: a size seen once (a model's largest tensor, early on)
            // stays while the many of one size later on make way.
            let similar =
                |a: &Vec<u8>, b: &Vec<u8>| fits(a.len(), b.len()) || fits(b.len(), a.len());
            let buffers = &pool.buffers;
            let at = (0..buffers.len())
                .find(|&i| (0..buffers.len()).any(|j| j != i && similar(&buffers[i], &buffers[j])))
                .unwrap_or(0);
            total -= pool.buffers.remove(at).len() as u64;
        }
    });
}

/// Runs `f` on scratch space of `len` elements: during a run, the pool's
/// one scratch buffer (grown when too small, kept for the next call and
/// the next run; its contents are stale: `f` must write before it reads).
pub(crate) fn with_scratch<T: bytemuck::Pod, R>(len: usize, f: impl FnOnce(&mut [T]) -> R) -> R {
    let bytes = len.saturating_mul(std::mem::size_of::<T>());
    let kept = POOL.with(|p| {
        p.borrow_mut()
            .as_mut()
            .map(|p| std::mem::take(&mut p.scratch))
    });
    let mut buffer = kept.unwrap_or_default();
    if buffer.len() < bytes {
        buffer = vec![0u8; bytes];
    }
    let result = match bytemuck::try_cast_slice_mut(&mut buffer[..bytes]) {
        Ok(scratch) => f(scratch),
        // The allocator aligns every buffer; this is only a fallback.
        Err(_) => f(&mut vec![T::zeroed(); len]),
    };
    POOL.with(|p| {
        if let Some(pool) = p.borrow_mut().as_mut() {
            if buffer.len() > pool.scratch.len() {
                pool.scratch = buffer;
            }
        }
    });
    result
}

/// Whether a buffer of `size` bytes may serve for `len`: not much larger,
/// since it is cut to `len` for good (a tensor owns exactly its bytes).
fn fits(len: usize, size: usize) -> bool {
    (len..=len + len / 4).contains(&size)
}

/// A buffer of `len` bytes: the smallest pooled one of `len..=2 * len`
/// bytes cut to `len` (its old contents stay: the caller overwrites every
/// byte), or a new zeroed one.
pub(crate) fn take(len: usize) -> Vec<u8> {
    if len >= MIN_BYTES {
        let reused = POOL.with(|p| {
            let mut p = p.borrow_mut();
            let buffers = &mut p.as_mut()?.buffers;
            let at = buffers
                .iter()
                .enumerate()
                .filter(|(_, b)| fits(len, b.len()))
                .min_by_key(|(_, b)| b.len())?
                .0;
            Some(buffers.remove(at))
        });
        if let Some(mut buffer) = reused {
            buffer.truncate(len);
            return buffer;
        }
    }
    vec![0u8; len]
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::ElementType;

    fn big(len: usize) -> Tensor {
        Tensor::from_bytes(ElementType::U8, vec![len], vec![7; len]).unwrap()
    }

    #[test]
    fn buffers_are_reused_only_during_a_run_and_by_size() {
        let spare = Spare::default();
        recycle(big(MIN_BYTES));
        assert!(take(MIN_BYTES).iter().all(|&b| b == 0), "off outside a run");
        {
            let _run = during_run(&spare);
            recycle(big(2 * MIN_BYTES));
            assert!(take(2 * MIN_BYTES).iter().all(|&b| b == 0), "no budget");
            allow(MIN_BYTES as u64);
            recycle(big(2 * MIN_BYTES));
            // Too large for half of it; right for 7/8 of it.
            assert!(take(MIN_BYTES).iter().all(|&b| b == 0));
            let reused = take(7 * MIN_BYTES / 4);
            assert_eq!((reused.len(), reused[0]), (7 * MIN_BYTES / 4, 7));
            // A view keeps its buffer from the pool.
            let t = big(MIN_BYTES);
            let view = t.clone();
            recycle(t);
            assert!(take(MIN_BYTES).iter().all(|&b| b == 0));
            drop(view);
            recycle(big(MIN_BYTES));
        }
        assert!(take(MIN_BYTES).iter().all(|&b| b == 0), "off after the run");
        let kept: Vec<usize> = spare.lock().unwrap().0.iter().map(Vec::len).collect();
        assert_eq!(kept, [MIN_BYTES], "what the pool held goes to the spare");
    }

    #[test]
    fn the_smallest_fit_is_taken_within_the_budget_and_carried_to_the_next_run() {
        let spare = Spare::default();
        let held = || -> Vec<usize> {
            POOL.with(|p| {
                p.borrow()
                    .as_ref()
                    .unwrap()
                    .buffers
                    .iter()
                    .map(Vec::len)
                    .collect()
            })
        };
        {
            let _run = during_run(&spare);
            // A budget of 4 * 2 * MIN_BYTES.
            allow(2 * MIN_BYTES as u64);
            recycle(big(MIN_BYTES + 2));
            recycle(big(MIN_BYTES + 1));
            recycle(big(6 * MIN_BYTES));
            // Over the budget: the oldest with a stand-in goes first.
            assert_eq!(held(), [MIN_BYTES + 1, 6 * MIN_BYTES]);
            recycle(big(2 * MIN_BYTES));
            // Without one, the oldest.
            assert_eq!(held(), [6 * MIN_BYTES, 2 * MIN_BYTES]);
            recycle(big(MIN_BYTES + 1));
            assert_eq!(held(), [2 * MIN_BYTES, MIN_BYTES + 1]);
            assert_eq!(take(MIN_BYTES).capacity(), MIN_BYTES + 1);
        }
        {
            let _run = during_run(&spare);
            assert_eq!(take(2 * MIN_BYTES)[0], 7, "reused in the next run");
        }
        assert!(spare.lock().unwrap().0.is_empty());
    }

    #[test]
    fn the_scratch_buffer_is_kept_and_grown() {
        let spare = Spare::default();
        {
            let _run = during_run(&spare);
            with_scratch(10, |s: &mut [f32]| s.fill(3.0));
            // Stale contents, the length asked for.
            with_scratch(5, |s: &mut [f32]| assert_eq!(s, [3.0; 5]));
            with_scratch(20, |s: &mut [f32]| assert_eq!(s.len(), 20));
        }
        assert_eq!(spare.lock().unwrap().1.len(), 80);
        // Outside a run: a fresh buffer each time.
        with_scratch(4, |s: &mut [f64]| assert_eq!(s, [0.0; 4]));
    }
}
