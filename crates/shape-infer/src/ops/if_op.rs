//! If-8 (`src/core/src/op/if.cpp`): input 0 is the condition (a boolean
//! scalar or one-element tensor); the other inputs feed both bodies through
//! their port maps. A condition of known value infers only the body it
//! selects; otherwise both bodies are inferred with the inputs' shapes and
//! each output is their merge: equal dim expressions stay exact, different
//! ones become a fresh dim over the hull of both ranges (OpenVINO: an
//! interval, or `?`), different ranks an unknown rank.

use ir::{BodyRole, ElementType, Node, SubGraph};

use super::bodies::{join_shape, scalar_value, seeds, BODY_SHAPE};
use crate::context::InferContext;
use crate::engine::{BodyOutcome, Walker};
use crate::error::ShapeError;
use crate::tensor::TensorInfo;

pub(crate) fn infer<'g>(
    walker: &mut Walker<'_>,
    ctx: &mut InferContext<'g>,
    node: &'g Node,
    sub: &'g SubGraph,
    inputs: &[&TensorInfo],
) -> Result<(Vec<TensorInfo>, Vec<BodyOutcome>), ShapeError> {
    let condition = inputs
        .first()
        .ok_or_else(|| ShapeError::rule("input-count", "If needs a condition input"))?;
    if condition.element_type != ElementType::Boolean
        && condition.element_type != ElementType::Dynamic
    {
        return Err(ShapeError::rule(
            "element-type",
            format!(
                "the If condition is {}, not boolean",
                condition.element_type
            ),
        ));
    }
    if condition.shape.rank().is_some_and(|r| r > 1) {
        return Err(ShapeError::rule(
            "if-condition-rank",
            "the If condition must be of rank 0 or 1",
        ));
    }
    let (Some(then), Some(otherwise)) = (sub.body(BodyRole::Then), sub.body(BodyRole::Else)) else {
        return Err(ShapeError::rule(
            "bodies-invalid",
            "an If needs a then body and an else body",
        ));
    };
    let known = scalar_value(condition).map(|v| v != 0);
    let mut outcomes = Vec::new();
    let mut per_body = Vec::new();
    for body in [then, otherwise] {
        // A known condition leaves the other body uninferred: its shapes
        // say nothing about this model's tensors.
        if known.is_some_and(|k| k != (body.role == BodyRole::Then)) {
            outcomes.push(BodyOutcome::default());
            continue;
        }
        let outcome = walker.body(ctx, node, body, &seeds(body, inputs)?);
        let mut outputs = Vec::with_capacity(node.outputs.len());
        for index in 0..node.outputs.len() {
            let tensor = body
                .outputs
                .iter()
                .find(|o| o.outer == index)
                .and_then(|o| outcome.result_tensor(o.result))
                .ok_or_else(|| {
                    ShapeError::rule(
                        BODY_SHAPE,
                        format!(
                            "the {} gives no tensor for output {index}",
                            body.role.name()
                        ),
                    )
                })?;
            outputs.push(tensor.clone());
        }
        per_body.push(outputs);
        outcomes.push(outcome);
    }
    let outputs = match per_body.as_slice() {
        [one] => one.clone(),
        [a, b] => {
            let mut merged = Vec::with_capacity(a.len());
            for (index, (x, y)) in a.iter().zip(b).enumerate() {
                if x.element_type != y.element_type {
                    return Err(ShapeError::rule(
                        BODY_SHAPE,
                        format!(
                            "output {index} is {} in the then body but {} in the else body",
                            x.element_type, y.element_type
                        ),
                    ));
                }
                if x == y {
                    merged.push(x.clone());
                    continue;
                }
                let reason = format!(
                    "output {index} of If `{}`: the then or the else body's, by the condition",
                    node.name
                );
                let shape = join_shape(ctx, &x.shape, &y.shape, &reason, true);
                let value = (x.value == y.value).then(|| x.value.clone()).flatten();
                merged.push(TensorInfo::new(x.element_type, shape).with_value(value));
            }
            merged
        }
        _ => Vec::new(),
    };
    Ok((outputs, outcomes))
}
