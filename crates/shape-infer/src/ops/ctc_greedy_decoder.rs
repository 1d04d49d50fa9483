//! CTCGreedyDecoder-1: greedy (best-path) decoding of logits `[T, N, C]`
//! with a sequence mask `[T, N]`: per batch item, the arg-max class of each
//! step until the mask's first 0, repeats merged under `ctc_merge_repeated`,
//! the blank class `C - 1` dropped. The output `[N, T, 1, 1]` has the
//! logits' type, padded with -1.

use ir::Shape;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "CTCGreedyDecoder",
    versions: &[OpVersion::openvino(1, 1)],
    infer,
    doc: OpDoc {
        summary: "Greedy CTC decoding of `[T, N, C]` logits under a `[T, N]` sequence mask, padded with -1.",
        attributes: "`ctc_merge_repeated` (default true)",
        symbolic: "`[N, T, 1, 1]` from the logits' (or the mask's) dims, the two merged",
        errors: "`input-rank` (logits not 3-D, mask not 2-D), `ctc-shape` (the mask's dims differ from the logits' T and N), `element-type` (non-float logits, mask of another type)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    support::bool_attr(ctx, call, "ctc_merge_repeated", true);
    let et = support::expect_same_type(call, 0, 1)?;
    if et.is_static() && !et.is_real() {
        return Err(ShapeError::ElementType {
            what: "logits (input 0)".to_owned(),
            message: format!("must be a floating-point type, got {et}"),
        });
    }
    let logits = call.inputs[0].shape.dims();
    let mask = call.inputs[1].shape.dims();
    if let Some(d) = logits.filter(|d| d.len() != 3) {
        return Err(ShapeError::rule(
            "input-rank",
            format!(
                "the logits (input 0) must be 3-D [T, N, C], got rank {}",
                d.len()
            ),
        ));
    }
    if let Some(d) = mask.filter(|d| d.len() != 2) {
        return Err(ShapeError::rule(
            "input-rank",
            format!(
                "the sequence mask (input 1) must be 2-D [T, N], got rank {}",
                d.len()
            ),
        ));
    }
    let (time, batch) = match (logits, mask) {
        (Some(l), Some(m)) => (
            support::merge_equal_dims(
                ctx,
                &l[0],
                &m[0],
                "ctc-shape",
                "T of the logits and of the mask",
            )?,
            support::merge_equal_dims(
                ctx,
                &l[1],
                &m[1],
                "ctc-shape",
                "N of the logits and of the mask",
            )?,
        ),
        (Some(d), None) => (d[0].clone(), d[1].clone()),
        (None, Some(d)) => (d[0].clone(), d[1].clone()),
        (None, None) => (
            support::unknown_dim(ctx, "T of CTCGreedyDecoder's inputs of unknown rank"),
            support::unknown_dim(ctx, "N of CTCGreedyDecoder's inputs of unknown rank"),
        ),
    };
    let one = symdim::Expr::one();
    Ok(vec![TensorInfo::new(
        et,
        Shape::ranked(vec![batch, time, one.clone(), one]),
    )])
}
