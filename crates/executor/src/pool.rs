//! Reuse of freed intermediate buffers, within a run and from one run to
//! the next.
//!
//! Fresh memory costs a page fault per 4 KiB page on its first write (the
//! OS hands it out zeroed, lazily), and the allocator gives freed memory
//! back to the OS: for a large tensor the faults cost more than the kernel.
//! While a run is on, the executor hands the buffers of intermediates it
//! frees to this pool, and [`take`] (behind [`crate::parallel::filled`] and
//! [`Tensor::computed`]) gives one back for an output: the smallest pooled
//! buffer at least as large, and of equal ones the most recently freed. A
//! larger buffer serves a smaller tensor as a view of its first bytes
//! ([`Buffer`]) and comes back whole when the tensor is freed.
//!
//! Why best fit and not a buffer per size: the footprint, and with it the
//! cache. A buffer per size (as before) kept MobileNetV2's 44 large outputs
//! in 16.5 MiB of buffers, each coming back a whole inference (about 25 MiB
//! of other outputs and 13 MiB of weights) after its last use: evicted from
//! the 32 MiB L3. Best fit serves them from 9.4 MiB, most outputs landing
//! in the buffer of the input the previous layer read, still in cache
//! (docs/performance.md, "branch `arena13`"). Taking the most recently
//! freed buffer that fits, whatever its size, is warmer still but lets a
//! small tensor hold the largest buffer when the largest tensor comes, and
//! the footprint grows.
//!
//! The pool is per thread (the executor's) and holds at most
//! [`MAX_BUFFERS`], within a budget of four times the most bytes the run's
//! live tensors have held at once, the least recently freed dropped first.
//! When the run ends, what it holds goes back to the executor's spare
//! buffers for the next run (as OpenVINO's CPU plugin keeps its memory from
//! one inference to the next): in steady state a run of a model maps no new
//! memory. An output handed to the caller never keeps a pooled buffer much
//! larger than itself ([`detach`]). Kernels' scratch space
//! ([`with_scratch`]: the im2col tiles) is one more buffer kept the same
//! way.

use std::cell::RefCell;
use std::sync::{Mutex, PoisonError};

use ir::TensorBytes;

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

/// Offers the buffer of a tensor the run no longer needs: the whole buffer
/// its bytes are a view of, kept when the pool is on, the buffer is large,
/// owned and no other view of it is left.
pub(crate) fn recycle(t: Tensor) {
    if t.data.backing_len() >= MIN_BYTES {
        if let Ok(buffer) = t.data.into_backing() {
            give_back(buffer);
        }
    }
}

