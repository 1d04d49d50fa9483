//! ExperimentalDetectronGenerateProposalsSingleImage-6: one image's
//! anchors `[H*W*A, 4]` refined by the deltas `[4A, H, W]`, clipped to the
//! image of `im_info` `[3]`, the best `pre_nms_count` by score (`[A, H, W]`)
//! suppressed and exactly `post_nms_count` rows written (zeros after the
//! kept ones): rois `[post_nms_count, 4]` and scores `[post_nms_count]`,
//! as OpenVINO's
//! `experimental_detectron_generate_proposals_shape_inference.hpp`.

use ir::Shape;
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::generate_proposals;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "ExperimentalDetectronGenerateProposalsSingleImage",
    versions: &[OpVersion::openvino(6, 6)],
    infer,
    doc: OpDoc {
        summary: "Region proposals of one image: anchors refined by the deltas, clipped, filtered by `min_size`, suppressed; `post_nms_count` rois and scores, zero after the kept ones.",
        attributes: "`min_size`, `nms_threshold`, `pre_nms_count`, `post_nms_count`",
        symbolic: "rois `[post_nms_count, 4]`, scores `[post_nms_count]`",
        errors: "`generate-proposals-input` (im_info not `[3]`, anchors not `[_, 4]`, deltas or scores not 3-D, heights or widths that differ), `generate-proposals-attribute` (`pre_nms_count` or `post_nms_count` below 1)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(4, 4)?;
    let (_, post) = generate_proposals::counts(&call.node.attributes)?;
    let (element_type, [info, anchors, deltas, scores]) =
        generate_proposals::proposal_inputs(call, [1, 2, 3, 3])?;
    let merge = generate_proposals::merge;
    if let Some(i) = info {
        merge(ctx, &i[0], &Expr::constant(3), "the im_info length and 3")?;
    }
    if let Some(a) = anchors {
        merge(
            ctx,
            &a[1],
            &Expr::constant(4),
            "the anchors' last dim and 4",
        )?;
    }
    if let (Some(d), Some(s)) = (deltas, scores) {
        merge(ctx, &d[1], &s[1], "the heights of deltas and scores")?;
        merge(ctx, &d[2], &s[2], "the widths of deltas and scores")?;
    }
    let rows = Expr::constant(post);
    Ok(vec![
        TensorInfo::new(
            element_type,
            Shape::ranked([rows.clone(), Expr::constant(4)]),
        ),
        TensorInfo::new(element_type, Shape::ranked([rows])),
    ])
}
