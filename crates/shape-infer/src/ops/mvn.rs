//! MVN-1 and MVN-6: mean-variance normalization over some axes; the output
//! has the input's shape and type. MVN-1 names its axes by attributes
//! (`reduction_axes`, or `across_channels`: from dim 1, else from dim 2);
//! MVN-6 takes them as input 1.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "MVN",
    versions: &[OpVersion::openvino(1, 2), OpVersion::openvino(6, 6)],
    infer,
    doc: OpDoc {
        summary: "Mean-variance normalization over some axes: `(x - mean) / sqrt(var + eps)` (or `/ (sqrt(var) + eps)`).",
        attributes: "v1: `across_channels`, `reduction_axes`, `normalize_variance`, `eps`; v6: axes input, `normalize_variance`, `eps`, `eps_mode` (inside_sqrt, outside_sqrt)",
        symbolic: "the input's shape, dims unchanged",
        errors: "`mvn-axes` (an axis out of range or repeated), `mvn-attribute` (`eps_mode`), `element-type` (non-float data, non-integer axes)",
    },
};

fn infer(_: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let data = if call.version >= 6 {
        call.expect_inputs(2, 2)?;
        support::expect_integer_input(call, 1, "axes (input 1)")?;
        support::expect_rank_le1(call, 1, "axes (input 1)", false)?;
        if let Some(mode) = call.node.attributes.get("eps_mode") {
            if !matches!(
                mode.trim().to_ascii_lowercase().as_str(),
                "inside_sqrt" | "outside_sqrt"
            ) {
                return Err(ShapeError::rule(
                    "mvn-attribute",
                    format!("`eps_mode` {mode} is not inside_sqrt or outside_sqrt"),
                ));
            }
        }
        &call.inputs[0]
    } else {
        call.expect_inputs(1, 1)?;
        &call.inputs[0]
    };
    let t = data.element_type;
    if t.is_static() && !t.is_real() {
        return Err(ShapeError::ElementType {
            what: "data (input 0)".to_owned(),
            message: format!("must be a floating-point tensor, got {t}"),
        });
    }
    if let (Some(rank), Some(axes)) = (data.shape.rank(), axes_of(call)?) {
        let mut seen = Vec::with_capacity(axes.len());
        for a in axes {
            let axis = support::normalize_axis(a, rank, "axis")
                .map_err(|e| ShapeError::rule("mvn-axes", e.to_string()))?;
            if seen.contains(&axis) {
                return Err(ShapeError::rule(
                    "mvn-axes",
                    format!("axis {a} is repeated"),
                ));
            }
            seen.push(axis);
        }
    }
    Ok(vec![TensorInfo::new(t, data.shape.clone())])
}

/// The axes as written (input 1 of MVN-6, `reduction_axes` of MVN-1), when
/// known; MVN-1 without `reduction_axes` derives them from the rank instead.
fn axes_of(call: &OpCall<'_>) -> Result<Option<Vec<i64>>, ShapeError> {
    if call.version >= 6 {
        return Ok(support::input_ints(call, 1));
    }
    Ok(call
        .node
        .attributes
        .i64_list("reduction_axes")?
        .filter(|a| !a.is_empty()))
}

/// The axes MVN normalizes over for a tensor of `rank` (the kernel's
/// reading of the same attributes): MVN-6's input values, MVN-1's
/// `reduction_axes`, or from dim 1 (`across_channels`) or 2 to the end.
pub fn normalized_axes(
    version: u32,
    attributes: &ir::Attributes,
    axes_input: Option<&[i64]>,
    rank: usize,
) -> Result<Vec<usize>, ShapeError> {
    let raw: Vec<i64> = match (version >= 6, axes_input) {
        (true, Some(axes)) => axes.to_vec(),
        (true, None) => return Err(ShapeError::rule("mvn-axes", "the axes input is not known")),
        (false, _) => match attributes
            .i64_list("reduction_axes")?
            .filter(|a| !a.is_empty())
        {
            Some(axes) => axes,
            None => {
                let across = attributes
                    .bool("across_channels")
                    .ok()
                    .flatten()
                    .unwrap_or(false);
                let from = if across { 1 } else { 2 };
                (from..rank as i64).collect()
            }
        },
    };
    raw.iter()
        .map(|&a| support::normalize_axis(a, rank, "axis"))
        .collect()
}
