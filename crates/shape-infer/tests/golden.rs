//! Golden comparison with OpenVINO, layer by layer.
//!
//! Cases: every `tests/golden/<case>.json` (written by `scripts/gen_op_goldens.py`)
//! and every `ir-samples/golden/<name>.json` (written by `scripts/gen_samples.py`)
//! and `ir-samples/models/golden/<name>.json` (real vision models, written by
//! `scripts/gen_vision_models.py`) and `ir-samples/bodies/golden/<name>.json`
//! (PyTorch modules with control flow, by `scripts/gen_torch_body_models.py`;
//! their body layers are compared by `crates/ir-check/tests/body_models.rs`).
//! Both hold OpenVINO 2026.4.1's view of a model: per op (friendly name) the
//! element type and partial shape of each output, for the model as saved
//! (`dynamic`) and after `model.reshape(binding)` to static input shapes
//! (`static_bindings`); invalid cases (`invalid`) hold the error OpenVINO gave.
//!
//! For every case, with strict options (unknown ops are errors):
//!
//! * (a) dynamic model: no error diagnostic, every layer inferred (not declared),
//!   same output count and element types, same rank where OpenVINO knows it,
//!   every dim OpenVINO reports static is that constant in ours, and a constant
//!   of ours lies inside OpenVINO's interval;
//! * (b) each static binding, applied with `apply_override` on a fresh read:
//!   every layer's shape is exactly OpenVINO's (where OpenVINO is static); a
//!   binding OpenVINO rejects must give us an error too;
//! * (c) symbolic agreement: our dynamic-model shapes, evaluated with each
//!   Parameter symbol bound to the binding's value, equal OpenVINO's static
//!   shapes at that binding, and every recorded constraint holds there;
//! * (d) invalid cases: we report an error (besides `op-unknown`); our rules
//!   are printed next to the expected one.
//!
//! Every mismatch of every case is collected; the test fails once with the list.
//! `GOLDEN_ONLY=<substring>` restricts the run to cases whose name contains it;
//! `GOLDEN_DIR=<dir>` reads the cases of another folder instead.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use ir::{Graph, NodeId, Severity, Shape};
use serde_json::Value;
use shape_infer::overrides::{apply_override, find_parameter};
use shape_infer::{infer, Inference, NodeOutcome, Options, Registry};
use symdim::{Expr, SymbolId};

// ---------------------------------------------------------------------------
// The golden files
// ---------------------------------------------------------------------------

/// One dim as OpenVINO prints it: `3`, `?`, `2..10`, `2..`, `..5`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OvDim {
    Static(i64),
    Interval(i64, Option<i64>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum OvShape {
    DynamicRank,
    Ranked(Vec<OvDim>),
}

impl OvShape {
    fn parse(text: &str) -> Result<OvShape, String> {
        let inner = text
            .trim()
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
            .ok_or_else(|| format!("shape `{text}` is not bracketed"))?
            .trim();
        if inner == "..." {
            return Ok(OvShape::DynamicRank);
        }
        if inner.is_empty() {
            return Ok(OvShape::Ranked(Vec::new()));
        }
        let num = |t: &str| -> Result<i64, String> {
            t.trim()
                .parse::<i64>()
                .map_err(|_| format!("bad dim `{t}` in `{text}`"))
        };
        inner
            .split(',')
            .map(|d| {
                let d = d.trim();
                if d == "?" {
                    Ok(OvDim::Interval(0, None))
                } else if let Some((lo, hi)) = d.split_once("..") {
                    let lo = if lo.is_empty() { 0 } else { num(lo)? };
                    let hi = if hi.is_empty() { None } else { Some(num(hi)?) };
                    Ok(OvDim::Interval(lo, hi))
                } else {
                    num(d).map(OvDim::Static)
                }
            })
            .collect::<Result<_, _>>()
            .map(OvShape::Ranked)
    }

    fn is_static(&self) -> bool {
        matches!(self, OvShape::Ranked(d) if d.iter().all(|d| matches!(d, OvDim::Static(_))))
    }
}

#[derive(Debug)]
struct OvOp {
    name: String,
    type_name: String,
    /// Per output: element type name and shape.
    outputs: Vec<(String, OvShape)>,
}

#[derive(Debug)]
struct OvBinding {
    /// Parameter (friendly) name and its static dims, in file order.
    inputs: Vec<(String, Vec<i64>)>,
    /// OpenVINO's view after the reshape, or why it rejected the binding.
    result: Result<Vec<OvOp>, String>,
}

#[derive(Debug)]
struct InvalidSpec {
    expected_rule: String,
    layer: String,
    error: String,
}

#[derive(Debug)]
struct Case {
    name: String,
    xml: PathBuf,
    dynamic: Vec<OvOp>,
    bindings: Vec<OvBinding>,
    invalid: Option<InvalidSpec>,
}

fn str_field<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("missing string field `{key}`"))
}

