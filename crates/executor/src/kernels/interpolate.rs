//! Interpolate-1/-4/-11 as OpenVINO's reference computes it: the data padded
//! with zeros, then resized one axis at a time. Every mode's weights are a
//! product of one-axis weights, so a pass per axis (each output position a
//! list of input taps and weights along that axis) gives the same values as
//! OpenVINO's all-axes loops. Coordinates and tap weights are computed in
//! f32 with OpenVINO's formulas (a nearest pixel depends on f32 rounding);
//! the Pillow filters, like Pillow, in f64. Nearest copies elements of any
//! type; the other modes compute in f32 and round integers to nearest,
//! saturated, as OpenVINO's CPU plugin does.
//!
//! Attributes, ports and axes are read by the shape rule's module
//! ([`shape_infer::ops::interpolate`]); the output shape comes from
//! inference.

use ir::ElementType;
use shape_infer::ops::interpolate::{
    check_axes, Attrs, CoordinateTransform, Mode, NearestMode, ShapeCalculation,
};
use shape_infer::registry::OpsetFamily;

use super::convolution::{narrow, widen};
use super::{copy_slices, to_f64s, Call, KResult};
use crate::tensor::{byte_size, element_width, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let opset = OpsetFamily::parse(&call.node.op_type.version).map_or(1, |(_, n)| n);
    let version = match opset {
        0..=3 => 1,
        4..=10 => 4,
        _ => 11,
    };
    let x = call.input(0)?;
    let rank = x.shape.len();
    let attrs = Attrs::read(call.node, version, rank).map_err(|e| e.to_string())?;
    let ports = Attrs::ports(version, call.inputs.len());
    let out_shape = call.out_shape(0)?;
    if out_shape.len() != rank {
        return Err("internal: the output rank differs from the data's".into());
    }

    let axes = match (&attrs.v1_axes, ports.axes) {
        (Some(axes), _) => axes.clone(),
        (None, Some(port)) => call.input(port)?.to_i64s()?,
        (None, None) => (0..rank as i64).collect(),
    };
    let axes = check_axes(&axes, rank).map_err(|e| e.to_string())?;
    let padded: Vec<usize> = (0..rank)
        .map(|a| x.shape[a] + attrs.pads_begin[a] + attrs.pads_end[a])
        .collect();
    // Each axis's scale (the last entry of a repeated axis wins).
    let mut scales: Vec<Option<f32>> = vec![None; rank];
    let given = match attrs.shape_calculation {
        ShapeCalculation::Scales => {
            let port = ports.scales.ok_or("internal: no scales input")?;
            Some(to_f64s(call.input(port)?)?)
        }
        ShapeCalculation::Sizes => None,
    };
    for (i, &axis) in axes.iter().enumerate() {
        scales[axis] = Some(match &given {
            Some(values) => *values.get(i).ok_or("internal: fewer scales than axes")? as f32,
            None => out_shape[axis] as f32 / padded[axis] as f32,
        });
    }
    for a in 0..rank {
        if scales[a].is_none() && out_shape[a] != padded[a] {
            return Err(format!(
                "axis {a} is not resized but its padded length {} differs from the output's {}",
                padded[a], out_shape[a]
            )
            .into());
        }
    }

    let data = pad(x, &attrs)?;
    if out_shape.contains(&0) || data.shape.contains(&0) {
        return Ok(vec![Tensor::from_bytes(
            x.element_type,
            out_shape.clone(),
            vec![0; byte_size(x.element_type, &out_shape)?],
        )?]);
    }
    // OpenVINO's CPU plugin widens the linear filter for antialias only
    // on 5-D data (below, it runs `linear` without it; the shape rule
    // warns), by each axis's scale whether it shrinks or not.
    let antialias = attrs.antialias && rank >= 5;
    // Passes from the last listed axis back (Pillow: width, then height).
    let mut order: Vec<usize> = Vec::new();
    for &axis in axes.iter().rev() {
        if !order.contains(&axis) {
            order.push(axis);
        }
    }
    let plans: Vec<(usize, Taps)> = order
        .into_iter()
        .filter_map(|axis| {
            let scale = scales[axis]?;
            let geometry = Axis {
                input: padded[axis],
                output: out_shape[axis],
                scale,
            };
            taps(&attrs, geometry, antialias).map(|t| (axis, t))
        })
        .collect();

    if attrs.mode == Mode::Nearest {
        let mut t = data;
        for (axis, taps) in &plans {
            t = gather_pass(&t, *axis, taps)?;
        }
        return Ok(vec![t]);
    }
    let et = x.element_type;
    let (mut values, mut shape) = (widen(&data)?, data.shape.clone());
    for (axis, taps) in &plans {
        values = weighted_pass(&values, &mut shape, *axis, taps);
    }
    if shape != out_shape {
        return Err("internal: the passes did not reach the output shape".into());
    }
    Ok(vec![from_f32s(et, shape, &values)?])
}

