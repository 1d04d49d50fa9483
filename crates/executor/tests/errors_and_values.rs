//! Input errors before anything runs, missing kernels, and kernel values:
//! broadcasting arithmetic, integer division, IEEE NaN/Inf, zero-size dims,
//! views, Convert, Concat/Transpose/Gather/ShapeOf, data-dependent chains.

mod common;

use common::{arange, f32_out, Net};
use executor::{ExecError, Executor, Precision, Tensor};

fn add_net() -> Net {
    let mut net = Net::new();
    let x = net.param("x", "f32", "2,-1");
    let y = net.param("y", "f32", "3");
    let out = net.op("add", "Add", "opset1", "", &[x, y], Some(vec![2, -1]));
    net.result("out", out);
    net
}

#[test]
fn missing_input_is_an_error() {
    let e = add_net().exec(vec![("x", arange(&[2, 3]))]).unwrap_err();
    assert!(
        matches!(&e, ExecError::MissingInput { name, .. } if name == "y"),
        "{e}"
    );
}

#[test]
fn unknown_input_is_an_error() {
    let e = add_net()
        .exec(vec![
            ("x", arange(&[2, 3])),
            ("y", arange(&[3])),
            ("z", arange(&[1])),
        ])
        .unwrap_err();
    assert!(
        matches!(&e, ExecError::UnknownInput { name, .. } if name == "z"),
        "{e}"
    );
}

#[test]
fn wrong_dtype_is_an_error() {
    let y = Tensor::from_vec(vec![3], vec![1i32, 2, 3]).unwrap();
    let e = add_net()
        .exec(vec![("x", arange(&[2, 3])), ("y", y)])
        .unwrap_err();
    assert!(
        matches!(&e, ExecError::InputType { name, .. } if name == "y"),
        "{e}"
    );
}

