//! Winograd's transformed filters belong to the convolution node: a layer
//! whose weights are constant transforms them at its first Winograd run and
//! keeps them in the executor (counted by `Executor::filter_transforms`,
//! freed with it); a weight a run computes is transformed per call and never
//! kept; two executors or two nodes never share a transform. Every output is
//! checked against the convolution summed in f64.
//!
//! The layers have 16 input and output channels and 3x3 kernels: at 40x40
//! (100 F(4x4) tiles) `winograd::choose` takes F(4x4, 3x3), at 24x24 (144
//! F(2x2) tiles, 36 F(4x4) ones) F(2x2, 3x3), at 8x8 the direct path. (With `OVIR_NO_WINOGRAD` or `OVIR_WINOGRAD` set
//! the counts differ: run these tests without them.)

mod common;

use common::{f32_out, Net, Out};
use executor::{Executor, Tensor};

const C: usize = 16;
const PADS: &str =
    r#"strides="1,1" dilations="1,1" pads_begin="1,1" pads_end="1,1" auto_pad="explicit""#;

/// Deterministic values of both signs and magnitudes from 0.01 to 10.
fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let unit = (state >> 40) as f32 / (1u64 << 24) as f32;
            let sign = if state & 1 == 0 { 1.0 } else { -1.0 };
            let scale = [0.01, 0.1, 1.0, 10.0][(state >> 8) as usize % 4];
            sign * unit * scale
        })
        .collect()
}

/// A 3x3 convolution (pads 1) of `x` (`[C, h, w]`, batch 1) by `weights`
/// (`[C, C, 3, 3]`), summed in f64.
fn reference(x: &[f32], weights: &[f32], (h, w): (usize, usize)) -> Vec<f64> {
    let mut out = vec![0f64; C * h * w];
    for co in 0..C {
        for y in 0..h {
            for xo in 0..w {
                let mut sum = 0f64;
                for ci in 0..C {
                    for ky in 0..3 {
                        for kx in 0..3 {
                            let (iy, ix) = ((y + ky) as i64 - 1, (xo + kx) as i64 - 1);
                            if (0..h as i64).contains(&iy) && (0..w as i64).contains(&ix) {
                                let v = x[(ci * h + iy as usize) * w + ix as usize];
                                let k = weights[((co * C + ci) * 3 + ky) * 3 + kx];
                                sum += f64::from(v) * f64::from(k);
                            }
                        }
                    }
                }
                out[(co * h + y) * w + xo] = sum;
            }
        }
    }
    out
}

/// `ReLU(v + bias)` of each value (`[C, plane]`).
fn bias_relu(values: &[f64], bias: &[f32]) -> Vec<f64> {
    let plane = values.len() / C;
    values
        .iter()
        .enumerate()
        .map(|(i, &v)| (v + f64::from(bias[i / plane])).max(0.0))
        .collect()
}

/// Asserts `ours` is within 1e-5 of `exact`'s largest value of it.
fn assert_close(ours: &[f32], exact: &[f64], what: &str) {
    assert_eq!(ours.len(), exact.len(), "{what}");
    let scale = exact.iter().fold(1e-30f64, |a, &v| a.max(v.abs()));
    for (i, (&a, &b)) in ours.iter().zip(exact).enumerate() {
        let error = (f64::from(a) - b).abs() / scale;
        assert!(error < 1e-5, "{what}: output {i} is {a}, exactly {b}");
    }
}

fn conv(net: &mut Net, name: &str, x: Out, w: Out) -> Out {
    net.op(name, "Convolution", "opset1", PADS, &[x, w], None)
}

/// `x → conv1 (w1) → +bias → ReLU → conv2 (w2) → "out"`, both weights
/// Consts: conv1 runs fused with its bias and ReLU, conv2 plain.
fn two_layers(w1: &[f32], bias: &[f32], w2: &[f32]) -> Net {
    let mut net = Net::new();
    let shape = [C as u64, C as u64, 3, 3];
    let x = net.param("x", "f32", &format!("1,{C},?,?"));
    let w1 = net.f32s("w1", &shape, w1);
    let y = conv(&mut net, "conv1", x, w1);
    let b = net.f32s("bias", &[1, C as u64, 1, 1], bias);
    let y = net.op("add", "Add", "opset1", "", &[y, b], None);
    let y = net.op("relu", "ReLU", "opset1", "", &[y], None);
    let w2 = net.f32s("w2", &shape, w2);
    let y = conv(&mut net, "conv2", y, w2);
    net.result("out", y);
    net
}

fn input(h: usize, w: usize, seed: u64) -> Tensor {
    Tensor::from_vec(vec![1, C, h, w], values(C * h * w, seed)).unwrap()
}

fn run_out(exec: &Executor, inputs: Vec<(&str, Tensor)>) -> Vec<f32> {
    let inputs = inputs
        .into_iter()
        .map(|(name, t)| (name.to_owned(), t))
        .collect();
    f32_out(&exec.run(inputs).unwrap(), "out").1
}

