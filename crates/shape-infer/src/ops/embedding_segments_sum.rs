//! EmbeddingSegmentsSum-3: sums of embedding-table rows by segment. Index
//! `i` adds row `indices[i]` (scaled by the optional `per_sample_weights[i]`)
//! to segment `segment_ids[i]`; a segment no index names takes the row
//! `default_index` (when given) or zeros.
//!
//! The output is the table's shape with its first dim replaced by the value
//! of `num_segments` (an expression when it is read from a shape).

use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::embedding_bag_offsets::{bags_of_rows, check_weights, expect_index_types};
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "EmbeddingSegmentsSum",
    versions: &[OpVersion::openvino(3, 3)],
    infer,
    doc: OpDoc {
        summary: "Sums of embedding-table rows gathered into `num_segments` segments by segment ids.",
        attributes: "-",
        symbolic: "the table's shape with the first dim replaced by `num_segments`' value (expressions kept), else a fresh dim",
        errors: "`input-rank` (indices, segment_ids or per_sample_weights not 1-D, num_segments or default_index not a scalar, a scalar table), `embedding-segments` (indices and segment_ids of different lengths, a negative num_segments), `embedding-weights` (per_sample_weights of another length than the indices), `element-type` (indices, segment_ids, num_segments, default_index not i32/i64 or of different types; weights of another type than the table)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(4, 6)?;
    expect_index_types(
        call,
        &[
            (1, "indices"),
            (2, "segment_ids"),
            (3, "num_segments"),
            (4, "default_index"),
        ],
    )?;
    support::expect_rank_le1(call, 1, "indices (input 1)", false)?;
    support::expect_rank_le1(call, 2, "segment_ids (input 2)", false)?;
    for (i, name) in [(3, "num_segments"), (4, "default_index")] {
        if let Some(r) = call
            .inputs
            .get(i)
            .and_then(|t| t.shape.rank())
            .filter(|&r| r != 0)
        {
            return Err(ShapeError::rule(
                "input-rank",
                format!("{name} (input {i}) must be a scalar, got rank {r}"),
            ));
        }
    }
    if let (Some(a), Some(b)) = (call.inputs[1].shape.dims(), call.inputs[2].shape.dims()) {
        support::merge_equal_dims(
            ctx,
            &a[0],
            &b[0],
            "embedding-segments",
            "indices and segment_ids must have one length",
        )?;
    }
    check_weights(ctx, call, 5, 1, false)?;
    let segments = match support::input_values(call, 3) {
        Some([n]) => {
            if let Some(c) = n.as_constant().filter(|&c| c < 0) {
                return Err(ShapeError::rule(
                    "embedding-segments",
                    format!("num_segments is {c}; it must not be negative"),
                ));
            }
            ctx.assume(Predicate::Ge(n.clone(), Expr::zero()))?;
            Some(n.clone())
        }
        _ => None,
    };
    Ok(vec![bags_of_rows(call, segments, ctx)?])
}
