//! EmbeddingBagOffsetsSum-3 and EmbeddingBagOffsets-15: bags of rows of the
//! embedding table `[N, ...]`, reduced (summed, or averaged under
//! EmbeddingBagOffsets-15's `reduction="mean"`). Bag `b` holds the indices
//! from `offsets[b]` to the next offset; an empty bag takes the row
//! `default_index` (when given and not negative) or zeros. Optional
//! `per_sample_weights` (one per index, only with `sum`) scale the rows.
//!
//! The output is the table's shape with its first dim replaced by the
//! number of bags, `offsets`' length.

use ir::{ElementType, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

const ERRORS: &str = "`input-rank` (indices, offsets or per_sample_weights not 1-D, default_index not a scalar, a scalar table), `embedding-weights` (per_sample_weights of another length than the indices, or with `reduction=\"mean\"`), `element-type` (indices, offsets, default_index not i32/i64 or of different types; weights of another type than the table), `attribute-invalid` (`reduction`)";

pub static SUM: OpDef = OpDef {
    type_name: "EmbeddingBagOffsetsSum",
    versions: &[OpVersion::openvino(3, 3)],
    infer,
    doc: OpDoc {
        summary:
            "Sums of bags of embedding-table rows, the bags given by offsets into the indices.",
        attributes: "-",
        symbolic: "the table's shape with the first dim replaced by offsets' length",
        errors: ERRORS,
    },
};

pub static DEF: OpDef = OpDef {
    type_name: "EmbeddingBagOffsets",
    versions: &[OpVersion::openvino(15, 15)],
    infer,
    doc: OpDoc {
        summary: "Sums or means of bags of embedding-table rows, the bags given by offsets into the indices.",
        attributes: "`reduction` (`sum` default, `mean`)",
        symbolic: "the table's shape with the first dim replaced by offsets' length",
        errors: ERRORS,
    },
};

/// Whether EmbeddingBagOffsets-15 / EmbeddingBagPacked-15 average their
/// bags (`reduction="mean"`); the v3 `...Sum` ops always sum.
pub fn averages(call: &OpCall<'_>) -> Result<bool, ShapeError> {
    if call.version < 15 {
        return Ok(false);
    }
    match call.node.attributes.get("reduction").map(str::trim) {
        None | Some("sum") => Ok(false),
        Some("mean") => Ok(true),
        Some(other) => Err(ShapeError::rule(
            "attribute-invalid",
            format!("reduction `{other}` is not sum or mean"),
        )),
    }
}

/// Checks that the inputs at `indexes` are i32 or i64 and of one type.
pub fn expect_index_types(call: &OpCall<'_>, indexes: &[(usize, &str)]) -> Result<(), ShapeError> {
    let mut first: Option<(ElementType, &str)> = None;
    for &(i, name) in indexes {
        let Some(input) = call.inputs.get(i) else {
            continue;
        };
        support::expect_index_input(call, i, &format!("{name} (input {i})"))?;
        let t = input.element_type;
        if !t.is_static() {
            continue;
        }
        match first {
            Some((f, fname)) if f != t => {
                return Err(ShapeError::ElementType {
                    what: format!("{name} (input {i})"),
                    message: format!("is {t}, but {fname} is {f}"),
                });
            }
            None => first = Some((t, name)),
            _ => {}
        }
    }
    Ok(())
}

/// The per-sample weights (input `weights`) must have the table's element
/// type, the indices' shape, and not come with a mean.
pub fn check_weights(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    weights: usize,
    indices: usize,
    mean: bool,
) -> Result<(), ShapeError> {
    let Some(w) = call.inputs.get(weights) else {
        return Ok(());
    };
    if mean {
        return Err(ShapeError::rule(
            "embedding-weights",
            "per_sample_weights can only be used with reduction=\"sum\"",
        ));
    }
    support::expect_same_type(call, 0, weights)?;
    let rank = call.inputs[indices].shape.rank();
    if let (Some(a), Some(b)) = (rank, w.shape.rank()) {
        if a != b {
            return Err(ShapeError::rule(
                "input-rank",
                format!(
                    "per_sample_weights (input {weights}) must have the indices' rank {a}, got {b}"
                ),
            ));
        }
    }
    if let (Some(i), Some(wd)) = (call.inputs[indices].shape.dims(), w.shape.dims()) {
        for (a, b) in i.iter().zip(wd) {
            support::merge_equal_dims(
                ctx,
                a,
                b,
                "embedding-weights",
                "per_sample_weights and indices must have one shape",
            )?;
        }
    }
    Ok(())
}

/// The table's shape (input 0) with its first dim replaced by `first`.
pub fn bags_of_rows(
    call: &OpCall<'_>,
    first: Option<ir::Dim>,
    ctx: &mut InferContext,
) -> Result<TensorInfo, ShapeError> {
    let table = &call.inputs[0];
    let Some(dims) = table.shape.dims() else {
        return Ok(TensorInfo::new(table.element_type, Shape::DynamicRank));
    };
    if dims.is_empty() {
        return Err(ShapeError::rule(
            "input-rank",
            "the embedding table (input 0) must not be a scalar",
        ));
    }
    let mut out = dims.to_vec();
    out[0] = match first {
        Some(d) => d,
        None => support::unknown_dim(ctx, "the number of bags, known only at run time"),
    };
    Ok(TensorInfo::new(table.element_type, Shape::ranked(out)))
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 5)?;
    let mean = averages(call)?;
    expect_index_types(
        call,
        &[(1, "indices"), (2, "offsets"), (3, "default_index")],
    )?;
    support::expect_rank_le1(call, 1, "indices (input 1)", false)?;
    support::expect_rank_le1(call, 2, "offsets (input 2)", false)?;
    if let Some(r) = call
        .inputs
        .get(3)
        .and_then(|t| t.shape.rank())
        .filter(|&r| r != 0)
    {
        return Err(ShapeError::rule(
            "input-rank",
            format!("default_index (input 3) must be a scalar, got rank {r}"),
        ));
    }
    check_weights(ctx, call, 4, 1, mean)?;
    let bags = call.inputs[2].shape.dims().map(|d| d[0].clone());
    Ok(vec![bags_of_rows(call, bags, ctx)?])
}
