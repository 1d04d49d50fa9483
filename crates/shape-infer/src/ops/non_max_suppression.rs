//! NonMaxSuppression-1, -3, -4, -5 and -9: per batch and class, the boxes
//! left after greedy suppression of the ones overlapping a higher-scored
//! box, as `[K, 3]` triplets `(batch, class, box)`.
//!
//! Versions 1 to 4 have a padded output whose size OpenVINO's shape
//! inference fixes from the shapes and `max_output_boxes_per_class`:
//! `min(N, max * C)` for versions 1 and 3 (as their spec writes it),
//! `min(N, max) * B * C` for version 4 (boxes `[B, N, 4]`, scores
//! `[B, C, N]`). Ours is that expression, exact and symbolic; OpenVINO
//! gives `?` unless every dim is static (and, for version 4 only, takes the
//! upper bound of an interval batch or class dim as the padded size, which
//! then differs from its own answer after a reshape: ours stays the
//! expression, equal to OpenVINO's at every static binding). Versions 5
//! and 9 are not padded: `K` is a fresh symbol whose bound is
//! `min(N, max) * B * C`, and they add `selected_scores` `[K, 3]` and
//! `valid_outputs` `[1]`. A `max_output_boxes_per_class` known only at run
//! time (or negative, which OpenVINO's CPU plugin reads as "all boxes")
//! gives a fresh count bounded by `N * B * C` in every version.

use ir::{Dim, ElementType, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::nms_common::SelectionDims;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "NonMaxSuppression",
    versions: &[
        OpVersion::openvino(1, 1),
        OpVersion::openvino(3, 3),
        OpVersion::openvino(4, 4),
        OpVersion::openvino(5, 5),
        OpVersion::openvino(9, 9),
    ],
    infer,
    doc: OpDoc {
        summary: "Greedy non-maximum suppression per batch and class (hard, or soft with a Gaussian weight in v5/v9): the selected `(batch, class, box)` triplets, v5/v9 also their scores and count.",
        attributes: "`box_encoding` (corner, center), `sort_result_descending` (sort across batches by score), v3+: `output_type` (i32, i64; default i64)",
        symbolic: "boxes `[B, N, 4]`, scores `[B, C, N]`, max `m` known: v1/v3 `[min(N, m*C), 3]` and v4 `[min(N, m)*B*C, 3]` (padded with -1, exact expressions); v5/v9 `[k, 3]`, `[k, 3]`, `[1]` with `k` a fresh symbol `k ∈ [0, min(N, m)*B*C]` (symbolic bound kept); `m` unknown or negative: a fresh count bounded by `N*B*C`",
        errors: "`nms-input` (boxes or scores not 3-D, boxes' last dim not 4, batch or box counts that differ, a threshold or max input that is not a scalar or one element, a non-integer max), `nms-attribute` (`box_encoding`, `output_type`)",
    },
};

fn rule(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("nms-input", message)
}

/// `box_encoding` is center (else corner).
pub fn center_encoding(attrs: &ir::Attributes) -> Result<bool, ShapeError> {
    match attrs.get("box_encoding").map(str::trim) {
        None | Some("corner") => Ok(false),
        Some("center") => Ok(true),
        Some(other) => Err(ShapeError::rule(
            "nms-attribute",
            format!("`box_encoding` {other} is not corner or center"),
        )),
    }
}

/// The element type of the index outputs: `output_type` from version 3
/// on, always i64 in version 1.
pub fn index_type(call: &OpCall<'_>) -> Result<ElementType, ShapeError> {
    if call.version < 3 {
        return Ok(ElementType::I64);
    }
    support::index_type_attr(call, "output_type", ElementType::I64, "nms-attribute")
}

/// Checks that an optional scalar input is a scalar (versions 1 to 4) or a
/// scalar or one-element 1-D tensor (versions 5 and 9), as OpenVINO.
fn check_scalar(call: &OpCall<'_>, index: usize, what: &str) -> Result<(), ShapeError> {
    let Some(dims) = call.inputs.get(index).and_then(|t| t.shape.dims()) else {
        return Ok(());
    };
    let ok = match dims {
        [] => true,
        [d] if call.version >= 5 => d.as_constant().is_none_or(|c| c == 1),
        _ => false,
    };
    if ok {
        return Ok(());
    }
    let allowed = if call.version >= 5 {
        "a scalar or a 1-D tensor of one element"
    } else {
        "a scalar"
    };
    Err(rule(format!(
        "{what} (input {index}) must be {allowed}, got rank {}",
        dims.len()
    )))
}

/// Checks that the last dim of boxes, `last`, is `box_size` (recorded as a
/// constraint when symbolic).
pub fn expect_box_size(
    ctx: &mut InferContext,
    last: &Dim,
    box_size: i64,
) -> Result<(), ShapeError> {
    if last.as_constant().is_some_and(|c| c != box_size) {
        return Err(rule(format!(
            "the last dim of boxes must be {box_size}, got {}",
            ctx.symbols.display(last)
        )));
    }
    if !last.is_constant() {
        ctx.assume(symdim::Predicate::Eq(
            last.clone(),
            Expr::constant(box_size),
        ))?;
    }
    Ok(())
}

