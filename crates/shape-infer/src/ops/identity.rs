//! Identity-16: the output is the input (shape, element type and any known
//! values).

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Identity",
    versions: &[OpVersion::openvino(16, 16)],
    infer,
    doc: OpDoc {
        summary: "Copies its input (any element type).",
        attributes: "-",
        symbolic: "shape, type and known values pass through",
        errors: "`input-count`",
    },
};

fn infer(_: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let x = &call.inputs[0];
    let mut out = TensorInfo::new(x.element_type, x.shape.clone());
    out.value = x.value.clone();
    out.set_real_value(x.real_value().map(<[f64]>::to_vec));
    Ok(vec![out])
}
