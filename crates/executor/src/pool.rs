//! Reuse of freed intermediate buffers within a run.
//!
//! Large allocations come from the OS as fresh pages (glibc maps anything
//! over 32 MiB anew each time), and the first write to each page faults:
//! for a large tensor that costs more than the kernel. While a run is on,
//! the executor hands the buffers of intermediates it frees to this pool
//! and [`crate::parallel::filled`] takes one back for an output of about
//! the same size, so a chain of large ops reuses two buffers instead of
//! mapping a new one per op. The pool holds at most [`MAX_BUFFERS`], is
//! per thread (the executor's), and is emptied when the run ends.

use std::cell::RefCell;

use crate::tensor::Tensor;

/// Buffers smaller than this are left to the allocator, which reuses them
/// well by itself.
const MIN_BYTES: usize = 1 << 20;

/// How many freed buffers the pool keeps at most.
const MAX_BUFFERS: usize = 2;

thread_local! {
    /// `None` outside a run: nothing is kept.
    static POOL: RefCell<Option<Vec<Vec<u8>>>> = const { RefCell::new(None) };
}

/// Keeps freed buffers for reuse on this thread until dropped.
pub(crate) struct PoolGuard(());

/// Turns the pool on for this thread until the guard is dropped.
pub(crate) fn during_run() -> PoolGuard {
    POOL.with(|p| *p.borrow_mut() = Some(Vec::new()));
    PoolGuard(())
}

impl Drop for PoolGuard {
    fn drop(&mut self) {
        POOL.with(|p| *p.borrow_mut() = None);
    }
}

/// Offers the buffer of a tensor the run no longer needs. Kept when the
/// pool is on, the buffer is large, owned and not shared by a view.
pub(crate) fn recycle(t: Tensor) {
    if t.data.len() < MIN_BYTES {
        return;
    }
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        let Some(buffers) = p.as_mut() else { return };
        if let Ok(buffer) = t.data.into_vec() {
            if buffers.len() == MAX_BUFFERS {
                buffers.remove(0);
            }
            buffers.push(buffer);
        }
    });
}

/// A buffer of `len` bytes: a pooled one of `len..=2 * len` bytes cut to
/// `len` (its old contents stay: the caller overwrites every byte), or a
/// new zeroed one.
pub(crate) fn take(len: usize) -> Vec<u8> {
    if len >= MIN_BYTES {
        let reused = POOL.with(|p| {
            let mut p = p.borrow_mut();
            let buffers = p.as_mut()?;
            let at = buffers
                .iter()
                .position(|b| b.len() >= len && b.len() / 2 <= len)?;
            Some(buffers.swap_remove(at))
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
        recycle(big(MIN_BYTES));
        assert!(take(MIN_BYTES).iter().all(|&b| b == 0), "off outside a run");
        {
            let _run = during_run();
            recycle(big(3 * MIN_BYTES));
            // Too large for a third of it; right for 2 MiB.
            assert!(take(MIN_BYTES).iter().all(|&b| b == 0));
            let reused = take(2 * MIN_BYTES);
            assert_eq!((reused.len(), reused[0]), (2 * MIN_BYTES, 7));
            // A view keeps its buffer from the pool.
            let t = big(MIN_BYTES);
            let view = t.clone();
            recycle(t);
            assert!(take(MIN_BYTES).iter().all(|&b| b == 0));
            drop(view);
            recycle(big(MIN_BYTES));
        }
        assert!(
            take(MIN_BYTES).iter().all(|&b| b == 0),
            "emptied at the end"
        );
    }
}