/// Checks boxes `[B, N, box_size]` and scores `[B, C, N]` (both 3-D, the
/// last dim of boxes `box_size`, batch and box counts equal) and gives `B`,
/// `N` and `C` where known, merged between the two inputs.
pub fn boxes_and_scores(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    box_size: i64,
) -> Result<SelectionDims, ShapeError> {
    let boxes = call.inputs[0].shape.dims();
    let scores = call.inputs[1].shape.dims();
    for (dims, what) in [(boxes, "boxes (input 0)"), (scores, "scores (input 1)")] {
        if let Some(d) = dims.filter(|d| d.len() != 3) {
            return Err(rule(format!("{what} must be 3-D, got rank {}", d.len())));
        }
    }
    if let Some(b) = boxes {
        expect_box_size(ctx, &b[2], box_size)?;
    }
    // B, N and C, merged between boxes [B, N, 4] and scores [B, C, N].
    let (batches, count, classes) = match (boxes, scores) {
        (Some(b), Some(s)) => {
            let batches = support::merge_equal_dims(
                ctx,
                &b[0],
                &s[0],
                "nms-input",
                "the batch dims of boxes and scores",
            )?;
            let count = support::merge_equal_dims(
                ctx,
                &b[1],
                &s[2],
                "nms-input",
                "the box counts of boxes (dim 1) and scores (dim 2)",
            )?;
            (Some(batches), Some(count), Some(s[1].clone()))
        }
        (Some(b), None) => (Some(b[0].clone()), Some(b[1].clone()), None),
        (None, Some(s)) => (Some(s[0].clone()), Some(s[2].clone()), Some(s[1].clone())),
        (None, None) => (None, None, None),
    };
    Ok(SelectionDims {
        batches,
        boxes: count,
        classes,
    })
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let max_inputs = if call.version >= 5 { 6 } else { 5 };
    call.expect_inputs(2, max_inputs)?;
    center_encoding(&call.node.attributes)?;
    infer_selection(ctx, call, 4)
}

/// The outputs of NonMaxSuppression (of `call.version`) or of NMSRotated
/// (as version 5 and 9, with boxes of `box_size` numbers), once the input
/// count and box encoding are checked.
pub fn infer_selection(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    box_size: i64,
) -> Result<Vec<TensorInfo>, ShapeError> {
    let index_type = index_type(call)?;
    support::bool_attr(ctx, call, "sort_result_descending", true);
    support::expect_integer_input(call, 2, "max_output_boxes_per_class (input 2)")?;
    for (index, what) in [
        (2, "max_output_boxes_per_class"),
        (3, "iou_threshold"),
        (4, "score_threshold"),
        (5, "soft_nms_sigma"),
    ] {
        check_scalar(call, index, what)?;
    }
    let SelectionDims {
        batches,
        boxes: count,
        classes,
    } = boxes_and_scores(ctx, call, box_size)?;
    // No max input selects nothing (the spec's default 0).
    let max = if call.inputs.len() > 2 {
        match support::input_ints(call, 2).as_deref() {
            Some([m, ..]) => Some(*m),
            _ => None,
        }
    } else {
        Some(0)
    };
    let all = match (&batches, &count, &classes) {
        (Some(b), Some(n), Some(c)) => Some(n.mul(b)?.mul(c)?),
        _ => None,
    };
    let reason = format!("count of boxes {} selects", call.node.op_type.name);
    let reason = reason.as_str();
    let k = match (max.filter(|&m| m >= 0), &batches, &count, &classes) {
        (Some(m), _, Some(n), Some(c)) if call.version <= 3 => {
            let per_class = Expr::constant(m).mul(c)?;
            ctx.symbols.min(n, &per_class)?
        }
        (Some(m), Some(b), Some(n), Some(c)) => {
            let per_class = ctx.symbols.min(n, &Expr::constant(m))?;
            let bound = per_class.mul(b)?.mul(c)?;
            if call.version == 4 {
                bound
            } else {
                support::data_dependent_count(ctx, call, Some(&bound), reason)?
            }
        }
        _ => support::data_dependent_count(ctx, call, all.as_ref(), reason)?,
    };
    let rows = Shape::ranked([k, Expr::constant(3)]);
    let indices = TensorInfo::new(index_type, rows.clone());
    if call.version < 5 {
        return Ok(vec![indices]);
    }
    // OpenVINO's selected_scores are f32 whatever the input types.
    Ok(vec![
        indices,
        TensorInfo::new(ElementType::F32, rows),
        TensorInfo::new(index_type, Shape::ranked([Dim::constant(1)])),
    ])
}
