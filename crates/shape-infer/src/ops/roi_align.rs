//! ROIAlign-3 and -9: average or max of bilinear samples of each region of
//! interest (`[x1, y1, x2, y2]`, its image chosen by `batch_indices`) into a
//! `[pooled_h, pooled_w]` grid. The output is `[R, C, pooled_h, pooled_w]`
//! with `R` the ROI count (kept symbolic, and equal to the batch indices'
//! length), as OpenVINO's `roi_align_shape_utils.hpp`. Version 9 adds
//! `aligned_mode`.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::roi_pooling::{
    count_attr, feature_channels, pooled_output, roi_count, spatial_scale,
};
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "ROIAlign",
    versions: &[OpVersion::openvino(3, 3), OpVersion::openvino(9, 9)],
    infer,
    doc: OpDoc {
        summary: "Average or max of bilinear samples of each region of interest (`[x1, y1, x2, y2]` of image `batch_indices[r]`) in a `pooled_h x pooled_w` grid.",
        attributes: "`pooled_h`, `pooled_w` (positive), `sampling_ratio` (non-negative, 0 adaptive), `spatial_scale` (positive), `mode` (`avg`, `max`); v9 `aligned_mode` (`asymmetric` default, `half_pixel_for_nn`, `half_pixel`)",
        symbolic: "`[R, C, pooled_h, pooled_w]`: R the rois' first dim (merged with the batch indices' length) and C the data's channels, symbols kept",
        errors: "`roi-input-rank` (data not 4-D, rois not 2-D, batch indices not 1-D), `roi-box-size` (rois' second dim not 4), `roi-batch-indices` (batch indices of another length than the rois), `roi-pooled-size`, `roi-sampling-ratio`, `roi-spatial-scale`, `roi-mode`, `roi-aligned-mode`, `element-type` (data and rois not one floating-point type, batch indices not integers)",
    },
};

/// Whether and how the pixel grid is shifted by half a pixel (v9's
/// `aligned_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlignedMode {
    /// No shift (v3's behaviour).
    Asymmetric,
    /// Half a pixel shift for the coordinates, not for the sizes.
    HalfPixelForNn,
    /// Half a pixel shift (`aligned=True` of torchvision).
    HalfPixel,
}

/// ROIAlign's attributes (v3 and v9, and ROIAlignRotated's common subset),
/// read and checked once (the kernel reuses them).
#[derive(Debug, Clone, PartialEq)]
pub struct Attrs {
    /// Output rows per ROI (`pooled_h`).
    pub pooled_h: usize,
    /// Output columns per ROI (`pooled_w`).
    pub pooled_w: usize,
    /// Samples per bin side (`sampling_ratio`); 0 picks `ceil(roi / pooled)`.
    pub sampling_ratio: usize,
    /// Factor from ROI coordinates to feature-map cells (`spatial_scale`).
    pub spatial_scale: f32,
    /// Maximum instead of average of the samples (`mode`).
    pub max: bool,
    /// The half-pixel shift (v9's `aligned_mode`).
    pub aligned: AlignedMode,
}

/// The positive pooled size `key` (`roi-pooled-size`).
pub(super) fn pooled_size(attributes: &ir::Attributes, key: &str) -> Result<usize, ShapeError> {
    let v = count_attr(attributes, key, None)?;
    usize::try_from(v).ok().filter(|&v| v > 0).ok_or_else(|| {
        ShapeError::rule(
            "roi-pooled-size",
            format!("`{key}` must be a positive integer, got {v}"),
        )
    })
}

/// `sampling_ratio`: samples per bin side, 0 for adaptive
/// (`roi-sampling-ratio` when negative).
pub(super) fn sampling_ratio(attributes: &ir::Attributes) -> Result<usize, ShapeError> {
    let ratio = count_attr(attributes, "sampling_ratio", None)?;
    usize::try_from(ratio).map_err(|_| {
        ShapeError::rule(
            "roi-sampling-ratio",
            format!("`sampling_ratio` must be a non-negative integer, got {ratio}"),
        )
    })
}

/// The pooled size and sampling attributes shared by ROIAlign and
/// ROIAlignRotated.
pub fn common_attributes(attributes: &ir::Attributes) -> Result<Attrs, ShapeError> {
    let pooled = |key: &str| pooled_size(attributes, key);
    let sampling_ratio = sampling_ratio(attributes)?;
    Ok(Attrs {
        pooled_h: pooled("pooled_h")?,
        pooled_w: pooled("pooled_w")?,
        sampling_ratio,
        spatial_scale: spatial_scale(attributes)?,
        max: false,
        aligned: AlignedMode::Asymmetric,
    })
}

/// The attributes of a ROIAlign node of `version` (3 or 9).
pub fn attributes(attributes: &ir::Attributes, version: u32) -> Result<Attrs, ShapeError> {
    let mut attrs = common_attributes(attributes)?;
    let mode = attributes.require("mode")?.trim();
    attrs.max = match mode {
        "avg" => false,
        "max" => true,
        other => {
            return Err(ShapeError::rule(
                "roi-mode",
                format!("mode must be avg or max, got {other}"),
            ))
        }
    };
    if version >= 9 {
        attrs.aligned = match attributes.get("aligned_mode").map(str::trim) {
            None | Some("asymmetric") => AlignedMode::Asymmetric,
            Some("half_pixel_for_nn") => AlignedMode::HalfPixelForNn,
            Some("half_pixel") => AlignedMode::HalfPixel,
            Some(other) => {
                return Err(ShapeError::rule(
                    "roi-aligned-mode",
                    format!(
                    "aligned_mode must be asymmetric, half_pixel_for_nn or half_pixel, got {other}"
                ),
                ))
            }
        };
    }
    Ok(attrs)
}

/// The output of ROIAlign and ROIAlignRotated, whose boxes have `width`
/// numbers each.
pub fn align_output(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    width: i64,
    attrs: &Attrs,
) -> Result<TensorInfo, ShapeError> {
    call.expect_inputs(3, 3)?;
    let channels = feature_channels(ctx, call, 0, "the data")?;
    let mut rois = roi_count(ctx, call, 1, width, "the rois")?;
    support::expect_rank_in(call, 2, &[1], "the batch indices (input 2)")?;
    if let Some(dims) = call.inputs[2].shape.dims() {
        let merged = support::merge_equal_dims(
            ctx,
            &rois,
            &dims[0],
            "roi-batch-indices",
            "the rois and the batch indices must have one length",
        )?;
        // The two are equal now: keep the one of tighter bounds.
        let (r, i) = (ctx.symbols.bounds(&merged)?, ctx.symbols.bounds(&dims[0])?);
        let tighter = i.lo.unwrap_or(0) >= r.lo.unwrap_or(0)
            && r.hi.is_none_or(|rh| i.hi.is_some_and(|ih| ih <= rh));
        rois = if tighter && i != r {
            dims[0].clone()
        } else {
            merged
        };
    }
    let t = crate::ops::roi_pooling::same_real_type(call, 0, 1)?;
    support::expect_integer_input(call, 2, "the batch indices (input 2)")?;
    Ok(pooled_output(
        t,
        rois,
        channels,
        attrs.pooled_h,
        attrs.pooled_w,
    ))
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let attrs = attributes(&call.node.attributes, call.version)?;
    Ok(vec![align_output(ctx, call, 4, &attrs)?])
}
