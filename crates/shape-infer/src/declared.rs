//! The shapes the file declares on ports, and their agreement with inference.

use ir::{DeclaredDim, Diagnostic, Node, PortDecl, Provenance, Shape};
use symdim::{Expr, Interval, SymbolTable};

use crate::tensor::TensorInfo;

/// The tensor a port declares, for ops whose rule is unknown or failed.
///
/// OpenVINO writes every non-static dim as `-1`, so each becomes a fresh
/// symbol; a port without dims may be a scalar or an unknown rank, and is taken
/// as an unknown rank.
pub fn declared_tensor(symbols: &mut SymbolTable, node: &Node, port: &PortDecl) -> TensorInfo {
    let shape = if port.dims.is_empty() {
        Shape::DynamicRank
    } else {
        Shape::ranked(port.dims.iter().enumerate().map(|(axis, dim)| match dim {
            DeclaredDim::Static(d) => Expr::constant(i64::try_from(*d).unwrap_or(i64::MAX)),
            DeclaredDim::Dynamic => Expr::symbol(symbols.fresh(
                Interval::nonnegative(),
                Some(Provenance {
                    layer: node.name.clone(),
                    line: port.location.line,
                    reason: format!("declared dim {axis} of port {} of `{}`", port.id, node.name),
                }),
            )),
        }))
    };
    TensorInfo::declared(port.element_type.unwrap_or(ir::ElementType::Dynamic), shape)
}

/// [`check_declared`], its diagnostic pushed onto `diagnostics`: the walk's
/// form, which moves no `Option<Diagnostic>` (about 200 bytes, copied by a
/// `memcpy` call) for the many ports that agree (issue 18). Always inline:
/// the agreeing case is a few comparisons, less than a call.
#[inline(always)]
pub fn check_declared_into(
    diagnostics: &mut Vec<Diagnostic>,
    symbols: &SymbolTable,
    node: &Node,
    port: &PortDecl,
    inferred: &TensorInfo,
) {
    if agrees_plainly(port, inferred) {
        return;
    }
    if let Some(diagnostic) = declared_mismatch(symbols, node, port, inferred) {
        diagnostics.push(diagnostic);
    }
}

/// Compares an inferred tensor with its port declaration: a static declared dim
/// that disagrees with a static inferred one, a rank that differs, or a
/// different element type is an error. A declared `-1` agrees with anything.
#[inline]
pub fn check_declared(
    symbols: &SymbolTable,
    node: &Node,
    port: &PortDecl,
    inferred: &TensorInfo,
) -> Option<Diagnostic> {
    if agrees_plainly(port, inferred) {
        return None;
    }
    declared_mismatch(symbols, node, port, inferred)
}

/// Whether the declaration agrees with `inferred` without asking the symbols:
/// the common case (`-1` dims, equal constants, one element type), answered
/// inline for every port of every layer. `false` is not a disagreement, only
/// "look closer" ([`declared_mismatch`]).
#[inline]
fn agrees_plainly(port: &PortDecl, inferred: &TensorInfo) -> bool {
    let inferred_type = inferred.element_type;
    let type_agrees = port.element_type.is_none_or(|declared| {
        declared == inferred_type || !declared.is_static() || !inferred_type.is_static()
    });
    if !type_agrees {
        return false;
    }
    let Some(dims) = inferred.shape.dims() else {
        return true;
    };
    port.dims.is_empty()
        || (port.dims.len() == dims.len()
            && port
                .dims
                .iter()
                .zip(dims)
                .all(|(declared, dim)| match declared {
                    DeclaredDim::Dynamic => true,
                    DeclaredDim::Static(d) => {
                        i64::try_from(*d).is_ok_and(|d| dim.as_constant() == Some(d))
                    }
                }))
}

/// [`check_declared`] past its common case.
#[inline(never)]
fn declared_mismatch(
    symbols: &SymbolTable,
    node: &Node,
    port: &PortDecl,
    inferred: &TensorInfo,
) -> Option<Diagnostic> {
    let (rule, problem) = match shape_disagreement(symbols, port, &inferred.shape) {
        Some(problem) => ("declared-shape-mismatch", problem),
        None => {
            let declared = port.element_type?;
            let disagree = inferred.element_type.is_static()
                && declared.is_static()
                && declared != inferred.element_type;
            if !disagree {
                return None;
            }
            (
                "declared-type-mismatch",
                format!(
                    "port {} declares element type {} but the tensor is {}",
                    port.id, declared, inferred.element_type
                ),
            )
        }
    };
    Some(
        Diagnostic::error(rule, problem)
            .at_layer(node.layer_ref(), port.location)
            .with_note(format!("declared: {}", render_declared(&port.dims)))
            .with_note(format!(
                "inferred: {} {}",
                inferred.element_type,
                inferred.shape.display(symbols)
            )),
    )
}

fn shape_disagreement(symbols: &SymbolTable, port: &PortDecl, inferred: &Shape) -> Option<String> {
    let declared = &port.dims;
    let id = port.id;
    let dims = inferred.dims()?;
    // No declared dims: OpenVINO writes a scalar and a dynamic rank alike, so
    // the port says nothing of the rank and agrees with any tensor.
    if declared.is_empty() {
        return None;
    }
    if declared.len() != dims.len() {
        return Some(format!(
            "port {id} declares rank {} but the tensor has rank {}",
            declared.len(),
            dims.len()
        ));
    }
    declared
        .iter()
        .zip(dims)
        .enumerate()
        .find_map(|(axis, (decl, dim))| match decl {
            DeclaredDim::Dynamic => None,
            DeclaredDim::Static(d) => {
                let d = i64::try_from(*d).ok();
                let agrees = match (d, dim.as_constant()) {
                    (Some(d), Some(v)) => d == v,
                    // A symbolic dim agrees if its bounds allow the declared value.
                    (Some(d), None) => symbols.bounds(dim).map_or(true, |b| b.contains(d)),
                    (None, _) => false,
                };
                (!agrees).then(|| {
                    format!(
                        "port {id} declares dim {axis} as {} but it is inferred as {}",
                        decl,
                        symbols.display(dim)
                    )
                })
            }
        })
}

/// `[?, 3, 4]`: a declaration as text.
pub fn render_declared(dims: &[DeclaredDim]) -> String {
    let items: Vec<_> = dims.iter().map(ToString::to_string).collect();
    format!("[{}]", items.join(", "))
}
