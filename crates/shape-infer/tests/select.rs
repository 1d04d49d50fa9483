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

#[test]
fn cond_is_one_way_cond_rank_may_not_exceed_the_result() {
    // OpenVINO's implementation would merge both ways; the specification
    // says one-way.
    let r = select("2,4,5", "4,5", "4,5", &[]);
    assert_eq!(r.errors()[0].0, "broadcast-incompatible");
    assert!(r.errors()[0].1.contains("higher rank"), "{:?}", r.errors());
}

#[test]
fn symbolic_cond_dim_against_static_records_an_assumption() {
    let r = select("?", "3,5", "5", &[]);
    r.clean();
    assert_eq!(r.shape("sel"), "[3, 5]");
    assert_eq!(r.constraints(), ["?0 == 5 or ?0 == 1"]);
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