#[test]
fn wrong_rank_is_an_error() {
    let e = add_net()
        .exec(vec![("x", arange(&[6])), ("y", arange(&[3]))])
        .unwrap_err();
    assert!(
        matches!(
            &e,
            ExecError::InputRank {
                expected: 2,
                actual: 1,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn bytes_that_do_not_match_the_shape_are_an_error() {
    // `Tensor`'s fields are public, so a caller can build an inconsistent one.
    let mut y = arange(&[3]);
    y.shape = vec![3_000_000];
    let e = add_net()
        .exec(vec![("x", arange(&[2, 3])), ("y", y)])
        .unwrap_err();
    assert!(
        matches!(&e, ExecError::InvalidTensor(m) if m.contains("`y`")),
        "{e}"
    );
}

#[test]
fn contradicting_static_dim_is_an_error() {
    let e = add_net()
        .exec(vec![("x", arange(&[3, 3])), ("y", arange(&[3]))])
        .unwrap_err();
    assert!(
        matches!(
            &e,
            ExecError::InputDim {
                axis: 0,
                actual: 3,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn shapes_that_do_not_broadcast_stop_before_running() {
    let e = add_net()
        .exec(vec![("x", arange(&[2, 4])), ("y", arange(&[3]))])
        .unwrap_err();
    assert!(matches!(&e, ExecError::Inference(_)), "{e}");
}

#[test]
fn an_op_without_kernel_is_named() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "2,3");
    // An extension op no opset has (OpenVINO's ops all get kernels).
    let y = net.op(
        "fft",
        "CustomFft",
        "custom_opset",
        "",
        &[x, x],
        Some(vec![2, 2]),
    );
    net.result("out", y);
    let e = executor::Executor::new(&net.graph()).unwrap_err();
    assert!(
        matches!(&e, ExecError::NoKernel { op, layer } if op.starts_with("CustomFft") && layer == "fft"),
        "{e}"
    );
}

#[test]
fn numpy_broadcast_add_with_nan_and_inf() {
    let x = Tensor::from_vec(
        vec![2, 3],
        vec![
            1.0f32,
            f32::NAN,
            f32::INFINITY,
            -1.0,
            0.0,
            f32::NEG_INFINITY,
        ],
    )
    .unwrap();
    let y = Tensor::from_vec(vec![3], vec![1.0f32, 1.0, f32::NEG_INFINITY]).unwrap();
    let out = add_net().exec(vec![("x", x), ("y", y)]).unwrap();
    let (shape, v) = f32_out(&out, "out");
    assert_eq!(shape, vec![2, 3]);
    assert_eq!(v[0], 2.0);
    assert!(v[1].is_nan());
    assert!(v[2].is_nan()); // inf + -inf
    assert_eq!(&v[3..5], &[0.0, 1.0]);
    assert_eq!(v[5], f32::NEG_INFINITY);
}

#[test]
fn zero_size_dims_run() {
    let out = add_net()
        .exec(vec![
            (
                "x",
                Tensor::from_vec(vec![2, 0], Vec::<f32>::new()).unwrap(),
            ),
            ("y", arange(&[1])),
        ])
        .unwrap_err();
    // y is declared [3].
    assert!(matches!(out, ExecError::InputDim { .. }));
    let out = add_net()
        .exec(vec![
            (
                "x",
                Tensor::from_vec(vec![2, 0], Vec::<f32>::new()).unwrap(),
            ),
            ("y", arange(&[3])),
        ])
        .unwrap_err();
    // [2, 0] + [3] does not broadcast.
    assert!(matches!(out, ExecError::Inference(_)), "{out}");
    let mut net = Net::new();
    let x = net.param("x", "f32", "-1,3");
    let r = net.op("relu", "ReLU", "opset1", "", &[x], Some(vec![-1, 3]));
    net.result("out", r);
    let out = net
        .exec(vec![(
            "x",
            Tensor::from_vec(vec![0, 3], Vec::<f32>::new()).unwrap(),
        )])
        .unwrap();
    assert_eq!(out["out"].shape, vec![0, 3]);
}

fn binary_i32(op: &str, attrs: &str, a: Vec<i32>, b: Vec<i32>) -> Result<Vec<i32>, ExecError> {
    binary_i32_as(Precision::default(), op, attrs, a, b)
}

/// `op` of two i32 Parameters run under `precision`.
fn binary_i32_as(
    precision: Precision,
    op: &str,
    attrs: &str,
    a: Vec<i32>,
    b: Vec<i32>,
) -> Result<Vec<i32>, ExecError> {
    let mut net = Net::new();
    let x = net.param("a", "i32", &a.len().to_string());
    let y = net.param("b", "i32", &b.len().to_string());
    let out = net.op("op", op, "opset1", attrs, &[x, y], Some(vec![-1]));
    net.result("out", out);
    let (na, nb) = (a.len(), b.len());
    let out = Executor::with_precision(&net.graph(), precision)?.run(
        [
            ("a".to_owned(), Tensor::from_vec(vec![na], a).unwrap()),
            ("b".to_owned(), Tensor::from_vec(vec![nb], b).unwrap()),
        ]
        .into(),
    )?;
    Ok(out["out"].to_vec::<i32>().unwrap())
}

/// The Divide specification: floor division when `m_pythondiv` (the
/// default), which `Precision::Exact` follows. OpenVINO 2026.4's CPU
/// plugin truncates a Divide it computes at run time either way
/// (`[-7, 7] / [2, -2]` is `[-3, -3]` there), as the default
/// `Precision::Plugin` does (`docs/ops.md` says so).
#[test]
fn integer_division_floors_by_specification_and_truncates_as_the_plugin() {
    let a = vec![7, -7, 7, -7, i32::MIN];
    let b = vec![2, 2, -2, -2, -1];
    let floor = vec![3, -4, -4, 3, i32::MIN];
    let truncated = vec![3, -3, -3, 3, i32::MIN];
    let exact = |attrs| binary_i32_as(Precision::Exact, "Divide", attrs, a.clone(), b.clone());
    assert_eq!(exact("").unwrap(), floor);
    assert_eq!(exact(r#"m_pythondiv="false""#).unwrap(), truncated);
    assert_eq!(
        binary_i32("Divide", "", a.clone(), b.clone()).unwrap(),
        truncated
    );
    assert_eq!(
        binary_i32("Divide", r#"m_pythondiv="false""#, a, b).unwrap(),
        truncated
    );
    let e = binary_i32_as(Precision::Exact, "Divide", "", vec![1], vec![0]).unwrap_err();
    assert!(e.to_string().contains("division by zero"), "{e}");
}

/// Integer Power and Divide computed at run time: OpenVINO 2026.4's CPU
/// plugin computes them in f32 and truncates back through i32 as x86 does
/// (NaN, infinities and values past i32's range give i32::MIN, which i8
/// saturates to -128), as `Precision::Plugin` does; `Precision::Exact`
/// follows the specification (wrapping powers, an error for a division by
/// zero). So ONNX's bit shifts right by the width or more, or by a negative
/// count, which OpenVINO's frontend writes as a Divide by a Power of 2,
/// give the plugin's 0 and type minimum instead of an error.
#[test]
fn integer_power_and_division_compute_in_f32_as_the_plugin() {
    let base = vec![2, 2, 3, 2, -2, 7];
    let exponent = vec![32, 31, 20, -1, 31, 2];
    let exact = binary_i32_as(
        Precision::Exact,
        "Power",
        "",
        base.clone(),
        exponent.clone(),
    );
    assert_eq!(
        exact.unwrap(),
        vec![0, i32::MIN, -808_182_895, 0, i32::MIN, 49]
    );
    let plugin = binary_i32("Power", "", base, exponent).unwrap();
    assert_eq!(plugin, vec![i32::MIN, i32::MIN, i32::MIN, 0, i32::MIN, 49]);

    // f32(i32::MAX) is 2^31; 16777217 is not an f32.
    let (a, b) = (vec![i32::MAX, 16_777_217, -7], vec![-1, 1, 2]);
    let exact = binary_i32_as(Precision::Exact, "Divide", "", a.clone(), b.clone());
    assert_eq!(exact.unwrap(), vec![-i32::MAX, 16_777_217, -4]);
    let plugin = binary_i32("Divide", "", a, b).unwrap();
    assert_eq!(plugin, vec![i32::MIN, 16_777_216, -3]);
    let plugin = binary_i32("Divide", "", vec![7, -7, 0], vec![0, 0, 0]).unwrap();
    assert_eq!(plugin, vec![i32::MIN; 3]);

    // ONNX's `test_bitshift_*_int8_*` through OpenVINO's frontend.
    let shift_i8 = |precision, op: &str, count: Vec<i8>| {
        let mut net = Net::new();
        let x = net.param("x", "i8", "3");
        let two = net.param("two", "i8", "3");
        let n = net.param("count", "i8", "3");
        let power = net.op("power", "Power", "opset1", "", &[two, n], Some(vec![3]));
        let shifted = net.op("shifted", op, "opset1", "", &[x, power], Some(vec![3]));
        net.result("out", shifted);
        let feed = |v: Vec<i8>| Tensor::from_vec(vec![3], v).unwrap();
        let inputs = [
            ("x".to_owned(), feed(vec![-8, 4, -1])),
            ("two".to_owned(), feed(vec![2; 3])),
            ("count".to_owned(), feed(count)),
        ];
        Executor::with_precision(&net.graph(), precision)?
            .run(inputs.into())
            .map(|out| out["out"].to_vec::<i8>().unwrap())
    };
    let right = |precision, count| shift_i8(precision, "Divide", count);
    assert_eq!(
        right(Precision::Plugin, vec![8, 9, 127]).unwrap(),
        vec![0; 3]
    );
    assert_eq!(
        right(Precision::Plugin, vec![-1, -8, -16]).unwrap(),
        vec![-128; 3]
    );
    assert_eq!(
        right(Precision::Plugin, vec![1, 2, 0]).unwrap(),
        vec![-4, 1, -1]
    );
    for count in [vec![8, 9, 127], vec![-1, -8, -16]] {
        let e = right(Precision::Exact, count).unwrap_err();
        assert!(e.to_string().contains("division by zero"), "{e}");
    }
    // An i8 Multiply saturates in the plugin (2^8 is 127, 2^127 is -128).
    let left = |precision, count| shift_i8(precision, "Multiply", count);
    assert_eq!(
        left(Precision::Plugin, vec![8, 9, 127]).unwrap(),
        vec![-128, 127, 127]
    );
    assert_eq!(left(Precision::Exact, vec![8, 9, 127]).unwrap(), vec![0; 3]);
    assert_eq!(
        left(Precision::Plugin, vec![4, 5, 6]).unwrap(),
        vec![-128, 127, -64]
    );
}

/// `op` of two `T` Parameters of `shape` (`?` for a dynamic dim) run
/// under `precision`.
fn binary_small<T: executor::Element + Copy>(
    precision: Precision,
    op: &str,
    shape: &str,
    a: Vec<T>,
    b: Vec<T>,
) -> Vec<T> {
    let name = T::TYPE.name();
    let mut net = Net::new();
    let x = net.param("a", name, shape);
    let y = net.param("b", name, shape);
    let out = net.op("op", op, "opset1", "", &[x, y], Some(vec![-1]));
    net.result("out", out);
    let (na, nb) = (a.len(), b.len());
    let out = Executor::with_precision(&net.graph(), precision)
        .unwrap()
        .run(
            [
                ("a".to_owned(), Tensor::from_vec(vec![na], a).unwrap()),
                ("b".to_owned(), Tensor::from_vec(vec![nb], b).unwrap()),
            ]
            .into(),
        )
        .unwrap();
    out["out"].to_vec::<T>().unwrap()
}

/// i8 and u8 Add, Subtract and Multiply saturate in OpenVINO 2026.4's CPU
/// plugin, static and dynamic shapes alike (measured by
/// `scripts/probe_cpu_precision.py`, `small_integer_arithmetic`:
/// `100 + 100` is 127 in i8, `5 - 7` is 0 in u8), as `Precision::Plugin`
/// computes them; `Precision::Exact` wraps, as the specification says.
/// Its i8 and u8 Divide truncates at a static shape and rounds to nearest
/// even at a dynamic one.
#[test]
fn small_integer_arithmetic_saturates_and_rounds_as_the_plugin() {
    let (a, b) = (vec![100i8, 120, 5, 0], vec![100i8, 10, 7, 1]);
    for shape in ["4", "?"] {
        let plugin = |op| binary_small(Precision::Plugin, op, shape, a.clone(), b.clone());
        assert_eq!(plugin("Add"), vec![127, 127, 12, 1]);
        assert_eq!(plugin("Subtract"), vec![0, 110, -2, -1]);
        assert_eq!(plugin("Multiply"), vec![127, 127, 35, 0]);
        let (a, b) = (vec![100u8, 120, 5, 0], vec![100u8, 10, 7, 1]);
        let plugin = |op| binary_small(Precision::Plugin, op, shape, a.clone(), b.clone());
        assert_eq!(plugin("Add"), vec![200, 130, 12, 1]);
        assert_eq!(plugin("Subtract"), vec![0, 110, 0, 0]);
        assert_eq!(plugin("Multiply"), vec![255, 255, 35, 0]);
    }
    let exact = binary_small(Precision::Exact, "Add", "4", a, b);
    assert_eq!(exact, vec![-56, -126, 12, 1]);

    let a = vec![7i8, 5, 9, 3, 1, 11, -7, -5, 7, 0, -128];
    let b = vec![2i8, 2, 2, 2, 2, 4, 2, 2, 0, 0, -1];
    let divide = |shape| binary_small(Precision::Plugin, "Divide", shape, a.clone(), b.clone());
    assert_eq!(
        divide("11"),
        vec![3, 2, 4, 1, 0, 2, -3, -2, -128, -128, 127]
    );
    assert_eq!(divide("?"), vec![4, 2, 4, 2, 0, 3, -4, -2, -128, -128, 127]);
    let (a, b) = (vec![7u8, 5, 9, 3, 11, 7], vec![2u8, 2, 2, 2, 4, 0]);
    let divide = |shape| binary_small(Precision::Plugin, "Divide", shape, a.clone(), b.clone());
    assert_eq!(divide("6"), vec![3, 2, 4, 1, 2, 0]);
    assert_eq!(divide("?"), vec![4, 2, 4, 2, 3, 0]);
}

#[test]
fn integer_arithmetic_wraps_and_max_min() {
    assert_eq!(
        binary_i32("Add", "", vec![i32::MAX], vec![1]).unwrap(),
        vec![i32::MIN]
    );
    assert_eq!(
        binary_i32("Maximum", "", vec![1, 5], vec![3]).unwrap(),
        vec![3, 5]
    );
    assert_eq!(
        binary_i32("Minimum", "", vec![1, 5], vec![3]).unwrap(),
        vec![1, 3]
    );
    assert_eq!(
        binary_i32("Subtract", "", vec![1, 5], vec![3]).unwrap(),
        vec![-2, 2]
    );
    assert_eq!(
        binary_i32("Multiply", "", vec![1, 5], vec![3]).unwrap(),
        vec![3, 15]
    );
}

#[test]
fn comparisons_and_logic_give_booleans() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "4");
    let y = net.param("y", "f32", "1");
    let lt = net.op("lt", "Less", "opset1", "", &[x, y], Some(vec![4]));
    let ge = net.op("ge", "GreaterEqual", "opset1", "", &[x, y], Some(vec![4]));
    let ne = net.op("ne", "NotEqual", "opset1", "", &[x, y], Some(vec![4]));
    let xor = net.op("xor", "LogicalXor", "opset1", "", &[lt, ge], Some(vec![4]));
    let not = net.op("not", "LogicalNot", "opset1", "", &[ne], Some(vec![4]));
    net.result("lt", lt);
    net.result("xor", xor);
    net.result("not", not);
    let out = net
        .exec(vec![
            (
                "x",
                Tensor::from_vec(vec![4], vec![0.0f32, 1.0, 2.0, f32::NAN]).unwrap(),
            ),
            ("y", Tensor::from_vec(vec![1], vec![1.0f32]).unwrap()),
        ])
        .unwrap();
    assert_eq!(
        out["lt"].to_vec::<bool>().unwrap(),
        vec![true, false, false, false]
    );
    // NaN is neither less nor greater-or-equal.
    assert_eq!(
        out["xor"].to_vec::<bool>().unwrap(),
        vec![true, true, true, false]
    );
    // NaN != 1, so its negation is false.
    assert_eq!(
        out["not"].to_vec::<bool>().unwrap(),
        vec![false, true, false, false]
    );
}

#[test]
fn unary_ops_follow_ieee() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "4");
    for (name, op) in [
        ("relu", "ReLU"),
        ("sigmoid", "Sigmoid"),
        ("sqrt", "Sqrt"),
        ("neg", "Negative"),
        ("exp", "Exp"),
        ("tanh", "Tanh"),
        ("abs", "Abs"),
    ] {
        let y = net.op(name, op, "opset1", "", &[x], Some(vec![4]));
        net.result(&format!("{name}_out"), y);
    }
    let input = Tensor::from_vec(vec![4], vec![-1.0f32, 0.0, 4.0, f32::NAN]).unwrap();
    let out = net.exec(vec![("x", input)]).unwrap();
    let v = |n: &str| f32_out(&out, n).1;
    assert_eq!(&v("relu_out")[..3], &[0.0, 0.0, 4.0]);
    assert!(v("relu_out")[3].is_nan());
    assert!(v("sqrt_out")[0].is_nan());
    assert_eq!(v("sqrt_out")[2], 2.0);
    assert_eq!(v("sigmoid_out")[1], 0.5);
    assert_eq!(&v("neg_out")[..3], &[1.0, -0.0, -4.0]);
    assert_eq!(v("exp_out")[1], 1.0);
    assert_eq!(v("tanh_out")[1], 0.0);
    assert_eq!(&v("abs_out")[..3], &[1.0, 0.0, 4.0]);
    assert!(v("exp_out")[3].is_nan());
}

#[test]
fn convert_truncates_saturates_and_maps_booleans() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "5");
    let i = net.op(
        "to_i8",
        "Convert",
        "opset1",
        r#"destination_type="i8""#,
        &[x],
        Some(vec![5]),
    );
    let b = net.op(
        "to_bool",
        "Convert",
        "opset1",
        r#"destination_type="boolean""#,
        &[x],
        Some(vec![5]),
    );
    let h = net.op(
        "to_f16",
        "Convert",
        "opset1",
        r#"destination_type="f16""#,
        &[x],
        Some(vec![5]),
    );
    net.result("i", i);
    net.result("b", b);
    net.result("h", h);
    let input = Tensor::from_vec(vec![5], vec![-1.7f32, 2.9, 1000.0, f32::NAN, 0.0]).unwrap();
    let out = net.exec(vec![("x", input)]).unwrap();
    assert_eq!(out["i"].to_vec::<i8>().unwrap(), vec![-1, 2, 127, 0, 0]);
    assert_eq!(
        out["b"].to_vec::<bool>().unwrap(),
        vec![true, true, true, true, false]
    );
    assert_eq!(
        out["h"].to_vec::<half::f16>().unwrap()[1],
        half::f16::from_f32(2.9)
    );
}

#[test]
fn data_movement_ops() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "2,3");
    let perm = net.i64s("perm", &[2], &[1, 0]);
    let t = net.op("t", "Transpose", "opset1", "", &[x, perm], Some(vec![3, 2]));
    let c = net.op(
        "c",
        "Concat",
        "opset1",
        r#"axis="0""#,
        &[t, t],
        Some(vec![6, 2]),
    );
    let idx = net.i64s("idx", &[2], &[-1, 0]);
    let axis = net.i64s("axis", &[], &[1]);
    let g = net.op(
        "g",
        "Gather",
        "opset8",
        r#"batch_dims="0""#,
        &[x, idx, axis],
        Some(vec![2, 2]),
    );
    let s = net.op(
        "s",
        "ShapeOf",
        "opset3",
        r#"output_type="i64""#,
        &[c],
        Some(vec![2]),
    );
    let ax = net.i64s("ax", &[1], &[0]);
    let u = net.op(
        "u",
        "Unsqueeze",
        "opset1",
        "",
        &[g, ax],
        Some(vec![1, 2, 2]),
    );
    let q = net.op("q", "Squeeze", "opset1", "", &[u, ax], Some(vec![2, 2]));
    net.result("t_out", t);
    net.result("c_out", c);
    net.result("g_out", g);
    net.result("s_out", s);
    net.result("u_out", u);
    net.result("q_out", q);
    let out = net.exec(vec![("x", arange(&[2, 3]))]).unwrap();
    assert_eq!(
        f32_out(&out, "t_out"),
        (vec![3, 2], vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0])
    );
    assert_eq!(f32_out(&out, "c_out").0, vec![6, 2]);
    assert_eq!(
        f32_out(&out, "g_out"),
        (vec![2, 2], vec![2.0, 0.0, 5.0, 3.0])
    );
    assert_eq!(out["s_out"].to_vec::<i64>().unwrap(), vec![6, 2]);
    assert_eq!(f32_out(&out, "u_out").0, vec![1, 2, 2]);
    assert!(out["q_out"].data.same_view(&out["g_out"].data));
}

