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

/// `x [1, 16, 32, 32]` (64 KiB, the pool's smallest buffer) → a 3x3
/// convolution to 64 channels (256 KiB) → ReLU → a 1x1 convolution back to
/// 16 channels → Sigmoid, the Result: as large as `x`, computed when the
/// ReLU's 256 KiB buffer has just been freed (the best fit in the pool).
fn wide_net() -> Net {
    let mut net = Net::new();
    let x = net.param("x", "f32", "1,16,32,32");
    let expand: Vec<f32> = (0..64 * 16 * 9)
        .map(|i| (i % 11) as f32 * 0.05 - 0.25)
        .collect();
    let w1 = net.f32s("w1", &[64, 16, 3, 3], &expand);
    let attrs =
        r#"strides="1,1" dilations="1,1" pads_begin="1,1" pads_end="1,1" auto_pad="explicit""#;
    let conv = net.op("expand", "Convolution", "opset1", attrs, &[x, w1], None);
    let relu = net.op("relu", "ReLU", "opset1", "", &[conv], None);
    let project: Vec<f32> = (0..16 * 64).map(|i| (i % 5) as f32 * 0.1 - 0.2).collect();
    let w2 = net.f32s("w2", &[16, 64, 1, 1], &project);
    let attrs =
        r#"strides="1,1" dilations="1,1" pads_begin="0,0" pads_end="0,0" auto_pad="explicit""#;
    let narrow = net.op("project", "Convolution", "opset1", attrs, &[relu, w2], None);
    let squashed = net.op("squashed", "Sigmoid", "opset1", "", &[narrow], None);
    net.result("narrow", squashed);
    net
}

type Outputs = HashMap<String, Tensor>;

/// The address range of the whole buffer an output's bytes are a view of.
fn buffer_range(t: &Tensor) -> std::ops::Range<usize> {
    let start = t.data.as_slice().as_ptr() as usize - t.data.offset_in_backing();
    start..start + t.data.backing_len()
}

#[test]
fn outputs_kept_by_the_caller_are_never_written_by_later_runs() {
    let graph = wide_net().graph();
    let exec = Executor::new(&graph).unwrap();
    // Each run's outputs, and a copy of their bytes.
    let mut kept: Vec<(Outputs, HashMap<String, Vec<u8>>)> = Vec::new();
    for i in 0..4 {
        let got = run(&exec, &input([1, 16, 32, 32], i));
        let copies = got
            .iter()
            .map(|(name, t)| (name.clone(), t.bytes().to_vec()))
            .collect();
        // An output holds a buffer of about its own size, not a larger
        // pooled one the next run would have to allocate again.
        for (name, t) in &got {
            let (len, whole) = (t.data.len(), t.data.backing_len());
            assert!(
                whole <= len + len / 4,
                "run {i} {name}: {len} bytes in {whole}"
            );
        }
        kept.push((got, copies));
    }
    for (i, (outputs, copies)) in kept.iter().enumerate() {
        for (name, t) in outputs {
            assert_eq!(t.bytes(), copies[name].as_slice(), "run {i} {name} changed");
        }
    }
    let mut ranges: Vec<_> = kept
        .iter()
        .flat_map(|(outputs, _)| outputs.values().map(buffer_range))
        .collect();
    ranges.sort_by_key(|r| r.start);
    for pair in ranges.windows(2) {
        assert!(pair[0].end <= pair[1].start, "two outputs share a buffer");
    }
    let fresh = run(&Executor::new(&graph).unwrap(), &input([1, 16, 32, 32], 3));
    assert_eq!(kept[3].0["narrow"].bytes(), fresh["narrow"].bytes());
}
