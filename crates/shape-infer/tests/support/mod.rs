//! Shared support for the integration tests.
//!
//! [`Ir`] builds small OpenVINO IR graphs in code: add Parameters (with a
//! shape string and an element type), Consts (with typed values), any op
//! (with `<data>` attributes and inputs) and Results; it writes the IR XML
//! and the weights, reads them back with the real reader
//! ([`ir_xml::read_model_from_str`]) and runs [`shape_infer::infer`]. The
//! [`Run`] it returns answers what a test asks of the outcome: a layer's
//! output shape as display text, its value, its element type, and the
//! diagnostics' rules and messages.
//!
//! ```ignore
//! let mut ir = Ir::new();
//! let x = ir.param("x", "N,3,H", "f32"); // symbolic: a `--shape` override
//! let c = ir.op("c", "Concat", "opset1", &[("axis", "1")], &[x, x]);
//! let r = ir.run_to(c); // a Result after `c`, then read and infer
//! r.clean();
//! assert_eq!(r.shape("c"), "[N, 6, H]");
//! ```
//!
//! Port declarations: Consts and Parameters declare their output dims (`-1`
//! where a Parameter's dim is not a number), op outputs declare none unless
//! [`Ir::declare`] gives them, and every input port repeats the declaration
//! of the output that feeds it.
//!
//! [`rule`] runs one op rule directly on hand-made tensors, without a graph.
#![allow(dead_code)]

use ir::{Graph, NodeId, Severity, TensorBytes};
use shape_infer::overrides::apply_override;
use shape_infer::{infer, Inference, NodeOutcome, Options, Registry, TensorInfo};

/// An output of a layer: the layer's index in the builder and the output's
/// index among the layer's outputs (not its port id).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Out {
    pub layer: usize,
    pub output: usize,
}

struct Layer {
    name: String,
    type_name: String,
    version: String,
    attrs: Vec<(String, String)>,
    inputs: Vec<Out>,
    /// Declared dims per output (`None`: no `<dim>`s).
    outputs: Vec<Option<Vec<i64>>>,
}

/// A graph under construction; layers get ids in the order they are added.
#[derive(Default)]
pub struct Ir {
    layers: Vec<Layer>,
    weights: Vec<u8>,
    /// `--shape` overrides for Parameters given symbolic shapes.
    overrides: Vec<String>,
}

/// Inference options that skip the declared-shape checks (what the CLI does
/// once input shapes are overridden): op outputs here declare no dims unless
/// told to.
pub fn unchecked() -> Options {
    Options {
        check_declared_shapes: false,
        ..Options::default()
    }
}

