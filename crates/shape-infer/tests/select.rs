//! Select-1: the examples of the op specification, each broadcast mode,
//! element types and values.

mod support;
use support::Ir;

fn select(cond: &str, then: &str, els: &str, attrs: &[(&str, &str)]) -> support::Run {
    let mut n = Ir::new();
    let c = n.param("c", cond, "boolean");
    let t = n.param("t", then, "f32");
    let e = n.param("e", els, "f32");
    let s = n.op("sel", "Select", "opset1", attrs, &[c, t, e]);
    n.run_to(s)
}

#[test]
fn spec_example_cond_4_5_then_2_3_4_5() {
    let r = select("4,5", "2,3,4,5", "2,3,4,5", &[]);
    r.clean();
    assert_eq!(r.shape("sel"), "[2, 3, 4, 5]");
}

#[test]
fn spec_example_cond_3_1_5_then_2_3_4_5() {
    let r = select(
        "3,1,5",
        "2,3,4,5",
        "2,3,4,5",
        &[("auto_broadcast", "numpy")],
    );
    r.clean();
    assert_eq!(r.shape("sel"), "[2, 3, 4, 5]");
}

#[test]
fn spec_example_cond_3_5_then_2_3_4_5_is_invalid() {
    let r = select("3,5", "2,3,4,5", "2,3,4,5", &[]);
    let errors = r.errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].0, "broadcast-incompatible");
    let m = &errors[0].1;
    assert!(
        m.contains("dim 3 (axis 0) of cond [3, 5]")
            && m.contains("dim 4 (axis 2) of broadcast then/else [2, 3, 4, 5]"),
        "{m}"
    );
}

#[test]
fn then_and_else_broadcast_to_each_other_first() {
    let r = select("1", "2,1,5", "4,1", &[]);
    r.clean();
    assert_eq!(r.shape("sel"), "[2, 4, 5]");
    assert_eq!(r.element_type("sel"), "f32");
}

/// `select` with the strict-spec option.
fn select_strict(cond: &str, then: &str, els: &str) -> support::Run {
    let mut n = Ir::new();
    let c = n.param("c", cond, "boolean");
    let t = n.param("t", then, "f32");
    let e = n.param("e", els, "f32");
    let s = n.op("sel", "Select", "opset1", &[], &[c, t, e]);
    n.result(s);
    let options = shape_infer::Options {
        strict_spec: true,
        ..support::unchecked()
    };
    support::Run::new(n.graph(), &options)
}

#[test]
fn cond_widening_the_result_runs_as_openvino_with_a_warning() {
    // The two facts from OpenVINO 2026.4 (ONNX `Where` relies on them):
    // cond [2,1], then [1,3], else [2,1,1,3] gives [2,1,2,3];
    // cond [2,1] with then/else [1,3] gives [2,3].
    for (cond, then, els, want) in [
        ("2,1", "1,3", "2,1,1,3", "[2, 1, 2, 3]"),
        ("2,1", "1,3", "1,3", "[2, 3]"),
        ("2,4,5", "4,5", "4,5", "[2, 4, 5]"),
        ("6,1", "8,1,4", "8,1,4", "[8, 6, 4]"),
    ] {
        let r = select(cond, then, els, &[]);
        assert!(
            r.errors().is_empty(),
            "{cond} {then} {els}: {:?}",
            r.errors()
        );
        assert_eq!(r.shape("sel"), want);
        let warnings = r.messages("select-cond-broadcast");
        assert_eq!(warnings.len(), 1, "{cond} {then} {els}: {:?}", r.rules());
        assert!(warnings[0].contains("step 2"), "{}", warnings[0]);
        assert!(r.constraints().is_empty(), "{:?}", r.constraints());
        // --strict-spec: the same finding is an error.
        let strict = select_strict(cond, then, els);
        let errors = strict.errors();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].0, "select-cond-broadcast");
    }
}

#[test]
fn cond_within_the_spec_has_no_warning_even_when_strict() {
    let r = select_strict("3,1,5", "2,3,4,5", "2,3,4,5");
    r.clean();
    assert_eq!(r.shape("sel"), "[2, 3, 4, 5]");
}

