//! AvgPool-1 and -14: the mean over each window of the spatial axes of
//! `[N, C, D…]`, counting the padding or not (`exclude-pad`); 14 adds
//! `ceil_torch` rounding. The shape is MaxPool's
//! ([`super::max_pool::pooled_shape`]).

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::max_pool::pooled_shape;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;
use crate::window::WindowKind;

pub static DEF: OpDef = OpDef {
    type_name: "AvgPool",
    versions: &[OpVersion::openvino(1, 1), OpVersion::openvino(14, 14)],
    infer,
    doc: OpDoc {
        summary: "The mean over each window of the spatial axes, with or without the padding (`exclude-pad`).",
        attributes: "`kernel`, `strides`, `pads_begin`, `pads_end`, `auto_pad`, `rounding_type` (floor, ceil; ceil_torch from v14), `exclude-pad`",
        symbolic: "as MaxPool",
        errors: "as MaxPool (`pool-rank`, `window-attribute`, `window-exceeds-input`)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let shape = pooled_shape(ctx, call, WindowKind::Pool, call.version >= 14)?;
    Ok(vec![TensorInfo::new(call.inputs[0].element_type, shape)])
}
