//! MulticlassNms-8 and -9: greedy non-maximum suppression per batch and
//! class (an IoU threshold that shrinks by `nms_eta` after each selection
//! while above 0.5), at most `keep_top_k` boxes per batch.
//!
//! Boxes `[B, N, 4]` with scores `[B, C, N]`, or (version 9, with the
//! `roisnum` input `[B]`) boxes `[C, M, 4]` with scores `[C, M]`, image `b`
//! owning `roisnum[b]` consecutive boxes of each class. Outputs `[K, 6]`,
//! `[K, 1]` and `[B]`; `K` is a fresh symbol bounded by
//! `B * min(min(N, nms_top_k) * C, keep_top_k)` (with `M` for `N` given
//! `roisnum`), OpenVINO's upper bound, kept symbolic where OpenVINO gives
//! `?`.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::nms_common::{self, SelectionAttrs, SelectionDims};
use crate::ops::{non_max_suppression, support};
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "MulticlassNms",
    versions: &[OpVersion::openvino(8, 8), OpVersion::openvino(9, 9)],
    infer,
    doc: OpDoc {
        summary: "Greedy non-maximum suppression per batch and class with an adaptive IoU threshold (`nms_eta`); v9 also takes per-class boxes split among images by `roisnum`: the selected class/score/box rows, their flat box indices and their count per batch.",
        attributes: "`sort_result_type` (classid, score, none), `sort_result_across_batch`, `output_type` (i32, i64), `iou_threshold`, `score_threshold`, `nms_top_k`, `keep_top_k`, `background_class` (-1 or more), `nms_eta` (in [0, 1]), `normalized`",
        symbolic: "boxes `[B, N, 4]` and scores `[B, C, N]`, or v9 boxes `[C, M, 4]`, scores `[C, M]` and roisnum `[B]`: `[k, 6]`, `[k, 1]`, `[B]` with `k` a fresh symbol `k ∈ [0, B*min(min(N, nms_top_k)*C, keep_top_k)]` (`M` for `N`; a limit of -1 left out; symbolic bound kept)",
        errors: "`nms-input` (boxes not 3-D, scores not 3-D (2-D with roisnum), roisnum not 1-D, boxes' last dim not 4, dims of boxes and scores that differ), `element-type` (boxes or scores not bf16/f16/f32 or of two types, roisnum not i32/i64), `nms-attribute` (`sort_result_type`, `output_type`, a float that is not a number, `nms_eta` outside [0, 1], `nms_top_k`, `keep_top_k` or `background_class` below -1)",
    },
};

fn rule(message: String) -> ShapeError {
    ShapeError::rule("nms-input", message)
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let max_inputs = if call.version >= 9 { 3 } else { 2 };
    call.expect_inputs(2, max_inputs)?;
    let attrs = SelectionAttrs::parse(&call.node.attributes)?;
    nms_common::f32_attr(&call.node.attributes, "iou_threshold", 0.0)?;
    let eta = nms_common::f32_attr(&call.node.attributes, "nms_eta", 1.0)?;
    if !(0.0..=1.0).contains(&eta) {
        return Err(ShapeError::rule(
            nms_common::ATTRIBUTE_RULE,
            format!("`nms_eta` must be in [0, 1], got {eta}"),
        ));
    }
    nms_common::warn_bools(ctx, call);
    let box_type = nms_common::expect_box_types(call)?;
    let dims = if call.inputs.len() == 3 {
        support::expect_index_input(call, 2, "roisnum (input 2)")?;
        per_class_boxes(ctx, call)?
    } else {
        non_max_suppression::boxes_and_scores(ctx, call, 4)?
    };
    let reason = "count of boxes MulticlassNms selects";
    nms_common::selection_outputs(ctx, call, &attrs, dims, box_type, reason)
}

/// Version 9 with `roisnum`: boxes `[C, M, 4]`, scores `[C, M]`, roisnum
/// `[B]`.
fn per_class_boxes(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<SelectionDims, ShapeError> {
    let boxes = call.inputs[0].shape.dims();
    let scores = call.inputs[1].shape.dims();
    let rois = call.inputs[2].shape.dims();
    for (dims, rank, what) in [
        (boxes, 3, "boxes (input 0)"),
        (scores, 2, "scores (input 1) with roisnum"),
        (rois, 1, "roisnum (input 2)"),
    ] {
        if let Some(d) = dims.filter(|d| d.len() != rank) {
            return Err(rule(format!(
                "{what} must be {rank}-D, got rank {}",
                d.len()
            )));
        }
    }
    if let Some(b) = boxes {
        non_max_suppression::expect_box_size(ctx, &b[2], 4)?;
    }
    let (classes, count) = match (boxes, scores) {
        (Some(b), Some(s)) => (
            Some(support::merge_equal_dims(
                ctx,
                &b[0],
                &s[0],
                "nms-input",
                "the class counts of boxes (dim 0) and scores (dim 0)",
            )?),
            Some(support::merge_equal_dims(
                ctx,
                &b[1],
                &s[1],
                "nms-input",
                "the box counts of boxes (dim 1) and scores (dim 1)",
            )?),
        ),
        (Some(b), None) => (Some(b[0].clone()), Some(b[1].clone())),
        (None, Some(s)) => (Some(s[0].clone()), Some(s[1].clone())),
        (None, None) => (None, None),
    };
    Ok(SelectionDims {
        batches: rois.map(|r| r[0].clone()),
        boxes: count,
        classes,
    })
}
