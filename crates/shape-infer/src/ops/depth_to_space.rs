//! DepthToSpace-1: `[N, C, D1, …, DK]` to `[N, C/bs^K, D1*bs, …, DK*bs]`,
//! moving blocks of channels into space (`mode` blocks_first or
//! depth_first, `block_size` bs). SpaceToDepth shares the attribute reading
//! ([`block_attrs`]).

use ir::{Dim, Shape};
use symdim::Predicate;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "DepthToSpace",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Blocks of channels moved into the spatial dims: `[N, C, D…]` to `[N, C/bs^K, D*bs…]`.",
        attributes: "`block_size` (default 1), `mode` (blocks_first, depth_first)",
        symbolic: "`C/bs^K` as an exact division with its divisibility a recorded constraint when C is symbolic; spatial dims `bs*D`",
        errors: "`block-rank` (rank below 3), `block-attribute` (`mode`, `block_size` below 1), `block-divisible` (static C not divisible by bs^K)",
    },
};

/// `block_size` and whether `mode` is blocks_first, checked.
pub(super) fn block_attrs(call: &OpCall<'_>) -> Result<(i64, bool), ShapeError> {
    let bs = call.node.attributes.i64("block_size")?.unwrap_or(1);
    if bs < 1 {
        return Err(ShapeError::rule(
            "block-attribute",
            format!("`block_size` {bs} is below 1"),
        ));
    }
    let blocks_first = match call
        .node
        .attributes
        .get("mode")
        .map(|m| m.trim().to_ascii_lowercase())
    {
        Some(m) if m == "blocks_first" => true,
        Some(m) if m == "depth_first" => false,
        Some(m) => {
            return Err(ShapeError::rule(
                "block-attribute",
                format!("`mode` {m} is not blocks_first or depth_first"),
            ))
        }
        None => {
            return Err(ShapeError::rule(
                "block-attribute",
                "the `mode` attribute is missing",
            ))
        }
    };
    Ok((bs, blocks_first))
}

/// `dim / divisor`, exact: an error when static and not divisible, else a
/// recorded constraint when it cannot be decided.
pub(super) fn exact_div(
    ctx: &mut InferContext,
    dim: &Dim,
    divisor: i64,
    what: &str,
) -> Result<Dim, ShapeError> {
    if let Some(d) = dim.as_constant() {
        if d % divisor != 0 {
            return Err(ShapeError::rule(
                "block-divisible",
                format!("{what} {d} is not divisible by {divisor}"),
            ));
        }
    }
    ctx.assume(Predicate::Divides {
        divisor,
        expr: dim.clone(),
    })?;
    Ok(dim.assumed_exact_div(divisor)?)
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    block_op(ctx, call, |ctx, dims, bs, blocks| {
        let mut out = vec![
            dims[0].clone(),
            exact_div(ctx, &dims[1], blocks, "the channel dim")?,
        ];
        for d in &dims[2..] {
            out.push(d.mul_const(bs)?);
        }
        Ok(out)
    })
}

/// A block op's output dims from the data's, `block_size` and its K-th power.
pub(super) type BlockShape =
    fn(&mut InferContext, &[Dim], i64, i64) -> Result<Vec<Dim>, ShapeError>;

/// The output of a block op (DepthToSpace, SpaceToDepth): `shape` of the
/// data's dims (rank 3 or more), `block_size` and `block_size^K` for K
/// spatial dims; an unknown rank stays unknown.
pub(super) fn block_op(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    shape: BlockShape,
) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let (bs, _) = block_attrs(call)?;
    let data = &call.inputs[0];
    let Some(dims) = data.shape.dims() else {
        return Ok(vec![TensorInfo::new(data.element_type, Shape::DynamicRank)]);
    };
    if dims.len() < 3 {
        return Err(ShapeError::rule(
            "block-rank",
            format!("the data must have rank 3 or more, got {}", dims.len()),
        ));
    }
    let k = u32::try_from(dims.len() - 2).unwrap_or(u32::MAX);
    let blocks = bs
        .checked_pow(k)
        .ok_or(ShapeError::Dim(symdim::DimError::Overflow))?;
    let out = shape(ctx, dims, bs, blocks)?;
    Ok(vec![TensorInfo::new(data.element_type, Shape::ranked(out))])
}
