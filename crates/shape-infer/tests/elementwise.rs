//! Elementwise binary and unary families, Convert/ConvertLike, Broadcast.

mod support;
use support::Ir;

fn binary(ty: &str, a: &str, b: &str, et: &str, attrs: &[(&str, &str)]) -> support::Run {
    let mut n = Ir::new();
    let x = n.param("a", a, et);
    let y = n.param("b", b, et);
    let s = n.op("op", ty, "opset1", attrs, &[x, y]);
    n.run_to(s)
}

#[test]
fn arithmetic_broadcasts_and_keeps_the_type() {
    let r = binary("Add", "?,1,4", "3,1", "f32", &[]);
    r.clean();
    assert_eq!(r.shape("op"), "[?0, 3, 4]");
    assert_eq!(r.element_type("op"), "f32");
}

#[test]
fn comparisons_give_boolean_and_logical_ops_need_boolean() {
    let r = binary("LessEqual", "2,3", "3", "i32", &[]);
    r.clean();
    assert_eq!(r.element_type("op"), "boolean");
    let r = binary("LogicalAnd", "2", "2", "f32", &[]);
    assert_eq!(r.errors()[0].0, "element-type");
    let r = binary("LogicalXor", "2", "1", "boolean", &[]);
    r.clean();
    assert_eq!(r.shape("op"), "[2]");
}

#[test]
fn arithmetic_rejects_boolean_and_mixed_types() {
    assert_eq!(
        binary("Add", "2", "2", "boolean", &[]).errors()[0].0,
        "element-type"
    );
    let mut n = Ir::new();
    let x = n.param("a", "2", "f32");
    let y = n.param("b", "2", "f16");
    let s = n.op("op", "Multiply", "opset1", &[], &[x, y]);
    assert_eq!(n.run_to(s).errors()[0].0, "element-type");
}

#[test]
fn incompatible_shapes_are_an_error() {
    let r = binary("Subtract", "2,3", "4", "f32", &[]);
    let e = r.errors();
    assert_eq!(e[0].0, "broadcast-incompatible");
    assert!(
        e[0].1.contains("dim 3 (axis 1) of input 0 [2, 3]"),
        "{}",
        e[0].1
    );
}

#[test]
fn none_and_pdpd_modes() {
    let r = binary("Add", "2,3", "1,3", "f32", &[("auto_broadcast", "none")]);
    assert_eq!(r.errors()[0].0, "broadcast-incompatible");
    let r = binary(
        "Add",
        "2,3,4,5",
        "2,3",
        "f32",
        &[("auto_broadcast", "pdpd")],
    );
    r.clean();
    assert_eq!(r.shape("op"), "[2, 3, 4, 5]");
    let r = binary(
        "Add",
        "2,3,4,5",
        "2,3",
        "f32",
        &[
            ("auto_broadcast", "pdpd"),
            ("auto_broadcast.auto_broadcast_axis", "-1"),
        ],
    );
    assert_eq!(r.errors()[0].0, "broadcast-incompatible");
    let r = binary("Add", "2", "2", "f32", &[("auto_broadcast", "sideways")]);
    assert_eq!(r.errors()[0].0, "attribute-invalid");
}

#[test]
fn values_propagate_through_arithmetic() {
    let mut n = Ir::new();
    let a = n.const_i64("a", &[3], &[7, -7, 10]);
    let b = n.const_i64("b", &[1], &[2]);
    let d = n.op(
        "div",
        "Divide",
        "opset1",
        &[("m_pythondiv", "true")],
        &[a, b],
    );
    let m = n.op("mul", "Multiply", "opset1", &[], &[d, b]);
    let f = n.op("fm", "FloorMod", "opset1", &[], &[a, b]);
    let mx = n.op("mx", "Maximum", "opset1", &[], &[f, m]);
    let eq = n.op("eq", "Equal", "opset1", &[], &[mx, a]);
    let r = n.run_to(eq);
    r.clean();
    assert_eq!(r.value("div").as_deref(), Some("[3, -4, 5]"));
    assert_eq!(r.value("mul").as_deref(), Some("[6, -8, 10]"));
    assert_eq!(r.value("fm").as_deref(), Some("[1, 1, 0]"));
    assert_eq!(r.value("mx").as_deref(), Some("[6, 1, 10]"));
    assert_eq!(r.value("eq").as_deref(), Some("[0, 0, 1]"));
    let mut n = Ir::new();
    let a = n.const_i64("a", &[1], &[-7]);
    let b = n.const_i64("b", &[1], &[2]);
    let d = n.op(
        "div",
        "Divide",
        "opset1",
        &[("m_pythondiv", "false")],
        &[a, b],
    );
    assert_eq!(n.run_to(d).value("div").as_deref(), Some("[-3]"));
}