fn pairs(attrs: &[(&str, &str)]) -> Vec<(String, String)> {
    attrs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn dims_xml(dims: &Option<Vec<i64>>) -> String {
    dims.iter()
        .flatten()
        .map(|d| format!("<dim>{d}</dim>"))
        .collect()
}

impl Ir {
    pub fn new() -> Self {
        Ir::default()
    }

    fn push(&mut self, layer: Layer) -> Vec<Out> {
        let n = layer.outputs.len();
        self.layers.push(layer);
        let layer = self.layers.len() - 1;
        (0..n).map(|output| Out { layer, output }).collect()
    }

    /// A Parameter of `element_type`. `shape` is in OpenVINO syntax (`2,?,3`,
    /// `1..8`, `...`, `""` for a scalar); dims that name symbols (`N,S,64`)
    /// are written as `?` and applied as a `--shape` override (`x=N,S,64`)
    /// when the graph is read.
    pub fn param(&mut self, name: &str, shape: &str, element_type: &str) -> Out {
        let dims: Vec<&str> = shape.split(',').map(str::trim).collect();
        let symbolic = dims
            .iter()
            .any(|d| d.chars().next().is_some_and(|c| c.is_ascii_alphabetic()));
        let written = if symbolic {
            self.overrides.push(format!("{name}={shape}"));
            let dims: Vec<&str> = dims
                .iter()
                .map(|d| if d.parse::<i64>().is_ok() { d } else { "?" })
                .collect();
            dims.join(",")
        } else {
            shape.to_owned()
        };
        let declared = (shape != "..." && !shape.is_empty())
            .then(|| dims.iter().map(|d| d.parse().unwrap_or(-1)).collect());
        self.push(Layer {
            name: name.into(),
            type_name: "Parameter".into(),
            version: "opset1".into(),
            attrs: pairs(&[("shape", &written), ("element_type", element_type)]),
            inputs: vec![],
            outputs: vec![declared],
        })[0]
    }

    /// A Const of `element_type` and `shape` holding the raw `bytes`.
    pub fn constant(
        &mut self,
        name: &str,
        element_type: &str,
        shape: &[usize],
        bytes: &[u8],
    ) -> Out {
        let offset = self.weights.len().to_string();
        self.weights.extend_from_slice(bytes);
        let shape_text: Vec<String> = shape.iter().map(ToString::to_string).collect();
        let declared = shape.iter().map(|&d| d as i64).collect();
        self.push(Layer {
            name: name.into(),
            type_name: "Const".into(),
            version: "opset1".into(),
            attrs: pairs(&[
                ("element_type", element_type),
                ("shape", &shape_text.join(",")),
                ("offset", &offset),
                ("size", &bytes.len().to_string()),
            ]),
            inputs: vec![],
            outputs: vec![Some(declared)],
        })[0]
    }

    /// An integer Const of `element_type` (`i64`, `i32`, or `f32` holding
    /// the integers as floats).
    pub fn const_ints(
        &mut self,
        name: &str,
        element_type: &str,
        shape: &[usize],
        values: &[i64],
    ) -> Out {
        let bytes: Vec<u8> = match element_type {
            "i64" => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
            "i32" => values
                .iter()
                .flat_map(|&v| (v as i32).to_le_bytes())
                .collect(),
            "f32" => values
                .iter()
                .flat_map(|&v| (v as f32).to_le_bytes())
                .collect(),
            other => panic!("const_ints: unsupported element type {other}"),
        };
        self.constant(name, element_type, shape, &bytes)
    }

    /// An i64 Const.
    pub fn const_i64(&mut self, name: &str, shape: &[usize], values: &[i64]) -> Out {
        self.const_ints(name, "i64", shape, values)
    }

    /// A 1-D i64 Const.
    pub fn vec(&mut self, name: &str, values: &[i64]) -> Out {
        self.const_i64(name, &[values.len()], values)
    }

    /// A scalar i64 Const.
    pub fn scalar(&mut self, name: &str, value: i64) -> Out {
        self.const_i64(name, &[], &[value])
    }

    /// An f32 Const.
    pub fn const_f32(&mut self, name: &str, shape: &[usize], values: &[f32]) -> Out {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.constant(name, "f32", shape, &bytes)
    }

    /// A boolean Const.
    pub fn const_bool(&mut self, name: &str, shape: &[usize], values: &[bool]) -> Out {
        let bytes: Vec<u8> = values.iter().map(|&v| u8::from(v)).collect();
        self.constant(name, "boolean", shape, &bytes)
    }

    /// A 1-D boolean Const.
    pub fn mask(&mut self, name: &str, values: &[bool]) -> Out {
        self.const_bool(name, &[values.len()], values)
    }

    /// Any layer: `type_name` of `version`, with `<data>` attributes `attrs`,
    /// fed by `inputs` (in port order), with `outputs` outputs that declare
    /// no dims.
    pub fn layer(
        &mut self,
        name: &str,
        type_name: &str,
        version: &str,
        attrs: &[(&str, &str)],
        inputs: &[Out],
        outputs: usize,
    ) -> Vec<Out> {
        self.push(Layer {
            name: name.into(),
            type_name: type_name.into(),
            version: version.into(),
            attrs: pairs(attrs),
            inputs: inputs.to_vec(),
            outputs: vec![None; outputs],
        })
    }

    /// A layer with one output.
    pub fn op(
        &mut self,
        name: &str,
        type_name: &str,
        version: &str,
        attrs: &[(&str, &str)],
        inputs: &[Out],
    ) -> Out {
        self.layer(name, type_name, version, attrs, inputs, 1)[0]
    }

    /// Declares the dims of `out` (`-1`: dynamic) on its port.
    pub fn declare(&mut self, out: Out, dims: &[i64]) {
        self.layers[out.layer].outputs[out.output] = Some(dims.to_vec());
    }

    /// A Result fed by `from`, named `result<id>`.
    pub fn result(&mut self, from: Out) {
        let name = format!("result{}", self.layers.len());
        self.named_result(&name, from);
    }

    /// A Result named `name` fed by `from`.
    pub fn named_result(&mut self, name: &str, from: Out) {
        self.layer(name, "Result", "opset1", &[], &[from], 0);
    }

    /// The IR XML text.
    pub fn xml(&self) -> String {
        let mut layers = String::new();
        let mut edges = String::new();
        for (id, layer) in self.layers.iter().enumerate() {
            layers += &format!(
                "\t\t<layer id=\"{id}\" name=\"{}\" type=\"{}\" version=\"{}\">\n",
                layer.name, layer.type_name, layer.version
            );
            if !layer.attrs.is_empty() {
                let attrs: String = layer
                    .attrs
                    .iter()
                    .map(|(k, v)| format!(" {k}=\"{v}\""))
                    .collect();
                layers += &format!("\t\t\t<data{attrs} />\n");
            }
            if !layer.inputs.is_empty() {
                layers += "\t\t\t<input>\n";
                for (port, from) in layer.inputs.iter().enumerate() {
                    let src = &self.layers[from.layer];
                    let dims = dims_xml(&src.outputs[from.output]);
                    layers += &format!("\t\t\t\t<port id=\"{port}\">{dims}</port>\n");
                    let from_port = src.inputs.len() + from.output;
                    edges += &format!(
                        "\t\t<edge from-layer=\"{}\" from-port=\"{from_port}\" to-layer=\"{id}\" to-port=\"{port}\" />\n",
                        from.layer
                    );
                }
                layers += "\t\t\t</input>\n";
            }
            if !layer.outputs.is_empty() {
                layers += "\t\t\t<output>\n";
                for (i, declared) in layer.outputs.iter().enumerate() {
                    let port = layer.inputs.len() + i;
                    let dims = dims_xml(declared);
                    layers += &format!("\t\t\t\t<port id=\"{port}\">{dims}</port>\n");
                }
                layers += "\t\t\t</output>\n";
            }
            layers += "\t\t</layer>\n";
        }
        format!(
            "<?xml version=\"1.0\"?>\n<net name=\"t\" version=\"11\">\n\t<layers>\n{layers}\t</layers>\n\t<edges>\n{edges}\t</edges>\n</net>\n"
        )
    }

    /// The weights (`.bin`) of the Consts.
    pub fn weights(&self) -> &[u8] {
        &self.weights
    }

    /// Reads the XML and weights back (the reader must report nothing) and
    /// applies the overrides of symbolic Parameters.
    pub fn graph(&self) -> Graph {
        let xml = self.xml();
        let weights = TensorBytes::from_vec(self.weights.clone());
        let outcome = ir_xml::read_model_from_str(&xml, Some(weights)).expect("well-formed XML");
        assert!(
            outcome.diagnostics.is_empty(),
            "reader: {:?}\n{xml}",
            outcome.diagnostics
        );
        let mut graph = outcome.graph;
        for o in &self.overrides {
            apply_override(&mut graph, o).expect("override applies");
        }
        graph
    }

    /// Reads the graph and infers without declared-shape checks
    /// ([`unchecked`]).
    pub fn run(&self) -> Run {
        Run::new(self.graph(), &unchecked())
    }

    /// Reads the graph and infers with the default options, which check
    /// inferred shapes against the declared port dims.
    pub fn run_checked(&self) -> Run {
        Run::checked(self.graph())
    }

    /// Reads the graph, applies the `--shape` overrides `overrides`
    /// (`x=N,4`) to its declared Parameter shapes, and infers with the
    /// default options.
    pub fn run_checked_with(&self, overrides: &[&str]) -> Run {
        let mut graph = self.graph();
        for o in overrides {
            apply_override(&mut graph, o).expect("override applies");
        }
        Run::checked(graph)
    }

    /// Adds a Result fed by `last`, then [`Ir::run`].
    pub fn run_to(&mut self, last: Out) -> Run {
        self.result(last);
        self.run()
    }
}

/// A graph and what inference concluded about it.
pub struct Run {
    pub graph: Graph,
    pub inference: Inference,
}

impl Run {
    /// Infers `graph` with `options`.
    pub fn new(graph: Graph, options: &Options) -> Run {
        let inference = infer(&graph, &Registry::standard(), options);
        Run { graph, inference }
    }

    /// Infers `graph` with the default options (declared shapes checked).
    pub fn checked(graph: Graph) -> Run {
        Run::new(graph, &Options::default())
    }

    /// The node of the layer named `layer`.
    pub fn node(&self, layer: &str) -> NodeId {
        self.graph
            .nodes()
            .find(|(_, n)| n.name == layer)
            .map(|(id, _)| id)
            .unwrap_or_else(|| panic!("no layer {layer}"))
    }

    /// Output `output` of `layer`.
    pub fn tensor_of(&self, layer: &str, output: usize) -> &TensorInfo {
        &self.inference.outcome(self.node(layer)).outputs()[output]
    }

    /// The first output of `layer`.
    pub fn tensor(&self, layer: &str) -> &TensorInfo {
        self.tensor_of(layer, 0)
    }

    /// The display of output `output`'s shape of `layer`.
    pub fn shape_of(&self, layer: &str, output: usize) -> String {
        self.tensor_of(layer, output)
            .shape
            .display(&self.inference.symbols)
            .to_string()
    }

    /// The display of the first output shape of `layer`.
    pub fn shape(&self, layer: &str) -> String {
        self.shape_of(layer, 0)
    }

    /// The element type name of the first output of `layer`.
    pub fn element_type(&self, layer: &str) -> String {
        self.tensor(layer).element_type.to_string()
    }

    /// The display of the first output's values (`[2, N + 1]`), `None` when
    /// the value is unknown.
    pub fn value(&self, layer: &str) -> Option<String> {
        let v = self.tensor(layer).value.as_ref()?;
        let items: Vec<String> = v
            .iter()
            .map(|d| self.inference.symbols.display(d).to_string())
            .collect();
        Some(format!("[{}]", items.join(", ")))
    }

    /// The first output's values, which must all be integers, `None` when
    /// the value is unknown.
    pub fn ints(&self, layer: &str) -> Option<Vec<i64>> {
        let v = self.tensor(layer).value.as_ref()?;
        Some(
            v.iter()
                .map(|e| e.as_constant().expect("a constant value"))
                .collect(),
        )
    }

    /// How many outputs `layer` has.
    pub fn output_count(&self, layer: &str) -> usize {
        self.inference.outcome(self.node(layer)).outputs().len()
    }

    /// Whether the layer's rule computed its outputs (rather than their
    /// being taken from the declarations).
    pub fn inferred(&self, layer: &str) -> bool {
        matches!(
            self.inference.outcome(self.node(layer)),
            NodeOutcome::Inferred(_)
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

    /// `(rule, message)` of every error.
    pub fn errors(&self) -> Vec<(&'static str, String)> {
        self.inference
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| (d.rule, d.message.clone()))
            .collect()
    }

    /// The messages of the diagnostics of rule `rule`.
    pub fn messages(&self, rule: &str) -> Vec<String> {
        self.inference
            .diagnostics
            .iter()
            .filter(|d| d.rule == rule)
            .map(|d| d.message.clone())
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

    /// Asserts exactly one error, of rule `rule`, on `layer`, whose message
    /// contains `needle`, and that the layer's outputs were not inferred.
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
        assert_eq!(d.layer.as_ref().expect("layer").name, layer);
        assert!(!self.inferred(layer));
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

    /// For the symbol that is dim `axis` of `layer`'s first output: its
    /// symbolic upper bound displayed (`none` without one) and its numeric
    /// range.
    pub fn bound_of(&self, layer: &str, axis: usize) -> (String, Option<i64>, Option<i64>) {
        let dim = &self.tensor(layer).shape.dims().expect("ranked")[axis];
        let info = self
            .inference
            .symbols
            .info(dim.as_symbol().expect("a symbol"));
        let upper = info
            .upper
            .as_ref()
            .map(|u| self.inference.symbols.display(u).to_string())
            .unwrap_or_else(|| "none".to_owned());
        (upper, info.range.lo, info.range.hi)
    }
}

/// A graph `x` (f32 Parameter of `param_shape`) -> `op` (of `type_name` in
/// `opset`, with `attrs`, fed by `x` then the 1-D i64 Consts `consts`) ->
/// Result, inferred without declared-shape checks: the op's shape display
/// and the diagnostics' rule names.
pub fn single_op(
    param_shape: &str,
    type_name: &str,
    opset: &str,
    attrs: &[(&str, &str)],
    consts: &[&[i64]],
) -> (String, Vec<&'static str>) {
    let mut ir = Ir::new();
    let mut inputs = vec![ir.param("x", param_shape, "f32")];
    for (i, c) in consts.iter().enumerate() {
        inputs.push(ir.vec(&format!("c{i}"), c));
    }
    let op = ir.op("op", type_name, opset, attrs, &inputs);
    let r = ir.run_to(op);
    let rules = r.rules().into_iter().map(|(rule, _)| rule).collect();
    (r.shape("op"), rules)
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

/// One op rule run directly on hand-made input tensors (symbolic shapes and
/// values), without a graph.
pub mod rule {
    use ir::{Dim, ElementType, Shape};
    use shape_infer::registry::{OpCall, Resolution};
    use shape_infer::{InferContext, Registry, ShapeError, TensorInfo};
    use symdim::{Expr, Interval, SymbolTable};

    /// A context whose table knows the symbols `names` (each `[0, ∞)` unless
    /// given as `NAME:lo`).
    pub fn ctx(names: &[&str]) -> InferContext<'static> {
        let mut t = SymbolTable::new();
        for n in names {
            match n.split_once(':') {
                Some((n, lo)) => t.named(n, Interval::new(lo.parse().ok(), None)),
                None => t.named(n, Interval::nonnegative()),
            };
        }
        InferContext::new(t)
    }

    /// Dims from text like `N, 3, D`.
    pub fn dims(ctx: &mut InferContext, text: &str) -> Vec<Dim> {
        if text.trim().is_empty() {
            return Vec::new();
        }
        text.split(',')
            .map(|d| ctx.symbols.parse_expr(d.trim()).expect("dim parses"))
            .collect()
    }

    /// An f32 tensor of shape `text`.
    pub fn data(ctx: &mut InferContext, text: &str) -> TensorInfo {
        TensorInfo::new(ElementType::F32, Shape::ranked(dims(ctx, text)))
    }

    /// An i64 1-D tensor carrying the values `text`.
    pub fn values(ctx: &mut InferContext, text: &str) -> TensorInfo {
        let v = dims(ctx, text);
        TensorInfo::new(ElementType::I64, Shape::from_static(&[v.len() as i64])).with_value(v)
    }

    /// An i64 1-D tensor carrying the integer values `v`.
    pub fn ints(v: &[i64]) -> TensorInfo {
        TensorInfo::new(ElementType::I64, Shape::from_static(&[v.len() as i64]))
            .with_value(v.iter().map(|&x| Expr::constant(x)).collect::<Vec<_>>())
    }

    /// An i64 tensor of static shape `shape` whose values are unknown.
    pub fn unknown(shape: &[i64]) -> TensorInfo {
        TensorInfo::new(ElementType::I64, Shape::from_static(shape))
    }

    /// Runs the rule of `type_name` (resolved in `opset`) with `attrs`.
    pub fn run(
        ctx: &mut InferContext,
        type_name: &str,
        opset: &str,
        attrs: &[(&str, &str)],
        inputs: &[TensorInfo],
    ) -> Result<Vec<TensorInfo>, ShapeError> {
        let registry = Registry::standard();
        let Resolution::Known(def, version) = registry.resolve(type_name, opset) else {
            panic!("{type_name} {opset} is not registered");
        };
        let node = ir::Node {
            id: "7".into(),
            name: "op".into(),
            op_type: ir::OpType {
                name: type_name.into(),
                version: opset.into(),
            },
            op: ir::Op::Other,
            attributes: attrs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            layer_attributes: ir::Attributes::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            rt_info: None,
            location: Default::default(),
        };
        let inputs: Vec<&TensorInfo> = inputs.iter().collect();
        (def.infer)(
            ctx,
            &OpCall {
                node: &node,
                version,
                inputs: &inputs,
            },
        )
    }

    /// The display of output 0's shape.
    pub fn shape0(ctx: &InferContext, out: &[TensorInfo]) -> String {
        out[0].shape.display(&ctx.symbols).to_string()
    }

    /// The display of output 0's values.
    pub fn values0(ctx: &InferContext, out: &[TensorInfo]) -> Option<String> {
        let v = out[0].value.as_ref()?;
        let items: Vec<_> = v
            .iter()
            .map(|d| ctx.symbols.display(d).to_string())
            .collect();
        Some(format!("[{}]", items.join(", ")))
    }

    /// The recorded constraints, displayed.
    pub fn constraints(ctx: &InferContext) -> Vec<String> {
        ctx.constraints()
            .iter()
            .map(|c| ctx.symbols.display_predicate(&c.predicate).to_string())
            .collect()
    }

    /// The rule name and message of a failure.
    pub fn failure(r: Result<Vec<TensorInfo>, ShapeError>) -> (&'static str, String) {
        let e = r.expect_err("the rule must fail");
        (e.rule_name(), e.to_string())
    }
}
