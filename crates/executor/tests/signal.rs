//! Values of the signal kernels (DFT-7, IDFT-7, RDFT-9, IRDFT-9) where
//! OpenVINO's CPU plugin gives no reference (it refuses -1 signal sizes and
//! padding in RDFT, and reads past the input when IRDFT pads): against a
//! direct O(n²) transform and round trips.

mod common;

use common::Net;
use executor::Tensor;

/// `op` of `version` on data `x` (its shape dynamic), axes and optional
/// signal sizes as i64 Consts; the output.
fn run(op: &str, version: &str, x: Tensor, axes: &[i64], sizes: Option<&[i64]>) -> Tensor {
    let mut net = Net::new();
    let t = x.element_type.to_string();
    let p = net.param("x", &t, &vec!["?"; x.shape.len()].join(","));
    let mut inputs = vec![p, net.i64s("axes", &[axes.len() as u64], axes)];
    if let Some(s) = sizes {
        inputs.push(net.i64s("sizes", &[s.len() as u64], s));
    }
    let o = net.op("op", op, version, "", &inputs, None);
    net.result("out", o);
    net.exec(vec![("x", x)]).unwrap().remove("out").unwrap()
}

fn f32s(shape: &[usize], v: &[f32]) -> Tensor {
    Tensor::from_vec(shape.to_vec(), v.to_vec()).unwrap()
}

/// A direct DFT of complex `(re, im)` values of one line; `inverse`
/// divides by the length.
fn direct(line: &[(f64, f64)], inverse: bool) -> Vec<(f64, f64)> {
    let n = line.len();
    let sign = if inverse { 1.0 } else { -1.0 };
    (0..n)
        .map(|k| {
            let (mut re, mut im) = (0.0, 0.0);
            for (j, &(a, b)) in line.iter().enumerate() {
                let angle = sign * 2.0 * std::f64::consts::PI * (j * k) as f64 / n as f64;
                let (s, c) = angle.sin_cos();
                re += a * c - b * s;
                im += a * s + b * c;
            }
            if inverse {
                (re / n as f64, im / n as f64)
            } else {
                (re, im)
            }
        })
        .collect()
}

fn assert_close(got: &[f32], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        assert!((f64::from(g) - w).abs() < 1e-4, "index {i}: {g} vs {w}");
    }
}

const SIGNAL: [f32; 10] = [0.5, -1.0, 2.0, 0.25, -0.75, 1.5, 3.0, -2.0, 0.0, 1.0];

#[test]
fn dft_pads_with_zeros_and_idft_undoes_it() {
    // One row of 5 complex values, padded to 7.
    let x = f32s(&[1, 5, 2], &SIGNAL);
    let out = run("DFT", "opset7", x.clone(), &[1], Some(&[7]));
    assert_eq!(out.shape, [1, 7, 2]);
    let mut line: Vec<(f64, f64)> = SIGNAL
        .chunks(2)
        .map(|p| (f64::from(p[0]), f64::from(p[1])))
        .collect();
    line.resize(7, (0.0, 0.0));
    let want: Vec<f64> = direct(&line, false)
        .into_iter()
        .flat_map(|(a, b)| [a, b])
        .collect();
    assert_close(&out.to_vec::<f32>().unwrap(), &want);

    let back = run("IDFT", "opset7", out, &[-1], Some(&[5]));
    let spectrum = direct(&line, false);
    // Trimming the spectrum to 5 and inverting is the direct inverse of those 5.
    let want: Vec<f64> = direct(&spectrum[..5], true)
        .into_iter()
        .flat_map(|(a, b)| [a, b])
        .collect();
    assert_close(&back.to_vec::<f32>().unwrap(), &want);
}

#[test]
fn rdft_minus_one_and_padding_follow_the_spec() {
    let x = f32s(&[2, 5], &SIGNAL);
    let own = run("RDFT", "opset9", x.clone(), &[0, 1], Some(&[-1, -1]));
    let plain = run("RDFT", "opset9", x.clone(), &[0, 1], None);
    assert_eq!(own.shape, [2, 3, 2]);
    assert_eq!(own.to_vec::<f32>().unwrap(), plain.to_vec::<f32>().unwrap());

    // One row padded from 5 to 8: the first 8/2 + 1 = 5 values of its DFT.
    let row = f32s(&[5], &SIGNAL[..5]);
    let out = run("RDFT", "opset9", row, &[0], Some(&[8]));
    assert_eq!(out.shape, [5, 2]);
    let mut line: Vec<(f64, f64)> = SIGNAL[..5].iter().map(|&v| (f64::from(v), 0.0)).collect();
    line.resize(8, (0.0, 0.0));
    let want: Vec<f64> = direct(&line, false)[..5]
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .collect();
    assert_close(&out.to_vec::<f32>().unwrap(), &want);
}

