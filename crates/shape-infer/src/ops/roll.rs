//! Roll-7: shifts the data along `axes` (input 2) by `shift` (input 1); the
//! output has the data's shape and type.
//!
//! As OpenVINO: `shift` and `axes` are i32 or i64 scalars or 1-D tensors; a
//! 1-D `shift` needs a 1-D `axes` of the same length, a scalar `shift` rolls
//! every axis by the same amount; known axes must lie in `-rank..rank` (not
//! checked for scalar data, which OpenVINO copies). Negative shifts roll
//! towards lower indices; an axis named twice rolls by the sum.

use ir::Shape;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "Roll",
    versions: &[OpVersion::openvino(7, 7)],
    infer,
    doc: OpDoc {
        summary: "Rolls the data along `axes` (input 2) by `shift` (input 1; a scalar shift applies to every axis, repeated axes add up). Deliberate difference: OpenVINO 2026.4's CPU plugin refuses a scalar shift with more than one axis, which the spec allows and we run.",
        attributes: "-",
        symbolic: "output = data shape and type",
        errors: "`element-type` for shift or axes other than i32/i64; `input-rank` for shift or axes of rank above 1; `roll-shift-axes` when a 1-D shift and the axes differ in length; `axis-out-of-range`",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 3)?;
    for (i, what) in [(1, "shift (input 1)"), (2, "axes (input 2)")] {
        support::expect_index_input(call, i, what)?;
        support::expect_rank_le1(call, i, what, true)?;
    }
    let (shift, axes) = (&call.inputs[1].shape, &call.inputs[2].shape);
    let scalar_shift = shift.rank() == Some(0);
    if !scalar_shift {
        check_same_length(ctx, shift, axes)?;
    }
    let data = &call.inputs[0];
    if let (Some(axes), Some(rank)) = (support::input_ints(call, 2), data.shape.rank()) {
        if rank > 0 {
            for a in axes {
                support::normalize_axis(a, rank, "axis")?;
            }
        }
    }
    Ok(vec![TensorInfo::new(data.element_type, data.shape.clone())])
}

/// A 1-D (or unranked) shift and the axes must have the same shape.
fn check_same_length(
    ctx: &mut InferContext,
    shift: &Shape,
    axes: &Shape,
) -> Result<(), ShapeError> {
    let (Some(s), Some(a)) = (shift.dims(), axes.dims()) else {
        return Ok(());
    };
    let mismatch = || {
        ShapeError::rule(
            "roll-shift-axes",
            format!(
                "a 1-D shift needs 1-D axes of the same length, got shift of rank {} and axes of rank {}",
                s.len(),
                a.len()
            ),
        )
    };
    match (s, a) {
        ([ls], [la]) => {
            support::merge_equal_dims(
                ctx,
                ls,
                la,
                "roll-shift-axes",
                "the shift and axes lengths",
            )?;
            Ok(())
        }
        _ => Err(mismatch()),
    }
}