/// A run's output as the caller gets it: when its bytes are a view of a
/// much larger buffer (a pooled one that served a smaller tensor), a copy
/// in a buffer of its own, the large one going back to the pool: the caller
/// keeps the output, and the next run would have to map the large buffer
/// anew. Otherwise `t` itself.
pub(crate) fn detach(t: Tensor) -> Tensor {
    let (len, whole) = (t.data.len(), t.data.backing_len());
    if whole < MIN_BYTES || whole - len <= len / 4 {
        return t;
    }
    let copy = Tensor {
        element_type: t.element_type,
        shape: t.shape.clone(),
        data: TensorBytes::from_vec(t.data.as_slice().to_vec()),
    };
    recycle(t);
    copy
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
        // The least recently freed go first.
        while total > pool.budget || pool.buffers.len() > MAX_BUFFERS {
            total -= pool.buffers.remove(0).len() as u64;
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

/// The bytes of an output of `len` bytes: the first `len` bytes of a
/// buffer [`take`] chose, which may be a larger freed one. Its contents are
/// stale (the caller overwrites every byte); as a tensor's bytes
/// (`TensorBytes::from`) it is a view of its first `len` bytes, and the
/// whole buffer goes back to the pool when the tensor is freed.
pub(crate) struct Buffer {
    bytes: Vec<u8>,
    len: usize,
}

impl std::ops::Deref for Buffer {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl std::ops::DerefMut for Buffer {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.bytes[..self.len]
    }
}

impl From<Buffer> for TensorBytes {
    fn from(buffer: Buffer) -> TensorBytes {
        let Buffer { bytes, len } = buffer;
        // `bytes` is as long as its capacity (made by `vec!`, or given back
        // whole by `TensorBytes::into_backing`): owning it reallocates nothing.
        let whole = TensorBytes::from_vec(bytes);
        whole.slice(0, len as u64).unwrap_or(whole)
    }
}

/// A buffer for `len` bytes: of the pooled buffers at least that large, the
/// smallest, and of those the most recently freed (the one most likely
/// still in cache); or a new zeroed one. Best fit keeps the footprint small:
/// a larger buffer serves a smaller tensor only when nothing smaller fits,
/// and goes back whole.
pub(crate) fn take(len: usize) -> Buffer {
    if len >= MIN_BYTES {
        let reused = POOL.with(|p| {
            let mut p = p.borrow_mut();
            let buffers = &mut p.as_mut()?.buffers;
            // Newest last: `rev` makes the newest of equal sizes the minimum.
            let at = (0..buffers.len())
                .rev()
                .filter(|&i| buffers[i].len() >= len)
                .min_by_key(|&i| buffers[i].len())?;
            Some(buffers.remove(at))
        });
        if let Some(bytes) = reused {
            return Buffer { bytes, len };
        }
    }
    Buffer {
        bytes: vec![0u8; len],
        len,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::ElementType;

    fn big(len: usize) -> Tensor {
        Tensor::from_bytes(ElementType::U8, vec![len], vec![7; len]).unwrap()
    }

    /// A tensor of `len` bytes in a buffer [`take`] gave, filled with `value`.
    fn output(len: usize, value: u8) -> Tensor {
        let mut buffer = take(len);
        buffer.fill(value);
        Tensor::from_bytes(ElementType::U8, vec![len], buffer).unwrap()
    }

    /// The address range of the whole buffer a tensor's bytes are a view of.
    fn buffer_range(t: &Tensor) -> std::ops::Range<usize> {
        let start = t.data.as_slice().as_ptr() as usize - t.data.offset_in_backing();
        start..start + t.data.backing_len()
    }

    fn held() -> Vec<usize> {
        POOL.with(|p| {
            p.borrow()
                .as_ref()
                .map(|p| p.buffers.iter().map(Vec::len).collect())
                .unwrap_or_default()
        })
    }

    #[test]
    fn buffers_are_reused_only_during_a_run() {
        let spare = Spare::default();
        recycle(big(MIN_BYTES));
        assert!(take(MIN_BYTES).iter().all(|&b| b == 0), "off outside a run");
        {
            let _run = during_run(&spare);
            recycle(big(2 * MIN_BYTES));
            assert!(take(2 * MIN_BYTES).iter().all(|&b| b == 0), "no budget");
            allow(MIN_BYTES as u64);
            recycle(big(2 * MIN_BYTES));
            let reused = take(7 * MIN_BYTES / 4);
            assert_eq!((reused.len(), reused[0]), (7 * MIN_BYTES / 4, 7));
            // A view keeps its buffer from the pool.
            let t = big(MIN_BYTES);
            let view = t.clone();
            recycle(t);
            assert!(take(MIN_BYTES).iter().all(|&b| b == 0));
            drop(view);
            recycle(big(MIN_BYTES));
            // Small buffers are the allocator's.
            recycle(big(MIN_BYTES - 1));
            assert_eq!(held(), [MIN_BYTES]);
        }
        assert!(take(MIN_BYTES).iter().all(|&b| b == 0), "off after the run");
        let kept: Vec<usize> = spare.lock().unwrap().0.iter().map(Vec::len).collect();
        assert_eq!(kept, [MIN_BYTES], "what the pool held goes to the spare");
    }

    #[test]
    fn the_smallest_fit_is_taken_the_newest_of_equals_and_goes_back_whole() {
        let spare = Spare::default();
        let _run = during_run(&spare);
        allow(16 * MIN_BYTES as u64);
        for (len, value) in [(4, 1), (2, 2), (3, 3), (2, 4)] {
            let len = len * MIN_BYTES;
            recycle(Tensor::from_bytes(ElementType::U8, vec![len], vec![value; len]).unwrap());
        }
        // 2 units: the newest of the two 2-unit buffers.
        let t = output(2 * MIN_BYTES, 9);
        assert_eq!(held(), [4, 2, 3].map(|n| n * MIN_BYTES));
        drop(t);
        // 1 unit: the smallest that fits (2), a view of its first bytes;
        // stale contents, which the caller overwrites.
        let buffer = take(MIN_BYTES);
        assert_eq!((buffer.len(), buffer[0]), (MIN_BYTES, 2));
        let t = Tensor::from_bytes(ElementType::U8, vec![MIN_BYTES], buffer).unwrap();
        assert_eq!(t.data.backing_len(), 2 * MIN_BYTES);
        // 3.5 units: only the 4-unit buffer fits.
        let u = output(7 * MIN_BYTES / 2, 5);
        assert_eq!(u.data.backing_len(), 4 * MIN_BYTES);
        assert_eq!(held(), [3 * MIN_BYTES]);
        // Freed, each buffer goes back whole.
        recycle(u);
        recycle(t);
        assert_eq!(held(), [3, 4, 2].map(|n| n * MIN_BYTES));
        // Nothing fits: a new buffer of the size asked for.
        assert_eq!(output(5 * MIN_BYTES, 0).data.backing_len(), 5 * MIN_BYTES);
    }

    #[test]
    fn over_the_budget_the_least_recently_freed_go() {
        let spare = Spare::default();
        let _run = during_run(&spare);
        // A budget of 4 * 2 * MIN_BYTES.
        allow(2 * MIN_BYTES as u64);
        for len in [3, 1, 2, 1] {
            recycle(big(len * MIN_BYTES));
        }
        assert_eq!(held(), [3, 1, 2, 1].map(|n| n * MIN_BYTES));
        recycle(big(2 * MIN_BYTES));
        assert_eq!(held(), [1, 2, 1, 2].map(|n| n * MIN_BYTES));
    }

    /// A run's worth of outputs of many sizes taken and freed in an
    /// irregular order, twice: no two live tensors ever share a byte, each
    /// keeps what was written into it, and the second run, given the first
    /// one's buffers, allocates nothing.
    #[test]
    fn live_tensors_never_share_bytes_and_a_repeated_run_allocates_nothing() {
        let spare = Spare::default();
        let mut seed = 12345u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        // Each step: an output's size, and how many steps later it is freed.
        let steps: Vec<(usize, usize)> = (0..200)
            .map(|_| (MIN_BYTES + next() % (8 * MIN_BYTES), 1 + next() % 4))
            .collect();
        let mut fresh_per_run = Vec::new();
        for _ in 0..2 {
            let _run = during_run(&spare);
            let spared: Vec<usize> = POOL.with(|p| {
                let p = p.borrow();
                let buffers = p.as_ref().map(|p| p.buffers.as_slice()).unwrap_or(&[]);
                buffers.iter().map(|b| b.as_ptr() as usize).collect()
            });
            let mut live: Vec<(usize, u8, Tensor)> = Vec::new();
            let mut fresh = 0;
            for (step, &(len, lifetime)) in steps.iter().enumerate() {
                let (free, keep): (Vec<_>, Vec<_>) =
                    live.into_iter().partition(|(end, _, _)| *end <= step);
                live = keep;
                free.into_iter().for_each(|(_, _, t)| recycle(t));
                let value = step as u8;
                let t = output(len, value);
                let range = buffer_range(&t);
                if !spared.contains(&range.start) {
                    fresh += 1;
                }
                for (_, _, other) in &live {
                    let o = buffer_range(other);
                    assert!(range.end <= o.start || o.end <= range.start, "step {step}");
                }
                live.push((step + lifetime, value, t));
                allow(live.iter().map(|(_, _, t)| t.data.len() as u64).sum());
                for (_, value, t) in &live {
                    assert!(t.data.as_slice().iter().all(|b| b == value), "step {step}");
                }
            }
            live.into_iter().for_each(|(_, _, t)| recycle(t));
            fresh_per_run.push(fresh);
        }
        assert!(fresh_per_run[0] > 0);
        assert_eq!(fresh_per_run[1], 0, "the second run reuses every buffer");
    }

    #[test]
    fn an_output_keeps_no_much_larger_buffer() {
        let spare = Spare::default();
        let _run = during_run(&spare);
        allow(16 * MIN_BYTES as u64);
        recycle(big(4 * MIN_BYTES));
        let small = detach(output(MIN_BYTES, 3));
        assert_eq!(small.data.backing_len(), MIN_BYTES);
        assert!(small.data.as_slice().iter().all(|&b| b == 3));
        assert_eq!(held(), [4 * MIN_BYTES], "the large buffer is back");
        // Within a quarter of its size, it stays in its buffer.
        recycle(big(5 * MIN_BYTES));
        let close = output(4 * MIN_BYTES + 1, 1);
        let range = buffer_range(&close);
        assert_eq!(buffer_range(&detach(close)), range);
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
