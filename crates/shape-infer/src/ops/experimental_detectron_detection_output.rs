//! ExperimentalDetectronDetectionOutput-6: Mask R-CNN's detection head,
//! the rois `[R, 4]` refined per class by the deltas `[R, 4C]`, clipped to
//! the image of `im_info` `[1, 3]`, suppressed per class and the best
//! `max_detections_per_image` kept: boxes `[M, 4]`, classes `[M]` (i32)
//! and scores `[M]`, zero after the kept ones, as OpenVINO's
//! `experimental_detectron_detection_output_shape_inference.hpp`.

use ir::{Dim, ElementType, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "ExperimentalDetectronDetectionOutput",
    versions: &[OpVersion::openvino(6, 6)],
    infer,
    doc: OpDoc {
        summary: "Mask R-CNN detection output: rois refined per class by the deltas, clipped, suppressed per class, the best `max_detections_per_image` as boxes, classes and scores (zero after the kept ones).",
        attributes: "`score_threshold`, `nms_threshold`, `max_delta_log_wh`, `num_classes`, `post_nms_count`, `max_detections_per_image`, `class_agnostic_box_regression`, `deltas_weights`",
        symbolic: "boxes `[M, 4]`, classes `[M]` (i32), scores `[M]` for `M = max_detections_per_image`",
        errors: "`ed-detection-input` (ranks, rois' last dim not 4, deltas' not 4*num_classes, scores' not num_classes, im_info not `[1, 3]`, roi counts that differ), `ed-detection-attribute` (`num_classes` or `max_detections_per_image` below 1, `deltas_weights` not 4 numbers)",
    },
};

/// The attributes the shape rule and the kernel share.
#[derive(Debug, Clone)]
pub struct Attrs {
    pub score_threshold: f32,
    pub nms_threshold: f32,
    pub max_delta_log_wh: f32,
    pub num_classes: i64,
    pub post_nms_count: i64,
    pub max_detections_per_image: i64,
    pub class_agnostic_box_regression: bool,
    pub deltas_weights: [f32; 4],
}

fn rule(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("ed-detection-input", message)
}

fn attribute(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("ed-detection-attribute", message)
}

/// The op's attributes (OpenVINO's defaults for absent ones), checked.
pub fn attributes(attributes: &ir::Attributes) -> Result<Attrs, ShapeError> {
    use super::prior_box::{float, float_list};
    let weights = float_list(attributes, "deltas_weights")?;
    let deltas_weights: [f32; 4] = weights.as_slice().try_into().map_err(|_| {
        attribute(format!(
            "`deltas_weights` must be 4 numbers, got {}",
            weights.len()
        ))
    })?;
    let attrs = Attrs {
        score_threshold: float(attributes, "score_threshold", Some(0.0))?,
        nms_threshold: float(attributes, "nms_threshold", Some(0.0))?,
        max_delta_log_wh: float(attributes, "max_delta_log_wh", Some(0.0))?,
        num_classes: attributes.i64("num_classes")?.unwrap_or(0),
        post_nms_count: attributes.i64("post_nms_count")?.unwrap_or(0),
        max_detections_per_image: attributes.i64("max_detections_per_image")?.unwrap_or(0),
        class_agnostic_box_regression: attributes
            .bool("class_agnostic_box_regression")
            .is_ok_and(|v| v.unwrap_or(false)),
        deltas_weights,
    };
    for (key, value) in [
        ("num_classes", attrs.num_classes),
        ("max_detections_per_image", attrs.max_detections_per_image),
    ] {
        if value < 1 {
            return Err(attribute(format!("`{key}` {value} is below 1")));
        }
    }
    Ok(attrs)
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(4, 4)?;
    let attrs = attributes(&call.node.attributes)?;
    support::bool_attr(ctx, call, "class_agnostic_box_regression", false);
    support::expect_real_input(call, 0, "rois (input 0)")?;
    let element_type = call.inputs[0].element_type;
    for index in 1..4 {
        support::expect_same_type(call, 0, index)?;
    }
    let mut dims: Vec<Option<&[Dim]>> = Vec::new();
    for (index, what) in ["rois", "deltas", "scores", "im_info"]
        .into_iter()
        .enumerate()
    {
        let d = call.inputs[index].shape.dims();
        if let Some(d) = d.filter(|d| d.len() != 2) {
            return Err(rule(format!(
                "{what} (input {index}) must be 2-D, got rank {}",
                d.len()
            )));
        }
        dims.push(d);
    }
    let merge = |ctx: &mut InferContext, a: &Dim, b: &Dim, what: &str| {
        support::merge_equal_dims(ctx, a, b, "ed-detection-input", what)
    };
    let classes = Expr::constant(attrs.num_classes);
    let expected = [
        (dims[0], Expr::constant(4), "the rois' last dim and 4"),
        (
            dims[1],
            classes.mul_const(4)?,
            "the deltas' last dim and num_classes * 4",
        ),
        (dims[2], classes, "the scores' last dim and num_classes"),
        (dims[3], Expr::constant(3), "the im_info's last dim and 3"),
    ];
    for (d, want, what) in expected {
        if let Some(d) = d {
            merge(ctx, &d[1], &want, what)?;
        }
    }
    if let Some(i) = dims[3] {
        merge(ctx, &i[0], &Expr::one(), "the im_info's first dim and 1")?;
    }
    if let (Some(r), Some(d), Some(s)) = (dims[0], dims[1], dims[2]) {
        let rois = merge(ctx, &r[0], &d[0], "the roi counts of rois and deltas")?;
        merge(ctx, &rois, &s[0], "the roi counts of rois and scores")?;
    }
    let rows = Expr::constant(attrs.max_detections_per_image);
    Ok(vec![
        TensorInfo::new(
            element_type,
            Shape::ranked([rows.clone(), Expr::constant(4)]),
        ),
        TensorInfo::new(ElementType::I32, Shape::ranked([rows.clone()])),
        TensorInfo::new(element_type, Shape::ranked([rows])),
    ])
}
