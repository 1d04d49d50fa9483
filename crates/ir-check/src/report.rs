//! The report: one data structure, rendered as JSON (for tools) or as a table
//! (for people and snapshot tests).
//!
//! The JSON layout is a public contract, described by
//! `docs/report.schema.json` (a test validates every sample's report
//! against it); see the README.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

use ir::{Diagnostic, Graph, NodeId, Shape, SymbolId};
use serde::Serialize;
use shape_infer::engine::BodyOutcome;
use shape_infer::{Inference, NodeOutcome, ShapeOrigin};
use symdim::{Expr, SymbolTable};

/// The version of `docs/report.schema.json` the JSON report follows: the
/// major number changes when a field is removed or changes meaning, the minor
/// number when one is added.
pub const SCHEMA_VERSION: &str = "1.0";

/// The whole report.
#[derive(Debug, Serialize)]
pub struct Report {
    /// Always [`SCHEMA_VERSION`]: first, so a reader can check it before the rest.
    pub schema_version: &'static str,
    pub model: String,
    pub ir_version: u32,
    pub valid: bool,
    /// Every symbol the shapes and constraints use, by display name.
    pub symbols: serde_json::Map<String, serde_json::Value>,
    /// Every layer, in topological order.
    pub nodes: Vec<NodeReport>,
    pub constraints: Vec<ConstraintReport>,
    pub diagnostics: Vec<DiagnosticReport>,
}

/// One layer.
#[derive(Debug, Serialize)]
pub struct NodeReport {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub type_name: String,
    pub version: String,
    pub outputs: Vec<OutputReport>,
    /// The bodies of an If, Loop or TensorIterator, each with its layers
    /// (absent for other layers, and for bodies inference did not reach).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub body: Vec<BodyReport>,
}

/// One body of a layer.
#[derive(Debug, Serialize)]
pub struct BodyReport {
    /// `body`, `then_body` or `else_body`.
    pub role: &'static str,
    /// The body's layers, in topological order.
    pub nodes: Vec<NodeReport>,
}

/// One output tensor of a layer.
#[derive(Debug, Serialize)]
pub struct OutputReport {
    /// The port id (for a Result, its input port).
    pub port: String,
    pub element_type: String,
    /// One entry per dim: an integer when static, an expression otherwise;
    /// `null` for an unknown rank.
    pub shape: Option<Vec<serde_json::Value>>,
    /// Each dim's interval `[lo, hi]` (`null` where unbounded).
    pub bounds: Option<Vec<[Option<i64>; 2]>>,
    /// Present (and true) when the shape is the file's declaration, not inferred.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub declared: bool,
}

/// One recorded assumption.
#[derive(Debug, Serialize)]
pub struct ConstraintReport {
    pub expr: String,
    pub node: String,
    pub line: u32,
}

