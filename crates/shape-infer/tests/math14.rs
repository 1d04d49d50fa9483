//! The issue-14 ops, part a: the trigonometric family, the bitwise ops,
//! ReduceL1/L2/LogicalAnd/LogicalOr, Identity, CumSum and Roll.

mod support;
use support::Ir;

const TRIG: &[(&str, &str)] = &[
    ("Sin", "opset1"),
    ("Cos", "opset1"),
    ("Tan", "opset1"),
    ("Asin", "opset1"),
    ("Acos", "opset1"),
    ("Atan", "opset1"),
    ("Sinh", "opset1"),
    ("Cosh", "opset1"),
    ("Asinh", "opset4"),
    ("Acosh", "opset4"),
    ("Atanh", "opset4"),
];

#[test]
fn trig_keeps_shape_and_type() {
    for &(op, version) in TRIG {
        for t in ["f32", "f16", "i32", "u8", "i64"] {
            let mut b = Ir::new();
            let x = b.param("x", "N,3,H", t);
            let y = b.op("y", op, version, &[], &[x]);
            let r = b.run_to(y);
            r.clean();
            assert_eq!(r.shape("y"), "[N, 3, H]", "{op} {t}");
            assert_eq!(r.element_type("y"), t, "{op} {t}");
        }
    }
}

#[test]
fn trig_rejects_boolean_and_extra_inputs() {
    for &(op, version) in TRIG {
        let mut b = Ir::new();
        let x = b.param("x", "2,3", "boolean");
        let y = b.op("y", op, version, &[], &[x]);
        b.run_to(y)
            .error("y", "element-type", "must not be boolean");

        let mut b = Ir::new();
        let x = b.param("x", "2,3", "f32");
        let y = b.op("y", op, version, &[], &[x, x]);
        b.run_to(y).error("y", "input-count", "");
    }
}

#[test]
fn asinh_family_is_version_3_from_opset4() {
    for op in ["Asinh", "Acosh", "Atanh"] {
        let mut b = Ir::new();
        let x = b.param("x", "2", "f32");
        let y = b.op("y", op, "opset3", &[], &[x]);
        let r = b.run_to(y);
        assert!(!r.inferred("y"), "{op} in opset3: {:?}", r.rules());
    }
}

const BITWISE: &[(&str, &str)] = &[
    ("BitwiseAnd", "opset13"),
    ("BitwiseOr", "opset13"),
    ("BitwiseXor", "opset13"),
    ("BitwiseLeftShift", "opset15"),
    ("BitwiseRightShift", "opset15"),
];

#[test]
fn bitwise_broadcasts_and_keeps_the_type() {
    for &(op, version) in BITWISE {
        for t in ["i32", "u8", "i64"] {
            let mut b = Ir::new();
            let x = b.param("x", "N,1,4", t);
            let y = b.param("y", "3,1", t);
            let z = b.op("z", op, version, &[], &[x, y]);
            let r = b.run_to(z);
            r.clean();
            assert_eq!(r.shape("z"), "[N, 3, 4]", "{op} {t}");
            assert_eq!(r.element_type("z"), t, "{op} {t}");
        }
    }
    let mut b = Ir::new();
    let x = b.param("x", "N,3", "boolean");
    let y = b.param("y", "3", "boolean");
    let z = b.op("z", "BitwiseXor", "opset13", &[], &[x, y]);
    let n = b.op("n", "BitwiseNot", "opset13", &[], &[z]);
    let r = b.run_to(n);
    r.clean();
    assert_eq!(r.shape("n"), "[N, 3]");
    assert_eq!(r.element_type("n"), "boolean");
}

#[test]
fn bitwise_type_errors() {
    for &(op, version) in BITWISE {
        for (ta, tb, needle) in [
            ("f32", "f32", "got f32"),
            ("i32", "i64", "same element type"),
        ] {
            let mut b = Ir::new();
            let x = b.param("x", "2,3", ta);
            let y = b.param("y", "2,3", tb);
            let z = b.op("z", op, version, &[], &[x, y]);
            b.run_to(z).error("z", "element-type", needle);
        }
    }
    for op in ["BitwiseLeftShift", "BitwiseRightShift"] {
        let mut b = Ir::new();
        let x = b.param("x", "2,3", "boolean");
        let z = b.op("z", op, "opset15", &[], &[x, x]);
        b.run_to(z)
            .error("z", "element-type", "must be integer tensors");
    }
    let mut b = Ir::new();
    let x = b.param("x", "2,3", "f16");
    let z = b.op("z", "BitwiseNot", "opset13", &[], &[x]);
    b.run_to(z)
        .error("z", "element-type", "must be an integer or boolean tensor");
    let mut b = Ir::new();
    let x = b.param("x", "2,3", "i32");
    let y = b.param("y", "4,3", "i32");
    let z = b.op("z", "BitwiseAnd", "opset13", &[], &[x, y]);
    b.run_to(z).error("z", "broadcast-incompatible", "");
}

