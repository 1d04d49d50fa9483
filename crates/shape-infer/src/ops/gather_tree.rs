//! GatherTree-1: the full beams of a beam search from the ids and parent
//! indices of each step (`[T, B, W]` both), with the length of each batch
//! item (`[B]`) and the end token (a scalar); steps after the end token
//! become the end token. The output has the ids' shape and type.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "GatherTree",
    versions: &[OpVersion::openvino(1, 1)],
    infer,
    doc: OpDoc {
        summary: "Beam-search paths from per-step ids and parent indices, cut at the end token.",
        attributes: "-",
        symbolic: "the ids' shape `[T, B, W]`, merged with the parents' and with B of max_seq_len",
        errors: "`input-rank` (ids or parents not 3-D, max_seq_len not 1-D, end_token not a scalar), `gather-tree-shape` (ids and parents differ, max_seq_len's length differs from B), `element-type` (inputs of different or non-numeric types)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(4, 4)?;
    let mut et = support::expect_same_type(call, 0, 1)?;
    for i in 2..4 {
        let t = support::expect_same_type(call, 0, i)?;
        if !et.is_static() {
            et = t;
        }
    }
    if et == ir::ElementType::Boolean {
        return Err(ShapeError::ElementType {
            what: "inputs".to_owned(),
            message: "must be numeric, got boolean".to_owned(),
        });
    }
    for (i, name, rank) in [
        (0, "step_ids", 3),
        (1, "parent_idx", 3),
        (2, "max_seq_len", 1),
        (3, "end_token", 0),
    ] {
        support::expect_rank_in(call, i, &[rank], &format!("{name} (input {i})"))?;
    }
    let shape = match (call.inputs[0].shape.dims(), call.inputs[1].shape.dims()) {
        (Some(a), Some(b)) => {
            let merged = a
                .iter()
                .zip(b)
                .map(|(x, y)| {
                    support::merge_equal_dims(
                        ctx,
                        x,
                        y,
                        "gather-tree-shape",
                        "step_ids and parent_idx",
                    )
                })
                .collect::<Result<Vec<_>, _>>()?;
            Some(merged)
        }
        (Some(a), None) | (None, Some(a)) => Some(a.to_vec()),
        (None, None) => None,
    };
    let Some(mut dims) = shape else {
        return Ok(vec![TensorInfo::new(et, call.inputs[0].shape.clone())]);
    };
    if let Some(lens) = call.inputs[2].shape.dims() {
        dims[1] = support::merge_equal_dims(
            ctx,
            &dims[1],
            &lens[0],
            "gather-tree-shape",
            "B of step_ids and the length of max_seq_len",
        )?;
    }
    Ok(vec![TensorInfo::new(et, ir::Shape::ranked(dims))])
}