/// One diagnostic.
#[derive(Debug, Serialize)]
pub struct DiagnosticReport {
    pub severity: ir::Severity,
    pub rule: &'static str,
    pub node: Option<String>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Report {
    /// Gathers the report of `graph` after `inference`, with every diagnostic
    /// (reading, validation and inference).
    pub fn build(graph: &Graph, inference: &Inference, diagnostics: &[Diagnostic]) -> Report {
        let symbols = &inference.symbols;
        let mut used = BTreeSet::new();
        let nodes = node_reports(
            graph,
            &inference.order,
            &inference.outcomes,
            &inference.bodies,
            symbols,
            &mut used,
        );
        let constraints = inference
            .constraints
            .iter()
            .map(|c| {
                used.extend(predicate_symbols(&c.predicate));
                ConstraintReport {
                    expr: symbols.display_predicate(&c.predicate).to_string(),
                    node: c.layer.name.clone(),
                    line: c.location.line,
                }
            })
            .collect();
        // A symbol's symbolic upper bound (`c ∈ [0, S]`) names symbols too.
        let bound_symbols: Vec<SymbolId> = used
            .iter()
            .filter_map(|&s| symbols.info(s).upper.as_ref())
            .flat_map(|upper| upper.symbols())
            .collect();
        used.extend(bound_symbols);
        Report {
            schema_version: SCHEMA_VERSION,
            model: graph.name.clone(),
            ir_version: graph.ir_version,
            valid: !diagnostics.iter().any(Diagnostic::is_error),
            symbols: symbols_json(symbols, &used),
            nodes,
            constraints,
            diagnostics: diagnostics
                .iter()
                .map(|d| DiagnosticReport {
                    severity: d.severity,
                    rule: d.rule,
                    node: d.layer.as_ref().map(|l| l.name.clone()),
                    line: d.location.map(|l| l.line),
                    column: d.location.map(|l| l.column),
                    message: d.message.clone(),
                    notes: d.notes.clone(),
                })
                .collect(),
        }
    }

    /// The JSON report, one object and a newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_else(|e| {
            format!("{{\"error\": \"the report could not be serialized: {e}\"}}")
        });
        text.push('\n');
        text
    }

    /// The table for people (the verdict line is not part of it).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "model `{}` (IR v{}): {} layers",
            self.model,
            self.ir_version,
            self.nodes.len()
        );
        if !self.symbols.is_empty() {
            let _ = writeln!(out, "\nsymbols");
            let rows: Vec<[String; 3]> = self
                .symbols
                .iter()
                .map(|(name, info)| {
                    let range = match (&info["min"], &info["max"]) {
                        (lo, _) if info.get("upper").is_some() => {
                            format!(
                                "[{}, {}]",
                                json_bound(lo),
                                info["upper"].as_str().unwrap_or("?")
                            )
                        }
                        (lo, serde_json::Value::Null) => format!("[{}, inf)", json_bound(lo)),
                        (lo, hi) => format!("[{}, {}]", json_bound(lo), json_bound(hi)),
                    };
                    let origin = info
                        .get("origin")
                        .and_then(|o| o.as_str())
                        .unwrap_or_default()
                        .to_owned();
                    [name.clone(), range, origin]
                })
                .collect();
            write_table(&mut out, &rows);
        }
        let _ = writeln!(out, "\nlayers");
        let mut rows = vec![[
            "id".to_owned(),
            "name".to_owned(),
            "type".to_owned(),
            "outputs".to_owned(),
        ]];
        layer_rows(&self.nodes, 0, &mut rows);
        write_table(&mut out, &rows);
        if !self.constraints.is_empty() {
            let _ = writeln!(out, "\nconstraints");
            let rows: Vec<[String; 2]> = self
                .constraints
                .iter()
                .map(|c| [c.expr.clone(), format!("{} (line {})", c.node, c.line)])
                .collect();
            write_table(&mut out, &rows);
        }
        // The verdict follows the diagnostics, last (diagnostics::verdict);
        // this blank line keeps the table apart from them.
        out.push('\n');
        out
    }
}

/// The reports of `graph`'s nodes in `order`, with their bodies.
fn node_reports(
    graph: &Graph,
    order: &[NodeId],
    outcomes: &[NodeOutcome],
    bodies: &HashMap<NodeId, Vec<BodyOutcome>>,
    symbols: &SymbolTable,
    used: &mut BTreeSet<SymbolId>,
) -> Vec<NodeReport> {
    order
        .iter()
        .filter_map(|&id| {
            let node = graph.graph.node_weight(id)?;
            let (tensors, declared) = match outcomes.get(id.index())? {
                NodeOutcome::Inferred(t) => (t, false),
                NodeOutcome::Declared(t) => (t, true),
            };
            let ports = node.outputs.iter().chain(
                node.inputs
                    .iter()
                    .take(usize::from(matches!(node.op, ir::Op::Result))),
            );
            let outputs = tensors
                .iter()
                .zip(ports)
                .map(|(tensor, port)| {
                    if let Some(dims) = tensor.shape.dims() {
                        dims.iter().for_each(|d| used.extend(d.symbols()));
                    }
                    OutputReport {
                        port: port.id.to_string(),
                        element_type: tensor.element_type.to_string(),
                        shape: shape_json(symbols, &tensor.shape),
                        bounds: bounds_json(symbols, &tensor.shape),
                        declared: declared || tensor.origin == ShapeOrigin::Declared,
                    }
                })
                .collect();
            let body = graph
                .bodies(id)
                .iter()
                .zip(bodies.get(&id).map(Vec::as_slice).unwrap_or_default())
                .filter(|(_, outcome)| !outcome.order.is_empty())
                .map(|(body, outcome)| BodyReport {
                    role: body.role.name(),
                    nodes: node_reports(
                        &body.graph,
                        &outcome.order,
                        &outcome.outcomes,
                        &outcome.bodies,
                        symbols,
                        used,
                    ),
                })
                .collect();
            Some(NodeReport {
                id: node.id.clone(),
                name: node.name.clone(),
                type_name: node.op_type.name.clone(),
                version: node.op_type.version.clone(),
                outputs,
                body,
            })
        })
        .collect()
}

