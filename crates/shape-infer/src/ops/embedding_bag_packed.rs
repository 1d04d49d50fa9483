//! EmbeddingBagPackedSum-3 and EmbeddingBagPacked-15: bags of rows of the
//! embedding table `[N, ...]` given as a 2-D `indices` `[B, L]` (one bag per
//! row, all of length `L`), reduced (summed, or averaged under
//! EmbeddingBagPacked-15's `reduction="mean"`); optional
//! `per_sample_weights` `[B, L]` (only with `sum`) scale the rows.
//!
//! The output is the table's shape with its first dim replaced by `B`.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::embedding_bag_offsets::{
    averages, bags_of_rows, check_weights, expect_index_types,
};
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

const ERRORS: &str = "`input-rank` (indices or per_sample_weights not 2-D, a scalar table), `embedding-weights` (per_sample_weights of another shape than the indices, or with `reduction=\"mean\"`), `element-type` (indices not i32/i64; weights of another type than the table), `attribute-invalid` (`reduction`)";

pub static SUM: OpDef = OpDef {
    type_name: "EmbeddingBagPackedSum",
    versions: &[OpVersion::openvino(3, 3)],
    infer,
    doc: OpDoc {
        summary: "Sums of bags of embedding-table rows, one bag per row of a 2-D indices tensor.",
        attributes: "-",
        symbolic: "the table's shape with the first dim replaced by the indices' first dim",
        errors: ERRORS,
    },
};

pub static DEF: OpDef = OpDef {
    type_name: "EmbeddingBagPacked",
    versions: &[OpVersion::openvino(15, 15)],
    infer,
    doc: OpDoc {
        summary: "Sums or means of bags of embedding-table rows, one bag per row of a 2-D indices tensor.",
        attributes: "`reduction` (`sum` default, `mean`)",
        symbolic: "the table's shape with the first dim replaced by the indices' first dim",
        errors: ERRORS,
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 3)?;
    let mean = averages(call)?;
    expect_index_types(call, &[(1, "indices")])?;
    if let Some(r) = call.inputs[1].shape.rank().filter(|&r| r != 2) {
        return Err(ShapeError::rule(
            "input-rank",
            format!("indices (input 1) must be 2-D, got rank {r}"),
        ));
    }
    check_weights(ctx, call, 2, 1, mean)?;
    let bags = call.inputs[1].shape.dims().map(|d| d[0].clone());
    Ok(vec![bags_of_rows(call, bags, ctx)?])
}
