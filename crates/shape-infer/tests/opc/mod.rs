//! A small IR builder for the tests of the shape-subgraph and data-movement
//! ops: layers are added in order, each returns its output ports, and `run`
//! writes the XML, reads it back and infers.
#![allow(dead_code)]

use ir::{Graph, Severity};
use shape_infer::overrides::apply_override;
use shape_infer::{infer, Inference, Options, Registry};

/// An output port: (layer id, port id).
#[derive(Clone, Copy, Debug)]
pub struct Out(pub u32, pub u32);

#[derive(Default)]
pub struct Builder {
    layers: Vec<String>,
    edges: Vec<String>,
    weights: Vec<u8>,
    overrides: Vec<String>,
    next: u32,
}

pub struct Run {
    pub graph: Graph,
    pub inference: Inference,
}

impl Builder {
    pub fn new() -> Self {
        Builder::default()
    }

    /// A Parameter; `shape` may name symbols (`N,S,64`, `?`, `2..10`, `...`),
    /// which become a `--shape` override.
    pub fn param(&mut self, name: &str, shape: &str, element_type: &str) -> Out {
        let id = self.next;
        self.next += 1;
        let symbolic = shape.split(',').any(|t| {
            t.trim()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
        });
        let declared: String = if symbolic {
            self.overrides.push(format!("{name}={shape}"));
            shape
                .split(',')
                .map(|t| {
                    if t.trim().parse::<i64>().is_ok() {
                        t.trim()
                    } else {
                        "?"
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        } else {
            shape.to_owned()
        };
        self.layers.push(format!(
            r#"<layer id="{id}" name="{name}" type="Parameter" version="opset1"><data shape="{declared}" element_type="{element_type}" /><output><port id="0" /></output></layer>"#
        ));
        Out(id, 0)
    }

    /// An i64 (or `element_type`) integer constant.
    pub fn const_typed(
        &mut self,
        name: &str,
        element_type: &str,
        shape: &[usize],
        values: &[i64],
    ) -> Out {
        let id = self.next;
        self.next += 1;
        let offset = self.weights.len();
        for &v in values {
            match element_type {
                "i32" => self.weights.extend_from_slice(&(v as i32).to_le_bytes()),
                "f32" => self.weights.extend_from_slice(&(v as f32).to_le_bytes()),
                _ => self.weights.extend_from_slice(&v.to_le_bytes()),
            }
        }
        let size = self.weights.len() - offset;
        let shape_text: Vec<String> = shape.iter().map(ToString::to_string).collect();
        let dims: String = shape.iter().map(|d| format!("<dim>{d}</dim>")).collect();
        self.layers.push(format!(
            r#"<layer id="{id}" name="{name}" type="Const" version="opset1"><data element_type="{element_type}" shape="{}" offset="{offset}" size="{size}" /><output><port id="0">{dims}</port></output></layer>"#,
            shape_text.join(",")
        ));
        Out(id, 0)
    }

    pub fn const_i64(&mut self, name: &str, shape: &[usize], values: &[i64]) -> Out {
        self.const_typed(name, "i64", shape, values)
    }

    /// A 1-D i64 constant.
    pub fn vec(&mut self, name: &str, values: &[i64]) -> Out {
        self.const_i64(name, &[values.len()], values)
    }

    /// A scalar i64 constant.
    pub fn scalar(&mut self, name: &str, value: i64) -> Out {
        self.const_i64(name, &[], &[value])
    }

    /// Any layer with `outputs` output ports.
    pub fn layer(
        &mut self,
        ty: &str,
        version: &str,
        name: &str,
        attrs: &[(&str, &str)],
        inputs: &[Out],
        outputs: usize,
    ) -> Vec<Out> {
        let id = self.next;
        self.next += 1;
        let data: String = attrs
            .iter()
            .map(|(k, v)| format!(r#" {k}="{v}""#))
            .collect();
        let data = if attrs.is_empty() {
            String::new()
        } else {
            format!("<data{data} />")
        };
        let ins: String = (0..inputs.len())
            .map(|i| format!(r#"<port id="{i}" />"#))
            .collect();
        let n = inputs.len() as u32;
        let outs: String = (0..outputs as u32)
            .map(|i| format!(r#"<port id="{}" />"#, n + i))
            .collect();
        self.layers.push(format!(
            r#"<layer id="{id}" name="{name}" type="{ty}" version="{version}">{data}<input>{ins}</input><output>{outs}</output></layer>"#
        ));
        for (i, from) in inputs.iter().enumerate() {
            self.edges.push(format!(
                r#"<edge from-layer="{}" from-port="{}" to-layer="{id}" to-port="{i}" />"#,
                from.0, from.1
            ));
        }
        (0..outputs as u32).map(|i| Out(id, n + i)).collect()
    }

    /// A one-output layer.
    pub fn op(
        &mut self,
        ty: &str,
        version: &str,
        name: &str,
        attrs: &[(&str, &str)],
        inputs: &[Out],
    ) -> Out {
        self.layer(ty, version, name, attrs, inputs, 1)[0]
    }

    pub fn result(&mut self, from: Out) {
        let id = self.next;
        let name = format!("result{id}");
        self.layer("Result", "opset1", &name, &[], &[from], 0);
    }

    pub fn xml(&self) -> String {
        format!(
            "<?xml version=\"1.0\"?>\n<net name=\"t\" version=\"11\">\n<layers>\n{}\n</layers>\n<edges>\n{}\n</edges>\n</net>\n",
            self.layers.join("\n"),
            self.edges.join("\n")
        )
    }

    /// Reads the model (no reader diagnostics allowed), applies the symbolic
    /// parameter shapes and infers.
    pub fn run(&self) -> Run {
        let weights = ir::TensorBytes::from_vec(self.weights.clone());
        let outcome = ir_xml::read_model_from_str(&self.xml(), Some(weights)).expect("well-formed");
        assert!(
            outcome.diagnostics.is_empty(),
            "reader: {:?}",
            outcome.diagnostics
        );
        let mut graph = outcome.graph;
        for o in &self.overrides {
            apply_override(&mut graph, o).expect("override");
        }
        let inference = infer(
            &graph,
            &Registry::standard(),
            &Options {
                check_declared_shapes: false,
                ..Options::default()
            },
        );
        Run { graph, inference }
    }
}

impl Run {
    fn tensor(&self, layer: &str, port: usize) -> &shape_infer::TensorInfo {
        let (id, _) = self
            .graph
            .nodes()
            .find(|(_, n)| n.name == layer)
            .unwrap_or_else(|| panic!("no layer {layer}"));
        &self.inference.outcome(id).outputs()[port]
    }

    /// The output shape of `layer` (first output), as text.
    pub fn shape(&self, layer: &str) -> String {
        self.shape_of_port(layer, 0)
    }

    pub fn shape_of_port(&self, layer: &str, port: usize) -> String {
        self.tensor(layer, port)
            .shape
            .display(&self.inference.symbols)
            .to_string()
    }

    pub fn element_type(&self, layer: &str) -> String {
        self.tensor(layer, 0).element_type.to_string()
    }

    pub fn output_count(&self, layer: &str) -> usize {
        let (id, _) = self.graph.nodes().find(|(_, n)| n.name == layer).unwrap();
        self.inference.outcome(id).outputs().len()
    }

    /// The output value of `layer` as text, `None` when there is none.
    pub fn value(&self, layer: &str) -> Option<String> {
        let v = self.tensor(layer, 0).value.as_ref()?;
        let items: Vec<String> = v
            .iter()
            .map(|d| self.inference.symbols.display(d).to_string())
            .collect();
        Some(format!("[{}]", items.join(", ")))
    }

    /// Whether the layer's outputs were inferred (not taken from declarations).
    pub fn inferred(&self, layer: &str) -> bool {
        let (id, _) = self.graph.nodes().find(|(_, n)| n.name == layer).unwrap();
        matches!(
            self.inference.outcome(id),
            shape_infer::NodeOutcome::Inferred(_)
        )
    }

    /// `(rule, severity)` of every diagnostic.
    pub fn rules(&self) -> Vec<(&'static str, Severity)> {
        self.inference
            .diagnostics
            .iter()
            .map(|d| (d.rule, d.severity))
            .collect()
    }

    /// Asserts there is no diagnostic.
    pub fn clean(&self) -> &Self {
        assert!(
            self.inference.diagnostics.is_empty(),
            "{:?}",
            self.inference.diagnostics
        );
        self
    }

    /// Asserts exactly one error diagnostic, of rule `rule`, on `layer`, whose
    /// message contains `needle`.
    pub fn error(&self, layer: &str, rule: &str, needle: &str) {
        let errors: Vec<_> = self
            .inference
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .collect();
        assert_eq!(errors.len(), 1, "{:?}", self.inference.diagnostics);
        let d = errors[0];
        assert_eq!(d.rule, rule, "{d:?}");
        assert!(
            d.message.contains(needle),
            "message `{}` lacks `{needle}`",
            d.message
        );
        let l = d.layer.as_ref().expect("layer");
        assert_eq!(l.name, layer);
        assert!(!self.inferred(layer));
    }

    /// The recorded constraints, as text.
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
