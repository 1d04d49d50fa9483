//! A convolution fused with its bias Add, its residual Add and its
//! Clamp/ReLU (the executor's fusion plan) gives bit-identical outputs to
//! the same ops run one by one: each net is run as is, and again with a
//! second Result reading the convolution's output, which rules the fusion
//! out (the convolution's own output must then be kept). Which nets fuse
//! is `src/fusion.rs`'s unit tests'.

mod common;

use common::{f32_out, Net};
use executor::Tensor;

/// Values with both signs, zeros of both signs, values past the clamps'
/// bounds, and (with `nan`) a few NaNs.
fn values(n: usize, seed: usize, nan: bool) -> Vec<f32> {
    (0..n)
        .map(|i| {
            let v = ((i * 37 + seed * 11) % 29) as f32 * 0.37 - 5.0;
            match i % 17 {
                3 => -0.0,
                5 if nan && i % 11 == 0 => f32::NAN,
                _ => v,
            }
        })
        .collect()
}

/// A convolution of `x` (`[batch, cin, h, w]`) by `groups` groups of
/// `[cout/groups, cin/groups, k, k]` filters (grouped: GroupConvolution)
/// with `attrs`, then the ops `tail` names in order ("bias", "bias-first"
/// for `bias + conv`, "scalar-bias", "relu", "clamp"; the residual Adds
/// "x" for `conv + x`, "x-first" for `x + conv`, "early" for `conv +
/// sigmoid(x)` with the Sigmoid before the convolution, "late" with it
/// after), its output "out"; with `observe`, a second Result "conv" reads
/// the convolution.
struct Case {
    batch: usize,
    cin: usize,
    cout: usize,
    groups: usize,
    hw: [usize; 2],
    k: usize,
    attrs: &'static str,
    tail: &'static [&'static str],
}

fn net(case: &Case, observe: bool) -> Net {
    let mut net = Net::new();
    // Channels as written in converted models: the shortcut's shape then
    // equals the convolution's output's (`[N, C, H, W]`) symbolically.
    let x = net.param("x", "f32", &format!("?,{},?,?", case.cin));
    let early = case
        .tail
        .contains(&"early")
        .then(|| net.op("early", "Sigmoid", "opset1", "", &[x], None));
    let (g, cin, cout, k) = (case.groups, case.cin, case.cout, case.k);
    let grouped = g > 1;
    let y = if grouped {
        let shape = [
            g as u64,
            (cout / g) as u64,
            (cin / g) as u64,
            k as u64,
            k as u64,
        ];
        let w = net.f32s("w", &shape, &values(cout * cin / g * k * k, 1, false));
        net.op(
            "conv",
            "GroupConvolution",
            "opset1",
            case.attrs,
            &[x, w],
            None,
        )
    } else {
        let shape = [cout as u64, cin as u64, k as u64, k as u64];
        let w = net.f32s("w", &shape, &values(cout * cin * k * k, 1, false));
        net.op("conv", "Convolution", "opset1", case.attrs, &[x, w], None)
    };
    if observe {
        net.result("conv", y);
    }
    let mut last = y;
    for (i, step) in case.tail.iter().enumerate() {
        let name = format!("step{i}");
        last = match *step {
            "bias" | "bias-first" => {
                let b = net.f32s(
                    &format!("b{i}"),
                    &[1, cout as u64, 1, 1],
                    &values(cout, 7, false),
                );
                let inputs = if *step == "bias" {
                    [last, b]
                } else {
                    [b, last]
                };
                net.op(&name, "Add", "opset1", "", &inputs, None)
            }
            "scalar-bias" => {
                let b = net.f32s(&format!("b{i}"), &[1], &[0.75]);
                net.op(&name, "Add", "opset1", "", &[last, b], None)
            }
            "x" => net.op(&name, "Add", "opset1", "", &[last, x], None),
            "x-first" => net.op(&name, "Add", "opset1", "", &[x, last], None),
            "early" => {
                let early = early.expect("made before the convolution");
                net.op(&name, "Add", "opset1", "", &[last, early], None)
            }
            "late" => {
                let late = net.op("late", "Sigmoid", "opset1", "", &[x], None);
                net.op(&name, "Add", "opset1", "", &[late, last], None)
            }
            "relu" => net.op(&name, "ReLU", "opset1", "", &[last], None),
            "clamp" => net.op(
                &name,
                "Clamp",
                "opset1",
                r#"min="0" max="6""#,
                &[last],
                None,
            ),
            other => panic!("no step {other}"),
        };
    }
    net.result("out", last);
    net
}