fn parse_ops(v: &Value) -> Result<Vec<OvOp>, String> {
    v.as_array()
        .ok_or("ops are not a list")?
        .iter()
        .map(|op| {
            let outputs = op
                .get("outputs")
                .and_then(Value::as_array)
                .ok_or("op without `outputs`")?
                .iter()
                .map(|o| {
                    Ok((
                        str_field(o, "element_type")?.to_owned(),
                        OvShape::parse(str_field(o, "shape")?)?,
                    ))
                })
                .collect::<Result<_, String>>()?;
            Ok(OvOp {
                name: str_field(op, "name")?.to_owned(),
                type_name: str_field(op, "type")?.to_owned(),
                outputs,
            })
        })
        .collect()
}

fn parse_case(json_path: &Path, xml_dir: &Path) -> Result<Case, String> {
    let text = std::fs::read_to_string(json_path).map_err(|e| e.to_string())?;
    let v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let name = json_path
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or("bad file name")?
        .to_owned();
    let xml = xml_dir.join(str_field(&v, "model")?);
    let dynamic = parse_ops(v.get("dynamic").ok_or("missing `dynamic`")?)?;
    let bindings = v
        .get("static_bindings")
        .and_then(Value::as_array)
        .ok_or("missing `static_bindings`")?
        .iter()
        .map(|b| {
            let inputs = b
                .get("inputs")
                .and_then(Value::as_object)
                .ok_or("binding without `inputs`")?
                .iter()
                .map(|(k, dims)| {
                    let dims = dims
                        .as_array()
                        .ok_or("binding dims are not a list")?
                        .iter()
                        .map(|d| d.as_i64().ok_or("binding dim is not an integer"))
                        .collect::<Result<Vec<i64>, _>>()?;
                    Ok((k.clone(), dims))
                })
                .collect::<Result<Vec<_>, String>>()?;
            // `gen_samples.py` writes only `error`; `gen_op_goldens.py` adds `invalid: true`.
            let result = match (b.get("error").and_then(Value::as_str), b.get("ops")) {
                (Some(error), _) => Err(error.to_owned()),
                (None, Some(ops)) => Ok(parse_ops(ops)?),
                (None, None) => return Err("binding with neither `ops` nor `error`".to_owned()),
            };
            Ok(OvBinding { inputs, result })
        })
        .collect::<Result<_, String>>()?;
    let invalid = match v.get("invalid") {
        None => None,
        Some(inv) => Some(InvalidSpec {
            expected_rule: str_field(inv, "expected_rule")?.to_owned(),
            layer: str_field(inv, "layer")?.to_owned(),
            error: str_field(inv, "error")?.to_owned(),
        }),
    };
    Ok(Case {
        name,
        xml,
        dynamic,
        bindings,
        invalid,
    })
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

// ---------------------------------------------------------------------------
// Running our inference
// ---------------------------------------------------------------------------

fn read(xml: &Path) -> Result<(Graph, Vec<String>), String> {
    let outcome = ir_xml::read_model(xml, None).map_err(|e| format!("unreadable: {e}"))?;
    let errors = outcome
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("reader error[{}]: {}", d.rule, d.message))
        .collect();
    Ok((outcome.graph, errors))
}

fn run(graph: &Graph, check_declared_shapes: bool) -> Inference {
    let options = Options {
        allow_unknown_ops: false,
        check_declared_shapes,
        ..Options::default()
    };
    infer(graph, &Registry::standard(), &options)
}

fn error_diagnostics(inference: &Inference) -> Vec<(&'static str, String)> {
    inference
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| {
            let layer = d.layer.as_ref().map_or("-", |l| l.name.as_str());
            (
                d.rule,
                format!("error[{}] at `{layer}`: {}", d.rule, d.message),
            )
        })
        .collect()
}

