//! GRN-1 (global response normalization): `x / sqrt(sum(x², axis 1) +
//! bias)`; shape-preserving for data of rank 2, 3 or 4.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "GRN",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Global response normalization: `x / sqrt(sum of x² over the channel axis 1 + bias)`.",
        attributes: "`bias` (required number)",
        symbolic: "the shape passes through unchanged",
        errors: "`grn-rank` (data of rank other than 2, 3 or 4), `attribute-invalid` (`bias` missing or not a number), `element-type` for boolean data",
    },
};

fn infer(_: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let bias = call.node.attributes.require("bias")?;
    if bias.trim().parse::<f64>().is_err() {
        return Err(ShapeError::rule(
            "attribute-invalid",
            format!("bias `{bias}` is not a number"),
        ));
    }
    let out = support::same_as_input(call, 0)?;
    if out.element_type == ir::ElementType::Boolean {
        return Err(ShapeError::ElementType {
            what: "data (input 0)".to_owned(),
            message: "must be numeric, got boolean".to_owned(),
        });
    }
    if let Some(rank) = out.shape.rank().filter(|r| !(2..=4).contains(r)) {
        return Err(ShapeError::rule(
            "grn-rank",
            format!("the data has rank {rank}; GRN takes rank 2, 3 or 4"),
        ));
    }
    Ok(vec![out])
}
