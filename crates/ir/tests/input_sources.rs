//! `Graph::single_input_sources` says what `Graph::input_sources` says of
//! each input: its one producer, or nothing when an input has none or
//! several.

use ir::{Attributes, Graph, InputRef, Node, Op, OpType, OutputRef, PortDecl, SourceLocation};

fn port(id: u32) -> PortDecl {
    PortDecl {
        id,
        ..PortDecl::default()
    }
}

fn node(id: &str, inputs: u32, outputs: u32) -> Node {
    Node {
        id: id.to_owned(),
        name: id.to_owned(),
        op_type: OpType {
            name: "Add".to_owned(),
            version: "opset1".to_owned(),
        },
        op: Op::Other,
        attributes: Attributes::new(),
        layer_attributes: Attributes::new(),
        inputs: (0..inputs).map(port).collect(),
        outputs: (inputs..inputs + outputs).map(port).collect(),
        rt_info: None,
        location: SourceLocation::default(),
    }
}

/// What `input_sources` says when every input has exactly one producer.
fn expected(graph: &Graph, id: ir::NodeId) -> Option<Vec<OutputRef>> {
    graph
        .input_sources(id)
        .into_iter()
        .map(|sources| match sources.as_slice() {
            [one] => Some(*one),
            _ => None,
        })
        .collect()
}

#[test]
fn one_producer_per_input_or_none() {
    let mut graph = Graph::default();
    let a = graph.add_node(node("a", 0, 2));
    let b = graph.add_node(node("b", 0, 1));
    let fed = graph.add_node(node("fed", 2, 1));
    let unfed = graph.add_node(node("unfed", 2, 1));
    let twice = graph.add_node(node("twice", 2, 1));
    let out = |node, output| OutputRef { node, output };
    let input = |node, input| InputRef { node, input };
    // Edges added out of port order.
    graph.connect(out(b, 0), input(fed, 1));
    graph.connect(out(a, 1), input(fed, 0));
    graph.connect(out(a, 0), input(unfed, 0));
    graph.connect(out(a, 0), input(twice, 0));
    graph.connect(out(b, 0), input(twice, 1));
    graph.connect(out(a, 1), input(twice, 1));

    assert_eq!(
        graph.single_input_sources(fed),
        Some(vec![out(a, 1), out(b, 0)])
    );
    assert_eq!(graph.single_input_sources(unfed), None);
    assert_eq!(graph.single_input_sources(twice), None);
    assert_eq!(graph.single_input_sources(a), Some(Vec::new()));
    let feeds = graph.input_feeds();
    for id in [a, b, fed, unfed, twice] {
        assert_eq!(graph.single_input_sources(id), expected(&graph, id));
        assert_eq!(
            feeds.single(id).map(<[OutputRef]>::to_vec),
            expected(&graph, id)
        );
        let counts: Vec<u32> = graph
            .input_sources(id)
            .iter()
            .map(|sources| sources.len() as u32)
            .collect();
        assert_eq!(feeds.counts(id), counts.as_slice());
    }
}

/// The topological order is Kahn's with the smallest ready node first,
/// whether or not the edges all go forward in file order.
#[test]
fn topological_order_prefers_file_order() {
    let mut forward = Graph::default();
    let ids: Vec<_> = (0..4)
        .map(|i| forward.add_node(node(&i.to_string(), 1, 1)))
        .collect();
    let out = |node, output| OutputRef { node, output };
    let input = |node, input| InputRef { node, input };
    forward.connect(out(ids[0], 0), input(ids[2], 0));
    forward.connect(out(ids[1], 0), input(ids[3], 0));
    assert_eq!(forward.topological_order(), Ok(ids.clone()));
    // The feeds' shortcut gives the same order and no cycle.
    let feeds = forward.input_feeds();
    assert_eq!(feeds.topological_order(&forward), Ok(ids.clone()));
    assert_eq!(feeds.node_on_cycle(&forward), None);
    // A backward edge: node 0 waits for node 3.
    forward.connect(out(ids[3], 0), input(ids[0], 0));
    assert_eq!(
        forward.topological_order(),
        Ok(vec![ids[1], ids[3], ids[0], ids[2]])
    );
    let feeds = forward.input_feeds();
    assert_eq!(
        feeds.topological_order(&forward),
        forward.topological_order()
    );
    assert_eq!(feeds.node_on_cycle(&forward), None);
    // A self-loop is a cycle.
    let mut looped = Graph::default();
    let only = looped.add_node(node("only", 1, 1));
    looped.connect(out(only, 0), input(only, 0));
    assert_eq!(looped.topological_order(), Err(only));
    let feeds = looped.input_feeds();
    assert_eq!(feeds.topological_order(&looped), Err(only));
    assert_eq!(feeds.node_on_cycle(&looped), Some(only));
}
