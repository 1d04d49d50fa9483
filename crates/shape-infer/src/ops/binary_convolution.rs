//! BinaryConvolution-1: a 2-D convolution of `[N, C_in, H, W]` with 1-bit
//! filters `[C_out, C_in, KH, KW]` (u1), `mode` `xnor-popcount`: inputs and
//! weights are read as ±1 and each output is `2·popcount(xnor) − taps`,
//! the padding holding `pad_value`.
//!
//! The shape rule is Convolution's ([`super::convolution::forward_shape`])
//! with 4-D data, as OpenVINO's `binary_convolution_shape_inference.hpp`;
//! the output has the data's element type (the filters' is u1).

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::convolution::{forward_shape, Layout};
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "BinaryConvolution",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "2-D convolution of `[N, C_in, H, W]` with 1-bit filters `[C_out, C_in, KH, KW]` (mode `xnor-popcount`: values as ±1, padding as `pad_value`).",
        attributes: "as Convolution (`strides`, `dilations`, `pads_begin`, `pads_end`, `auto_pad`), `mode` (`xnor-popcount`), `pad_value`",
        symbolic: "as Convolution: spatial dims `floor((D + pb + pe - d*(K - 1) - 1)/s) + 1` (`ceil(D/s)` for same_*), channels merge (a constraint when symbolic); the data's element type",
        errors: "`conv-rank` (data not 4-D, filter rank not the data's), `conv-channels`, `binary-conv-attribute` (`mode` not xnor-popcount, `pad_value` missing or not a number), `window-attribute`, `window-exceeds-input`, `element-type` (non-numeric data)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let attrs = &call.node.attributes;
    match attrs.get("mode").map(str::trim) {
        Some("xnor-popcount") => {}
        other => {
            return Err(ShapeError::rule(
                "binary-conv-attribute",
                format!(
                    "`mode` {} is not xnor-popcount",
                    other.map_or("(missing)".to_owned(), |m| format!("\"{m}\""))
                ),
            ))
        }
    }
    let pad_value = attrs.get("pad_value").map(str::trim);
    if pad_value.and_then(|v| v.parse::<f64>().ok()).is_none() {
        return Err(ShapeError::rule(
            "binary-conv-attribute",
            format!(
                "`pad_value` {} is not a number",
                pad_value.unwrap_or("(missing)")
            ),
        ));
    }
    let data = &call.inputs[0];
    let t = data.element_type;
    if t.is_static() && !(t.is_real() || t.is_integral()) {
        return Err(ShapeError::ElementType {
            what: "data (input 0)".to_owned(),
            message: format!("must be numeric, got {t}"),
        });
    }
    if let Some(rank) = data.shape.rank().filter(|&r| r != 4) {
        return Err(ShapeError::rule(
            "conv-rank",
            format!("the data must be 4-D [N, C, H, W], got rank {rank}"),
        ));
    }
    let shape = forward_shape(ctx, call, Layout::Plain)?;
    Ok(vec![TensorInfo::new(t, shape)])
}
