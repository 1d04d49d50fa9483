//! The recurrent kernels beyond what OpenVINO's CPU plugin can check:
//! LSTMCell-1's peepholes and `input_forget` (which the plugin ignores)
//! against the reference implementation's formula, `weights_format` read as
//! fico, sequence lengths outside the sequence, and bf16 data computed in
//! f32.

mod common;

use common::{f32_out, Net};
use executor::Tensor;
use half::bf16;

fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

/// LSTMCell-1 with one batch element, input size 1 and hidden size 1: W, R
/// and B hold the gates f, i, c, o; P the peepholes f, i, o. Returns (Ho, Co).
fn lstm1(attrs: &str, (x, h, c): (f32, f32, f32), p: Option<[f32; 3]>) -> (f32, f32) {
    let mut net = Net::new();
    let mut inputs = vec![
        net.param("x", "f32", "1,1"),
        net.param("h", "f32", "1,1"),
        net.param("c", "f32", "1,1"),
        net.f32s("w", &[4, 1], &W),
        net.f32s("r", &[4, 1], &R),
        net.f32s("b", &[4], &B),
    ];
    if let Some(p) = p {
        inputs.push(net.f32s("p", &[3], &p));
    }
    let attrs = format!(r#"hidden_size="1" {attrs}"#);
    let outs = net.op_multi(
        "op",
        "LSTMCell",
        "opset1",
        &attrs,
        &inputs,
        vec![None, None],
    );
    net.result("ho", outs[0]);
    net.result("co", outs[1]);
    let t = |v: f32| Tensor::from_vec(vec![1, 1], vec![v]).unwrap();
    let out = net
        .exec(vec![("x", t(x)), ("h", t(h)), ("c", t(c))])
        .unwrap();
    (f32_out(&out, "ho").1[0], f32_out(&out, "co").1[0])
}

const W: [f32; 4] = [0.5, -0.25, 0.75, 0.125];
const R: [f32; 4] = [-0.5, 0.25, 0.375, -0.625];
const B: [f32; 4] = [0.1, -0.2, 0.3, 0.05];

/// The reference implementation's LSTMCell-1 (`lstm_cell_v1`) in f64.
fn lstm1_formula((x, h, c): (f32, f32, f32), p: [f32; 3], input_forget: bool) -> (f64, f64) {
    let (x, h, c) = (f64::from(x), f64::from(h), f64::from(c));
    let pre = |k: usize| f64::from(W[k]) * x + f64::from(R[k]) * h + f64::from(B[k]);
    let p = p.map(f64::from);
    let f = sigmoid(pre(0) + p[0] * c);
    let i = if input_forget {
        1.0 - f
    } else {
        sigmoid(pre(1) + p[1] * c)
    };
    let new_c = f * c + i * pre(2).tanh();
    let o = sigmoid(pre(3) + p[2] * new_c);
    (o * new_c.tanh(), new_c)
}

fn close(ours: (f32, f32), want: (f64, f64)) {
    assert!(
        (f64::from(ours.0) - want.0).abs() < 1e-6 && (f64::from(ours.1) - want.1).abs() < 1e-6,
        "{ours:?} vs {want:?}"
    );
}

#[test]
fn lstm_cell_1_applies_peepholes_and_input_forget() {
    let state = (1.5, -0.75, 2.0);
    let p = [0.3, -0.4, 0.9];
    close(lstm1("", state, Some(p)), lstm1_formula(state, p, false));
    close(
        lstm1(r#"input_forget="true""#, state, Some(p)),
        lstm1_formula(state, p, true),
    );
    // Without P (OpenVINO's writer leaves it out): zero peepholes, which
    // differ from the ones above.
    let plain = lstm1("", state, None);
    close(plain, lstm1_formula(state, [0.0; 3], false));
    assert!((plain.1 - lstm1("", state, Some(p)).1).abs() > 1e-3);
}

#[test]
fn lstm_cell_1_reads_every_weights_format_as_fico() {
    let state = (0.5, 1.0, -1.0);
    let fico = lstm1("", state, None);
    for format in ["ifco", "ICOF", "iofc"] {
        assert_eq!(
            lstm1(&format!(r#"weights_format="{format}""#), state, None),
            fico
        );
    }
}

/// An RNNSequence-5 (hidden size 2, forward) over X `[2, 3, 1]` with the
/// given lengths, in element type `et`.
fn rnn_sequence(et: &str, lengths: &[i64]) -> Net {
    let mut net = Net::new();
    let x = net.param("x", et, "2,3,1");
    let h = net.param("h", et, "2,1,2");
    let lens = net.i64s("lens", &[2], lengths);
    let half = |v: &[f32]| -> Vec<u8> {
        v.iter()
            .flat_map(|&f| bf16::from_f32(f).to_le_bytes())
            .collect()
    };
    let mut weights = |name: &str, shape: &[u64], v: &[f32]| {
        if et == "bf16" {
            net.constant(name, "bf16", shape, &half(v))
        } else {
            net.f32s(name, shape, v)
        }
    };
    let w = weights("w", &[1, 2, 1], &[0.5, -0.75]);
    let r = weights("r", &[1, 2, 2], &[0.25, -0.5, 0.125, 1.0]);
    let b = weights("b", &[1, 2], &[0.0625, -0.25]);
    let outs = net.op_multi(
        "op",
        "RNNSequence",
        "opset5",
        r#"hidden_size="2" direction="forward""#,
        &[x, h, lens, w, r, b],
        vec![None, None],
    );
    net.result("y", outs[0]);
    net.result("ho", outs[1]);
    net
}

const X: [f32; 6] = [1.0, -2.0, 0.5, 3.0, 0.25, -1.5];
const H: [f32; 4] = [0.5, -0.5, 1.0, 0.0];

#[test]
fn sequence_lengths_outside_the_sequence_are_errors() {
    let x = Tensor::from_vec(vec![2, 3, 1], X.to_vec()).unwrap();
    let h = Tensor::from_vec(vec![2, 1, 2], H.to_vec()).unwrap();
    for lengths in [[3, 4], [-1, 2]] {
        let err = rnn_sequence("f32", &lengths)
            .exec(vec![("x", x.clone()), ("h", h.clone())])
            .unwrap_err()
            .to_string();
        assert!(err.contains("outside [0, 3]"), "{err}");
    }
    // A row of length 0: zeros in Y and in its last state.
    let out = rnn_sequence("f32", &[0, 2])
        .exec(vec![("x", x), ("h", h)])
        .unwrap();
    let (_, y) = f32_out(&out, "y");
    let (_, ho) = f32_out(&out, "ho");
    assert_eq!(y[..6], [0.0; 6]);
    assert_eq!(ho[..2], [0.0; 2]);
    assert_eq!(y[10..12], [0.0; 2], "step 2 of row 1 is past its length");
    assert_eq!(ho[2..], y[8..10], "row 1's last state is its step 1");
}

#[test]
fn bf16_data_computes_in_f32_and_rounds_once() {
    // Inputs and weights exact in bf16: the f32 run computes the same values,
    // which the bf16 run rounds at the end.
    let lengths = [3, 2];
    let f32_run = rnn_sequence("f32", &lengths)
        .exec(vec![
            ("x", Tensor::from_vec(vec![2, 3, 1], X.to_vec()).unwrap()),
            ("h", Tensor::from_vec(vec![2, 1, 2], H.to_vec()).unwrap()),
        ])
        .unwrap();
    let b = |v: &[f32]| v.iter().map(|&f| bf16::from_f32(f)).collect::<Vec<_>>();
    let bf16_run = rnn_sequence("bf16", &lengths)
        .exec(vec![
            ("x", Tensor::from_vec(vec![2, 3, 1], b(&X)).unwrap()),
            ("h", Tensor::from_vec(vec![2, 1, 2], b(&H)).unwrap()),
        ])
        .unwrap();
    for name in ["y", "ho"] {
        let want = b(&f32_out(&f32_run, name).1);
        assert_eq!(bf16_run[name].to_vec::<bf16>().unwrap(), want, "{name}");
    }
}
