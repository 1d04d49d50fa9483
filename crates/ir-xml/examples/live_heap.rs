//! The live heap of one read (issue 18): every allocation counted, the
//! peak of live bytes and when it came, and each block of 1 MiB or more
//! as it is made and freed. Not the resident memory (the allocator keeps
//! freed pages a while), but what the read holds, load-independent.
//!
//! `cargo run --release -p ir-xml --example live_heap -- MODEL.xml`

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static LOG_LARGE: AtomicBool = AtomicBool::new(false);
const LARGE: usize = 1 << 20;

fn log(what: &str, size: usize) {
    if LOG_LARGE.load(Ordering::Relaxed) && size >= LARGE {
        let live = LIVE.load(Ordering::Relaxed);
        // Formatting allocates nothing here: a fixed buffer on the stack.
        let mut line = [0u8; 96];
        let mut cursor = std::io::Cursor::new(&mut line[..]);
        let _ = std::io::Write::write_fmt(
            &mut cursor,
            format_args!(
                "{what} {:.2} MiB, live {:.2} MiB\n",
                size as f64 / 1048576.0,
                live as f64 / 1048576.0
            ),
        );
        let end = cursor.position() as usize;
        let _ = std::io::Write::write_all(&mut std::io::stderr(), &line[..end]);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        log("alloc", layout.size());
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        log("free", layout.size());
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let live = LIVE.fetch_add(new_size, Ordering::Relaxed) + new_size;
        PEAK.fetch_max(live, Ordering::Relaxed);
        if new_size.max(layout.size()) >= LARGE {
            log("realloc from", layout.size());
            log("        to", new_size.max(LARGE));
        }
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn mib(bytes: usize) -> f64 {
    bytes as f64 / 1048576.0
}

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: live_heap MODEL.xml");
        return ExitCode::FAILURE;
    };
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    LOG_LARGE.store(true, Ordering::Relaxed);
    let started = Instant::now();
    // As ir-check reads it: mapped, its pages given back as they are read.
    let text = match ir_xml::MappedText::open(Path::new(&path)) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = ir_xml::read_model_mapped(&text, Path::new(&path), None);
    let elapsed = started.elapsed();
    LOG_LARGE.store(false, Ordering::Relaxed);
    let after = LIVE.load(Ordering::Relaxed);
    let peak = PEAK.load(Ordering::Relaxed);
    match outcome {
        Ok(outcome) => {
            println!(
                "{} nodes, {} edges, {} diagnostics; read {:.1} ms",
                outcome.graph.node_count(),
                outcome.graph.graph.edge_count(),
                outcome.diagnostics.len(),
                elapsed.as_secs_f64() * 1e3
            );
            println!(
                "live heap: peak {:.2} MiB, after the read {:.2} MiB (peak - kept = {:.2} MiB)",
                mib(peak - before),
                mib(after - before),
                mib(peak - after)
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{error}");
            ExitCode::FAILURE
        }
    }
}
