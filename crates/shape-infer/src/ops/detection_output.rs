//! DetectionOutput-1 and -8: SSD's final layer, which decodes the box
//! predictions against the priors, suppresses overlaps per class and keeps
//! the best, as `[1, 1, R, 7]` rows `(image, label, score, xmin, ymin,
//! xmax, ymax)`.
//!
//! The shapes follow OpenVINO's `detection_output_shape_inference.hpp`:
//! box logits `[N, P*L*4]` (`L` is 1 with `share_location`, else the class
//! count `C`), class predictions `[N, P*C]`, proposals `[1 or N, 1 or 2,
//! P*S]` (`S` is 4 when `normalized`, else 5; two rows unless
//! `variance_encoded_in_target`), and with five inputs the auxiliary class
//! predictions `[N, 2*P]` and box predictions shaped as the box logits.
//! Version 1 reads `C` from `num_classes`; version 8 deduces it. `R` is
//! `N*keep_top_k` when `keep_top_k[0] > 0`, `N*top_k*C` when it is -1 and
//! `top_k > 0`, else `N*P*C`. OpenVINO deduces `P` and `C` only from static
//! dims; here they are exact expressions of symbolic ones too (`Q/5` of a
//! proposal dim `Q`, with its divisibility recorded).

use ir::{Attributes, Dim, Shape};
use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "DetectionOutput",
    versions: &[OpVersion::openvino(1, 1), OpVersion::openvino(8, 8)],
    infer,
    doc: OpDoc {
        summary: "SSD detection output: priors decoded by the box predictions (optionally refined by auxiliary ones), per-class suppression and top-k, as `[1, 1, R, 7]` rows `(image, label, score, box)` ended by a -1 image id.",
        attributes: "v1: `num_classes`; `background_label_id`, `top_k`, `keep_top_k`, `code_type` (caffe.PriorBoxParameter.CORNER, CENTER_SIZE), `share_location`, `variance_encoded_in_target`, `nms_threshold`, `confidence_threshold`, `clip_before_nms`, `clip_after_nms`, `decrease_label_id`, `normalized`, `input_height`, `input_width`, `objectness_score`",
        symbolic: "priors `P = Q/S` of the proposals' last dim (S = 4 normalized, else 5; divisibility recorded), classes `C` (v1 `num_classes`, v8 `(P*C)/P` of the class predictions), `R` = `N*keep_top_k`, `N*top_k*C` or `N*P*C`, exact expressions",
        errors: "`detection-input` (ranks, a batch, prior, class or variance dim that does not fit the others, a count of inputs other than 3 or 5), `detection-attribute` (`code_type`, `keep_top_k` empty, `num_classes` of v1 not positive)",
    },
};

/// The attributes the shape rule and the kernel share.
#[derive(Debug, Clone)]
pub struct Attrs {
    /// Version 1's `num_classes` (`None` in version 8).
    pub num_classes: Option<i64>,
    pub background_label_id: i64,
    pub top_k: i64,
    /// `keep_top_k[0]`.
    pub keep_top_k: i64,
    /// `code_type` is CENTER_SIZE (else CORNER).
    pub center_size: bool,
    pub share_location: bool,
    pub variance_encoded_in_target: bool,
    pub nms_threshold: f32,
    pub confidence_threshold: f32,
    pub clip_before_nms: bool,
    pub clip_after_nms: bool,
    pub decrease_label_id: bool,
    pub normalized: bool,
    pub input_height: f32,
    pub input_width: f32,
    pub objectness_score: f32,
}

impl Attrs {
    /// The values of one prior: `[xmin, ymin, xmax, ymax]` when normalized,
    /// else with an image id first.
    pub fn prior_size(&self) -> i64 {
        if self.normalized {
            4
        } else {
            5
        }
    }
}

fn attribute(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("detection-attribute", message)
}

fn rule(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("detection-input", message)
}

