//! SpaceToDepth-1: `[N, C, D1, …, DK]` to `[N, C*bs^K, D1/bs, …, DK/bs]`,
//! the inverse of DepthToSpace (same attributes).

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::depth_to_space::{block_op, exact_div};
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
    block_op(ctx, call, |ctx, dims, bs, blocks| {
        let mut out = vec![dims[0].clone(), dims[1].mul_const(blocks)?];
        for (axis, d) in dims[2..].iter().enumerate() {
            out.push(exact_div(ctx, d, bs, &format!("spatial dim {axis}"))?);
        }
        Ok(out)
    })
}
