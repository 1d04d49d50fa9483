//! PriorBox-1 and PriorBox-8: SSD prior boxes for a feature map,
//! `[2, 4*H*W*num_priors]` (boxes, then variances) where `[H, W]` are the
//! values of the `output_size` input (input 0) and `num_priors` follows from
//! the attributes, as OpenVINO's `prior_box_shape_inference_util.hpp`. The
//! shared output rule serves PriorBoxClustered too.

use ir::{Attributes, ElementType, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "PriorBox",
    versions: &[OpVersion::openvino(1, 1), OpVersion::openvino(8, 8)],
    infer,
    doc: OpDoc {
        summary: "SSD prior boxes of a feature map: `[2, 4*H*W*num_priors]` f32 (corners, then variances).",
        attributes: "`min_size`, `max_size`, `aspect_ratio`, `density`, `fixed_ratio`, `fixed_size`, `variance` (float lists), `flip`, `clip` (default false), `scale_all_sizes` (default true), `step` (default 0), `offset` (required); v8 `min_max_aspect_ratios_order` (default true)",
        symbolic: "`H*W*(4*num_priors)` from the propagated `output_size` values (an expression of the feature-map symbols when read with ShapeOf/StridedSlice); unknown values give a fresh dim",
        errors: "`prior-input` (inputs not 1-D, `output_size` not two elements), `element-type` (an input not integral), `prior-count` (attributes giving a negative number of priors), `attribute-invalid` (a list or number that does not parse, `offset` missing)",
    },
};

/// The attributes of PriorBox-1/-8, as OpenVINO's `PriorBox::Attributes`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Attrs {
    /// Box sizes (`min_size`).
    pub min_size: Vec<f32>,
    /// Sizes of the extra square boxes (`max_size`).
    pub max_size: Vec<f32>,
    /// Aspect ratios (`aspect_ratio`).
    pub aspect_ratio: Vec<f32>,
    /// Boxes per fixed size side (`density`).
    pub density: Vec<f32>,
    /// Ratios of the fixed-size boxes (`fixed_ratio`).
    pub fixed_ratio: Vec<f32>,
    /// Fixed box sizes (`fixed_size`).
    pub fixed_size: Vec<f32>,
    /// Clip the boxes to [0, 1] (`clip`).
    pub clip: bool,
    /// Add the reciprocal of each aspect ratio (`flip`).
    pub flip: bool,
    /// Distance between box centres (`step`); 0 derives it from the sizes.
    pub step: f32,
    /// Box centre offset within a cell (`offset`).
    pub offset: f32,
    /// Variances (`variance`): none, one or four.
    pub variance: Vec<f32>,
    /// Every aspect ratio for every `min_size` (`scale_all_sizes`).
    pub scale_all_sizes: bool,
    /// The `max_size` box right after its `min_size` box, before the
    /// aspect-ratio boxes (v8's `min_max_aspect_ratios_order`; always so in v1).
    pub min_max_aspect_ratios_order: bool,
}

fn invalid(key: &str, text: &str, what: &str) -> ShapeError {
    ShapeError::rule(
        "attribute-invalid",
        format!("`{key}` \"{text}\" is not {what}"),
    )
}

/// A comma-separated float list attribute; absent or empty text is empty.
pub fn float_list(attributes: &Attributes, key: &str) -> Result<Vec<f32>, ShapeError> {
    let Some(text) = attributes.get(key) else {
        return Ok(Vec::new());
    };
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|item| item.trim().parse::<f32>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| invalid(key, text, "a comma-separated list of numbers"))
}

/// A float attribute, `default` when absent.
pub fn float(attributes: &Attributes, key: &str, default: Option<f32>) -> Result<f32, ShapeError> {
    match attributes.get(key) {
        Some(text) => text
            .trim()
            .parse::<f32>()
            .map_err(|_| invalid(key, text, "a number")),
        None => default.ok_or_else(|| {
            ir::AttributeError::Missing {
                key: key.to_owned(),
            }
            .into()
        }),
    }
}

/// A boolean attribute; invalid text reads as false, as OpenVINO (inference
/// warns through [`support::bool_attr`]).
fn flag(attributes: &Attributes, key: &str, default: bool) -> bool {
    attributes.bool(key).is_ok_and(|v| v.unwrap_or(default))
}

