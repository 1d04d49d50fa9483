//! FakeConvert-13: data (bf16, f16 or f32) scaled, shifted, rounded to an
//! 8-bit float (`destination_type` f8e4m3 or f8e5m2) and brought back:
//! `(convert(x * scale - shift) + shift) / scale`. `scale` and the optional
//! `shift` (of one shape) broadcast one way into the data, whose shape and
//! type the output keeps.

use crate::broadcast::{self, Operand};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;
use ir::ElementType;

pub static DEF: OpDef = OpDef {
    type_name: "FakeConvert",
    versions: &[OpVersion::openvino(13, 13)],
    infer,
    doc: OpDoc {
        summary: "Emulates a round trip through an 8-bit float: `(f8(x * scale - shift) + shift) / scale` with `scale` and the optional `shift` broadcast one way into the data.",
        attributes: "`destination_type` (`f8e4m3` or `f8e5m2`)",
        symbolic: "the data's shape passes through (refined by static dims of `scale`/`shift` where they broadcast onto a symbolic dim)",
        errors: "`attribute-invalid` (`destination_type`), `broadcast-incompatible` (scale or shift does not broadcast one way into the data), `fake-convert-shift` (shift's shape differs from scale's), `element-type` (data not bf16/f16/f32, or scale/shift of another type)",
    },
};

/// The 8-bit float formats FakeConvert rounds to.
pub const DESTINATION_TYPES: [&str; 2] = ["f8e4m3", "f8e5m2"];

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 3)?;
    let dest = call.node.attributes.require("destination_type")?;
    if !DESTINATION_TYPES.contains(&dest.trim()) {
        return Err(ShapeError::rule(
            "attribute-invalid",
            format!("destination_type `{dest}` is not f8e4m3 or f8e5m2"),
        ));
    }
    let data = &call.inputs[0];
    let et = data.element_type;
    if et.is_static() && !matches!(et, ElementType::BF16 | ElementType::F16 | ElementType::F32) {
        return Err(ShapeError::ElementType {
            what: "data (input 0)".to_owned(),
            message: format!("must be bf16, f16 or f32, got {et}"),
        });
    }
    for i in 1..call.inputs.len() {
        support::expect_same_type(call, 0, i)?;
    }
    if let Some(shift) = call.inputs.get(2) {
        let scale = &call.inputs[1];
        if let (Some(a), Some(b)) = (scale.shape.dims(), shift.shape.dims()) {
            if a.len() != b.len() {
                return Err(ShapeError::rule(
                    "fake-convert-shift",
                    format!(
                        "shift {} must have the shape of scale {}",
                        support::show_dims(ctx, b),
                        support::show_dims(ctx, a)
                    ),
                ));
            }
            for (x, y) in a.iter().zip(b) {
                support::merge_equal_dims(
                    ctx,
                    x,
                    y,
                    "fake-convert-shift",
                    "shift must have the shape of scale",
                )?;
            }
        }
    }
    let mut shape = data.shape.clone();
    for (i, name) in [(1, "scale"), (2, "shift")] {
        if let Some(input) = call.inputs.get(i) {
            shape = broadcast::one_way(
                ctx,
                Operand::new(name, &input.shape),
                Operand::new("data", &shape),
            )?;
        }
    }
    Ok(vec![TensorInfo::new(et, shape)])
}
