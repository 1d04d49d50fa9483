//! The validator's checks of If/Loop/TensorIterator bodies, on the
//! OpenVINO-written samples of `ir-samples/bodies/` and edits of them.

use std::path::{Path, PathBuf};

use ir::{Diagnostic, Graph, Op, Severity};
use shape_infer::validate::validate;

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../ir-samples/bodies")
        .join(name)
        .with_extension("xml")
}

fn read(name: &str) -> Graph {
    let outcome = ir_xml::read_model(&sample(name), None).unwrap_or_else(|e| panic!("{e}"));
    assert!(outcome.diagnostics.is_empty(), "{:#?}", outcome.diagnostics);
    outcome.graph
}

/// `graph` with `edit` applied to the bodies of its first op with bodies.
fn edit_bodies(mut graph: Graph, edit: impl FnOnce(&mut ir::SubGraph)) -> Graph {
    let id = graph
        .nodes()
        .find(|(_, n)| matches!(n.op, Op::SubGraph(_)))
        .map(|(id, _)| id)
        .expect("an op with bodies");
    if let Op::SubGraph(sub) = &mut graph.node_mut(id).op {
        edit(sub);
    }
    graph
}

fn errors(diagnostics: &[Diagnostic]) -> Vec<&'static str> {
    diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.rule)
        .collect()
}

#[test]
fn the_samples_are_valid() {
    for name in [
        "if_relu_negative",
        "loop_accumulate",
        "ti_accumulate",
        "ti_nested_if",
    ] {
        let diagnostics = validate(&read(name));
        assert!(diagnostics.is_empty(), "{name}: {diagnostics:#?}");
    }
}

#[test]
fn port_map_entries_must_name_parameters_and_results() {
    let graph = edit_bodies(read("loop_accumulate"), |sub| {
        let body = &mut sub.bodies[0];
        // The input now names a Result, the output a Parameter.
        std::mem::swap(&mut body.outputs[0].result, &mut body.inputs[0].param);
    });
    let diagnostics = validate(&graph);
    let rules = errors(&diagnostics);
    assert!(rules.contains(&"port-map-invalid"), "{diagnostics:#?}");
    assert!(rules.contains(&"body-parameter-unfed"), "{diagnostics:#?}");
    let d = diagnostics
        .iter()
        .find(|d| d.rule == "port-map-invalid")
        .expect("port-map-invalid");
    assert_eq!(d.layer.as_ref().map(|l| l.type_name.as_str()), Some("Loop"));
    assert!(
        d.message.starts_with("body: port-map input 0 names layer"),
        "{}",
        d.message
    );
}

#[test]
fn back_edges_join_a_result_to_a_fed_parameter_of_the_same_type_and_rank() {
    // Into the sliced Parameter instead: a warning (OpenVINO ignores it),
    // and a rank mismatch ([2, 3] into [1, 5, 3]).
    let graph = edit_bodies(read("loop_accumulate"), |sub| {
        let body = &mut sub.bodies[0];
        body.back_edges[0].to = body.inputs[1].param;
    });
    let diagnostics = validate(&graph);
    assert_eq!(
        errors(&diagnostics),
        ["back-edge-mismatch"],
        "{diagnostics:#?}"
    );
    assert!(diagnostics
        .iter()
        .any(|d| d.rule == "back-edge-invalid" && d.severity == Severity::Warning));

    // Into the current-iteration Parameter (no initial value), from a
    // Parameter (not a Result).
    let graph = edit_bodies(read("loop_accumulate"), |sub| {
        let body = &mut sub.bodies[0];
        let it = body.current_iteration.expect("current iteration");
        body.back_edges[0].to = it;
        body.back_edges.push(ir::BackEdge { from: it, to: it });
    });
    let rules = errors(&validate(&graph));
    assert_eq!(
        rules,
        [
            "back-edge-invalid",
            "back-edge-mismatch",
            "back-edge-invalid"
        ]
    );
}

#[test]
fn slices_need_a_valid_axis_part_size_and_stride() {
    let graph = edit_bodies(read("ti_accumulate"), |sub| {
        let body = &mut sub.bodies[0];
        let slice = body.inputs[0].slice.as_mut().expect("sliced");
        slice.axis = 3;
        slice.part_size = 0;
        slice.stride = 0;
    });
    let diagnostics = validate(&graph);
    assert_eq!(
        errors(&diagnostics),
        ["body-slice-invalid"; 3],
        "{diagnostics:#?}"
    );
    assert!(diagnostics[2].message.contains("axis 3 outside [-3, 2]"));
}

#[test]
fn every_output_is_given_once_and_if_has_two_bodies() {
    let graph = edit_bodies(read("if_relu_negative"), |sub| {
        sub.bodies[1].outputs.clear();
        sub.bodies.swap(0, 1);
    });
    let diagnostics = validate(&graph);
    assert_eq!(
        errors(&diagnostics),
        ["bodies-invalid", "body-output-unmapped"],
        "{diagnostics:#?}"
    );
    assert!(diagnostics[0]
        .message
        .contains("needs the bodies [then_body, else_body] but has [else_body, then_body]"));
}

#[test]
fn structural_problems_inside_a_body_name_the_parent() {
    // Drop the edge into the inner If's Result: the If's then body has an
    // unfed input, two bodies down.
    let graph = edit_bodies(read("ti_nested_if"), |sub| {
        let body = &mut sub.bodies[0];
        let inner = body
            .graph
            .nodes()
            .find(|(_, n)| n.op_type.name == "If")
            .map(|(id, _)| id)
            .expect("If");
        if let Op::SubGraph(inner) = &mut body.graph.node_mut(inner).op {
            let then = &mut inner.bodies[0].graph.graph;
            let last = then.edge_indices().next_back().expect("an edge");
            then.remove_edge(last);
        }
    });
    let diagnostics = validate(&graph);
    assert_eq!(errors(&diagnostics), ["input-unfed"], "{diagnostics:#?}");
    let layer = diagnostics[0].layer.as_ref().expect("layer");
    let path: Vec<(&str, &str)> = layer
        .parents
        .iter()
        .map(|p| (p.type_name.as_str(), p.body.as_str()))
        .collect();
    assert_eq!(path, [("TensorIterator", "body"), ("If", "then_body")]);
    assert_eq!(layer.type_name, "Result");
    assert!(diagnostics[0].location.is_some_and(|l| l.line > 1));
}
