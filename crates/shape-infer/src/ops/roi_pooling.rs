//! ROIPooling-2: max or bilinear pooling of each region of interest of a
//! feature map into a fixed `[pooled_h, pooled_w]` grid. The output is
//! `[R, C, pooled_h, pooled_w]` with `R` the ROI count of the `rois` input
//! (kept symbolic), as OpenVINO's `roi_pooling_shape_inference.hpp`. The
//! checks of the ROI inputs shared by the other ROI ops live here too.

use ir::{Dim, ElementType, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::prior_box::float;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "ROIPooling",
    versions: &[OpVersion::openvino(2, 2)],
    infer,
    doc: OpDoc {
        summary: "Max or bilinear pooling of each region of interest (`[batch_id, x1, y1, x2, y2]`) into a `pooled_h x pooled_w` grid.",
        attributes: "`pooled_h`, `pooled_w` (or `output_size` / `output_roi`, positive), `spatial_scale` (positive), `method` (`max` default, `bilinear`)",
        symbolic: "`[R, C, pooled_h, pooled_w]`: R the rois' first dim and C the feature map's channels, symbols kept",
        errors: "`roi-input-rank` (feature map not 4-D, rois not 2-D), `roi-box-size` (rois' second dim not 5), `roi-pooled-size` (not two positive pooled sizes), `roi-spatial-scale` (not positive), `roi-method` (not max or bilinear), `element-type` (inputs not floating point or of different types)",
    },
};

/// ROIPooling's attributes, read and checked once (the kernel reuses them).
#[derive(Debug, Clone, PartialEq)]
pub struct Attrs {
    /// Output rows per ROI (`pooled_h`).
    pub pooled_h: usize,
    /// Output columns per ROI (`pooled_w`).
    pub pooled_w: usize,
    /// Factor from ROI coordinates to feature-map cells (`spatial_scale`).
    pub spatial_scale: f32,
    /// Bilinear interpolation instead of max pooling (`method`).
    pub bilinear: bool,
}

/// The attributes of a ROIPooling node. OpenVINO reads `output_size`, then
/// `output_roi`, then `pooled_h` and `pooled_w` into one size, the later
/// overriding the earlier.
pub fn attributes(attributes: &ir::Attributes) -> Result<Attrs, ShapeError> {
    let mut size = attributes
        .i64_list("output_roi")?
        .or(attributes.i64_list("output_size")?)
        .unwrap_or_else(|| vec![0, 0]);
    for (i, key) in ["pooled_h", "pooled_w"].into_iter().enumerate() {
        if let Some(v) = attributes.i64(key)? {
            if size.len() <= i {
                size.resize(i + 1, 0);
            }
            size[i] = v;
        }
    }
    let &[h, w] = size.as_slice() else {
        return Err(ShapeError::rule(
            "roi-pooled-size",
            format!("the pooled size must have two dims, got {}", size.len()),
        ));
    };
    let (Some(pooled_h), Some(pooled_w)) = (positive(h), positive(w)) else {
        return Err(ShapeError::rule(
            "roi-pooled-size",
            format!("pooled_h and pooled_w must be positive integers, got {h} and {w}"),
        ));
    };
    let method = attributes.get("method").map_or("max", str::trim);
    if method != "max" && method != "bilinear" {
        return Err(ShapeError::rule(
            "roi-method",
            format!("method must be max or bilinear, got {method}"),
        ));
    }
    Ok(Attrs {
        pooled_h,
        pooled_w,
        spatial_scale: spatial_scale(attributes)?,
        bilinear: method == "bilinear",
    })
}

fn positive(v: i64) -> Option<usize> {
    usize::try_from(v).ok().filter(|&v| v > 0)
}

/// The `spatial_scale` attribute, which must be a positive normal number
/// (OpenVINO's `std::isnormal` check).
pub fn spatial_scale(attributes: &ir::Attributes) -> Result<f32, ShapeError> {
    let scale = float(attributes, "spatial_scale", None)?;
    if !scale.is_normal() || scale < 0.0 {
        return Err(ShapeError::rule(
            "roi-spatial-scale",
            format!("spatial_scale must be a positive number, got {scale}"),
        ));
    }
    Ok(scale)
}

