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
