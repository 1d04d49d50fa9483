//! Bucketize-3: for each element of the data, the index of the bucket it
//! falls in, given the 1-D sorted bucket boundaries (`with_right_bound`:
//! `(b[i-1], b[i]]`, else `[b[i-1], b[i])`); the output has the data's shape
//! and type `output_type` (i32 or i64, default i64).

use ir::ElementType;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Bucketize",
    versions: &[OpVersion::openvino(3, 3)],
    infer,
    doc: OpDoc {
        summary: "The bucket index of each element given sorted 1-D boundaries.",
        attributes: "`output_type` (i32, i64; default i64), `with_right_bound` (default true)",
        symbolic: "the data's shape passes through unchanged",
        errors: "`bucketize-buckets` (boundaries not 1-D), `element-type` (boolean data or boundaries), `attribute-invalid` (`output_type` not i32/i64)",
    },
};

/// The `output_type` attribute of Bucketize and SearchSorted: i32 or i64
/// (default i64).
pub fn index_type(call: &OpCall<'_>) -> Result<ElementType, ShapeError> {
    support::index_type_attr(call, "output_type", ElementType::I64, "attribute-invalid")
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let out_type = index_type(call)?;
    support::bool_attr(ctx, call, "with_right_bound", true);
    for (i, name) in [(0, "data"), (1, "buckets")] {
        if call.inputs[i].element_type == ElementType::Boolean {
            return Err(ShapeError::ElementType {
                what: format!("{name} (input {i})"),
                message: "must be numeric, got boolean".to_owned(),
            });
        }
    }
    if let Some(r) = call.inputs[1].shape.rank().filter(|&r| r != 1) {
        return Err(ShapeError::rule(
            "bucketize-buckets",
            format!("the buckets (input 1) must be 1-D, got rank {r}"),
        ));
    }
    Ok(vec![TensorInfo::new(
        out_type,
        call.inputs[0].shape.clone(),
    )])
}
