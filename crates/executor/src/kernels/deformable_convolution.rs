//! DeformableConvolution-1 and -8.
//!
//! Each kernel tap of each output position reads the input at its regular
//! place moved by a learned `(dy, dx)` offset, bilinearly interpolated, and
//! (v8) scaled by the mask. The sampling follows OpenVINO's CPU plugin
//! (`def_conv.cpp`, `prepareSamplingWeights`): a sample point outside the
//! input contributes nothing; inside, its four neighbours are clamped to the
//! input (`bilinear_interpolation_pad` false) or read as zeros past the
//! border (true, where a point may also lie within one pixel outside).
//!
//! Per (image, group) the sampled values form a `[C_in/G·KH·KW, OH·OW]`
//! matrix (a deformable im2col) multiplied by the group's filters with the
//! project's GEMM, as Convolution does. Computed in f32 (f16 and bf16 widen
//! to it), as the CPU plugin does.

use rayon::prelude::*;
use shape_infer::window::{self, WindowAttrs, WindowKind};

use super::convolution::{narrow, widen};
use super::{Call, KResult};
use crate::error::KernelError;
use crate::gemm::{self, Mat};
use crate::tensor::{check_scratch, Tensor};

/// The geometry of one deformable convolution.
struct Geometry {
    batch: usize,
    groups: usize,
    deformable_groups: usize,
    channels: usize,
    /// Input and output `(height, width)`.
    input: (usize, usize),
    output: (usize, usize),
    /// Kernel `(height, width)`.
    kernel: (usize, usize),
    stride: (usize, usize),
    dilation: (usize, usize),
    /// The begin pads (top, left).
    pad: (i64, i64),
    bilinear_pad: bool,
}

impl Geometry {
    fn taps(&self) -> usize {
        self.kernel.0 * self.kernel.1
    }

    fn positions(&self) -> usize {
        self.output.0 * self.output.1
    }
}

/// The four neighbours of one sample point (flat indices into a channel
/// plane) and their weights, mask included; all weights zero for a point
/// that contributes nothing.
#[derive(Clone, Copy, Default)]
struct Sample {
    index: [usize; 4],
    weight: [f32; 4],
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (x, offsets, w) = (call.input(0)?, call.input(1)?, call.input(2)?);
    let mask = call.inputs.get(3);
    let out_shape = call.out_shape(0)?;
    let [x_shape, o_shape, w_shape] = [&x.shape, &offsets.shape, &w.shape];
    if x_shape.len() != 4 || o_shape.len() != 4 || w_shape.len() != 4 || out_shape.len() != 4 {
        return Err("internal: a DeformableConvolution operand is not 4-D".into());
    }
    let groups = count_attr(call, "group")?;
    let deformable_groups = count_attr(call, "deformable_group")?;
    let attrs = WindowAttrs::read(call.node, 2, WindowKind::Convolution)
        .map_err(|e| KernelError::from(e.to_string()))?;
    let pads = window::concrete_forward_pads(&attrs, &x_shape[2..], &w_shape[2..])
        .map_err(|e| KernelError::from(e.to_string()))?;
    let size = |v: i64| usize::try_from(v).map_err(|_| KernelError::from("a negative stride"));
    let g = Geometry {
        batch: x_shape[0],
        groups,
        deformable_groups,
        channels: x_shape[1],
        input: (x_shape[2], x_shape[3]),
        output: (out_shape[2], out_shape[3]),
        kernel: (w_shape[2], w_shape[3]),
        stride: (size(attrs.strides[0])?, size(attrs.strides[1])?),
        dilation: (size(attrs.dilations[0])?, size(attrs.dilations[1])?),
        pad: (pads[0].0, pads[1].0),
        bilinear_pad: call.attr_bool("bilinear_interpolation_pad", false),
    };
    let taps = g.taps();
    let expected_offsets = [
        g.batch,
        2 * deformable_groups * taps,
        g.output.0,
        g.output.1,
    ];
    let mask_ok =
        mask.is_none_or(|m| m.shape == [g.batch, deformable_groups * taps, g.output.0, g.output.1]);
    if !g.channels.is_multiple_of(groups)
        || !g.channels.is_multiple_of(deformable_groups)
        || !w_shape[0].is_multiple_of(groups)
        || w_shape[1] * groups != g.channels
        || out_shape[1] != w_shape[0]
        || o_shape.as_slice() != expected_offsets
        || !mask_ok
    {
        return Err(format!(
            "internal: data {x_shape:?}, offsets {o_shape:?}, filters {w_shape:?} and output {out_shape:?} do not agree"
        )
        .into());
    }
    let x_values = widen(x)?;
    let w_values = widen(w)?;
    let samples = sampling(
        &g,
        &widen(offsets)?,
        mask.map(widen).transpose()?.as_deref(),
    )?;
    let mut out = vec![0f32; out_shape.iter().product()];
    convolve(&g, &x_values, &w_values, &samples, &mut out)?;
    Ok(vec![narrow(x.element_type, out_shape, &out)?])
}

/// A positive count attribute (`group`, `deformable_group`), 1 when absent.
fn count_attr(call: &Call<'_>, key: &str) -> KResult<usize> {
    let value = call.attr_i64(key)?.unwrap_or(1);
    usize::try_from(value)
        .ok()
        .filter(|&v| v > 0)
        .ok_or_else(|| format!("`{key}` {value} is not positive").into())
}

