//! GenerateProposals-9: per image, the anchors `[H, W, A, 4]` refined by
//! the deltas `[B, 4A, H, W]`, clipped to the image of `im_info` `[B, 3 or
//! 4]`, the best `pre_nms_count` by score (`[B, A, H, W]`) suppressed and
//! at most `post_nms_count` kept: rois `[K, 4]`, their scores `[K]` and the
//! count of each image `[B]`.
//!
//! The checks are OpenVINO's `generate_proposals_shape_inference.hpp`.
//! OpenVINO gives K the interval `[0, B*post_nms_count]`; ours is a fresh
//! symbol bounded by `B*min(post_nms_count, pre_nms_count, A*H*W)` (no
//! image keeps more than it has proposals, nor more than pre-NMS).

use ir::{Dim, ElementType, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "GenerateProposals",
    versions: &[OpVersion::openvino(9, 9)],
    infer,
    doc: OpDoc {
        summary: "Region proposals of a batch: anchors refined by the deltas, clipped, filtered by `min_size`, suppressed; the kept rois of every image one after the other, their scores and the count per image.",
        attributes: "`min_size`, `nms_threshold`, `pre_nms_count`, `post_nms_count`, `normalized` (no +1 in sizes), `nms_eta` (must be 1), `roi_num_type` (i32, i64; default i64)",
        symbolic: "rois `[k, 4]`, scores `[k]`, counts `[B]`, `k` a fresh symbol `k ∈ [0, B*min(post_nms_count, pre_nms_count, A*H*W)]` (symbolic bound kept)",
        errors: "`generate-proposals-input` (ranks, im_info not `[B, 3 or 4]`, anchors' last dim not 4, batch, anchor, height or width dims that differ), `generate-proposals-attribute` (`pre_nms_count` or `post_nms_count` below 1, `nms_eta` not 1, `roi_num_type`)",
    },
};

fn rule(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("generate-proposals-input", message)
}

fn attribute(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("generate-proposals-attribute", message)
}

/// The counts before and after suppression, checked positive.
pub fn counts(attributes: &ir::Attributes) -> Result<(i64, i64), ShapeError> {
    let pre = attributes.i64("pre_nms_count")?.unwrap_or(1000);
    let post = attributes.i64("post_nms_count")?.unwrap_or(1000);
    for (key, value) in [("pre_nms_count", pre), ("post_nms_count", post)] {
        if value < 1 {
            return Err(attribute(format!("`{key}` {value} is below 1")));
        }
    }
    Ok((pre, post))
}

/// Merges two dims that must be equal (`generate-proposals-input`).
pub(super) fn merge(
    ctx: &mut InferContext,
    a: &Dim,
    b: &Dim,
    what: &str,
) -> Result<Dim, ShapeError> {
    support::merge_equal_dims(ctx, a, b, "generate-proposals-input", what)
}

/// The dims of im_info, anchors, deltas and scores (None: unknown rank).
pub(super) type ProposalDims<'a> = [Option<&'a [Dim]>; 4];

