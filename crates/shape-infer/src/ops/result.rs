//! Result-1: a graph output. Its one tensor is its input, unchanged.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Result",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "A graph output; its tensor is its input.",
        attributes: "-",
        symbolic: "passes its input through, declared or inferred",
        errors: "not exactly one input",
    },
};

fn infer(_: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    // A pass-through: a declared input stays marked declared.
    Ok(vec![call.inputs[0].clone()])
}
