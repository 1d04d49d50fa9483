//! TensorIterator-1 (`src/core/src/op/tensor_iterator.cpp`): the body runs
//! once per slice of its sliced inputs. Sliced Parameters get the input's
//! shape with `part_size` on the axis, the others the input's shape; the
//! iteration count is `(|end' - start'| + 1) / part_size` of the sliced axis
//! (`end'`, `start'` with the dim added when negative): `S` for a whole
//! axis `S` in steps of one, exact in the input's symbols where OpenVINO
//! answers `?`. Every sliced input must give the same count. Concatenated
//! outputs get `iterations` times the body's dim on their axis.

use ir::{Node, Shape, SubGraph};
use symdim::{Expr, Predicate};

use super::bodies::{
    infer_iterated, iterated_outputs, outer_input, seeds, single_body, slice_iterations,
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
    let body = single_body(sub, "TensorIterator")?;
    let mut iterations: Option<Expr> = None;
    for input in &body.inputs {
        let Some(slice) = &input.slice else { continue };
        let outer = outer_input(inputs, input.outer)?;
        let count = match &outer.shape {
            Shape::Ranked(dims) => {
                let axis =
                    support::normalize_axis(slice.axis, dims.len(), "the axis of a sliced input")?;
                slice_iterations(&dims[axis], slice)?
            }
            Shape::DynamicRank => Expr::symbol(ctx.fresh_symbol(
                ir::Interval::new(Some(0), None),
                format!(
                    "iterations of TensorIterator `{}` over an input of unknown rank",
                    node.name
                ),
            )),
        };
        match &iterations {
            None => iterations = Some(count),
            Some(first) => ctx.assume(Predicate::equal(first, &count))?,
        }
    }
    let iterations = match iterations {
        Some(count) => count,
        // No sliced input: OpenVINO counts `|end - start| / part_size` of the
        // first concatenated output as written.
        None => match body.outputs.iter().find_map(|o| o.concat) {
            Some(slice) if slice.part_size > 0 => Expr::constant(
                (slice.end - slice.start)
                    .unsigned_abs()
                    .try_into()
                    .unwrap_or(i64::MAX)
                    / slice.part_size,
            ),
            _ => Expr::symbol(ctx.fresh_symbol(
                ir::Interval::new(Some(0), None),
                format!("iterations of TensorIterator `{}`", node.name),
            )),
        },
    };
    let (outcome, _) = infer_iterated(walker, ctx, node, body, seeds(body, inputs)?)?;
    let outputs = iterated_outputs(node, body, &outcome, &iterations)?;
    Ok((outputs, vec![outcome]))
}