/// The two layers' exact output on `x`.
fn expected(x: &Tensor, (w1, bias, w2): (&[f32], &[f32], &[f32])) -> Vec<f64> {
    let plane = (x.shape[2], x.shape[3]);
    let hidden = bias_relu(&reference(&x.to_vec::<f32>().unwrap(), w1, plane), bias);
    // conv2 reads conv1's f32 outputs.
    let hidden: Vec<f32> = hidden.iter().map(|&v| v as f32).collect();
    reference(&hidden, w2, plane)
}

fn weights(seed: u64) -> Vec<f32> {
    values(C * C * 9, seed)
}

#[test]
fn constant_weights_are_transformed_once_per_node_across_runs() {
    let (w1, bias, w2) = (weights(1), values(C, 2), weights(3));
    let exec = Executor::new(&two_layers(&w1, &bias, &w2).graph()).unwrap();
    assert_eq!(exec.filter_transforms(), 0, "nothing before a run needs it");
    assert_eq!(exec.prepared_filter_bytes(), 0);
    let x = input(24, 24, 4);
    let first = run_out(&exec, vec![("x", x.clone())]);
    assert_close(&first, &expected(&x, (&w1, &bias, &w2)), "first run");
    // One F(2x2) transform per layer: 16 values per 3x3 filter.
    assert_eq!(exec.filter_transforms(), 2);
    assert_eq!(exec.prepared_filter_bytes(), 2 * 16 * C * C * 4);
    for _ in 0..3 {
        assert_eq!(run_out(&exec, vec![("x", x.clone())]), first);
    }
    assert_eq!(exec.filter_transforms(), 2, "kept from the first run");
}

#[test]
fn a_plane_too_small_for_winograd_goes_direct_and_the_kept_filters_stay() {
    let (w1, bias, w2) = (weights(5), values(C, 6), weights(7));
    let exec = Executor::new(&two_layers(&w1, &bias, &w2).graph()).unwrap();
    let large = input(24, 26, 8);
    let small = input(8, 8, 9);
    let small_first = run_out(&exec, vec![("x", small.clone())]);
    assert_close(&small_first, &expected(&small, (&w1, &bias, &w2)), "8x8");
    assert_eq!(
        exec.filter_transforms(),
        0,
        "the direct path transforms nothing"
    );
    let large_first = run_out(&exec, vec![("x", large.clone())]);
    assert_close(&large_first, &expected(&large, (&w1, &bias, &w2)), "24x26");
    assert_eq!(exec.filter_transforms(), 2);
    let small_again = run_out(&exec, vec![("x", small)]);
    assert_eq!(small_again, small_first);
    let large_again = run_out(&exec, vec![("x", large)]);
    assert_eq!(large_again, large_first);
    assert_eq!(exec.filter_transforms(), 2, "no transform after the first");
}

#[test]
fn executors_and_nodes_with_other_weights_never_share_a_transform() {
    let x = input(24, 24, 10);
    let bias = values(C, 11);
    // conv1 and conv2 of one net hold different weights; a second net is
    // the same graph with other weights (the same layer names, and Const
    // bytes at the same offsets of its own weights file).
    let nets: Vec<(Vec<f32>, Vec<f32>)> = (0..3)
        .map(|k| (weights(20 + 2 * k), weights(21 + 2 * k)))
        .collect();
    let exact: Vec<Vec<f64>> = nets
        .iter()
        .map(|(w1, w2)| expected(&x, (w1, &bias, w2)))
        .collect();
    let make = |k: usize| {
        let (w1, w2) = &nets[k];
        Executor::new(&two_layers(w1, &bias, w2).graph()).unwrap()
    };
    // Alive side by side, run in turns.
    let (a, b) = (make(0), make(1));
    for _ in 0..2 {
        assert_close(&run_out(&a, vec![("x", x.clone())]), &exact[0], "a");
        assert_close(&run_out(&b, vec![("x", x.clone())]), &exact[1], "b");
    }
    assert_eq!((a.filter_transforms(), b.filter_transforms()), (2, 2));
    // One made after another is dropped (its memory may come back at the
    // same addresses).
    drop(a);
    drop(b);
    let c = make(2);
    assert_close(&run_out(&c, vec![("x", x.clone())]), &exact[2], "c");
    assert_eq!(c.filter_transforms(), 2);
}

