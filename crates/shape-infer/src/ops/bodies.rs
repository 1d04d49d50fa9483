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

/// The rule name of a body that does not give what the op needs.
pub(crate) const BODY_SHAPE: &str = "body-shape";

/// Infers `node`'s outputs through its bodies `sub`, given its `inputs`;
/// also returns each body's inference.
pub(crate) fn infer(
    walker: &mut Walker<'_>,
    ctx: &mut InferContext,
    node: &Node,
    sub: &SubGraph,
    inputs: &[TensorInfo],
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
pub(crate) fn outer_input(inputs: &[TensorInfo], outer: usize) -> Result<&TensorInfo, ShapeError> {
    inputs.get(outer).ok_or_else(|| {
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
    inputs: &[TensorInfo],
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
/// otherwise a fresh symbol over the hull of both ranges.
pub(crate) fn join_dim(ctx: &mut InferContext, a: &Dim, b: &Dim, reason: &str) -> Dim {
    if a == b {
        return a.clone();
    }
    let range = match (ctx.symbols.bounds(a), ctx.symbols.bounds(b)) {
        (Ok(x), Ok(y)) => Interval::new(
            x.lo.zip(y.lo).map(|(p, q)| p.min(q)),
            x.hi.zip(y.hi).map(|(p, q)| p.max(q)),
        ),
        _ => Interval::new(Some(0), None),
    };
    Expr::symbol(ctx.fresh_symbol(range, reason.to_owned()))
}

/// A shape standing for `a` or `b` ([`join_dim`] per dim; different ranks
/// give an unknown rank).
pub(crate) fn join_shape(ctx: &mut InferContext, a: &Shape, b: &Shape, reason: &str) -> Shape {
    match (a, b) {
        (Shape::Ranked(x), Shape::Ranked(y)) if x.len() == y.len() => Shape::ranked(
            x.iter()
                .zip(y.iter())
                .enumerate()
                .map(|(i, (p, q))| join_dim(ctx, p, q, &format!("{reason}, dim {i}")))
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
pub(crate) fn infer_iterated(
    walker: &mut Walker<'_>,
    ctx: &mut InferContext,
    node: &Node,
    body: &Body,
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
