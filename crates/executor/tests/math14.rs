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

/// A binary op on two Parameters of one element type.
fn run2(op: &str, version: &str, a: Tensor, b: Tensor) -> Result<Tensor, ExecError> {
    let mut net = Net::new();
    let t = a.element_type.to_string();
    let pa = net.param("a", &t, &vec!["?"; a.shape.len()].join(","));
    let pb = net.param("b", &t, &vec!["?"; b.shape.len()].join(","));
    let o = net.op("op", op, version, "", &[pa, pb], None);
    net.result("out", o);
    Ok(net.exec(vec![("a", a), ("b", b)])?.remove("out").unwrap())
}

#[test]
fn bitwise_and_or_xor_not() {
    let a = vec_of(&[2, 2], &[21u8, 120, 255, 0]);
    let b = vec_of(&[2], &[3u8, 37]);
    let v = |op| {
        run2(op, "opset13", a.clone(), b.clone())
            .unwrap()
            .to_vec::<u8>()
            .unwrap()
    };
    // The spec's example: [21, 120] & [3, 37] = [1, 32].
    assert_eq!(v("BitwiseAnd"), [1, 32, 3, 0]);
    assert_eq!(v("BitwiseOr"), [23, 125, 255, 37]);
    assert_eq!(v("BitwiseXor"), [22, 93, 252, 37]);
    let n = run_op("BitwiseNot", "opset13", "", a, &[]).unwrap();
    assert_eq!(n.to_vec::<u8>().unwrap(), [234, 135, 0, 255]);
    let w = vec_of(&[2], &[(1i64 << 40) + 3, -1]);
    let m = vec_of(&[1], &[(1i64 << 40) | 1]);
    let o = run2("BitwiseAnd", "opset13", w.clone(), m).unwrap();
    assert_eq!(o.to_vec::<i64>().unwrap(), [(1 << 40) + 1, (1 << 40) | 1]);
    let n = run_op("BitwiseNot", "opset13", "", w, &[]).unwrap();
    assert_eq!(n.to_vec::<i64>().unwrap(), [!((1i64 << 40) + 3), 0]);
    let p = vec_of(&[4], &[true, true, false, false]);
    let q = vec_of(&[4], &[true, false, true, false]);
    let o = run2("BitwiseXor", "opset13", p.clone(), q).unwrap();
    assert_eq!(o.to_vec::<bool>().unwrap(), [false, true, true, false]);
    let n = run_op("BitwiseNot", "opset13", "", p, &[]).unwrap();
    assert_eq!(n.to_vec::<bool>().unwrap(), [false, false, true, true]);
}

/// Shift counts below 0 and beyond the width as OpenVINO's CPU plugin
/// (measured): 8/16/32-bit types in 32 bits by `count mod 32`.
#[test]
fn shifts_with_counts_out_of_range() {
    let counts = [0i8, 1, 7, 8, 9, 31, 32, 33, 100, -1, -2, -31, -32, -33];
    let n = counts.len();
    let shl = |data: i8| {
        run2(
            "BitwiseLeftShift",
            "opset15",
            vec_of(&[n], &vec![data; n]),
            vec_of(&[n], &counts),
        )
        .unwrap()
        .to_vec::<i8>()
        .unwrap()
    };
    assert_eq!(shl(5), [5, 10, -128, 0, 0, 0, 5, 10, 80, 0, 0, 10, 5, 0]);
    let shr = run2(
        "BitwiseRightShift",
        "opset15",
        vec_of(&[n], &vec![-5i8; n]),
        vec_of(&[n], &counts),
    )
    .unwrap();
    assert_eq!(
        shr.to_vec::<i8>().unwrap(),
        [-5, -3, -1, -1, -1, -1, -5, -3, -1, -1, -1, -3, -5, -1]
    );
    let c32 = [0i32, 1, 31, 32, 33, 100, -1, -2];
    let shl32 = run2(
        "BitwiseLeftShift",
        "opset15",
        vec_of(&[8], &[5i32; 8]),
        vec_of(&[8], &c32),
    )
    .unwrap();
    assert_eq!(
        shl32.to_vec::<i32>().unwrap(),
        [5, 10, i32::MIN, 5, 10, 80, i32::MIN, 1 << 30]
    );
    // u32 shifts right logically (the spec; the CPU plugin differs).
    let shr32 = run2(
        "BitwiseRightShift",
        "opset15",
        vec_of(&[2], &[u32::MAX - 4, 8]),
        vec_of(&[2], &[1u32, 35]),
    )
    .unwrap();
    assert_eq!(shr32.to_vec::<u32>().unwrap(), [(u32::MAX - 4) >> 1, 1]);
    // 64-bit types shift by `count mod 64`.
    let shl64 = run2(
        "BitwiseLeftShift",
        "opset15",
        vec_of(&[3], &[5i64, 5, 5]),
        vec_of(&[3], &[32i64, 64, -1]),
    )
    .unwrap();
    assert_eq!(shl64.to_vec::<i64>().unwrap(), [5 << 32, 5, i64::MIN]);
}

