//! NonZero-3: `[rank, nz]` with `nz` a bounded data-dependent symbol; the
//! static cases agree with OpenVINO 2026.4.1 (`[2,3]` input gives `[2,..6]`,
//! `[0,3]` gives `[2,0]`, scalar and dynamic rank give `[?,?]`).

mod dd_ir;

use dd_ir::{bound_of, messages, node, rules, run, shape, Net, Out};
use ir::{ElementType, Severity};
use shape_infer::overrides::apply_override;

fn non_zero(net: &mut Net, attrs: &str, input: Out) -> Out {
    net.op(
        "nz",
        "NonZero",
        "opset3",
        attrs,
        &[input],
        Some(vec![-1, -1]),
    )
}

fn with_param(
    shape_text: &str,
    attrs: &str,
    overrides: &[&str],
) -> (ir::Graph, shape_infer::Inference) {
    let mut net = Net::new();
    let x = net.param("x", "f32", shape_text);
    let out = non_zero(&mut net, attrs, x);
    net.result("output", out);
    let mut graph = net.graph();
    for o in overrides {
        apply_override(&mut graph, o).unwrap();
    }
    let inference = run(&graph);
    (graph, inference)
}

#[test]
fn static_input_gives_a_count_bounded_by_the_element_count() {
    let (graph, inference) = with_param("2,3", "", &[]);
    assert!(rules(&inference).is_empty(), "{:?}", inference.diagnostics);
    let out = shape(&graph, &inference, "nz");
    assert!(out.starts_with("[2, ?"), "{out}");
    assert_eq!(
        bound_of(&graph, &inference, "nz", 1),
        ("6".into(), Some(0), Some(6))
    );
    let t = &inference.outcome(node(&graph, "nz")).outputs()[0];
    assert_eq!(t.element_type, ElementType::I64);
    let reason = &inference
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
    let (graph, inference) = with_param("?,?,4", r#"output_type="i32""#, &["x=N,S,4"]);
    assert!(rules(&inference).is_empty(), "{:?}", inference.diagnostics);
    assert_eq!(bound_of(&graph, &inference, "nz", 1).0, "4*N*S");
    assert!(shape(&graph, &inference, "nz").starts_with("[3, "));
    let t = &inference.outcome(node(&graph, "nz")).outputs()[0];
    assert_eq!(t.element_type, ElementType::I32);
}

#[test]
fn empty_input_has_no_nonzero() {
    let (graph, inference) = with_param("0,3", "", &[]);
    assert_eq!(shape(&graph, &inference, "nz"), "[2, 0]");
}

#[test]
fn scalar_input_gives_one_by_one_or_zero_by_zero() {
    let (graph, inference) = with_param("", "", &[]);
    assert!(rules(&inference).is_empty(), "{:?}", inference.diagnostics);
    let out = shape(&graph, &inference, "nz");
    let (upper, lo, hi) = bound_of(&graph, &inference, "nz", 0);
    assert_eq!((upper.as_str(), lo, hi), ("1", Some(0), Some(1)));
    let c = out
        .trim_start_matches('[')
        .split(',')
        .next()
        .unwrap()
        .to_owned();
    assert_eq!(out, format!("[{c}, {c}]"));

    for (value, expected) in [(5, "[1, 1]"), (0, "[0, 0]")] {
        let mut net = Net::new();
        let x = net.i64s("x", &[], &[value]);
        let out = non_zero(&mut net, "", x);
        net.result("output", out);
        let graph = net.graph();
        let inference = run(&graph);
        assert_eq!(shape(&graph, &inference, "nz"), expected);
    }
}

#[test]
fn unknown_rank_gives_two_fresh_symbols() {
    let (graph, inference) = with_param("...", "", &[]);
    assert!(rules(&inference).is_empty(), "{:?}", inference.diagnostics);
    let t = &inference.outcome(node(&graph, "nz")).outputs()[0];
    let dims = t.shape.dims().unwrap();
    assert_eq!(dims.len(), 2);
    assert_ne!(dims[0], dims[1]);
    assert_eq!(
        bound_of(&graph, &inference, "nz", 1),
        ("none".into(), Some(0), None)
    );
}

#[test]
fn constant_input_is_counted_and_its_indices_propagate() {
    let mut net = Net::new();
    let x = net.i64s("x", &[2, 3], &[0, 1, 2, 0, 0, 3]);
    let out = non_zero(&mut net, "", x);
    net.result("output", out);
    let graph = net.graph();
    let inference = run(&graph);
    assert!(rules(&inference).is_empty(), "{:?}", inference.diagnostics);
    // OpenVINO: [2,3].
    assert_eq!(shape(&graph, &inference, "nz"), "[2, 3]");
    let value: Vec<i64> = inference.outcome(node(&graph, "nz")).outputs()[0]
        .value
        .as_ref()
        .unwrap()
        .iter()
        .map(|e| e.as_constant().unwrap())
        .collect();
    assert_eq!(value, [0, 0, 1, 1, 2, 2]);
}

#[test]
fn output_type_must_be_i32_or_i64() {
    let (_, inference) = with_param("2,3", r#"output_type="f32""#, &[]);
    assert_eq!(
        rules(&inference),
        [("non-zero-output-type", Severity::Error)]
    );
    assert_eq!(
        messages(&inference, "non-zero-output-type"),
        ["`output_type` must be i32 or i64, got \"f32\""]
    );
}

#[test]
fn non_zero_starts_in_opset3() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "2");
    let out = net.op("nz", "NonZero", "opset1", "", &[x], Some(vec![1, -1]));
    net.result("output", out);
    let inference = run(&net.graph());
    assert_eq!(rules(&inference), [("op-unknown", Severity::Error)]);
    let mut net = Net::new();
    let x = net.param("x", "f32", "2");
    let out = net.op("nz", "NonZero", "opset13", "", &[x], Some(vec![1, -1]));
    net.result("output", out);
    assert!(rules(&run(&net.graph())).is_empty());
}
