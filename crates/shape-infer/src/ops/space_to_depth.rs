//! SpaceToDepth-1: `[N, C, D1, …, DK]` to `[N, C*bs^K, D1/bs, …, DK/bs]`,
//! the inverse of DepthToSpace (same attributes).

use ir::Shape;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::depth_to_space::{block_attrs, exact_div};
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "SpaceToDepth",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Spatial blocks moved into the channels: `[N, C, D…]` to `[N, C*bs^K, D/bs…]`.",
        attributes: "`block_size` (default 1), `mode` (blocks_first, depth_first)",
        symbolic: "spatial dims `D/bs` as exact divisions with their divisibility a recorded constraint when symbolic; channels `bs^K*C`",
        errors: "`block-rank`, `block-attribute`, `block-divisible` (a static spatial dim not divisible by bs)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
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
    let factor = bs
        .checked_pow(k)
        .ok_or(ShapeError::Dim(symdim::DimError::Overflow))?;
    let mut out = vec![dims[0].clone(), dims[1].mul_const(factor)?];
    for (axis, d) in dims[2..].iter().enumerate() {
        out.push(exact_div(ctx, d, bs, &format!("spatial dim {axis}"))?);
    }
    Ok(vec![TensorInfo::new(data.element_type, Shape::ranked(out))])
}
