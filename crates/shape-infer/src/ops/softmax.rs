//! SoftMax-1 and SoftMax-8 (`SoftMax` in the XML): shape-preserving; only the
//! `axis` is checked. v1 takes a non-negative axis, v8 also a negative one.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "SoftMax",
    versions: &[OpVersion::openvino(1, 1), OpVersion::openvino(8, 8)],
    infer,
    doc: OpDoc {
        summary: "Softmax along `axis`; the output has the input's shape and type.",
        attributes: "`axis` (default 1; v1: `0..rank`, v8: `-rank..rank`)",
        symbolic: "the shape passes through unchanged",
        errors: "an axis out of range for the rank (a negative axis in v1)",
    },
};

fn infer(_: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let axis = call.node.attributes.i64("axis")?.unwrap_or(1);
    let out = support::same_as_input(call, 0)?;
    if let Some(rank) = out.shape.rank() {
        if axis < 0 && call.version < 8 {
            return Err(ShapeError::rule(
                "axis-out-of-range",
                format!(
                    "axis {axis} is negative, which SoftMax-1 does not allow (valid: 0 to {})",
                    rank as i64 - 1
                ),
            ));
        }
        if !(rank == 0 && axis == 0) {
            support::normalize_axis(axis, rank, "axis")?;
        }
    }
    Ok(vec![out])
}