fn run(net: &Net, x: &Tensor) -> Vec<f32> {
    let out = net.exec(vec![("x", x.clone())]).unwrap();
    f32_out(&out, "out").1
}

#[test]
fn fused_convolutions_equal_the_ops_run_one_by_one() {
    let pads =
        r#"strides="1,1" dilations="1,1" pads_begin="1,1" pads_end="1,1" auto_pad="explicit""#;
    let none =
        r#"strides="1,1" dilations="1,1" pads_begin="0,0" pads_end="0,0" auto_pad="explicit""#;
    let odd =
        r#"strides="2,3" dilations="2,1" pads_begin="2,0" pads_end="1,2" auto_pad="explicit""#;
    let same =
        r#"strides="2,2" dilations="1,1" pads_begin="0,0" pads_end="0,0" auto_pad="same_upper""#;
    let cases = [
        // 3x3, bias and Clamp; odd channels and planes, a NaN in the input.
        Case {
            batch: 1,
            cin: 5,
            cout: 7,
            groups: 1,
            hw: [9, 13],
            k: 3,
            attrs: pads,
            tail: &["bias", "clamp"],
        },
        // Pointwise, large enough for the threads' blocks, bias first.
        Case {
            batch: 1,
            cin: 19,
            cout: 33,
            groups: 1,
            hw: [41, 43],
            k: 1,
            attrs: none,
            tail: &["bias-first", "relu"],
        },
        // Strides, dilations, uneven pads; ReLU alone; a scalar bias alone.
        Case {
            batch: 1,
            cin: 3,
            cout: 17,
            groups: 1,
            hw: [23, 31],
            k: 3,
            attrs: odd,
            tail: &["relu"],
        },
        Case {
            batch: 1,
            cin: 6,
            cout: 4,
            groups: 1,
            hw: [7, 5],
            k: 2,
            attrs: same,
            tail: &["scalar-bias"],
        },
        // Depthwise (planar and, with a 2-D stride of 3 and dilation, too),
        // and grouped with several channels per group.
        Case {
            batch: 1,
            cin: 11,
            cout: 11,
            groups: 11,
            hw: [17, 19],
            k: 3,
            attrs: pads,
            tail: &["bias", "clamp"],
        },
        Case {
            batch: 1,
            cin: 9,
            cout: 9,
            groups: 9,
            hw: [15, 14],
            k: 3,
            attrs: odd,
            tail: &["bias", "relu"],
        },
        Case {
            batch: 1,
            cin: 6,
            cout: 9,
            groups: 3,
            hw: [12, 10],
            k: 3,
            attrs: pads,
            tail: &["bias", "relu"],
        },
        // Two activations: only the first is fused.
        Case {
            batch: 1,
            cin: 4,
            cout: 8,
            groups: 1,
            hw: [6, 6],
            k: 3,
            attrs: pads,
            tail: &["bias", "relu", "clamp"],
        },
    ];
    same_as_one_by_one(&cases);
}

/// Runs each case fused and unfused and compares the bits; the first
/// case's input has a NaN, which must reach the output.
fn same_as_one_by_one(cases: &[Case]) {
    for (i, case) in cases.iter().enumerate() {
        let [h, w] = case.hw;
        let shape = vec![case.batch, case.cin, h, w];
        let len = case.batch * case.cin * h * w;
        let x = Tensor::from_vec(shape, values(len, i, i == 0)).unwrap();
        let fused = run(&net(case, false), &x);
        let unfused = run(&net(case, true), &x);
        assert_eq!(fused.len(), unfused.len(), "case {i}");
        let differs = fused
            .iter()
            .zip(&unfused)
            .position(|(a, b)| a.to_bits() != b.to_bits());
        if let Some(at) = differs {
            panic!(
                "case {i}: at {at} fused {} unfused {}",
                fused[at], unfused[at]
            );
        }
        if i == 0 {
            assert!(
                fused.iter().any(|v| v.is_nan()),
                "the NaN reaches the output"
            );
        }
        assert!(fused.iter().any(|&v| v != 0.0), "case {i} is not all zeros");
    }
}