/// The layer rows of `nodes`, body layers indented under their layer.
fn layer_rows(nodes: &[NodeReport], depth: usize, rows: &mut Vec<[String; 4]>) {
    let indent = "  ".repeat(depth);
    for node in nodes {
        let outputs: Vec<String> = node
            .outputs
            .iter()
            .map(|o| {
                let shape = match &o.shape {
                    None => "[...]".to_owned(),
                    Some(dims) => {
                        let dims: Vec<String> = dims
                            .iter()
                            .map(|d| match d {
                                serde_json::Value::String(s) => s.clone(),
                                other => other.to_string(),
                            })
                            .collect();
                        format!("[{}]", dims.join(", "))
                    }
                };
                let mark = if o.declared { " (declared)" } else { "" };
                format!("{} {shape}{mark}", o.element_type)
            })
            .collect();
        rows.push([
            format!("{indent}{}", node.id),
            node.name.clone(),
            format!("{}-{}", node.type_name, node.version),
            outputs.join("; "),
        ]);
        for body in &node.body {
            rows.push([
                format!("{indent}  {}:", body.role),
                String::new(),
                String::new(),
                String::new(),
            ]);
            layer_rows(&body.nodes, depth + 2, rows);
        }
    }
}

fn json_bound(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => "-inf".to_owned(),
        other => other.to_string(),
    }
}

/// Left-aligned columns, two spaces apart, indented by two.
fn write_table<const N: usize>(out: &mut String, rows: &[[String; N]]) {
    let mut widths = [0usize; N];
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for row in rows {
        let mut line = String::from(" ");
        for (i, cell) in row.iter().enumerate() {
            line.push(' ');
            line.push_str(cell);
            if i + 1 < N {
                let pad = widths[i] - cell.chars().count() + 1;
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

fn shape_json(symbols: &SymbolTable, shape: &Shape) -> Option<Vec<serde_json::Value>> {
    shape.dims().map(|dims| {
        dims.iter()
            .map(|d| match d.as_constant() {
                Some(v) => serde_json::Value::from(v),
                None => serde_json::Value::from(symbols.display(d).to_string()),
            })
            .collect()
    })
}

fn bounds_json(symbols: &SymbolTable, shape: &Shape) -> Option<Vec<[Option<i64>; 2]>> {
    shape.dims().map(|dims| {
        dims.iter()
            .map(|d| match symbols.bounds(d) {
                Ok(b) => [b.lo, b.hi],
                Err(_) => [None, None],
            })
            .collect()
    })
}

fn symbols_json(
    symbols: &SymbolTable,
    used: &BTreeSet<SymbolId>,
) -> serde_json::Map<String, serde_json::Value> {
    used.iter()
        .map(|&s| {
            let info = symbols.info(s);
            let mut entry = serde_json::Map::new();
            entry.insert("min".into(), info.range.lo.into());
            entry.insert("max".into(), info.range.hi.into());
            if let Some(upper) = &info.upper {
                entry.insert("upper".into(), symbols.display(upper).to_string().into());
            }
            if let Some(p) = &info.provenance {
                let origin = if p.line > 0 {
                    format!("{}, line {}", p.reason, p.line)
                } else {
                    p.reason.clone()
                };
                entry.insert("origin".into(), origin.into());
            }
            (
                symbols.display(&Expr::symbol(s)).to_string(),
                serde_json::Value::Object(entry),
            )
        })
        .collect()
}

fn predicate_symbols(p: &symdim::Predicate) -> BTreeSet<SymbolId> {
    use symdim::Predicate::*;
    match p {
        Eq(a, b) | Ne(a, b) | Lt(a, b) | Le(a, b) | Gt(a, b) | Ge(a, b) => {
            a.symbols().union(&b.symbols()).copied().collect()
        }
        Divides { expr, .. } => expr.symbols(),
        Or(ps) | And(ps) => ps.iter().flat_map(predicate_symbols).collect(),
    }
}
