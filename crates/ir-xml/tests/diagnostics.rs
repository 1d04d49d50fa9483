//! Every reader rule, each with a small inline IR; and the inputs that cannot
//! be read at all.

mod common;

use common::{read, rules};
use ir::{Op, SourceLocation};
use ir_xml::{read_model, read_model_from_str, ReadError};

/// A net around `layers` and `edges`.
fn net(layers: &str, edges: &str) -> String {
    format!(
        "<?xml version=\"1.0\"?>\n<net name=\"t\" version=\"11\">\n<layers>\n{layers}</layers>\n<edges>\n{edges}</edges>\n</net>\n"
    )
}

const PARAM: &str = r#"<layer id="0" name="x" type="Parameter" version="opset1">
<data shape="2" element_type="f32" />
<output><port id="0" precision="FP32"><dim>2</dim></port></output>
</layer>
"#;

const RELU: &str = r#"<layer id="1" name="/act/Relu" type="ReLU" version="opset1">
<input><port id="0" precision="FP32"><dim>2</dim></port></input>
<output><port id="1" precision="FP32"><dim>2</dim></port></output>
</layer>
"#;

const EDGE: &str = "<edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\" />\n";

fn const_layer(data: &str) -> String {
    format!(
        "<layer id=\"5\" name=\"c\" type=\"Const\" version=\"opset1\">\n<data {data} />\n<output><port id=\"0\" precision=\"FP32\"><dim>2</dim></port></output>\n</layer>\n"
    )
}

#[test]
fn a_valid_net_has_no_diagnostics() {
    let outcome = read(&net(&format!("{PARAM}{RELU}"), EDGE), None);
    assert!(outcome.diagnostics.is_empty(), "{:#?}", outcome.diagnostics);
    assert_eq!(outcome.graph.graph.edge_count(), 1);
}

#[test]
fn layer_id_duplicate() {
    let second = RELU.replace("id=\"1\" name=\"/act/Relu\"", "id=\"0\" name=\"dup\"");
    let outcome = read(&net(&format!("{PARAM}{second}"), ""), None);
    assert_eq!(rules(&outcome.diagnostics), ["layer-id-duplicate"]);
    let d = &outcome.diagnostics[0];
    assert_eq!(d.layer.as_ref().map(|l| l.name.as_str()), Some("dup"));
    assert_eq!(d.location, Some(SourceLocation { line: 8, column: 1 }));
    assert_eq!(outcome.graph.node_count(), 2);
}

#[test]
fn layer_attribute_missing() {
    let layer = RELU
        .replace(" name=\"/act/Relu\"", "")
        .replace(" version=\"opset1\"", "");
    let outcome = read(&net(&format!("{PARAM}{layer}"), EDGE), None);
    assert_eq!(
        rules(&outcome.diagnostics),
        ["layer-attribute-missing", "layer-attribute-missing"]
    );
    assert!(outcome.diagnostics[0].message.contains("`name`"));
    assert!(outcome.diagnostics[1].message.contains("`version`"));
    // The layer is still there and connected.
    assert_eq!(outcome.graph.node_count(), 2);
    assert_eq!(outcome.graph.graph.edge_count(), 1);
    let no_id = RELU
        .replacen("id=\"1\" ", "", 1)
        .replace(" type=\"ReLU\"", "");
    let outcome = read(&net(&format!("{PARAM}{no_id}"), ""), None);
    assert_eq!(
        rules(&outcome.diagnostics),
        ["layer-attribute-missing", "layer-attribute-missing"]
    );
}

#[test]
fn edge_dangling_layer() {
    let edges =
        format!("{EDGE}<edge from-layer=\"0\" from-port=\"0\" to-layer=\"7\" to-port=\"0\" />\n");
    let outcome = read(&net(&format!("{PARAM}{RELU}"), &edges), None);
    assert_eq!(rules(&outcome.diagnostics), ["edge-dangling-layer"]);
    let d = &outcome.diagnostics[0];
    // The location is the `<edge>` element.
    assert_eq!(
        d.location,
        Some(SourceLocation {
            line: 15,
            column: 1
        })
    );
    assert!(d.message.contains("layer 7"));
    // The good edge stays, the bad one is dropped.
    assert_eq!(outcome.graph.graph.edge_count(), 1);
}