#[test]
fn fused_residual_adds_equal_the_ops_run_one_by_one() {
    let pads =
        r#"strides="1,1" dilations="1,1" pads_begin="1,1" pads_end="1,1" auto_pad="explicit""#;
    let none =
        r#"strides="1,1" dilations="1,1" pads_begin="0,0" pads_end="0,0" auto_pad="explicit""#;
    let cases = [
        // 3x3, bias, shortcut second, ReLU; two images, odd planes, a NaN.
        Case {
            batch: 2,
            cin: 5,
            cout: 5,
            groups: 1,
            hw: [9, 13],
            k: 3,
            attrs: pads,
            tail: &["bias", "x", "relu"],
        },
        // Pointwise, large enough for the threads' column blocks; the
        // shortcut first, no bias, no activation.
        Case {
            batch: 2,
            cin: 33,
            cout: 33,
            groups: 1,
            hw: [41, 43],
            k: 1,
            attrs: none,
            tail: &["x-first"],
        },
        // More channels than positions: the product is cut by rows.
        Case {
            batch: 2,
            cin: 128,
            cout: 128,
            groups: 1,
            hw: [5, 6],
            k: 3,
            attrs: pads,
            tail: &["bias-first", "x-first", "clamp"],
        },
        // A shortcut computed before the convolution (not the input).
        Case {
            batch: 1,
            cin: 7,
            cout: 7,
            groups: 1,
            hw: [11, 6],
            k: 3,
            attrs: pads,
            tail: &["scalar-bias", "early", "relu"],
        },
        // Depthwise (planar, and by rows with a dilation) and grouped.
        Case {
            batch: 2,
            cin: 11,
            cout: 11,
            groups: 11,
            hw: [17, 19],
            k: 3,
            attrs: pads,
            tail: &["bias", "x", "clamp"],
        },
        Case {
            batch: 3,
            cin: 6,
            cout: 6,
            groups: 3,
            hw: [12, 10],
            k: 3,
            attrs: pads,
            tail: &["x-first", "relu"],
        },
        // Computed after the convolution: the Add runs as written.
        Case {
            batch: 2,
            cin: 4,
            cout: 4,
            groups: 1,
            hw: [6, 7],
            k: 1,
            attrs: none,
            tail: &["bias", "late", "relu"],
        },
    ];
    same_as_one_by_one(&cases);
}

#[test]
fn a_bias_that_is_not_per_channel_is_not_fused() {
    // A bias over the planes ([1, 1, h, w]) broadcasts along the channels:
    // the Add runs as written, and the values stay right.
    let none =
        r#"strides="1,1" dilations="1,1" pads_begin="0,0" pads_end="0,0" auto_pad="explicit""#;
    let (cin, cout, h, w) = (2, 3, 4, 5);
    let mut net = Net::new();
    let x = net.param("x", "f32", "?,?,?,?");
    let wc = net.f32s("w", &[cout, cin, 1, 1], &[1.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
    let conv = net.op("conv", "Convolution", "opset1", none, &[x, wc], None);
    let plane: Vec<f32> = (0..h * w).map(|v| v as f32).collect();
    let b = net.f32s("b", &[1, 1, h, w], &plane);
    let add = net.op("add", "Add", "opset1", "", &[conv, b], None);
    let relu = net.op("relu", "ReLU", "opset1", "", &[add], None);
    net.result("out", relu);
    let n = (cin * h * w) as usize;
    let input: Vec<f32> = (0..n).map(|v| v as f32 - 30.0).collect();
    let x = Tensor::from_vec(vec![1, cin as usize, h as usize, w as usize], input.clone()).unwrap();
    let got = run(&net, &x);
    let p = (h * w) as usize;
    for c in 0..cout as usize {
        for i in 0..p {
            let sum = match c {
                0 => input[i],
                1 => input[p + i],
                _ => input[i] + input[p + i],
            };
            assert_eq!(
                got[c * p + i],
                (sum + plane[i]).max(0.0),
                "channel {c} at {i}"
            );
        }
    }
}