/// One axis of the resize: its padded input length, output length and scale.
#[derive(Debug, Clone, Copy)]
struct Axis {
    input: usize,
    output: usize,
    scale: f32,
}

/// For each output position along an axis, its input positions and weights.
type Taps = Vec<Vec<(usize, f32)>>;

/// The taps of one axis; `None` when the axis is left as it is.
fn taps(attrs: &Attrs, axis: Axis, antialias: bool) -> Option<Taps> {
    let identity = axis.input == axis.output;
    match attrs.mode {
        Mode::Linear if identity && axis.scale == 1.0 => None,
        Mode::Linear => Some(linear_taps(attrs, axis, antialias)),
        _ if identity => None,
        Mode::Nearest => Some(nearest_taps(attrs, axis)),
        Mode::LinearOnnx => Some(linear_onnx_taps(attrs, axis)),
        Mode::Cubic => Some(cubic_taps(attrs, axis)),
        Mode::BilinearPillow => Some(pillow_taps(
            axis,
            1.0,
            |x, _| {
                let x = x.abs();
                if x < 1.0 {
                    1.0 - x
                } else {
                    0.0
                }
            },
            0.0,
        )),
        Mode::BicubicPillow => Some(pillow_taps(
            axis,
            2.0,
            |x, a| {
                let x = x.abs();
                if x < 1.0 {
                    ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
                } else if x < 2.0 {
                    (((x - 5.0) * x + 8.0) * x - 4.0) * a
                } else {
                    0.0
                }
            },
            // The CPU plugin's bicubic Pillow filter is Pillow's, `a = -0.5`,
            // whatever `cube_coeff` says (the shape rule warns).
            -0.5,
        )),
    }
}

/// OpenVINO's source coordinate of output coordinate `x`, in f32.
fn source_coordinate(mode: CoordinateTransform, x: f32, axis: Axis) -> f32 {
    let (scale, resized, original) = (axis.scale, axis.output as f32, axis.input as f32);
    if scale == 1.0 || axis.output == axis.input {
        return x;
    }
    match mode {
        CoordinateTransform::HalfPixel => (x + 0.5) / scale - 0.5,
        CoordinateTransform::PytorchHalfPixel => {
            if resized > 1.0 {
                (x + 0.5) / scale - 0.5
            } else {
                0.0
            }
        }
        CoordinateTransform::Asymmetric => x / scale,
        CoordinateTransform::TfHalfPixelForNn => (x + 0.5) / scale,
        CoordinateTransform::AlignCorners => {
            if axis.output == 1 {
                0.0
            } else {
                x * (original - 1.0) / (resized - 1.0)
            }
        }
    }
}

fn clamp_index(i: i64, len: usize) -> usize {
    i.clamp(0, len as i64 - 1) as usize
}