/// The graph's edges as (source id, destination id), in their order.
fn edge_ends(graph: &ir::Graph) -> Vec<(String, String)> {
    graph
        .graph
        .raw_edges()
        .iter()
        .map(|edge| {
            let id = |node| graph.node(node).id.clone();
            (id(edge.source()), id(edge.target()))
        })
        .collect()
}

/// Edges are added as they are read when their layers came first, and
/// left for the end otherwise (issue 18): the graph's edges keep the file's
/// order and the problems come where they came when every edge was left
/// for the end, after an element of `<net>` that follows `<edges>`.
#[test]
fn edges_keep_their_order_wherever_their_layers_are() {
    let second = RELU.replace("id=\"1\" name=\"/act/Relu\"", "id=\"2\" name=\"r2\"");
    let layers = format!("{PARAM}{RELU}{second}");
    let edge = |from: &str, to: &str| {
        format!(
            "<edge from-layer=\"{from}\" from-port=\"{}\" to-layer=\"{to}\" to-port=\"0\" />\n",
            if from == "0" { 0 } else { 1 }
        )
    };
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    // A dangling edge between two found ones: the found ones in file
    // order, the problem after the element that follows `<edges>`.
    let edges = [edge("1", "2"), edge("9", "1"), edge("0", "1")].concat();
    let xml = net(&layers, &edges).replace("</edges>\n", "</edges>\n<extra/>\n");
    let outcome = read(&xml, None);
    assert_eq!(
        rules(&outcome.diagnostics),
        ["element-ignored", "edge-dangling-layer"]
    );
    assert_eq!(edge_ends(&outcome.graph), pairs(&[("1", "2"), ("0", "1")]));

    // `<edges>` before `<layers>`, and layers in two lists around it.
    let edges = [edge("1", "2"), edge("0", "1")].concat();
    let before = format!(
        "<?xml version=\"1.0\"?>\n<net name=\"t\" version=\"11\">\n<edges>\n{edges}</edges>\n<layers>\n{layers}</layers>\n</net>\n"
    );
    let around = format!(
        "<?xml version=\"1.0\"?>\n<net name=\"t\" version=\"11\">\n<layers>\n{PARAM}{RELU}</layers>\n<edges>\n{}{}</edges>\n<layers>\n{second}</layers>\n</net>\n",
        edge("1", "2"),
        edge("0", "1")
    );
    let outcome = read(&before, None);
    assert!(outcome.diagnostics.is_empty(), "{:#?}", outcome.diagnostics);
    assert_eq!(edge_ends(&outcome.graph), pairs(&[("1", "2"), ("0", "1")]));
    // The first edge waits for its layer; the second, found, waits too.
    let outcome = read(&around, None);
    assert!(outcome.diagnostics.is_empty(), "{:#?}", outcome.diagnostics);
    assert_eq!(edge_ends(&outcome.graph), pairs(&[("1", "2"), ("0", "1")]));
}

#[test]
fn edge_dangling_port() {
    let edges = [
        // A port Relu does not declare.
        "<edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"5\" />\n",
        // To an output port.
        "<edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"1\" />\n",
        // From an input port.
        "<edge from-layer=\"1\" from-port=\"0\" to-layer=\"1\" to-port=\"0\" />\n",
    ]
    .concat();
    let outcome = read(&net(&format!("{PARAM}{RELU}"), &edges), None);
    assert_eq!(
        rules(&outcome.diagnostics),
        [
            "edge-dangling-port",
            "edge-dangling-port",
            "edge-dangling-port"
        ]
    );
    assert!(outcome.diagnostics[0].message.contains("does not declare"));
    assert!(outcome.diagnostics[1].message.contains("an output port"));
    assert!(outcome.diagnostics[2].message.contains("an input port"));
    for d in &outcome.diagnostics {
        assert_eq!(d.layer.as_ref().map(|l| l.id.as_str()), Some("1"));
    }
    assert_eq!(outcome.graph.graph.edge_count(), 0);
    assert_eq!(outcome.graph.node_count(), 2);
}

