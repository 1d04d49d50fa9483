//! Convolution-1 and GroupConvolution-1.
//!
//! Each (image, group) is one GEMM: the filters `[C_out/G, C_in/G·K]` times
//! the im2col matrix `[C_in/G·K, O]` of the image's input windows, built in
//! tiles of output positions so the scratch stays a few MiB. A 1×1
//! convolution with stride 1 and no pads needs no im2col (the input is the
//! matrix); a depthwise convolution (one input and one output channel per
//! group) runs a direct loop per channel plane, in parallel. The pads come
//! from `shape_infer::window`, the output shape from inference.
//!
//! f32 and f64 compute in their own type (the GEMM accumulates in it, as
//! OpenVINO's CPU plugin does in f32); f16 and bf16 compute in f32.

use half::{bf16, f16};
use ir::ElementType;
use rayon::prelude::*;
use shape_infer::window::{self, WindowAttrs, WindowKind};

use super::{unsupported, Call, KResult};
use crate::error::KernelError;
use crate::gemm::{self, Mat, Scalar};
use crate::tensor::{byte_size, check_scratch, Element, Tensor};

/// Convolution-1: filters `[C_out, C_in, K…]`.
pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    forward(call, false)
}

/// GroupConvolution-1: filters `[G, C_out/G, C_in/G, K…]`.
pub(crate) fn run_group(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    forward(call, true)
}

/// Up to three spatial axes, leading axes of size 1 added for 1-D and 2-D.
pub(crate) type Axes3 = [usize; 3];

/// The geometry of one convolution (forward or transposed), spatial axes
/// padded to three.
#[derive(Debug, Clone)]
pub(crate) struct Geometry {
    pub batch: usize,
    pub groups: usize,
    /// Channels per group of the data input.
    pub cin: usize,
    /// Channels per group of the output.
    pub cout: usize,
    pub input: Axes3,
    pub kernel: Axes3,
    pub output: Axes3,
    pub stride: Axes3,
    pub dilation: Axes3,
    pub pad_begin: [i64; 3],
}

impl Geometry {
    pub fn input_size(&self) -> usize {
        self.input.iter().product()
    }
    pub fn output_size(&self) -> usize {
        self.output.iter().product()
    }
    pub fn kernel_size(&self) -> usize {
        self.kernel.iter().product()
    }
}

/// `values` (one per spatial axis) padded at the front with `fill` to three.
pub(crate) fn pad3<T: Copy>(values: &[T], fill: T) -> KResult<[T; 3]> {
    if values.is_empty() || values.len() > 3 {
        return Err(format!("{} spatial dims (1 to 3 are supported)", values.len()).into());
    }
    let mut out = [fill; 3];
    out[3 - values.len()..].copy_from_slice(values);
    Ok(out)
}

/// Positive attribute values as sizes.
pub(crate) fn sizes(values: &[i64]) -> KResult<Vec<usize>> {
    values
        .iter()
        .map(|&v| usize::try_from(v).map_err(|_| KernelError::from(format!("{v} is not a size"))))
        .collect()
}

fn forward(call: &Call<'_>, grouped: bool) -> KResult<Vec<Tensor>> {
    let (x, w) = (call.input(0)?, call.input(1)?);
    let out_shape = call.out_shape(0)?;
    if x.element_type != w.element_type {
        return Err(format!("data is {}, filters {}", x.element_type, w.element_type).into());
    }
    let lead = if grouped { 3 } else { 2 };
    let spatial = x.shape.len().saturating_sub(2);
    if w.shape.len() != spatial + lead || out_shape.len() != spatial + 2 {
        return Err(format!(
            "internal: data {:?}, filters {:?} and output {out_shape:?} do not agree",
            x.shape, w.shape
        )
        .into());
    }
    let (groups, cout, cin) = if grouped {
        (w.shape[0], w.shape[1], w.shape[2])
    } else {
        (1, w.shape[0], w.shape[1])
    };
    if x.shape[1] != groups * cin || out_shape[1] != groups * cout {
        return Err(format!(
            "internal: channels of {:?} and filters {:?} differ",
            x.shape, w.shape
        )
        .into());
    }
    let attrs = WindowAttrs::read(call.node, spatial, WindowKind::Convolution)
        .map_err(|e| e.to_string())?;
    let kernel = &w.shape[lead..];
    let pads =
        window::concrete_forward_pads(&attrs, &x.shape[2..], kernel).map_err(|e| e.to_string())?;
    let pad_begin: Vec<i64> = pads.iter().map(|p| p.0).collect();
    let geometry = Geometry {
        batch: x.shape[0],
        groups,
        cin,
        cout,
        input: pad3(&x.shape[2..], 1)?,
        kernel: pad3(kernel, 1)?,
        output: pad3(&out_shape[2..], 1)?,
        stride: pad3(&sizes(&attrs.strides)?, 1)?,
        dilation: pad3(&sizes(&attrs.dilations)?, 1)?,
        pad_begin: pad3(&pad_begin, 0)?,
    };
    byte_size(x.element_type, &out_shape)?;
    let et = x.element_type;
    let out = match et {
        ElementType::F32 => Tensor::from_vec(
            out_shape,
            compute(&x.to_vec::<f32>()?, &w.to_vec::<f32>()?, &geometry)?,
        )?,
        ElementType::F64 => Tensor::from_vec(
            out_shape,
            compute(&x.to_vec::<f64>()?, &w.to_vec::<f64>()?, &geometry)?,
        )?,
        ElementType::F16 | ElementType::BF16 => {
            let out = compute(&widen(x)?, &widen(w)?, &geometry)?;
            narrow(et, out_shape, &out)?
        }
        other => return Err(unsupported("Convolution", other)),
    };
    Ok(vec![out])
}

