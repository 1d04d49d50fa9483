//! DeformablePSROIPooling-1: position-sensitive ROI pooling whose bins are
//! shifted by learned offsets (the optional third input, scaled by
//! `trans_std`, one offset pair per `part_size x part_size` part). The
//! output is `[R, output_dim, group_size, group_size]` with `R` the ROI
//! count kept symbolic, as OpenVINO's
//! `deformable_psroi_pooling_shape_inference.hpp`.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::prior_box::float;
use crate::ops::roi_pooling::{count_attr, pooled_output, ranked_dims, size_dim};
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "DeformablePSROIPooling",
    versions: &[OpVersion::openvino(1, 1)],
    infer,
    doc: OpDoc {
        summary: "Position-sensitive ROI pooling (`[batch_id, x1, y1, x2, y2]` boxes) with bins shifted by the optional offsets input.",
        attributes: "`output_dim`, `spatial_scale` (required), `group_size` (default 1), `mode` (`bilinear_deformable` default, `bilinear`), `spatial_bins_x`, `spatial_bins_y` (default 1), `trans_std` (default 1), `part_size` (default 1)",
        symbolic: "`[R, output_dim, group_size, group_size]`: R the rois' first dim, kept",
        errors: "`roi-input-rank` (data not 4-D, rois not 2-D, offsets not 4-D), `roi-output-dim`, `roi-group-size` (not positive), `attribute-invalid` (not numbers); like OpenVINO, no check of the mode, the other sizes or the element types (the kernel refuses sizes below 1)",
    },
};

/// DeformablePSROIPooling's attributes, read and checked once (the kernel
/// reuses them).
#[derive(Debug, Clone, PartialEq)]
pub struct Attrs {
    /// Output channels (`output_dim`).
    pub output_dim: usize,
    /// Output bins per side (`group_size`).
    pub group_size: usize,
    /// Factor from ROI coordinates to feature-map cells (`spatial_scale`).
    pub spatial_scale: f32,
    /// Horizontal samples per bin (`spatial_bins_x`), unchecked.
    pub spatial_bins_x: i64,
    /// Vertical samples per bin (`spatial_bins_y`), unchecked.
    pub spatial_bins_y: i64,
    /// Scale of the offsets (`trans_std`).
    pub trans_std: f32,
    /// Offset parts per side (`part_size`), unchecked.
    pub part_size: i64,
}

fn positive(key: &'static str, rule: &'static str, v: i64) -> Result<usize, ShapeError> {
    usize::try_from(v).ok().filter(|&v| v > 0).ok_or_else(|| {
        ShapeError::rule(rule, format!("`{key}` must be a positive integer, got {v}"))
    })
}

/// The attributes of a DeformablePSROIPooling node; as OpenVINO, only
/// `output_dim` and `group_size` are checked (positive).
pub fn attributes(attributes: &ir::Attributes) -> Result<Attrs, ShapeError> {
    let int = |key: &'static str, default| count_attr(attributes, key, default);
    Ok(Attrs {
        output_dim: positive("output_dim", "roi-output-dim", int("output_dim", None)?)?,
        group_size: positive("group_size", "roi-group-size", int("group_size", Some(1))?)?,
        spatial_scale: float(attributes, "spatial_scale", None)?,
        spatial_bins_x: int("spatial_bins_x", Some(1))?,
        spatial_bins_y: int("spatial_bins_y", Some(1))?,
        trans_std: float(attributes, "trans_std", Some(1.0))?,
        part_size: int("part_size", Some(1))?,
    })
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 3)?;
    ranked_dims(call, 0, 4, "the data")?;
    let rois = match ranked_dims(call, 1, 2, "the rois")? {
        Some(dims) => dims[0].clone(),
        None => support::unknown_dim(ctx, "the ROI count of rois of unknown rank"),
    };
    if call.inputs.len() == 3 {
        ranked_dims(call, 2, 4, "the offsets")?;
    }
    let attrs = attributes(&call.node.attributes)?;
    let t = call.inputs[0].element_type;
    let output_dim = size_dim(attrs.output_dim);
    Ok(vec![pooled_output(
        t,
        rois,
        output_dim,
        attrs.group_size,
        attrs.group_size,
    )])
}
