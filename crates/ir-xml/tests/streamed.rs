//! The model's own layers are read straight from the XML events, a body's
//! layers from a tree of their elements: the same layer text must give the
//! same node and the same problems, in the same order, either way.

mod common;

use common::read;
use ir::{Diagnostic, Graph, Node, Op, SourceLocation};

/// A layer with a bit of everything the reader checks: a second `<data>`,
/// `<rt_info>` of the layer and of a port, unknown children at each level,
/// `<dim>` text in pieces (comments, CDATA, an element inside, an entity),
/// ports without a valid id, a duplicate port id, an unknown precision, an
/// empty `<input/>` and `<port/>`, port maps and back edges of a layer
/// without bodies.
const ODD: &str = r#"<layer id="3" name="odd" type="ReLU" version="opset1" extra="e&amp;">
<data a="1" b="&lt;"><x y="1"/>t</data>
<data c="2"/>
<rt_info><attribute name="x" version="0"/></rt_info>
<rt_info/>
<foo/>
<input>
 <port id="0" precision="FP32" names="a\,b,c"><dim>1<!-- c --> 2</dim><dim> <![CDATA[3]]> </dim><dim><q>7</q>4</dim><dim/><dim>&#53;</dim><rt_info><z/></rt_info><rt_info/><zz/></port>
 <port id="x"><dim>9</dim></port>
 <port precision="FP32"><dim>8</dim></port>
 <nop/>
 text
 <port id="0" precision="nope" extra="1"><dim>-2</dim><dim> -1 </dim></port>
</input>
<input/>
<output><port id="1"/><port id="2" precision="i64"><dim>3</dim></port></output>
<port_map/>
<back_edges/>
<port_map/>
</layer>
"#;

fn net(layers: &str) -> String {
    format!("<?xml version=\"1.0\"?>\n<net name=\"t\" version=\"11\">\n<layers>\n{layers}</layers>\n<edges/>\n</net>\n")
}

/// `ODD` as the only layer of the body of a TensorIterator.
fn in_body() -> String {
    net(&format!(
        "<layer id=\"9\" name=\"ti\" type=\"TensorIterator\" version=\"opset1\">\n<body>\n<layers>\n{ODD}</layers>\n<edges/>\n</body>\n</layer>\n"
    ))
}

/// `node` without its source locations (the layer sits on other lines).
fn without_locations(node: &Node) -> Node {
    let mut node = node.clone();
    node.location = SourceLocation::default();
    for port in node.inputs.iter_mut().chain(node.outputs.iter_mut()) {
        port.location = SourceLocation::default();
    }
    node
}

/// The rule and message of each problem: without locations (nor notes,
/// which give lines) and without the path of bodies around its layer.
fn problems(diagnostics: &[Diagnostic]) -> Vec<(&'static str, String)> {
    diagnostics
        .iter()
        .map(|d| (d.rule, d.message.clone()))
        .collect()
}

fn only_node(graph: &Graph) -> &Node {
    let mut nodes = graph.nodes();
    let (_, node) = nodes.next().expect("a node");
    assert!(nodes.next().is_none());
    node
}

#[test]
fn a_layer_read_from_the_stream_and_from_a_tree_are_the_same() {
    let streamed = read(&net(ODD), None);
    let treed = read(&in_body(), None);
    let ti = only_node(&treed.graph);
    let Op::SubGraph(sub) = &ti.op else {
        panic!("{:?}", ti.op);
    };
    let body_node = only_node(&sub.bodies[0].graph);
    assert_eq!(
        without_locations(only_node(&streamed.graph)),
        without_locations(body_node)
    );
    // The body's problems are the layer's (named within the body; the
    // TensorIterator itself has none).
    assert_eq!(
        problems(&streamed.diagnostics),
        problems(&treed.diagnostics)
    );
    // And they are what the layer holds, in file order, then what is found
    // once the layer has ended.
    let rules: Vec<&str> = streamed.diagnostics.iter().map(|d| d.rule).collect();
    assert_eq!(
        rules,
        [
            "element-ignored",        // the second <data>
            "element-ignored",        // the second <rt_info>
            "element-ignored",        // <foo>
            "port-dim-invalid",       // <dim>1<!-- c --> 2</dim>
            "port-dim-invalid",       // <dim/>
            "element-ignored",        // the port's second <rt_info>
            "element-ignored",        // <zz>
            "port-id-invalid",        // id="x"
            "port-id-invalid",        // no id
            "element-ignored",        // <nop>
            "port-precision-unknown", // "nope"
            "port-dim-invalid",       // -2
            "element-ignored",        // the second <port_map>
            "port-id-invalid",        // id 0 twice
            "element-ignored",        // a port map without bodies
            "element-ignored",        // back edges without bodies
        ],
        "{:#?}",
        streamed.diagnostics
    );
    let node = only_node(&streamed.graph);
    assert_eq!(node.layer_attributes.get("extra"), Some("e&"));
    assert_eq!(node.attributes.get("b"), Some("<"));
    assert_eq!(node.attributes.get("c"), None);
    assert_eq!(
        node.rt_info.as_deref(),
        Some(r#"<rt_info><attribute name="x" version="0"/></rt_info>"#)
    );
    let port = &node.inputs[0];
    assert_eq!(port.names(), ["a,b", "c"]);
    assert_eq!(port.rt_info(), Some("<rt_info><z/></rt_info>"));
    use ir::DeclaredDim::{Dynamic, Static};
    assert_eq!(
        port.dims,
        [Dynamic, Static(3), Static(4), Dynamic, Static(5)]
    );
    let ids: Vec<u32> = node
        .inputs
        .iter()
        .chain(&node.outputs)
        .map(|p| p.id)
        .collect();
    assert_eq!(ids, [0, 0, 1, 2]);
    assert_eq!(node.outputs[1].dims, [Static(3)]);
}
