//! Inverse-14: the inverse (with `adjoint`, the inverse of the adjoint) of
//! each square matrix of a batch `[..., N, N]` of floating-point data. The shape passes
//! through; the last two dims must be equal (recorded as a constraint when
//! they are symbolic).

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;
use ir::Shape;

pub static DEF: OpDef = OpDef {
    type_name: "Inverse",
    versions: &[OpVersion::openvino(14, 14)],
    infer,
    doc: OpDoc {
        summary: "The inverse of each square matrix of a batch `[..., N, N]` (LU decomposition with partial pivoting), or with `adjoint` the inverse of its adjoint (the transpose, for real data), as OpenVINO's CPU plugin.",
        attributes: "`adjoint` (boolean, default false)",
        symbolic: "the shape passes through; the last two dims are merged (`N` for both, the equality recorded when symbolic)",
        errors: "`inverse-rank` (rank below 2), `inverse-square` (the last two dims provably differ), `element-type` (data not floating-point)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    support::bool_attr(ctx, call, "adjoint", false);
    support::expect_real_input(call, 0, "data (input 0)")?;
    let input = &call.inputs[0];
    let Some(dims) = input.shape.dims() else {
        return Ok(vec![TensorInfo::new(
            input.element_type,
            Shape::DynamicRank,
        )]);
    };
    let n = dims.len();
    if n < 2 {
        return Err(ShapeError::rule(
            "inverse-rank",
            format!("the data has rank {n}; Inverse takes matrices, rank 2 or more"),
        ));
    }
    let side = support::merge_equal_dims(
        ctx,
        &dims[n - 2],
        &dims[n - 1],
        "inverse-square",
        "the matrices must be square: the last two dims",
    )?;
    let mut out = dims.to_vec();
    out[n - 2] = side.clone();
    out[n - 1] = side;
    Ok(vec![TensorInfo::new(
        input.element_type,
        Shape::ranked(out),
    )])
}
