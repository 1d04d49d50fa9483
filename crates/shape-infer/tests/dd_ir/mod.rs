//! A small IR builder for the tests of the data-dependent ops (Compress,
//! Extract, NonZero): layers are added in order, each output port declares
//! its rank with `-1` dims (or given dims), and the result is read back with
//! the real reader.
#![allow(dead_code)]

use ir::{Graph, NodeId, Severity, TensorBytes};
use shape_infer::{infer, Inference, Options, Registry};

/// An output of a layer: (layer id, output index).
pub type Out = (usize, usize);

struct Layer {
    xml_head: String,
    data: String,
    inputs: Vec<Out>,
    /// Declared dims per output (`None`: no dims, a scalar or unknown rank).
    outputs: Vec<Option<Vec<i64>>>,
}

#[derive(Default)]
pub struct Net {
    layers: Vec<Layer>,
    weights: Vec<u8>,
}

fn dims_xml(dims: &Option<Vec<i64>>) -> String {
    dims.iter()
        .flatten()
        .map(|d| format!("<dim>{d}</dim>"))
        .collect()
}

impl Net {
    pub fn new() -> Self {
        Net::default()
    }

    fn push(&mut self, layer: Layer) -> Out {
        self.layers.push(layer);
        (self.layers.len() - 1, 0)
    }

