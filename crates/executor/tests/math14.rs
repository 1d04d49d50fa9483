//! Values of the issue-14 kernels (part a), against values worked out by hand
//! or measured on OpenVINO 2026.4's CPU plugin, and their typed errors.

mod common;

use common::Net;
use executor::{ExecError, Tensor};

/// One op of `version` on Parameter `x` (its shape dynamic) and `consts`
/// (i64 Consts), run on `x`; the output tensor.
fn run_op(
    op: &str,
    version: &str,
    attrs: &str,
    x: Tensor,
    consts: &[(&[u64], &[i64])],
) -> Result<Tensor, ExecError> {
    let mut net = Net::new();
    let t = x.element_type.to_string();
    let p = net.param("x", &t, &vec!["?"; x.shape.len()].join(","));
    let mut inputs = vec![p];
    for (i, (shape, values)) in consts.iter().enumerate() {
        inputs.push(net.i64s(&format!("c{i}"), shape, values));
    }
    let o = net.op("op", op, version, attrs, &inputs, None);
    net.result("out", o);
    Ok(net.exec(vec![("x", x)])?.remove("out").unwrap())
}

fn vec_of<T: executor::Element>(shape: &[usize], v: &[T]) -> Tensor {
    Tensor::from_vec(shape.to_vec(), v.to_vec()).unwrap()
}

/// An op, its opset and the real function it computes.
type RealOp = (&'static str, &'static str, fn(f64) -> f64);

#[test]
fn trig_on_floats() {
    let x = vec_of(&[4], &[-0.5f32, 0.0, 0.5, 1.0]);
    let cases: &[RealOp] = &[
        ("Sin", "opset1", f64::sin),
        ("Cos", "opset1", f64::cos),
        ("Tan", "opset1", f64::tan),
        ("Asin", "opset1", f64::asin),
        ("Acos", "opset1", f64::acos),
        ("Atan", "opset1", f64::atan),
        ("Sinh", "opset1", f64::sinh),
        ("Cosh", "opset1", f64::cosh),
        ("Asinh", "opset4", f64::asinh),
        ("Acosh", "opset4", f64::acosh),
        ("Atanh", "opset4", f64::atanh),
    ];
    for &(op, version, f) in cases {
        let out = run_op(op, version, "", x.clone(), &[]).unwrap();
        let got = out.to_vec::<f32>().unwrap();
        for (g, v) in got.iter().zip([-0.5f64, 0.0, 0.5, 1.0]) {
            let want = f(v) as f32;
            assert!(
                (g.is_nan() && want.is_nan()) || g == &want,
                "{op}({v}) = {g}, want {want}"
            );
        }
    }
}

/// Integer results as OpenVINO 2026.4's CPU plugin gives them (measured).
#[test]
fn trig_on_integers_as_the_cpu_plugin() {
    let x = vec_of(&[9], &[-100i32, -3, -2, -1, 0, 1, 2, 3, 100]);
    let i32s = |op: &str, version: &str| {
        run_op(op, version, "", x.clone(), &[])
            .unwrap()
            .to_vec::<i32>()
            .unwrap()
    };
    assert_eq!(i32s("Sin", "opset1"), [1, 0, -1, -1, 0, 1, 1, 0, -1]);
    assert_eq!(i32s("Tan", "opset1"), [1, 0, 2, -2, 0, 2, -2, 0, -1]);
    let m = i32::MIN;
    assert_eq!(i32s("Asin", "opset1"), [m, m, m, -2, 0, 2, m, m, m]);
    assert_eq!(i32s("Acos", "opset1"), [m, m, m, 3, 2, 0, m, m, m]);
    assert_eq!(
        i32s("Cosh", "opset1"),
        [2147483520, 10, 4, 2, 1, 2, 4, 10, 2147483520]
    );
    assert_eq!(i32s("Sinh", "opset1")[0], m);
    assert_eq!(
        i32s("Atanh", "opset4"),
        [m, m, m, m, 0, 2147483520, m, m, m]
    );

    let u = vec_of(&[5], &[0u8, 1, 2, 100, 255]);
    let out = run_op("Asin", "opset1", "", u.clone(), &[]).unwrap();
    assert_eq!(out.to_vec::<u8>().unwrap(), [0, 2, 255, 255, 255]);
    let out = run_op("Sinh", "opset1", "", u, &[]).unwrap();
    assert_eq!(out.to_vec::<u8>().unwrap(), [0, 1, 4, 255, 255]);

    let i = vec_of(&[3], &[-100i8, 2, 100]);
    let out = run_op("Sinh", "opset1", "", i.clone(), &[]).unwrap();
    assert_eq!(out.to_vec::<i8>().unwrap(), [-128, 4, 127]);
    let out = run_op("Asin", "opset1", "", i, &[]).unwrap();
    assert_eq!(out.to_vec::<i8>().unwrap(), [-128, -128, -128]);

    // i16 keeps the low 16 bits of the i32 result; i64 works on its low
    // 32 bits and sign-extends.
    let s = vec_of(&[3], &[12i16, 100, 2]);
    let out = run_op("Sinh", "opset1", "", s, &[]).unwrap();
    assert_eq!(out.to_vec::<i16>().unwrap(), [15841, -128, 4]);
    let l = vec_of(&[3], &[i64::MAX, 2, 1 << 32]);
    let out = run_op("Asin", "opset1", "", l, &[]).unwrap();
    assert_eq!(out.to_vec::<i64>().unwrap(), [-2, -(1 << 31), 0]);
}

#[test]
fn trig_on_booleans_is_an_error() {
    let x = vec_of(&[2], &[true, false]);
    let e = run_op("Sin", "opset1", "", x, &[]).unwrap_err();
    assert!(matches!(e, ExecError::Inference(_)), "{e}");
}
