//! CTCLoss-4: the connectionist temporal classification loss of each
//! sequence of a batch: `logits` `[N, T, C]`, `logit_length` `[N]`, `labels`
//! `[N, T]`, `label_length` `[N]` and an optional scalar `blank_index`
//! (default `C - 1`) give the loss `[N]` in the logits' type.
//!
//! The batch of every input merges, and the labels' length merges with the
//! logits' time steps (constraints when symbolic). OpenVINO's
//! `ctc_loss_shape_inference.hpp`.

use ir::Shape;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "CTCLoss",
    versions: &[OpVersion::openvino(4, 4)],
    infer,
    doc: OpDoc {
        summary: "Connectionist temporal classification loss `[N]` of logits `[N, T, C]` against labels `[N, T]`, with per-sequence logit and label lengths and an optional blank index (default `C - 1`).",
        attributes: "`preprocess_collapse_repeated` (merge repeated labels first), `ctc_merge_repeated` (repeated labels may share a frame run), `unique` (keep each label's first occurrence only); all boolean",
        symbolic: "`[N]`, N merged from every input's batch (constraints when symbolic); the labels' length merges with the logits' time steps",
        errors: "`input-rank` (logits not 3-D, labels not 2-D, lengths not 1-D, blank_index not a scalar), `ctc-loss-dims` (batch or time dims that differ), `element-type` (logits not floating point, the others not i32/i64)",
    },
};

/// The inputs: name, rank.
const INPUTS: [(&str, usize); 5] = [
    ("logits (input 0)", 3),
    ("logit_length (input 1)", 1),
    ("labels (input 2)", 2),
    ("label_length (input 3)", 1),
    ("blank_index (input 4)", 0),
];

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(4, 5)?;
    for key in [
        "preprocess_collapse_repeated",
        "ctc_merge_repeated",
        "unique",
    ] {
        support::bool_attr(ctx, call, key, false);
    }
    support::expect_real_input(call, 0, INPUTS[0].0)?;
    for (index, (name, rank)) in INPUTS.iter().enumerate().take(call.inputs.len()) {
        if index > 0 {
            support::expect_index_input(call, index, name)?;
        }
        support::expect_rank_in(call, index, &[*rank], name)?;
    }
    // The batch: the first known of the inputs' dim 0, merged with the rest.
    let mut batch = None;
    for (index, (name, _)) in INPUTS.iter().enumerate().take(4) {
        let Some(dims) = call.inputs[index].shape.dims() else {
            continue;
        };
        batch = Some(match batch {
            None => dims[0].clone(),
            Some(known) => support::merge_equal_dims(
                ctx,
                &known,
                &dims[0],
                "ctc-loss-dims",
                &format!("the batch (dim 0) of the logits and of {name}"),
            )?,
        });
    }
    if let (Some(logits), Some(labels)) = (call.inputs[0].shape.dims(), call.inputs[2].shape.dims())
    {
        support::merge_equal_dims(
            ctx,
            &logits[1],
            &labels[1],
            "ctc-loss-dims",
            "the logits' time steps (dim 1) and the labels' length (dim 1)",
        )?;
    }
    let batch = match batch {
        Some(b) => b,
        None => support::unknown_dim(
            ctx,
            "the batch of a CTCLoss whose inputs have unknown ranks",
        ),
    };
    Ok(vec![TensorInfo::new(
        call.inputs[0].element_type,
        Shape::ranked(vec![batch]),
    )])
}
