//! CTCGreedyDecoderSeqLen-6: greedy (best-path) decoding of logits
//! `[N, T, C]` with a length per batch item: the arg-max class of each of
//! the first `sequence_length[n]` steps, repeats merged under
//! `merge_repeated`, the blank class (input 2, default `C - 1`) dropped.
//! Outputs: the classes `[N, T]` (`classes_index_type`, padded with -1) and
//! the decoded lengths `[N]` (`sequence_length_type`).

use ir::{ElementType, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "CTCGreedyDecoderSeqLen",
    versions: &[OpVersion::openvino(6, 6)],
    infer,
    doc: OpDoc {
        summary: "Greedy CTC decoding of `[N, T, C]` logits with a length per batch item; the classes `[N, T]` (padded with -1) and their counts `[N]`.",
        attributes: "`merge_repeated` (default true), `classes_index_type` and `sequence_length_type` (i32 default, i64)",
        symbolic: "`[N, T]` and `[N]` from the logits' dims, N merged with the lengths'",
        errors: "`input-rank` (logits not 3-D, lengths not 1-D, blank_index neither a scalar nor of one element), `ctc-shape` (N of the lengths differs from the logits'), `element-type` (non-float logits, lengths or blank index not i32/i64), `attribute-invalid` (an index type other than i32/i64)",
    },
};

fn index_type(call: &OpCall<'_>, key: &str) -> Result<ElementType, ShapeError> {
    support::index_type_attr(call, key, ElementType::I32, "attribute-invalid")
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 3)?;
    support::bool_attr(ctx, call, "merge_repeated", true);
    let classes = index_type(call, "classes_index_type")?;
    let lengths = index_type(call, "sequence_length_type")?;
    support::expect_real_input(call, 0, "logits (input 0)")?;
    for i in 1..call.inputs.len() {
        support::expect_index_input(call, i, &format!("input {i}"))?;
    }
    if let Some(blank) = call.inputs.get(2).and_then(|t| t.shape.to_static()) {
        if !(blank.is_empty() || blank == [1]) {
            return Err(ShapeError::rule(
                "input-rank",
                format!(
                    "blank_index (input 2) must be a scalar or have one element, got {blank:?}"
                ),
            ));
        }
    }
    let logits = call.inputs[0].shape.dims();
    let lens = call.inputs[1].shape.dims();
    if let Some(d) = logits.filter(|d| d.len() != 3) {
        return Err(ShapeError::rule(
            "input-rank",
            format!(
                "the logits (input 0) must be 3-D [N, T, C], got rank {}",
                d.len()
            ),
        ));
    }
    if let Some(d) = lens.filter(|d| d.len() != 1) {
        return Err(ShapeError::rule(
            "input-rank",
            format!(
                "sequence_length (input 1) must be 1-D [N], got rank {}",
                d.len()
            ),
        ));
    }
    let batch = match (logits, lens) {
        (Some(l), Some(s)) => support::merge_equal_dims(
            ctx,
            &l[0],
            &s[0],
            "ctc-shape",
            "N of the logits and of sequence_length",
        )?,
        (Some(d), None) | (None, Some(d)) => d[0].clone(),
        (None, None) => {
            support::unknown_dim(ctx, "N of CTCGreedyDecoderSeqLen's inputs of unknown rank")
        }
    };
    let time = match logits {
        Some(l) => l[1].clone(),
        None => support::unknown_dim(ctx, "T of CTCGreedyDecoderSeqLen's logits of unknown rank"),
    };
    Ok(vec![
        TensorInfo::new(classes, Shape::ranked(vec![batch.clone(), time])),
        TensorInfo::new(lengths, Shape::ranked(vec![batch])),
    ])
}