#[test]
fn irdft_inverts_rdft_for_even_and_odd_lengths() {
    for len in [4usize, 5] {
        let x = f32s(&[2, len], &SIGNAL[..2 * len]);
        let spectrum = run("RDFT", "opset9", x, &[0, 1], None);
        let back = run(
            "IRDFT",
            "opset9",
            spectrum,
            &[0, 1],
            Some(&[-1, len as i64]),
        );
        assert_eq!(back.shape, [2, len]);
        let want: Vec<f64> = SIGNAL[..2 * len].iter().map(|&v| f64::from(v)).collect();
        assert_close(&back.to_vec::<f32>().unwrap(), &want);
    }
}

#[test]
fn irdft_pads_the_half_spectrum_with_zeros() {
    // 3 values, output length 9: values 0..5 of the spectrum are the 3 and
    // two zeros, position 9 - j the conjugate of j.
    let x = f32s(&[3, 2], &SIGNAL[..6]);
    let out = run("IRDFT", "opset9", x, &[0], Some(&[9]));
    assert_eq!(out.shape, [9]);
    let mut full = vec![(0.0, 0.0); 9];
    for (j, p) in SIGNAL[..6].chunks(2).enumerate() {
        full[j] = (f64::from(p[0]), f64::from(p[1]));
        if j > 0 {
            full[9 - j] = (f64::from(p[0]), -f64::from(p[1]));
        }
    }
    let want: Vec<f64> = direct(&full, true).iter().map(|&(re, _)| re).collect();
    assert_close(&out.to_vec::<f32>().unwrap(), &want);
}

#[test]
fn half_precision_data_give_half_precision_results() {
    let values: Vec<half::f16> = SIGNAL.iter().map(|&v| half::f16::from_f32(v)).collect();
    let x = Tensor::from_vec(vec![5, 2], values).unwrap();
    let out = run("DFT", "opset7", x, &[0], None);
    assert_eq!(out.element_type, ir::ElementType::F16);
    let line: Vec<(f64, f64)> = SIGNAL
        .chunks(2)
        .map(|p| (f64::from(p[0]), f64::from(p[1])))
        .collect();
    let want: Vec<f64> = direct(&line, false)
        .into_iter()
        .flat_map(|(a, b)| [a, b])
        .collect();
    let got: Vec<f32> = out
        .to_vec::<half::f16>()
        .unwrap()
        .iter()
        .map(|v| v.to_f32())
        .collect();
    for (g, w) in got.iter().zip(&want) {
        assert!(
            (f64::from(*g) - w).abs() < 1e-2 * w.abs().max(1.0),
            "{g} vs {w}"
        );
    }
}

#[test]
fn signal_sizes_read_at_run_time_decide_the_shape() {
    let mut net = Net::new();
    let p = net.param("x", "f32", "2,5,2");
    let sizes = net.param("sizes", "i64", "1");
    let axes = net.i64s("axes", &[1], &[1]);
    let o = net.op("op", "DFT", "opset7", "", &[p, axes, sizes], None);
    net.result("out", o);
    let x = f32s(&[2, 5, 2], &[SIGNAL, SIGNAL].concat());
    let sizes = Tensor::from_vec(vec![1], vec![3i64]).unwrap();
    let out = net
        .exec(vec![("x", x.clone()), ("sizes", sizes)])
        .unwrap()
        .remove("out")
        .unwrap();
    let fixed = run("DFT", "opset7", x, &[1], Some(&[3]));
    assert_eq!(out.shape, [2, 3, 2]);
    assert_eq!(out.to_vec::<f32>().unwrap(), fixed.to_vec::<f32>().unwrap());
}

#[test]
fn an_istft_length_beyond_the_tensor_limit_is_an_error() {
    let mut net = Net::new();
    let d = net.param("d", "f32", "5,3,2");
    let w = net.f32s("w", &[8], &[1.0; 8]);
    let f = net.i64s("frame", &[], &[8]);
    let s = net.i64s("step", &[], &[2]);
    let len = net.param("len", "i64", "");
    let attrs = r#"center="false" normalized="false""#;
    let o = net.op("op", "ISTFT", "opset16", attrs, &[d, w, f, s, len], None);
    net.result("out", o);
    let huge = Tensor::from_vec(vec![], vec![1i64 << 60]).unwrap();
    let data = f32s(&[5, 3, 2], &[0.5; 30]);
    assert!(net.exec(vec![("d", data), ("len", huge)]).is_err());
}