#[test]
fn bitwise_on_floats_is_an_error() {
    let a = vec_of(&[2], &[1.0f32, 2.0]);
    let e = run2("BitwiseAnd", "opset13", a.clone(), a.clone()).unwrap_err();
    assert!(matches!(e, ExecError::Inference(_)), "{e}");
    let e = run_op("BitwiseNot", "opset13", "", a, &[]).unwrap_err();
    assert!(matches!(e, ExecError::Inference(_)), "{e}");
}

#[test]
fn l1_l2_and_logical_reductions() {
    let x = vec_of(&[2, 3], &[-1.0f32, 2.0, -2.0, 3.0, 4.0, 0.0]);
    let l1 = run_op("ReduceL1", "opset4", "", x.clone(), &[(&[1], &[1])]).unwrap();
    assert_eq!(l1.to_vec::<f32>().unwrap(), [5.0, 7.0]);
    let l2 = run_op(
        "ReduceL2",
        "opset4",
        r#"keep_dims="true""#,
        x,
        &[(&[1], &[-1])],
    )
    .unwrap();
    assert_eq!(l2.shape, [2, 1]);
    assert_eq!(l2.to_vec::<f32>().unwrap(), [3.0, 5.0]);
    // Integers: L2 truncated (sqrt(3) gives 1, sqrt(98) gives 9), L1
    // saturated to the type.
    let i = vec_of(&[2, 3], &[1i32, 1, 1, 7, 7, 0]);
    let l2 = run_op("ReduceL2", "opset4", "", i, &[(&[1], &[1])]).unwrap();
    assert_eq!(l2.to_vec::<i32>().unwrap(), [1, 9]);
    let u = vec_of(&[2, 2], &[200u8, 100, 3, 4]);
    let l1 = run_op("ReduceL1", "opset4", "", u, &[(&[1], &[1])]).unwrap();
    assert_eq!(l1.to_vec::<u8>().unwrap(), [255, 7]);
    let b = vec_of(&[2, 2], &[true, false, true, true]);
    let and = run_op("ReduceLogicalAnd", "opset1", "", b.clone(), &[(&[1], &[1])]).unwrap();
    assert_eq!(and.to_vec::<bool>().unwrap(), [false, true]);
    let or = run_op("ReduceLogicalOr", "opset1", "", b, &[(&[1], &[0])]).unwrap();
    assert_eq!(or.to_vec::<bool>().unwrap(), [true, true]);
}

#[test]
fn identity_copies() {
    let x = vec_of(&[2, 2], &[1i64, -2, 3, 4]);
    let y = run_op("Identity", "opset16", "", x.clone(), &[]).unwrap();
    assert_eq!(y.shape, x.shape);
    assert_eq!(y.element_type, x.element_type);
    assert_eq!(y.to_vec::<i64>().unwrap(), [1, -2, 3, 4]);
}

