//! The live heap of one whole check (issue 18): every allocation counted
//! (over the system allocator), sampled every millisecond by a thread of
//! its own, with the peak and the end. Not the resident memory (an
//! allocator keeps freed pages a while) but what the check holds,
//! load-independent.
//!
//! `cargo run --release -p ir-check --example live_heap -- MODEL.xml [ir-check options]`

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let live = LIVE.fetch_add(new_size, Ordering::Relaxed) + new_size;
        PEAK.fetch_max(live, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn mib(bytes: usize) -> f64 {
    bytes as f64 / 1048576.0
}

fn main() {
    let args = ir_check::Args::parse_from(
        std::iter::once("ir-check".to_owned()).chain(std::env::args().skip(1)),
    );
    let done = AtomicBool::new(false);
    let started = Instant::now();
    std::thread::scope(|scope| {
        let sampler = scope.spawn(|| {
            let mut samples = Vec::with_capacity(1 << 16);
            let mut last_peak = 0;
            while !done.load(Ordering::Relaxed) {
                let peak = PEAK
                    .swap(0, Ordering::Relaxed)
                    .max(LIVE.load(Ordering::Relaxed));
                last_peak = last_peak.max(peak);
                samples.push((started.elapsed(), LIVE.load(Ordering::Relaxed), peak));
                std::thread::sleep(Duration::from_millis(1));
            }
            (samples, last_peak)
        });
        let mut sink = std::io::sink();
        let outcome = ir_check::run_streaming(&args, &mut sink);
        let end = LIVE.load(Ordering::Relaxed);
        done.store(true, Ordering::Relaxed);
        let (samples, peak) = sampler.join().unwrap_or_default();
        eprint!(
            "{}",
            outcome.timings.line(Duration::ZERO, started.elapsed())
        );
        let step = (samples.len() / 40).max(1);
        for chunk in samples.chunks(step) {
            let (at, live, _) = chunk[0];
            let high = chunk.iter().map(|s| s.2).max().unwrap_or(0);
            println!(
                "{:8.1} ms live {:6.1} MiB, highest in the next {} ms {:6.1}",
                at.as_secs_f64() * 1e3,
                mib(live),
                chunk.len(),
                mib(high)
            );
        }
        println!("peak {:.2} MiB, at the end {:.2} MiB", mib(peak), mib(end));
    });
}
