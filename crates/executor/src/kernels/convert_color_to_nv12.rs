//! RGBtoNV12-17 and BGRtoNV12-17: an RGB or BGR image `[N, H, W, 3]` to
//! NV12, as OpenVINO's reference implementation (`convert_color_to_nv12.hpp`;
//! OpenVINO 2026.4's CPU plugin has no kernel for them and the ops no
//! evaluate).
//!
//! Each pixel, in f32: `Y = 0.257R + 0.504G + 0.098B + 16`,
//! `U = -0.148R - 0.291G + 0.439B + 128`, `V = 0.439R - 0.368G - 0.071B + 128`,
//! each clipped to [0, 255] and stored in the data type (u8: rounded half
//! away from zero first). The U and V of a 2x2 block are the means of its
//! four stored values (u8: rounded the same way). One plane holds the Y rows
//! of an image then its `H/2` rows of `U, V` pairs; two planes put them in
//! two outputs.

use half::{bf16, f16};
use ir::ElementType;

use super::{from_f64s, to_f64s, unsupported, Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn rgb_to_nv12(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    convert(call, false)
}

pub(crate) fn bgr_to_nv12(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    convert(call, true)
}

/// `value` as the data type stores it: rounded half away from zero for u8,
/// rounded to the type for f16 and bf16.
fn stored(et: ElementType, value: f32) -> f32 {
    match et {
        ElementType::U8 => value.round(),
        ElementType::F16 => f16::from_f32(value).to_f32(),
        ElementType::BF16 => bf16::from_f32(value).to_f32(),
        _ => value,
    }
}

/// A luma or chroma value clipped to [0, 255], as the data type stores it.
fn clipped(et: ElementType, value: f32) -> f32 {
    let value = if et == ElementType::U8 {
        value.round()
    } else {
        value
    };
    stored(et, value.clamp(0.0, 255.0))
}

fn convert(call: &Call<'_>, bgr: bool) -> KResult<Vec<Tensor>> {
    let image = call.input(0)?;
    let et = image.element_type;
    if !(et == ElementType::U8 || et.is_real()) {
        return Err(unsupported("an RGB to NV12 conversion", et));
    }
    let &[batch, height, width, 3] = image.shape.as_slice() else {
        return Err(format!("the image must be [N, H, W, 3], got {:?}", image.shape).into());
    };
    if height % 2 != 0 || width % 2 != 0 {
        return Err(format!("the image height {height} and width {width} must be even").into());
    }
    let single_plane = call.attr_bool("single_plane", true);
    let rgb: Vec<f32> = to_f64s(image)?.into_iter().map(|v| v as f32).collect();
    let pixels = height * width;
    let (r_at, b_at) = if bgr { (2, 0) } else { (0, 2) };
    let mut y = vec![0f64; batch * pixels];
    let mut uv = vec![0f64; batch * pixels / 2];
    for n in 0..batch {
        let img = &rgb[n * pixels * 3..(n + 1) * pixels * 3];
        for h in (0..height).step_by(2) {
            for w in (0..width).step_by(2) {
                let (mut u_sum, mut v_sum) = (0f32, 0f32);
                for p in [
                    h * width + w,
                    h * width + w + 1,
                    (h + 1) * width + w,
                    (h + 1) * width + w + 1,
                ] {
                    let (r, g, b) = (img[p * 3 + r_at], img[p * 3 + 1], img[p * 3 + b_at]);
                    y[n * pixels + p] =
                        f64::from(clipped(et, 0.257 * r + 0.504 * g + 0.098 * b + 16.0));
                    u_sum += clipped(et, -0.148 * r - 0.291 * g + 0.439 * b + 128.0);
                    v_sum += clipped(et, 0.439 * r - 0.368 * g - 0.071 * b + 128.0);
                }
                let at = n * pixels / 2 + (h / 2) * width + w;
                uv[at] = f64::from(stored(et, u_sum / 4.0));
                uv[at + 1] = f64::from(stored(et, v_sum / 4.0));
            }
        }
    }
    if single_plane {
        let mut plane = Vec::with_capacity(y.len() + uv.len());
        for n in 0..batch {
            plane.extend_from_slice(&y[n * pixels..(n + 1) * pixels]);
            plane.extend_from_slice(&uv[n * pixels / 2..(n + 1) * pixels / 2]);
        }
        return Ok(vec![from_f64s(
            et,
            vec![batch, height * 3 / 2, width, 1],
            &plane,
        )?]);
    }
    Ok(vec![
        from_f64s(et, vec![batch, height, width, 1], &y)?,
        from_f64s(et, vec![batch, height / 2, width / 2, 2], &uv)?,
    ])
}

#[cfg(test)]
mod tests {
    use super::clipped;
    use ir::ElementType;

    #[test]
    fn u8_values_round_half_away_and_clip() {
        assert_eq!(clipped(ElementType::U8, 16.5), 17.0);
        assert_eq!(clipped(ElementType::U8, -3.0), 0.0);
        assert_eq!(clipped(ElementType::U8, 300.0), 255.0);
        assert_eq!(clipped(ElementType::F32, 16.5), 16.5);
    }
}
