//! StringTensorUnpack-15: a string tensor as three tensors: `begins` and
//! `ends` (i32, the input's shape), the byte range of each string in
//! `symbols` (u8, 1-D), the strings' UTF-8 bytes concatenated in row-major
//! order. The byte count is data-dependent.

use ir::{ElementType, Shape};

use super::support::data_dependent_count;
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "StringTensorUnpack",
    versions: &[OpVersion::openvino(15, 15)],
    infer,
    doc: OpDoc {
        summary: "Unpacks a string tensor into the begin and end offsets of each string (i32) and their concatenated UTF-8 bytes (u8).",
        attributes: "-",
        symbolic: "`begins`, `ends`: the input's shape; `symbols`: `[K]` with `K` a fresh symbol `K ∈ [0, ∞)` created by the layer (the total byte length, known only from the data; OpenVINO gives `?`, or the static total for a Const input)",
        errors: "`element-type` (the input is not `string`)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let data = &call.inputs[0];
    if data.element_type.is_static() && data.element_type != ElementType::String {
        return Err(ShapeError::ElementType {
            what: "data (input 0)".into(),
            message: format!("must be a string tensor, got {}", data.element_type),
        });
    }
    let length = data_dependent_count(ctx, call, None, "total byte length of the strings")?;
    Ok(vec![
        TensorInfo::new(ElementType::I32, data.shape.clone()),
        TensorInfo::new(ElementType::I32, data.shape.clone()),
        TensorInfo::new(ElementType::U8, Shape::ranked([length])),
    ])
}
