//! Reading a hand-written IR and writing it back.

mod common;

use ir::{DeclaredDim, ElementType, Interval, Op, Shape, SourceLocation};
use ir_xml::write_model;

/// Two Parameters (one with unknown and interval dims), a Const, an Add with
/// rt_info, escaped names and a Result with `output_names`.
pub const MODEL: &str = r#"<?xml version="1.0"?>
<net name="hand &amp; written" version="11">
	<layers>
		<layer id="0" name="/enc/x.0" type="Parameter" version="opset1">
			<data shape="1..8,?,3" element_type="f32" />
			<output>
				<port id="0" precision="FP32" names="x,x\,alias">
					<dim>-1</dim>
					<dim>-1</dim>
					<dim>3</dim>
				</port>
			</output>
		</layer>
		<layer id="1" name="Constant_3" type="Const" version="opset1">
			<data element_type="f32" shape="1, 1, 3" offset="0" size="12" />
			<output>
				<port id="0" precision="FP32">
					<dim>1</dim>
					<dim>1</dim>
					<dim>3</dim>
				</port>
			</output>
		</layer>
		<layer id="2" name="/enc/Add" type="Add" version="opset1">
			<data auto_broadcast="numpy" />
			<rt_info>
				<attribute name="fused_names" version="0" value="a&lt;b, c" />
			</rt_info>
			<input>
				<port id="0" precision="FP32">
					<dim>-1</dim>
					<dim>-1</dim>
					<dim>3</dim>
				</port>
				<port id="1" precision="FP32">
					<dim>1</dim>
					<dim>1</dim>
					<dim>3</dim>
				</port>
			</input>
			<output>
				<port id="2" precision="FP32" names="/enc/Add_output_0">
					<dim>-1</dim>
					<dim>-1</dim>
					<dim>3</dim>
					<rt_info>
						<attribute name="layout" version="0" layout="[N,?,C]" />
					</rt_info>
				</port>
			</output>
		</layer>
		<layer id="3" name="scale" type="Parameter" version="opset1">
			<data shape="" element_type="f32" />
			<output>
				<port id="0" precision="FP32" names="scale" />
			</output>
		</layer>
		<layer id="4" name="Result_6" type="Result" version="opset1" output_names="/enc/Add_output_0">
			<input>
				<port id="0" precision="FP32">
					<dim>-1</dim>
					<dim>-1</dim>
					<dim>3</dim>
				</port>
			</input>
		</layer>
	</layers>
	<edges>
		<edge from-layer="0" from-port="0" to-layer="2" to-port="0" />
		<edge from-layer="1" from-port="0" to-layer="2" to-port="1" />
		<edge from-layer="2" from-port="2" to-layer="4" to-port="0" />
	</edges>
	<rt_info>
		<info name="OpenVINO Runtime" value="2026.4.1-22982-e213a147257-releases/2026/4" />
	</rt_info>
</net>
"#;

