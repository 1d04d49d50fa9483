//! Deep and wide graphs run without recursion over their depth and with
//! memory bounded by the live tensors.

mod common;

use common::{f32_out, Net};
use executor::Tensor;

#[test]
fn a_chain_of_100_000_layers_runs() {
    const N: usize = 100_000;
    let mut net = Net::new();
    let x = net.param("x", "f32", "?");
    let mut v = x;
    for i in 0..N {
        // Negative twice is the identity; the ReLU between keeps it honest.
        let op = if i % 3 == 2 { "ReLU" } else { "Negative" };
        v = net.op(&format!("l{i}"), op, "opset1", "", &[v], None);
    }
    net.result("out", v);
    let input = Tensor::from_vec(vec![4], vec![-2.0f32, -0.5, 0.0, 3.0]).unwrap();
    let out = net.exec(vec![("x", input)]).unwrap();
    // Per three layers: -(-v) then ReLU, so after the first three only the
    // non-negative values remain, unchanged; 100,000 = 3 * 33,333 + 1: a
    // final Negative.
    assert_eq!(
        f32_out(&out, "out"),
        (vec![4], vec![-0.0, -0.0, -0.0, -3.0])
    );
}

#[test]
fn two_thousand_inputs_summed() {
    const N: usize = 2_000;
    let mut net = Net::new();
    let inputs: Vec<_> = (0..N)
        .map(|i| net.param(&format!("x{i}"), "f32", "2"))
        .collect();
    let mut sum = inputs[0];
    for (i, &x) in inputs.iter().enumerate().skip(1) {
        sum = net.op(&format!("add{i}"), "Add", "opset1", "", &[sum, x], None);
    }
    net.result("out", sum);
    let names: Vec<String> = (0..N).map(|i| format!("x{i}")).collect();
    let feeds = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let t = Tensor::from_vec(vec![2], vec![i as f32, 1.0]).unwrap();
            (n.as_str(), t)
        })
        .collect();
    let out = net.exec(feeds).unwrap();
    let total = (N * (N - 1) / 2) as f32;
    assert_eq!(f32_out(&out, "out"), (vec![2], vec![total, N as f32]));
}