fn nearest_taps(attrs: &Attrs, axis: Axis) -> Taps {
    let downsample = axis.scale < 1.0;
    (0..axis.output)
        .map(|o| {
            let x = source_coordinate(attrs.coordinate_transform, o as f32, axis);
            // `as i64` truncates, as OpenVINO's `static_cast<int64_t>`.
            let pixel = match attrs.nearest_mode {
                NearestMode::RoundPreferFloor => {
                    if x == (x as i64) as f32 + 0.5 {
                        x.floor() as i64
                    } else {
                        x.round() as i64
                    }
                }
                NearestMode::RoundPreferCeil => x.round() as i64,
                NearestMode::Floor => x.floor() as i64,
                NearestMode::Ceil => x.ceil() as i64,
                NearestMode::Simple if downsample => x.ceil() as i64,
                NearestMode::Simple => x as i64,
            };
            vec![(clamp_index(pixel, axis.input), 1.0)]
        })
        .collect()
}

fn linear_onnx_taps(attrs: &Attrs, axis: Axis) -> Taps {
    let last = axis.input as f32 - 1.0;
    (0..axis.output)
        .map(|o| {
            let x = source_coordinate(attrs.coordinate_transform, o as f32, axis);
            let x = x.min(last).max(0.0);
            let i1 = (x as i64).min(axis.input as i64 - 1);
            let i2 = (i1 + 1).min(axis.input as i64 - 1);
            let (d1, d2) = if i1 == i2 {
                (0.5, 0.5)
            } else {
                ((x - i1 as f32).abs(), (x - i2 as f32).abs())
            };
            vec![(i1 as usize, d2), (i2 as usize, d1)]
        })
        .collect()
}

fn cubic_taps(attrs: &Attrs, axis: Axis) -> Taps {
    let a = attrs.cube_coeff;
    (0..axis.output)
        .map(|o| {
            let x = source_coordinate(attrs.coordinate_transform, o as f32, axis);
            let base = x.floor();
            let s = (x - base).abs();
            let coefficients = [
                ((a * (s + 1.0) - 5.0 * a) * (s + 1.0) + 8.0 * a) * (s + 1.0) - 4.0 * a,
                ((a + 2.0) * s - (a + 3.0)) * s * s + 1.0,
                ((a + 2.0) * (1.0 - s) - (a + 3.0)) * (1.0 - s) * (1.0 - s) + 1.0,
                ((a * (2.0 - s) - 5.0 * a) * (2.0 - s) + 8.0 * a) * (2.0 - s) - 4.0 * a,
            ];
            let base = base as i64;
            (0..4)
                .map(|k| {
                    (
                        clamp_index(base + k - 1, axis.input),
                        coefficients[k as usize],
                    )
                })
                .collect()
        })
        .collect()
}

/// Interpolate-4's `linear`: a triangle filter over `2r + 1` pixels around
/// the rounded source coordinate, stretched by the scale with `antialias`,
/// normalized by its sum (zero when nothing is in range).
fn linear_taps(attrs: &Attrs, axis: Axis, antialias: bool) -> Taps {
    let a = if antialias { axis.scale } else { 1.0 };
    let r = if axis.scale > 1.0 {
        2
    } else {
        (2.0 / a).ceil() as i64
    };
    (0..axis.output)
        .map(|o| {
            let x = source_coordinate(attrs.coordinate_transform, o as f32, axis);
            let centre = x.round() as i64;
            let mut taps: Vec<(usize, f32)> = (centre - r..=centre + r)
                .filter(|&k| (0..axis.input as i64).contains(&k))
                .map(|k| (k as usize, (1.0 - (a * (x - k as f32)).abs()).max(0.0)))
                .collect();
            let sum: f32 = taps.iter().map(|t| t.1).sum();
            for t in &mut taps {
                t.1 = if sum == 0.0 { 0.0 } else { t.1 / sum };
            }
            taps
        })
        .collect()
}

