//! NormalizeL2-1: `x / sqrt(max(sum(x²), eps))` (`eps_mode` max) or
//! `x / sqrt(sum(x²) + eps)` (add), the sum over the axes of input 1. The
//! output has the data's shape.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "NormalizeL2",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary:
            "Division by the L2 norm over some axes (input 1), with `eps` added or as a floor.",
        attributes: "`eps`, `eps_mode` (add, max)",
        symbolic: "the data's shape",
        errors:
            "`normalize-l2` (an axis out of range or repeated, another `eps_mode`), `element-type`",
    },
};

fn infer(_: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    support::expect_integer_input(call, 1, "axes (input 1)")?;
    support::expect_rank_le1(call, 1, "axes (input 1)", true)?;
    if let Some(mode) = call.node.attributes.get("eps_mode") {
        if !matches!(mode.trim().to_ascii_lowercase().as_str(), "add" | "max") {
            return Err(ShapeError::rule(
                "normalize-l2",
                format!("`eps_mode` {mode} is not add or max"),
            ));
        }
    }
    let data = &call.inputs[0];
    if let (Some(rank), Some(axes)) = (data.shape.rank(), support::input_ints(call, 1)) {
        let mut seen = Vec::new();
        for a in axes {
            let axis = support::normalize_axis(a, rank, "axis")
                .map_err(|e| ShapeError::rule("normalize-l2", e.to_string()))?;
            if seen.contains(&axis) {
                return Err(ShapeError::rule(
                    "normalize-l2",
                    format!("axis {a} is repeated"),
                ));
            }
            seen.push(axis);
        }
    }
    Ok(vec![TensorInfo::new(data.element_type, data.shape.clone())])
}
