//! ErfInv-17: the elementwise inverse error function. The output has the
//! shape and element type of the data; OpenVINO accepts only floating-point
//! data (`Input element type must be floating-point`).

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "ErfInv",
    versions: &[OpVersion::openvino(17, 17)],
    infer,
    doc: OpDoc {
        summary:
            "Elementwise inverse error function (`erf(y) = x`; ±inf at ±1, NaN outside [-1, 1]).",
        attributes: "-",
        symbolic: "output = data shape and type, symbols kept",
        errors: "`element-type` for non-floating data; `input-count`",
    },
};

fn infer(_: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    support::expect_real_input(call, 0, "data (input 0)")?;
    Ok(vec![support::same_as_input(call, 0)?])
}
