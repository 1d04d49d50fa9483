//! Times `Model::check` (validate + infer) of one model, warm, in a loop: the
//! shape inference's share of a load, for profiling (issue 18).
//!
//! `cargo run --release -p ovir --example infer_loop -- RUNS MODEL.xml`
//! prints the first (cold) check and the median and fastest in milliseconds.

use std::time::Instant;

use ovir::{CheckOptions, Model};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(runs), Some(path)) = (args.next(), args.next()) else {
        eprintln!("usage: infer_loop RUNS MODEL.xml");
        std::process::exit(2);
    };
    let Ok(runs) = runs.parse::<usize>() else {
        eprintln!("RUNS must be a number");
        std::process::exit(2);
    };
    let model = match Model::open(&path) {
        Ok(model) => model,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let options = CheckOptions::default();
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let check = model.check(&options);
        std::hint::black_box(check.diagnostics().len());
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let first = times[0];
    times.sort_by(f64::total_cmp);
    println!(
        "check: first {first:.3} ms, median {:.3} ms, fastest {:.3} ms over {} runs",
        times[times.len() / 2],
        times[0],
        times.len()
    );
}
