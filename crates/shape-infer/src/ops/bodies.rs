//! Shape inference through the bodies of If-8 ([`super::if_op`]), Loop-5
//! ([`super::loop_op`]) and TensorIterator-1 ([`super::tensor_iterator`]).
//!
//! The engine hands a node with bodies here instead of to a registry rule:
//! a body is inferred by the engine's own walk ([`Walker::body`]) over the
//! one symbol table, its Parameters seeded from the op's inputs through the
//! port map. This module holds what the three ops share: seeding, the
//! iteration count of a slice, back edges inferred to a fixed point and the
//! outputs of an iterated body.

use std::collections::HashMap;

use ir::{Body, Dim, Interval, Node, NodeId, Shape, SliceSpec, SubGraph};
use symdim::Expr;

use crate::context::InferContext;
use crate::engine::{BodyOutcome, Walker};
use crate::error::ShapeError;
use crate::tensor::TensorInfo;

use super::support;

/// What `docs/ops.md` says of the ops with bodies, which the engine infers
/// through their bodies rather than by a registry rule: (type name, versions
/// with their first opset, doc).
pub const BODY_OPS: &[(&str, &str, crate::registry::OpDoc)] = &[
    (
        "If",
        "v8 (opset8)",
        crate::registry::OpDoc {
            summary: "Runs `then_body` or `else_body` on the inputs their port maps name, by the condition (input 0); the chosen body's Results give the outputs. The executor runs the chosen body (`crates/executor/src/kernels/if_op.rs`).",
            attributes: "`then_port_map`/`else_port_map` (`input`: op input -> body Parameter; `output`: body Result -> op output)",
            symbolic: "a condition of known value infers only the body it selects; otherwise each output merges both bodies': equal dim expressions stay exact, different ones become a fresh dim over the hull of both ranges, different ranks an unknown rank",
            errors: "a condition not boolean or of rank above 1; a missing body; a body that gives no tensor for an output; outputs of different element types",
        },
    ),
    (
        "Loop",
        "v5 (opset5)",
        crate::registry::OpDoc {
            summary: "Runs its body while the trip count (input 0, negative: no limit) and the conditions allow (input 1 before the first iteration, the body's condition Result after each), with sliced, merged (back edge) and invariant inputs, and last-value or concatenated outputs. The executor runs it (`crates/executor/src/kernels/loop_op.rs`): the current-iteration Parameter gets the iteration number, zero iterations give the merged inputs' initial values and empty concatenations, and the iterations are capped by the run's `max_iterations`.",
            attributes: "`port_map` (`input` with `axis`, `start`, `end`, `stride`, `part_size` when sliced; `output` with `axis` when concatenated; `purpose` `current_iteration`/`execution_condition`), `back_edges`",
            symbolic: "the iteration count is the trip count when known (a constant, or an expression of dims such as a ShapeOf's) and the body's condition is constantly true, otherwise a fresh symbol named after the layer in `[0, bound]`, the bound the least of the trip count (`-1`: none), one (a body condition constantly false) and each sliced input's part count, kept as an expression (`?k ∈ [0, T]` for a trip count `T` of a ShapeOf) and checked at run time; concatenated outputs have iterations times the body's dim on their axis; a back edge whose shape changes gets loop-carried symbols",
            errors: "a trip count or condition of rank above 1; a trip count not integral; a port map naming a missing input or body node",
        },
    ),
    (
        "TensorIterator",
        "v1 (opset1)",
        crate::registry::OpDoc {
            summary: "Runs its body once per part of its sliced inputs (`part_size` along `axis`, backwards for a negative stride), with merged (back edge) and invariant inputs, and last-value or concatenated outputs (in reverse iteration order for a negative stride). The executor runs it (`crates/executor/src/kernels/tensor_iterator.rs`).",
            attributes: "`port_map` (`input` with `axis`, `start`, `end`, `stride`, `part_size` when sliced; `output` with them when concatenated), `back_edges`",
            symbolic: "the iteration count `(|end' - start'| + 1) / part_size` of the sliced axis, exact in the input's symbols (OpenVINO: `?`); sliced inputs must agree (a recorded constraint)",
            errors: "a zero stride or a part_size below 1; a sliced axis out of range; sliced inputs whose counts differ",
        },
    ),
];

/// The rule name of a body that does not give what the op needs.
pub(crate) const BODY_SHAPE: &str = "body-shape";

