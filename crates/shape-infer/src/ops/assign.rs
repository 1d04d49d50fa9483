//! Assign-3 and -6: writes its input to the variable `variable_id`, which
//! the ReadValue of that id reads in the next inference. A sink: its output
//! (the input, unchanged) needs no consumer.
//!
//! The rule of one layer cannot see the ReadValue, so the pairing is
//! checked over the whole graph after inference ([`check_variables`]), as
//! OpenVINO's Assign validation does: Assign-3 needs a ReadValue of its id
//! among the layers it depends on, of the same element type and, where both
//! are static, the same shape; Assign-6 a ReadValue of its id in the model
//! whose declared type and shape are compatible with its input.

use std::collections::HashSet;

use ir::{Diagnostic, ElementType, Graph, Node, NodeId, Shape, SymbolTable};

use crate::context::InferContext;
use crate::engine::NodeOutcome;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion, Registry, Resolution};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Assign",
    versions: &[OpVersion::openvino(3, 3), OpVersion::openvino(6, 6)],
    infer,
    doc: OpDoc {
        summary: "Writes its input to the variable `variable_id` for the next inference's ReadValue; a sink whose output is its input.",
        attributes: "`variable_id`",
        symbolic: "the input's type and shape",
        errors: "`read-value-variable-id` (missing); `assign-variable` (no ReadValue reads the variable (v3: none upstream), or the input's type or shape does not agree with the variable's)",
    },
};

fn infer(_: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    super::read_value::variable_id(call.node)?;
    let input = &call.inputs[0];
    Ok(vec![TensorInfo::new(
        input.element_type,
        input.shape.clone(),
    )])
}

/// The op version a layer resolves to, if it is `type_name`.
fn version_of(registry: &Registry, node: &Node, type_name: &str) -> Option<u32> {
    if node.op_type.name != type_name {
        return None;
    }
    match registry.resolve(&node.op_type.name, &node.op_type.version) {
        Resolution::Known(_, version) => Some(version),
        _ => None,
    }
}

/// The diagnostics of every Assign of `graph` whose variable no ReadValue
/// reads, or whose input disagrees with the variable; `outcomes` are the
/// inferred tensors of each node (by index).
pub(crate) fn check_variables(
    graph: &Graph,
    registry: &Registry,
    outcomes: &[NodeOutcome],
    symbols: &SymbolTable,
) -> Vec<Diagnostic> {
    let read_values: Vec<(NodeId, &Node, u32)> = graph
        .nodes()
        .filter_map(|(id, n)| Some((id, n, version_of(registry, n, "ReadValue")?)))
        .collect();
    let mut diagnostics = Vec::new();
    for (id, node) in graph.nodes() {
        let Some(version) = version_of(registry, node, "Assign") else {
            continue;
        };
        let Ok(variable) = super::read_value::variable_id(node) else {
            // The rule reported it.
            continue;
        };
        let fail = |message: String| {
            Diagnostic::error("assign-variable", message).at_layer(node.layer_ref(), node.location)
        };
        // Assign-3 finds its variable among the layers it depends on.
        let upstream = (version < 6).then(|| ancestors(graph, id));
        let reader = read_values.iter().find(|(rid, n, _)| {
            super::read_value::variable_id(n).is_ok_and(|v| v == variable)
                && upstream.as_ref().is_none_or(|u| u.contains(rid))
        });
        let Some(&(reader_id, reader, reader_version)) = reader else {
            let place = if version < 6 {
                "upstream of it"
            } else {
                "in the model"
            };
            diagnostics.push(fail(format!(
                "no ReadValue {place} reads the variable `{variable}` this Assign writes"
            )));
            continue;
        };
        let (Some(input), Some(state)) = (
            outcomes[id.index()].outputs().first(),
            outcomes[reader_id.index()].outputs().first(),
        ) else {
            continue;
        };
        // ReadValue-6 declares the variable's type; its output is dynamic
        // only where the declaration is.
        let variable_type = if reader_version >= 6 {
            super::read_value::variable_type(reader).unwrap_or(ElementType::Dynamic)
        } else {
            state.element_type
        };
        let types_agree = if version >= 6 {
            !variable_type.is_static()
                || !input.element_type.is_static()
                || variable_type == input.element_type
        } else {
            variable_type == input.element_type
        };
        let reader_name = &reader.name;
        if !types_agree {
            diagnostics.push(fail(format!(
                "the input is {} but the variable `{variable}` (ReadValue `{reader_name}`, line {}) is {variable_type}",
                input.element_type, reader.location.line
            )));
            continue;
        }
        let shapes_agree = if version >= 6 && reader_version >= 6 {
            // Against the declaration, whose dynamic dims are no dims of the
            // graph (the ReadValue's output gives them symbols of its own).
            let mut scratch = symbols.clone();
            let text = reader.attributes.get("variable_shape").unwrap_or("...");
            let declared =
                ir::shape::parse_openvino_shape(&mut scratch, text, &|index| ir::Provenance {
                    layer: reader.name.clone(),
                    line: reader.location.line,
                    reason: format!("dim {index} of the variable `{variable}`"),
                });
            // An unreadable declaration was the ReadValue's error.
            declared.map_or(true, |d| compatible(&scratch, &input.shape, &d))
        } else if version >= 6 {
            compatible(symbols, &input.shape, &state.shape)
        } else {
            match (input.shape.to_static(), state.shape.to_static()) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
        };
        if !shapes_agree {
            diagnostics.push(fail(format!(
                "the input {} does not fit the variable `{variable}` {} (ReadValue `{reader_name}`, line {})",
                input.shape.display(symbols),
                state.shape.display(symbols),
                reader.location.line
            )));
        }
    }
    diagnostics
}

/// OpenVINO's `PartialShape::compatible`: an unknown rank fits any shape;
/// otherwise the ranks are equal and no pair of dims is provably different.
fn compatible(symbols: &SymbolTable, a: &Shape, b: &Shape) -> bool {
    let (Some(a), Some(b)) = (a.dims(), b.dims()) else {
        return true;
    };
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            matches!(
                symbols.compare(x, y),
                None | Some(std::cmp::Ordering::Equal)
            )
        })
}

/// The layers `id` depends on, through any number of edges.
fn ancestors(graph: &Graph, id: NodeId) -> HashSet<NodeId> {
    let mut seen = HashSet::new();
    let mut stack = vec![id];
    while let Some(n) = stack.pop() {
        for source in graph.input_sources(n).into_iter().flatten() {
            if seen.insert(source.node) {
                stack.push(source.node);
            }
        }
    }
    seen
}
