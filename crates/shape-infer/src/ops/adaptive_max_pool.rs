//! AdaptiveMaxPool-8: as AdaptiveAvgPool-8 ([`super::adaptive_avg_pool`])
//! with the maximum of each bin, and a second output: the index of that
//! maximum within its spatial plane (`index_element_type`, default i64).

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::adaptive_avg_pool::adaptive_shape;
use crate::ops::max_pool::index_element_type;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "AdaptiveMaxPool",
    versions: &[OpVersion::openvino(8, 8)],
    infer,
    doc: OpDoc {
        summary: "Max pooling to a given spatial output size (input 1), and the indices of the maxima within each plane.",
        attributes: "`index_element_type` (i32, i64; default i64)",
        symbolic: "as AdaptiveAvgPool",
        errors: "as AdaptiveAvgPool; `pool-attribute` for another `index_element_type`",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let shape = adaptive_shape(ctx, call)?;
    let index_type = index_element_type(call)?;
    Ok(vec![
        TensorInfo::new(call.inputs[0].element_type, shape.clone()),
        TensorInfo::new(index_type, shape),
    ])
}
