//! FakeQuantize-1: elementwise quantization of `X` (input 0) to `levels`
//! values between `output_low` and `output_high`, by the input range
//! `input_low`..`input_high` (inputs 1 to 4, broadcast into `X` with
//! `auto_broadcast`). The output has the data's shape and type.
//!
//! OpenVINO merges each range into the data shape in turn
//! (`broadcast_merge_into`) and outputs the data's shape. Numpy mode there
//! merges both ways: it accepts a range that widens the data (data
//! `[1, 3, 1, 1]` with a range `[1, 3, 4, 5]`), which the specification does
//! not ("broadcastable to the shape of X") and OpenVINO 2026.4's CPU plugin
//! cannot run (it aborts with a corrupted heap). We merge each range one way
//! into the data shape as merged so far ([`broadcast::one_way`]; pdpd and
//! none as OpenVINO), so such a range is a `broadcast-incompatible` error. A
//! range of higher rank whose extra leading dims are 1 is accepted, as
//! OpenVINO runs it.
//!
//! Element types are not checked: OpenVINO accepts any (its CPU plugin
//! computes in f32).

use ir::Shape;
use symdim::Expr;

use crate::broadcast::{self, Mode, Operand};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "FakeQuantize",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Elementwise quantization to `levels` values: `x <= min(il, ih)` gives `ol`, `x > max(il, ih)` gives `oh`, else `round((x - il) / (ih - il) * (levels - 1)) / (levels - 1) * (oh - ol) + ol` (rounding half to even). As OpenVINO's reference, also when `il > ih`, where its 2026.4 CPU plugin gives `ol` everywhere.",
        attributes: "`levels` (required, at least 2), `auto_broadcast` (`numpy` default, `none`, `pdpd` with `auto_broadcast.auto_broadcast_axis`, 0 when absent)",
        symbolic: "the data's shape; each range (inputs 1 to 4) broadcasts one way into it (extra leading 1s allowed), a static range dim fixing a symbolic data dim by a recorded constraint",
        errors: "`fake-quantize` (`levels` below 2 or missing), `broadcast-incompatible` naming the dims, axes and shapes when a range does not broadcast into the data, including a range that widens it (OpenVINO's shape inference merges both ways and accepts that, but its CPU plugin cannot run it)",
    },
};

/// The names of inputs 1 to 4.
pub const RANGES: [&str; 4] = ["input_low", "input_high", "output_low", "output_high"];

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(5, 5)?;
    levels(&call.node.attributes)?;
    let mode = Mode::from_attributes(&call.node.attributes)?;
    let data = &call.inputs[0];
    let mut merged = data.shape.clone();
    for (input, name) in call.inputs[1..].iter().zip(RANGES) {
        merged = into_data(ctx, mode, &merged, name, &input.shape)?;
    }
    Ok(vec![TensorInfo::new(data.element_type, data.shape.clone())])
}

/// `levels`, required and at least 2.
pub fn levels(attributes: &ir::Attributes) -> Result<i64, ShapeError> {
    let levels = attributes
        .i64("levels")?
        .ok_or_else(|| ShapeError::rule("fake-quantize", "the `levels` attribute is missing"))?;
    if levels < 2 {
        return Err(ShapeError::rule(
            "fake-quantize",
            format!("`levels` {levels} is below 2"),
        ));
    }
    Ok(levels)
}

/// The data shape `data` (as merged with the ranges before) merged with the
/// range `name` of shape `range`: one way into it (numpy, with 1s prepended
/// to the data where the range has more dims), pdpd or equal.
fn into_data(
    ctx: &mut InferContext,
    mode: Mode,
    data: &Shape,
    name: &str,
    range: &Shape,
) -> Result<Shape, ShapeError> {
    let source = Operand::new(name, range);
    match mode {
        Mode::None => broadcast::equal(ctx, Operand::new("data", data), source),
        Mode::Pdpd { axis } => broadcast::pdpd(ctx, Operand::new("data", data), source, axis),
        Mode::Numpy => {
            let padded = match (data.dims(), range.dims()) {
                (Some(d), Some(r)) if r.len() > d.len() => {
                    let mut dims = vec![Expr::one(); r.len() - d.len()];
                    dims.extend(d.iter().cloned());
                    Some(Shape::ranked(dims))
                }
                _ => None,
            };
            let target = match &padded {
                Some(p) => Operand::new("data (with leading 1s)", p),
                None => Operand::new("data", data),
            };
            broadcast::one_way(ctx, source, target).map_err(|e| match e {
                ShapeError::Rule { rule, message } => ShapeError::Rule {
                    rule,
                    message: format!(
                        "{message}: a FakeQuantize range must broadcast into the data \
                         (OpenVINO's shape inference also accepts a range that widens \
                         the data, which its CPU plugin cannot run)"
                    ),
                },
                other => other,
            })
        }
    }
}