#[test]
fn bitwise_values_propagate() {
    let mut b = Ir::new();
    let x = b.vec("x", &[12, -1, 5]);
    let y = b.vec("y", &[10, 6, 3]);
    let a = b.op("a", "BitwiseAnd", "opset13", &[], &[x, y]);
    let o = b.op("o", "BitwiseOr", "opset13", &[], &[x, y]);
    let e = b.op("e", "BitwiseXor", "opset13", &[], &[x, y]);
    let n = b.op("n", "BitwiseNot", "opset13", &[], &[x]);
    b.result(a);
    b.result(o);
    b.result(e);
    let r = b.run_to(n);
    r.clean();
    assert_eq!(r.ints("a"), Some(vec![8, 6, 1]));
    assert_eq!(r.ints("o"), Some(vec![14, -1, 7]));
    assert_eq!(r.ints("e"), Some(vec![6, -7, 6]));
    assert_eq!(r.ints("n"), Some(vec![-13, 0, -6]));
}

#[test]
fn new_reductions_follow_the_reduce_rule() {
    for (op, version, t) in [
        ("ReduceL1", "opset4", "f32"),
        ("ReduceL2", "opset4", "i32"),
        ("ReduceLogicalAnd", "opset1", "boolean"),
        ("ReduceLogicalOr", "opset1", "boolean"),
    ] {
        let mut b = Ir::new();
        let x = b.param("x", "N,3,H", t);
        let ax = b.vec("ax", &[1, -1]);
        let keep = b.op("keep", op, version, &[("keep_dims", "true")], &[x, ax]);
        let drop = b.op("drop", op, version, &[], &[x, ax]);
        b.result(keep);
        let r = b.run_to(drop);
        r.clean();
        assert_eq!(r.shape("keep"), "[N, 1, 1]", "{op}");
        assert_eq!(r.shape("drop"), "[N]", "{op}");
        assert_eq!(r.element_type("drop"), t, "{op}");
    }
}

#[test]
fn new_reductions_check_types_and_axes() {
    for (op, version, t, needle) in [
        ("ReduceL1", "opset4", "boolean", "must be numeric"),
        ("ReduceL2", "opset4", "boolean", "must be numeric"),
        ("ReduceLogicalAnd", "opset1", "f32", "must be boolean"),
        ("ReduceLogicalOr", "opset1", "i32", "must be boolean"),
    ] {
        let mut b = Ir::new();
        let x = b.param("x", "2,3", t);
        let ax = b.vec("ax", &[1]);
        let y = b.op("y", op, version, &[], &[x, ax]);
        b.run_to(y).error("y", "element-type", needle);

        let ok = if t == "boolean" && op.starts_with("ReduceL") {
            "f32"
        } else if t != "boolean" && op.starts_with("ReduceLogical") {
            "boolean"
        } else {
            t
        };
        let mut b = Ir::new();
        let x = b.param("x", "2,3", ok);
        let ax = b.vec("ax", &[2]);
        let y = b.op("y", op, version, &[], &[x, ax]);
        b.run_to(y).error("y", "axis-out-of-range", "axis 2");

        let mut b = Ir::new();
        let x = b.param("x", "2,3", ok);
        let ax = b.const_f32("ax", &[1], &[1.0]);
        let y = b.op("y", op, version, &[], &[x, ax]);
        b.run_to(y)
            .error("y", "element-type", "must be an integer tensor");
    }
}

#[test]
fn logical_reductions_propagate_values() {
    let mut b = Ir::new();
    let x = b.mask("x", &[true, false, true]);
    let ax = b.vec("ax", &[0]);
    let a = b.op("a", "ReduceLogicalAnd", "opset1", &[], &[x, ax]);
    let o = b.op("o", "ReduceLogicalOr", "opset1", &[], &[x, ax]);
    b.result(a);
    let r = b.run_to(o);
    r.clean();
    assert_eq!(r.ints("a"), Some(vec![0]));
    assert_eq!(r.ints("o"), Some(vec![1]));
}

#[test]
fn identity_passes_everything_through() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3", "boolean");
    let y = b.op("y", "Identity", "opset16", &[], &[x]);
    let v = b.vec("v", &[4, 5]);
    let w = b.op("w", "Identity", "opset16", &[], &[v]);
    b.result(y);
    let r = b.run_to(w);
    r.clean();
    assert_eq!(r.shape("y"), "[N, 3]");
    assert_eq!(r.element_type("y"), "boolean");
    assert_eq!(r.ints("w"), Some(vec![4, 5]));

    let mut b = Ir::new();
    let x = b.param("x", "2", "f32");
    let y = b.op("y", "Identity", "opset16", &[], &[x, x]);
    b.run_to(y).error("y", "input-count", "");
    // Not in opset15.
    let mut b = Ir::new();
    let x = b.param("x", "2", "f32");
    let y = b.op("y", "Identity", "opset15", &[], &[x]);
    assert!(!b.run_to(y).inferred("y"));
}

