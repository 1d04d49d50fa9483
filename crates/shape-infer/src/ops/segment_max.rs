//! SegmentMax-16: the maximum of the data's rows (along axis 0) in each
//! segment of the sorted `segment_ids` (input 1); `[S, D1, …]` with `S`
//! the `num_segments` value (input 2) or, without it, one more than the
//! last segment id. An empty segment is 0 (`fill_mode` ZERO) or the type's
//! lowest value (LOWEST).
//!
//! As OpenVINO: the data has rank 1 or more; `segment_ids` is 1-D of i32 or
//! i64 with one id per data row (its length and the data's first dim
//! merge); known ids must be sorted; `num_segments` is a scalar i32/i64.
//! Where OpenVINO gives `?` (ids or num_segments known only at run time)
//! `S` is a fresh symbol created by the layer, bounded by num_segments'
//! range or, without num_segments, by the largest id + 1, where known.

use ir::Shape;
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "SegmentMax",
    versions: &[OpVersion::openvino(16, 16)],
    infer,
    doc: OpDoc {
        summary: "The maximum of the data's rows in each segment of the sorted `segment_ids`: `[S, D1, …]`; empty segments get 0 or the type's lowest value (`fill_mode`).",
        attributes: "`fill_mode` (`ZERO` or `LOWEST`)",
        symbolic: "`S` = the `num_segments` value (an expression when read from a shape), else the last known segment id + 1, else a fresh symbol created by the layer, bounded by num_segments' range or (without it) the ids' largest value + 1, where known; the data's first dim merged with the number of ids",
        errors: "`input-rank` (scalar data, segment_ids not 1-D, num_segments not a scalar), `segment-ids-length` (not one id per data row), `segment-ids-sorted`, `segment-max-num-segments` (a negative constant), `segment-max-fill-mode`, `element-type` (segment_ids or num_segments not i32/i64)",
    },
};

/// The empty-segment value of a SegmentMax layer: `true` for LOWEST.
pub fn fill_lowest(node: &ir::Node) -> Result<bool, ShapeError> {
    match node.attributes.get("fill_mode").map(str::trim) {
        Some(mode) if mode.eq_ignore_ascii_case("zero") => Ok(false),
        Some(mode) if mode.eq_ignore_ascii_case("lowest") => Ok(true),
        other => Err(ShapeError::rule(
            "segment-max-fill-mode",
            format!(
                "`fill_mode` {} must be ZERO or LOWEST",
                other.unwrap_or("(absent)")
            ),
        )),
    }
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 3)?;
    fill_lowest(call.node)?;
    support::expect_index_input(call, 1, "segment_ids (input 1)")?;
    support::expect_index_input(call, 2, "num_segments (input 2)")?;
    support::expect_rank_le1(call, 1, "segment_ids (input 1)", false)?;
    support::expect_rank_in(call, 2, &[0], "num_segments (input 2)")?;
    let data = &call.inputs[0];
    let et = data.element_type;
    let ids = support::input_ints(call, 1);
    if let Some(ids) = &ids {
        if let Some(w) = ids.windows(2).find(|w| w[0] > w[1]) {
            return Err(ShapeError::rule(
                "segment-ids-sorted",
                format!(
                    "segment_ids must be sorted, but {} comes before {}",
                    w[0], w[1]
                ),
            ));
        }
    }
    let Some(dims) = data.shape.dims() else {
        return Ok(vec![TensorInfo::new(et, Shape::DynamicRank)]);
    };
    if dims.is_empty() {
        return Err(ShapeError::rule(
            "input-rank",
            "the data must have rank 1 or more, got a scalar",
        ));
    }
    let mut out = dims.to_vec();
    if let Some([count]) = call.inputs[1].shape.dims() {
        support::merge_equal_dims(
            ctx,
            &dims[0],
            count,
            "segment-ids-length",
            "the data's first dim and the number of segment_ids",
        )?;
    }
    let num_segments = support::input_values(call, 2).and_then(|v| v.first());
    if let Some(n) = num_segments.and_then(Expr::as_constant).filter(|&n| n < 0) {
        // OpenVINO's shape inference leaves the dim dynamic; no run can
        // make a negative number of segments.
        return Err(ShapeError::rule(
            "segment-max-num-segments",
            format!("num_segments is {n}; it must be 0 or more"),
        ));
    }
    // The largest value input `index` may hold, where its range is known.
    let largest = |ctx: &InferContext, index: usize| {
        support::known_value_bounds(ctx, call.inputs[index])
            .and_then(|b| b.iter().map(|&(_, hi)| hi).reduce(f64::max))
            .filter(|hi| hi.is_finite())
            .map(|hi| hi.max(0.0) as i64)
    };
    out[0] = match (call.inputs.len() == 3, num_segments, &ids) {
        (_, Some(n), _) => n.clone(),
        (true, None, _) => {
            let bound = largest(ctx, 2).map(Expr::constant);
            support::data_dependent_count(
                ctx,
                call,
                bound.as_ref(),
                "SegmentMax's num_segments, known only at run time",
            )?
        }
        (false, None, Some(ids)) => Expr::constant(ids.iter().max().map_or(0, |m| m + 1)),
        (false, None, None) => {
            let bound = largest(ctx, 1).map(|hi| Expr::constant(hi + 1));
            support::data_dependent_count(
                ctx,
                call,
                bound.as_ref(),
                "SegmentMax's segment count, the last segment id + 1, known only at run time",
            )?
        }
    };
    Ok(vec![TensorInfo::new(et, Shape::ranked(out))])
}
