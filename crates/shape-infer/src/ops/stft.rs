//! STFT-15: the short-time Fourier transform of a signal `[L]` or `[B, L]`:
//! frames of `frame_size` (input 2) every `frame_step` (input 3), each
//! multiplied by the window (input 1, centered in the frame and padded with
//! zeros), then RDFT-transformed. Output `[frames, frame_size/2 + 1, 2]`
//! (`[frame_size/2 + 1, frames, 2]` under `transpose_frames`), with the
//! batch dim first for a 2-D signal; `frames = floor((L - frame_size) /
//! frame_step) + 1`. Checks as OpenVINO's `stft_shape_inference.hpp`.

use ir::Shape;
use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "STFT",
    versions: &[OpVersion::openvino(15, 15)],
    infer,
    doc: OpDoc {
        summary: "Short-time Fourier transform of a signal `[L]` or `[B, L]`: frames of `frame_size` (input 2) every `frame_step` (input 3), each multiplied by the window (input 1, centered and zero-padded to the frame), then the first `frame_size/2 + 1` values of their DFT.",
        attributes: "`transpose_frames` (default false: `[frames, bins, 2]`; true: `[bins, frames, 2]`)",
        symbolic: "`frames = floor((L - frame_size)/frame_step) + 1` and `bins = floor(frame_size/2) + 1` (with `L >= frame_size` and a window no longer than the frame assumed when symbolic), `B` first for a 2-D signal; fresh dims when frame_size or frame_step are unknown",
        errors: "`input-rank` (signal not 1-D or 2-D, window not 1-D, frame_size or frame_step not scalars), `element-type` (signal or window not floating-point, frame_size or frame_step not i32/i64), `stft-frame` (frame_size outside `[1, L]`, frame_step below 1, a window empty or longer than the frame)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(4, 4)?;
    let transpose = support::bool_attr(ctx, call, "transpose_frames", false);
    support::expect_real_input(call, 0, "signal (input 0)")?;
    support::expect_real_input(call, 1, "window (input 1)")?;
    support::expect_index_input(call, 2, "frame_size (input 2)")?;
    support::expect_index_input(call, 3, "frame_step (input 3)")?;
    support::expect_rank_in(call, 0, &[1, 2], "the signal (input 0)")?;
    support::expect_rank_in(call, 1, &[1], "the window (input 1)")?;
    support::expect_rank_in(call, 2, &[0], "frame_size (input 2)")?;
    support::expect_rank_in(call, 3, &[0], "frame_step (input 3)")?;
    let et = call.inputs[0].element_type;
    let Some(signal) = call.inputs[0].shape.dims() else {
        return Ok(vec![TensorInfo::new(et, Shape::DynamicRank)]);
    };
    let batch = (signal.len() == 2).then(|| signal[0].clone());
    let length = &signal[signal.len() - 1];
    let single =
        |call: &OpCall<'_>, i| support::input_ints(call, i).and_then(|v| v.first().copied());
    let mut out = Vec::with_capacity(4);
    out.extend(batch);
    let (Some(frame), Some(step)) = (single(call, 2), single(call, 3)) else {
        out.push(support::unknown_dim(
            ctx,
            "STFT dim of an unknown frame size or step",
        ));
        out.push(support::unknown_dim(
            ctx,
            "STFT dim of an unknown frame size or step",
        ));
        out.push(Expr::constant(2));
        return Ok(vec![TensorInfo::new(et, Shape::ranked(out))]);
    };
    let frame_dim = Expr::constant(frame);
    if frame < 1 || ctx.symbols.compare(length, &frame_dim) == Some(std::cmp::Ordering::Less) {
        return Err(ShapeError::rule(
            "stft-frame",
            format!(
                "frame_size {frame} must be in [1, {}]",
                ctx.symbols.display(length)
            ),
        ));
    }
    if step < 1 {
        return Err(ShapeError::rule(
            "stft-frame",
            format!("frame_step {step} must be 1 or more"),
        ));
    }
    if let Some(window) = call.inputs[1].shape.dims().map(|d| d[0].clone()) {
        match window.as_constant() {
            Some(w) if !(1..=frame).contains(&w) => {
                return Err(ShapeError::rule(
                    "stft-frame",
                    format!("the window's length {w} must be in [1, {frame}]"),
                ))
            }
            Some(_) => {}
            None => ctx.assume(Predicate::Le(window, frame_dim.clone()))?,
        }
    }
    ctx.assume(Predicate::Ge(length.clone(), frame_dim.clone()))?;
    let frames = length.sub(&frame_dim)?.floor_div(step)?.add_const(1)?;
    let bins = Expr::constant(frame / 2 + 1);
    if transpose {
        out.extend([bins, frames]);
    } else {
        out.extend([frames, bins]);
    }
    out.push(Expr::constant(2));
    Ok(vec![TensorInfo::new(et, Shape::ranked(out))])
}
