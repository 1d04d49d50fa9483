//! `--format dot`: the model as a Graphviz graph, for people who look at a
//! graph rather than read it (`ir-check m.xml --format dot | dot -Tsvg > m.svg`).
//!
//! One node per layer (name, type and version), one edge per connection
//! labelled with the inferred element type and shape. Layers with errors
//! and the edges they produce are red, with warnings orange; Parameters and
//! Results have shapes and colors of their own, constants are grey. A label
//! longer than [`MAX_LABEL`] characters is shortened, its full text in the
//! edge's tooltip (shown on hover in SVG). The bodies of If, Loop and
//! TensorIterator layers are clusters, joined to their layer by a dashed edge.

use std::collections::HashMap;
use std::fmt::Write;

use ir::{Diagnostic, Graph, NodeId, Op, Severity, Shape};
use shape_infer::engine::BodyOutcome;
use shape_infer::{Inference, NodeOutcome, ShapeOrigin};
use symdim::SymbolTable;

/// Longest edge label, in characters, before it is shortened with `…`.
pub const MAX_LABEL: usize = 40;

const ERROR_COLOR: &str = "#d62728";
const ERROR_FILL: &str = "#fde0dd";
const WARNING_COLOR: &str = "#ff7f0e";
const WARNING_FILL: &str = "#fff0d9";

/// The DOT text of `graph` (read from `file_name`) after `inference`, with
/// the layers of `diagnostics` highlighted.
pub fn render(
    file_name: &str,
    graph: &Graph,
    inference: &Inference,
    diagnostics: &[Diagnostic],
) -> String {
    let findings = Findings::of(diagnostics);
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let verdict = if errors == 0 { "valid" } else { "INVALID" };
    let title = format!(
        "{file_name}: model `{}` (IR v{}): {verdict}, {errors} errors, {warnings} warnings",
        graph.name, graph.ir_version
    );
    let mut out = String::new();
    let _ = writeln!(out, "digraph {} {{", quote(&graph.name));
    let _ = writeln!(
        out,
        "  graph [label={}, labelloc=t, fontname=\"Helvetica\", compound=true, rankdir=TB];",
        quote(&title)
    );
    let _ = writeln!(
        out,
        "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\", fontsize=11];"
    );
    let _ = writeln!(
        out,
        "  edge [fontname=\"Helvetica\", fontsize=9, color=\"#555555\"];"
    );
    let scope = Scope {
        graph,
        outcomes: &inference.outcomes,
        bodies: &inference.bodies,
        path: Vec::new(),
        prefix: String::from("n"),
    };
    write_scope(&mut out, &scope, &inference.symbols, &findings, 1);
    out.push_str("}\n");
    out
}

/// One graph to draw: the model, or a body of one of its layers.
struct Scope<'a> {
    graph: &'a Graph,
    outcomes: &'a [NodeOutcome],
    bodies: &'a HashMap<NodeId, Vec<BodyOutcome>>,
    /// The layers that own the bodies around this graph.
    path: OwnerPath,
    /// Prefix of this graph's DOT node ids (unique across bodies).
    prefix: String,
}

impl Scope<'_> {
    fn dot_id(&self, node: NodeId) -> String {
        format!("{}{}", self.prefix, node.index())
    }
}

/// The layers (id, body role) that own the bodies around a graph, outermost
/// first, as diagnostics name them: empty for the model's own graph.
type OwnerPath = Vec<(String, String)>;

/// What the diagnostics say about one layer.
struct LayerFindings {
    /// The worst severity.
    worst: Severity,
    /// `error[rule]: message`, one per diagnostic.
    messages: Vec<String>,
}

/// The findings of each layer, by (owner path, layer id).
struct Findings {
    by_layer: HashMap<(OwnerPath, String), LayerFindings>,
}

