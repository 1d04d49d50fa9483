//! NMSRotated-13: NonMaxSuppression-9 of rotated boxes `[B, N, 5]`
//! (`x_ctr, y_ctr, w, h, angle`); its outputs are shaped as
//! NonMaxSuppression-9's (`selected_indices` and `selected_scores` `[K, 3]`
//! with `K` a fresh symbol bounded by `min(N, max) * B * C`, `valid_outputs`
//! `[1]`), and so is its shape rule, shared with it.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::{non_max_suppression, support};
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "NMSRotated",
    versions: &[OpVersion::openvino(13, 13)],
    infer,
    doc: OpDoc {
        summary: "Greedy non-maximum suppression of rotated boxes per batch and class: the selected `(batch, class, box)` triplets, their scores and their count.",
        attributes: "`sort_result_descending` (sort across batches by score), `output_type` (i32, i64; default i64), `clockwise` (the direction of a positive angle)",
        symbolic: "boxes `[B, N, 5]`, scores `[B, C, N]`, max `m` known: `[k, 3]`, `[k, 3]`, `[1]` with `k` a fresh symbol `k ∈ [0, min(N, m)*B*C]` (symbolic bound kept); `m` unknown or negative: bounded by `N*B*C`",
        errors: "`nms-input` (boxes or scores not 3-D, boxes' last dim not 5, batch or box counts that differ, a threshold or max input that is not a scalar or one element), `element-type` (boxes, scores or thresholds not floating-point, max not an integer), `nms-attribute` (`output_type`)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(5, 5)?;
    for (index, what) in [
        (0, "boxes (input 0)"),
        (1, "scores (input 1)"),
        (3, "iou_threshold (input 3)"),
        (4, "score_threshold (input 4)"),
    ] {
        support::expect_real_input(call, index, what)?;
    }
    support::bool_attr(ctx, call, "clockwise", true);
    non_max_suppression::infer_selection(ctx, call, 5)
}
