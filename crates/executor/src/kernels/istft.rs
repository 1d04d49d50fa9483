//! ISTFT-16, as OpenVINO's reference (`istft.cpp`): each frame's
//! `frame_size/2 + 1` bins are rebuilt into a Hermitian spectrum and
//! inverse-transformed (f64, `rustfft`, divided by `frame_size`), multiplied
//! by the window (centered in the frame, zero-padded) and overlap-added
//! every `frame_step`; each sample is then divided by the sum of the squared
//! window over the frames that cover it (0 where that sum is 0), times
//! `sqrt(frame_size)` when `normalized`. `center` drops `frame_size/2`
//! samples at the start; the result is cut or zero-padded to its length.

use rustfft::num_complex::Complex;
use rustfft::FftPlanner;

use super::dft::{expect_real, expect_shape};
use super::{from_f64s, to_f64s, Call, KResult};
use crate::tensor::{check_scratch, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let w = call.input(1)?;
    expect_real("ISTFT", x)?;
    expect_real("ISTFT", w)?;
    let frame =
        usize::try_from(call.input_i64(2, "frame_size")?).map_err(|_| "frame_size is negative")?;
    let step =
        usize::try_from(call.input_i64(3, "frame_step")?).map_err(|_| "frame_step is negative")?;
    let (batch, bins, frames) = match x.shape[..] {
        [k, f, 2] => (None, k, f),
        [b, k, f, 2] => (Some(b), k, f),
        _ => return Err("the data must be [bins, frames, 2] or [B, bins, frames, 2]".into()),
    };
    let window = to_f64s(w)?;
    if frame == 0 || step == 0 || window.is_empty() || window.len() > frame || bins != frame / 2 + 1
    {
        return Err(format!(
            "frame_size {frame}, frame_step {step}, a window of {} and {bins} bins do not fit",
            window.len()
        )
        .into());
    }
    let center = call.attr_bool("center", false);
    let normalized = call.attr_bool("normalized", false);
    let full = frames.saturating_sub(1) * step + frame;
    let length = match call.inputs.get(4) {
        Some(_) => {
            let l = call.input_i64(4, "signal_length")?;
            usize::try_from(l).map_err(|_| format!("signal_length {l} is negative"))?
        }
        None if center => full - (frame & !1),
        None => full,
    };
    let mut shape: Vec<usize> = batch.into_iter().collect();
    shape.push(length);
    expect_shape(call, &shape)?;

    let mut padded = vec![0.0; frame];
    let offset = (frame - window.len()) / 2;
    padded[offset..offset + window.len()].copy_from_slice(&window);
    let data = to_f64s(x)?;
    let batches = batch.unwrap_or(1);
    check_scratch(full, 16, "ISTFT's overlap-add buffers")?;
    let count = batches
        .checked_mul(length)
        .ok_or("the ISTFT output's size overflows")?;
    check_scratch(count, 8, "ISTFT's output")?;
    let mut out = vec![0.0; count];
    let ifft = FftPlanner::<f64>::new().plan_fft_inverse(frame);
    let mut line = vec![Complex::new(0.0, 0.0); frame];
    let margin = if center { frame / 2 } else { 0 };
    let copy = length.min(full.saturating_sub(margin));
    for b in 0..batches {
        let mut sum = vec![0.0; full];
        let mut weight = vec![0.0; full];
        for f in 0..frames {
            // Bin k of frame f is at [b, k, f, :].
            let at = |k: usize| 2 * ((b * bins + k) * frames + f);
            line.iter_mut().for_each(|v| *v = Complex::new(0.0, 0.0));
            for k in 0..bins.min(frame) {
                let v = Complex::new(data[at(k)], data[at(k) + 1]);
                line[k] = v;
                if k > 0 && k < frame + 1 - bins {
                    line[frame - k] = v.conj();
                }
            }
            ifft.process(&mut line);
            let start = f * step;
            for (i, v) in line.iter().enumerate() {
                sum[start + i] += v.re / frame as f64 * padded[i];
                weight[start + i] += padded[i] * padded[i];
            }
        }
        let scale = if normalized {
            (frame as f64).sqrt()
        } else {
            1.0
        };
        for i in 0..copy {
            let (s, wt) = (sum[margin + i], weight[margin + i]);
            out[b * length + i] = if wt == 0.0 { 0.0 } else { s * scale / wt };
        }
    }
    Ok(vec![from_f64s(x.element_type, shape, &out)?])
}