/// The elements of an f16 or bf16 tensor as f32.
pub(crate) fn widen(t: &Tensor) -> KResult<Vec<f32>> {
    Ok(match t.element_type {
        ElementType::F16 => t.to_vec::<f16>()?.into_iter().map(f32::from).collect(),
        ElementType::BF16 => t.to_vec::<bf16>()?.into_iter().map(f32::from).collect(),
        _ => t.to_vec::<f32>()?,
    })
}

/// f32 results as a tensor of `et` (f16 or bf16), rounded to nearest.
pub(crate) fn narrow(et: ElementType, shape: Vec<usize>, values: &[f32]) -> KResult<Tensor> {
    Ok(match et {
        ElementType::F16 => {
            Tensor::from_vec(shape, values.iter().map(|&v| f16::from_f32(v)).collect())?
        }
        ElementType::BF16 => {
            Tensor::from_vec(shape, values.iter().map(|&v| bf16::from_f32(v)).collect())?
        }
        _ => Tensor::from_vec(shape, values.to_vec())?,
    })
}

/// The largest im2col tile, in elements (4 MiB of f32).
const TILE_ELEMENTS: usize = 1 << 20;

/// The convolution of `x` (`[N, G·cin, input…]`) with `w` (`[G, cout, cin,
/// kernel…]` in memory, grouped or not) as `[N, G·cout, output…]`.
fn compute<T: Scalar + Element>(x: &[T], w: &[T], g: &Geometry) -> KResult<Vec<T>> {
    let (p_in, p_out, k_size) = (g.input_size(), g.output_size(), g.kernel_size());
    let depth = g.cin * k_size;
    let planes = g.batch * g.groups * g.cout;
    let mut out = vec![T::ZERO; planes * p_out];
    if x.len() != g.batch * g.groups * g.cin * p_in || w.len() != g.groups * g.cout * depth {
        return Err("internal: the tensors do not hold the convolution's geometry".into());
    }
    if p_out == 0 || planes == 0 {
        return Ok(out);
    }
    if g.cin == 1 && g.cout == 1 {
        depthwise(x, w, g, &mut out);
        return Ok(out);
    }
    let pointwise =
        k_size == 1 && g.stride == [1; 3] && g.pad_begin == [0; 3] && g.input == g.output;
    let tile = (TILE_ELEMENTS / depth.max(1)).clamp(1, p_out);
    let mut col = Vec::new();
    if !pointwise {
        check_scratch(depth * tile, T::SIZE, "the im2col tile of a Convolution")?;
        col = vec![T::ZERO; depth * tile];
    }
    for image in 0..g.batch {
        for group in 0..g.groups {
            let x_g = &x[(image * g.groups + group) * g.cin * p_in..][..g.cin * p_in];
            let w_g = &w[group * g.cout * depth..][..g.cout * depth];
            let out_g = &mut out[(image * g.groups + group) * g.cout * p_out..][..g.cout * p_out];
            if pointwise {
                gemm::matmul(
                    out_g,
                    p_out,
                    (g.cout, g.cin, p_out),
                    Mat::rows(w_g, depth),
                    Mat::rows(x_g, p_in),
                    false,
                )?;
                continue;
            }
            for first in (0..p_out).step_by(tile) {
                let len = tile.min(p_out - first);
                let col = &mut col[..depth * len];
                im2col(x_g, g, first, len, col);
                gemm::matmul(
                    &mut out_g[first..],
                    p_out,
                    (g.cout, depth, len),
                    Mat::rows(w_g, depth),
                    Mat::rows(col, len),
                    false,
                )?;
            }
        }
    }
    Ok(out)
}

