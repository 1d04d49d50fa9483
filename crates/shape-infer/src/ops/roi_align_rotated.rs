//! ROIAlignRotated-15: ROIAlign over rotated boxes (`[cx, cy, w, h, angle]`,
//! angle in radians, counter-clockwise unless `clockwise_mode`). The output
//! is `[R, C, pooled_h, pooled_w]` with `R` the ROI count kept symbolic, as
//! OpenVINO's `roi_align_rotated_shape_inference.hpp`.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::roi_align::{align_output, common_attributes, Attrs};
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "ROIAlignRotated",
    versions: &[OpVersion::openvino(15, 15)],
    infer,
    doc: OpDoc {
        summary: "Average of bilinear samples of each rotated region of interest (`[cx, cy, w, h, angle]` of image `batch_indices[r]`) in a `pooled_h x pooled_w` grid.",
        attributes: "`pooled_h`, `pooled_w` (positive), `sampling_ratio` (non-negative, 0 adaptive), `spatial_scale` (positive), `clockwise_mode` (default false)",
        symbolic: "`[R, C, pooled_h, pooled_w]`: R the rois' first dim (merged with the batch indices' length) and C the data's channels, symbols kept",
        errors: "`roi-input-rank` (data not 4-D, rois not 2-D, batch indices not 1-D), `roi-box-size` (rois' second dim not 5), `roi-batch-indices` (batch indices of another length than the rois), `roi-pooled-size`, `roi-sampling-ratio`, `roi-spatial-scale`, `element-type` (data and rois not one floating-point type, batch indices not integers)",
    },
};

/// ROIAlignRotated's attributes: ROIAlign's common ones and the rotation
/// direction.
pub fn attributes(attributes: &ir::Attributes) -> Result<(Attrs, bool), ShapeError> {
    let clockwise = attributes
        .bool("clockwise_mode")
        .is_ok_and(|v| v.unwrap_or(false));
    Ok((common_attributes(attributes)?, clockwise))
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let (attrs, _) = attributes(&call.node.attributes)?;
    crate::ops::support::bool_attr(ctx, call, "clockwise_mode", false);
    Ok(vec![align_output(ctx, call, 5, &attrs)?])
}