#[test]
fn cumsum_modes() {
    // The spec's examples: [1..5] inclusive, exclusive, reverse, both.
    let x = vec_of(&[5], &[1.0f32, 2.0, 3.0, 4.0, 5.0]);
    let v = |attrs: &str| {
        run_op("CumSum", "opset3", attrs, x.clone(), &[(&[], &[0])])
            .unwrap()
            .to_vec::<f32>()
            .unwrap()
    };
    assert_eq!(v(""), [1.0, 3.0, 6.0, 10.0, 15.0]);
    assert_eq!(v(r#"exclusive="true""#), [0.0, 1.0, 3.0, 6.0, 10.0]);
    assert_eq!(v(r#"reverse="true""#), [15.0, 14.0, 12.0, 9.0, 5.0]);
    assert_eq!(
        v(r#"exclusive="true" reverse="true""#),
        [14.0, 12.0, 9.0, 5.0, 0.0]
    );
    // Along the last axis of [2, 3]; integers wrap.
    let m = vec_of(&[2, 3], &[100i8, 100, 1, 1, 2, 3]);
    let y = run_op("CumSum", "opset3", "", m, &[(&[], &[-1])]).unwrap();
    assert_eq!(y.to_vec::<i8>().unwrap(), [100, -56, -55, 1, 3, 6]);
    // Without the axis input: axis 0.
    let m = vec_of(&[2, 2], &[1.0f32, 2.0, 3.0, 4.0]);
    let y = run_op("CumSum", "opset3", "", m, &[]).unwrap();
    assert_eq!(y.to_vec::<f32>().unwrap(), [1.0, 2.0, 4.0, 6.0]);
}

#[test]
fn cumsum_axis_out_of_range_at_run_time_is_an_error() {
    let mut net = Net::new();
    let p = net.param("x", "f32", "2,3");
    let a = net.param("a", "i64", "");
    let o = net.op("op", "CumSum", "opset3", "", &[p, a], None);
    net.result("out", o);
    let x = vec_of(&[2, 3], &[0.0f32; 6]);
    let e = net
        .exec(vec![("x", x), ("a", Tensor::scalar(2i64))])
        .unwrap_err();
    assert!(e.to_string().contains("out of range"), "{e}");
}

#[test]
fn roll_values() {
    // The spec's three examples on [[1, 2, 3], …, [10, 11, 12]].
    let x = vec_of(&[4, 3], &(1..=12).collect::<Vec<i32>>());
    let roll = |shift: &[i64], axes: &[i64]| {
        let ss: &[u64] = if shift.len() == 1 && axes.len() == 1 {
            &[]
        } else {
            &[shift.len() as u64][..]
        };
        let sa = [axes.len() as u64];
        run_op("Roll", "opset7", "", x.clone(), &[(ss, shift), (&sa, axes)])
            .unwrap()
            .to_vec::<i32>()
            .unwrap()
    };
    assert_eq!(roll(&[1], &[0]), [10, 11, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert_eq!(
        roll(&[-1, 2], &[0, 1]),
        [5, 6, 4, 8, 9, 7, 11, 12, 10, 2, 3, 1]
    );
    assert_eq!(
        roll(&[1, 2, 1], &[0, 1, 0]),
        [8, 9, 7, 11, 12, 10, 2, 3, 1, 5, 6, 4]
    );
    // A scalar shift over two axes (the spec; the CPU plugin refuses it).
    let y = run_op(
        "Roll",
        "opset7",
        "",
        x.clone(),
        &[(&[], &[1]), (&[2], &[0, -1])],
    )
    .unwrap();
    assert_eq!(
        y.to_vec::<i32>().unwrap(),
        [12, 10, 11, 3, 1, 2, 6, 4, 5, 9, 7, 8]
    );
}

#[test]
fn roll_run_time_errors() {
    let mut net = Net::new();
    let p = net.param("x", "f32", "2,3");
    let s = net.param("s", "i64", "?");
    let a = net.param("a", "i64", "?");
    let o = net.op("op", "Roll", "opset7", "", &[p, s, a], None);
    net.result("out", o);
    let x = vec_of(&[2, 3], &[0.0f32; 6]);
    let run = |s: &[i64], a: &[i64]| {
        net.exec(vec![
            ("x", x.clone()),
            ("s", vec_of(&[s.len()], s)),
            ("a", vec_of(&[a.len()], a)),
        ])
    };
    // Lengths that differ: inference over the run's shapes finds it.
    let e = run(&[1, 1], &[0]).unwrap_err();
    assert!(e.to_string().contains("roll-shift-axes"), "{e}");
    let e = run(&[1], &[2]).unwrap_err();
    assert!(e.to_string().contains("out of range"), "{e}");
    assert!(run(&[1], &[1]).is_ok());
}