/// The checks GenerateProposals-9 and
/// ExperimentalDetectronGenerateProposalsSingleImage-6 share: the
/// `min_size` and `nms_threshold` attributes parse, im_info is floating
/// point and the other three inputs have its type, and inputs im_info,
/// anchors, deltas and scores have `ranks` where their rank is known.
/// Returns the element type and each input's dims (None: unknown rank).
pub(super) fn proposal_inputs<'a>(
    call: &OpCall<'a>,
    ranks: [usize; 4],
) -> Result<(ElementType, ProposalDims<'a>), ShapeError> {
    super::prior_box::float(&call.node.attributes, "min_size", Some(0.0))?;
    super::prior_box::float(&call.node.attributes, "nms_threshold", Some(0.0))?;
    support::expect_real_input(call, 0, "im_info (input 0)")?;
    for index in 1..4 {
        support::expect_same_type(call, 0, index)?;
    }
    let names = ["im_info", "anchors", "deltas", "scores"];
    let mut dims = [None; 4];
    for (index, (what, rank)) in names.into_iter().zip(ranks).enumerate() {
        let d = call.inputs[index].shape.dims();
        if let Some(d) = d.filter(|d| d.len() != rank) {
            return Err(rule(format!(
                "{what} (input {index}) must be {rank}-D, got rank {}",
                d.len()
            )));
        }
        dims[index] = d;
    }
    Ok((call.inputs[0].element_type, dims))
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(4, 4)?;
    let (pre, post) = counts(&call.node.attributes)?;
    let eta = super::prior_box::float(&call.node.attributes, "nms_eta", Some(1.0))?;
    if eta != 1.0 {
        return Err(attribute(format!("`nms_eta` {eta} must be 1")));
    }
    support::bool_attr(ctx, call, "normalized", true);
    let count_type = support::index_type_attr(
        call,
        "roi_num_type",
        ElementType::I64,
        "generate-proposals-attribute",
    )?;
    let (element_type, [info, anchors, deltas, scores]) = proposal_inputs(call, [2, 4, 4, 4])?;
    if let Some(i) = info {
        if i[1].as_constant().is_some_and(|c| c != 3 && c != 4) {
            return Err(rule(format!(
                "im_info must be [B, 3] or [B, 4], got {}",
                support::show_dims(ctx, i)
            )));
        }
    }
    if let Some(a) = anchors {
        merge(
            ctx,
            &a[3],
            &Expr::constant(4),
            "the anchors' last dim and 4",
        )?;
    }
    let mut batch: Option<Dim> = None;
    for (d, what) in [(info, "im_info"), (deltas, "deltas"), (scores, "scores")] {
        let Some(d) = d else { continue };
        batch = Some(match &batch {
            None => d[0].clone(),
            Some(b) => merge(ctx, b, &d[0], &format!("the batch of {what} (dim 0)"))?,
        });
    }
    if let (Some(d), Some(s)) = (deltas, scores) {
        merge(
            ctx,
            &d[1],
            &s[1].mul_const(4)?,
            "the deltas' dim 1 and 4 * the anchor count of scores",
        )?;
        merge(ctx, &d[2], &s[2], "the heights of deltas and scores")?;
        merge(ctx, &d[3], &s[3], "the widths of deltas and scores")?;
    }
    if let (Some(a), Some(s)) = (anchors, scores) {
        merge(ctx, &a[0], &s[2], "the heights of anchors and scores")?;
        merge(ctx, &a[1], &s[3], "the widths of anchors and scores")?;
        merge(ctx, &a[2], &s[1], "the anchor counts of anchors and scores")?;
    }
    // A*H*W proposals per image, from the scores or else the anchors.
    let proposals = match (scores, anchors) {
        (Some(s), _) => Some(s[1].mul(&s[2])?.mul(&s[3])?),
        (None, Some(a)) => Some(a[0].mul(&a[1])?.mul(&a[2])?),
        _ => None,
    };
    let mut per_image = Expr::constant(post.min(pre));
    if let Some(p) = &proposals {
        per_image = ctx.symbols.min(&per_image, p)?;
    }
    let bound = match &batch {
        Some(b) => Some(b.mul(&per_image)?),
        None => None,
    };
    let k = support::data_dependent_count(
        ctx,
        call,
        bound.as_ref(),
        "count of rois GenerateProposals keeps",
    )?;
    let batch = match batch {
        Some(b) => b,
        None => support::unknown_dim(ctx, "batch of GenerateProposals (inputs of unknown rank)"),
    };
    Ok(vec![
        TensorInfo::new(element_type, Shape::ranked([k.clone(), Expr::constant(4)])),
        TensorInfo::new(element_type, Shape::ranked([k])),
        TensorInfo::new(count_type, Shape::ranked([batch])),
    ])
}
