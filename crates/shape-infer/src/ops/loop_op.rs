//! Loop-5 (`src/core/src/op/loop.cpp`): input 0 is the trip count (integer,
//! one element; -1 for none), input 1 the initial execution condition
//! (boolean, one element); inputs from 2 feed the body through its port map,
//! optional special ports give the body the iteration number and let it
//! decide whether to go on. The iteration count is known when the trip count
//! is (a constant, or an expression of dims such as a ShapeOf's) and the
//! body's condition is constantly true (constantly false: one
//! iteration when the trip count is at least one, as OpenVINO answers
//! whatever the trip count, though its CPU plugin then returns an
//! uninitialized row for a trip count of 0; an initial condition known
//! false: none); otherwise it is a
//! fresh symbol named after the layer, where OpenVINO answers `?`, in
//! `[0, bound]` with the bound the smallest of the trip count (when it
//! cannot be negative: `-1` is no limit), one (a body condition constantly
//! false) and each sliced input's part count (OpenVINO's CPU plugin, as the
//! executor, fails past the last part). A bound that is an expression (`T`
//! of a ShapeOf) is kept as the symbol's upper bound, `?k ∈ [0, T]`, which
//! reports show and runs check. Concatenated outputs get `iterations` times
//! the body's dim on their axis.

use ir::{Body, ElementType, Interval, Node, Shape, SubGraph};
use symdim::{Expr, Provenance};

use super::bodies::{
    infer_iterated, iterated_outputs, outer_input, scalar_value, seeds, single_body,
    slice_iterations,
};
use super::support;
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
    let symbolic_trip: Option<Expr> = match trip.value.as_deref() {
        Some([v]) if v.as_constant().is_none() => ctx
            .symbols
            .bounds(v)
            .ok()
            .filter(|range| range.lo.is_some_and(|lo| lo >= 0))
            .map(|_| v.clone()),
        _ => None,
    };
    let iterations = match (initial, trip_count, body_condition, &symbolic_trip) {
        (Some(0), _, _, _) => Expr::constant(0),
        (_, Some(0), _, _) => Expr::constant(0),
        (_, Some(n), _, _) if n > 0 && go_on_always => Expr::constant(n),
        (_, Some(n), Some(0), _) if n > 0 => Expr::constant(1),
        (_, None, _, Some(trips)) if go_on_always => trips.clone(),
        (_, None, Some(0), Some(trips)) if at_least_one(ctx, trips) => Expr::constant(1),
        _ => {
            let trip_bound = match trip_count {
                Some(n) if n >= 0 => Some(Expr::constant(n)),
                Some(_) => None,
                None => symbolic_trip,
            };
            let once = body_condition == Some(0);
            let bound = iteration_bound(ctx, body, inputs, trip_bound, once)?;
            fresh_iterations(ctx, node, bound)?
        }
    };
    let outputs = iterated_outputs(node, body, &outcome, &iterations)?;
    Ok((outputs, vec![outcome]))
}

/// Whether the trip count `trips` is at least one for every value of its symbols.
fn at_least_one(ctx: &InferContext, trips: &Expr) -> bool {
    ctx.symbols
        .bounds(trips)
        .is_ok_and(|range| range.lo.is_some_and(|lo| lo >= 1))
}

/// The most iterations a Loop whose count is not known can run: the
/// smallest of its trip count (`trip`, when it cannot be negative), one
/// (`once`: the body's condition is constantly false) and the part count of
/// each sliced input. `None` when nothing bounds it (`-1`, a trip count that
/// may be negative, and no sliced input).
fn iteration_bound(
    ctx: &InferContext,
    body: &Body,
    inputs: &[&TensorInfo],
    trip: Option<Expr>,
    once: bool,
) -> Result<Option<Expr>, ShapeError> {
    let mut bounds: Vec<Expr> = trip.into_iter().collect();
    if once {
        bounds.push(Expr::one());
    }
    for input in &body.inputs {
        let Some(slice) = &input.slice else { continue };
        if let Shape::Ranked(dims) = &outer_input(inputs, input.outer)?.shape {
            let axis =
                support::normalize_axis(slice.axis, dims.len(), "the axis of a sliced input")?;
            bounds.push(slice_iterations(&dims[axis], slice)?);
        }
    }
    let mut bounds = bounds.into_iter();
    let Some(first) = bounds.next() else {
        return Ok(None);
    };
    let bound = bounds.try_fold(first, |least, b| ctx.symbols.min(&least, &b))?;
    Ok(Some(bound))
}

/// The fresh symbol of a Loop's iteration count, in `[0, bound]`: a
/// constant bound is its range, an expression also its upper bound (so
/// `?k ∈ [0, T]` is shown and checked at run time); no bound is `[0, ∞)`.
fn fresh_iterations(
    ctx: &mut InferContext,
    node: &Node,
    bound: Option<Expr>,
) -> Result<Expr, ShapeError> {
    let reason = format!("iterations of Loop `{}`", node.name);
    let range_hi = match &bound {
        None => None,
        Some(b) => match ctx.symbols.bounds(b)?.hi {
            Some(hi) if hi <= 0 => return Ok(Expr::zero()),
            hi => hi,
        },
    };
    let symbol = match bound {
        Some(b) if !b.is_constant() => {
            let provenance = Provenance {
                layer: node.name.clone(),
                line: node.location.line,
                reason,
            };
            ctx.symbols.fresh_bounded(&b, Some(provenance))?
        }
        _ => ctx.fresh_symbol(Interval::new(Some(0), range_hi), reason),
    };
    Ok(Expr::symbol(symbol))
}