#[test]
fn data_dependent_count_flows_into_later_ops() {
    // Compress by a run-time condition, then ReLU and ShapeOf of the result.
    let mut net = Net::new();
    let x = net.param("x", "f32", "4,2");
    let c = net.param("cond", "boolean", "4");
    let k = net.op(
        "k",
        "Compress",
        "ovir1",
        r#"axis="0""#,
        &[x, c],
        Some(vec![-1, 2]),
    );
    let r = net.op("r", "ReLU", "opset1", "", &[k], Some(vec![-1, 2]));
    let s = net.op("s", "ShapeOf", "opset3", "", &[r], Some(vec![2]));
    net.result("r_out", r);
    net.result("s_out", s);
    let cond = Tensor::from_vec(vec![4], vec![true, false, true, true]).unwrap();
    let out = net
        .exec(vec![("x", arange(&[4, 2])), ("cond", cond)])
        .unwrap();
    assert_eq!(
        f32_out(&out, "r_out"),
        (vec![3, 2], vec![0.0, 1.0, 4.0, 5.0, 6.0, 7.0])
    );
    assert_eq!(out["s_out"].to_vec::<i64>().unwrap(), vec![3, 2]);
}

#[test]
fn npy_files_round_trip_through_a_run() {
    let dir = std::env::temp_dir().join(format!("executor-npy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("x.npy");
    executor::write_npy(&path, &arange(&[2, 3])).unwrap();
    let x = executor::read_npy(&path).unwrap();
    let out = add_net().exec(vec![("x", x), ("y", arange(&[3]))]).unwrap();
    executor::write_npy(&dir.join("out.npy"), &out["out"]).unwrap();
    let back = executor::read_npy(&dir.join("out.npy")).unwrap();
    assert_eq!(
        back.to_vec::<f32>().unwrap(),
        vec![0.0, 2.0, 4.0, 3.0, 5.0, 7.0]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn unary_f(op: &str, attrs: &str, from: &str, input: Tensor, more: &[(&str, Tensor)]) -> Tensor {
    let mut net = Net::new();
    let shape: Vec<String> = input.shape.iter().map(ToString::to_string).collect();
    let x = net.param("x", from, &shape.join(","));
    let mut inputs = vec![x];
    let mut feeds = vec![("x", input)];
    for (name, t) in more {
        let dims: Vec<String> = t.shape.iter().map(ToString::to_string).collect();
        inputs.push(net.param(name, &t.element_type.to_string(), &dims.join(",")));
        feeds.push((name, t.clone()));
    }
    let out = net.op("op", op, "opset1", attrs, &inputs, None);
    net.result("out", out);
    net.exec(feeds).unwrap().remove("out").unwrap()
}

/// Reductions over an empty set (undefined by the specification) give what
/// OpenVINO 2026.4's CPU plugin gives: the lowest / highest finite f32 for
/// Max / Min, 0 for Mean and Sum, 1 for Prod; the type's limits for
/// integers. Over values all -inf, ReduceMax gives the lowest finite f32 as
/// OpenVINO's reference and CPU plugin do; over values all +inf, ReduceMin
/// gives +inf as the reference does (`Precision::Exact`) and the highest
/// finite f32 as the plugin does (`Precision::Plugin`, the default).
#[test]
fn reductions_over_an_empty_axis_match_openvino() {
    let empty = || Tensor::from_vec(vec![2, 0], Vec::<f32>::new()).unwrap();
    let axis = || ("axes", Tensor::from_vec(vec![1], vec![1i64]).unwrap());
    for (op, want) in [
        ("ReduceMax", f32::MIN),
        ("ReduceMin", f32::MAX),
        ("ReduceMean", 0.0),
        ("ReduceSum", 0.0),
        ("ReduceProd", 1.0),
    ] {
        let out = unary_f(op, "", "f32", empty(), &[axis()]);
        assert_eq!(out.to_vec::<f32>().unwrap(), vec![want; 2], "{op}");
    }
    let ints = Tensor::from_vec(vec![2, 0], Vec::<i32>::new()).unwrap();
    let out = unary_f("ReduceMax", "", "i32", ints, &[axis()]);
    assert_eq!(out.to_vec::<i32>().unwrap(), vec![i32::MIN; 2]);
    let infs = |sign: f32| Tensor::from_vec(vec![1, 2], vec![sign * f32::INFINITY; 2]).unwrap();
    let out = unary_f("ReduceMax", "", "f32", infs(-1.0), &[axis()]);
    assert_eq!(out.to_vec::<f32>().unwrap(), vec![f32::MIN]);
    let out = unary_f("ReduceMin", "", "f32", infs(1.0), &[axis()]);
    assert_eq!(out.to_vec::<f32>().unwrap(), vec![f32::MAX]);
    let mut net = Net::new();
    let x = net.param("x", "f32", "1,2");
    let axes = net.param("axes", "i64", "1");
    let min = net.op("min", "ReduceMin", "opset1", "", &[x, axes], None);
    net.result("out", min);
    let exact = Executor::with_precision(&net.graph(), Precision::Exact).unwrap();
    let (name, axes) = axis();
    let out = exact
        .run([("x".to_owned(), infs(1.0)), (name.to_owned(), axes)].into())
        .unwrap();
    assert_eq!(out["out"].to_vec::<f32>().unwrap(), vec![f32::INFINITY]);
}

/// f64 to f32 saturates at f32's finite range, infinities included, as
/// OpenVINO 2026.4's CPU plugin does; f64 to f16 overflows to infinity there
/// and here.
#[test]
fn convert_from_f64_saturates_to_f32_as_openvino() {
    let values = vec![1e300, -1e300, f64::INFINITY, 3.5e38, 1.5, f64::NAN];
    let input = || Tensor::from_vec(vec![values.len()], values.clone()).unwrap();
    let out = unary_f("Convert", r#"destination_type="f32""#, "f64", input(), &[]);
    let got = out.to_vec::<f32>().unwrap();
    assert_eq!(got[..5], [f32::MAX, f32::MIN, f32::MAX, f32::MAX, 1.5]);
    assert!(got[5].is_nan());
    let out = unary_f("Convert", r#"destination_type="f16""#, "f64", input(), &[]);
    let got = out.to_vec::<half::f16>().unwrap();
    assert_eq!(got[0], half::f16::INFINITY);
    assert_eq!(got[1], half::f16::NEG_INFINITY);
}

/// EmbeddingSegmentsSum over a 4x2 table `0..8` with these indices and ids.
fn segments(ids: &[i64], indices: &[i64]) -> Result<Vec<f32>, ExecError> {
    let mut net = Net::new();
    let table = net.param("table", "f32", "4,2");
    let idx = net.i64s("idx", &[indices.len() as u64], indices);
    let seg = net.i64s("seg", &[ids.len() as u64], ids);
    let n = net.i64s("n", &[], &[3]);
    let default = net.i64s("default", &[], &[3]);
    let out = net.op(
        "segments",
        "EmbeddingSegmentsSum",
        "opset3",
        "",
        &[table, idx, seg, n, default],
        Some(vec![3, 2]),
    );
    net.result("out", out);
    let out = net.exec(vec![("table", arange(&[4, 2]))])?;
    Ok(f32_out(&out, "out").1)
}

#[test]
fn embedding_segments_need_sorted_ids_and_rows_of_the_table() {
    // Segment 0 = rows 0 + 1, segment 1 unnamed (the default row 3),
    // segment 2 = row 2.
    assert_eq!(
        segments(&[0, 0, 2], &[0, 1, 2]).unwrap(),
        vec![2.0, 4.0, 6.0, 7.0, 4.0, 5.0]
    );
    for (ids, indices, needle) in [
        (&[0, 2, 1][..], &[0, 1, 2][..], "must be sorted"),
        (&[0, 0, 3], &[0, 1, 2], "outside [0, 3)"),
        (&[0, 0, 1], &[0, 4, 2], "not a row of the embedding table"),
    ] {
        let e = segments(ids, indices).unwrap_err();
        assert!(
            matches!(&e, ExecError::Kernel { .. }) && e.to_string().contains(needle),
            "{e}"
        );
    }
}

/// EmbeddingBagOffsetsSum over a 4x2 table `0..8` with these offsets.
fn bags(offsets: &[i64]) -> Result<Vec<f32>, ExecError> {
    let mut net = Net::new();
    let table = net.param("table", "f32", "4,2");
    let idx = net.i64s("idx", &[3], &[3, 0, 1]);
    let off = net.i64s("off", &[offsets.len() as u64], offsets);
    let out = net.op(
        "bags",
        "EmbeddingBagOffsetsSum",
        "opset3",
        "",
        &[table, idx, off],
        Some(vec![offsets.len() as i64, 2]),
    );
    net.result("out", out);
    let out = net.exec(vec![("table", arange(&[4, 2]))])?;
    Ok(f32_out(&out, "out").1)
}

#[test]
fn embedding_bag_offsets_stay_inside_the_indices() {
    // Bags [3], [] (zeros, no default), [0, 1].
    assert_eq!(
        bags(&[0, 1, 1]).unwrap(),
        vec![6.0, 7.0, 0.0, 0.0, 2.0, 4.0]
    );
    for offsets in [&[0, 3][..], &[0, 2, 1], &[-1, 1]] {
        let e = bags(offsets).unwrap_err();
        assert!(matches!(&e, ExecError::Kernel { .. }), "{offsets:?}: {e}");
    }
}

#[test]
fn gather_tree_traces_parents_and_fills_short_beams_with_the_end_token() {
    // T = 3, B = 2, W = 2; batch 0 runs 3 steps, batch 1 none.
    let mut net = Net::new();
    let ids = net.param("ids", "f32", "3,2,2");
    let parents = net.f32s(
        "parents",
        &[3, 2, 2],
        &[0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., 0.],
    );
    let lens = net.f32s("lens", &[2], &[3., 0.]);
    let end = net.f32s("end", &[], &[9.]);
    let out = net.op(
        "tree",
        "GatherTree",
        "opset1",
        "",
        &[ids, parents, lens, end],
        Some(vec![3, 2, 2]),
    );
    net.result("out", out);
    let ids = Tensor::from_vec(
        vec![3, 2, 2],
        vec![1f32, 2., 5., 5., 3., 4., 5., 5., 6., 7., 5., 5.],
    )
    .unwrap();
    let (_, v) = f32_out(&net.exec(vec![("ids", ids)]).unwrap(), "out");
    // Beam 0 of batch 0: step 2 = 6, its parent 0 -> step 1 beam 0 = 3,
    // whose parent 1 -> step 0 beam 1 = 2. Beam 1: 7, parent 1 -> 4,
    // parent 0 -> 1. Batch 1 has length 0: the end token everywhere.
    assert_eq!(v, vec![2., 1., 9., 9., 3., 4., 9., 9., 6., 7., 9., 9.]);
}
