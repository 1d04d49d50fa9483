//! When kernels use more than one thread.
//!
//! A kernel writes its output in chunks of whole units (elements or rows).
//! Small outputs stay on the calling thread: below [`PARALLEL_MIN_BYTES`]
//! handing chunks to rayon's pool costs more than it saves. Large ones are
//! split into tasks of about [`TASK_BYTES`] (at least one per thread),
//! which also spreads the page faults of a fresh output buffer over the
//! threads. A kernel whose work per byte is smaller or larger may choose
//! its own bound ([`filled_from`]: a Concat's copy splits from 128 KiB).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rayon::Yield;

/// Outputs smaller than this are computed on the calling thread.
pub(crate) const PARALLEL_MIN_BYTES: usize = 1 << 20;

/// About how many output bytes one parallel task writes.
const TASK_BYTES: usize = 256 << 10;

/// Calls `fill(first_unit, chunk)` over `out` cut into chunks of whole
/// units of `unit` bytes (`first_unit` is the index of the chunk's first
/// unit); in parallel, in at least one chunk per thread, when `out` holds
/// `min_bytes` or more. `out.len()` must be a multiple of `unit`.
fn for_chunks(
    out: &mut [u8],
    unit: usize,
    min_bytes: usize,
    fill: impl Fn(usize, &mut [u8]) + Sync,
) {
    if unit == 0 || out.is_empty() {
        return;
    }
    let threads = rayon::current_num_threads();
    if out.len() < min_bytes || threads < 2 {
        fill(0, out);
        return;
    }
    let units = out.len() / unit;
    let units_per_task = (TASK_BYTES / unit).min(units.div_ceil(threads)).max(1);
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
    filled_from(len, unit, PARALLEL_MIN_BYTES, fill)
}

/// [`filled`], in parallel from `min_bytes` of output on rather than from
/// [`PARALLEL_MIN_BYTES`].
pub(crate) fn filled_from(
    len: usize,
    unit: usize,
    min_bytes: usize,
    fill: impl Fn(usize, &mut [u8]) + Sync,
) -> crate::pool::Buffer {
    // A new buffer of this size comes from the allocator as fresh pages,
    // first touched by the (parallel) fill.
    let mut out = crate::pool::take(len);
    for_chunks(&mut out, unit, min_bytes, fill);
    out
}

/// Keeps the other workers of the current rayon pool awake while it lives.
///
/// A rayon worker that finds no work sleeps after a few dozen rounds of
/// looking (tens of µs), and waking it (a futex in a VM) costs about as
/// much as half of a small layer's product takes: the split of a small
/// layer gained nothing. While a `KeepAwake` lives, every other worker of
/// the pool runs a job that looks for work in a loop (`rayon::yield_now`,
/// which runs any pending job of the pool, stolen halves included, and
/// between looks the OS's `sched_yield`, as rayon's own idle rounds do) and
/// so never sleeps; dropping it (also on an error return or while
/// unwinding) ends those jobs, and the workers go back to rayon's idling.
///
/// It does nothing outside a pool (a run on a plain thread hands its
/// chunks to the global pool, whose workers would compete with the caller
/// for the cores), in a pool of one thread, or while another `KeepAwake`
/// of the process is active (one at a time: concurrent runs in one pool
/// would otherwise park spinners on each other's threads). A worker that
/// finds nothing to do for [`KeepAwake::MAX_IDLE`] stops spinning early, so a spinning
/// job that started on a thread in the middle of other work (waiting for a
/// stolen half of its own) hands that thread back within that time.
#[must_use = "the workers spin only while the guard lives"]
#[derive(Debug)]
pub struct KeepAwake {
    /// Cleared on drop; shared with the spinning jobs. `None` when inactive.
    running: Option<Arc<AtomicBool>>,
}

/// Whether a [`KeepAwake`] of this process is active.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// How many workers are in a spinning job now (for tests and benches).
static SPINNING: AtomicUsize = AtomicUsize::new(0);

/// How many spinning jobs have started since the process started.
static STARTED: AtomicUsize = AtomicUsize::new(0);

impl KeepAwake {
    /// How long a spinning worker may find nothing to do before it stops.
    pub const MAX_IDLE: Duration = Duration::from_millis(1);

