//! PriorBoxClustered-1: prior boxes of given widths and heights for every
//! feature-map cell, `[2, 4 * H * W * len(width)]` where `[H, W]` are the
//! values of the `output_size` input, as OpenVINO's
//! `prior_box_clustered_shape_inference.hpp`.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::prior_box::{float, float_list, prior_output};
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "PriorBoxClustered",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Clustered prior boxes (given widths and heights) of a feature map: `[2, 4*H*W*len(width)]` f32.",
        attributes: "`width`, `height` (float lists of one length), `clip` (default true), `step`, `step_w`, `step_h` (default 0), `offset` (required), `variance` (none, one or four)",
        symbolic: "`H*W*(4*len(width))` from the propagated `output_size` values (an expression when read with ShapeOf/StridedSlice); unknown values give a fresh dim",
        errors: "`prior-sizes` (`width` and `height` of different lengths), `prior-input` (inputs not 1-D, `output_size` not two elements), `element-type` (an input not integral), `attribute-invalid`",
    },
};

/// PriorBoxClustered's attributes, as OpenVINO's `PriorBoxClustered::Attributes`.
#[derive(Debug, Clone, PartialEq)]
pub struct Attrs {
    /// Box widths (`width`).
    pub widths: Vec<f32>,
    /// Box heights (`height`), one per width.
    pub heights: Vec<f32>,
    /// Clip the boxes to [0, 1] (`clip`).
    pub clip: bool,
    /// Horizontal distance of box centres (`step_w`); 0 takes `step`.
    pub step_width: f32,
    /// Vertical distance of box centres (`step_h`); 0 takes `step`.
    pub step_height: f32,
    /// Distance of box centres (`step`).
    pub step: f32,
    /// Box centre offset within a cell (`offset`).
    pub offset: f32,
    /// Variances (`variance`): none, one or four.
    pub variances: Vec<f32>,
}

/// The attributes of a PriorBoxClustered node, checked.
pub fn attributes(attributes: &ir::Attributes) -> Result<Attrs, ShapeError> {
    let attrs = Attrs {
        widths: float_list(attributes, "width")?,
        heights: float_list(attributes, "height")?,
        clip: attributes.bool("clip").is_ok_and(|v| v.unwrap_or(true)),
        step_width: float(attributes, "step_w", Some(0.0))?,
        step_height: float(attributes, "step_h", Some(0.0))?,
        step: float(attributes, "step", Some(0.0))?,
        offset: float(attributes, "offset", None)?,
        variances: float_list(attributes, "variance")?,
    };
    if attrs.widths.len() != attrs.heights.len() {
        return Err(ShapeError::rule(
            "prior-sizes",
            format!(
                "{} heights do not match {} widths",
                attrs.heights.len(),
                attrs.widths.len()
            ),
        ));
    }
    Ok(attrs)
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let attrs = attributes(&call.node.attributes)?;
    support::bool_attr(ctx, call, "clip", true);
    let priors = i64::try_from(attrs.widths.len()).unwrap_or(i64::MAX);
    prior_output(ctx, call, priors)
}