/// Pillow's resampling coefficients (`precompute_coeffs` of its
/// `Resample.c`), in f64 as there.
fn pillow_taps(axis: Axis, support: f64, filter: fn(f64, f64) -> f64, coeff: f64) -> Taps {
    let scale = axis.input as f64 / axis.output as f64;
    let filter_scale = scale.max(1.0);
    let support = support * filter_scale;
    (0..axis.output)
        .map(|o| {
            let centre = (o as f64 + 0.5) * scale;
            // `(int)` truncates toward zero, as in Pillow.
            let lo = ((centre - support + 0.5) as i64).max(0);
            let hi = ((centre + support + 0.5) as i64).min(axis.input as i64);
            let weights: Vec<f64> = (lo..hi)
                .map(|x| filter((x as f64 - centre + 0.5) / filter_scale, coeff))
                .collect();
            let sum: f64 = weights.iter().sum();
            (lo..hi)
                .zip(weights)
                .map(|(x, w)| {
                    let w = if sum != 0.0 { w / sum } else { w };
                    (x as usize, w as f32)
                })
                .collect()
        })
        .collect()
}

/// `x` with its pads (zeros) around it; `x` itself when there are none.
fn pad(x: &Tensor, attrs: &Attrs) -> KResult<Tensor> {
    if attrs
        .pads_begin
        .iter()
        .chain(&attrs.pads_end)
        .all(|&p| p == 0)
    {
        return Ok(x.clone());
    }
    let shape: Vec<usize> = (0..x.shape.len())
        .map(|a| x.shape[a] + attrs.pads_begin[a] + attrs.pads_end[a])
        .collect();
    let as_i64 = |p: &[usize]| p.iter().map(|&v| v as i64).collect::<Vec<_>>();
    let zero = vec![0u8; element_width(x.element_type)?];
    super::pad::padded(
        x,
        &as_i64(&attrs.pads_begin),
        &as_i64(&attrs.pads_end),
        super::pad::Mode::Constant,
        &zero,
        shape,
    )
}

/// The elements of `t` along `axis` picked by single taps (nearest): whole
/// runs of the axes after it copied as raw bytes.
fn gather_pass(t: &Tensor, axis: usize, taps: &Taps) -> KResult<Tensor> {
    let inner: usize = t.shape[axis + 1..].iter().product();
    let (input, output) = (t.shape[axis], taps.len());
    let mut shape = t.shape.clone();
    shape[axis] = output;
    let picks: Vec<usize> = taps.iter().map(|t| t.first().map_or(0, |p| p.0)).collect();
    copy_slices(t, shape, inner, |r| {
        let (outer, o) = (r / output, r % output);
        (outer * input + picks[o]) * inner
    })
}

/// One pass of weighted taps along `axis` over f32 values of `shape`
/// (updated to the pass's output shape).
fn weighted_pass(values: &[f32], shape: &mut [usize], axis: usize, taps: &Taps) -> Vec<f32> {
    let inner: usize = shape[axis + 1..].iter().product();
    let outer: usize = shape[..axis].iter().product();
    let (input, output) = (shape[axis], taps.len());
    let mut out = vec![0.0f32; outer * output * inner];
    for b in 0..outer {
        let src = &values[b * input * inner..(b + 1) * input * inner];
        let dst = &mut out[b * output * inner..(b + 1) * output * inner];
        for (o, row) in dst.chunks_exact_mut(inner).enumerate() {
            for &(i, w) in &taps[o] {
                let from = &src[i * inner..(i + 1) * inner];
                for (d, &s) in row.iter_mut().zip(from) {
                    *d += w * s;
                }
            }
        }
    }
    shape[axis] = output;
    out
}

fn from_f32s(et: ElementType, shape: Vec<usize>, values: &[f32]) -> KResult<Tensor> {
    if et.is_real() {
        return narrow(et, shape, values);
    }
    // Integers: rounded to nearest (ties to even) and saturated by the
    // conversion, as the CPU plugin stores them.
    let rounded: Vec<f32> = values.iter().map(|v| v.round_ties_even()).collect();
    narrow(et, shape, &rounded)
}
