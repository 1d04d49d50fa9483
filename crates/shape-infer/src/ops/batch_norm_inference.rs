//! BatchNormInference-1 and -5: `gamma * (x - mean) / sqrt(variance +
//! epsilon) + beta` per channel (dim 1). Version 1 takes its inputs as
//! (gamma, beta, data, mean, variance), version 5 as (data, gamma, beta,
//! mean, variance). The output has the data's shape.

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "BatchNormInference",
    versions: &[OpVersion::openvino(1, 1), OpVersion::openvino(5, 5)],
    infer,
    doc: OpDoc {
        summary: "Per-channel `gamma * (x - mean) / sqrt(variance + epsilon) + beta`.",
        attributes: "`epsilon`",
        symbolic: "the data's shape; the per-channel inputs' length merges with the channel dim (a constraint when symbolic)",
        errors: "`batch-norm` (data of rank below 2, a per-channel input that is not 1-D, a negative `epsilon`), `conv-channels`-style `batch-norm-channels` when the lengths differ, `element-type`",
    },
};

/// The index of the data among the inputs of `version`.
pub fn data_index(version: u32) -> usize {
    if version >= 5 {
        0
    } else {
        2
    }
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(5, 5)?;
    let data_at = data_index(call.version);
    let data = &call.inputs[data_at];
    let mut element_type = data.element_type;
    for i in (0..5).filter(|&i| i != data_at) {
        element_type = support::expect_same_type(call, data_at, i)?;
    }
    if let Some(eps) = call
        .node
        .attributes
        .get("epsilon")
        .and_then(|e| e.trim().parse::<f64>().ok())
    {
        if eps < 0.0 {
            return Err(ShapeError::rule(
                "batch-norm",
                format!("`epsilon` {eps} is negative"),
            ));
        }
    }
    let mut shape = data.shape.clone();
    if let Some(dims) = data.shape.dims() {
        if dims.len() < 2 {
            return Err(ShapeError::rule(
                "batch-norm",
                format!("the data must have rank 2 or more, got {}", dims.len()),
            ));
        }
        for i in (0..5).filter(|&i| i != data_at) {
            let what = format!("input {i}");
            support::expect_rank_le1(call, i, &what, false)?;
            if let Some([len]) = call.inputs[i].shape.dims() {
                // A static length fixes a symbolic channel dim, as in OpenVINO.
                let channels = shape
                    .dims()
                    .map(|d| d[1].clone())
                    .unwrap_or_else(|| dims[1].clone());
                let merged = support::merge_equal_dims(
                    ctx,
                    &channels,
                    len,
                    "batch-norm-channels",
                    &format!("{what} and the channels (dim 1)"),
                )?;
                let mut out = dims.to_vec();
                out[1] = merged;
                shape = ir::Shape::ranked(out);
            }
        }
    }
    Ok(vec![TensorInfo::new(element_type, shape)])
}