/// Infers `node`'s outputs through its bodies `sub`, given its `inputs`;
/// also returns each body's inference.
pub(crate) fn infer<'g>(
    walker: &mut Walker<'_>,
    ctx: &mut InferContext<'g>,
    node: &'g Node,
    sub: &'g SubGraph,
    inputs: &[&TensorInfo],
) -> Result<(Vec<TensorInfo>, Vec<BodyOutcome>), ShapeError> {
    match node.op_type.name.as_str() {
        "If" => super::if_op::infer(walker, ctx, node, sub, inputs),
        "TensorIterator" => super::tensor_iterator::infer(walker, ctx, node, sub, inputs),
        "Loop" => super::loop_op::infer(walker, ctx, node, sub, inputs),
        other => Err(ShapeError::rule(
            "bodies-invalid",
            format!("a `{other}` layer cannot own bodies (only If, Loop and TensorIterator)"),
        )),
    }
}

/// The input of `inputs` an entry of a port map names.
pub(crate) fn outer_input<'a>(
    inputs: &[&'a TensorInfo],
    outer: usize,
) -> Result<&'a TensorInfo, ShapeError> {
    inputs.get(outer).copied().ok_or_else(|| {
        ShapeError::rule(
            "port-map-invalid",
            format!("the port map names op input {outer}, which the layer does not have"),
        )
    })
}

/// The one body of a Loop or TensorIterator (`op` names it in the error).
pub(crate) fn single_body<'a>(sub: &'a SubGraph, op: &str) -> Result<&'a Body, ShapeError> {
    match sub.bodies.as_slice() {
        [body] => Ok(body),
        _ => Err(ShapeError::rule(
            "bodies-invalid",
            format!("a {op} needs exactly one body"),
        )),
    }
}

/// The known value of a one-element tensor (a trip count, a condition).
pub(crate) fn scalar_value(tensor: &TensorInfo) -> Option<i64> {
    match tensor.value.as_deref() {
        Some([v]) => v.as_constant(),
        _ => None,
    }
}

/// The Parameters' tensors of `body`: each op input whole, or for a sliced
/// input its shape with `part_size` on the axis (values dropped).
pub(crate) fn seeds(
    body: &Body,
    inputs: &[&TensorInfo],
) -> Result<HashMap<NodeId, TensorInfo>, ShapeError> {
    let mut seeds = HashMap::new();
    for input in &body.inputs {
        let outer = outer_input(inputs, input.outer)?;
        let tensor = match &input.slice {
            None => outer.clone(),
            Some(slice) => {
                let mut tensor = TensorInfo::new(outer.element_type, outer.shape.clone());
                if let Shape::Ranked(dims) = &mut tensor.shape {
                    let axis = support::normalize_axis(
                        slice.axis,
                        dims.len(),
                        "the axis of a sliced input",
                    )?;
                    dims[axis] = Expr::constant(slice.part_size);
                }
                tensor
            }
        };
        seeds.insert(input.param, tensor);
    }
    Ok(seeds)
}

/// How many iterations slicing `dim` as `slice` takes, as OpenVINO counts
/// them (`tensor_iterator.cpp`): `start` and `end` inclusive, negative ones
/// with the dim added, `(|end - start| + 1) / part_size`. The difference's
/// sign is the stride's (a forward slice ends after it starts).
pub fn slice_iterations(dim: &Dim, slice: &SliceSpec) -> Result<Dim, ShapeError> {
    if slice.part_size <= 0 || slice.stride == 0 {
        return Err(ShapeError::rule(
            "body-slice-invalid",
            format!(
                "part_size {} and stride {} must be positive and non-zero",
                slice.part_size, slice.stride
            ),
        ));
    }
    let position = |v: i64| -> Result<Dim, ShapeError> {
        Ok(if v < 0 {
            dim.add_const(v)?
        } else {
            Expr::constant(v)
        })
    };
    let (start, end) = (position(slice.start)?, position(slice.end)?);
    let span = if slice.stride > 0 {
        end.sub(&start)?
    } else {
        start.sub(&end)?
    };
    Ok(span.add_const(1)?.floor_div(slice.part_size)?)
}

/// A dim standing for `a` or `b`: `a` when they are the same expression,
/// otherwise a fresh symbol over the hull of both ranges (`hull`; else any
/// size: a loop-carried dim that changes from one iteration to the next
/// may take any value after more of them).
pub(crate) fn join_dim(ctx: &mut InferContext, a: &Dim, b: &Dim, reason: &str, hull: bool) -> Dim {
    if a == b {
        return a.clone();
    }
    let range = match (ctx.symbols.bounds(a), ctx.symbols.bounds(b)) {
        (Ok(x), Ok(y)) if hull => Interval::new(
            x.lo.zip(y.lo).map(|(p, q)| p.min(q)),
            x.hi.zip(y.hi).map(|(p, q)| p.max(q)),
        ),
        _ => Interval::new(Some(0), None),
    };
    Expr::symbol(ctx.fresh_symbol(range, reason.to_owned()))
}