    /// Starts keeping the current pool's other workers awake, where that
    /// can help (see the type's documentation).
    pub fn new() -> KeepAwake {
        KeepAwake::with_max_idle(KeepAwake::MAX_IDLE)
    }

    /// [`KeepAwake::new`] with workers that stop spinning after finding
    /// nothing to do for `max_idle` instead of [`KeepAwake::MAX_IDLE`].
    pub fn with_max_idle(max_idle: Duration) -> KeepAwake {
        let inactive = KeepAwake { running: None };
        let Some(home) = rayon::current_thread_index() else {
            return inactive;
        };
        if rayon::current_num_threads() < 2
            || ACTIVE
                .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return inactive;
        }
        let running = Arc::new(AtomicBool::new(true));
        let flag = Arc::clone(&running);
        // One job per worker; the calling thread's returns at once (it is
        // the run's thread, and it would block the run).
        rayon::spawn_broadcast(move |context| {
            if context.index() != home {
                spin_while(&flag, max_idle);
            }
        });
        KeepAwake {
            running: Some(running),
        }
    }

    /// Whether this guard keeps workers awake (false where it does nothing).
    pub fn is_active(&self) -> bool {
        self.running.is_some()
    }

    /// How many workers of the process are spinning for a guard now.
    pub fn spinning_workers() -> usize {
        SPINNING.load(Ordering::Relaxed)
    }

    /// How many workers started spinning for a guard since the process
    /// started (a worker that went idle for [`KeepAwake::MAX_IDLE`], on a
    /// loaded machine too, may have stopped before anyone looked).
    pub fn spins_started() -> usize {
        STARTED.load(Ordering::Relaxed)
    }
}

impl Default for KeepAwake {
    fn default() -> Self {
        KeepAwake::new()
    }
}

impl Drop for KeepAwake {
    fn drop(&mut self) {
        if let Some(running) = self.running.take() {
            running.store(false, Ordering::Release);
            ACTIVE.store(false, Ordering::Release);
        }
    }
}

/// Runs the pool's pending jobs, spinning between them, until `running` is
/// cleared or it found nothing to do for `max_idle` of its own time.
fn spin_while(running: &AtomicBool, max_idle: Duration) {
    /// A longer gap between two looks is the thread's time off the core
    /// (a busy machine), not time spent looking: it counts this much.
    const LOOK: Duration = Duration::from_micros(20);
    struct Counted;
    impl Drop for Counted {
        fn drop(&mut self) {
            SPINNING.fetch_sub(1, Ordering::Relaxed);
        }
    }
    SPINNING.fetch_add(1, Ordering::Relaxed);
    STARTED.fetch_add(1, Ordering::Relaxed);
    let _counted = Counted;
    let mut idle = Duration::ZERO;
    let mut last = Instant::now();
    while running.load(Ordering::Acquire) {
        match rayon::yield_now() {
            Some(Yield::Executed) => {
                idle = Duration::ZERO;
                last = Instant::now();
            }
            Some(Yield::Idle) => {
                let now = Instant::now();
                idle += (now - last).min(LOOK);
                last = now;
                if idle > max_idle {
                    return;
                }
                // As rayon's own idle rounds do: on a quiet machine the
                // call returns at once; on a busy one the core goes to
                // whoever else is runnable while there is nothing to steal,
                // rather than this thread burning its share and being
                // preempted later, in the middle of a stolen half.
                std::thread::yield_now();
            }
            // Not on a worker thread: nothing to keep awake.
            None => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unit_is_filled_once_in_order() {
        let pool = crate::gemm::test_pool(2);
        for min_bytes in [PARALLEL_MIN_BYTES, 64] {
            for len in [0usize, 4, 68, 4096, PARALLEL_MIN_BYTES + 12] {
                let out = pool.install(|| {
                    filled_from(len, 4, min_bytes, |first, chunk| {
                        for (k, c) in chunk.chunks_exact_mut(4).enumerate() {
                            c.copy_from_slice(&((first + k) as u32).to_le_bytes());
                        }
                    })
                });
                assert_eq!(out.len(), len);
                for (k, c) in out.chunks_exact(4).enumerate() {
                    assert_eq!(u32::from_le_bytes(c.try_into().unwrap()), k as u32);
                }
            }
        }
    }
}
