//! NonZero-3: `[rank, nz]` with `nz` a bounded data-dependent symbol; the
//! static cases agree with OpenVINO 2026.4.1 (`[2,3]` input gives `[2,..6]`,
//! `[0,3]` gives `[2,0]`, scalar and dynamic rank give `[?,?]`).

mod support;

use ir::{ElementType, Severity};
use support::{Ir, Out, Run};

fn non_zero(net: &mut Ir, attrs: &[(&str, &str)], input: Out) -> Out {
    let out = net.op("nz", "NonZero", "opset3", attrs, &[input]);
    net.declare(out, &[-1, -1]);
    out
}

fn with_param(shape_text: &str, attrs: &[(&str, &str)], overrides: &[&str]) -> Run {
    let mut net = Ir::new();
    let x = net.param("x", shape_text, "f32");
    let out = non_zero(&mut net, attrs, x);
    net.named_result("output", out);
    net.run_checked_with(overrides)
}

#[test]
fn static_input_gives_a_count_bounded_by_the_element_count() {
    let r = with_param("2,3", &[], &[]);
    r.clean();
    let out = r.shape("nz");
    assert!(out.starts_with("[2, ?"), "{out}");
    assert_eq!(r.bound_of("nz", 1), ("6".into(), Some(0), Some(6)));
    let t = &r.tensor("nz");
    assert_eq!(t.element_type, ElementType::I64);
    let reason = &r
        .inference
        .symbols
        .info(t.shape.dims().unwrap()[1].as_symbol().unwrap())
        .provenance
        .as_ref()
        .unwrap()
        .reason;
    assert!(reason.contains("nonzero"), "{reason}");
}

#[test]
fn symbolic_input_keeps_the_element_count_expression() {
    let r = with_param("?,?,4", &[("output_type", "i32")], &["x=N,S,4"]);
    r.clean();
    assert_eq!(r.bound_of("nz", 1).0, "4*N*S");
    assert!(r.shape("nz").starts_with("[3, "));
    let t = &r.tensor("nz");
    assert_eq!(t.element_type, ElementType::I32);
}

#[test]
fn empty_input_has_no_nonzero() {
    let r = with_param("0,3", &[], &[]);
    assert_eq!(r.shape("nz"), "[2, 0]");
}

#[test]
fn scalar_input_gives_one_by_one_or_zero_by_zero() {
    let r = with_param("", &[], &[]);
    r.clean();
    let out = r.shape("nz");
    let (upper, lo, hi) = r.bound_of("nz", 0);
    assert_eq!((upper.as_str(), lo, hi), ("1", Some(0), Some(1)));
    let c = out
        .trim_start_matches('[')
        .split(',')
        .next()
        .unwrap()
        .to_owned();
    assert_eq!(out, format!("[{c}, {c}]"));

    for (value, expected) in [(5, "[1, 1]"), (0, "[0, 0]")] {
        let mut net = Ir::new();
        let x = net.const_i64("x", &[], &[value]);
        let out = non_zero(&mut net, &[], x);
        net.named_result("output", out);
        let r = net.run_checked();
        assert_eq!(r.shape("nz"), expected);
    }
}

#[test]
fn unknown_rank_gives_two_fresh_symbols() {
    let r = with_param("...", &[], &[]);
    r.clean();
    let t = &r.tensor("nz");
    let dims = t.shape.dims().unwrap();
    assert_eq!(dims.len(), 2);
    assert_ne!(dims[0], dims[1]);
    assert_eq!(r.bound_of("nz", 1), ("none".into(), Some(0), None));
}

#[test]
fn constant_input_is_counted_and_its_indices_propagate() {
    let mut net = Ir::new();
    let x = net.const_i64("x", &[2, 3], &[0, 1, 2, 0, 0, 3]);
    let out = non_zero(&mut net, &[], x);
    net.named_result("output", out);
    let r = net.run_checked();
    r.clean();
    // OpenVINO: [2,3].
    assert_eq!(r.shape("nz"), "[2, 3]");
    assert_eq!(r.ints("nz").expect("a value"), [0, 0, 1, 1, 2, 2]);
}

#[test]
fn output_type_must_be_i32_or_i64() {
    let r = with_param("2,3", &[("output_type", "f32")], &[]);
    assert_eq!(r.rules(), [("non-zero-output-type", Severity::Error)]);
    assert_eq!(
        r.messages("non-zero-output-type"),
        ["`output_type` must be i32 or i64, got \"f32\""]
    );
}

#[test]
fn non_zero_starts_in_opset3() {
    let mut net = Ir::new();
    let x = net.param("x", "2", "f32");
    let out = net.op("nz", "NonZero", "opset1", &[], &[x]);
    net.declare(out, &[1, -1]);
    net.named_result("output", out);
    let r = net.run_checked();
    assert_eq!(r.rules(), [("op-unknown", Severity::Error)]);
    let mut net = Ir::new();
    let x = net.param("x", "2", "f32");
    let out = net.op("nz", "NonZero", "opset13", &[], &[x]);
    net.declare(out, &[1, -1]);
    net.named_result("output", out);
    assert!(net.run_checked().rules().is_empty());
}
