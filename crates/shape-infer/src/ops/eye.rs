//! Eye-9: a batch of `num_rows × num_columns` matrices with ones on the
//! diagonal shifted by `diagonal_index` (inputs 0 to 2: scalars or
//! one-element 1-D i32/i64 tensors) and zeros elsewhere; the optional
//! input 3 is the batch shape (1-D i32/i64). The output is `batch_shape ++
//! [num_rows, num_columns]` of type `output_type`. Rows and columns are the
//! propagated values where known (an expression when read from a ShapeOf),
//! else dims known only at run time.

use ir::{Dim, ElementType, Shape};
use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Eye",
    versions: &[OpVersion::openvino(9, 9)],
    infer,
    doc: OpDoc {
        summary: "A batch of matrices with ones on a (shifted) diagonal and zeros elsewhere.",
        attributes: "`output_type` (an element type name)",
        symbolic: "`batch_shape ++ [num_rows, num_columns]` from the propagated values (expressions kept); unknown values give fresh dims, an unknown batch length an unknown rank",
        errors: "`eye-input` (num_rows, num_columns or diagonal_index not a scalar or one-element 1-D tensor, batch_shape not 1-D), `eye-negative` (a negative row, column or batch count), `element-type` (an input not i32/i64), `attribute-invalid` (`output_type`)",
    },
};

fn rule(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("eye-input", message)
}

const NAMES: [&str; 4] = ["num_rows", "num_columns", "diagonal_index", "batch_shape"];

fn check_input(call: &OpCall<'_>, i: usize) -> Result<(), ShapeError> {
    let input = &call.inputs[i];
    support::expect_index_input(call, i, &format!("'{}' (input {i})", NAMES[i]))?;
    let rank = input.shape.rank();
    if i == 3 {
        if rank.is_some_and(|r| r != 1) {
            return Err(rule("'batch_shape' (input 3) must be a 1-D tensor"));
        }
        return Ok(());
    }
    if rank.is_some_and(|r| r > 1) {
        return Err(rule(format!(
            "'{}' (input {i}) must be a scalar or 1-D tensor, got rank {}",
            NAMES[i],
            rank.unwrap_or(0)
        )));
    }
    if support::static_element_count(&input.shape).is_some_and(|c| c != 1) {
        return Err(rule(format!(
            "'{}' (input {i}) must have one element",
            NAMES[i]
        )));
    }
    Ok(())
}

/// A count read from `value`: non-negative (an error when it is a negative
/// constant, else a recorded constraint).
fn count(ctx: &mut InferContext, value: &Dim, what: &str) -> Result<Dim, ShapeError> {
    if let Some(c) = value.as_constant().filter(|&c| c < 0) {
        return Err(ShapeError::rule(
            "eye-negative",
            format!("{what} is {c}; it must not be negative"),
        ));
    }
    ctx.assume(Predicate::Ge(value.clone(), Expr::zero()))?;
    Ok(value.clone())
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 4)?;
    for i in 0..call.inputs.len() {
        check_input(call, i)?;
    }
    let text = call.node.attributes.require("output_type")?;
    let et = ElementType::parse(text.trim())
        .filter(|t| t.is_static())
        .ok_or_else(|| {
            ShapeError::rule(
                "attribute-invalid",
                format!("output_type `{text}` is not an element type"),
            )
        })?;
    let mut matrix = Vec::with_capacity(2);
    for (i, name) in NAMES.iter().enumerate().take(2) {
        matrix.push(match support::input_values(call, i) {
            Some([v]) => count(ctx, v, name)?,
            _ => support::unknown_dim(ctx, format!("Eye's {name}, known only at run time")),
        });
    }
    let mut out: Vec<Dim> = Vec::new();
    if let Some(batch) = call.inputs.get(3) {
        match support::input_values(call, 3) {
            Some(values) => {
                for (k, v) in values.iter().enumerate() {
                    out.push(count(ctx, v, &format!("batch_shape[{k}]"))?);
                }
            }
            None => {
                let length = batch
                    .shape
                    .dims()
                    .and_then(|d| d.first())
                    .and_then(Expr::as_constant);
                let Some(length) = length.and_then(|n| usize::try_from(n).ok()) else {
                    return Ok(vec![TensorInfo::new(et, Shape::DynamicRank)]);
                };
                for k in 0..length {
                    out.push(support::unknown_dim(
                        ctx,
                        format!("Eye's batch_shape[{k}], known only at run time"),
                    ));
                }
            }
        }
    }
    out.extend(matrix);
    Ok(vec![TensorInfo::new(et, Shape::ranked(out))])
}
