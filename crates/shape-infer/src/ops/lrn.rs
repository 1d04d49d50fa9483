//! LRN-1: local response normalization. Each element is divided by
//! `(bias + alpha / size^len(axes) * sum)^beta`, the sum of the squares over
//! a window of `size` centered on it along each axis of input 1 (clipped at
//! the edges). The output has the data's shape and type.
//!
//! OpenVINO's own checks: the axes are a 1-D integer tensor of at most
//! `rank` elements, each below the rank. Beyond them (OpenVINO accepts these
//! but cannot run them) a negative axis, a repeated axis and a `size` below 1
//! are errors: OpenVINO reads the axes as an unsigned set, so `-1` passes its
//! check as a huge axis that its reference implementation indexes out of
//! bounds and its CPU plugin refuses, and a repeated axis is silently merged
//! by the set but refused by the CPU plugin.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "LRN",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Local response normalization: `x / (bias + alpha / size^len(axes) * sum(x²))^beta`, the sum over a window of `size` (`(size - 1) / 2` on each side, clipped) along the axes of input 1. As OpenVINO's reference; its 2026.4 CPU plugin truncates `bias` to an integer and runs only the axes `[1]` or a set holding all of `2..rank` (ignoring 0 and 1 in it).",
        attributes: "`alpha`, `beta`, `bias`, `size` (all required)",
        symbolic: "the data's shape",
        errors: "`lrn` (more axes than the rank, an axis out of range, negative or repeated, `size` below 1 or a missing attribute), `input-rank` (axes not 1-D), `element-type` (non-integer axes)",
    },
};

fn infer(_: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    support::expect_integer_input(call, 1, "axes (input 1)")?;
    support::expect_rank_le1(call, 1, "axes (input 1)", false)?;
    attributes(&call.node.attributes)?;
    let data = &call.inputs[0];
    let count = match call.inputs[1].shape.dims() {
        Some([d]) => d.as_constant(),
        _ => None,
    };
    if let (Some(rank), Some(count)) = (data.shape.rank(), count) {
        if usize::try_from(count).is_ok_and(|c| c > rank) {
            return Err(ShapeError::rule(
                "lrn",
                format!("{count} axes for data of rank {rank}: at most one per dim"),
            ));
        }
    }
    if let (Some(rank), Some(axes)) = (data.shape.rank(), support::input_ints(call, 1)) {
        checked_axes(&axes, rank)?;
    }
    Ok(vec![TensorInfo::new(data.element_type, data.shape.clone())])
}

/// LRN's attributes, read and checked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Attrs {
    pub alpha: f64,
    pub beta: f64,
    pub bias: f64,
    /// At least 1.
    pub size: u64,
}

/// Reads `alpha`, `beta`, `bias` and `size` (all required; `size` at least 1).
pub fn attributes(attributes: &ir::Attributes) -> Result<Attrs, ShapeError> {
    let float = |key: &str| -> Result<f64, ShapeError> {
        let text = attributes
            .get(key)
            .ok_or_else(|| ShapeError::rule("lrn", format!("the `{key}` attribute is missing")))?;
        text.trim()
            .parse::<f64>()
            .map_err(|_| ShapeError::rule("lrn", format!("`{key}` \"{text}\" is not a number")))
    };
    let (alpha, beta, bias) = (float("alpha")?, float("beta")?, float("bias")?);
    let size = attributes
        .i64("size")?
        .ok_or_else(|| ShapeError::rule("lrn", "the `size` attribute is missing"))?;
    if size < 1 {
        return Err(ShapeError::rule("lrn", format!("`size` {size} is below 1")));
    }
    Ok(Attrs {
        alpha,
        beta,
        bias,
        size: size as u64,
    })
}

/// The axes of input 1 checked against data of `rank`: each in `0..rank`
/// (not negative: see the module doc), none repeated.
pub fn checked_axes(axes: &[i64], rank: usize) -> Result<Vec<usize>, ShapeError> {
    let mut seen: Vec<usize> = Vec::with_capacity(axes.len());
    for &a in axes {
        let axis = usize::try_from(a)
            .ok()
            .filter(|&a| a < rank)
            .ok_or_else(|| {
                let why = if a < 0 {
                    " (LRN takes no negative axes: OpenVINO reads them as huge unsigned ones)"
                } else {
                    ""
                };
                ShapeError::rule(
                    "lrn",
                    format!(
                        "axis {a} is out of range for rank {rank} (valid: 0 to {}){why}",
                        rank as i64 - 1
                    ),
                )
            })?;
        if seen.contains(&axis) {
            return Err(ShapeError::rule("lrn", format!("axis {a} is repeated")));
        }
        seen.push(axis);
    }
    Ok(seen)
}
