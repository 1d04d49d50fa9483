//! LogSoftmax-5: `x - log(sum(exp(x)))` along `axis`; shape-preserving, only
//! the axis is checked (`-rank..rank`; a scalar takes 0 or -1, as OpenVINO).

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "LogSoftmax",
    versions: &[OpVersion::openvino(5, 5)],
    infer,
    doc: OpDoc {
        summary:
            "Logarithm of the softmax along `axis`; the output has the input's shape and type.",
        attributes: "`axis` (default 1; `-rank..rank`, a scalar 0 or -1)",
        symbolic: "the shape passes through unchanged",
        errors: "`axis-out-of-range`; `element-type` for boolean data",
    },
};

fn infer(_: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let axis = call.node.attributes.i64("axis")?.unwrap_or(1);
    let out = support::same_as_input(call, 0)?;
    if out.element_type == ir::ElementType::Boolean {
        return Err(ShapeError::ElementType {
            what: "data (input 0)".to_owned(),
            message: "must be numeric, got boolean".to_owned(),
        });
    }
    if let Some(rank) = out.shape.rank() {
        // OpenVINO normalizes a scalar's axis as for rank 1.
        support::normalize_axis(axis, rank.max(1), "axis")?;
    }
    Ok(vec![out])
}
