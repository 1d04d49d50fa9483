//! Helpers shared by the Reshape/Slice/StridedSlice/Squeeze tests: run one
//! op rule on hand-made input tensors (symbolic shapes and values), and run
//! small IR graphs end to end.
#![allow(dead_code)]

use ir::{Dim, ElementType, Shape};
use shape_infer::registry::{OpCall, Resolution};
use shape_infer::{InferContext, Registry, ShapeError, TensorInfo};
use symdim::{Expr, Interval, SymbolTable};

/// A context whose table knows the symbols `names` (each `[0, ∞)` unless
/// given as `NAME:lo`).
pub fn ctx(names: &[&str]) -> InferContext {
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
        .with_value(v.iter().map(|&x| Expr::constant(x)).collect())
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
    (def.infer)(
        ctx,
        &OpCall {
            node: &node,
            version,
            inputs,
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

/// A graph: Parameter `x` (f32, `param_shape`) -> `op` (with i64 Const inputs
/// `consts`, in order after x) -> Result; returns the op's inferred shape
/// display and the diagnostics' rule names.
pub fn graph(
    param_shape: &str,
    op: &str,
    opset: &str,
    attrs: &str,
    consts: &[&[i64]],
) -> (String, Vec<&'static str>) {
    let mut bytes = Vec::new();
    let mut layers = format!(
        r#"<layer id="0" name="x" type="Parameter" version="opset1"><data shape="{param_shape}" element_type="f32"/><output><port id="0" precision="FP32"/></output></layer>"#
    );
    let mut edges = String::new();
    let op_id = consts.len() + 1;
    let mut in_ports = String::from(r#"<port id="0" precision="FP32"/>"#);
    for (i, c) in consts.iter().enumerate() {
        let offset = bytes.len();
        for v in *c {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        layers += &format!(
            r#"<layer id="{}" name="c{i}" type="Const" version="opset1"><data element_type="i64" shape="{}" offset="{offset}" size="{}"/><output><port id="0" precision="I64"><dim>{}</dim></port></output></layer>"#,
            i + 1,
            c.len(),
            c.len() * 8,
            c.len()
        );
        in_ports += &format!(
            r#"<port id="{}" precision="I64"><dim>{}</dim></port>"#,
            i + 1,
            c.len()
        );
        edges += &format!(
            r#"<edge from-layer="{}" from-port="0" to-layer="{op_id}" to-port="{}"/>"#,
            i + 1,
            i + 1
        );
    }
    let out_port = consts.len() + 1;
    layers += &format!(
        r#"<layer id="{op_id}" name="op" type="{op}" version="{opset}"><data {attrs}/><input>{in_ports}</input><output><port id="{out_port}" precision="FP32"/></output></layer>"#
    );
    layers += &format!(
        r#"<layer id="{}" name="out" type="Result" version="opset1"><input><port id="0" precision="FP32"/></input></layer>"#,
        op_id + 1
    );
    edges += &format!(r#"<edge from-layer="0" from-port="0" to-layer="{op_id}" to-port="0"/>"#);
    edges += &format!(
        r#"<edge from-layer="{op_id}" from-port="{out_port}" to-layer="{}" to-port="0"/>"#,
        op_id + 1
    );
    let xml = format!(
        r#"<?xml version="1.0"?><net name="t" version="11"><layers>{layers}</layers><edges>{edges}</edges></net>"#
    );
    let outcome = ir_xml::read_model_from_str(&xml, Some(ir::TensorBytes::from_vec(bytes)))
        .expect("well-formed");
    assert!(outcome.diagnostics.is_empty(), "{:?}", outcome.diagnostics);
    let g = outcome.graph;
    let options = shape_infer::Options {
        check_declared_shapes: false,
        ..Default::default()
    };
    let inference = shape_infer::infer(&g, &Registry::standard(), &options);
    let (id, _) = g.nodes().find(|(_, n)| n.name == "op").expect("op");
    let shape = inference.outcome(id).outputs()[0]
        .shape
        .display(&inference.symbols)
        .to_string();
    let rules = inference.diagnostics.iter().map(|d| d.rule).collect();
    (shape, rules)
}
