//! GroupConvolutionBackpropData-1: a transposed convolution in `G` groups,
//! filters `[G, C_in/G, C_out/G, K…]`. The rule is ConvolutionBackpropData's
//! ([`super::convolution_backprop_data::backward`]) with the grouped layout.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::convolution_backprop_data::{backward, Grouping};
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "GroupConvolutionBackpropData",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Transposed convolution in `G` groups: filters `[G, C_in/G, C_out/G, K…]`, optional `output_shape`.",
        attributes: "as ConvolutionBackpropData",
        symbolic: "as ConvolutionBackpropData; output channels `G*C_out/G`",
        errors: "as ConvolutionBackpropData",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    backward(ctx, call, Grouping::Grouped)
}