/// Fills `col` (`cin·K` rows of `len`) with the input values under each
/// window position `first..first + len` (zero in the padding): row
/// `(c, kd, kh, kw)`, column `p` is the input element that kernel tap meets
/// at output position `p`.
fn im2col<T: Scalar>(x: &[T], g: &Geometry, first: usize, len: usize, col: &mut [T]) {
    let [_, oh, ow] = g.output;
    let [id, ih, iw] = g.input;
    let [_, kh, kw] = g.kernel;
    let k_size = g.kernel_size();
    let p_in = g.input_size();
    let fill_row = |row: usize, dst: &mut [T]| {
        let (c, tap) = (row / k_size, row % k_size);
        let (tz, ty, tx) = (tap / (kh * kw), (tap / kw) % kh, tap % kw);
        let plane = &x[c * p_in..(c + 1) * p_in];
        let offset = |o: usize, axis: usize, t: usize| {
            (o * g.stride[axis] + t * g.dilation[axis]) as i64 - g.pad_begin[axis]
        };
        let (mut z, mut y, mut xo) = (first / (oh * ow), (first / ow) % oh, first % ow);
        for value in dst.iter_mut() {
            let (iz, iy, ix) = (offset(z, 0, tz), offset(y, 1, ty), offset(xo, 2, tx));
            *value = if (0..id as i64).contains(&iz)
                && (0..ih as i64).contains(&iy)
                && (0..iw as i64).contains(&ix)
            {
                plane[(iz as usize * ih + iy as usize) * iw + ix as usize]
            } else {
                T::ZERO
            };
            xo += 1;
            if xo == ow {
                xo = 0;
                y += 1;
                if y == oh {
                    y = 0;
                    z += 1;
                }
            }
        }
    };
    if std::mem::size_of_val(col) >= crate::parallel::PARALLEL_MIN_BYTES {
        col.par_chunks_mut(len)
            .enumerate()
            .for_each(|(row, dst)| fill_row(row, dst));
    } else {
        for (row, dst) in col.chunks_mut(len).enumerate() {
            fill_row(row, dst);
        }
    }
}

/// One input and one output channel per group: each output plane is its
/// input plane convolved with its own kernel, directly.
fn depthwise<T: Scalar>(x: &[T], w: &[T], g: &Geometry, out: &mut [T]) {
    let (p_in, p_out, k_size) = (g.input_size(), g.output_size(), g.kernel_size());
    let [od, oh, ow] = g.output;
    let [id, ih, iw] = g.input;
    let [kd, kh, kw] = g.kernel;
    let plane = |index: usize, dst: &mut [T]| {
        let channel = index % g.groups;
        let src = &x[index * p_in..(index + 1) * p_in];
        let taps = &w[channel * k_size..(channel + 1) * k_size];
        let at = |o: usize, axis: usize, t: usize| {
            (o * g.stride[axis] + t * g.dilation[axis]) as i64 - g.pad_begin[axis]
        };
        let mut k = 0;
        for z in 0..od {
            for y in 0..oh {
                for xo in 0..ow {
                    let mut acc = 0.0f64;
                    for tz in 0..kd {
                        let iz = at(z, 0, tz);
                        if !(0..id as i64).contains(&iz) {
                            continue;
                        }
                        for ty in 0..kh {
                            let iy = at(y, 1, ty);
                            if !(0..ih as i64).contains(&iy) {
                                continue;
                            }
                            let row = (iz as usize * ih + iy as usize) * iw;
                            let tap_row = (tz * kh + ty) * kw;
                            for tx in 0..kw {
                                let ix = at(xo, 2, tx);
                                if (0..iw as i64).contains(&ix) {
                                    acc += src[row + ix as usize].to_f64()
                                        * taps[tap_row + tx].to_f64();
                                }
                            }
                        }
                    }
                    dst[k] = T::from_f64(acc);
                    k += 1;
                }
            }
        }
    };
    if std::mem::size_of_val(out) >= crate::parallel::PARALLEL_MIN_BYTES {
        out.par_chunks_mut(p_out)
            .enumerate()
            .for_each(|(i, dst)| plane(i, dst));
    } else {
        for (i, dst) in out.chunks_mut(p_out).enumerate() {
            plane(i, dst);
        }
    }
}
