//! Concat-1: joins its inputs along `axis`.
//!
//! The axis dim is the sum of the inputs' dims; the others must agree. The
//! values of 1-D pieces concatenate, which is how exported models assemble a
//! Reshape target: `Concat(Gather(ShapeOf), [4, 16])` is `[N, S, 4, 16]`.

use ir::{Dim, ElementType, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "Concat",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Concatenates the inputs along `axis`.",
        attributes: "`axis` (required; negative counts from the rank)",
        symbolic: "the axis dim is the symbolic sum; other dims must be equal: an undecidable equality (`N` against `3`) is recorded as a constraint and the static dim is used; values (shape pieces) concatenate, and their bounds where some pieces are unknown",
        errors: "no input, element types that differ, ranks that differ, axis out of range, a non-axis dim provably different between inputs (`concat-dim-mismatch`)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, usize::MAX)?;
    let raw_axis =
        call.node
            .attributes
            .i64("axis")?
            .ok_or_else(|| ir::AttributeError::Missing {
                key: "axis".to_owned(),
            })?;
    let mut element_type = ElementType::Dynamic;
    for (i, input) in call.inputs.iter().enumerate() {
        let t = input.element_type;
        if !t.is_static() {
            continue;
        }
        if element_type.is_static() && element_type != t {
            return Err(ShapeError::ElementType {
                what: format!("input {i}"),
                message: format!(
                    "must have the element type of the other inputs ({element_type}), got {t}"
                ),
            });
        }
        element_type = t;
    }
    let ranked: Vec<(usize, &[Dim])> = call
        .inputs
        .iter()
        .enumerate()
        .filter_map(|(i, t)| t.shape.dims().map(|d| (i, d)))
        .collect();
    let Some(&(first, first_dims)) = ranked.first() else {
        return Ok(vec![TensorInfo::new(element_type, Shape::DynamicRank)]);
    };
    let rank = first_dims.len();
    if let Some(&(i, dims)) = ranked.iter().find(|(_, d)| d.len() != rank) {
        return Err(ShapeError::rule(
            "concat-rank",
            format!(
                "input {i} has rank {} but input {first} has rank {rank}",
                dims.len()
            ),
        ));
    }
    let axis = support::normalize_axis(raw_axis, rank, "axis")?;
    let mut out: Vec<Dim> = first_dims.to_vec();
    // Inputs of one axis dim (a Concat of 1,000 branches): their sum at
    // once, when it can be formed; else (and for the errors, in their
    // order) one input at a time.
    let first_axis_dim = &first_dims[axis];
    let repeated = ranked
        .iter()
        .all(|(_, dims)| dims[axis] == *first_axis_dim)
        .then(|| first_axis_dim.repeated_sum(ranked.len()).ok())
        .flatten();
    let mut sum = Expr::zero();
    for &(i, dims) in &ranked {
        for (d, dim) in dims.iter().enumerate() {
            if d == axis {
                if repeated.is_none() {
                    sum = sum.add(dim)?;
                }
            } else if out[d] != *dim {
                // Equal dims merge to themselves; the message is written
                // only for the others (a Concat of 1,000 inputs wrote 1,000).
                out[d] = support::merge_equal_dims(
                    ctx,
                    &out[d],
                    dim,
                    "concat-dim-mismatch",
                    &format!("dim {d} of input {first} and of input {i}"),
                )?;
            }
        }
    }
    out[axis] = if ranked.len() == call.inputs.len() {
        repeated.unwrap_or(sum)
    } else {
        support::unknown_dim(ctx, "concatenated dim of an input of unknown rank")
    };
    // Values concatenate only when every input has them (the data of a
    // Concat of 1,000 branches has none: nothing is copied then).
    let value = if call.inputs.iter().all(|t| t.value.is_some()) {
        let values: Vec<Option<Vec<Dim>>> = call.inputs.iter().map(|t| t.value.clone()).collect();
        concatenate(call, axis, &values)
    } else {
        None
    };
    // Some elements unknown: OpenVINO still concatenates their bounds
    // (`[?, 16, 50, 50]` from a Parameter and three constants), when some
    // input knows something of its elements.
    let informative = call
        .inputs
        .iter()
        .any(|t| t.value.is_some() || t.value_bounds().is_some());
    let bounds = match value {
        Some(_) => None,
        None if informative => {
            let bounds: Vec<Option<Vec<(f64, f64)>>> =
                call.inputs.iter().map(|t| element_bounds(ctx, t)).collect();
            concatenate(call, axis, &bounds)
        }
        None => None,
    };
    let tensor = TensorInfo::new(element_type, Shape::ranked(out));
    Ok(vec![tensor.with_value(value).with_value_bounds(bounds)])
}

/// Each element's bounds: from exact values, value bounds, a float
/// constant, or for an integer tensor of known size, unbounded.
fn element_bounds(ctx: &InferContext, input: &TensorInfo) -> Option<Vec<(f64, f64)>> {
    if let Some(known) = support::known_value_bounds(ctx, input) {
        return Some(known);
    }
    let count = input
        .shape
        .to_static()?
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(usize::try_from(d).ok()?))?;
    (input.element_type.is_integral() && count <= support::MAX_VALUE_ELEMENTS)
        .then(|| vec![(f64::NEG_INFINITY, f64::INFINITY); count])
}

/// The concatenated elements when every input has them and a static shape.
fn concatenate<T: Clone>(
    call: &OpCall<'_>,
    axis: usize,
    elements: &[Option<Vec<T>>],
) -> Option<Vec<T>> {
    let mut pieces = Vec::new();
    let mut outer = None;
    let mut total = 0usize;
    for (input, values) in call.inputs.iter().zip(elements) {
        let shape = input.shape.to_static()?;
        let values = values.as_deref()?;
        let o = shape[..axis]
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(usize::try_from(d).ok()?))?;
        let chunk = shape[axis..]
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(usize::try_from(d).ok()?))?;
        if o.checked_mul(chunk)? != values.len() || outer.is_some_and(|x| x != o) {
            return None;
        }
        outer = Some(o);
        total = total.checked_add(values.len())?;
        pieces.push((values, chunk));
    }
    if total > support::MAX_VALUE_ELEMENTS {
        return None;
    }
    let mut out = Vec::with_capacity(total);
    for o in 0..outer? {
        for (values, chunk) in &pieces {
            out.extend_from_slice(values.get(o * chunk..(o + 1) * chunk)?);
        }
    }
    Some(out)
}