/// A non-negative integer attribute (`default` when absent).
pub fn count_attr(
    attributes: &ir::Attributes,
    key: &str,
    default: Option<i64>,
) -> Result<i64, ShapeError> {
    match attributes.i64(key)?.or(default) {
        Some(v) => Ok(v),
        None => Err(ir::AttributeError::Missing {
            key: key.to_owned(),
        }
        .into()),
    }
}

/// The dims of input `index` when its rank is known, checked to be `rank`
/// (`roi-input-rank` naming `what` otherwise).
pub fn ranked_dims<'a>(
    call: &'a OpCall<'_>,
    index: usize,
    rank: usize,
    what: &str,
) -> Result<Option<&'a [Dim]>, ShapeError> {
    let Some(dims) = call.inputs[index].shape.dims() else {
        return Ok(None);
    };
    if dims.len() != rank {
        return Err(ShapeError::rule(
            "roi-input-rank",
            format!(
                "{what} (input {index}) must have rank {rank}, got {}",
                dims.len()
            ),
        ));
    }
    Ok(Some(dims))
}

/// The ROI count of a `[R, width]` boxes input (input `index`): `R` when
/// the rank is known (its second dim checked to be `width`, `roi-box-size`),
/// else a fresh dim.
pub fn roi_count(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    index: usize,
    width: i64,
    what: &str,
) -> Result<Dim, ShapeError> {
    match ranked_dims(call, index, 2, what)? {
        Some(dims) => {
            if dims[1].as_constant().is_some_and(|c| c != width) {
                return Err(ShapeError::rule(
                    "roi-box-size",
                    format!(
                        "the second dim of {what} (input {index}) must be {width}, got {}",
                        ctx.symbols.display(&dims[1])
                    ),
                ));
            }
            Ok(dims[0].clone())
        }
        None => Ok(support::unknown_dim(
            ctx,
            format!("the ROI count of {what} of unknown rank"),
        )),
    }
}

/// The channels of a 4-D feature map (input `index`): its second dim, or a
/// fresh dim when the rank is unknown.
pub fn feature_channels(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    index: usize,
    what: &str,
) -> Result<Dim, ShapeError> {
    match ranked_dims(call, index, 4, what)? {
        Some(dims) => Ok(dims[1].clone()),
        None => Ok(support::unknown_dim(
            ctx,
            format!("the channels of {what} of unknown rank"),
        )),
    }
}

/// The common floating-point type of inputs `a` and `b` (where known):
/// both must be floating point and equal.
pub fn same_real_type(call: &OpCall<'_>, a: usize, b: usize) -> Result<ElementType, ShapeError> {
    support::expect_real_input(call, a, &format!("input {a}"))?;
    support::expect_real_input(call, b, &format!("input {b}"))?;
    support::expect_same_type(call, a, b)
}

/// The `[R, C, h, w]` output of the ROI poolings.
pub fn pooled_output(t: ElementType, rois: Dim, channels: Dim, h: usize, w: usize) -> TensorInfo {
    TensorInfo::new(
        t,
        Shape::ranked(vec![rois, channels, size_dim(h), size_dim(w)]),
    )
}

/// A size read from an attribute as a dim (saturating: an attribute's
/// count is already bounded by its parser).
pub fn size_dim(v: usize) -> Dim {
    Dim::constant(i64::try_from(v).unwrap_or(i64::MAX))
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let channels = feature_channels(ctx, call, 0, "the feature map")?;
    let rois = roi_count(ctx, call, 1, 5, "the rois")?;
    let attrs = attributes(&call.node.attributes)?;
    let t = same_real_type(call, 0, 1)?;
    Ok(vec![pooled_output(
        t,
        rois,
        channels,
        attrs.pooled_h,
        attrs.pooled_w,
    )])
}
