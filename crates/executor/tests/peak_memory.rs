//! Peak memory of a run is bounded by the tensors live at once, not by the
//! graph: on a chain of elementwise ops each intermediate is freed once its
//! consumer has run. (`benches/chain_memory.rs` prints the figures for
//! `docs/performance.md`.)

mod common;
mod peak;

use common::Net;
use executor::{Executor, Tensor};

#[global_allocator]
static ALLOC: peak::Counting = peak::Counting;

/// `x → op_1 → … → op_n → Result`, cycling through unary ops, with every
/// other op an Add of the running value and `x` (so the input stays live
/// to the end).
fn chain(n: usize) -> Net {
    let mut net = Net::new();
    let x = net.param("x", "f32", "?,?");
    let mut v = x;
    for i in 0..n {
        v = match i % 4 {
            0 => net.op(&format!("op{i}"), "ReLU", "opset1", "", &[v], None),
            1 => net.op(&format!("op{i}"), "Add", "opset1", "", &[v, x], None),
            2 => net.op(&format!("op{i}"), "Negative", "opset1", "", &[v], None),
            _ => net.op(&format!("op{i}"), "Multiply", "opset1", "", &[x, v], None),
        };
    }
    net.result("out", v);
    net
}

#[test]
fn a_long_chain_holds_two_intermediates_at_once() {
    let (rows, cols) = (1024, 1024);
    let tensor_bytes = rows * cols * 4;
    let values: Vec<f32> = (0..rows * cols).map(|i| (i % 7) as f32 - 3.0).collect();
    let input = Tensor::from_vec(vec![rows, cols], values.clone()).unwrap();
    let mut peaks = Vec::new();
    for n in [4, 64] {
        let exec = Executor::new(&chain(n).graph()).unwrap();
        let inputs = [("x".to_owned(), input.clone())].into_iter().collect();
        let (out, peak) = peak::peak_during(|| exec.run(inputs).unwrap());
        assert_eq!(out["out"].shape, [rows, cols]);
        // The values too: buffers are reused between ops, so a kernel that
        // left a byte unwritten would show here.
        let expected = values.iter().map(|&x| {
            (0..n).fold(x, |v, i| match i % 4 {
                0 => v.max(0.0),
                1 => v + x,
                2 => -v,
                _ => x * v,
            })
        });
        let got = out["out"].to_vec::<f32>().unwrap();
        assert!(got.iter().zip(expected).all(|(&g, e)| g == e), "{n} ops");
        peaks.push(peak);
        // The op running and the value it reads (the input is the caller's),
        // plus bookkeeping well under one tensor.
        assert!(
            peak < 2 * tensor_bytes + tensor_bytes / 4,
            "{n} ops: peak {peak} bytes for tensors of {tensor_bytes}"
        );
    }
    // Sixteen times the ops, not sixteen times the memory.
    assert!(peaks[1] < peaks[0] + tensor_bytes / 4, "{peaks:?}");
}
