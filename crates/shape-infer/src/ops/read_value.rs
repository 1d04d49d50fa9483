//! ReadValue-3 and -6: the current value of a variable, the state a model
//! keeps from one inference to the next (an Assign of the same
//! `variable_id` writes it).
//!
//! ReadValue-3's variable takes the type and shape of its one input, the
//! initial value. ReadValue-6 declares the variable (`variable_type`,
//! `variable_shape`) and its output has that type and shape, whatever the
//! optional initial value: a stored state may have other dims than the
//! initial value (a growing cache), so dynamic dims of `variable_shape`
//! are fresh symbols with the declared range, decided at run time. The
//! initial value must fit the declaration (OpenVINO: the variable's shape
//! "relaxes" the initial shape and its type is dynamic or the same).

use ir::{ElementType, Provenance, Shape};
use symdim::Predicate;

use super::support;
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "ReadValue",
    versions: &[OpVersion::openvino(3, 3), OpVersion::openvino(6, 6)],
    infer,
    doc: OpDoc {
        summary: "The value of the variable `variable_id` (state kept between inferences); the first inference reads the initial value (v6 without one: zeros).",
        attributes: "`variable_id`; v6: `variable_type` (default `dynamic`), `variable_shape` (OpenVINO dim syntax, default `...`)",
        symbolic: "v3: the initial value's type and shape; v6: `variable_type` and `variable_shape` with each `?` or interval a fresh symbol of that range (the state decides it at run time), or the initial value's when both are dynamic",
        errors: "`read-value-variable-id` (missing), `read-value-variable` (unreadable `variable_type`/`variable_shape`), `read-value-type`, `read-value-shape` (the initial value does not fit the declared variable); the Assign checks are `assign-variable`",
    },
};

fn rule(name: &'static str, message: impl Into<String>) -> ShapeError {
    ShapeError::rule(name, message)
}

/// The `variable_id` attribute, which both versions (and Assign) require.
pub fn variable_id(node: &ir::Node) -> Result<&str, ShapeError> {
    match node.attributes.get("variable_id").map(str::trim) {
        Some(id) if !id.is_empty() => Ok(id),
        _ => Err(rule(
            "read-value-variable-id",
            "the `variable_id` attribute is missing or empty",
        )),
    }
}

/// ReadValue-6's declared variable type (`dynamic` when absent).
pub fn variable_type(node: &ir::Node) -> Result<ElementType, ShapeError> {
    match node.attributes.get("variable_type") {
        None => Ok(ElementType::Dynamic),
        Some(text) => ElementType::parse(text).ok_or_else(|| {
            rule(
                "read-value-variable",
                format!("`variable_type` \"{text}\" is not an element type"),
            )
        }),
    }
}

/// ReadValue-6's declared variable shape (dynamic rank when absent), its
/// unknown and interval dims fresh symbols created by this layer.
fn variable_shape(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Shape, ShapeError> {
    let Some(text) = call.node.attributes.get("variable_shape") else {
        return Ok(Shape::DynamicRank);
    };
    let layer = &call.node.name;
    let line = call.node.location.line;
    ir::shape::parse_openvino_shape(&mut ctx.symbols, text, &|index| Provenance {
        layer: layer.clone(),
        line,
        reason: format!("dim {index} of the variable of ReadValue `{layer}` (its state)"),
    })
    .map_err(|e| {
        rule(
            "read-value-variable",
            format!("`variable_shape` \"{text}\" is invalid: {e}"),
        )
    })
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    variable_id(call.node)?;
    if call.version < 6 {
        call.expect_inputs(1, 1)?;
        // Not the value: the state replaces it after the first inference.
        return Ok(vec![TensorInfo::new(
            call.inputs[0].element_type,
            call.inputs[0].shape.clone(),
        )]);
    }
    call.expect_inputs(0, 1)?;
    let declared_type = variable_type(call.node)?;
    let declared_shape = variable_shape(ctx, call)?;
    if let Some(init) = call.inputs.first() {
        if declared_type.is_static() && init.element_type != declared_type {
            return Err(rule(
                "read-value-type",
                format!(
                    "the initial value is {} but the variable is declared {declared_type}",
                    init.element_type
                ),
            ));
        }
        check_initial_shape(ctx, &declared_shape, &init.shape)?;
        // OpenVINO's workaround for IRs of older versions: a variable of
        // dynamic rank and type takes the initial value's.
        if declared_shape == Shape::DynamicRank && !declared_type.is_static() {
            return Ok(vec![TensorInfo::new(init.element_type, init.shape.clone())]);
        }
    }
    Ok(vec![TensorInfo::new(declared_type, declared_shape)])
}

/// Checks that the declared variable shape admits the initial value's
/// (OpenVINO's `relaxes`): a static dim must equal the initial one (an
/// equality is assumed where undecided), an interval must contain it (its
/// ends are assumed where undecided).
fn check_initial_shape(
    ctx: &mut InferContext,
    declared: &Shape,
    initial: &Shape,
) -> Result<(), ShapeError> {
    let Some(declared_dims) = declared.dims() else {
        return Ok(());
    };
    let shown = |ctx: &InferContext, s: &Shape| s.display(&ctx.symbols).to_string();
    let Some(initial_dims) = initial.dims() else {
        return Err(rule(
            "read-value-shape",
            format!(
                "the initial value has an unknown rank but the variable is declared {}",
                shown(ctx, declared)
            ),
        ));
    };
    if declared_dims.len() != initial_dims.len() {
        return Err(rule(
            "read-value-shape",
            format!(
                "the initial value {} has rank {} but the variable is declared {} (rank {})",
                shown(ctx, initial),
                initial_dims.len(),
                shown(ctx, declared),
                declared_dims.len()
            ),
        ));
    }
    for (axis, (v, d)) in declared_dims.iter().zip(initial_dims).enumerate() {
        let what = format!("dim {axis} of the initial value and of the variable");
        if v.is_constant() {
            support::merge_equal_dims(ctx, d, v, "read-value-shape", &what)?;
            continue;
        }
        let Some(symbol) = v.as_symbol() else {
            continue;
        };
        let range = ctx.symbols.range(symbol);
        let bounds = ctx.symbols.bounds(d)?;
        let below = matches!((bounds.hi, range.lo), (Some(hi), Some(lo)) if hi < lo);
        let above = matches!((bounds.lo, range.hi), (Some(lo), Some(hi)) if lo > hi);
        if below || above {
            return Err(rule(
                "read-value-shape",
                format!(
                    "{what}: {} is outside the declared range [{}, {}]",
                    ctx.symbols.display(d),
                    range.lo.unwrap_or(0),
                    range.hi.map_or("inf".to_owned(), |h| h.to_string())
                ),
            ));
        }
        if let Some(lo) = range.lo {
            ctx.assume(Predicate::Ge(d.clone(), symdim::Expr::constant(lo)))?;
        }
        if let Some(hi) = range.hi {
            ctx.assume(Predicate::Le(d.clone(), symdim::Expr::constant(hi)))?;
        }
    }
    Ok(())
}
