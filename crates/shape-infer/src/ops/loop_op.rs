//! Loop-5 (`src/core/src/op/loop.cpp`): input 0 is the trip count (integer,
//! one element; -1 for none), input 1 the initial execution condition
//! (boolean, one element); inputs from 2 feed the body through its port map,
//! optional special ports give the body the iteration number and let it
//! decide whether to go on. The iteration count is known when the trip count
//! is (a constant, or an expression of dims such as a ShapeOf's) and the
//! body's condition is constantly true (constantly false: one
//! iteration; an initial condition known false: none); otherwise it is a
//! fresh symbol named after the layer, in `[0, trip count]` (`[0, ∞)` without
//! one), where OpenVINO answers `?`. Concatenated outputs get `iterations`
//! times the body's dim on their axis.

use ir::{ElementType, Interval, Node, Shape, SubGraph};
use symdim::Expr;

use super::bodies::{infer_iterated, iterated_outputs, scalar_value, seeds, single_body};
use crate::context::InferContext;
use crate::engine::{BodyOutcome, Walker};
use crate::error::ShapeError;
use crate::tensor::TensorInfo;

pub(crate) fn infer(
    walker: &mut Walker<'_>,
    ctx: &mut InferContext,
    node: &Node,
    sub: &SubGraph,
    inputs: &[TensorInfo],
) -> Result<(Vec<TensorInfo>, Vec<BodyOutcome>), ShapeError> {
    let body = single_body(sub, "Loop")?;
    let (Some(trip), Some(condition)) = (inputs.first(), inputs.get(1)) else {
        return Err(ShapeError::rule(
            "input-count",
            "a Loop needs a trip count and an execution condition",
        ));
    };
    for (tensor, what) in [(trip, "trip count"), (condition, "execution condition")] {
        if tensor.shape.rank().is_some_and(|r| r > 1) {
            return Err(ShapeError::rule(
                "loop-port-shape",
                format!("the Loop {what} must be of rank 0 or 1"),
            ));
        }
    }
    if !trip.element_type.is_integral() && trip.element_type != ElementType::Dynamic {
        return Err(ShapeError::rule(
            "element-type",
            format!(
                "the Loop trip count is {}, not an integer",
                trip.element_type
            ),
        ));
    }
    let mut seeds = seeds(body, inputs)?;
    if let Some(param) = body.current_iteration {
        // The iteration number: an integer of the Parameter's declared shape.
        let declared = body
            .graph
            .graph
            .node_weight(param)
            .and_then(|n| match &n.op {
                ir::Op::Parameter {
                    element_type,
                    shape,
                } => Some((*element_type, Shape::clone(shape))),
                _ => None,
            });
        let (element_type, shape) = declared.unwrap_or((ElementType::I64, Shape::scalar()));
        seeds.insert(param, TensorInfo::new(element_type, shape));
    }
    let (outcome, _) = infer_iterated(walker, ctx, node, body, seeds)?;

    let trip_count = scalar_value(trip);
    let initial = scalar_value(condition);
    let body_condition = body
        .condition
        .and_then(|result| outcome.result_tensor(result))
        .and_then(scalar_value);
    let go_on_always = body.condition.is_none() || body_condition.is_some_and(|v| v != 0);
    // A trip count known as an expression that cannot be negative (a dim
    // of a ShapeOf, as PyTorch's `for t in range(x.shape[1])` converts).
    let symbolic_trip = match trip.value.as_deref() {
        Some([v]) if v.as_constant().is_none() => ctx
            .symbols
            .bounds(v)
            .ok()
            .filter(|range| range.lo.is_some_and(|lo| lo >= 0))
            .map(|_| v.clone()),
        _ => None,
    };
    let iterations = match (initial, trip_count, body_condition, symbolic_trip) {
        (Some(0), _, _, _) => Expr::constant(0),
        (_, Some(0), _, _) => Expr::constant(0),
        (_, Some(n), _, _) if n > 0 && go_on_always => Expr::constant(n),
        (_, Some(n), Some(0), _) if n > 0 => Expr::constant(1),
        (_, None, _, Some(trips)) if go_on_always => trips,
        (_, trip_count, _, _) => {
            let hi = trip_count.filter(|&n| n >= 0);
            Expr::symbol(ctx.fresh_symbol(
                Interval::new(Some(0), hi),
                format!("iterations of Loop `{}`", node.name),
            ))
        }
    };
    let outputs = iterated_outputs(node, body, &outcome, &iterations)?;
    Ok((outputs, vec![outcome]))
}
