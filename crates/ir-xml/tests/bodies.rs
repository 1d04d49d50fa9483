//! Nested bodies (If, Loop, TensorIterator) as OpenVINO 2026 writes them
//! (`ir-samples/bodies/`, from `scripts/gen_body_models.py`): read with their
//! port maps and back edges, written back byte for byte, and the diagnostics
//! of bad port maps naming the body layer, its parent and the line.

mod common;

use std::path::{Path, PathBuf};

use ir::{BodyRole, Graph, Node, NodeId, Op, SliceSpec, SubGraph};
use ir_xml::{read_model, rules, write_model};

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../ir-samples/bodies")
        .join(name)
        .with_extension("xml")
}

fn read_sample(name: &str) -> Graph {
    let outcome = read_model(&sample(name), None).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        outcome.diagnostics.is_empty(),
        "{name}: {:#?}",
        outcome.diagnostics
    );
    outcome.graph
}

fn node<'g>(graph: &'g Graph, type_name: &str) -> (NodeId, &'g Node) {
    graph
        .nodes()
        .find(|(_, n)| n.op_type.name == type_name)
        .unwrap_or_else(|| panic!("no {type_name}"))
}

fn sub(node: &Node) -> &SubGraph {
    match &node.op {
        Op::SubGraph(sub) => sub,
        other => panic!("{} is {other:?}", node.name),
    }
}

fn body_node_name(graph: &Graph, id: NodeId) -> &str {
    &graph.node(id).name
}

/// Every sample of `ir-samples/bodies/` (OpenVINO's own files, from
/// `scripts/gen_body_models.py` and `scripts/gen_torch_body_models.py`) is
/// written back byte for byte. The written files also go to
/// `$CARGO_TARGET_TMPDIR/roundtrip-bodies` (or `$IR_XML_ROUNDTRIP_DIR`) for
/// `python3 scripts/verify_roundtrip.py --all ir-samples/bodies <that dir>`.
#[test]
fn every_body_sample_round_trips_byte_for_byte() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ir-samples/bodies");
    let out = std::env::var_os("IR_XML_ROUNDTRIP_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("roundtrip-bodies"));
    std::fs::create_dir_all(&out).expect("create the output dir");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("ir-samples/bodies")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_owned))
        .collect();
    names.sort();
    assert!(names.len() >= 16, "{names:?}");
    for name in &names {
        let graph = read_sample(name);
        common::round_trip(&graph);
        let (xml, bin) = write_model(&graph).expect("write");
        let original = std::fs::read_to_string(sample(name)).expect("read the sample");
        assert_eq!(xml, original, "{name}: the written text differs");
        let original_bin = std::fs::read(sample(name).with_extension("bin")).expect("bin");
        assert_eq!(bin, original_bin, "{name}: the written weights differ");
        std::fs::write(out.join(name).with_extension("xml"), xml).expect("write the xml");
        std::fs::write(out.join(name).with_extension("bin"), bin).expect("write the bin");
    }
}

#[test]
fn if_bodies_and_port_maps() {
    let graph = read_sample("if_relu_negative");
    let (_, node) = node(&graph, "If");
    let sub = sub(node);
    assert_eq!(sub.bodies.len(), 2);
    let then = sub.body(BodyRole::Then).expect("then");
    let otherwise = sub.body(BodyRole::Else).expect("else");
    assert_eq!(sub.bodies[0].role, BodyRole::Then);
    for (body, param, op) in [(then, "then_x", "ReLU"), (otherwise, "else_x", "Negative")] {
        assert_eq!(body.graph.node_count(), 3);
        assert_eq!(body.inputs.len(), 1);
        assert_eq!(body.inputs[0].outer, 1);
        assert_eq!(body.inputs[0].slice, None);
        assert_eq!(body_node_name(&body.graph, body.inputs[0].param), param);
        assert_eq!(body.outputs.len(), 1);
        assert_eq!(body.outputs[0].outer, 0);
        assert!(matches!(
            body.graph.node(body.outputs[0].result).op,
            Op::Result
        ));
        assert!(body.graph.nodes().any(|(_, n)| n.op_type.name == op));
        assert!(body.graph.symbols.is_empty(), "symbols live in the model");
        // Body layers keep their own XML lines, after the If's.
        assert!(body
            .graph
            .nodes()
            .all(|(_, n)| n.location.line > node.location.line));
    }
}

