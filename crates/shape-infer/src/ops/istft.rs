//! ISTFT-16: the inverse of STFT: spectra `[bins, frames, 2]` (or
//! `[B, bins, frames, 2]`, `bins = frame_size/2 + 1`) are inverse-transformed
//! frame by frame, windowed and overlap-added every `frame_step`, and
//! divided by the overlapping squared window. The signal has `signal_length`
//! (optional input 4) samples, else `(frames - 1)*frame_step + frame_size`,
//! less `frame_size` rounded down to even under `center`. Checks as
//! OpenVINO's `istft_shape_inference.hpp`.

use ir::Shape;
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "ISTFT",
    versions: &[OpVersion::openvino(16, 16)],
    infer,
    doc: OpDoc {
        summary: "Inverse of STFT: spectra `[B?, frame_size/2 + 1, frames, 2]` inverse-transformed per frame, windowed (input 1, centered and zero-padded), overlap-added every `frame_step` (input 3) and divided by the overlapping squared window; `signal_length` (optional input 4) samples, else `(frames - 1)*frame_step + frame_size` less the even part of frame_size under `center`.",
        attributes: "`center` and `normalized` (multiply by `sqrt(frame_size)`), booleans OpenVINO requires (read as false when absent)",
        symbolic: "`[B?, signal_length]` (an expression when read from a shape) or `[B?, (frames - 1)*frame_step + frame_size - (center ? frame_size & ~1 : 0)]`; fresh when frame_size or frame_step are unknown",
        errors: "`input-rank` (data not 3-D or 4-D, window not 1-D, frame_size or frame_step not scalars, signal_length neither a scalar nor of one element), `element-type` (data or window not floating-point, frame_size, frame_step or signal_length not i32/i64), `stft-frame` (frame_size or frame_step below 1, a window empty or longer than the frame, a bins dim other than frame_size/2 + 1)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(4, 5)?;
    let center = support::bool_attr(ctx, call, "center", false);
    support::bool_attr(ctx, call, "normalized", false);
    support::expect_real_input(call, 0, "data (input 0)")?;
    support::expect_real_input(call, 1, "window (input 1)")?;
    for i in 2..call.inputs.len() {
        support::expect_index_input(call, i, &format!("input {i}"))?;
    }
    support::expect_rank_in(call, 0, &[3, 4], "the data (input 0)")?;
    support::expect_rank_in(call, 1, &[1], "the window (input 1)")?;
    support::expect_rank_in(call, 2, &[0], "frame_size (input 2)")?;
    support::expect_rank_in(call, 3, &[0], "frame_step (input 3)")?;
    if let Some(len) = call.inputs.get(4).and_then(|t| t.shape.to_static()) {
        if !(len.is_empty() || len == [1]) {
            return Err(ShapeError::rule(
                "input-rank",
                format!(
                    "signal_length (input 4) must be a scalar or have one element, got {len:?}"
                ),
            ));
        }
    }
    let single = |i| support::input_ints(call, i).and_then(|v: Vec<i64>| v.first().copied());
    let (frame, step) = (single(2), single(3));
    let data = call.inputs[0].shape.dims();
    if let Some(frame) = frame {
        if frame < 1 {
            return Err(ShapeError::rule(
                "stft-frame",
                format!("frame_size {frame} must be 1 or more"),
            ));
        }
        if let Some(w) = call.inputs[1].shape.dims().and_then(|d| d[0].as_constant()) {
            if !(1..=frame).contains(&w) {
                return Err(ShapeError::rule(
                    "stft-frame",
                    format!("the window's length {w} must be in [1, {frame}]"),
                ));
            }
        }
        if let Some(d) = data {
            support::merge_equal_dims(
                ctx,
                &d[d.len() - 3],
                &Expr::constant(frame / 2 + 1),
                "stft-frame",
                "the bins dim of the data and frame_size/2 + 1",
            )?;
        }
    }
    if let Some(step) = step.filter(|&s| s < 1) {
        return Err(ShapeError::rule(
            "stft-frame",
            format!("frame_step {step} must be 1 or more"),
        ));
    }
    let et = call.inputs[0].element_type;
    let Some(data) = data else {
        return Ok(vec![TensorInfo::new(et, Shape::DynamicRank)]);
    };
    let known_length = support::input_values(call, 4).and_then(|v| v.first().cloned());
    let length = match (call.inputs.len(), known_length, frame, step) {
        (5, Some(l), _, _) => l,
        (4, _, Some(frame), Some(step)) => {
            let frames = &data[data.len() - 2];
            let full = frames.add_const(-1)?.mul_const(step)?.add_const(frame)?;
            if center {
                full.add_const(-(frame & !1))?
            } else {
                full
            }
        }
        _ => support::unknown_dim(ctx, "ISTFT length of unknown frames or signal_length"),
    };
    let mut out: Vec<_> = (data.len() == 4)
        .then(|| data[0].clone())
        .into_iter()
        .collect();
    out.push(length);
    Ok(vec![TensorInfo::new(et, Shape::ranked(out))])
}
