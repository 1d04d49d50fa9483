//! A tiny IR builder for the broadcasting/elementwise/Select/MatMul tests:
//! layers with one output each, written as IR XML and read back.
#![allow(dead_code)]

use ir::{Graph, Severity};
use shape_infer::{infer, Inference, Options, Registry};

pub struct Net {
    layers: Vec<String>,
    edges: Vec<String>,
    weights: Vec<u8>,
    /// Output port id of each layer.
    out_port: Vec<usize>,
}

pub struct Run {
    pub graph: Graph,
    pub inference: Inference,
}

impl Default for Net {
    fn default() -> Self {
        Self::new()
    }
}

impl Net {
    pub fn new() -> Self {
        Net {
            layers: Vec::new(),
            edges: Vec::new(),
            weights: Vec::new(),
            out_port: Vec::new(),
        }
    }

    fn push(&mut self, text: String, out_port: usize) -> usize {
        self.layers.push(text);
        self.out_port.push(out_port);
        self.layers.len() - 1
    }

    /// A Parameter; `shape` in OpenVINO syntax (`?,3,2..10`).
    pub fn param(&mut self, name: &str, shape: &str, et: &str) -> usize {
        let id = self.layers.len();
        self.push(
            format!(
                r#"<layer id="{id}" name="{name}" type="Parameter" version="opset1"><data shape="{shape}" element_type="{et}"/><output><port id="0"/></output></layer>"#
            ),
            0,
        )
    }

    fn constant(&mut self, name: &str, shape: &[usize], et: &str, bytes: Vec<u8>) -> usize {
        let id = self.layers.len();
        let offset = self.weights.len();
        let size = bytes.len();
        self.weights.extend(bytes);
        let s: Vec<String> = shape.iter().map(ToString::to_string).collect();
        let dims: String = shape.iter().map(|d| format!("<dim>{d}</dim>")).collect();
        self.push(
            format!(
                r#"<layer id="{id}" name="{name}" type="Const" version="opset1"><data element_type="{et}" shape="{}" offset="{offset}" size="{size}"/><output><port id="0">{dims}</port></output></layer>"#,
                s.join(",")
            ),
            0,
        )
    }

    pub fn const_i64(&mut self, name: &str, shape: &[usize], values: &[i64]) -> usize {
        let bytes = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.constant(name, shape, "i64", bytes)
    }

    pub fn const_bool(&mut self, name: &str, shape: &[usize], values: &[bool]) -> usize {
        let bytes = values.iter().map(|&v| u8::from(v)).collect();
        self.constant(name, shape, "boolean", bytes)
    }

    pub fn const_f32(&mut self, name: &str, shape: &[usize], values: &[f32]) -> usize {
        let bytes = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.constant(name, shape, "f32", bytes)
    }

    /// An op with `inputs` (layer ids) and one output; `attrs` is the text
    /// of the `<data>` element.
    pub fn op(
        &mut self,
        name: &str,
        ty: &str,
        version: &str,
        attrs: &str,
        inputs: &[usize],
    ) -> usize {
        let id = self.layers.len();
        let ports: String = (0..inputs.len())
            .map(|p| format!(r#"<port id="{p}"/>"#))
            .collect();
        for (p, &from) in inputs.iter().enumerate() {
            let fp = self.out_port[from];
            self.edges.push(format!(
                r#"<edge from-layer="{from}" from-port="{fp}" to-layer="{id}" to-port="{p}"/>"#
            ));
        }
        let n = inputs.len();
        self.push(
            format!(
                r#"<layer id="{id}" name="{name}" type="{ty}" version="{version}"><data {attrs}/><input>{ports}</input><output><port id="{n}"/></output></layer>"#
            ),
            n,
        )
    }

    pub fn xml(&self) -> String {
        format!(
            "<?xml version=\"1.0\"?>\n<net name=\"t\" version=\"11\">\n<layers>\n{}\n</layers>\n<edges>\n{}\n</edges>\n</net>\n",
            self.layers.join("\n"),
            self.edges.join("\n")
        )
    }

    /// Adds a Result after `last` and runs inference.
    pub fn run(mut self, last: usize) -> Run {
        let id = self.layers.len();
        let fp = self.out_port[last];
        self.layers.push(format!(
            r#"<layer id="{id}" name="out" type="Result" version="opset1"><input><port id="0"/></input></layer>"#
        ));
        self.edges.push(format!(
            r#"<edge from-layer="{last}" from-port="{fp}" to-layer="{id}" to-port="0"/>"#
        ));
        let xml = self.xml();
        let weights = ir::TensorBytes::from_vec(std::mem::take(&mut self.weights));
        let outcome = ir_xml::read_model_from_str(&xml, Some(weights)).expect("well-formed");
        assert!(
            outcome
                .diagnostics
                .iter()
                .all(|d| d.severity != Severity::Error),
            "reader: {:?}",
            outcome.diagnostics
        );
        let graph = outcome.graph;
        let inference = infer(&graph, &Registry::standard(), &Options::default());
        Run { graph, inference }
    }
}

impl Run {
    fn node(&self, layer: &str) -> ir::NodeId {
        self.graph
            .nodes()
            .find(|(_, n)| n.name == layer)
            .map(|(id, _)| id)
            .expect("layer exists")
    }

    pub fn tensor(&self, layer: &str) -> &shape_infer::TensorInfo {
        &self.inference.outcome(self.node(layer)).outputs()[0]
    }

    /// The display of a layer's output shape.
    pub fn shape(&self, layer: &str) -> String {
        self.tensor(layer)
            .shape
            .display(&self.inference.symbols)
            .to_string()
    }

    pub fn element_type(&self, layer: &str) -> String {
        self.tensor(layer).element_type.name().to_owned()
    }

    /// The display of a layer's output values.
    pub fn value(&self, layer: &str) -> Option<String> {
        self.tensor(layer).value.as_ref().map(|v| {
            let items: Vec<String> = v
                .iter()
                .map(|d| self.inference.symbols.display(d).to_string())
                .collect();
            format!("[{}]", items.join(", "))
        })
    }

    /// Diagnostics other than declared-shape checks (the builder declares
    /// no port dims).
    fn diagnostics(&self) -> Vec<&ir::Diagnostic> {
        self.inference
            .diagnostics
            .iter()
            .filter(|d| d.rule != "declared-shape-mismatch")
            .collect()
    }

    /// Error diagnostics as (rule, message).
    pub fn errors(&self) -> Vec<(&'static str, String)> {
        self.diagnostics()
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| (d.rule, d.message.clone()))
            .collect()
    }

    pub fn assert_clean(&self) {
        let d = self.diagnostics();
        assert!(d.is_empty(), "{d:?}");
    }

    /// The recorded constraints, displayed.
    pub fn constraints(&self) -> Vec<String> {
        self.inference
            .constraints
            .iter()
            .map(|c| {
                self.inference
                    .symbols
                    .display_predicate(&c.predicate)
                    .to_string()
            })
            .collect()
    }
}
