//! SparseFillEmptyRows-16: a 2-D sparse tensor (`values` [N], `dense_shape`
//! [2], `indices` [N, 2]) with every empty row given one entry
//! `default_value` at column 0. Outputs: `output_indices` [K, 2],
//! `output_values` [K] and `empty_row_indicator` [R] (boolean), `R` the
//! dense shape's row count and `K = N + the number of empty rows`.
//!
//! As OpenVINO: values is 1-D, dense_shape 1-D of 2 elements, indices
//! `[N, 2]` with N the values' length, default_value a scalar; dense_shape
//! and indices are i32/i64 of one type. With known indices and dense shape
//! `K` is exact and every index must lie in the dense shape; otherwise `K`
//! is a fresh symbol created by the layer, bounded by `N + R`.

use std::collections::BTreeSet;

use ir::{Dim, ElementType, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "SparseFillEmptyRows",
    versions: &[OpVersion::openvino(16, 16)],
    infer,
    doc: OpDoc {
        summary: "A 2-D sparse tensor (values, dense_shape, indices) with one `default_value` entry added at column 0 of every empty row: `[K, 2]` indices, `[K]` values, `[R]` empty-row flags.",
        attributes: "-",
        symbolic: "`R` = dense_shape[0] (an expression when read from a shape, else a fresh dim); `K = N + R - (distinct rows used)` exact when the indices are known, else a fresh symbol created by the layer, bounded by `N + R`; N merged across values and indices",
        errors: "`input-rank` (values not 1-D, indices not 2-D, default_value not a scalar), `sparse-inputs` (dense_shape not of 2 elements, indices' second dim not 2, indices' rows not the values' count), `sparse-index-range` (a known index outside the dense shape), `element-type` (dense_shape or indices not i32/i64, or of different types)",
    },
};

/// Checks a known index `index` against the dense extent `extent` (when a
/// constant); `what` is `row` or `column`.
fn check_index(index: i64, extent: &Dim, what: &str) -> Result<(), ShapeError> {
    match extent.as_constant() {
        Some(max) if !(0..max).contains(&index) => Err(ShapeError::rule(
            "sparse-index-range",
            format!("{what} {index} is outside the dense shape's 0..{max}"),
        )),
        _ => Ok(()),
    }
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(4, 4)?;
    support::expect_index_input(call, 1, "dense_shape (input 1)")?;
    support::expect_index_input(call, 2, "indices (input 2)")?;
    let index_type = support::expect_same_type(call, 1, 2)?;
    support::expect_rank_in(call, 0, &[1], "values (input 0)")?;
    support::expect_rank_in(call, 1, &[1], "dense_shape (input 1)")?;
    support::expect_rank_in(call, 2, &[2], "indices (input 2)")?;
    support::expect_rank_in(call, 3, &[0], "default_value (input 3)")?;
    let sparse_error = |message: String| ShapeError::rule("sparse-inputs", message);
    if let Some([len]) = call.inputs[1].shape.dims() {
        if len.as_constant().is_some_and(|l| l != 2) {
            return Err(sparse_error(format!(
                "dense_shape must have 2 elements (2-D sparse tensors only), got {}",
                ctx.symbols.display(len)
            )));
        }
    }
    let mut count = call.inputs[0].shape.dims().map(|d| d[0].clone());
    if let Some([rows, pair]) = call.inputs[2].shape.dims() {
        if pair.as_constant().is_some_and(|p| p != 2) {
            return Err(sparse_error(format!(
                "indices must be [N, 2], got a second dim of {}",
                ctx.symbols.display(pair)
            )));
        }
        count = Some(match &count {
            Some(n) => support::merge_equal_dims(
                ctx,
                n,
                rows,
                "sparse-inputs",
                "the number of values and of indices",
            )?,
            None => rows.clone(),
        });
    }
    let dense = support::input_values(call, 1).filter(|v| v.len() == 2);
    let rows = match dense {
        Some(d) => d[0].clone(),
        None => support::unknown_dim(
            ctx,
            "SparseFillEmptyRows' row count, known only at run time",
        ),
    };
    let count = match count {
        Some(n) => n,
        None => support::unknown_dim(ctx, "SparseFillEmptyRows' number of values"),
    };
    let known_indices = match (dense, support::input_ints(call, 2)) {
        (Some(d), Some(indices)) => Some((d, indices)),
        _ => None,
    };
    let filled = match known_indices {
        Some((dense, indices)) => {
            let mut used = BTreeSet::new();
            for pair in indices.chunks(2) {
                check_index(pair[0], &dense[0], "row")?;
                if let Some(&col) = pair.get(1) {
                    check_index(col, &dense[1], "column")?;
                }
                used.insert(pair[0]);
            }
            let empty = rows.add_const(-(used.len() as i64))?;
            count.add(&empty)?
        }
        None => support::data_dependent_count(
            ctx,
            call,
            Some(&count.add(&rows)?),
            "SparseFillEmptyRows' entry count, the values plus the empty rows, known only at run time",
        )?,
    };
    Ok(vec![
        TensorInfo::new(
            index_type,
            Shape::ranked(vec![filled.clone(), Expr::constant(2)]),
        ),
        TensorInfo::new(call.inputs[0].element_type, Shape::ranked(vec![filled])),
        TensorInfo::new(ElementType::Boolean, Shape::ranked(vec![rows])),
    ])
}
