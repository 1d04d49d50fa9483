//! AdaptiveMaxPool-8: as AdaptiveAvgPool-8 ([`super::adaptive_avg_pool`])
//! with the maximum of each bin, and a second output: the index of that
//! maximum within its spatial plane (`index_element_type`, default i64).

use ir::ElementType;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::adaptive_avg_pool::adaptive_shape;
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
    let index_type = match call
        .node
        .attributes
        .get("index_element_type")
        .map(str::trim)
    {
        None | Some("i64") => ElementType::I64,
        Some("i32") => ElementType::I32,
        Some(other) => {
            return Err(ShapeError::rule(
                "pool-attribute",
                format!("`index_element_type` {other} is not i32 or i64"),
            ))
        }
    };
    Ok(vec![
        TensorInfo::new(call.inputs[0].element_type, shape.clone()),
        TensorInfo::new(index_type, shape),
    ])
}