/// A unary op: type, version and attributes.
type Unary = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

#[test]
fn unary_ops_keep_shape_and_type() {
    let cases: [Unary; 9] = [
        ("ReLU", "opset1", &[]),
        ("Sigmoid", "opset1", &[]),
        ("Gelu", "opset7", &[("approximation_mode", "TANH")]),
        ("Gelu", "opset2", &[]),
        ("HSwish", "opset4", &[]),
        ("SoftPlus", "opset4", &[]),
        ("Clamp", "opset1", &[("min", "0"), ("max", "6")]),
        ("Round", "opset5", &[("mode", "half_to_even")]),
        ("Elu", "opset1", &[("alpha", "1")]),
    ];
    for (ty, version, attrs) in cases {
        let mut n = Ir::new();
        let x = n.param("x", "?,3", "f32");
        let u = n.op("u", ty, version, attrs, &[x]);
        let r = n.run_to(u);
        r.clean();
        assert_eq!(r.shape("u"), "[?0, 3]", "{ty}");
        assert_eq!(r.element_type("u"), "f32", "{ty}");
    }
}

#[test]
fn unary_errors_follow_openvino() {
    let mut n = Ir::new();
    let x = n.param("x", "3", "f32");
    let u = n.op("u", "Clamp", "opset1", &[("min", "6"), ("max", "0")], &[x]);
    assert_eq!(n.run_to(u).errors()[0].0, "clamp-min-max");
    let mut n = Ir::new();
    let x = n.param("x", "3", "i32");
    let u = n.op("u", "Mish", "opset4", &[], &[x]);
    assert_eq!(n.run_to(u).errors()[0].0, "element-type");
    let mut n = Ir::new();
    let x = n.param("x", "3", "boolean");
    let u = n.op("u", "Abs", "opset1", &[], &[x]);
    assert_eq!(n.run_to(u).errors()[0].0, "element-type");
    let mut n = Ir::new();
    let x = n.param("x", "3", "f32");
    let u = n.op(
        "u",
        "Gelu",
        "opset7",
        &[("approximation_mode", "fast")],
        &[x],
    );
    assert_eq!(n.run_to(u).errors()[0].0, "attribute-invalid");
}

#[test]
fn prelu_and_hard_sigmoid_take_extra_inputs() {
    let mut n = Ir::new();
    let x = n.param("x", "2,3,4", "f32");
    let s = n.const_f32("s", &[3], &[0.1, 0.2, 0.3]);
    let p = n.op("p", "PReLU", "opset1", &[], &[x, s]);
    let a = n.const_f32("alpha", &[], &[0.2]);
    let h = n.op("h", "HardSigmoid", "opset1", &[], &[p, a, a]);
    let r = n.run_to(h);
    r.clean();
    assert_eq!(r.shape("h"), "[2, 3, 4]");
}

#[test]
fn unary_values_negative_abs_relu() {
    let mut n = Ir::new();
    let a = n.const_i64("a", &[3], &[-2, 0, 5]);
    let g = n.op("neg", "Negative", "opset1", &[], &[a]);
    let b = n.op("abs", "Abs", "opset1", &[], &[g]);
    let c = n.op("relu", "ReLU", "opset1", &[], &[g]);
    let d = n.op("sum", "Add", "opset1", &[], &[b, c]);
    let r = n.run_to(d);
    r.clean();
    assert_eq!(r.value("neg").as_deref(), Some("[2, 0, -5]"));
    assert_eq!(r.value("abs").as_deref(), Some("[2, 0, 5]"));
    assert_eq!(r.value("relu").as_deref(), Some("[2, 0, 0]"));
    assert_eq!(r.value("sum").as_deref(), Some("[4, 0, 5]"));
}

