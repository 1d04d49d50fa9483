//! What MatrixNms-8 and MulticlassNms-8/-9 share: their common attributes,
//! the checks of their input types, and their three outputs
//! `selected_outputs` `[K, 6]`, `selected_indices` `[K, 1]` and
//! `valid_outputs` `[B]`, `K` a fresh symbol bounded as OpenVINO's
//! `matrix_nms` / `multiclass_nms` shape inference bounds it.

use ir::{Dim, ElementType, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::OpCall;
use crate::tensor::TensorInfo;

/// The rule name of an attribute these ops reject.
pub const ATTRIBUTE_RULE: &str = "nms-attribute";

/// How the selected boxes are ordered (`sort_result_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortResultType {
    /// By class id.
    ClassId,
    /// By score, best first.
    Score,
    /// No order beyond the one of the computation.
    None,
}

/// The attributes MatrixNms and MulticlassNms share, with OpenVINO's
/// defaults for the absent ones.
#[derive(Debug, Clone, Copy)]
pub struct SelectionAttrs {
    pub sort_result_type: SortResultType,
    pub sort_result_across_batch: bool,
    /// The element type of `selected_indices` and `valid_outputs`.
    pub output_type: ElementType,
    /// Candidates per class considered (-1: all).
    pub nms_top_k: i64,
    /// Boxes kept per batch (-1: all).
    pub keep_top_k: i64,
    /// The class skipped (-1: none).
    pub background_class: i64,
    pub score_threshold: f32,
    /// Whether box coordinates are normalized (else a box's side is
    /// `max - min + 1`).
    pub normalized: bool,
}

fn attribute(message: String) -> ShapeError {
    ShapeError::rule(ATTRIBUTE_RULE, message)
}

/// A floating-point attribute read as OpenVINO's `float`, `default` when
/// absent.
pub fn f32_attr(attrs: &ir::Attributes, key: &str, default: f32) -> Result<f32, ShapeError> {
    match attrs.get(key).map(str::trim) {
        None => Ok(default),
        Some(text) => text
            .parse::<f32>()
            .map_err(|_| attribute(format!("`{key}` {text} is not a number"))),
    }
}

fn int_attr(attrs: &ir::Attributes, key: &str) -> Result<i64, ShapeError> {
    let value = attrs.i64(key)?.unwrap_or(-1);
    if value < -1 {
        return Err(attribute(format!(
            "`{key}` must be -1 or more, got {value}"
        )));
    }
    Ok(value)
}

/// A boolean attribute as OpenVINO reads it (text other than true/false/1/0
/// reads as false; inference warns of it separately).
fn lenient_bool(attrs: &ir::Attributes, key: &str, default: bool) -> bool {
    attrs.bool(key).is_ok_and(|v| v.unwrap_or(default))
}

impl SelectionAttrs {
    /// Reads and checks the shared attributes (OpenVINO's `validate`).
    pub fn parse(attrs: &ir::Attributes) -> Result<Self, ShapeError> {
        let sort_result_type = match attrs.get("sort_result_type").map(str::trim) {
            None | Some("none") => SortResultType::None,
            Some("classid") => SortResultType::ClassId,
            Some("score") => SortResultType::Score,
            Some(other) => {
                return Err(attribute(format!(
                    "`sort_result_type` {other} is not classid, score or none"
                )))
            }
        };
        let output_type = match attrs.get("output_type").map(str::trim) {
            None | Some("i64") => ElementType::I64,
            Some("i32") => ElementType::I32,
            Some(other) => {
                return Err(attribute(format!(
                    "`output_type` {other} is not i32 or i64"
                )))
            }
        };
        Ok(SelectionAttrs {
            sort_result_type,
            sort_result_across_batch: lenient_bool(attrs, "sort_result_across_batch", false),
            output_type,
            nms_top_k: int_attr(attrs, "nms_top_k")?,
            keep_top_k: int_attr(attrs, "keep_top_k")?,
            background_class: int_attr(attrs, "background_class")?,
            score_threshold: f32_attr(attrs, "score_threshold", 0.0)?,
            normalized: lenient_bool(attrs, "normalized", true),
        })
    }
}

/// Warns of the boolean attributes OpenVINO would read as false.
pub fn warn_bools(ctx: &mut InferContext, call: &OpCall<'_>) {
    support::bool_attr(ctx, call, "sort_result_across_batch", false);
    support::bool_attr(ctx, call, "normalized", true);
}

/// Checks that boxes and scores are f32, f16 or bf16, and of one type; the
/// type of `selected_outputs`.
pub fn expect_box_types(call: &OpCall<'_>) -> Result<ElementType, ShapeError> {
    for (index, what) in [(0, "boxes (input 0)"), (1, "scores (input 1)")] {
        let t = call.inputs[index].element_type;
        if t.is_static() && !matches!(t, ElementType::F32 | ElementType::F16 | ElementType::BF16) {
            return Err(ShapeError::ElementType {
                what: what.to_owned(),
                message: format!("must be bf16, f16 or f32, got {t}"),
            });
        }
    }
    support::expect_same_type(call, 0, 1)
}

/// The dims the count of selected boxes depends on, where known.
pub struct SelectionDims {
    /// Images (`valid_outputs` has one element per image).
    pub batches: Option<Dim>,
    /// Candidate boxes per image and class.
    pub boxes: Option<Dim>,
    pub classes: Option<Dim>,
}

/// The three outputs: `K` is `0` or a fresh symbol bounded by
/// `B * min(min(N, nms_top_k) * C, keep_top_k)` (a `-1` limit is left out),
/// unbounded when a dim is unknown; `valid_outputs` is `[B]`.
pub fn selection_outputs(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    attrs: &SelectionAttrs,
    dims: SelectionDims,
    box_type: ElementType,
    reason: &str,
) -> Result<Vec<TensorInfo>, ShapeError> {
    let bound = match (&dims.batches, &dims.boxes, &dims.classes) {
        (Some(b), Some(n), Some(c)) => {
            let per_class = if attrs.nms_top_k >= 0 {
                ctx.symbols.min(n, &Expr::constant(attrs.nms_top_k))?
            } else {
                n.clone()
            };
            let mut per_batch = per_class.mul(c)?;
            if attrs.keep_top_k >= 0 {
                per_batch = ctx
                    .symbols
                    .min(&per_batch, &Expr::constant(attrs.keep_top_k))?;
            }
            Some(per_batch.mul(b)?)
        }
        _ => None,
    };
    let k = support::data_dependent_count(ctx, call, bound.as_ref(), reason)?;
    let batches = match dims.batches {
        Some(b) => b,
        None => support::unknown_dim(ctx, "the batch count of an input of unknown rank"),
    };
    Ok(vec![
        TensorInfo::new(box_type, Shape::ranked([k.clone(), Expr::constant(6)])),
        TensorInfo::new(attrs.output_type, Shape::ranked([k, Expr::constant(1)])),
        TensorInfo::new(attrs.output_type, Shape::ranked([batches])),
    ])
}
