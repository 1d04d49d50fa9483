//! AvgPool-1, -14 and -16: the mean over each window of the spatial axes of
//! `[N, C, D…]`, counting the padding or not (`exclude-pad`); 14 adds
//! `ceil_torch` rounding, 16 `dilations`. The shape is MaxPool's
//! ([`super::max_pool::pooled_shape`]).

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::max_pool::pooled_shape;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;
use crate::window::{AutoPad, WindowAttrs, WindowKind};

pub static DEF: OpDef = OpDef {
    type_name: "AvgPool",
    versions: &[
        OpVersion::openvino(1, 1),
        OpVersion::openvino(14, 14),
        OpVersion::openvino(16, 16),
    ],
    infer,
    doc: OpDoc {
        summary: "The mean over each window of the spatial axes, with or without the padding (`exclude-pad`).",
        attributes: "`kernel`, `strides`, `pads_begin`, `pads_end`, `auto_pad`, `rounding_type` (floor, ceil; ceil_torch from v14), `exclude-pad`; v16: `dilations`",
        symbolic: "as MaxPool",
        errors: "as MaxPool (`pool-rank`, `window-attribute`, `window-exceeds-input`); `window-in-padding` (with `exclude-pad`, an explicit pad as large as the dilated kernel: a window would hold padding only)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let kind = window_kind(call.version);
    let shape = pooled_shape(ctx, call, kind, call.version >= 14)?;
    if call.node.attributes.bool("exclude-pad")?.unwrap_or(false) {
        expect_window_outside_padding(call, kind)?;
    }
    Ok(vec![TensorInfo::new(call.inputs[0].element_type, shape)])
}

/// Where AvgPool-`version` reads its window attributes from: only v16 has
/// `dilations`.
pub fn window_kind(version: u32) -> WindowKind {
    if version >= 16 {
        WindowKind::DilatedPool
    } else {
        WindowKind::Pool
    }
}

/// OpenVINO refuses an `exclude-pad` pooling whose explicit pad on some axis
/// is at least the dilated kernel: a window there would average nothing.
/// (`same_*` pads are always smaller than the dilated kernel.)
fn expect_window_outside_padding(call: &OpCall<'_>, kind: WindowKind) -> Result<(), ShapeError> {
    let Some(spatial) = call.inputs[0].shape.rank().and_then(|r| r.checked_sub(2)) else {
        return Ok(());
    };
    let attrs = WindowAttrs::read(call.node, spatial, kind)?;
    if attrs.auto_pad != AutoPad::Explicit {
        return Ok(());
    }
    let kernel = call.node.attributes.i64_list("kernel")?.unwrap_or_default();
    for (axis, (&k, &d)) in kernel.iter().zip(&attrs.dilations).enumerate() {
        let dilated = (k - 1).saturating_mul(d).saturating_add(1);
        let (begin, end) = (attrs.pads_begin[axis], attrs.pads_end[axis]);
        if begin >= dilated || end >= dilated {
            return Err(ShapeError::rule(
                "window-in-padding",
                format!(
                    "spatial axis {axis}: with `exclude-pad` the dilated kernel ({dilated}) must be larger than both pads ({begin}, {end}), or a window holds padding only"
                ),
            ));
        }
    }
    Ok(())
}