    /// A Parameter; `shape` as OpenVINO writes it (`2,?,3`, `...`, `""`).
    pub fn param(&mut self, name: &str, element_type: &str, shape: &str) -> Out {
        let declared = if shape == "..." || shape.is_empty() {
            None
        } else {
            Some(
                shape
                    .split(',')
                    .map(|d| d.trim().parse::<i64>().unwrap_or(-1))
                    .collect(),
            )
        };
        self.push(Layer {
            xml_head: format!(r#"name="{name}" type="Parameter" version="opset1""#),
            data: format!(r#"shape="{shape}" element_type="{element_type}""#),
            inputs: vec![],
            outputs: vec![declared],
        })
    }

    /// A Const of `element_type` and `shape` holding `bytes`.
    pub fn constant(&mut self, name: &str, element_type: &str, shape: &[u64], bytes: &[u8]) -> Out {
        let offset = self.weights.len();
        self.weights.extend_from_slice(bytes);
        let shape_text: Vec<String> = shape.iter().map(u64::to_string).collect();
        let declared = (!shape.is_empty()).then(|| shape.iter().map(|&d| d as i64).collect());
        self.push(Layer {
            xml_head: format!(r#"name="{name}" type="Const" version="opset1""#),
            data: format!(
                r#"element_type="{element_type}" shape="{}" offset="{offset}" size="{}""#,
                shape_text.join(", "),
                bytes.len()
            ),
            inputs: vec![],
            outputs: vec![declared],
        })
    }

    /// A boolean Const.
    pub fn mask(&mut self, name: &str, values: &[bool]) -> Out {
        let bytes: Vec<u8> = values.iter().map(|&b| u8::from(b)).collect();
        self.constant(name, "boolean", &[values.len() as u64], &bytes)
    }

    /// An i64 Const.
    pub fn i64s(&mut self, name: &str, shape: &[u64], values: &[i64]) -> Out {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.constant(name, "i64", shape, &bytes)
    }

    /// Any op with `attrs` (raw `key="value"` text, may be empty), fed by
    /// `inputs`, declaring one output of `declared` dims (`-1`: dynamic).
    pub fn op(
        &mut self,
        name: &str,
        type_name: &str,
        version: &str,
        attrs: &str,
        inputs: &[Out],
        declared: Option<Vec<i64>>,
    ) -> Out {
        self.push(Layer {
            xml_head: format!(r#"name="{name}" type="{type_name}" version="{version}""#),
            data: attrs.to_owned(),
            inputs: inputs.to_vec(),
            outputs: vec![declared],
        })
    }

    pub fn result(&mut self, name: &str, input: Out) {
        self.push(Layer {
            xml_head: format!(r#"name="{name}" type="Result" version="opset1""#),
            data: String::new(),
            inputs: vec![input],
            outputs: vec![],
        });
    }

    pub fn xml(&self) -> String {
        let mut layers = String::new();
        let mut edges = String::new();
        for (id, layer) in self.layers.iter().enumerate() {
            layers.push_str(&format!("\t\t<layer id=\"{id}\" {}>\n", layer.xml_head));
            if !layer.data.is_empty() {
                layers.push_str(&format!("\t\t\t<data {} />\n", layer.data));
            }
            if !layer.inputs.is_empty() {
                layers.push_str("\t\t\t<input>\n");
                for (port, &(src, out)) in layer.inputs.iter().enumerate() {
                    let dims = dims_xml(&self.layers[src].outputs[out]);
                    layers.push_str(&format!("\t\t\t\t<port id=\"{port}\">{dims}</port>\n"));
                    let from_port = self.layers[src].inputs.len() + out;
                    edges.push_str(&format!(
                        "\t\t<edge from-layer=\"{src}\" from-port=\"{from_port}\" to-layer=\"{id}\" to-port=\"{port}\" />\n"
                    ));
                }
                layers.push_str("\t\t\t</input>\n");
            }
            if !layer.outputs.is_empty() {
                layers.push_str("\t\t\t<output>\n");
                for (i, declared) in layer.outputs.iter().enumerate() {
                    let port = layer.inputs.len() + i;
                    layers.push_str(&format!(
                        "\t\t\t\t<port id=\"{port}\">{}</port>\n",
                        dims_xml(declared)
                    ));
                }
                layers.push_str("\t\t\t</output>\n");
            }
            layers.push_str("\t\t</layer>\n");
        }
        format!(
            "<?xml version=\"1.0\"?>\n<net name=\"t\" version=\"11\">\n\t<layers>\n{layers}\t</layers>\n\t<edges>\n{edges}\t</edges>\n</net>\n"
        )
    }

    pub fn graph(&self) -> Graph {
        let weights = TensorBytes::from_vec(self.weights.clone());
        let outcome =
            ir_xml::read_model_from_str(&self.xml(), Some(weights)).expect("well-formed XML");
        assert!(
            outcome.diagnostics.is_empty(),
            "reader: {:?}\n{}",
            outcome.diagnostics,
            self.xml()
        );
        outcome.graph
    }
}

pub fn run(graph: &Graph) -> Inference {
    infer(graph, &Registry::standard(), &Options::default())
}

pub fn node(graph: &Graph, name: &str) -> NodeId {
    graph
        .nodes()
        .find(|(_, n)| n.name == name)
        .map(|(id, _)| id)
        .expect("layer exists")
}

/// The display of the first output shape of layer `name`.
pub fn shape(graph: &Graph, inference: &Inference, name: &str) -> String {
    inference.outcome(node(graph, name)).outputs()[0]
        .shape
        .display(&inference.symbols)
        .to_string()
}

pub fn rules(inference: &Inference) -> Vec<(&'static str, Severity)> {
    inference
        .diagnostics
        .iter()
        .map(|d| (d.rule, d.severity))
        .collect()
}

/// The messages of the diagnostics of rule `rule`.
pub fn messages(inference: &Inference, rule: &str) -> Vec<String> {
    inference
        .diagnostics
        .iter()
        .filter(|d| d.rule == rule)
        .map(|d| d.message.clone())
        .collect()
}

/// The symbolic upper bound of the symbol that is dim `axis` of layer
/// `name`'s output, displayed, with the symbol's numeric range.
pub fn bound_of(
    graph: &Graph,
    inference: &Inference,
    name: &str,
    axis: usize,
) -> (String, Option<i64>, Option<i64>) {
    let t = &inference.outcome(node(graph, name)).outputs()[0];
    let dim = &t.shape.dims().expect("ranked")[axis];
    let s = dim.as_symbol().expect("a symbol");
    let info = inference.symbols.info(s);
    let upper = info
        .upper
        .as_ref()
        .map(|u| inference.symbols.display(u).to_string())
        .unwrap_or_else(|| "none".to_owned());
    (upper, info.range.lo, info.range.hi)
}

/// Reads `ir-samples/<stem>.xml` (and its `.bin`), which must read cleanly.
pub fn read_sample(stem: &str) -> Graph {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ir-samples");
    let xml = dir.join(format!("{stem}.xml"));
    let bin = dir.join(format!("{stem}.bin"));
    let outcome = ir_xml::read_model(&xml, Some(&bin)).expect("sample reads");
    assert!(outcome.diagnostics.is_empty(), "{:?}", outcome.diagnostics);
    outcome.graph
}

/// A node's identity, op and declarations, without source locations.
fn comparable(graph: &Graph) -> Vec<String> {
    graph
        .nodes()
        .map(|(_, n)| {
            let mut n = n.clone();
            n.location = Default::default();
            for port in n.inputs.iter_mut().chain(n.outputs.iter_mut()) {
                port.location = Default::default();
            }
            format!("{n:?}")
        })
        .collect()
}

/// read -> `ir_xml::write_model` -> read gives the same graph (types,
/// versions, attributes, ports, constant bytes, edges), and writing again
/// gives the same text.
pub fn assert_round_trips(graph: &Graph) {
    let (xml, bin) = ir_xml::write_model(graph).expect("write");
    let again = ir_xml::read_model_from_str(&xml, Some(TensorBytes::from_vec(bin.clone())))
        .expect("re-read");
    assert!(again.diagnostics.is_empty(), "{:?}", again.diagnostics);
    assert_eq!(comparable(graph), comparable(&again.graph));
    assert_eq!(
        (&graph.name, &graph.rt_info),
        (&again.graph.name, &again.graph.rt_info)
    );
    let edges = |g: &Graph| {
        g.nodes()
            .map(|(id, _)| format!("{:?}", g.input_sources(id)))
            .collect::<Vec<_>>()
    };
    assert_eq!(edges(graph), edges(&again.graph));
    let (xml2, bin2) = ir_xml::write_model(&again.graph).expect("write again");
    assert_eq!((xml, bin), (xml2, bin2));
}