/// Layer name -> node ids (in file order; names are normally unique).
fn by_name(graph: &Graph) -> HashMap<&str, Vec<NodeId>> {
    let mut map: HashMap<&str, Vec<NodeId>> = HashMap::new();
    for (id, node) in graph.nodes() {
        map.entry(node.name.as_str()).or_default().push(id);
    }
    map
}

/// How strictly [`pair`] wants both graphs to hold the same layers.
#[derive(Clone, Copy, PartialEq)]
enum Pairing {
    /// The model as saved: every layer on both sides.
    Exact,
    /// After `model.reshape`: OpenVINO constant-folds subgraphs that became
    /// static into new Constants, so our folded-away layers and its new
    /// Constants have no partner. Every other op of OpenVINO must have one.
    AfterReshape,
}

/// Pairs OpenVINO's ops with our nodes by friendly name (the k-th op of a name
/// with the k-th node of that name), reporting ops or nodes without a partner.
fn pair<'o>(
    graph: &Graph,
    ov: &'o [OvOp],
    out: &mut Vec<String>,
    what: &str,
    pairing: Pairing,
) -> Vec<(&'o OvOp, NodeId)> {
    let names = by_name(graph);
    let mut used: HashMap<&str, usize> = HashMap::new();
    let mut pairs = Vec::new();
    for op in ov {
        let k = used.entry(op.name.as_str()).or_default();
        match names.get(op.name.as_str()).and_then(|ids| ids.get(*k)) {
            Some(&id) => pairs.push((op, id)),
            None if pairing == Pairing::AfterReshape && op.type_name == "Constant" => {}
            None => out.push(format!(
                "{what}: OpenVINO's {} `{}` has no layer of that name in our graph",
                op.type_name, op.name
            )),
        }
        *k += 1;
    }
    if pairing == Pairing::AfterReshape {
        return pairs;
    }
    for (name, ids) in &names {
        let seen = used.get(name).copied().unwrap_or(0);
        // A Const nothing reads is no op of OpenVINO's (its ordered ops are
        // what the Results reach): its writer leaves LSTMCell-1's peepholes
        // such a Const.
        let read = ids
            .iter()
            .skip(seen)
            .filter(|&&id| {
                graph.node(id).op_type.name != "Const"
                    || graph.output_consumers(id).iter().any(|c| !c.is_empty())
            })
            .count();
        if read > 0 {
            out.push(format!(
                "{what}: our layer `{name}` is not among OpenVINO's ops"
            ));
        }
    }
    pairs
}

fn show_ours(inference: &Inference, shape: &Shape) -> String {
    shape.display(&inference.symbols).to_string()
}

fn show_ov(shape: &OvShape) -> String {
    match shape {
        OvShape::DynamicRank => "[...]".to_owned(),
        OvShape::Ranked(dims) => {
            let dims: Vec<String> = dims
                .iter()
                .map(|d| match d {
                    OvDim::Static(v) => v.to_string(),
                    OvDim::Interval(0, None) => "?".to_owned(),
                    OvDim::Interval(lo, None) => format!("{lo}.."),
                    OvDim::Interval(lo, Some(hi)) => format!("{lo}..{hi}"),
                })
                .collect();
            format!("[{}]", dims.join(","))
        }
    }
}

/// Compares one of our shapes with OpenVINO's: rank where OpenVINO knows it,
/// every static dim of OpenVINO's, and our constants inside OpenVINO's intervals.
fn compare_shape(ours: &Shape, ov: &OvShape) -> Option<String> {
    let OvShape::Ranked(ov_dims) = ov else {
        return None;
    };
    let Some(dims) = ours.dims() else {
        return Some(format!("OpenVINO knows the rank ({})", ov_dims.len()));
    };
    if dims.len() != ov_dims.len() {
        return Some(format!(
            "rank {} vs OpenVINO's {}",
            dims.len(),
            ov_dims.len()
        ));
    }
    for (axis, (d, o)) in dims.iter().zip(ov_dims).enumerate() {
        match (*o, d.as_constant()) {
            (OvDim::Static(v), Some(c)) if v != c => {
                return Some(format!("dim {axis} is {c}, OpenVINO says {v}"))
            }
            (OvDim::Static(v), None) => {
                return Some(format!("dim {axis} is not static, OpenVINO says {v}"))
            }
            (OvDim::Interval(lo, hi), Some(c)) if c < lo || hi.is_some_and(|hi| c > hi) => {
                return Some(format!(
                    "dim {axis} is {c}, outside OpenVINO's {}",
                    show_ov(&OvShape::Ranked(vec![*o]))
                ))
            }
            _ => {}
        }
    }
    None
}

