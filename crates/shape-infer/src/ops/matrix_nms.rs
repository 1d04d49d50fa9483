//! MatrixNms-8: per batch and class, the candidates above `score_threshold`
//! (the best `nms_top_k`) get their scores decayed by their overlap with
//! the better ones (Matrix NMS, linear or Gaussian decay); those still above
//! `post_threshold` are kept, at most `keep_top_k` per batch.
//!
//! Outputs `[K, 6]` (class, score, four corners), `[K, 1]` (flat box index)
//! and `[B]` (count per batch). `K` is a fresh symbol bounded by
//! `B * min(min(N, nms_top_k) * C, keep_top_k)`, OpenVINO's upper bound
//! (which does not discount the background class), kept symbolic where
//! OpenVINO gives `?` (a dynamic `N` with `nms_top_k`, for one).

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::nms_common::{self, SelectionAttrs};
use crate::ops::non_max_suppression;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "MatrixNms",
    versions: &[OpVersion::openvino(8, 8)],
    infer,
    doc: OpDoc {
        summary: "Matrix non-maximum suppression per batch and class: scores decayed (linear or Gaussian) by the overlap with better boxes, the ones above `post_threshold` kept; the selected class/score/box rows, their flat box indices and their count per batch.",
        attributes: "`sort_result_type` (classid, score, none), `sort_result_across_batch`, `output_type` (i32, i64), `score_threshold`, `nms_top_k`, `keep_top_k`, `background_class` (-1 or more), `decay_function` (linear, gaussian), `gaussian_sigma`, `post_threshold`, `normalized`",
        symbolic: "boxes `[B, N, 4]`, scores `[B, C, N]`: `[k, 6]`, `[k, 1]`, `[B]` with `k` a fresh symbol `k ∈ [0, B*min(min(N, nms_top_k)*C, keep_top_k)]` (a limit of -1 left out; symbolic bound kept)",
        errors: "`nms-input` (boxes or scores not 3-D, boxes' last dim not 4, batch or box counts that differ), `element-type` (boxes or scores not bf16/f16/f32, or of two types), `nms-attribute` (`sort_result_type`, `decay_function`, `output_type`, a float that is not a number, `nms_top_k`, `keep_top_k` or `background_class` below -1)",
    },
};

/// `decay_function` is gaussian (else linear).
pub fn gaussian_decay(attrs: &ir::Attributes) -> Result<bool, ShapeError> {
    match attrs.get("decay_function").map(str::trim) {
        None | Some("linear") => Ok(false),
        Some("gaussian") => Ok(true),
        Some(other) => Err(ShapeError::rule(
            nms_common::ATTRIBUTE_RULE,
            format!("`decay_function` {other} is not linear or gaussian"),
        )),
    }
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let attrs = SelectionAttrs::parse(&call.node.attributes)?;
    gaussian_decay(&call.node.attributes)?;
    for key in ["gaussian_sigma", "post_threshold"] {
        nms_common::f32_attr(&call.node.attributes, key, 0.0)?;
    }
    nms_common::warn_bools(ctx, call);
    let box_type = nms_common::expect_box_types(call)?;
    let dims = non_max_suppression::boxes_and_scores(ctx, call, 4)?;
    let reason = "count of boxes MatrixNms selects";
    nms_common::selection_outputs(ctx, call, &attrs, dims, box_type, reason)
}
