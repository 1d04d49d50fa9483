//! Runs `ir-check`'s whole in-process path (read, validate, infer, write the
//! report into a sink) RUNS times on one model, with the binary's allocator,
//! and prints the fastest and median time: a loop to profile under
//! `perf record` without the process start-up (issue 18).
//!
//! `cargo run --release -p ir-check --example check_loop -- RUNS MODEL.xml [ir-check options]`

use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;

#[global_allocator]
static ALLOCATOR: ir_check::allocator::Mimalloc = ir_check::allocator::Mimalloc;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(runs) = args.next().and_then(|r| r.parse::<usize>().ok()) else {
        eprintln!("usage: check_loop RUNS MODEL.xml [ir-check options]");
        return ExitCode::from(2);
    };
    let check_args =
        match ir_check::Args::try_parse_from(std::iter::once("ir-check".to_owned()).chain(args)) {
            Ok(parsed) => parsed,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    let mut status = 0;
    for _ in 0..runs {
        let started = Instant::now();
        let outcome = ir_check::run_streaming(&check_args, &mut std::io::sink());
        times.push(started.elapsed());
        status = outcome.status;
    }
    times.sort();
    if let (Some(fastest), Some(median)) = (times.first(), times.get(times.len() / 2)) {
        println!(
            "runs={runs} status={status} fastest={:.3} ms median={:.3} ms",
            fastest.as_secs_f64() * 1e3,
            median.as_secs_f64() * 1e3
        );
    }
    ExitCode::SUCCESS
}