#[test]
fn edge_attribute_invalid() {
    let edges = "<edge from-layer=\"0\" to-layer=\"1\" to-port=\"0\" />\n<edge from-layer=\"0\" from-port=\"x\" to-layer=\"1\" to-port=\"-1\" />\n";
    let outcome = read(&net(&format!("{PARAM}{RELU}"), edges), None);
    assert_eq!(
        rules(&outcome.diagnostics),
        ["edge-attribute-invalid", "edge-attribute-invalid"]
    );
    assert!(outcome.diagnostics[0]
        .message
        .contains("`from-port` is missing"));
    assert!(outcome.diagnostics[1]
        .message
        .contains("`from-port` = \"x\""));
    assert!(outcome.diagnostics[1]
        .message
        .contains("`to-port` = \"-1\""));
}

#[test]
fn port_dim_invalid() {
    let layer = RELU.replace(
        "<output><port id=\"1\" precision=\"FP32\"><dim>2</dim>",
        "<output><port id=\"1\" precision=\"FP32\"><dim>abc</dim><dim>-2</dim><dim>-1</dim>",
    );
    let outcome = read(&net(&format!("{PARAM}{layer}"), EDGE), None);
    assert_eq!(
        rules(&outcome.diagnostics),
        ["port-dim-invalid", "port-dim-invalid"]
    );
    assert!(outcome.diagnostics[0].message.contains("abc"));
    // The rank is kept; bad dims read as unknown.
    let (_, relu) = outcome.graph.nodes().nth(1).expect("relu");
    assert_eq!(relu.outputs[0].dims.len(), 3);
}

#[test]
fn dims_split_by_comments_and_whitespace_read_as_their_whole_text() {
    // Whitespace before a dim's text is not its text; whitespace between
    // two pieces of it is.
    let layer = RELU.replace(
        "<output><port id=\"1\" precision=\"FP32\"><dim>2</dim>",
        "<output><port id=\"1\" precision=\"FP32\">\n  <dim>\n <!-- a -->\t 1<!-- b -->2 </dim>\n  <dim>1<!-- c --> <!-- d -->2</dim>\n  ",
    );
    let outcome = read(&net(&format!("{PARAM}{layer}"), EDGE), None);
    assert_eq!(rules(&outcome.diagnostics), ["port-dim-invalid"]);
    assert!(
        outcome.diagnostics[0].message.contains("<dim>1 2</dim>"),
        "{}",
        outcome.diagnostics[0].message
    );
    let (_, relu) = outcome.graph.nodes().nth(1).expect("relu");
    assert_eq!(
        relu.outputs[0].dims,
        [ir::DeclaredDim::Static(12), ir::DeclaredDim::Dynamic]
    );
}

#[test]
fn port_precision_unknown() {
    let layer = RELU.replace(
        "<port id=\"1\" precision=\"FP32\">",
        "<port id=\"1\" precision=\"FP33\">",
    );
    let outcome = read(&net(&format!("{PARAM}{layer}"), EDGE), None);
    assert_eq!(rules(&outcome.diagnostics), ["port-precision-unknown"]);
    let (_, relu) = outcome.graph.nodes().nth(1).expect("relu");
    assert_eq!(relu.outputs[0].element_type, None);
    // Kept so that it is written back.
    assert_eq!(relu.outputs[0].attributes().get("precision"), Some("FP33"));
}

#[test]
fn port_id_invalid() {
    let layer = RELU.replace("<port id=\"1\"", "<port id=\"0\"");
    let outcome = read(&net(&format!("{PARAM}{layer}"), EDGE), None);
    assert_eq!(rules(&outcome.diagnostics), ["port-id-invalid"]);
    let layer = RELU.replace("<port id=\"1\"", "<port");
    let outcome = read(&net(&format!("{PARAM}{layer}"), EDGE), None);
    assert_eq!(rules(&outcome.diagnostics), ["port-id-invalid"]);
}

