//! The inference engine on small hand-written IR: validation, unknown ops,
//! declared-shape checks and `--shape` overrides.

use ir::{Graph, Severity};
use shape_infer::overrides::{apply_override, OverrideError};
use shape_infer::{infer, Inference, Options, Registry};

/// An IR with one Parameter of shape `param_shape` (declared port dims
/// `port_dims`) feeding `middle` layers, then a Result.
fn model(param_shape: &str, port_dims: &[i64], middle: &str, edges: &str) -> String {
    let dims: String = port_dims
        .iter()
        .map(|d| format!("<dim>{d}</dim>"))
        .collect();
    format!(
        r#"<?xml version="1.0"?>
<net name="t" version="11">
	<layers>
		<layer id="0" name="x" type="Parameter" version="opset1">
			<data shape="{param_shape}" element_type="f32" />
			<output><port id="0" precision="FP32" names="x_tensor">{dims}</port></output>
		</layer>
{middle}
	</layers>
	<edges>
{edges}
	</edges>
</net>
"#
    )
}

fn result_layer(id: u32, dims: &[i64]) -> String {
    let dims: String = dims.iter().map(|d| format!("<dim>{d}</dim>")).collect();
    format!(
        r#"		<layer id="{id}" name="out" type="Result" version="opset1">
			<input><port id="0" precision="FP32">{dims}</port></input>
		</layer>"#
    )
}

fn read(xml: &str) -> Graph {
    let outcome = ir_xml::read_model_from_str(xml, None).expect("well-formed");
    assert!(
        outcome.diagnostics.is_empty(),
        "reader: {:?}",
        outcome.diagnostics
    );
    outcome.graph
}

fn run(graph: &Graph, options: &Options) -> Inference {
    infer(graph, &Registry::standard(), options)
}

fn rules(inference: &Inference) -> Vec<(&'static str, Severity)> {
    inference
        .diagnostics
        .iter()
        .map(|d| (d.rule, d.severity))
        .collect()
}

fn output_shape(graph: &Graph, inference: &Inference, layer: &str) -> String {
    let (id, _) = graph
        .nodes()
        .find(|(_, n)| n.name == layer)
        .expect("layer exists");
    inference.outcome(id).outputs()[0]
        .shape
        .display(&inference.symbols)
        .to_string()
}

const PASS_THROUGH: &str = r#"		<edge from-layer="0" from-port="0" to-layer="1" to-port="0" />"#;

#[test]
fn parameter_to_result_keeps_symbols() {
    let xml = model(
        "1..8,3,?",
        &[-1, 3, -1],
        &result_layer(1, &[-1, 3, -1]),
        PASS_THROUGH,
    );
    let graph = read(&xml);
    let inference = run(&graph, &Options::default());
    assert!(rules(&inference).is_empty(), "{:?}", inference.diagnostics);
    assert_eq!(output_shape(&graph, &inference, "out"), "[?0, 3, ?1]");
    let first = inference.outcome(graph.nodes().next().unwrap().0).outputs()[0]
        .shape
        .dims()
        .unwrap()[0]
        .clone();
    let range = inference.symbols.bounds(&first).unwrap();
    assert_eq!((range.lo, range.hi), (Some(1), Some(8)));
}

#[test]
fn declared_input_port_disagreeing_with_its_producer_is_an_error() {
    let xml = model("1,3", &[1, 3], &result_layer(1, &[1, 4]), PASS_THROUGH);
    let graph = read(&xml);
    let inference = run(&graph, &Options::default());
    assert_eq!(
        rules(&inference),
        [("declared-shape-mismatch", Severity::Error)]
    );
    let d = &inference.diagnostics[0];
    assert!(
        d.message.contains("dim 1 as 4 but it is inferred as 3"),
        "{}",
        d.message
    );
    assert_eq!(d.notes, ["declared: [1, 4]", "inferred: f32 [1, 3]"]);
}

const UNKNOWN_MIDDLE: &str = r#"		<layer id="1" name="mystery" type="FancyOp" version="opset99">
			<input><port id="0" precision="FP32"><dim>2</dim></port></input>
			<output><port id="1" precision="FP32"><dim>-1</dim><dim>7</dim></port></output>
		</layer>
		<layer id="2" name="out" type="Result" version="opset1">
			<input><port id="0" precision="FP32"><dim>-1</dim><dim>7</dim></port></input>
		</layer>"#;

