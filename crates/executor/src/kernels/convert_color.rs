//! NV12toRGB-8, NV12toBGR-8, I420toRGB-8 and I420toBGR-8.
//!
//! Each output pixel takes its luma from the Y plane and its chroma from
//! the 2x2 block of the U/V samples it lies in (NV12: interleaved `U, V`
//! pairs; I420: separate U and V planes), then OpenVINO's BT.601 video
//! range conversion (`convert_color_nv12.hpp`):
//! `R = 1.164(Y-16) + 1.596(V-128)`, `G = 1.164(Y-16) - 0.391(U-128) -
//! 0.813(V-128)`, `B = 1.164(Y-16) + 2.018(U-128)`, each clamped to
//! `[0, 255]` (and rounded to nearest for u8). A single plane holds Y on
//! top of the chroma samples of each image.

use ir::ElementType;

use super::{from_f64s, to_f64s, unsupported, Call, KResult};
use crate::tensor::Tensor;

/// How the chroma samples are laid out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Chroma {
    /// NV12: one plane of interleaved `U, V` pairs.
    Interleaved,
    /// I420: a U plane, then a V plane.
    Planar,
}

pub(crate) fn nv12_to_rgb(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    convert(call, Chroma::Interleaved, false)
}

pub(crate) fn nv12_to_bgr(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    convert(call, Chroma::Interleaved, true)
}

pub(crate) fn i420_to_rgb(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    convert(call, Chroma::Planar, false)
}

pub(crate) fn i420_to_bgr(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    convert(call, Chroma::Planar, true)
}

/// The chroma samples of one image: U of sample `s` at `u[step*s]`, V at
/// `v[step*s]`.
struct ChromaAt<'a> {
    u: &'a [f64],
    v: &'a [f64],
    step: usize,
}

fn convert(call: &Call<'_>, chroma: Chroma, bgr: bool) -> KResult<Vec<Tensor>> {
    let out_shape = call.out_shape(0)?;
    let y = call.input(0)?;
    let et = y.element_type;
    if !(et == ElementType::U8 || et.is_real()) {
        return Err(unsupported("a YUV to RGB conversion", et));
    }
    let &[batch, height, width, 3] = out_shape.as_slice() else {
        return Err(format!("internal: the output {out_shape:?} is not [N, H, W, 3]").into());
    };
    let pixels = height * width;
    let chroma_size = pixels / 4;
    let luma_values = to_f64s(y)?;
    let planes: Vec<Vec<f64>> = call.inputs[1..]
        .iter()
        .map(to_f64s)
        .collect::<KResult<_>>()?;
    let single = planes.is_empty();
    let image_stride = if single { pixels * 3 / 2 } else { pixels };
    let expected = [
        batch * image_stride,
        if single { 0 } else { batch * chroma_size * 2 },
    ];
    let chroma_total: usize = planes.iter().map(Vec::len).sum();
    if luma_values.len() != expected[0] || chroma_total != expected[1] {
        return Err(format!(
            "internal: planes of {} and {chroma_total} values for {out_shape:?}",
            luma_values.len()
        )
        .into());
    }
    // Where the chroma samples of image `image` are: U of sample `s` at
    // `u[u0 + step*s]`, V at `v[v0 + step*s]`.
    let chroma_of = |image: usize| -> KResult<ChromaAt<'_>> {
        let start = image * image_stride + pixels;
        let (u, u0, v, v0, step) = match (chroma, planes.as_slice()) {
            (Chroma::Interleaved, []) => (&luma_values, start, &luma_values, start + 1, 2),
            (Chroma::Interleaved, [uv]) => {
                let u0 = image * 2 * chroma_size;
                (uv, u0, uv, u0 + 1, 2)
            }
            (Chroma::Planar, []) => (&luma_values, start, &luma_values, start + chroma_size, 1),
            (Chroma::Planar, [u, v]) => (u, image * chroma_size, v, image * chroma_size, 1),
            _ => {
                return Err(format!(
                    "internal: {} inputs to a YUV to RGB conversion",
                    call.inputs.len()
                )
                .into())
            }
        };
        // An empty image has no samples (and `v0` may pass the end).
        Ok(ChromaAt {
            u: u.get(u0..).unwrap_or_default(),
            v: v.get(v0..).unwrap_or_default(),
            step,
        })
    };
    let integral = !et.is_real();
    let clip = |value: f32| -> f64 {
        let value = if integral { value.round() } else { value };
        f64::from(value.clamp(0.0, 255.0))
    };
    let mut out = Vec::with_capacity(batch * pixels * 3);
    for image in 0..batch {
        let samples = chroma_of(image)?;
        for h in 0..height {
            for w in 0..width {
                let luma = luma_values[image * image_stride + h * width + w] as f32;
                let at = samples.step * ((h / 2) * (width / 2) + w / 2);
                let (u, v) = (samples.u[at], samples.v[at]);
                let c = luma - 16.0;
                let (d, e) = (u as f32 - 128.0, v as f32 - 128.0);
                let r = clip(1.164 * c + 1.596 * e);
                let g = clip(1.164 * c - 0.391 * d - 0.813 * e);
                let b = clip(1.164 * c + 2.018 * d);
                out.extend(if bgr { [b, g, r] } else { [r, g, b] });
            }
        }
    }
    Ok(vec![from_f64s(et, out_shape, &out)?])
}
