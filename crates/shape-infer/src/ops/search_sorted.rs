//! SearchSorted-15: for each value, its insertion index in the sorted
//! sequence (`right_mode`: after equal elements, else before). A 1-D
//! sequence serves every value; otherwise the sequence and the values have
//! the same rank and their dims but the last merge (each row of values is
//! searched in its own row of the sequence). The output has the values'
//! shape (leading dims merged) and type `output_type` (i32 or i64, default
//! i64).

use ir::{Dim, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::bucketize::index_type;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "SearchSorted",
    versions: &[OpVersion::openvino(15, 15)],
    infer,
    doc: OpDoc {
        summary: "The insertion index of each value in a sorted sequence (per row for a sequence of rank above 1).",
        attributes: "`right_mode` (default false), `output_type` (i32, i64; default i64)",
        symbolic: "the values' shape, its dims but the last merged with the sequence's (equal, or a recorded constraint)",
        errors: "`search-sorted-shape` (a scalar sequence, ranks that differ for a sequence above 1-D, leading dims that differ), `element-type` (sequence and values of different types), `attribute-invalid` (`output_type`)",
    },
};

fn rule(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("search-sorted-shape", message)
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let out_type = index_type(call)?;
    support::bool_attr(ctx, call, "right_mode", false);
    support::expect_same_type(call, 0, 1)?;
    let values = &call.inputs[1].shape;
    let sorted = match call.inputs[0].shape.dims() {
        Some([]) => return Err(rule("the sorted sequence (input 0) cannot be a scalar")),
        Some(d) if d.len() > 1 => d,
        // 1-D (or unknown rank): every value searches the one sequence.
        _ => return Ok(vec![TensorInfo::new(out_type, values.clone())]),
    };
    let n = sorted.len();
    let Some(v) = values.dims() else {
        let mut out: Vec<Dim> = sorted[..n - 1].to_vec();
        out.push(support::unknown_dim(
            ctx,
            "SearchSorted's values, of unknown rank",
        ));
        return Ok(vec![TensorInfo::new(out_type, Shape::ranked(out))]);
    };
    if v.len() != n {
        return Err(rule(format!(
            "the sorted sequence has rank {n}, the values rank {}; above 1-D they must be equal",
            v.len()
        )));
    }
    let mut out = v.to_vec();
    for i in 0..n - 1 {
        out[i] = support::merge_equal_dims(
            ctx,
            &v[i],
            &sorted[i],
            "search-sorted-shape",
            &format!("dim {i} of the values and of the sorted sequence"),
        )?;
    }
    Ok(vec![TensorInfo::new(out_type, Shape::ranked(out))])
}