#[test]
fn a_weight_computed_at_run_time_is_transformed_every_call() {
    // conv's weights are a Const times a scale the run feeds.
    let base = weights(30);
    let mut net = Net::new();
    let x = net.param("x", "f32", &format!("1,{C},?,?"));
    let scale = net.param("scale", "f32", "1");
    let w = net.f32s("w", &[C as u64, C as u64, 3, 3], &base);
    let w = net.op("scaled", "Multiply", "opset1", "", &[w, scale], None);
    let y = conv(&mut net, "conv", x, w);
    net.result("out", y);
    let exec = Executor::new(&net.graph()).unwrap();
    let x = input(24, 24, 31);
    for factor in [1.0f32, -0.37, 3.0, 1.0] {
        let scale = Tensor::from_vec(vec![1], vec![factor]).unwrap();
        let out = run_out(&exec, vec![("x", x.clone()), ("scale", scale)]);
        let scaled: Vec<f32> = base.iter().map(|&v| v * factor).collect();
        let exact = reference(&x.to_vec::<f32>().unwrap(), &scaled, (24, 24));
        assert_close(&out, &exact, &format!("scale {factor}"));
    }
    assert_eq!(exec.filter_transforms(), 0, "nothing kept");
    assert_eq!(exec.prepared_filter_bytes(), 0);
}

#[test]
fn each_tile_a_plane_takes_is_transformed_once_per_node() {
    // 40x40 takes F(4x4) (100 of its tiles), 24x24 F(2x2), 8x8 the direct
    // path: each layer keeps one transform per tile it ran by.
    let (w1, bias, w2) = (weights(40), values(C, 41), weights(42));
    let exec = Executor::new(&two_layers(&w1, &bias, &w2).graph()).unwrap();
    let planes = [(40, 40), (24, 24), (8, 8), (40, 40), (24, 24)];
    let counts = [2, 4, 4, 4, 4];
    for (&(h, w), &count) in planes.iter().zip(&counts) {
        let x = input(h, w, 43);
        let out = run_out(&exec, vec![("x", x.clone())]);
        assert_close(&out, &expected(&x, (&w1, &bias, &w2)), &format!("{h}x{w}"));
        assert_eq!(exec.filter_transforms(), count, "after {h}x{w}");
    }
    // F(4x4): 36 values per 3x3 filter, F(2x2): 16.
    assert_eq!(exec.prepared_filter_bytes(), 2 * (36 + 16) * C * C * 4);
}

#[test]
fn a_group_convolution_keeps_its_transform_too() {
    // Two groups of C channels each: `[2, C, C, 3, 3]` filters; each group
    // is a convolution of its half of the input.
    let groups: Vec<Vec<f32>> = (0..2).map(|g| weights(50 + g)).collect();
    let mut net = Net::new();
    let x = net.param("x", "f32", &format!("1,{},?,?", 2 * C));
    let all: Vec<f32> = groups.concat();
    let w = net.f32s("w", &[2, C as u64, C as u64, 3, 3], &all);
    let y = net.op("gconv", "GroupConvolution", "opset1", PADS, &[x, w], None);
    net.result("out", y);
    let exec = Executor::new(&net.graph()).unwrap();
    let (h, w) = (24, 24);
    let plane = C * h * w;
    for seed in [52, 53] {
        let values = values(2 * plane, seed);
        let x = Tensor::from_vec(vec![1, 2 * C, h, w], values.clone()).unwrap();
        let out = run_out(&exec, vec![("x", x)]);
        for (g, filters) in groups.iter().enumerate() {
            let exact = reference(&values[g * plane..][..plane], filters, (h, w));
            assert_close(&out[g * plane..][..plane], &exact, &format!("group {g}"));
        }
    }
    assert_eq!(exec.filter_transforms(), 1, "one transform for both groups");
    assert_eq!(exec.prepared_filter_bytes(), 2 * 16 * C * C * 4);
}

#[test]
fn weights_folded_when_the_executor_is_made_are_kept() {
    // f16 weights behind a Convert to f32 (OpenVINO's compressed weights):
    // the Convert is folded once, so its value is constant.
    let rounded: Vec<f32> = weights(60)
        .into_iter()
        .map(|v| half::f16::from_f32(v).to_f32())
        .collect();
    let bytes: Vec<u8> = rounded
        .iter()
        .flat_map(|&v| half::f16::from_f32(v).to_le_bytes())
        .collect();
    let mut net = Net::new();
    let x = net.param("x", "f32", &format!("1,{C},?,?"));
    let w = net.constant("w16", "f16", &[C as u64, C as u64, 3, 3], &bytes);
    let to_f32 = r#"destination_type="f32""#;
    let w = net.op("w32", "Convert", "opset1", to_f32, &[w], None);
    let y = conv(&mut net, "conv", x, w);
    net.result("out", y);
    let exec = Executor::new(&net.graph()).unwrap();
    for seed in [61, 62] {
        let x = input(24, 24, seed);
        let out = run_out(&exec, vec![("x", x.clone())]);
        let exact = reference(&x.to_vec::<f32>().unwrap(), &rounded, (24, 24));
        assert_close(&out, &exact, &format!("input {seed}"));
    }
    assert_eq!(exec.filter_transforms(), 1);
}
