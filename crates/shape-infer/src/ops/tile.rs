//! Tile-1: repeats the input `repeats[i]` times along each axis.

use ir::{Dim, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "Tile",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Repeats the input along each axis; the shorter of the shape and `repeats` is padded with leading 1s.",
        attributes: "-",
        symbolic: "rank `max(rank, len(repeats))`; dims `dim * max(repeat, 0)` with repeats that may be shape values; unknown repeats give fresh dims when their length is known",
        errors: "non-integer or non-1-D `repeats`",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    support::expect_integer_input(call, 1, "repeats (input 1)")?;
    support::expect_rank_le1(call, 1, "repeats (input 1)", false)?;
    let data = &call.inputs[0];
    let Some(dims) = data.shape.dims() else {
        return Ok(vec![TensorInfo::new(data.element_type, Shape::DynamicRank)]);
    };
    let Some(repeats) = support::input_values(call, 1) else {
        let len = call.inputs[1]
            .shape
            .to_static()
            .and_then(|s| s.first().copied())
            .and_then(|n| usize::try_from(n).ok());
        return Ok(vec![match len {
            Some(n) if n <= support::MAX_VALUE_ELEMENTS => {
                let rank = n.max(dims.len());
                let out: Vec<Dim> = (0..rank)
                    .map(|i| {
                        support::unknown_dim(
                            ctx,
                            format!("dim {i} of Tile with repeats known only at run time"),
                        )
                    })
                    .collect();
                TensorInfo::new(data.element_type, Shape::ranked(out))
            }
            _ => TensorInfo::new(data.element_type, Shape::DynamicRank),
        }]);
    };
    let rank = repeats.len().max(dims.len());
    let one = Expr::one();
    let mut out = Vec::with_capacity(rank);
    for i in 0..rank {
        let d = (i + dims.len())
            .checked_sub(rank)
            .map_or(&one, |j| &dims[j]);
        let r = (i + repeats.len())
            .checked_sub(rank)
            .map_or(&one, |j| &repeats[j]);
        let r = ctx.symbols.max(r, &Expr::zero())?;
        out.push(d.mul(&r)?);
    }
    Ok(vec![TensorInfo::new(data.element_type, Shape::ranked(out))])
}