#[test]
fn parameter_shape_invalid() {
    for shape in ["1,x..y", "1,,2", "N,3", "8..2", "-3", "?2", "[1,2]"] {
        let layer = PARAM.replace("shape=\"2\"", &format!("shape=\"{shape}\""));
        let outcome = read(&net(&layer, ""), None);
        assert_eq!(
            rules(&outcome.diagnostics),
            ["parameter-shape-invalid"],
            "{shape}"
        );
        let (_, x) = outcome.graph.nodes().next().expect("x");
        assert!(matches!(
            &x.op,
            Op::Parameter { shape, .. } if **shape == ir::Shape::DynamicRank
        ));
    }
    let layer = PARAM.replace("shape=\"2\" ", "");
    let outcome = read(&net(&layer, ""), None);
    assert_eq!(rules(&outcome.diagnostics), ["parameter-shape-invalid"]);
}

#[test]
fn parameter_element_type_invalid_and_unknown() {
    let layer = PARAM.replace(" element_type=\"f32\"", "");
    let outcome = read(&net(&layer, ""), None);
    assert_eq!(
        rules(&outcome.diagnostics),
        ["parameter-element-type-invalid"]
    );
    let layer = PARAM.replace("element_type=\"f32\"", "element_type=\"f33\"");
    let outcome = read(&net(&layer, ""), None);
    assert_eq!(rules(&outcome.diagnostics), ["element-type-unknown"]);
    assert!(outcome.diagnostics[0].message.contains("f33"));
    assert_eq!(
        outcome.diagnostics[0].location,
        Some(SourceLocation { line: 5, column: 1 })
    );
}

#[test]
fn const_attribute_invalid() {
    for data in [
        "element_type=\"f32\" shape=\"2\" size=\"8\"",
        "element_type=\"f32\" shape=\"2,-1\" offset=\"0\" size=\"8\"",
        "element_type=\"f32\" shape=\"2\" offset=\"0x0\" size=\"8\"",
        "element_type=\"dynamic\" shape=\"2\" offset=\"0\" size=\"8\"",
        "shape=\"2\" offset=\"0\" size=\"8\"",
    ] {
        let outcome = read(&net(&const_layer(data), ""), Some(vec![0; 8]));
        assert_eq!(
            rules(&outcome.diagnostics),
            ["const-attribute-invalid"],
            "{data}"
        );
        let (_, c) = outcome.graph.nodes().next().expect("c");
        assert!(matches!(c.op, Op::Other));
    }
    let outcome = read(
        &net(
            &const_layer("element_type=\"f33\" shape=\"2\" offset=\"0\" size=\"8\""),
            "",
        ),
        Some(vec![0; 8]),
    );
    assert_eq!(rules(&outcome.diagnostics), ["element-type-unknown"]);
}

#[test]
fn const_out_of_bounds() {
    let data = "element_type=\"f32\" shape=\"2\" offset=\"4\" size=\"8\"";
    let outcome = read(&net(&const_layer(data), ""), Some(vec![0; 8]));
    assert_eq!(rules(&outcome.diagnostics), ["const-out-of-bounds"]);
    let data = "element_type=\"u8\" shape=\"1\" offset=\"18446744073709551615\" size=\"1\"";
    let outcome = read(&net(&const_layer(data), ""), Some(vec![0; 8]));
    assert_eq!(rules(&outcome.diagnostics), ["const-out-of-bounds"]);
    assert!(outcome.diagnostics[0].message.contains("beyond 2^64"));
}

#[test]
fn const_size_mismatch() {
    let data = "element_type=\"f32\" shape=\"2, 3\" offset=\"0\" size=\"20\"";
    let outcome = read(&net(&const_layer(data), ""), Some(vec![0; 24]));
    assert_eq!(rules(&outcome.diagnostics), ["const-size-mismatch"]);
    assert!(outcome.diagnostics[0].message.contains("needs 24"));
    // 2^40 x 2^40 elements with a size of 10^18: a diagnostic, no allocation.
    let data = "element_type=\"f32\" shape=\"1099511627776, 1099511627776\" offset=\"0\" size=\"1000000000000000000\"";
    let outcome = read(&net(&const_layer(data), ""), Some(vec![0; 16]));
    assert_eq!(
        rules(&outcome.diagnostics),
        ["const-size-mismatch", "const-out-of-bounds"]
    );
    assert!(outcome.diagnostics[0].message.contains("overflows"));
    // Sub-byte types pack: 9 u1 elements are 2 bytes.
    let data = "element_type=\"u1\" shape=\"9\" offset=\"0\" size=\"2\"";
    let outcome = read(&net(&const_layer(data), ""), Some(vec![0; 2]));
    assert!(outcome.diagnostics.is_empty(), "{:#?}", outcome.diagnostics);
}