/// Checks every paired layer: inferred (not declared), output count, element
/// types, shapes.
fn compare_layers(
    graph: &Graph,
    inference: &Inference,
    ov: &[OvOp],
    what: &str,
    pairing: Pairing,
    out: &mut Vec<String>,
) {
    for (op, id) in pair(graph, ov, out, what, pairing) {
        let outcome = inference.outcome(id);
        let ours = outcome.outputs();
        if let NodeOutcome::Declared(_) = outcome {
            out.push(format!(
                "{what}: `{}` ({}): not inferred (it carries its declared shapes)",
                op.name, op.type_name
            ));
            continue;
        }
        if ours.len() != op.outputs.len() {
            out.push(format!(
                "{what}: `{}` ({}): {} output(s), OpenVINO has {}",
                op.name,
                op.type_name,
                ours.len(),
                op.outputs.len()
            ));
        }
        for (port, (tensor, (ov_type, ov_shape))) in ours.iter().zip(&op.outputs).enumerate() {
            if tensor.element_type.name() != ov_type {
                out.push(format!(
                    "{what}: `{}` ({}) output {port}: element type {}, OpenVINO says {ov_type}",
                    op.name, op.type_name, tensor.element_type
                ));
            }
            if let Some(why) = compare_shape(&tensor.shape, ov_shape) {
                out.push(format!(
                    "{what}: `{}` ({}) output {port}: {} vs OpenVINO's {}: {why}",
                    op.name,
                    op.type_name,
                    show_ours(inference, &tensor.shape),
                    show_ov(ov_shape)
                ));
            }
        }
    }
}

/// The value of each Parameter symbol of the dynamic inference at `binding`.
fn symbol_values(
    graph: &Graph,
    inference: &Inference,
    binding: &OvBinding,
    what: &str,
    out: &mut Vec<String>,
) -> BTreeMap<SymbolId, i64> {
    let mut values = BTreeMap::new();
    for (name, dims) in &binding.inputs {
        let Some(id) = find_parameter(graph, name) else {
            out.push(format!("{what}: no Parameter `{name}`"));
            continue;
        };
        let Some(ours) = inference
            .outcome(id)
            .outputs()
            .first()
            .and_then(|t| t.shape.dims())
        else {
            continue; // dynamic rank: nothing to bind
        };
        if ours.len() != dims.len() {
            continue; // a binding of another rank: our symbols do not apply
        }
        for (axis, (d, &v)) in ours.iter().zip(dims).enumerate() {
            if let Some(s) = d.as_symbol() {
                if let Some(old) = values.insert(s, v) {
                    if old != v {
                        out.push(format!(
                            "{what}: Parameter `{name}` dim {axis} is symbol {} bound to both {old} and {v}",
                            inference.symbols.display(d)
                        ));
                    }
                }
            }
        }
    }
    values
}

/// (c): our dynamic shapes evaluated at the binding against OpenVINO's static shapes.
fn compare_symbolic(
    graph: &Graph,
    dynamic: &Inference,
    binding: &OvBinding,
    ov_ops: &[OvOp],
    what: &str,
    out: &mut Vec<String>,
    notes: &mut Vec<String>,
) {
    let values = symbol_values(graph, dynamic, binding, what, out);
    let lookup = |s: SymbolId| values.get(&s).copied();
    let mut quiet = Vec::new(); // pairing problems are reported by (a) and (b)
    let mut unevaluated = 0;
    for (op, id) in pair(graph, ov_ops, &mut quiet, what, Pairing::AfterReshape) {
        let ours = dynamic.outcome(id).outputs();
        for (port, (tensor, (_, ov_shape))) in ours.iter().zip(&op.outputs).enumerate() {
            let (Some(dims), OvShape::Ranked(ov_dims)) = (tensor.shape.dims(), ov_shape) else {
                continue;
            };
            if dims.len() != ov_dims.len() {
                continue; // reported by (a) when OpenVINO's dynamic rank is known
            }
            let evaluated: Vec<Option<i64>> = dims.iter().map(|d| d.eval(&lookup).ok()).collect();
            unevaluated += evaluated.iter().filter(|e| e.is_none()).count();
            let differs = evaluated.iter().zip(ov_dims).any(|(e, o)| match (e, o) {
                (Some(e), OvDim::Static(v)) => e != v,
                _ => false,
            });
            if differs {
                let shown: Vec<String> = evaluated
                    .iter()
                    .map(|e| e.map_or("?".to_owned(), |e| e.to_string()))
                    .collect();
                out.push(format!(
                    "{what} (symbolic): `{}` ({}) output {port}: {} evaluates to [{}], OpenVINO says {}",
                    op.name,
                    op.type_name,
                    show_ours(dynamic, &tensor.shape),
                    shown.join(","),
                    show_ov(ov_shape)
                ));
            }
        }
    }
    if unevaluated > 0 {
        notes.push(format!(
            "{what} (symbolic): {unevaluated} dim(s) use symbols made by inference and were not evaluated"
        ));
    }
    for c in &dynamic.constraints {
        if let Ok(false) = c.predicate.eval(&lookup) {
            out.push(format!(
                "{what} (symbolic): constraint `{}` recorded at `{}` is false at a binding OpenVINO accepts",
                dynamic.symbols.display_predicate(&c.predicate),
                c.layer.name
            ));
        }
    }
}