impl Findings {
    fn of(diagnostics: &[Diagnostic]) -> Findings {
        let mut by_layer: HashMap<_, LayerFindings> = HashMap::new();
        for d in diagnostics {
            let Some(layer) = &d.layer else { continue };
            let path = layer
                .parents
                .iter()
                .map(|p| (p.id.clone(), p.body.clone()))
                .collect();
            let entry = by_layer
                .entry((path, layer.id.clone()))
                .or_insert(LayerFindings {
                    worst: d.severity,
                    messages: Vec::new(),
                });
            // Severity orders Error < Warning < Note: the minimum is the worst.
            entry.worst = entry.worst.min(d.severity);
            entry
                .messages
                .push(format!("{}[{}]: {}", d.severity, d.rule, d.message));
        }
        Findings { by_layer }
    }

    fn get(&self, path: &[(String, String)], id: &str) -> Option<&LayerFindings> {
        self.by_layer.get(&(path.to_vec(), id.to_owned()))
    }
}

fn write_scope(
    out: &mut String,
    scope: &Scope<'_>,
    symbols: &SymbolTable,
    findings: &Findings,
    depth: usize,
) {
    let indent = "  ".repeat(depth);
    let graph = &scope.graph.graph;
    for id in graph.node_indices() {
        let node = &graph[id];
        let finding = findings.get(&scope.path, &node.id);
        let mut attributes = vec![format!(
            "label={}",
            quote(&format!(
                "{}\n{}-{}",
                node.name, node.op_type.name, node.op_type.version
            ))
        )];
        let (shape, fill) = match node.op {
            Op::Parameter { .. } => (Some("invhouse"), Some("#d9f0d3")),
            Op::Result => (Some("house"), Some("#dbe9f6")),
            Op::Constant { .. } => (Some("box"), Some("#eeeeee")),
            _ => (None, None),
        };
        if let Some(shape) = shape {
            attributes.push(format!("shape={shape}"));
        }
        let mut tooltip = format!(
            "layer {} `{}` ({}-{})",
            node.id, node.name, node.op_type.name, node.op_type.version
        );
        for message in finding.iter().flat_map(|f| &f.messages) {
            tooltip.push('\n');
            tooltip.push_str(message);
        }
        // Notes inform: only errors and warnings color a layer.
        match finding.filter(|f| f.worst != Severity::Note) {
            Some(f) => {
                let (color, fill) = severity_colors(f.worst);
                attributes.push(format!("color={}", quote(color)));
                attributes.push(format!("fillcolor={}", quote(fill)));
                attributes.push("penwidth=2".to_owned());
            }
            None => {
                if let Some(fill) = fill {
                    attributes.push(format!("fillcolor={}", quote(fill)));
                }
            }
        }
        if matches!(node.op, Op::Constant { .. }) {
            attributes.push("fontsize=9".to_owned());
        }
        attributes.push(format!("tooltip={}", quote(&tooltip)));
        let _ = writeln!(
            out,
            "{indent}{} [{}];",
            scope.dot_id(id),
            attributes.join(", ")
        );
    }
    for edge in graph.raw_edges() {
        let source = &graph[edge.source()];
        let tensor = scope
            .outcomes
            .get(edge.source().index())
            .and_then(|o| o.outputs().get(edge.weight.from_output));
        let declared = matches!(
            scope.outcomes.get(edge.source().index()),
            Some(NodeOutcome::Declared(_))
        ) || tensor.is_some_and(|t| t.origin == ShapeOrigin::Declared);
        let full = match tensor {
            // Marked as the text report marks it: not inferred, as written.
            Some(t) if declared => format!(
                "{} {} (declared)",
                t.element_type,
                shape_text(symbols, &t.shape)
            ),
            Some(t) => format!("{} {}", t.element_type, shape_text(symbols, &t.shape)),
            None => "?".to_owned(),
        };
        let mut attributes = vec![
            format!("label={}", quote(&shorten(&full))),
            format!("tooltip={}", quote(&full)),
        ];
        if let Some(LayerFindings { worst, .. }) = findings.get(&scope.path, &source.id) {
            if *worst != Severity::Note {
                let (color, _) = severity_colors(*worst);
                attributes.push(format!("color={}", quote(color)));
                attributes.push(format!("fontcolor={}", quote(color)));
                attributes.push("penwidth=2".to_owned());
            }
        }
        let _ = writeln!(
            out,
            "{indent}{} -> {} [{}];",
            scope.dot_id(edge.source()),
            scope.dot_id(edge.target()),
            attributes.join(", ")
        );
    }
    for id in graph.node_indices() {
        let outcomes = scope.bodies.get(&id).map(Vec::as_slice).unwrap_or_default();
        for (k, body) in scope.graph.bodies(id).iter().enumerate() {
            let empty = BodyOutcome::default();
            let outcome = outcomes.get(k).unwrap_or(&empty);
            let owner = &graph[id];
            let mut path = scope.path.clone();
            path.push((owner.id.clone(), body.role.name().to_owned()));
            let inner = Scope {
                graph: &body.graph,
                outcomes: &outcome.outcomes,
                bodies: &outcome.bodies,
                path,
                prefix: format!("{}_b{k}_", scope.dot_id(id)),
            };
            let cluster = format!("cluster_{}", inner.prefix.trim_end_matches('_'));
            let _ = writeln!(out, "{indent}subgraph {cluster} {{");
            let _ = writeln!(
                out,
                "{indent}  graph [label={}, style=\"rounded,dashed\", color=\"#888888\"];",
                quote(&format!("{} > {}", owner.name, body.role.name()))
            );
            write_scope(out, &inner, symbols, findings, depth + 1);
            let _ = writeln!(out, "{indent}}}");
            // A dashed edge from the layer to the cluster of its body
            // (`compound=true` clips it at the cluster's border).
            if let Some(first) = body.graph.graph.node_indices().next() {
                let _ = writeln!(
                    out,
                    "{indent}{} -> {} [lhead={cluster}, style=dashed, arrowhead=odot, label={}];",
                    scope.dot_id(id),
                    inner.dot_id(first),
                    quote(body.role.name())
                );
            }
        }
    }
}

