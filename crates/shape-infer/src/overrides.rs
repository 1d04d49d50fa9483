//! `--shape NAME=DIMS`: replacing a Parameter's shape before inference.

use ir::{Diagnostic, Graph, NodeId, Op, Provenance, Shape};
use symdim::ParsedShape;

/// Why an override could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OverrideError {
    #[error("`{0}` is not of the form NAME=DIMS")]
    Syntax(String),
    #[error("no Parameter is named `{name}` (the inputs are: {available})")]
    NoSuchInput { name: String, available: String },
    #[error("the dims `{text}` for `{name}` are invalid: {message}")]
    Dims {
        name: String,
        text: String,
        message: String,
    },
}

/// The warning of an override that leaves a declared interval.
pub const OUTSIDE_DECLARED: &str = "shape-override-outside-declared";

/// Finds the Parameter whose layer name, or one of whose output tensor names, is `name`.
pub fn find_parameter(graph: &Graph, name: &str) -> Option<NodeId> {
    let by_layer = graph.parameters().find(|(_, n)| n.name == name);
    let by_tensor = || {
        graph.parameters().find(|(_, n)| {
            n.outputs
                .iter()
                .any(|p| p.names().iter().any(|t| t == name))
        })
    };
    by_layer.or_else(by_tensor).map(|(id, _)| id)
}

/// Applies one `NAME=DIMS` override. A named symbol that replaces a declared
/// interval dim keeps that interval as its range (`1..8` overridden by `N`
/// gives `N ∈ [1, 8]`).
///
/// The override replaces the declaration, as OpenVINO's `reshape` does: a
/// dim outside the declared interval (`7` for `10..30`, or a symbol whose own
/// range misses it) is accepted, and reported in the returned warnings
/// ([`OUTSIDE_DECLARED`]), which name the Parameter and the interval left.
pub fn apply_override(graph: &mut Graph, spec: &str) -> Result<Vec<Diagnostic>, OverrideError> {
    let (name, text) = spec
        .split_once('=')
        .ok_or_else(|| OverrideError::Syntax(spec.to_owned()))?;
    let id = find_parameter(graph, name).ok_or_else(|| OverrideError::NoSuchInput {
        name: name.to_owned(),
        available: graph
            .parameters()
            .map(|(_, n)| format!("`{}`", n.name))
            .collect::<Vec<_>>()
            .join(", "),
    })?;
    let provenance = || {
        Some(Provenance {
            layer: name.to_owned(),
            line: 0,
            reason: format!("--shape {spec}"),
        })
    };
    let parsed = graph
        .symbols
        .parse_dims(text, &provenance)
        .map_err(|e| OverrideError::Dims {
            name: name.to_owned(),
            text: text.to_owned(),
            message: e.to_string(),
        })?;
    let new_shape = match parsed {
        ParsedShape::DynamicRank => Shape::DynamicRank,
        ParsedShape::Ranked(dims) => Shape::ranked(dims),
    };
    let Op::Parameter { shape, .. } = &graph.node(id).op else {
        return Err(OverrideError::Syntax(spec.to_owned()));
    };
    let shape = shape.clone();
    let mut warnings = Vec::new();
    // Carry declared intervals over to the symbols that replace them.
    if let (Some(old), Some(new)) = (shape.dims(), new_shape.dims()) {
        if old.len() == new.len() {
            for (axis, (old_dim, new_dim)) in old.iter().zip(new).enumerate() {
                if old_dim.as_symbol().is_none() {
                    continue;
                }
                let Ok(old_range) = graph.symbols.bounds(old_dim) else {
                    continue;
                };
                let inside = match (new_dim.as_symbol(), new_dim.as_constant()) {
                    (Some(symbol), _) => graph.symbols.restrict(symbol, old_range).is_ok(),
                    (None, Some(value)) => old_range.contains(value),
                    (None, None) => true,
                };
                if !inside {
                    let node = graph.node(id);
                    warnings.push(
                        Diagnostic::warning(
                            OUTSIDE_DECLARED,
                            format!(
                                "--shape {spec}: dim {axis} ({}) is outside the declared \
                                 interval {old_range} of Parameter `{name}`; the override \
                                 replaces the declaration, as OpenVINO's reshape does",
                                graph.symbols.display(new_dim)
                            ),
                        )
                        .at_layer(node.layer_ref(), node.location),
                    );
                }
            }
        }
    }
    if let Op::Parameter { shape, .. } = &mut graph.node_mut(id).op {
        **shape = new_shape;
    }
    Ok(warnings)
}