#[test]
fn symbolic_cond_against_a_one_dim_is_kept_symbolic_with_one_constraint() {
    // OpenVINO broadcasts cond [N] against then/else [1] to [N]; no
    // constraint is needed, and nothing is provably beyond the spec.
    let r = select("N", "1", "1", &[]);
    r.clean();
    assert_eq!(r.shape("sel"), "[N]");
    // cond 5 against a symbolic branch dim: the branch may be 1 (runtime) or 5.
    let r = select("5", "M", "M", &[]);
    r.clean();
    assert_eq!(r.shape("sel"), "[5]");
    assert_eq!(r.constraints(), ["M == 1 or M == 5"]);
}

#[test]
fn symbolic_cond_dim_against_static_records_an_assumption() {
    let r = select("?", "3,5", "5", &[]);
    r.clean();
    assert_eq!(r.shape("sel"), "[3, 5]");
    assert_eq!(r.constraints(), ["?0 == 1 or ?0 == 5"]);
}

#[test]
fn none_mode_requires_equal_shapes() {
    let r = select("3,5", "3,5", "3,5", &[("auto_broadcast", "none")]);
    r.clean();
    assert_eq!(r.shape("sel"), "[3, 5]");
    let r = select("3,5", "3,5", "1,5", &[("auto_broadcast", "none")]);
    assert_eq!(r.errors()[0].0, "broadcast-incompatible");
}

#[test]
fn pdpd_merges_else_then_cond_into_then() {
    let r = select(
        "3",
        "2,3,4",
        "3,4",
        &[
            ("auto_broadcast", "pdpd"),
            ("auto_broadcast.auto_broadcast_axis", "1"),
        ],
    );
    r.clean();
    assert_eq!(r.shape("sel"), "[2, 3, 4]");
    // else may not be larger than then in pdpd
    let r = select("1", "2,3", "2,3,4", &[("auto_broadcast", "pdpd")]);
    assert_eq!(r.errors()[0].0, "broadcast-incompatible");
}

#[test]
fn cond_must_be_boolean_and_branches_one_type() {
    let mut n = Ir::new();
    let c = n.param("c", "3", "f32");
    let t = n.param("t", "3", "f32");
    let s = n.op("sel", "Select", "opset1", &[], &[c, t, t]);
    assert_eq!(n.run_to(s).errors()[0].0, "element-type");
    let mut n = Ir::new();
    let c = n.param("c", "3", "boolean");
    let t = n.param("t", "3", "f32");
    let e = n.param("e", "3", "i32");
    let s = n.op("sel", "Select", "opset1", &[], &[c, t, e]);
    assert_eq!(n.run_to(s).errors()[0].0, "element-type");
}

#[test]
fn unknown_rank_gives_unknown_rank() {
    let r = select("3", "...", "3", &[]);
    r.clean();
    assert_eq!(r.shape("sel"), "[...]");
}

#[test]
fn values_are_selected_with_broadcasting() {
    let mut n = Ir::new();
    let c = n.const_bool("c", &[2], &[true, false]);
    let t = n.const_i64("t", &[2], &[10, 20]);
    let e = n.const_i64("e", &[], &[7]);
    let s = n.op("sel", "Select", "opset1", &[], &[c, t, e]);
    let r = n.run_to(s);
    r.clean();
    assert_eq!(r.shape("sel"), "[2]");
    assert_eq!(r.value("sel").as_deref(), Some("[10, 7]"));
}

#[test]
fn a_port_without_dims_is_a_dynamic_rank_not_a_scalar() {
    // OpenVINO writes a dynamic-rank output with no <dim> children, the same
    // as a scalar: such a port says nothing of the rank. A ReLU of a
    // `[2, 3]` cond-sized tensor declared without dims is no mismatch.
    let mut n = Ir::new();
    let x = n.param("x", "2,3", "f32");
    let relu = n.op("relu", "ReLU", "opset1", &[], &[x]);
    n.declare(relu, &[]);
    n.result(relu);
    let r = n.run_checked();
    r.clean();
    assert_eq!(r.shape("relu"), "[2, 3]");
}