/// The sample of every (image, deformable group, tap, output position), in
/// that order.
fn sampling(g: &Geometry, offsets: &[f32], mask: Option<&[f32]>) -> KResult<Vec<Sample>> {
    let (taps, positions) = (g.taps(), g.positions());
    let count = g.batch * g.deformable_groups * taps * positions;
    check_scratch(
        count,
        std::mem::size_of::<Sample>(),
        "the sampling table of a DeformableConvolution",
    )?;
    let mut samples = vec![Sample::default(); count];
    samples
        .par_chunks_mut(taps * positions)
        .enumerate()
        .for_each(|(image_group, block)| {
            let base = image_group * 2 * taps * positions;
            let mask_base = image_group * taps * positions;
            for (tap, row) in block.chunks_mut(positions).enumerate() {
                let (kh, kw) = (tap / g.kernel.1, tap % g.kernel.1);
                let dy = &offsets[base + 2 * tap * positions..][..positions];
                let dx = &offsets[base + (2 * tap + 1) * positions..][..positions];
                for (p, sample) in row.iter_mut().enumerate() {
                    let (oh, ow) = (p / g.output.1, p % g.output.1);
                    // The tap's regular place, as the plugin computes it:
                    // integer, then the float offset added.
                    let h = (oh * g.stride.0) as i64 - g.pad.0 + (kh * g.dilation.0) as i64;
                    let w = (ow * g.stride.1) as i64 - g.pad.1 + (kw * g.dilation.1) as i64;
                    let scale = mask.map_or(1.0, |m| m[mask_base + tap * positions + p]);
                    *sample = bilinear(g, h as f32 + dy[p], w as f32 + dx[p], scale);
                }
            }
        });
    Ok(samples)
}

/// The neighbours and weights of the point `(y, x)` scaled by `scale`.
fn bilinear(g: &Geometry, y: f32, x: f32, scale: f32) -> Sample {
    let (height, width) = (g.input.0 as i64, g.input.1 as i64);
    let inside = if g.bilinear_pad {
        // Truncated toward zero, as the plugin's int cast: (-1, size).
        (0..width).contains(&(x as i64)) && (0..height).contains(&(y as i64))
    } else {
        x >= 0.0 && x < width as f32 && y >= 0.0 && y < height as f32
    };
    if !inside {
        return Sample::default();
    }
    let axis = |v: f32, size: i64| {
        let floor = v.floor() as i64;
        let (low, high) = if g.bilinear_pad {
            (floor, floor + 1)
        } else {
            (floor.max(0), (v.ceil() as i64).min(size - 1))
        };
        let frac = v - low as f32;
        let low_weight = if low >= 0 { 1.0 - frac } else { 0.0 };
        let high_weight = if high < size { frac } else { 0.0 };
        let clamp = |i: i64| i.clamp(0, size - 1) as usize;
        ((clamp(low), low_weight), (clamp(high), high_weight))
    };
    let ((y0, wy0), (y1, wy1)) = axis(y, height);
    let ((x0, wx0), (x1, wx1)) = axis(x, width);
    let row = g.input.1;
    Sample {
        index: [y1 * row + x1, y1 * row + x0, y0 * row + x1, y0 * row + x0],
        weight: [
            wy1 * wx1 * scale,
            wy1 * wx0 * scale,
            wy0 * wx1 * scale,
            wy0 * wx0 * scale,
        ],
    }
}

/// The output: per (image, group) the deformable im2col matrix times the
/// group's filters.
fn convolve(
    g: &Geometry,
    x: &[f32],
    w: &[f32],
    samples: &[Sample],
    out: &mut [f32],
) -> KResult<()> {
    let (taps, positions) = (g.taps(), g.positions());
    let plane = g.input.0 * g.input.1;
    let cin = g.channels / g.groups;
    let cout = w.len() / (cin * taps).max(1) / g.groups;
    let per_deformable_group = g.channels / g.deformable_groups;
    let depth = cin * taps;
    check_scratch(
        depth * positions,
        4,
        "the sampled matrix of a DeformableConvolution",
    )?;
    let mut col = vec![0f32; depth * positions];
    for image in 0..g.batch {
        for group in 0..g.groups {
            col.par_chunks_mut(positions)
                .enumerate()
                .for_each(|(row, dst)| {
                    let (c, tap) = (group * cin + row / taps, row % taps);
                    let source = &x[(image * g.channels + c) * plane..][..plane];
                    let dg = c / per_deformable_group;
                    let table = &samples
                        [((image * g.deformable_groups + dg) * taps + tap) * positions..]
                        [..positions];
                    for (value, s) in dst.iter_mut().zip(table) {
                        *value = s
                            .index
                            .iter()
                            .zip(&s.weight)
                            .map(|(&i, &weight)| source[i] * weight)
                            .sum();
                    }
                });
            let w_g = &w[group * cout * depth..][..cout * depth];
            let out_g =
                &mut out[(image * g.groups + group) * cout * positions..][..cout * positions];
            gemm::matmul(
                out_g,
                positions,
                (cout, depth, positions),
                Mat::rows(w_g, depth),
                Mat::rows(&col, positions),
                false,
            )?;
        }
    }
    Ok(())
}
