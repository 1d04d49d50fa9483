//! Parameter-1: a graph input. Its shape and type come from the IR itself
//! (the `shape` and `element_type` attributes, or a `--shape` override).

use ir::Op;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Parameter",
    versions: super::SINCE_OPSET1,
    infer,
};

fn infer(_: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(0, 0)?;
    match &call.node.op {
        Op::Parameter {
            element_type,
            shape,
        } => Ok(vec![TensorInfo::new(*element_type, shape.clone())]),
        _ => Err(ShapeError::Unreadable),
    }
}