fn weights() -> Vec<u8> {
    [1.0f32, 2.0, 3.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

#[test]
fn reads_nodes_ports_edges_and_constants() {
    let outcome = common::read(MODEL, Some(weights()));
    assert!(outcome.diagnostics.is_empty(), "{:#?}", outcome.diagnostics);
    let g = &outcome.graph;
    assert_eq!(g.name, "hand & written");
    assert_eq!(g.ir_version, 11);
    assert_eq!(g.node_count(), 5);
    assert!(g
        .rt_info
        .as_deref()
        .is_some_and(|r| r.starts_with("<rt_info>")
            && r.ends_with("</rt_info>")
            && r.contains("OpenVINO Runtime")));

    let nodes: Vec<_> = g.nodes().map(|(_, n)| n).collect();
    let x = nodes[0];
    assert_eq!(x.id, "0");
    assert_eq!(x.name, "/enc/x.0");
    assert_eq!(x.op_type.name, "Parameter");
    assert_eq!(x.op_type.version, "opset1");
    assert_eq!(x.location, SourceLocation { line: 4, column: 3 });
    assert_eq!(x.outputs[0].names(), ["x", "x,alias"]);
    assert_eq!(x.outputs[0].element_type, Some(ElementType::F32));
    assert_eq!(
        x.outputs[0].dims,
        [
            DeclaredDim::Dynamic,
            DeclaredDim::Dynamic,
            DeclaredDim::Static(3)
        ]
    );
    assert_eq!(x.outputs[0].location, SourceLocation { line: 7, column: 5 });
    let Op::Parameter {
        element_type,
        shape,
    } = &x.op
    else {
        panic!("not a Parameter: {:?}", x.op);
    };
    assert_eq!(*element_type, ElementType::F32);
    let dims = shape.dims().expect("ranked");
    assert_eq!(dims.len(), 3);
    let batch = dims[0].as_symbol().expect("a symbol");
    let seq = dims[1].as_symbol().expect("a symbol");
    assert_ne!(batch, seq);
    assert_eq!(g.symbols.info(batch).range, Interval::new(Some(1), Some(8)));
    assert_eq!(g.symbols.info(seq).range, Interval::new(Some(0), None));
    let provenance = g.symbols.info(seq).provenance.clone().expect("provenance");
    assert_eq!(provenance.layer, "/enc/x.0");
    assert_eq!(provenance.line, 4);
    assert_eq!(provenance.reason, "dim 1 of Parameter `/enc/x.0`");
    assert_eq!(dims[2].as_constant(), Some(3));
    // The attributes stay as written.
    assert_eq!(
        x.attributes.iter().collect::<Vec<_>>(),
        [("shape", "1..8,?,3"), ("element_type", "f32")]
    );

    let c = nodes[1];
    let Op::Constant {
        element_type,
        shape,
        data,
    } = &c.op
    else {
        panic!("not a Constant: {:?}", c.op);
    };
    assert_eq!(*element_type, ElementType::F32);
    assert_eq!(shape, &[1, 1, 3]);
    assert_eq!(data.as_slice(), weights().as_slice());

    let add = nodes[2];
    assert!(matches!(add.op, Op::Other));
    assert_eq!(add.attributes.get("auto_broadcast"), Some("numpy"));
    assert_eq!(
        add.rt_info.as_deref(),
        Some("<rt_info>\n\t\t\t\t<attribute name=\"fused_names\" version=\"0\" value=\"a&lt;b, c\" />\n\t\t\t</rt_info>")
    );
    assert_eq!(add.inputs.len(), 2);
    assert_eq!(add.outputs[0].id, 2);
    assert!(add.outputs[0]
        .rt_info()
        .is_some_and(|r| r.contains("layout=\"[N,?,C]\"")));

    let scale = nodes[3];
    assert!(matches!(&scale.op, Op::Parameter { shape, .. } if **shape == Shape::scalar()));
    assert!(scale.outputs[0].dims.is_empty());

    let result = nodes[4];
    assert!(matches!(result.op, Op::Result));
    assert_eq!(
        result.layer_attributes.get("output_names"),
        Some("/enc/Add_output_0")
    );

    // Edges are port indices: Add's output port id 2 is its output 0.
    let ids: Vec<_> = g.nodes().map(|(id, _)| id).collect();
    let sources = g.input_sources(ids[2]);
    assert_eq!(sources[0][0].node, ids[0]);
    assert_eq!(sources[0][0].output, 0);
    assert_eq!(sources[1][0].node, ids[1]);
    let consumers = g.output_consumers(ids[2]);
    assert_eq!(consumers[0][0].node, ids[4]);
    assert_eq!(consumers[0][0].input, 0);
    assert_eq!(g.graph.edge_count(), 3);
}

#[test]
fn writes_openvino_layout_and_round_trips() {
    let outcome = common::read(MODEL, Some(weights()));
    let (xml, bin) = common::round_trip(&outcome.graph);
    // The hand-written model is in OpenVINO's layout already.
    assert_eq!(xml, MODEL);
    assert_eq!(bin, weights());
}

#[test]
fn constants_are_views_of_the_weights() {
    let weights = ir::TensorBytes::from_vec(weights());
    let outcome = ir_xml::read_model_from_str(MODEL, Some(weights.clone())).expect("read");
    let data = outcome
        .graph
        .nodes()
        .find_map(|(_, n)| match &n.op {
            Op::Constant { data, .. } => Some(data.clone()),
            _ => None,
        })
        .expect("a constant");
    assert!(data.same_view(&weights.slice(0, 12).expect("in range")));
}

#[test]
fn identical_constants_share_one_offset() {
    // Two identical constants at different offsets and a different one.
    let xml = MODEL.replace(
        r#"<layer id="3" name="scale" type="Parameter" version="opset1">
			<data shape="" element_type="f32" />
			<output>
				<port id="0" precision="FP32" names="scale" />
			</output>
		</layer>"#,
        r#"<layer id="3" name="c2" type="Const" version="opset1">
			<data element_type="f32" shape="3" offset="12" size="12" />
			<output>
				<port id="0" precision="FP32">
					<dim>3</dim>
				</port>
			</output>
		</layer>
		<layer id="5" name="c3" type="Const" version="opset1">
			<data element_type="i32" shape="" offset="24" size="4" />
			<output>
				<port id="0" precision="I32" />
			</output>
		</layer>"#,
    );
    let mut bin = weights();
    bin.extend(weights());
    bin.extend(7i32.to_le_bytes());
    let outcome = common::read(&xml, Some(bin));
    assert!(outcome.diagnostics.is_empty(), "{:#?}", outcome.diagnostics);
    let (written, new_bin) = write_model(&outcome.graph).expect("write");
    assert_eq!(new_bin.len(), 16);
    assert!(written.contains(r#"<data element_type="f32" shape="1, 1, 3" offset="0" size="12" />"#));
    assert!(written.contains(r#"<data element_type="f32" shape="3" offset="0" size="12" />"#));
    assert!(written.contains(r#"<data element_type="i32" shape="" offset="12" size="4" />"#));
    common::round_trip(&outcome.graph);
}

#[test]
fn parameter_shapes_are_regenerated() {
    let xml = MODEL.replace(r#"shape="1..8,?,3""#, r#"shape=" 1..8 , -1 ,3 ""#);
    let outcome = common::read(&xml, Some(weights()));
    assert!(outcome.diagnostics.is_empty(), "{:#?}", outcome.diagnostics);
    let (written, _) = write_model(&outcome.graph).expect("write");
    assert_eq!(written, MODEL);
    for (shape, expected) in [("...", "..."), ("..8,2..2,1..", "..8,2,1..")] {
        let xml = MODEL.replace(r#"shape="1..8,?,3""#, &format!(r#"shape="{shape}""#));
        let outcome = common::read(&xml, Some(weights()));
        let (written, _) = write_model(&outcome.graph).expect("write");
        assert!(
            written.contains(&format!(
                r#"<data shape="{expected}" element_type="f32" />"#
            )),
            "{written}"
        );
    }
}

#[test]
fn symbol_names_survive_a_round_trip() {
    let mut outcome = common::read(MODEL, Some(weights()));
    let g = &mut outcome.graph;
    let (_, x) = g.parameters().next().expect("a parameter");
    let Op::Parameter { shape, .. } = &x.op else {
        unreachable!()
    };
    let dims = shape.dims().expect("ranked").to_vec();
    let batch = dims[0].as_symbol().expect("symbol");
    let seq = dims[1].as_symbol().expect("symbol");
    g.symbols.set_name(batch, "N");
    g.symbols.set_name(seq, "S");
    let (xml, _) = common::round_trip(g);
    assert!(xml.contains(
        "\t\t<info name=\"OpenVINO Runtime\" value=\"2026.4.1-22982-e213a147257-releases/2026/4\" />\n\t\t<symbolic_dims>\n\t\t\t<info name=\"/enc/x.0\" value=\"N,S,3\" />\n\t\t</symbolic_dims>\n\t</rt_info>"
    ), "{xml}");
    // The range still goes to the shape.
    assert!(xml.contains(r#"<data shape="1..8,?,3" element_type="f32" />"#));
    let again = common::read(&xml, Some(weights()));
    assert_eq!(again.graph.rt_info, outcome.graph.rt_info);
    assert_eq!(
        again
            .graph
            .symbols
            .lookup("N")
            .map(|s| again.graph.symbols.info(s).range),
        Some(Interval::new(Some(1), Some(8)))
    );
    assert!(again.graph.symbols.lookup("S").is_some());

    // A graph without rt_info gets one just for the names, and loses it on reading.
    let mut bare = outcome.graph.clone();
    bare.rt_info = None;
    let (xml, _) = common::round_trip(&bare);
    assert!(xml.contains("\t<rt_info>\n\t\t<symbolic_dims>\n"), "{xml}");
}

/// Regression (found by the `xml_reader` fuzzer): with a byte-order mark, the
/// verbatim `<rt_info>` was cut three bytes off, and the written model could
/// not be read back.
#[test]
fn a_byte_order_mark_does_not_shift_verbatim_rt_info() {
    let xml = "\u{feff}<?xml version=\"1.0\"?>\n<net name=\"bom\" version=\"11\">\n\t<layers>\n\t\t<layer id=\"0\" name=\"x\" type=\"Parameter\" version=\"opset1\">\n\t\t\t<data shape=\"2\" element_type=\"f32\" />\n\t\t\t<output><port id=\"0\" precision=\"FP32\"><dim>2</dim></port></output>\n\t\t</layer>\n\t\t<layer id=\"1\" name=\"y\" type=\"Result\" version=\"opset1\">\n\t\t\t<input><port id=\"0\" precision=\"FP32\"><dim>2</dim></port></input>\n\t\t</layer>\n\t</layers>\n\t<edges>\n\t\t<edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\" />\n\t</edges>\n\t<rt_info>\n\t\t<info name=\"k\" value=\"v\" />\n\t</rt_info>\n</net>\n";
    let first = ir_xml::read_model_from_str(xml, None).expect("reads");
    assert_eq!(
        first.graph.rt_info.as_deref().map(str::trim_end),
        Some("<rt_info>\n\t\t<info name=\"k\" value=\"v\" />\n\t</rt_info>")
    );
    let (written, bin) = ir_xml::write_model(&first.graph).expect("writes");
    let second = ir_xml::read_model_from_str(&written, Some(ir::TensorBytes::from_vec(bin)))
        .expect("what we wrote reads back");
    assert_eq!(second.graph.rt_info, first.graph.rt_info);
    assert_eq!(
        first.graph.nodes().next().map(|(_, n)| n.location.line),
        Some(4)
    );
}
