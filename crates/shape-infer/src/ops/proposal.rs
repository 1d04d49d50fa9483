//! Proposal-1 and -4: Faster R-CNN's region proposals, the anchors of every
//! feature-map cell shifted by the box deltas, clipped, thresholded by size,
//! the best `pre_nms_topn` suppressed greedily and the first
//! `post_nms_topn` kept per image, as `[N*post_nms_topn, 5]` rows
//! `(image, x0, y0, x1, y1)` (version 4 adds their scores
//! `[N*post_nms_topn]`), as OpenVINO's `proposal_shape_inference.hpp`.

use ir::{Attributes, Dim, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Proposal",
    versions: &[OpVersion::openvino(1, 1), OpVersion::openvino(4, 4)],
    infer,
    doc: OpDoc {
        summary: "Region proposals: anchors shifted by the box deltas, clipped, filtered by `min_size`, suppressed and cut to `post_nms_topn` per image, as `[N*post_nms_topn, 5]` rows `(image, x0, y0, x1, y1)` ended by a -1 image id; v4 also their scores.",
        attributes: "`base_size`, `pre_nms_topn`, `post_nms_topn`, `nms_thresh`, `feat_stride`, `min_size`, `ratio`, `scale`, `clip_before_nms`, `clip_after_nms`, `normalize`, `box_size_scale`, `box_coordinate_scale`, `framework` (\"\" Caffe-like, tensorflow)",
        symbolic: "`[N*post_nms_topn, 5]` (v4 also `[N*post_nms_topn]`), N the batch of the scores merged with the deltas'",
        errors: "`proposal-input` (scores or deltas not 4-D, deltas' channels not twice the scores', batches that differ, image info not 1-D of 3 or 4 elements), `proposal-attribute` (`post_nms_topn` or `pre_nms_topn` below 1, `framework` other than \"\" or tensorflow warns: the CPU plugin refuses it)",
    },
};

/// The attributes the shape rule and the kernel share, with OpenVINO's
/// defaults for the absent ones.
#[derive(Debug, Clone)]
pub struct Attrs {
    pub base_size: i64,
    pub pre_nms_topn: i64,
    pub post_nms_topn: i64,
    pub nms_thresh: f32,
    pub feat_stride: i64,
    pub min_size: i64,
    pub ratio: Vec<f32>,
    pub scale: Vec<f32>,
    pub clip_before_nms: bool,
    pub clip_after_nms: bool,
    pub normalize: bool,
    pub box_size_scale: f32,
    pub box_coordinate_scale: f32,
    /// `framework` is tensorflow (else Caffe-like).
    pub tensorflow: bool,
}

fn flag(attributes: &Attributes, key: &str, default: bool) -> bool {
    attributes.bool(key).is_ok_and(|v| v.unwrap_or(default))
}

/// Proposal's attributes.
pub fn attributes(attributes: &Attributes) -> Result<Attrs, ShapeError> {
    use super::prior_box::{float, float_list};
    let int = |key: &str| -> Result<i64, ShapeError> { Ok(attributes.i64(key)?.unwrap_or(1)) };
    let attrs = Attrs {
        base_size: int("base_size")?,
        pre_nms_topn: int("pre_nms_topn")?,
        post_nms_topn: int("post_nms_topn")?,
        nms_thresh: float(attributes, "nms_thresh", Some(0.0))?,
        feat_stride: int("feat_stride")?,
        min_size: int("min_size")?,
        ratio: float_list(attributes, "ratio")?,
        scale: float_list(attributes, "scale")?,
        clip_before_nms: flag(attributes, "clip_before_nms", true),
        clip_after_nms: flag(attributes, "clip_after_nms", false),
        normalize: flag(attributes, "normalize", false),
        box_size_scale: float(attributes, "box_size_scale", Some(1.0))?,
        box_coordinate_scale: float(attributes, "box_coordinate_scale", Some(1.0))?,
        tensorflow: attributes.get("framework").map(str::trim) == Some("tensorflow"),
    };
    for (key, value) in [
        ("post_nms_topn", attrs.post_nms_topn),
        ("pre_nms_topn", attrs.pre_nms_topn),
    ] {
        if value < 1 {
            return Err(ShapeError::rule(
                "proposal-attribute",
                format!("`{key}` {value} is below 1"),
            ));
        }
    }
    Ok(attrs)
}

fn rule(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("proposal-input", message)
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 3)?;
    let attrs = attributes(&call.node.attributes)?;
    for (key, default) in [
        ("clip_before_nms", true),
        ("clip_after_nms", false),
        ("normalize", false),
    ] {
        support::bool_attr(ctx, call, key, default);
    }
    if let Some(other) = call
        .node
        .attributes
        .get("framework")
        .map(str::trim)
        .filter(|f| !f.is_empty() && *f != "tensorflow")
    {
        ctx.warn(
            "proposal-attribute",
            format!(
                "`framework` {other} is not \"\" or tensorflow: OpenVINO's CPU plugin refuses it"
            ),
        );
    }
    support::expect_real_input(call, 0, "class_probs (input 0)")?;
    let element_type = support::expect_same_type(call, 0, 1)?;
    support::expect_real_input(call, 2, "image_shape (input 2)")?;
    let mut dims: Vec<Option<&[Dim]>> = Vec::new();
    for (index, what) in [(0, "class_probs"), (1, "bbox_deltas")] {
        let d = call.inputs[index].shape.dims();
        if let Some(d) = d.filter(|d| d.len() != 4) {
            return Err(rule(format!(
                "{what} (input {index}) must be 4-D, got rank {}",
                d.len()
            )));
        }
        dims.push(d);
    }
    if let Some(d) = call.inputs[2].shape.dims() {
        let fits = match d {
            [n] => n.as_constant().is_none_or(|n| n == 3 || n == 4),
            _ => false,
        };
        if !fits {
            return Err(rule(format!(
                "image_shape (input 2) must be 1-D of 3 or 4 elements, got {}",
                support::show_dims(ctx, d)
            )));
        }
    }
    let batch = match (dims[0], dims[1]) {
        (Some(probs), Some(deltas)) => {
            support::merge_equal_dims(
                ctx,
                &deltas[1],
                &probs[1].mul_const(2)?,
                "proposal-input",
                "the anchor count of bbox_deltas (dim 1) and twice class_probs' (dim 1)",
            )?;
            support::merge_equal_dims(
                ctx,
                &probs[0],
                &deltas[0],
                "proposal-input",
                "the batch of class_probs and bbox_deltas",
            )?
        }
        (Some(d), None) | (None, Some(d)) => d[0].clone(),
        (None, None) => support::unknown_dim(ctx, "batch of Proposal (inputs of unknown rank)"),
    };
    let rows = batch.mul_const(attrs.post_nms_topn)?;
    let boxes = TensorInfo::new(
        element_type,
        Shape::ranked([rows.clone(), Expr::constant(5)]),
    );
    if call.version < 4 {
        return Ok(vec![boxes]);
    }
    Ok(vec![
        boxes,
        TensorInfo::new(element_type, Shape::ranked([rows])),
    ])
}
