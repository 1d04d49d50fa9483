//! SpaceToBatch-2: `[N, D1, …]` with `block_shape` B, `pads_begin` PB and
//! `pads_end` PE (inputs 1 to 3, one value per data axis) to
//! `[N * prod(B), (D1 + PB1 + PE1) / B1, …]`: the spatial dims zero-padded,
//! then cut into blocks moved into the batch. The inputs are checked as
//! BatchToSpace's ([`super::batch_to_space`]).

use ir::Shape;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::batch_to_space::{block_product, operands, Operands};
use super::depth_to_space::exact_div;

pub static DEF: OpDef = OpDef {
    type_name: "SpaceToBatch",
    versions: &[OpVersion::openvino(2, 2)],
    infer,
    doc: OpDoc {
        summary: "The spatial dims zero-padded and cut into blocks moved into the batch: `[N, D…]` to `[N*prod(B), (D + PB + PE)/B…]`.",
        attributes: "-",
        symbolic: "`N*prod(B)`; spatial dims `(D + PB + PE)/B` exact divisions with their divisibility a recorded constraint (pads kept as expressions); fresh dims when the block or pad values are unknown",
        errors: "`input-rank` (data below rank 2, block or pads not 1-D), `batch-space-inputs` (block and pads of different lengths or not the data's rank), `batch-space-values` (a block below 1, a negative pad, a block other than 1 or a pad on the batch axis), `block-divisible` (a static padded dim not divisible by its block), `element-type` (non-integer block or pads)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let (et, dims, (block, begin, end)) =
        match operands(ctx, call, ["pads_begin", "pads_end"], "pads")? {
            Operands::Known(et, dims, values) => (et, dims, values),
            Operands::Settled(out) => return Ok(vec![out]),
        };
    let mut out = vec![dims[0].mul_const(block_product(&block)?)?];
    for i in 1..dims.len() {
        let padded = dims[i].add(&begin[i])?.add(&end[i])?;
        out.push(exact_div(
            ctx,
            &padded,
            block[i],
            &format!("the padded dim {i}"),
        )?);
    }
    Ok(vec![TensorInfo::new(et, Shape::ranked(out))])
}
