//! BinaryConvolution-1 (`xnor-popcount`), as OpenVINO's CPU plugin
//! computes it (`bin_conv.cpp`).
//!
//! The data is binarized (`x > 0` is 1, else 0), the filters are bits; each
//! output counts the taps where they agree minus those where they differ
//! (`taps - 2·popcount(x xor w)`). A tap in the padding is 1 when
//! `pad_value` is 1, 0 for any other nonzero value, and left out of the
//! count when `pad_value` is 0.
//!
//! The plugin reads the packed filter bits least significant first, while
//! OpenVINO's u1 order (and the IR's bytes) puts element 0 in the most
//! significant bit: filter element `8k + j` is read from bit `j` of byte
//! `k`. We read them as the plugin does. (With input channels that are not
//! a multiple of 8 the plugin's blocked filter layout reads bits outside
//! the filters; its results are then not reproducible.)

use ir::ElementType;
use rayon::prelude::*;
use shape_infer::window::{self, WindowAttrs, WindowKind};

use super::convolution::{narrow, widen};
use super::{Call, KResult};
use crate::error::KernelError;
use crate::tensor::Tensor;

/// What a tap in the padding holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Padding {
    /// Not counted (`pad_value` 0).
    Skipped,
    /// The bit 0 or 1.
    Bit(u8),
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (x, w) = (call.input(0)?, call.input(1)?);
    let out_shape = call.out_shape(0)?;
    let (&[_, channels, height, width], &[out_channels, w_channels, kh, kw]) =
        (x.shape.as_slice(), w.shape.as_slice())
    else {
        return Err("internal: BinaryConvolution data or filters not 4-D".into());
    };
    let &[_, _, out_h, out_w] = out_shape.as_slice() else {
        return Err("internal: BinaryConvolution output not 4-D".into());
    };
    if w.element_type != ElementType::U1 {
        return Err(format!("the filters are {}, not u1", w.element_type).into());
    }
    let filter_count = out_channels * w_channels * kh * kw;
    if w_channels != channels || w.bytes().len() * 8 < filter_count || out_shape[1] != out_channels
    {
        return Err(format!(
            "internal: data {:?}, filters {:?} and output {out_shape:?} do not agree",
            x.shape, w.shape
        )
        .into());
    }
    let attrs = WindowAttrs::read(call.node, 2, WindowKind::Convolution)
        .map_err(|e| KernelError::from(e.to_string()))?;
    let pads = window::concrete_forward_pads(&attrs, &x.shape[2..], &w.shape[2..])
        .map_err(|e| KernelError::from(e.to_string()))?;
    let padding = match call.attr_f64("pad_value")?.unwrap_or(0.0) {
        0.0 => Padding::Skipped,
        1.0 => Padding::Bit(1),
        _ => Padding::Bit(0),
    };
    let data: Vec<u8> = widen(x)?.iter().map(|&v| u8::from(v > 0.0)).collect();
    let bytes = w.bytes();
    let filter: Vec<u8> = (0..filter_count)
        .map(|i| (bytes[i / 8] >> (i % 8)) & 1)
        .collect();
    let (stride, dilation) = (&attrs.strides, &attrs.dilations);
    let plane = height * width;
    let taps = channels * kh * kw;
    let mut out = vec![0f32; out_shape.iter().product()];
    out.par_chunks_mut(out_h * out_w)
        .enumerate()
        .for_each(|(image_channel, dst)| {
            let (image, oc) = (image_channel / out_channels, image_channel % out_channels);
            let weights = &filter[oc * taps..][..taps];
            let image = &data[image * channels * plane..][..channels * plane];
            for (p, value) in dst.iter_mut().enumerate() {
                let (oh, ow) = ((p / out_w) as i64, (p % out_w) as i64);
                let (mut counted, mut differ) = (0i64, 0i64);
                for ky in 0..kh {
                    let ih = oh * stride[0] - pads[0].0 + ky as i64 * dilation[0];
                    for kx in 0..kw {
                        let iw = ow * stride[1] - pads[1].0 + kx as i64 * dilation[1];
                        let inside =
                            (0..height as i64).contains(&ih) && (0..width as i64).contains(&iw);
                        if !inside && padding == Padding::Skipped {
                            continue;
                        }
                        for c in 0..channels {
                            let bit = match padding {
                                Padding::Bit(b) if !inside => b,
                                _ => image[c * plane + ih as usize * width + iw as usize],
                            };
                            counted += 1;
                            differ += i64::from(bit ^ weights[(c * kh + ky) * kw + kx]);
                        }
                    }
                }
                *value = (counted - 2 * differ) as f32;
            }
        });
    Ok(vec![narrow(x.element_type, out_shape, &out)?])
}