#[test]
fn const_no_weights() {
    let data = "element_type=\"f32\" shape=\"2\" offset=\"0\" size=\"8\"";
    let outcome = read(&net(&const_layer(data), ""), None);
    assert_eq!(rules(&outcome.diagnostics), ["const-no-weights"]);
    // An empty constant needs no weights.
    let data = "element_type=\"f32\" shape=\"0\" offset=\"0\" size=\"0\"";
    let outcome = read(&net(&const_layer(data), ""), None);
    assert!(outcome.diagnostics.is_empty(), "{:#?}", outcome.diagnostics);
}

#[test]
fn the_extra_rules() {
    let outcome = read(
        &net(&format!("{PARAM}<unknown />\n"), "").replace("version=\"11\"", "version=\"7\""),
        None,
    );
    assert_eq!(
        rules(&outcome.diagnostics),
        ["net-version-unsupported", "element-ignored"]
    );
    assert!(!outcome.diagnostics[1].is_error());
}

#[test]
fn every_problem_is_reported_not_just_the_first() {
    let layers = format!(
        "{}{}{}{}",
        PARAM.replace("element_type=\"f32\"", "element_type=\"f33\""),
        RELU.replace(
            "<dim>2</dim></port></output>",
            "<dim>x</dim></port></output>"
        ),
        RELU.replace("id=\"1\" name=\"/act/Relu\"", "id=\"1\" name=\"again\""),
        const_layer("element_type=\"f32\" shape=\"2\" offset=\"0\" size=\"8\""),
    );
    let edges =
        format!("{EDGE}<edge from-layer=\"9\" from-port=\"0\" to-layer=\"1\" to-port=\"0\" />\n");
    let outcome = read(&net(&layers, &edges), None);
    assert_eq!(
        rules(&outcome.diagnostics),
        [
            "element-type-unknown",
            "port-dim-invalid",
            "layer-id-duplicate",
            "const-no-weights",
            "edge-dangling-layer",
        ]
    );
}

fn read_error(xml: &str) -> ReadError {
    match read_model_from_str(xml, None) {
        Err(e) => e,
        Ok(outcome) => panic!("expected an error, read {:?}", outcome.diagnostics),
    }
}

#[test]
fn input_that_cannot_be_read() {
    // Unclosed elements.
    let e = read_error("<?xml version=\"1.0\"?>\n<net name=\"t\" version=\"11\">\n<layers>\n");
    assert!(matches!(e, ReadError::Xml { line: 4, .. }), "{e}");
    // Mismatched end tag.
    let e = read_error("<net version=\"11\">\n  <layers></edges>\n</net>");
    assert!(matches!(e, ReadError::Xml { line: 2, .. }), "{e}");
    // A broken layer is still an XML error (a bad entity in an attribute).
    let text = net(&PARAM.replace("name=\"x\"", "name=\"&bogus;\""), "");
    assert!(matches!(read_error(&text), ReadError::Xml { line: 4, .. }));
    // A duplicate attribute.
    let text = net(&PARAM.replace("name=\"x\"", "name=\"x\" name=\"y\""), "");
    let e = read_error(&text);
    assert!(matches!(e, ReadError::Xml { line: 4, .. }), "{e}");
    // Worded as quick-xml's own duplicate check words it, positions counted
    // from the tag's name.
    let tag = "layer id=\"0\" name=\"x\" name=\"y\" type=\"Parameter\"";
    let quick_xml_says = quick_xml::events::attributes::Attributes::new(tag, 5)
        .with_checks(true)
        .find_map(Result::err)
        .map(|e| e.to_string())
        .expect("a duplicate");
    assert!(
        e.to_string().contains(&quick_xml_says),
        "{e} / {quick_xml_says}"
    );
    // Not `<net>`.
    let e = read_error("<?xml version=\"1.0\"?>\n<model version=\"11\" />");
    assert!(
        matches!(&e, ReadError::NotNet { found, line: 2, column: 1 } if found == "model"),
        "{e}"
    );
    // Nothing at all, and two roots.
    assert!(matches!(read_error(""), ReadError::Xml { .. }));
    assert!(matches!(
        read_error("<net version=\"11\"/><net/>"),
        ReadError::Xml { .. }
    ));
    // Error messages carry the position.
    let e = read_error("<net>\n<a>\n</b>\n</net>");
    assert!(e.to_string().contains("line 3"), "{e}");
}

