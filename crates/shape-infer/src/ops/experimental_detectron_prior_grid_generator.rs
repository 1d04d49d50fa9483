//! ExperimentalDetectronPriorGridGenerator-6: the prior boxes shifted to
//! every cell of a feature map. The output is `[H * W * P, 4]` when
//! `flatten` (the default), else `[H, W, P, 4]`, with `H`, `W` the feature
//! map's and `P` the priors' dims kept as expressions, as OpenVINO's
//! `experimental_detectron_prior_grid_generator_shape_inference.hpp`.

use ir::{Dim, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::prior_box::float;
use crate::ops::roi_pooling::{count_attr, ranked_dims, roi_count};
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "ExperimentalDetectronPriorGridGenerator",
    versions: &[OpVersion::openvino(6, 6)],
    infer,
    doc: OpDoc {
        summary: "The priors (`[P, 4]`) shifted to the centre of every feature-map cell: `[H*W*P, 4]` (flatten) or `[H, W, P, 4]`.",
        attributes: "`flatten` (default true), `h`, `w` (grid size, 0 takes the feature map's), `stride_x`, `stride_y` (0 takes the image size over the grid size)",
        symbolic: "`[H*W*P, 4]` or `[H, W, P, 4]` from the feature map's H, W and the priors' count, expressions kept",
        errors: "`roi-input-rank` (priors not 2-D, feature map or image not 4-D), `roi-box-size` (priors' second dim not 4), `roi-batch` (feature map and image of different batches), `attribute-invalid`, `element-type` (inputs not one floating-point type)",
    },
};

/// The attributes of an ExperimentalDetectronPriorGridGenerator node.
#[derive(Debug, Clone, PartialEq)]
pub struct Attrs {
    /// One row per prior and cell (`flatten`).
    pub flatten: bool,
    /// Grid rows (`h`); 0 takes the feature map's height.
    pub h: i64,
    /// Grid columns (`w`); 0 takes the feature map's width.
    pub w: i64,
    /// Horizontal cell stride (`stride_x`); 0 takes image width / grid width.
    pub stride_x: f32,
    /// Vertical cell stride (`stride_y`); 0 takes image height / grid height.
    pub stride_y: f32,
}

/// The attributes of an ExperimentalDetectronPriorGridGenerator node.
pub fn attributes(attributes: &ir::Attributes) -> Result<Attrs, ShapeError> {
    Ok(Attrs {
        flatten: attributes.bool("flatten").is_ok_and(|v| v.unwrap_or(true)),
        h: count_attr(attributes, "h", Some(0))?,
        w: count_attr(attributes, "w", Some(0))?,
        stride_x: float(attributes, "stride_x", Some(0.0))?,
        stride_y: float(attributes, "stride_y", Some(0.0))?,
    })
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 3)?;
    // Read for their checks; the shape uses the feature map's dims.
    attributes(&call.node.attributes)?;
    let flatten = support::bool_attr(ctx, call, "flatten", true);
    let priors = roi_count(ctx, call, 0, 4, "the priors")?;
    let feature = ranked_dims(call, 1, 4, "the feature map")?;
    let image = ranked_dims(call, 2, 4, "the image")?;
    if let (Some(f), Some(i)) = (feature, image) {
        support::merge_equal_dims(
            ctx,
            &f[0],
            &i[0],
            "roi-batch",
            "the feature map and the image must have one batch",
        )?;
    }
    support::expect_real_input(call, 0, "the priors (input 0)")?;
    let t = support::expect_same_type(call, 0, 1)?;
    support::expect_same_type(call, 0, 2)?;
    let (h, w) = match feature {
        Some(f) => (f[2].clone(), f[3].clone()),
        None => (
            support::unknown_dim(ctx, "the height of a feature map of unknown rank"),
            support::unknown_dim(ctx, "the width of a feature map of unknown rank"),
        ),
    };
    let dims = if flatten {
        vec![h.mul(&w)?.mul(&priors)?, Dim::constant(4)]
    } else {
        vec![h, w, priors, Dim::constant(4)]
    };
    Ok(vec![TensorInfo::new(t, Shape::ranked(dims))])
}
