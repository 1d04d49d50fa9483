//! ExperimentalDetectronTopKROIs-6: the `max_rois` boxes of highest
//! probability, `[max_rois, 4]`, as OpenVINO's
//! `experimental_detectron_topkrois_shape_inference.hpp`.

use ir::{Dim, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::roi_pooling::{count_attr, roi_count, size_dim};
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "ExperimentalDetectronTopKROIs",
    versions: &[OpVersion::openvino(6, 6)],
    infer,
    doc: OpDoc {
        summary: "The `max_rois` boxes (`[x1, y1, x2, y2]`) of highest probability, in decreasing order.",
        attributes: "`max_rois` (non-negative, default 0)",
        symbolic: "`[max_rois, 4]`; the rois' and probabilities' counts are merged",
        errors: "`roi-input-rank` (rois not 2-D), `input-rank` (probabilities not 1-D), `roi-box-size` (rois' second dim not 4), `roi-probabilities` (another count of probabilities than rois), `attribute-invalid` (a negative max_rois), `element-type` (inputs not one floating-point type)",
    },
};

/// The `max_rois` attribute of an ExperimentalDetectronTopKROIs node.
pub fn max_rois(attributes: &ir::Attributes) -> Result<usize, ShapeError> {
    let v = count_attr(attributes, "max_rois", Some(0))?;
    usize::try_from(v).map_err(|_| {
        ShapeError::rule(
            "attribute-invalid",
            format!("`max_rois` must be a non-negative integer, got {v}"),
        )
    })
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let rois = roi_count(ctx, call, 0, 4, "the rois")?;
    support::expect_rank_in(call, 1, &[1], "the probabilities (input 1)")?;
    if let (Some(_), Some(probs)) = (call.inputs[0].shape.dims(), call.inputs[1].shape.dims()) {
        support::merge_equal_dims(
            ctx,
            &rois,
            &probs[0],
            "roi-probabilities",
            "the rois and the probabilities must have one count",
        )?;
    }
    let k = max_rois(&call.node.attributes)?;
    support::expect_real_input(call, 0, "the rois (input 0)")?;
    let t = support::expect_same_type(call, 0, 1)?;
    Ok(vec![TensorInfo::new(
        t,
        Shape::ranked(vec![size_dim(k), Dim::constant(4)]),
    )])
}
