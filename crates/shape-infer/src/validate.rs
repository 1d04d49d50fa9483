//! Structural checks that must hold before inference means anything.
//!
//! The reader already reports what it can see locally (duplicate ids, edges to
//! missing layers or ports, unparsable dims). These checks need the whole
//! graph: every input fed exactly once, no cycle, at least one Result. The
//! bodies of If, Loop and TensorIterator get the same checks, recursively,
//! plus those of their port maps and back edges ([`bodies`]).

mod bodies;

use ir::{Diagnostic, Graph, InputFeeds, Op};

/// The structural diagnostics of `graph`.
pub fn validate(graph: &Graph) -> Vec<Diagnostic> {
    validate_with_feeds(graph, &graph.input_feeds())
}

/// [`validate`] given the graph's [`Graph::input_feeds`], which inference
/// needs too ([`crate::infer_validated_with_feeds`]): built once for both.
pub fn validate_with_feeds(graph: &Graph, feeds: &InputFeeds) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    // Noted in the one pass over the nodes, not in a pass each.
    let (mut has_result, mut has_bodies) = (false, false);
    for (id, node) in graph.nodes() {
        has_result |= matches!(node.op, Op::Result);
        has_bodies |= matches!(node.op, Op::SubGraph(_));
        // Only a node with an input fed by no edge or by several has its
        // producers listed, for the message.
        if feeds.counts(id).iter().all(|&count| count == 1) {
            continue;
        }
        for (index, sources) in graph.input_sources(id).iter().enumerate() {
            let port = node.inputs[index].id;
            let located = |d: Diagnostic| d.at_layer(node.layer_ref(), node.inputs[index].location);
            match sources.len() {
                0 => diagnostics.push(located(Diagnostic::error(
                    "input-unfed",
                    format!("input port {port} is not connected to any output"),
                ))),
                1 => {}
                n => {
                    let producers: Vec<_> = sources
                        .iter()
                        .map(|s| {
                            let p = graph.node(s.node);
                            format!("`{}` port {}", p.name, p.outputs[s.output].id)
                        })
                        .collect();
                    diagnostics.push(located(Diagnostic::error(
                        "input-fed-twice",
                        format!(
                            "input port {port} is fed by {n} edges ({})",
                            producers.join(", ")
                        ),
                    )));
                }
            }
        }
    }
    if let Some(on_cycle) = feeds.node_on_cycle(graph) {
        let cycle = graph.cycle_through(on_cycle);
        // Long cycles are abbreviated: the first few layers, then the count.
        const SHOWN: usize = 8;
        let mut path: Vec<String> = cycle
            .iter()
            .take(SHOWN)
            .map(|&n| format!("`{}`", graph.node(n).name))
            .collect();
        if cycle.len() > SHOWN {
            path.push(format!("… ({} layers in all)", cycle.len()));
        }
        let node = graph.node(on_cycle);
        diagnostics.push(
            Diagnostic::error(
                "graph-cycle",
                format!(
                    "the graph has a cycle: {} -> `{}`",
                    path.join(" -> "),
                    node.name
                ),
            )
            .at_layer(node.layer_ref(), node.location),
        );
    }
    if !has_result {
        diagnostics.push(Diagnostic::error(
            "graph-no-result",
            "the model has no Result layer, so it has no outputs",
        ));
    }
    if graph.node_count() == 0 {
        diagnostics.push(Diagnostic::error("graph-empty", "the model has no layers"));
    }
    if has_bodies {
        for (_, node) in graph.nodes() {
            if let Op::SubGraph(sub) = &node.op {
                bodies::validate_sub_graph(node, sub, &mut diagnostics);
            }
        }
    }
    diagnostics
}
