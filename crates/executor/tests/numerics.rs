//! Values of the numerics and logic kernels of issue 17 against hand
//! computations, where the conformance goldens cannot reach (OpenVINO's CPU
//! plugin refuses the input, or the case needs exact special values).

mod common;

use common::Net;
use executor::Tensor;

fn f32s(shape: &[usize], v: &[f32]) -> Tensor {
    Tensor::from_vec(shape.to_vec(), v.to_vec()).unwrap()
}

#[test]
fn selu_takes_run_time_parameters() {
    // The CPU plugin takes only constant alpha and lambda; the spec does not
    // ask for constants.
    let mut net = Net::new();
    let x = net.param("x", "f32", "3");
    let a = net.param("a", "f32", "1");
    let l = net.param("l", "f32", "1");
    let s = net.op("s", "Selu", "opset1", "", &[x, a, l], None);
    net.result("out", s);
    let out = net
        .exec(vec![
            ("x", f32s(&[3], &[-1.0, 0.0, 2.0])),
            ("a", f32s(&[1], &[2.0])),
            ("l", f32s(&[1], &[3.0])),
        ])
        .unwrap();
    let want = [3.0 * 2.0 * ((-1f64).exp() - 1.0), 0.0, 6.0].map(|v| v as f32);
    assert_eq!(out["out"].to_vec::<f32>().unwrap(), want);
}

#[test]
fn is_inf_detects_the_signs_asked_for() {
    let x = [f32::NEG_INFINITY, f32::INFINITY, f32::NAN, 1.0];
    for (neg, pos, want) in [
        ("true", "true", [true, true, false, false]),
        ("true", "false", [true, false, false, false]),
        ("false", "true", [false, true, false, false]),
        ("false", "false", [false; 4]),
    ] {
        let mut net = Net::new();
        let p = net.param("x", "f32", "4");
        let attrs = format!(r#"detect_negative="{neg}" detect_positive="{pos}""#);
        let o = net.op("o", "IsInf", "opset10", &attrs, &[p], None);
        net.result("out", o);
        let out = net.exec(vec![("x", f32s(&[4], &x))]).unwrap();
        assert_eq!(out["out"].to_vec::<bool>().unwrap(), want, "{neg} {pos}");
    }
}
