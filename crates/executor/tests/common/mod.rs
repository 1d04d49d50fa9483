//! A small IR builder (copied from shape-infer's dd_ir tests): layers are
//! added in order, each output port declares
//! its rank with `-1` dims (or given dims), and the result is read back with
//! the real reader.
#![allow(dead_code)]

use std::collections::HashMap;

use executor::{ExecError, Executor, Tensor};
use ir::{Graph, TensorBytes};

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

    /// An op with `n` outputs of unknown dims (rank `rank` each).
    pub fn op_multi(
        &mut self,
        name: &str,
        type_name: &str,
        version: &str,
        attrs: &str,
        inputs: &[Out],
        outputs: Vec<Option<Vec<i64>>>,
    ) -> Vec<Out> {
        let n = outputs.len();
        let (id, _) = self.push(Layer {
            xml_head: format!(r#"name="{name}" type="{type_name}" version="{version}""#),
            data: attrs.to_owned(),
            inputs: inputs.to_vec(),
            outputs,
        });
        (0..n).map(|k| (id, k)).collect()
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

impl Net {
    /// An f32 Const.
    pub fn f32s(&mut self, name: &str, shape: &[u64], values: &[f32]) -> Out {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.constant(name, "f32", shape, &bytes)
    }

    /// Runs the net on `inputs`.
    pub fn exec(&self, inputs: Vec<(&str, Tensor)>) -> Result<HashMap<String, Tensor>, ExecError> {
        let exec = Executor::new(&self.graph())?;
        exec.run(inputs.into_iter().map(|(n, t)| (n.to_owned(), t)).collect())
    }
}

/// `0, 1, 2, …` as f32 in `shape`.
pub fn arange(shape: &[usize]) -> Tensor {
    let n: usize = shape.iter().product();
    Tensor::from_vec(shape.to_vec(), (0..n).map(|i| i as f32).collect()).unwrap()
}

/// The f32 values and shape of a result.
pub fn f32_out(out: &HashMap<String, Tensor>, name: &str) -> (Vec<usize>, Vec<f32>) {
    let t = &out[name];
    (t.shape.clone(), t.to_vec::<f32>().unwrap())
}