const UNKNOWN_EDGES: &str = r#"		<edge from-layer="0" from-port="0" to-layer="1" to-port="0" />
		<edge from-layer="1" from-port="1" to-layer="2" to-port="0" />"#;

#[test]
fn unknown_ops_are_errors_unless_allowed_and_carry_declared_shapes() {
    let graph = read(&model("2", &[2], UNKNOWN_MIDDLE, UNKNOWN_EDGES));
    let strict = run(&graph, &Options::default());
    assert_eq!(rules(&strict), [("op-unknown", Severity::Error)]);
    let lenient = run(
        &graph,
        &Options {
            allow_unknown_ops: true,
            ..Options::default()
        },
    );
    assert_eq!(rules(&lenient), [("op-unknown", Severity::Warning)]);
    assert_eq!(output_shape(&graph, &lenient, "out"), "[?0, 7]");
}

#[test]
fn known_type_in_an_unknown_opset_is_reported_as_such() {
    let middle = result_layer(1, &[2]).replace("opset1", "opset0");
    let graph = read(&model("2", &[2], &middle, PASS_THROUGH));
    let inference = run(&graph, &Options::default());
    assert_eq!(inference.diagnostics.len(), 1);
    assert!(
        inference.diagnostics[0]
            .message
            .contains("OpenVINO's `opset0` has no op `Result`"),
        "{}",
        inference.diagnostics[0].message
    );
}

#[test]
fn unfed_input_and_missing_result_are_reported() {
    let middle = r#"		<layer id="1" name="sink" type="Result" version="opset1">
			<input><port id="0" precision="FP32"><dim>2</dim></port></input>
		</layer>"#;
    let graph = read(&model("2", &[2], middle, ""));
    assert_eq!(
        rules(&run(&graph, &Options::default())),
        [("input-unfed", Severity::Error)]
    );
    let graph = read(&model("2", &[2], "", ""));
    assert_eq!(
        rules(&run(&graph, &Options::default())),
        [("graph-no-result", Severity::Error)]
    );
}

#[test]
fn override_names_symbols_and_keeps_declared_intervals() {
    let mut graph = read(&model(
        "1..8,3,?",
        &[-1, 3, -1],
        &result_layer(1, &[-1, 3, -1]),
        PASS_THROUGH,
    ));
    apply_override(&mut graph, "x=N,3,W").unwrap();
    let inference = run(&graph, &Options::default());
    assert_eq!(output_shape(&graph, &inference, "out"), "[N, 3, W]");
    let n = inference.symbols.lookup("N").unwrap();
    let range = inference.symbols.info(n).range;
    assert_eq!((range.lo, range.hi), (Some(1), Some(8)));

    // By output tensor name, to a static shape.
    let mut graph = read(&model(
        "1..8,3",
        &[-1, 3],
        &result_layer(1, &[-1, 3]),
        PASS_THROUGH,
    ));
    apply_override(&mut graph, "x_tensor=4,3").unwrap();
    let inference = run(&graph, &Options::default());
    assert_eq!(output_shape(&graph, &inference, "out"), "[4, 3]");
}

#[test]
fn an_override_outside_the_declared_interval_replaces_it_with_a_warning() {
    // OpenVINO's reshape replaces the declaration; so does --shape.
    let base = model(
        "10..30,3",
        &[-1, 3],
        &result_layer(1, &[-1, 3]),
        PASS_THROUGH,
    );
    let mut graph = read(&base);
    let warnings = apply_override(&mut graph, "x=7,3").unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].rule, "shape-override-outside-declared");
    assert!(
        warnings[0].message.contains("dim 0 (7)") && warnings[0].message.contains("[10, 30]"),
        "{}",
        warnings[0].message
    );
    let inference = run(&graph, &Options::default());
    assert_eq!(output_shape(&graph, &inference, "out"), "[7, 3]");
    // Inside the interval: no warning.
    let mut graph = read(&base);
    assert!(apply_override(&mut graph, "x=12,3").unwrap().is_empty());
}

#[test]
fn override_errors() {
    let base = model("1..8,3", &[-1, 3], &result_layer(1, &[-1, 3]), PASS_THROUGH);
    let mut graph = read(&base);
    assert!(matches!(
        apply_override(&mut graph, "y=1,3"),
        Err(OverrideError::NoSuchInput { .. })
    ));
    assert!(matches!(
        apply_override(&mut graph, "x"),
        Err(OverrideError::Syntax(_))
    ));
    assert!(matches!(
        apply_override(&mut graph, "x=1,,3"),
        Err(OverrideError::Dims { .. })
    ));
}