#[test]
fn convert_changes_type_and_keeps_fitting_values() {
    let mut n = Ir::new();
    let a = n.const_i64("a", &[2], &[3, 300]);
    let c = n.op(
        "c32",
        "Convert",
        "opset1",
        &[("destination_type", "i32")],
        &[a],
    );
    let u = n.op(
        "c8",
        "Convert",
        "opset1",
        &[("destination_type", "u8")],
        &[c],
    );
    let f = n.op(
        "cf",
        "Convert",
        "opset1",
        &[("destination_type", "f32")],
        &[c],
    );
    let l = n.op("like", "ConvertLike", "opset1", &[], &[f, u]);
    let r = n.run_to(l);
    r.clean();
    assert_eq!(r.element_type("c32"), "i32");
    assert_eq!(r.value("c32").as_deref(), Some("[3, 300]"));
    assert_eq!(r.value("c8"), None);
    // Small integers are exact in f32: the values go on, and back to
    // integers where they fit (300 does not fit u8).
    assert_eq!(r.value("cf").as_deref(), Some("[3, 300]"));
    assert_eq!(r.value("like"), None);
    assert_eq!(r.element_type("like"), "u8");
    assert_eq!(r.shape("like"), "[2]");
    let mut n = Ir::new();
    let x = n.param("x", "2", "f32");
    let c = n.op(
        "c",
        "Convert",
        "opset1",
        &[("destination_type", "int77")],
        &[x],
    );
    assert_eq!(n.run_to(c).errors()[0].0, "attribute-invalid");
}

fn broadcast(
    data: &str,
    target: &[i64],
    mode: &str,
    version: &str,
    axes: Option<&[i64]>,
) -> support::Run {
    let mut n = Ir::new();
    let x = n.param("x", data, "f32");
    let t = n.const_i64("t", &[target.len()], target);
    let mut inputs = vec![x, t];
    if let Some(axes) = axes {
        inputs.push(n.const_i64("axes", &[axes.len()], axes));
    }
    let b = n.op("b", "Broadcast", version, &[("mode", mode)], &inputs);
    n.run_to(b)
}

#[test]
fn broadcast_modes() {
    let r = broadcast("3,1", &[2, 3, 4], "numpy", "opset1", None);
    r.clean();
    assert_eq!(r.shape("b"), "[2, 3, 4]");
    let r = broadcast("3,4", &[2, 1, 1], "bidirectional", "opset3", None);
    r.clean();
    assert_eq!(r.shape("b"), "[2, 3, 4]");
    let r = broadcast("3,4", &[2, 1, 1], "bidirectional", "opset1", None);
    assert_eq!(r.errors()[0].0, "attribute-invalid");
    let r = broadcast("3", &[2, 3, 4], "explicit", "opset3", Some(&[1]));
    r.clean();
    assert_eq!(r.shape("b"), "[2, 3, 4]");
    let r = broadcast("3", &[2, 3, 4], "explicit", "opset3", Some(&[2]));
    assert_eq!(r.errors()[0].0, "broadcast-incompatible");
    let r = broadcast("3,1", &[2, 4, 4], "numpy", "opset3", None);
    assert_eq!(r.errors()[0].0, "broadcast-incompatible");
    let r = broadcast("3", &[-2, 3], "numpy", "opset3", None);
    assert_eq!(r.errors()[0].0, "broadcast-target");
}

#[test]
fn broadcast_target_from_a_shape_computation_stays_symbolic() {
    // target = shape values computed by Add/Multiply of constants is static;
    // a Parameter target of known length gives fresh dims, static data dims kept.
    let mut n = Ir::new();
    let x = n.param("x", "3,1", "f32");
    let t = n.param("t", "3", "i64");
    let b = n.op("b", "Broadcast", "opset3", &[("mode", "numpy")], &[x, t]);
    let r = n.run_to(b);
    r.clean();
    assert_eq!(r.shape("b"), "[?0, 3, ?1]");
}
