//! PSROIPooling-1: position-sensitive ROI pooling (R-FCN). Each of the
//! `group_size x group_size` bins of a region reads its own group of
//! `output_dim` channels (average mode) or of `spatial_bins_x *
//! spatial_bins_y` sub-bins (bilinear mode). The output is `[R, output_dim,
//! group_size, group_size]` with `R` the ROI count kept symbolic, as
//! OpenVINO's `psroi_pooling_shape_inference.hpp`.

use ir::Dim;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::roi_pooling::{
    count_attr, feature_channels, pooled_output, ranked_dims, roi_count, same_real_type, size_dim,
    spatial_scale,
};
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "PSROIPooling",
    versions: &[OpVersion::openvino(1, 1)],
    infer,
    doc: OpDoc {
        summary: "Position-sensitive ROI pooling (R-FCN): each output bin of a region (`[batch_id, x1, y1, x2, y2]`) averages or bilinearly samples its own channel group.",
        attributes: "`output_dim` (required), `group_size` (default 1, positive), `spatial_scale` (positive), `mode` (`average` default, `bilinear`), `spatial_bins_x`, `spatial_bins_y` (default 1, positive in bilinear mode)",
        symbolic: "`[R, output_dim, group_size, group_size]`: R the rois' first dim, kept",
        errors: "`roi-input-rank` (feature map not 4-D, rois not 2-D), `roi-box-size` (rois' second dim not 5), `roi-channels` (channels not `output_dim * group_size^2` in average mode, `output_dim * spatial_bins_x * spatial_bins_y` in bilinear mode), `roi-group-size`, `roi-spatial-bins`, `roi-spatial-scale`, `roi-mode`, `element-type` (inputs not floating point or of different types)",
    },
};

/// PSROIPooling's attributes, read and checked once (the kernel reuses them).
#[derive(Debug, Clone, PartialEq)]
pub struct Attrs {
    /// Output channels (`output_dim`).
    pub output_dim: usize,
    /// Output bins per side (`group_size`).
    pub group_size: usize,
    /// Factor from ROI coordinates to feature-map cells (`spatial_scale`).
    pub spatial_scale: f32,
    /// Bilinear sampling instead of averaging (`mode`).
    pub bilinear: bool,
    /// Horizontal sub-bins of bilinear mode (`spatial_bins_x`).
    pub spatial_bins_x: usize,
    /// Vertical sub-bins of bilinear mode (`spatial_bins_y`).
    pub spatial_bins_y: usize,
}

impl Attrs {
    /// The input channels the mode reads: `output_dim * group_size^2`
    /// (average) or `output_dim * spatial_bins_x * spatial_bins_y`.
    pub fn input_channels(&self) -> Option<usize> {
        let area = if self.bilinear {
            self.spatial_bins_x.checked_mul(self.spatial_bins_y)?
        } else {
            self.group_size.checked_mul(self.group_size)?
        };
        area.checked_mul(self.output_dim)
    }
}

fn non_negative(key: &str, v: i64) -> Result<usize, ShapeError> {
    usize::try_from(v).map_err(|_| {
        ShapeError::rule(
            "attribute-invalid",
            format!("`{key}` must be a non-negative integer, got {v}"),
        )
    })
}

/// The attributes of a PSROIPooling node.
pub fn attributes(attributes: &ir::Attributes) -> Result<Attrs, ShapeError> {
    let mode = attributes.get("mode").map_or("average", str::trim);
    if mode != "average" && mode != "bilinear" {
        return Err(ShapeError::rule(
            "roi-mode",
            format!("mode must be average or bilinear, got {mode}"),
        ));
    }
    let bilinear = mode == "bilinear";
    let group_size = count_attr(attributes, "group_size", Some(1))?;
    if group_size <= 0 {
        return Err(ShapeError::rule(
            "roi-group-size",
            format!("group_size must be positive, got {group_size}"),
        ));
    }
    let bins_x = count_attr(attributes, "spatial_bins_x", Some(1))?;
    let bins_y = count_attr(attributes, "spatial_bins_y", Some(1))?;
    if bilinear && (bins_x <= 0 || bins_y <= 0) {
        return Err(ShapeError::rule(
            "roi-spatial-bins",
            format!(
                "spatial_bins_x and spatial_bins_y must be positive, got {bins_x} and {bins_y}"
            ),
        ));
    }
    Ok(Attrs {
        output_dim: non_negative("output_dim", count_attr(attributes, "output_dim", None)?)?,
        group_size: non_negative("group_size", group_size)?,
        spatial_scale: spatial_scale(attributes)?,
        bilinear,
        spatial_bins_x: non_negative("spatial_bins_x", bins_x)?,
        spatial_bins_y: non_negative("spatial_bins_y", bins_y)?,
    })
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let attrs = attributes(&call.node.attributes)?;
    let channels = feature_channels(ctx, call, 0, "the feature map")?;
    if ranked_dims(call, 0, 4, "the feature map")?.is_some() {
        let expected = attrs
            .input_channels()
            .and_then(|c| i64::try_from(c).ok())
            .ok_or(ShapeError::Dim(symdim::DimError::Overflow))?;
        crate::ops::support::merge_equal_dims(
            ctx,
            &channels,
            &Dim::constant(expected),
            "roi-channels",
            if attrs.bilinear {
                "the channels must be output_dim * spatial_bins_x * spatial_bins_y"
            } else {
                "the channels must be output_dim * group_size * group_size"
            },
        )?;
    }
    let rois = roi_count(ctx, call, 1, 5, "the rois")?;
    let t = same_real_type(call, 0, 1)?;
    let output_dim = size_dim(attrs.output_dim);
    Ok(vec![pooled_output(
        t,
        rois,
        output_dim,
        attrs.group_size,
        attrs.group_size,
    )])
}