/// A shape standing for `a` or `b` ([`join_dim`] per dim; different ranks
/// give an unknown rank).
pub(crate) fn join_shape(
    ctx: &mut InferContext,
    a: &Shape,
    b: &Shape,
    reason: &str,
    hull: bool,
) -> Shape {
    match (a, b) {
        (Shape::Ranked(x), Shape::Ranked(y)) if x.len() == y.len() => Shape::ranked(
            x.iter()
                .zip(y.iter())
                .enumerate()
                .map(|(i, (p, q))| join_dim(ctx, p, q, &format!("{reason}, dim {i}"), hull))
                .collect::<Vec<_>>(),
        ),
        _ => Shape::DynamicRank,
    }
}

/// Infers an iterated body (Loop, TensorIterator) with `seeds`. Where a back
/// edge carries a shape that differs from its Parameter's, the differing
/// dims become fresh loop-carried symbols (a different rank: an unknown
/// rank) and the body is inferred once more: its shapes then hold for every
/// iteration. Returns the outcome and whether a Parameter was widened.
pub(crate) fn infer_iterated<'g>(
    walker: &mut Walker<'_>,
    ctx: &mut InferContext<'g>,
    node: &'g Node,
    body: &'g Body,
    mut seeds: HashMap<NodeId, TensorInfo>,
) -> Result<(BodyOutcome, HashMap<NodeId, TensorInfo>), ShapeError> {
    let first = walker.body(ctx, node, body, &seeds);
    let mut widened = false;
    for edge in &body.back_edges {
        let (Some(seed), Some(carried)) = (seeds.get(&edge.to), first.result_tensor(edge.from))
        else {
            continue;
        };
        if seed.shape == carried.shape && seed.value.is_none() {
            continue;
        }
        let param = body
            .graph
            .graph
            .node_weight(edge.to)
            .map_or("", |n| n.name.as_str());
        let shape = join_shape(
            ctx,
            &seed.shape,
            &carried.shape,
            &format!("loop-carried `{param}`"),
            false,
        );
        if shape != seed.shape || seed.value.is_some() {
            widened = true;
            seeds.insert(edge.to, TensorInfo::new(seed.element_type, shape));
        }
    }
    let outcome = if widened {
        walker.body(ctx, node, body, &seeds)
    } else {
        first
    };
    Ok((outcome, seeds))
}

/// The op outputs of an iterated body: a Concat output has `iterations`
/// times the body's dim on its axis, a last-value output the body's tensor.
pub(crate) fn iterated_outputs(
    node: &Node,
    body: &Body,
    outcome: &BodyOutcome,
    iterations: &Dim,
) -> Result<Vec<TensorInfo>, ShapeError> {
    let mut outputs = Vec::with_capacity(node.outputs.len());
    for index in 0..node.outputs.len() {
        let map = body
            .outputs
            .iter()
            .find(|o| o.outer == index)
            .ok_or_else(|| {
                ShapeError::rule(
                    "body-output-unmapped",
                    format!("no body Result gives output {index}"),
                )
            })?;
        let tensor = outcome.result_tensor(map.result).ok_or_else(|| {
            ShapeError::rule(
                BODY_SHAPE,
                format!("the body Result of output {index} has no shape"),
            )
        })?;
        let tensor = match &map.concat {
            None => tensor.clone(),
            Some(slice) => {
                let shape = match &tensor.shape {
                    Shape::DynamicRank => Shape::DynamicRank,
                    // A scalar per iteration concatenates to `[iterations]`.
                    Shape::Ranked(dims) if dims.is_empty() => Shape::ranked([iterations.clone()]),
                    Shape::Ranked(dims) => {
                        let mut dims = dims.to_vec();
                        let axis = support::normalize_axis(
                            slice.axis,
                            dims.len(),
                            "the axis of a concatenated output",
                        )?;
                        dims[axis] = dims[axis].mul(iterations)?;
                        Shape::ranked(dims)
                    }
                };
                TensorInfo::new(tensor.element_type, shape)
            }
        };
        outputs.push(tensor);
    }
    Ok(outputs)
}