fn override_spec(name: &str, dims: &[i64]) -> String {
    let dims: Vec<String> = dims.iter().map(i64::to_string).collect();
    format!("{name}={}", dims.join(","))
}

fn check_case(case: &Case, out: &mut Vec<String>, notes: &mut Vec<String>) {
    let name = &case.name;
    let (graph, reader_errors) = match read(&case.xml) {
        Ok(r) => r,
        Err(e) => {
            out.push(format!("{name}: {e}"));
            return;
        }
    };

    if let Some(invalid) = &case.invalid {
        // (d) OpenVINO rejects this model: so must we. Declarations are stale
        // after the edit, so only the rules speak.
        let inference = run(&graph, false);
        let errors = error_diagnostics(&inference);
        for (rule, text) in &errors {
            if *rule == "op-unknown" {
                out.push(format!("{name}: {text}"));
            }
        }
        let ours: Vec<&str> = errors
            .iter()
            .map(|(r, _)| *r)
            .filter(|r| *r != "op-unknown")
            .collect();
        if ours.is_empty() && reader_errors.is_empty() {
            out.push(format!(
                "{name}: OpenVINO rejects the model ({}), we report no error (expected rule `{}` at `{}`)",
                invalid.error, invalid.expected_rule, invalid.layer
            ));
        }
        notes.push(format!(
            "{name}: expected `{}` at `{}`; ours: [{}]{}",
            invalid.expected_rule,
            invalid.layer,
            ours.join(", "),
            if reader_errors.is_empty() {
                String::new()
            } else {
                format!(" reader: {reader_errors:?}")
            }
        ));
        return;
    }

    // (a) the dynamic model.
    for e in &reader_errors {
        out.push(format!("{name}: {e}"));
    }
    let dynamic = run(&graph, true);
    for (_, text) in error_diagnostics(&dynamic) {
        out.push(format!("{name} (dynamic): {text}"));
    }
    compare_layers(
        &graph,
        &dynamic,
        &case.dynamic,
        &format!("{name} (dynamic)"),
        Pairing::Exact,
        out,
    );

    // (b) and (c) the static bindings.
    for (k, binding) in case.bindings.iter().enumerate() {
        let specs: Vec<String> = binding
            .inputs
            .iter()
            .map(|(n, d)| override_spec(n, d))
            .collect();
        let what = format!("{name} binding {k} [{}]", specs.join(" "));
        let (mut g, _) = match read(&case.xml) {
            Ok(r) => r,
            Err(e) => {
                out.push(format!("{what}: {e}"));
                continue;
            }
        };
        let mut override_errors = Vec::new();
        for spec in &specs {
            if let Err(e) = apply_override(&mut g, spec) {
                override_errors.push(format!("override `{spec}`: {e}"));
            }
        }
        let inference = run(&g, false);
        let errors = error_diagnostics(&inference);
        match &binding.result {
            Err(ov_error) => {
                let real: Vec<_> = errors.iter().filter(|(r, _)| *r != "op-unknown").collect();
                for (_, text) in errors.iter().filter(|(r, _)| *r == "op-unknown") {
                    out.push(format!("{what}: {text}"));
                }
                if real.is_empty() && override_errors.is_empty() {
                    out.push(format!(
                        "{what}: OpenVINO rejects the binding ({ov_error}), we report no error"
                    ));
                } else {
                    let rules: Vec<&str> = real.iter().map(|(r, _)| *r).collect();
                    notes.push(format!(
                        "{what}: rejected by both; ours: [{}]",
                        rules.join(", ")
                    ));
                }
            }
            Ok(ov_ops) => {
                for e in &override_errors {
                    out.push(format!("{what}: {e}"));
                }
                for (_, text) in &errors {
                    out.push(format!("{what}: {text}"));
                }
                // (b) exact static shapes
                for op in ov_ops {
                    if op.outputs.iter().any(|(_, s)| !s.is_static()) {
                        notes.push(format!(
                            "{what}: `{}` ({}) is not static in OpenVINO either",
                            op.name, op.type_name
                        ));
                    }
                }
                compare_layers(&g, &inference, ov_ops, &what, Pairing::AfterReshape, out);
                // (c) our dynamic shapes at this binding
                compare_symbolic(&graph, &dynamic, binding, ov_ops, &what, out, notes);
            }
        }
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load_cases() -> Vec<Case> {
    // GOLDEN_DIR=<dir>: the cases of that folder (json and xml side by side)
    // instead, e.g. a copy with a deliberately wrong golden.
    if let Ok(dir) = std::env::var("GOLDEN_DIR") {
        let dir = PathBuf::from(dir);
        return json_files(&dir)
            .iter()
            .map(|json| {
                parse_case(json, &dir).unwrap_or_else(|e| panic!("{}: {e}", json.display()))
            })
            .collect();
    }
    let root = workspace_root();
    let own = root.join("crates/shape-infer/tests/golden");
    let samples = root.join("ir-samples");
    let mut cases = Vec::new();
    let models = samples.join("models");
    for (dir, xml_dir) in [
        (own.clone(), own),
        (samples.join("golden"), samples.clone()),
        (models.join("golden"), models),
        (samples.join("bodies/golden"), samples.join("bodies")),
    ] {
        for json in json_files(&dir) {
            match parse_case(&json, &xml_dir) {
                Ok(case) => cases.push(case),
                Err(e) => panic!("{}: {e}", json.display()),
            }
        }
    }
    cases
}

#[test]
fn every_layer_agrees_with_openvino() {
    let only = std::env::var("GOLDEN_ONLY").ok();
    let cases: Vec<Case> = load_cases()
        .into_iter()
        .filter(|c| match &only {
            Some(o) => c.name.contains(o.as_str()),
            None => true,
        })
        .collect();
    assert!(
        !cases.is_empty(),
        "no golden case matches GOLDEN_ONLY={only:?}"
    );
    let mut mismatches = Vec::new();
    let mut notes = Vec::new();
    let mut failed_cases = Vec::new();
    for case in &cases {
        let before = mismatches.len();
        check_case(case, &mut mismatches, &mut notes);
        if mismatches.len() > before {
            failed_cases.push(format!("{} ({})", case.name, mismatches.len() - before));
        }
    }
    let bindings: usize = cases.iter().map(|c| c.bindings.len()).sum();
    let mut report = format!(
        "{} golden case(s), {} static binding(s); {} case(s) disagree with OpenVINO\n",
        cases.len(),
        bindings,
        failed_cases.len()
    );
    for n in &notes {
        let _ = writeln!(report, "note: {n}");
    }
    eprintln!("{report}");
    if !mismatches.is_empty() {
        let mut msg = format!(
            "{} mismatch(es) in {} case(s): {}\n",
            mismatches.len(),
            failed_cases.len(),
            failed_cases.join(", ")
        );
        for m in &mismatches {
            let _ = writeln!(msg, "  - {m}");
        }
        panic!("{msg}");
    }
}

#[test]
fn ov_shape_strings_parse() {
    use OvDim::*;
    assert_eq!(OvShape::parse("[...]"), Ok(OvShape::DynamicRank));
    assert_eq!(OvShape::parse("[]"), Ok(OvShape::Ranked(vec![])));
    assert_eq!(
        OvShape::parse("[2..10,3..,?,4,..5]"),
        Ok(OvShape::Ranked(vec![
            Interval(2, Some(10)),
            Interval(3, None),
            Interval(0, None),
            Static(4),
            Interval(0, Some(5)),
        ]))
    );
    assert!(OvShape::parse("[a]").is_err());
    assert!(OvShape::parse("3,4").is_err());
}

#[test]
fn compare_shape_catches_disagreements() {
    let ov = OvShape::parse("[2,?,1..4]").unwrap();
    let ok = Shape::from_static(&[2, 9, 3]);
    assert_eq!(compare_shape(&ok, &ov), None);
    assert!(compare_shape(&Shape::from_static(&[3, 9, 3]), &ov).is_some());
    assert!(compare_shape(&Shape::from_static(&[2, 9, 5]), &ov).is_some());
    assert!(compare_shape(&Shape::from_static(&[2, 9]), &ov).is_some());
    assert!(compare_shape(&Shape::DynamicRank, &ov).is_some());
    let mut symbols = symdim::SymbolTable::new();
    let n = Expr::symbol(symbols.named("N", symdim::Interval::nonnegative()));
    let sym = Shape::ranked([n.clone(), n.clone(), n]);
    assert!(
        compare_shape(&sym, &ov).is_some(),
        "a symbol where OpenVINO is static"
    );
    assert_eq!(compare_shape(&sym, &OvShape::DynamicRank), None);
}

/// The harness itself: wrong goldens of a pass-through case (only Parameter,
/// Constant and Result) must each be reported.
#[test]
fn wrong_goldens_are_reported() {
    let dir = workspace_root().join("crates/shape-infer/tests/golden");
    let load = || parse_case(&dir.join("passthrough_dynamic.json"), &dir).unwrap();
    let check = |case: &Case| {
        let (mut out, mut notes) = (Vec::new(), Vec::new());
        check_case(case, &mut out, &mut notes);
        out
    };
    assert_eq!(check(&load()), Vec::<String>::new());

    let set = |ops: &mut Vec<OvOp>, name: &str, shape: &str| {
        let op = ops.iter_mut().find(|o| o.name == name).unwrap();
        op.outputs[0].1 = OvShape::parse(shape).unwrap();
    };
    // (a) a static dim of the dynamic model
    let mut case = load();
    set(&mut case.dynamic, "a", "[?,4,2..10]");
    let out = check(&case);
    assert!(
        out.iter()
            .any(|m| m.contains("(dynamic): `a`") && m.contains("dim 1 is 3, OpenVINO says 4")),
        "{out:#?}"
    );
    // (a) an element type
    let mut case = load();
    case.dynamic
        .iter_mut()
        .find(|o| o.name == "yc")
        .unwrap()
        .outputs[0]
        .0 = "i32".into();
    let out = check(&case);
    assert!(
        out.iter()
            .any(|m| m.contains("element type i64, OpenVINO says i32")),
        "{out:#?}"
    );
    // (a) a layer OpenVINO does not have, and one we do not have
    let mut case = load();
    case.dynamic
        .iter_mut()
        .find(|o| o.name == "yc")
        .unwrap()
        .name = "zz".into();
    let out = check(&case);
    assert!(
        out.iter().any(|m| m.contains("`zz` has no layer")),
        "{out:#?}"
    );
    assert!(
        out.iter()
            .any(|m| m.contains("our layer `yc` is not among")),
        "{out:#?}"
    );
    // (b) and (c) a static binding's shape
    let mut case = load();
    let Ok(ops) = &mut case.bindings[0].result else {
        panic!()
    };
    set(ops, "ya", "[5,3,4]");
    let out = check(&case);
    assert!(
        out.iter().any(|m| m.contains("binding 0")
            && m.contains("`ya` (Result) output 0: [4, 3, 4] vs OpenVINO's [5,3,4]")),
        "{out:#?}"
    );
    assert!(
        out.iter()
            .any(|m| m.contains("(symbolic): `ya`") && m.contains("evaluates to [4,3,4]")),
        "{out:#?}"
    );
    // (b) a binding OpenVINO rejects that we accept
    let mut case = load();
    case.bindings[1].result = Err("rejected".into());
    let out = check(&case);
    assert!(
        out.iter()
            .any(|m| m.contains("OpenVINO rejects the binding (rejected), we report no error")),
        "{out:#?}"
    );
    // (d) an "invalid" model we accept
    let mut case = load();
    case.invalid = Some(InvalidSpec {
        expected_rule: "x".into(),
        layer: "ya".into(),
        error: "bad".into(),
    });
    let out = check(&case);
    assert!(
        out.iter()
            .any(|m| m.contains("OpenVINO rejects the model (bad), we report no error")),
        "{out:#?}"
    );
}
