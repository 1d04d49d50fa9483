//! GroupConvolution-1: a convolution in `G` groups, filters
//! `[G, C_out/G, C_in/G, K…]`; depthwise when `C_in/G` and `C_out/G` are 1.
//! The rule is Convolution's ([`super::convolution::forward`]) with the
//! grouped layout: the data's channels equal `G * C_in/G`, the output has
//! `G * C_out/G`.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::convolution::{forward, Layout};
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "GroupConvolution",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Convolution in `G` groups: filters `[G, C_out/G, C_in/G, K…]` (depthwise when both are 1).",
        attributes: "as Convolution: `strides`, `dilations`, `pads_begin`, `pads_end`, `auto_pad`",
        symbolic: "as Convolution; output channels `G*C_out/G`; the data's channels equal `G*C_in/G` (a constraint when symbolic)",
        errors: "as Convolution (`conv-rank`, `conv-channels`, `window-attribute`, `window-exceeds-input`)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    forward(ctx, call, Layout::Grouped)
}
