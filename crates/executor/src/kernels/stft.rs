//! STFT-15, as OpenVINO's reference (`stft.cpp`): the window, centered in a
//! frame of `frame_size` zeros (offset `(frame_size - window)/2`), multiplies
//! each frame taken every `frame_step`; each product's DFT (f64, `rustfft`)
//! keeps its first `frame_size/2 + 1` values; `transpose_frames` puts the
//! bins before the frames.

use rustfft::num_complex::Complex;
use rustfft::FftPlanner;

use super::dft::{expect_real, expect_shape};
use super::{from_f64s, to_f64s, Call, KResult};
use crate::tensor::{check_scratch, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let w = call.input(1)?;
    expect_real("STFT", x)?;
    expect_real("STFT", w)?;
    let frame = call.input_i64(2, "frame_size")?;
    let step = call.input_i64(3, "frame_step")?;
    let (batch, length) = match x.shape[..] {
        [l] => (None, l),
        [b, l] => (Some(b), l),
        _ => return Err("the signal must be 1-D or 2-D".into()),
    };
    let window = to_f64s(w)?;
    let frame = usize::try_from(frame).map_err(|_| format!("frame_size {frame} is negative"))?;
    let step = usize::try_from(step).map_err(|_| format!("frame_step {step} is negative"))?;
    if frame == 0 || frame > length || step == 0 || window.is_empty() || window.len() > frame {
        return Err(format!(
            "frame_size {frame}, frame_step {step} and a window of {} do not fit a signal of {length}",
            window.len()
        )
        .into());
    }
    let frames = (length - frame) / step + 1;
    let bins = frame / 2 + 1;
    let transpose = call.attr_bool("transpose_frames", false);
    let mut shape: Vec<usize> = batch.into_iter().collect();
    shape.extend(if transpose {
        [bins, frames]
    } else {
        [frames, bins]
    });
    shape.push(2);
    expect_shape(call, &shape)?;

    let mut padded = vec![0.0; frame];
    let offset = (frame - window.len()) / 2;
    padded[offset..offset + window.len()].copy_from_slice(&window);
    let signal = to_f64s(x)?;
    let batches = batch.unwrap_or(1);
    let count = [frames, bins, 2]
        .iter()
        .try_fold(batches, |acc, &d| acc.checked_mul(d))
        .ok_or("the STFT output's size overflows")?;
    check_scratch(count, 8, "STFT's output")?;
    let mut out = vec![0.0; count];
    let fft = FftPlanner::<f64>::new().plan_fft_forward(frame);
    let mut line = vec![Complex::new(0.0, 0.0); frame];
    for b in 0..batches {
        for f in 0..frames {
            let start = b * length + f * step;
            for (k, v) in line.iter_mut().enumerate() {
                *v = Complex::new(signal[start + k] * padded[k], 0.0);
            }
            fft.process(&mut line);
            for (k, v) in line[..bins].iter().enumerate() {
                let at = if transpose {
                    (b * bins + k) * frames + f
                } else {
                    (b * frames + f) * bins + k
                };
                out[2 * at] = v.re;
                out[2 * at + 1] = v.im;
            }
        }
    }
    Ok(vec![from_f64s(x.element_type, shape, &out)?])
}
