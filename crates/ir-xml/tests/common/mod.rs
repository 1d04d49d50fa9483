//! Helpers shared by the integration tests.
#![allow(dead_code)]

use ir::{Diagnostic, Graph, Node, SourceLocation};
use ir_xml::{read_model_from_str, write_model, ReadOutcome};

/// Reads IR text that must be well-formed.
pub fn read(xml: &str, weights: Option<Vec<u8>>) -> ReadOutcome {
    match read_model_from_str(xml, weights.map(ir::TensorBytes::from_vec)) {
        Ok(outcome) => outcome,
        Err(error) => panic!("read failed: {error}"),
    }
}

/// The rule names of `diagnostics`, in order.
pub fn rules(diagnostics: &[Diagnostic]) -> Vec<&'static str> {
    diagnostics.iter().map(|d| d.rule).collect()
}

/// A node without its source locations (which move when a model is rewritten)
/// and without a Const's `offset` (the writer lays out a fresh `.bin`; the
/// bytes themselves are compared through `Op::Constant`).
fn without_locations(node: &Node) -> Node {
    let mut node = node.clone();
    if matches!(node.op, ir::Op::Constant { .. }) {
        node.attributes.set("offset", "");
    }
    node.location = SourceLocation::default();
    for port in node.inputs.iter_mut().chain(node.outputs.iter_mut()) {
        port.location = SourceLocation::default();
    }
    if let ir::Op::SubGraph(sub) = &mut node.op {
        for body in &mut sub.bodies {
            for weight in body.graph.graph.node_weights_mut() {
                *weight = without_locations(weight);
            }
        }
    }
    node
}

/// Asserts that two graphs are the same model: name, version, nodes (with
/// attributes, ports, ops and constant bytes), edges, rt_info and the names
/// and ranges of their symbols.
pub fn assert_same_graph(a: &Graph, b: &Graph) {
    assert_eq!(a.name, b.name);
    assert_eq!(a.ir_version, b.ir_version);
    assert_eq!(a.rt_info, b.rt_info);
    assert_eq!(a.node_count(), b.node_count());
    for ((_, x), (_, y)) in a.nodes().zip(b.nodes()) {
        assert_eq!(
            without_locations(x),
            without_locations(y),
            "layer {}",
            x.name
        );
    }
    let edges = |g: &Graph| {
        g.graph
            .edge_indices()
            .filter_map(|e| {
                let (from, to) = g.graph.edge_endpoints(e)?;
                Some((from.index(), to.index(), g.graph[e]))
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(edges(a), edges(b));
    let symbols = |g: &Graph| {
        g.symbols
            .iter()
            .map(|(_, info)| (info.name.clone(), info.range))
            .collect::<Vec<_>>()
    };
    assert_eq!(symbols(a), symbols(b));
}

/// Writes `graph`, reads the result back, checks that it is the same graph
/// and that writing it again gives the same bytes. Returns the first write.
pub fn round_trip(graph: &Graph) -> (String, Vec<u8>) {
    let (xml, bin) = write_model(graph).expect("write");
    let again = read(&xml, Some(bin.clone()));
    assert!(
        again.diagnostics.is_empty(),
        "re-read diagnostics: {:#?}\n{xml}",
        again.diagnostics
    );
    assert_same_graph(graph, &again.graph);
    let (xml2, bin2) = write_model(&again.graph).expect("second write");
    assert_eq!(xml, xml2, "second write differs");
    assert_eq!(bin, bin2, "second .bin differs");
    (xml, bin)
}