fn severity_colors(severity: Severity) -> (&'static str, &'static str) {
    match severity {
        Severity::Error => (ERROR_COLOR, ERROR_FILL),
        Severity::Warning | Severity::Note => (WARNING_COLOR, WARNING_FILL),
    }
}

/// `[N, 3, H - 2, W]`, or `[...]` for an unknown rank, as the report prints it.
fn shape_text(symbols: &SymbolTable, shape: &Shape) -> String {
    match shape.dims() {
        None => "[...]".to_owned(),
        Some(dims) => {
            let dims: Vec<String> = dims
                .iter()
                .map(|d| symbols.display(d).to_string())
                .collect();
            format!("[{}]", dims.join(", "))
        }
    }
}

/// `text`, or when it is longer than [`MAX_LABEL`] characters its first
/// `MAX_LABEL - 1` and `…`.
fn shorten(text: &str) -> String {
    if text.chars().count() <= MAX_LABEL {
        return text.to_owned();
    }
    let mut short: String = text.chars().take(MAX_LABEL - 1).collect();
    short.push('…');
    short
}

/// A DOT double-quoted string. Inside one only `"` needs escaping for the
/// parser, but labels and tooltips also read `\n`, `\l`, `\N`… as escapes:
/// a backslash of the text is doubled so it stays one, and a line break
/// becomes `\n`. `<` and `>` need nothing inside quotes (only `<…>` HTML
/// labels read markup), and Graphviz escapes them in its SVG.
fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_keeps_the_text() {
        assert_eq!(quote("a\"b\\c\nd<e>"), r#""a\"b\\c\nd<e>""#);
        assert_eq!(quote("x\r\ny"), r#""x\ny""#);
    }

    #[test]
    fn long_labels_are_shortened() {
        assert_eq!(shorten("f32 [N, 3]"), "f32 [N, 3]");
        let long = format!("f32 [{}]", "é".repeat(60));
        let short = shorten(&long);
        assert_eq!(short.chars().count(), MAX_LABEL);
        assert!(short.ends_with('…') && long.starts_with(&short[..short.len() - 3]));
    }
}