fn flag(attributes: &Attributes, key: &str, default: bool) -> bool {
    attributes.bool(key).is_ok_and(|v| v.unwrap_or(default))
}

/// DetectionOutput's attributes for op `version` (1 or 8), with OpenVINO's
/// defaults for the absent ones.
pub fn attributes(attributes: &Attributes, version: u32) -> Result<Attrs, ShapeError> {
    use super::prior_box::float;
    let num_classes = if version < 8 {
        let n = attributes
            .i64("num_classes")?
            .ok_or_else(|| ir::AttributeError::Missing {
                key: "num_classes".to_owned(),
            })?;
        if n <= 0 {
            return Err(attribute(format!("`num_classes` {n} is not positive")));
        }
        Some(n)
    } else {
        None
    };
    let keep_top_k = match attributes.i64_list("keep_top_k")? {
        Some(list) => *list
            .first()
            .ok_or_else(|| attribute("`keep_top_k` is empty"))?,
        None => -1,
    };
    let center_size = match attributes.get("code_type").map(str::trim) {
        None => false,
        Some(code) if code.eq_ignore_ascii_case("caffe.PriorBoxParameter.CORNER") => false,
        Some(code) if code.eq_ignore_ascii_case("caffe.PriorBoxParameter.CENTER_SIZE") => true,
        Some(other) => {
            return Err(attribute(format!(
                "`code_type` {other} is not caffe.PriorBoxParameter.CORNER or caffe.PriorBoxParameter.CENTER_SIZE"
            )))
        }
    };
    Ok(Attrs {
        num_classes,
        background_label_id: attributes.i64("background_label_id")?.unwrap_or(0),
        top_k: attributes.i64("top_k")?.unwrap_or(-1),
        keep_top_k,
        center_size,
        share_location: flag(attributes, "share_location", true),
        variance_encoded_in_target: flag(attributes, "variance_encoded_in_target", false),
        nms_threshold: float(attributes, "nms_threshold", Some(0.0))?,
        confidence_threshold: float(attributes, "confidence_threshold", Some(0.0))?,
        clip_before_nms: flag(attributes, "clip_before_nms", false),
        clip_after_nms: flag(attributes, "clip_after_nms", false),
        decrease_label_id: flag(attributes, "decrease_label_id", false),
        normalized: flag(attributes, "normalized", false),
        input_height: float(attributes, "input_height", Some(1.0))?,
        input_width: float(attributes, "input_width", Some(1.0))?,
        objectness_score: float(attributes, "objectness_score", Some(0.0))?,
    })
}

/// `dividend / divisor` when it is exact: constants must divide (else an
/// error naming `what`), a constant divisor records the divisibility of a
/// symbolic dividend, and a symbolic divisor gives the polynomial quotient
/// when there is one (`None` otherwise).
fn divide(
    ctx: &mut InferContext,
    dividend: &Dim,
    divisor: &Dim,
    what: &str,
) -> Result<Option<Dim>, ShapeError> {
    match (dividend.as_constant(), divisor.as_constant()) {
        (Some(a), Some(b)) => {
            if b <= 0 || a % b != 0 || a / b <= 0 {
                return Err(rule(format!(
                    "{what} ({a}) must be a positive multiple of {b}"
                )));
            }
            Ok(Some(Expr::constant(a / b)))
        }
        (None, Some(b)) if b > 0 => {
            ctx.assume(Predicate::Divides {
                divisor: b,
                expr: dividend.clone(),
            })?;
            Ok(Some(dividend.assumed_exact_div(b)?))
        }
        _ => Ok(dividend.exact_div(divisor)),
    }
}

