//! ReorgYolo-2 (opset2): YOLOv2's passthrough reorganisation, `[N, C, H, W]`
//! to `[N, C*s*s, H/s, W/s]` for the `stride` s, as OpenVINO's
//! `reorg_yolo_shape_inference.hpp`: C must be at least `s*s`, H and W
//! divisible by s.

use ir::{Dim, Shape};
use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "ReorgYolo",
    versions: &[OpVersion::openvino(2, 2)],
    infer,
    doc: OpDoc {
        summary: "YOLOv2 reorganisation: `[N, C, H, W]` to `[N, C*s*s, H/s, W/s]`.",
        attributes: "`stride` (required; one value, or a list whose first value is used)",
        symbolic: "`H/s`, `W/s` exact divisions with their divisibility a recorded constraint when symbolic, `C >= s*s` a recorded constraint; channels `s*s*C`",
        errors: "`reorg-rank` (not rank 4), `reorg-channels` (a static C below s*s), `reorg-divisible` (a static H or W not divisible by s), `attribute-invalid` (`stride` missing or below 1)",
    },
};

/// The stride s: the first value of the `stride` attribute (OpenVINO keeps
/// a list and uses its first value), at least 1.
pub fn stride(attributes: &ir::Attributes) -> Result<i64, ShapeError> {
    let text = attributes.require("stride")?;
    let first = attributes
        .i64_list("stride")?
        .and_then(|v| v.first().copied());
    match first {
        Some(s) if s >= 1 => Ok(s),
        _ => Err(ShapeError::rule(
            "attribute-invalid",
            format!("`stride` \"{text}\" is not a positive integer"),
        )),
    }
}

/// `dim / stride`, exact: an error when static and not divisible, else a
/// recorded constraint.
fn divided(ctx: &mut InferContext, dim: &Dim, stride: i64, what: &str) -> Result<Dim, ShapeError> {
    if let Some(d) = dim.as_constant().filter(|d| d % stride != 0) {
        return Err(ShapeError::rule(
            "reorg-divisible",
            format!("{what} {d} is not divisible by the stride {stride}"),
        ));
    }
    ctx.assume(Predicate::Divides {
        divisor: stride,
        expr: dim.clone(),
    })?;
    Ok(dim.assumed_exact_div(stride)?)
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let s = stride(&call.node.attributes)?;
    let data = &call.inputs[0];
    let Some(dims) = data.shape.dims() else {
        return Ok(vec![TensorInfo::new(data.element_type, Shape::DynamicRank)]);
    };
    if dims.len() != 4 {
        return Err(ShapeError::rule(
            "reorg-rank",
            format!(
                "the data must be [N, C, H, W] (rank 4), got rank {}",
                dims.len()
            ),
        ));
    }
    let blocks = s
        .checked_mul(s)
        .ok_or(ShapeError::Dim(symdim::DimError::Overflow))?;
    if let Some(c) = dims[1].as_constant().filter(|&c| c < blocks) {
        return Err(ShapeError::rule(
            "reorg-channels",
            format!("C is {c}; ReorgYolo needs C >= stride*stride = {blocks}"),
        ));
    }
    ctx.assume(Predicate::Ge(dims[1].clone(), Expr::constant(blocks)))?;
    let out = vec![
        dims[0].clone(),
        dims[1].mul_const(blocks)?,
        divided(ctx, &dims[2], s, "H")?,
        divided(ctx, &dims[3], s, "W")?,
    ];
    Ok(vec![TensorInfo::new(data.element_type, Shape::ranked(out))])
}
