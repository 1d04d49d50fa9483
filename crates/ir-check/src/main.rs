//! `ir-check MODEL.xml [--weights MODEL.bin] [--shape NAME=DIMS]... [--format text|json] [-q] [--timings]`,
//! or `ir-check --completions bash|zsh|fish`

use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;

// Loading a model is millions of small allocations (tag names, attributes,
// dims, report strings): mimalloc serves them several times faster than
// glibc's malloc (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let args = ir_check::Args::parse();
    let started = Instant::now();
    // The report is written as it is produced, through one buffer.
    let mut stdout = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let outcome = ir_check::run_streaming(&args, &mut stdout);
    let writing = Instant::now();
    // A closed pipe is not worth a panic: ignore write errors.
    let _ = stdout.write_all(outcome.stdout.as_bytes());
    let _ = stdout.flush();
    drop(stdout);
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    if args.timings {
        let line = outcome.timings.line(writing.elapsed(), started.elapsed());
        let _ = std::io::stderr().write_all(line.as_bytes());
    }
    ExitCode::from(outcome.status)
}
