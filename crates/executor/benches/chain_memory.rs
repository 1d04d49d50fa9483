//! Peak memory of a run on long chains of elementwise ops, measured with a
//! counting global allocator: bytes held at once during `Executor::run`,
//! beyond the caller's input. Prints a Markdown table for
//! `docs/performance.md`.
//!
//! ```sh
//! cargo bench -p executor --bench chain_memory
//! ```

use std::time::Instant;

use executor::{Executor, Tensor};

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/peak/mod.rs"]
mod peak;

use common::Net;

#[global_allocator]
static ALLOC: peak::Counting = peak::Counting;

const MIB: usize = 1 << 20;

/// `x → op_1 → … → op_n → Result`: ReLU, Add(v, x), Negative,
/// Multiply(x, v) in turn, so the input is read to the end.
fn chain(n: usize) -> Net {
    let mut net = Net::new();
    let x = net.param("x", "f32", "?,?");
    let mut v = x;
    for i in 0..n {
        let name = format!("op{i}");
        v = match i % 4 {
            0 => net.op(&name, "ReLU", "opset1", "", &[v], None),
            1 => net.op(&name, "Add", "opset1", "", &[v, x], None),
            2 => net.op(&name, "Negative", "opset1", "", &[v], None),
            _ => net.op(&name, "Multiply", "opset1", "", &[x, v], None),
        };
    }
    net.result("out", v);
    net
}

fn main() {
    // `cargo bench` passes `--bench`; nothing to filter here.
    println!(
        "| ops | tensor | every intermediate | peak during the run | peak / tensor | time per op |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    for (n, mib) in [(10, 16), (100, 16), (1000, 16), (100, 64)] {
        let rows = mib * MIB / 4 / 1024;
        let input = Tensor::from_vec(vec![rows, 1024], vec![0.5f32; rows * 1024]).unwrap();
        let exec = Executor::new(&chain(n).graph()).unwrap();
        let inputs = [("x".to_owned(), input)].into_iter().collect();
        let start = Instant::now();
        let (out, peak) = peak::peak_during(|| exec.run(inputs).unwrap());
        let per_op = start.elapsed().as_secs_f64() / n as f64;
        assert_eq!(out["out"].shape, [rows, 1024]);
        println!(
            "| {n} | {mib} MiB | {} MiB | {:.1} MiB | {:.2} | {:.2} ms |",
            n * mib,
            peak as f64 / MIB as f64,
            peak as f64 / (mib * MIB) as f64,
            per_op * 1e3
        );
    }
}