#[test]
fn files_and_default_weights() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ir-xml-diagnostics");
    std::fs::create_dir_all(&dir).expect("dir");
    let xml_path = dir.join("m.xml");
    let missing = dir.join("nope.xml");
    assert!(
        matches!(read_model(&missing, None), Err(ReadError::Io { path, .. }) if path == missing)
    );

    // No `.bin` and no Const needing one: fine.
    std::fs::write(&xml_path, net(&format!("{PARAM}{RELU}"), EDGE)).expect("write");
    let _ = std::fs::remove_file(dir.join("m.bin"));
    let outcome = read_model(&xml_path, None).expect("read");
    assert!(outcome.diagnostics.is_empty());

    // A Const and no `.bin`: a diagnostic naming the file looked for.
    let data = "element_type=\"f32\" shape=\"2\" offset=\"0\" size=\"8\"";
    std::fs::write(&xml_path, net(&const_layer(data), "")).expect("write");
    let outcome = read_model(&xml_path, None).expect("read");
    assert_eq!(rules(&outcome.diagnostics), ["const-no-weights"]);
    assert!(outcome.diagnostics[0].notes[0].contains("m.bin"));

    // The default `.bin` next to the xml, and an explicit one.
    std::fs::write(dir.join("m.bin"), [0u8; 8]).expect("write");
    let outcome = read_model(&xml_path, None).expect("read");
    assert!(outcome.diagnostics.is_empty());
    std::fs::write(dir.join("other.bin"), [0u8; 4]).expect("write");
    let outcome = read_model(&xml_path, Some(&dir.join("other.bin"))).expect("read");
    assert_eq!(rules(&outcome.diagnostics), ["const-out-of-bounds"]);
}

#[test]
fn never_panics_on_truncated_or_mutated_input() {
    let text = net(
        &format!(
            "{PARAM}{RELU}{}",
            const_layer("element_type=\"f32\" shape=\"2\" offset=\"0\" size=\"8\"")
        ),
        EDGE,
    )
        + "<rt_info><symbolic_dims><info name=\"x\" value=\"N\" /></symbolic_dims></rt_info>";
    let text = text.replace("</net>\n<rt_info>", "<rt_info>") + "\n</net>\n";
    assert!(read_model_from_str(&text, Some(ir::TensorBytes::from_vec(vec![0; 8]))).is_ok());
    for end in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
        let _ = read_model_from_str(&text[..end], None);
    }
    let bytes = text.as_bytes();
    for at in 0..bytes.len() {
        for b in [b'<', b'"', b'-', b'9', b'x', b',', b'/'] {
            let mut mutated = bytes.to_vec();
            mutated[at] = b;
            if let Ok(s) = std::str::from_utf8(&mutated) {
                if let Ok(outcome) =
                    read_model_from_str(s, Some(ir::TensorBytes::from_vec(vec![0; 8])))
                {
                    let _ = ir_xml::write_model(&outcome.graph);
                }
            }
        }
    }
}

#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    let depth = 200_000;
    let rt_info = format!(
        "<rt_info>{}{}</rt_info>",
        "<a>".repeat(depth),
        "</a>".repeat(depth)
    );
    let layer = PARAM.replace("<output>", &format!("{rt_info}\n<output>"));
    let outcome = read(&net(&layer, ""), None);
    assert!(outcome.diagnostics.is_empty());
}
