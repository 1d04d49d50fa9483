//! Parameter-1: a graph input. Its shape and type come from the IR itself
//! (the `shape` and `element_type` attributes, or a `--shape` override).

use ir::{Op, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Parameter",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "A graph input.",
        attributes: "`shape` (OpenVINO dim syntax: `?`, `-1`, `2..10`, `..8`, `1..`, `...` for unknown rank), `element_type`",
        symbolic: "`?` and intervals become fresh symbols with that range; `--shape` may name them or bind them",
        errors: "unreadable `shape` or `element_type` (reported by the reader)",
    },
};

fn infer(_: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(0, 0)?;
    match &call.node.op {
        Op::Parameter {
            element_type,
            shape,
        } => Ok(vec![TensorInfo::new(*element_type, Shape::clone(shape))]),
        _ => Err(ShapeError::Unreadable),
    }
}
