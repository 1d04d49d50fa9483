//! `ir-check MODEL.xml [--weights MODEL.bin] [--shape NAME=DIMS]... [--format text|json] [-q] [--timings]`,
//! or `ir-check --completions bash|zsh|fish`

use std::io::Write;
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
    let outcome = ir_check::run(&args);
    let writing = Instant::now();
    // A closed pipe is not worth a panic: ignore write errors.
    let _ = std::io::stdout().write_all(outcome.stdout.as_bytes());
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    if args.timings {
        let line = outcome.timings.line(writing.elapsed(), started.elapsed());
        let _ = std::io::stderr().write_all(line.as_bytes());
    }
    ExitCode::from(outcome.status)
}
