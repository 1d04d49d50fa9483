//! ReverseSequence-1: for each slice `i` along `batch_axis`, the first
//! `seq_lengths[i]` elements along `seq_axis` reversed; the output has the
//! data's shape and type.
//!
//! As OpenVINO: the data has rank 2 or more, `seq_lengths` is 1-D with one
//! length per batch (its length and the batch dim merge), both axes lie in
//! `-rank..rank`. Lengths are numbers of any type (floats truncated, as
//! OpenVINO's CPU plugin); a length outside `0..=dim` of the sequence axis
//! is a run-time error.

use ir::Shape;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "ReverseSequence",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Reverses the first `seq_lengths[i]` elements along `seq_axis` of each slice `i` along `batch_axis`.",
        attributes: "`batch_axis` (default 0), `seq_axis` (default 1), each `-rank..rank`",
        symbolic: "output = data shape and type; the batch dim merged with the lengths' count (equality recorded when undecided)",
        errors: "`input-rank` (data below rank 2, lengths not 1-D), `axis-out-of-range`, `reverse-sequence-lengths` (lengths' count not the batch dim), `element-type` (non-numeric lengths)",
    },
};

/// `batch_axis` and `seq_axis` normalized into `0..rank`.
pub fn axes(attributes: &ir::Attributes, rank: usize) -> Result<(usize, usize), ShapeError> {
    let batch = attributes.i64("batch_axis")?.unwrap_or(0);
    let seq = attributes.i64("seq_axis")?.unwrap_or(1);
    Ok((
        support::normalize_axis(batch, rank, "batch_axis")?,
        support::normalize_axis(seq, rank, "seq_axis")?,
    ))
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let t = call.inputs[1].element_type;
    if t.is_static() && !(t.is_integral() || t.is_real()) {
        return Err(ShapeError::ElementType {
            what: "seq_lengths (input 1)".to_owned(),
            message: format!("must be numeric, got {t}"),
        });
    }
    support::expect_rank_le1(call, 1, "seq_lengths (input 1)", false)?;
    let data = &call.inputs[0];
    let Some(dims) = data.shape.dims() else {
        return Ok(vec![TensorInfo::new(data.element_type, Shape::DynamicRank)]);
    };
    if dims.len() < 2 {
        return Err(ShapeError::rule(
            "input-rank",
            format!("the data must have rank 2 or more, got {}", dims.len()),
        ));
    }
    let (batch, _) = axes(&call.node.attributes, dims.len())?;
    let mut out = dims.to_vec();
    if let Some([len]) = call.inputs[1].shape.dims() {
        out[batch] = support::merge_equal_dims(
            ctx,
            &dims[batch],
            len,
            "reverse-sequence-lengths",
            "the batch dim and the number of sequence lengths",
        )?;
    }
    Ok(vec![TensorInfo::new(data.element_type, Shape::ranked(out))])
}