#[test]
fn cumsum_shape_values_and_errors() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3,H", "f16");
    let ax = b.scalar("ax", -1);
    let y = b.op("y", "CumSum", "opset3", &[("exclusive", "true")], &[x, ax]);
    let z = b.op("z", "CumSum", "opset3", &[], &[x]);
    b.result(z);
    let r = b.run_to(y);
    r.clean();
    assert_eq!(r.shape("y"), "[N, 3, H]");
    assert_eq!(r.shape("z"), "[N, 3, H]");
    assert_eq!(r.element_type("y"), "f16");

    // Running sums of a value vector (inclusive, exclusive, reversed).
    let mut b = Ir::new();
    let v = b.vec("v", &[1, 2, 3, 4]);
    let ax = b.scalar("ax", 0);
    let inc = b.op("inc", "CumSum", "opset3", &[], &[v, ax]);
    let exr = b.op(
        "exr",
        "CumSum",
        "opset3",
        &[("exclusive", "true"), ("reverse", "true")],
        &[v, ax],
    );
    b.result(inc);
    let r = b.run_to(exr);
    r.clean();
    assert_eq!(r.ints("inc"), Some(vec![1, 3, 6, 10]));
    assert_eq!(r.ints("exr"), Some(vec![9, 7, 4, 0]));

    // A one-element 1-D axis: taken, with a warning.
    let mut b = Ir::new();
    let x = b.param("x", "2,3", "f32");
    let ax = b.vec("ax", &[1]);
    let y = b.op("y", "CumSum", "opset3", &[], &[x, ax]);
    let r = b.run_to(y);
    assert_eq!(r.messages("cumsum-axis-shape").len(), 1);
    assert_eq!(r.shape("y"), "[2, 3]");

    for (axis, t, rule, needle) in [
        (&[2i64][..], "i64", "axis-out-of-range", "axis 2"),
        (&[-3][..], "i64", "axis-out-of-range", "axis -3"),
        (&[0, 1][..], "i64", "axis-not-scalar", "one element"),
        (&[1][..], "f32", "element-type", "must be i32 or i64"),
    ] {
        let mut b = Ir::new();
        let x = b.param("x", "2,3", "f32");
        let ax = b.const_ints("ax", t, &[axis.len()], axis);
        let y = b.op("y", "CumSum", "opset3", &[], &[x, ax]);
        b.run_to(y).error("y", rule, needle);
    }
}

#[test]
fn roll_shapes_and_errors() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3,H", "i64");
    let sh = b.vec("sh", &[1, -7]);
    let ax = b.vec("ax", &[0, -1]);
    let y = b.op("y", "Roll", "opset7", &[], &[x, sh, ax]);
    // A scalar shift applies to every axis.
    let s1 = b.scalar("s1", 2);
    let a3 = b.vec("a3", &[0, 1, 2]);
    let z = b.op("z", "Roll", "opset7", &[], &[x, s1, a3]);
    // Shift and axes from Parameters of symbolic length.
    let ps = b.param("ps", "K", "i32");
    let pa = b.param("pa", "K", "i32");
    let w = b.op("w", "Roll", "opset7", &[], &[x, ps, pa]);
    b.result(y);
    b.result(z);
    let r = b.run_to(w);
    r.clean();
    for l in ["y", "z", "w"] {
        assert_eq!(r.shape(l), "[N, 3, H]", "{l}");
        assert_eq!(r.element_type(l), "i64", "{l}");
    }

    type Inputs = (
        &'static [usize],
        &'static [i64],
        &'static [usize],
        &'static [i64],
    );
    let bad: &[(Inputs, &str, &str)] = &[
        ((&[2], &[1, 1], &[1], &[0]), "roll-shift-axes", "differ"),
        ((&[1], &[1], &[], &[0]), "roll-shift-axes", "same length"),
        ((&[1], &[1], &[1], &[3]), "axis-out-of-range", "axis 3"),
        ((&[1], &[1], &[1], &[-4]), "axis-out-of-range", "axis -4"),
        ((&[1, 1], &[1], &[1], &[0]), "input-rank", "a scalar or 1-D"),
    ];
    for &((ss, sv, as_, av), rule, needle) in bad {
        let mut b = Ir::new();
        let x = b.param("x", "2,3,4", "f32");
        let sh = b.const_i64("sh", ss, sv);
        let ax = b.const_i64("ax", as_, av);
        let y = b.op("y", "Roll", "opset7", &[], &[x, sh, ax]);
        b.run_to(y).error("y", rule, needle);
    }
    let mut b = Ir::new();
    let x = b.param("x", "2,3", "f32");
    let sh = b.const_f32("sh", &[1], &[1.0]);
    let ax = b.vec("ax", &[0]);
    let y = b.op("y", "Roll", "opset7", &[], &[x, sh, ax]);
    b.run_to(y).error("y", "element-type", "must be i32 or i64");
    // Scalar data: axes are not checked (OpenVINO copies it).
    let mut b = Ir::new();
    let x = b.param("x", "", "f32");
    let sh = b.vec("sh", &[1]);
    let ax = b.vec("ax", &[5]);
    let y = b.op("y", "Roll", "opset7", &[], &[x, sh, ax]);
    let r = b.run_to(y);
    r.clean();
    assert_eq!(r.shape("y"), "[]");
}
