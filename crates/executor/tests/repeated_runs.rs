//! One executor run again and again: it keeps the shapes it inferred for
//! its last run's input shapes and reuses them while the shapes stay the
//! same, so a run at other shapes, and back, must give what a fresh
//! executor gives.

mod common;

use std::collections::HashMap;

use common::Net;
use executor::{Executor, Tensor};

/// `x [N, 3, H, W]` → a 3x3 convolution (pads 1) with the residual Add of
/// `x` and a ReLU (fused), and `ShapeOf(x)` → Reshape of the output to
/// `[N, 3·H·W]` through a shape computed from `x`'s.
fn net() -> Net {
    let mut net = Net::new();
    let x = net.param("x", "f32", "?,3,?,?");
    let weights: Vec<f32> = (0..81).map(|i| (i % 7) as f32 * 0.25 - 0.75).collect();
    let w = net.f32s("w", &[3, 3, 3, 3], &weights);
    let attrs =
        r#"strides="1,1" dilations="1,1" pads_begin="1,1" pads_end="1,1" auto_pad="explicit""#;
    let conv = net.op("conv", "Convolution", "opset1", attrs, &[x, w], None);
    let add = net.op("add", "Add", "opset1", "", &[conv, x], None);
    let relu = net.op("relu", "ReLU", "opset1", "", &[add], None);
    let shape = net.op("shape", "ShapeOf", "opset3", "", &[x], None);
    net.result("dims", shape);
    let batch = net.i64s("first", &[1], &[0]);
    let axis = net.i64s("axis", &[], &[0]);
    let n = net.op(
        "n",
        "Gather",
        "opset8",
        r#"batch_dims="0""#,
        &[shape, batch, axis],
        None,
    );
    let rest = net.i64s("rest", &[1], &[-1]);
    let target = net.op(
        "target",
        "Concat",
        "opset1",
        r#"axis="0""#,
        &[n, rest],
        None,
    );
    let flat = net.op(
        "flat",
        "Reshape",
        "opset1",
        r#"special_zero="false""#,
        &[relu, target],
        None,
    );
    net.result("out", flat);
    net
}

fn input(shape: [usize; 4], seed: usize) -> Tensor {
    let n: usize = shape.iter().product();
    let values = (0..n)
        .map(|i| ((i * 31 + seed * 7) % 23) as f32 * 0.5 - 5.0)
        .collect();
    Tensor::from_vec(shape.to_vec(), values).unwrap()
}

fn run(exec: &Executor, x: &Tensor) -> HashMap<String, Tensor> {
    exec.run(HashMap::from([("x".to_owned(), x.clone())]))
        .unwrap()
}

#[test]
fn a_run_at_other_shapes_and_back_equals_a_fresh_executors() {
    let graph = net().graph();
    let kept = Executor::new(&graph).unwrap();
    let shapes = [
        [1, 3, 5, 7],
        [2, 3, 4, 6],
        [1, 3, 5, 7],
        [1, 3, 5, 7],
        [2, 3, 9, 2],
    ];
    for (i, shape) in shapes.into_iter().enumerate() {
        let x = input(shape, i);
        let got = run(&kept, &x);
        let want = run(&Executor::new(&graph).unwrap(), &x);
        let [n, c, h, w] = shape;
        assert_eq!(got["out"].shape, vec![n, c * h * w], "run {i}");
        assert_eq!(
            got["dims"].to_i64s().unwrap(),
            [n, c, h, w].map(|d| d as i64)
        );
        for name in ["out", "dims"] {
            assert_eq!(got[name].shape, want[name].shape, "run {i} {name}");
            assert_eq!(got[name].bytes(), want[name].bytes(), "run {i} {name}");
        }
    }
}