/// The dims of input `index` when ranked, checked to be of `rank`.
fn ranked<'a>(
    call: &'a OpCall<'_>,
    index: usize,
    rank: usize,
    what: &str,
) -> Result<Option<&'a [Dim]>, ShapeError> {
    let Some(dims) = call.inputs.get(index).and_then(|t| t.shape.dims()) else {
        return Ok(None);
    };
    if dims.len() != rank {
        return Err(rule(format!(
            "{what} (input {index}) must be {rank}-D, got rank {}",
            dims.len()
        )));
    }
    Ok(Some(dims))
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 5)?;
    if call.inputs.len() == 4 {
        return Err(rule(
            "DetectionOutput takes 3 inputs, or 5 with the auxiliary predictions; got 4",
        ));
    }
    let attrs = attributes(&call.node.attributes, call.version)?;
    for key in [
        "share_location",
        "variance_encoded_in_target",
        "clip_before_nms",
        "clip_after_nms",
        "decrease_label_id",
        "normalized",
    ] {
        support::bool_attr(ctx, call, key, false);
    }
    if attrs.decrease_label_id && attrs.background_label_id != 0 {
        ctx.warn(
            "detection-attribute",
            format!(
                "decrease_label_id with background_label_id {}: OpenVINO's CPU plugin refuses to run it",
                attrs.background_label_id
            ),
        );
    }
    support::expect_real_input(call, 0, "box logits (input 0)")?;
    let element_type = call.inputs[0].element_type;
    // The proposals may be of another floating-point type (OpenVINO's
    // type_prop `detection_f16_with_proposals_f32`).
    support::expect_real_input(call, 2, "proposals (input 2)")?;
    for index in (1..call.inputs.len()).filter(|&i| i != 2) {
        support::expect_same_type(call, 0, index)?;
    }
    let loc = ranked(call, 0, 2, "box logits")?;
    let conf = ranked(call, 1, 2, "class predictions")?;
    let proposals = ranked(call, 2, 3, "proposals")?;
    let aux_conf = ranked(call, 3, 2, "auxiliary class predictions")?;
    let aux_loc = ranked(call, 4, 2, "auxiliary box predictions")?;

    // The image count N, merged from every input that has it.
    let mut images: Option<Dim> = None;
    for (dims, what) in [
        (loc, "box logits"),
        (conf, "class predictions"),
        (aux_conf, "auxiliary class predictions"),
        (aux_loc, "auxiliary box predictions"),
    ] {
        let Some(d) = dims else { continue };
        images = Some(match &images {
            None => d[0].clone(),
            Some(n) => support::merge_equal_dims(
                ctx,
                n,
                &d[0],
                "detection-input",
                &format!("the image count of {what} (dim 0)"),
            )?,
        });
    }

    let prior_size = Expr::constant(attrs.prior_size());
    let classes_attr = attrs.num_classes.map(Expr::constant);
    let loc_classes = if attrs.share_location {
        Some(Expr::one())
    } else {
        classes_attr.clone()
    };
    // The prior count P: a constant from any input that gives one (as
    // OpenVINO, which deduces it from static dims only), else the
    // expression of the first (the proposals' has a constant divisor).
    let mut candidates: Vec<Dim> = Vec::new();
    if let Some(p) = proposals {
        candidates.extend(divide(ctx, &p[2], &prior_size, "the proposals' last dim")?);
    }
    if let (Some(l), Some(lc)) = (loc, &loc_classes) {
        candidates.extend(divide(
            ctx,
            &l[1],
            &lc.mul_const(4)?,
            "the box logits' dim 1",
        )?);
    }
    if let Some(a) = aux_conf {
        let two = Expr::constant(2);
        candidates.extend(divide(
            ctx,
            &a[1],
            &two,
            "the auxiliary class predictions' dim 1",
        )?);
    }
    if let (Some(c), Some(n)) = (conf, &classes_attr) {
        candidates.extend(divide(ctx, &c[1], n, "the class predictions' dim 1")?);
    }
    let priors = candidates
        .iter()
        .find(|p| p.is_constant())
        .or(candidates.first())
        .cloned();
    // The class count C: version 1's attribute, else deduced.
    let mut classes = classes_attr;
    if let (None, Some(p)) = (&classes, &priors) {
        if let Some(c) = conf {
            classes = divide(ctx, &c[1], p, "the class predictions' dim 1")?;
        }
        if classes.is_none() && !attrs.share_location {
            if let Some(l) = loc {
                classes = divide(ctx, &l[1], &p.mul_const(4)?, "the box logits' dim 1")?;
            }
        }
    }
    let loc_classes = if attrs.share_location {
        Some(Expr::one())
    } else {
        classes.clone()
    };

    // Every dim that P and C fix must agree.
    if let Some(p) = &priors {
        if let (Some(l), Some(lc)) = (loc, &loc_classes) {
            let want = p.mul(lc)?.mul_const(4)?;
            support::merge_equal_dims(
                ctx,
                &l[1],
                &want,
                "detection-input",
                "the box logits' dim 1 and num_prior_boxes * num_loc_classes * 4",
            )?;
        }
        if let (Some(c), Some(n)) = (conf, &classes) {
            let want = p.mul(n)?;
            support::merge_equal_dims(
                ctx,
                &c[1],
                &want,
                "detection-input",
                "the class predictions' dim 1 and num_prior_boxes * num_classes",
            )?;
        }
        if let Some(q) = proposals {
            let want = p.mul(&prior_size)?;
            support::merge_equal_dims(
                ctx,
                &q[2],
                &want,
                "detection-input",
                "the proposals' last dim and num_prior_boxes * prior_box_size",
            )?;
        }
        if let Some(a) = aux_conf {
            support::merge_equal_dims(
                ctx,
                &a[1],
                &p.mul_const(2)?,
                "detection-input",
                "the auxiliary class predictions' dim 1 and num_prior_boxes * 2",
            )?;
        }
    }
    if let (Some(a), Some(l)) = (aux_loc, loc) {
        support::merge_equal_dims(
            ctx,
            &a[1],
            &l[1],
            "detection-input",
            "the auxiliary box predictions' dim 1 and the box logits' dim 1",
        )?;
    }
    if let Some(q) = proposals {
        check_proposal_dims(ctx, q, images.as_ref(), &attrs)?;
    }

    let images = match images {
        Some(n) => n,
        None => support::unknown_dim(ctx, "image count of DetectionOutput (no input has it)"),
    };
    let rows = if attrs.keep_top_k > 0 {
        images.mul_const(attrs.keep_top_k)?
    } else {
        let classes = match classes {
            Some(c) => c,
            None => support::unknown_dim(ctx, "class count of DetectionOutput"),
        };
        if attrs.keep_top_k == -1 && attrs.top_k > 0 {
            images.mul_const(attrs.top_k)?.mul(&classes)?
        } else {
            let priors = match priors {
                Some(p) => p,
                None => support::unknown_dim(ctx, "prior count of DetectionOutput"),
            };
            images.mul(&priors)?.mul(&classes)?
        }
    };
    let shape = Shape::ranked([Expr::one(), Expr::one(), rows, Expr::constant(7)]);
    Ok(vec![TensorInfo::new(element_type, shape)])
}

/// The proposals' batch is 1 or N, their dim 1 is 1 with the variance in
/// the target, else 2 (the priors and their variances).
fn check_proposal_dims(
    ctx: &mut InferContext,
    proposals: &[Dim],
    images: Option<&Dim>,
    attrs: &Attrs,
) -> Result<(), ShapeError> {
    if let (Some(b), Some(n)) = (proposals[0].as_constant(), images) {
        let fits = b == 1 || n.as_constant().is_none_or(|n| n == b);
        if !fits {
            return Err(rule(format!(
                "the proposals' dim 0 ({b}) must be 1 or the image count {}",
                ctx.symbols.display(n)
            )));
        }
    }
    let rows = if attrs.variance_encoded_in_target {
        1
    } else {
        2
    };
    support::merge_equal_dims(
        ctx,
        &proposals[1],
        &Expr::constant(rows),
        "detection-input",
        "the proposals' dim 1 (2 rows of priors and variances, 1 with variance_encoded_in_target)",
    )?;
    Ok(())
}
