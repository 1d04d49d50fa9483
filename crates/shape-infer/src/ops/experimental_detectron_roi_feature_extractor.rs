//! ExperimentalDetectronROIFeatureExtractor-6: ROIAlign of each box on the
//! feature-pyramid level its size picks (Mask R-CNN's FPN). Inputs are the
//! rois `[R, 4]` and one `[1, C, H_l, W_l]` map per level; outputs are the
//! pooled features `[R, C, output_size, output_size]` and the rois again
//! `[R, 4]`, with `R` kept symbolic, as OpenVINO's
//! `experimental_detectron_roi_feature_shape_inference.hpp`.

use ir::{Dim, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::roi_align;
use crate::ops::roi_pooling::{ranked_dims, roi_count, size_dim};
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "ExperimentalDetectronROIFeatureExtractor",
    versions: &[OpVersion::openvino(6, 6)],
    infer,
    doc: OpDoc {
        summary: "ROIAlign of each box (`[x1, y1, x2, y2]`) on the feature-pyramid level its area picks; the pooled features and the boxes.",
        attributes: "`output_size` (positive), `sampling_ratio` (non-negative, 0 adaptive), `pyramid_scales` (one stride per level), `aligned` (default false: half-pixel offset when true)",
        symbolic: "`[R, C, output_size, output_size]` and `[R, 4]`: R the rois' first dim, C the levels' channels merged, symbols kept",
        errors: "`roi-input-rank` (rois not 2-D, a level not 4-D), `roi-box-size` (rois' second dim not 4), `roi-pyramid` (a level's batch not 1, levels of different channels), `roi-pooled-size`, `roi-sampling-ratio`, `element-type` (inputs not one floating-point type)",
    },
};

/// The attributes of ExperimentalDetectronROIFeatureExtractor.
#[derive(Debug, Clone, PartialEq)]
pub struct Attrs {
    /// Output rows and columns per box (`output_size`).
    pub output_size: usize,
    /// Samples per bin side (`sampling_ratio`); 0 picks `ceil(roi / output)`.
    pub sampling_ratio: usize,
    /// The stride of each pyramid level (`pyramid_scales`).
    pub pyramid_scales: Vec<i64>,
    /// Half-pixel offset of the boxes (`aligned`).
    pub aligned: bool,
}

/// The attributes of an ExperimentalDetectronROIFeatureExtractor node.
pub fn attributes(attributes: &ir::Attributes) -> Result<Attrs, ShapeError> {
    let output_size = roi_align::pooled_size(attributes, "output_size")?;
    let sampling_ratio = roi_align::sampling_ratio(attributes)?;
    // Not checked against the levels here, as OpenVINO: the kernel needs
    // one positive scale per level.
    let pyramid_scales = attributes.i64_list("pyramid_scales")?.unwrap_or_default();
    Ok(Attrs {
        output_size,
        sampling_ratio,
        pyramid_scales,
        aligned: attributes.bool("aligned").is_ok_and(|v| v.unwrap_or(false)),
    })
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, usize::MAX)?;
    let attrs = attributes(&call.node.attributes)?;
    support::bool_attr(ctx, call, "aligned", false);
    let rois = roi_count(ctx, call, 0, 4, "the rois")?;
    let mut channels: Option<Dim> = None;
    for level in 1..call.inputs.len() {
        let Some(dims) = ranked_dims(call, level, 4, "a pyramid level")? else {
            continue;
        };
        if dims[0].as_constant().is_some_and(|b| b != 1) {
            return Err(ShapeError::rule(
                "roi-pyramid",
                format!(
                    "the batch of pyramid level {level} must be 1, got {}",
                    ctx.symbols.display(&dims[0])
                ),
            ));
        }
        channels = Some(match channels {
            None => dims[1].clone(),
            Some(c) => support::merge_equal_dims(
                ctx,
                &c,
                &dims[1],
                "roi-pyramid",
                "the pyramid levels must have one channel count",
            )?,
        });
    }
    let mut t = support::expect_real_input(call, 0, "the rois (input 0)")
        .map(|()| call.inputs[0].element_type)?;
    for level in 1..call.inputs.len() {
        t = support::expect_same_type(call, 0, level)?;
    }
    let channels = channels.unwrap_or_else(|| {
        support::unknown_dim(ctx, "the channels of pyramid levels of unknown rank")
    });
    let size = size_dim(attrs.output_size);
    Ok(vec![
        TensorInfo::new(
            t,
            Shape::ranked(vec![rois.clone(), channels, size.clone(), size]),
        ),
        TensorInfo::new(t, Shape::ranked(vec![rois, Dim::constant(4)])),
    ])
}