#[test]
fn loop_port_map_special_ports_and_back_edges() {
    let graph = read_sample("loop_accumulate");
    let (_, node) = node(&graph, "Loop");
    let body = &sub(node).bodies[0];
    assert_eq!(body.role, BodyRole::Body);
    let name = |id| body_node_name(&body.graph, id);
    assert_eq!(body.current_iteration.map(name), Some("it"));
    assert!(body.condition.is_some());
    assert_eq!(body.inputs.len(), 2);
    assert_eq!(
        (body.inputs[0].outer, name(body.inputs[0].param)),
        (2, "acc")
    );
    assert_eq!(body.inputs[0].slice, None);
    let whole = SliceSpec {
        axis: 0,
        start: 0,
        end: -1,
        stride: 1,
        part_size: 1,
    };
    assert_eq!((body.inputs[1].outer, name(body.inputs[1].param)), (3, "x"));
    assert_eq!(body.inputs[1].slice, Some(whole));
    assert_eq!(body.outputs.len(), 2);
    assert_eq!(body.outputs[0].concat, None);
    assert_eq!(body.outputs[1].concat, Some(whole));
    assert_eq!(body.back_edges.len(), 1);
    assert_eq!(name(body.back_edges[0].to), "acc");
    assert_eq!(
        body.back_edge_into(body.inputs[0].param),
        Some(body.outputs[0].result)
    );
}

#[test]
fn nested_bodies_are_read() {
    let graph = read_sample("ti_nested_if");
    let (_, ti) = node(&graph, "TensorIterator");
    let body = &sub(ti).bodies[0];
    let (_, inner) = node(&body.graph, "If");
    assert_eq!(sub(inner).bodies.len(), 2);
    assert_eq!(body.inputs[0].slice.map(|s| s.axis), Some(1));
}

/// The TensorIterator sample with `edit` applied to its text.
fn edited(edit: impl Fn(&str) -> String) -> ir_xml::ReadOutcome {
    let text = std::fs::read_to_string(sample("ti_accumulate")).expect("read");
    let bin = std::fs::read(sample("ti_accumulate").with_extension("bin")).expect("bin");
    common::read(&edit(&text), Some(bin))
}

#[test]
fn bad_port_map_entries_are_dropped_with_the_parent_named() {
    let outcome = edited(|t| {
        t.replacen(
            "<input external_port_id=\"1\" internal_layer_id=\"1\" />",
            "<input external_port_id=\"9\" internal_layer_id=\"77\" />",
            1,
        )
    });
    assert_eq!(
        common::rules(&outcome.diagnostics),
        [rules::PORT_MAP_INVALID]
    );
    let d = &outcome.diagnostics[0];
    assert!(d.message.contains("`external_port_id` 9"), "{}", d.message);
    assert!(
        d.message.contains("`internal_layer_id` 77"),
        "{}",
        d.message
    );
    let layer = d.layer.as_ref().expect("layer");
    assert_eq!(layer.type_name, "TensorIterator");
    assert!(layer.parents.is_empty());
    let (_, ti) = node(&outcome.graph, "TensorIterator");
    assert_eq!(sub(ti).bodies[0].inputs.len(), 1);
}

#[test]
fn diagnostics_inside_a_body_name_the_body_layer_and_its_parent() {
    let outcome = edited(|t| {
        t.replacen(
        "<layer id=\"4\" name=\"Add",
        "<layer id=\"4\" name=\"Add\" type=\"Add\" version=\"opset1\" bad=\"1\"><input><port id=\"x\" /></input></layer><layer id=\"40\" name=\"Add",
        1,
    )
    });
    let d = outcome
        .diagnostics
        .iter()
        .find(|d| d.rule == rules::PORT_ID_INVALID)
        .unwrap_or_else(|| panic!("{:#?}", outcome.diagnostics));
    let layer = d.layer.as_ref().expect("layer");
    assert_eq!(layer.id, "4");
    assert_eq!(layer.parents.len(), 1);
    assert_eq!(layer.parents[0].type_name, "TensorIterator");
    assert_eq!(layer.parents[0].body, "body");
    let text = layer.to_string();
    assert!(
        text.starts_with("layer 2 `TensorIterator_") && text.contains("> body > layer 4 `Add`"),
        "{text}"
    );
    // The line is the body layer's own.
    let line = d.location.expect("location").line;
    let source = std::fs::read_to_string(sample("ti_accumulate")).expect("read");
    let expected = source
        .lines()
        .position(|l| l.contains("<layer id=\"4\" name=\"Add"))
        .expect("the Add layer") as u32
        + 1;
    assert_eq!(line, expected);
}

#[test]
fn bodies_nested_too_deep_are_refused() {
    // Wrap the TensorIterator's body layers in ever more TensorIterators
    // with empty port maps: the reader stops at its depth limit.
    let mut body = String::from("<layers></layers><edges></edges>");
    for i in 0..12 {
        body = format!(
            "<layers><layer id=\"{i}\" name=\"t{i}\" type=\"TensorIterator\" version=\"opset1\"><port_map /><body>{body}</body></layer></layers><edges></edges>"
        );
    }
    let xml = format!("<net name=\"deep\" version=\"11\">{body}</net>");
    let outcome = common::read(&xml, None);
    assert_eq!(common::rules(&outcome.diagnostics), [rules::BODY_TOO_DEEP]);
    let d = &outcome.diagnostics[0];
    assert_eq!(d.layer.as_ref().map(|l| l.parents.len()), Some(8));
}