/// PriorBox's attributes for op `version` (1 or 8).
pub fn attributes(attributes: &Attributes, version: u32) -> Result<Attrs, ShapeError> {
    Ok(Attrs {
        min_size: float_list(attributes, "min_size")?,
        max_size: float_list(attributes, "max_size")?,
        aspect_ratio: float_list(attributes, "aspect_ratio")?,
        density: float_list(attributes, "density")?,
        fixed_ratio: float_list(attributes, "fixed_ratio")?,
        fixed_size: float_list(attributes, "fixed_size")?,
        clip: flag(attributes, "clip", false),
        flip: flag(attributes, "flip", false),
        step: float(attributes, "step", Some(0.0))?,
        offset: float(attributes, "offset", None)?,
        variance: float_list(attributes, "variance")?,
        scale_all_sizes: flag(attributes, "scale_all_sizes", true),
        // v1 has no such attribute and always puts the max box first.
        min_max_aspect_ratios_order: version < 8
            || flag(attributes, "min_max_aspect_ratios_order", true),
    })
}

/// The distinct aspect ratios (with their reciprocals under `flip`) and 1,
/// each rounded to 6 decimals in f32, ascending: OpenVINO's
/// `normalized_aspect_ratio`, whose length counts the priors.
pub fn normalized_aspect_ratios(aspect_ratio: &[f32], flip: bool) -> Vec<f32> {
    let round = |r: f32| (r * 1e6).round() / 1e6;
    let mut ratios = vec![1.0f32];
    for &r in aspect_ratio {
        ratios.push(round(r));
        if flip {
            ratios.push(round(1.0 / r));
        }
    }
    ratios.sort_by(f32::total_cmp);
    ratios.dedup();
    ratios
}

/// The number of priors per feature-map cell, OpenVINO's
/// `PriorBox::number_of_priors` (both versions).
pub fn number_of_priors(attrs: &Attrs) -> i64 {
    let len = |v: &[f32]| i64::try_from(v.len()).unwrap_or(i64::MAX);
    let ratios = len(&normalized_aspect_ratios(&attrs.aspect_ratio, attrs.flip));
    let mut priors = if attrs.scale_all_sizes {
        ratios * len(&attrs.min_size) + len(&attrs.max_size)
    } else {
        ratios + len(&attrs.min_size) - 1
    };
    if !attrs.fixed_size.is_empty() {
        priors = ratios * len(&attrs.fixed_size);
    }
    for &density in &attrs.density {
        // Truncated toward zero, as the C++ cast.
        let d = density as i64;
        let per_side = d * d - 1;
        priors += if attrs.fixed_ratio.is_empty() {
            ratios * per_side
        } else {
            len(&attrs.fixed_ratio) * per_side
        };
    }
    priors
}

const INPUT_NAMES: [&str; 2] = ["output_size", "image_size"];

/// The output of PriorBox and PriorBoxClustered: `[2, H*W*(4*num_priors)]`
/// f32 from the values `[H, W]` of input 0, after the input checks.
pub(super) fn prior_output(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    num_priors: i64,
) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    for (i, input) in call.inputs.iter().enumerate() {
        let t = input.element_type;
        if t.is_static() && !t.is_integral() {
            return Err(ShapeError::ElementType {
                what: format!("'{}' (input {i})", INPUT_NAMES[i]),
                message: format!("must be an integral number, got {t}"),
            });
        }
        if let Some(rank) = input.shape.rank().filter(|&r| r != 1) {
            return Err(ShapeError::rule(
                "prior-input",
                format!(
                    "'{}' (input {i}) must be 1-D, got rank {rank}",
                    INPUT_NAMES[i]
                ),
            ));
        }
    }
    if num_priors < 0 {
        return Err(ShapeError::rule(
            "prior-count",
            format!("the attributes give {num_priors} priors per cell"),
        ));
    }
    let count = match support::input_values(call, 0) {
        Some([h, w]) => h.mul(w)?.mul_const(num_priors.saturating_mul(4))?,
        Some(values) => {
            return Err(ShapeError::rule(
                "prior-input",
                format!("'output_size' must have two elements, got {}", values.len()),
            ))
        }
        None => {
            if let Some(n) =
                support::static_element_count(&call.inputs[0].shape).filter(|&n| n != 2)
            {
                return Err(ShapeError::rule(
                    "prior-input",
                    format!("'output_size' must have two elements, got {n}"),
                ));
            }
            support::unknown_dim(
                ctx,
                "the prior count, from output_size known only at run time",
            )
        }
    };
    Ok(vec![TensorInfo::new(
        ElementType::F32,
        Shape::ranked(vec![ir::Dim::constant(2), count]),
    )])
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let attrs = attributes(&call.node.attributes, call.version)?;
    for key in [
        "clip",
        "flip",
        "scale_all_sizes",
        "min_max_aspect_ratios_order",
    ] {
        support::bool_attr(ctx, call, key, false);
    }
    prior_output(ctx, call, number_of_priors(&attrs))
}
