//! MaxPool-1/-8/-14: the maximum over each window (padding never wins; a
//! window wholly in the padding gives the lowest finite f32, as OpenVINO's
//! CPU plugin), and for v8/v14 the index of the first maximum in the input
//! flattened from `axis`. For each output row and kernel tap, the run of
//! outputs whose reads fall inside the input is updated at once; planes
//! (image × channel) run in parallel. The pads come from
//! `shape_infer::window`, the output shape from inference.

use ir::ElementType;
use rayon::prelude::*;
use shape_infer::window::{self, WindowAttrs, WindowKind};

use super::convolution::{elements, narrow, pad3, sizes, widen, Axis, Geometry};
use super::{from_f64s, from_i128s, norm_axis, to_f64s, Call, KResult};
use crate::gemm::Scalar;
use crate::tensor::{byte_size, Element, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out_shape = call.out_shape(0)?;
    let with_indices = call.outputs.len() > 1;
    // PyTorch exports MaxPool-14 with its indices unread: skip them then.
    let indices_read = call.outputs.get(1).is_some_and(|o| o.used);
    let kind = if with_indices {
        WindowKind::DilatedPool
    } else {
        WindowKind::Pool
    };
    let pool = Pool::new(call, &x.shape, &out_shape, kind)?;
    byte_size(x.element_type, &out_shape)?;
    let et = x.element_type;
    let (values, offsets) = match et {
        ElementType::F32 => {
            let (v, o) = maxima(&elements::<f32>(x)?, &pool, indices_read);
            (Tensor::from_vec(out_shape.clone(), v)?, o)
        }
        ElementType::F64 => {
            let (v, o) = maxima(&elements::<f64>(x)?, &pool, indices_read);
            (Tensor::from_vec(out_shape.clone(), v)?, o)
        }
        ElementType::F16 | ElementType::BF16 => {
            let (v, o) = maxima(&widen(x)?, &pool, indices_read);
            (narrow(et, out_shape.clone(), &v)?, o)
        }
        // Integers: exact in f64.
        _ => {
            let (v, o) = maxima(&to_f64s(x)?, &pool, indices_read);
            (from_f64s(et, out_shape.clone(), &v)?, o)
        }
    };
    let mut outputs = vec![values];
    if with_indices && !indices_read {
        let et = call.out_type(1)?;
        let size = byte_size(et, &out_shape)?;
        outputs.push(Tensor::from_bytes(et, out_shape, vec![0; size])?);
    } else if with_indices {
        let axis = norm_axis(call.attr_i64("axis")?.unwrap_or(0), x.shape.len())?;
        // The index in the input flattened from `axis`: the flat index in
        // the whole input, modulo the size of the dims from `axis` on.
        let span: usize = x.shape[axis..].iter().product();
        let p_out = pool.geometry.output_size().max(1);
        let p_in = pool.geometry.input_size();
        let indices: Vec<i128> = offsets
            .iter()
            .enumerate()
            .map(|(k, &offset)| (((k / p_out) * p_in + offset) % span.max(1)) as i128)
            .collect();
        outputs.push(from_i128s(call.out_type(1)?, out_shape, &indices)?);
    }
    Ok(outputs)
}

/// The maxima of every window and, when `with_offsets`, their offsets
/// inside their plane (else zeros).
fn maxima<T: Scalar + Element>(x: &[T], pool: &Pool, with_offsets: bool) -> (Vec<T>, Vec<usize>) {
    let g = &pool.geometry;
    let (p_in, p_out) = (g.input_size(), g.output_size());
    let planes = g.batch * g.cin;
    let mut best = vec![T::LOWEST; planes * p_out];
    let mut at = vec![0usize; planes * p_out];
    let taps = pool.valid_taps();
    let [_, ih, iw] = g.input;
    let (dz, dy, dx) = (g.dilation[0], g.dilation[1], g.dilation[2]);
    let plane = |index: usize, (best, at): (&mut [T], &mut [usize])| {
        let src = &x[index * p_in..(index + 1) * p_in];
        let mut k = 0;
        for (z0, tz) in &taps[0] {
            for (y0, ty) in &taps[1] {
                for (x0, tx) in &taps[2] {
                    if !with_offsets {
                        // Values only: one compare and select per tap.
                        let empty = tz.is_empty() || ty.is_empty() || tx.is_empty();
                        let mut b = T::NEG_INFINITY;
                        for zz in tz.clone() {
                            for yy in ty.clone() {
                                let row = ((*z0 + zz * dz) * ih + *y0 + yy * dy) * iw + *x0;
                                for xx in tx.clone() {
                                    let v = src[row + xx * dx];
                                    b = if (v > b) | v.is_nan() { v } else { b };
                                }
                            }
                        }
                        best[k] = if empty { T::LOWEST } else { b };
                        k += 1;
                        continue;
                    }
                    // Output-stationary: the window's maximum in registers.
                    let (mut b, mut a) = (T::LOWEST, usize::MAX);
                    for zz in tz.clone() {
                        for yy in ty.clone() {
                            let row = ((*z0 + zz * dz) * ih + *y0 + yy * dy) * iw + *x0;
                            for xx in tx.clone() {
                                let offset = row + xx * dx;
                                let v = src[offset];
                                // The first maximum wins; NaN beats any number.
                                let take = (a == usize::MAX) | (v > b) | (v.is_nan() & !b.is_nan());
                                b = if take { v } else { b };
                                a = if take { offset } else { a };
                            }
                        }
                    }
                    // A window wholly in the padding: the lowest finite value.
                    best[k] = b;
                    at[k] = if a == usize::MAX { 0 } else { a };
                    k += 1;
                }
            }
        }
    };
    if p_out > 0 {
        let chunks = best.par_chunks_mut(p_out).zip(at.par_chunks_mut(p_out));
        if std::mem::size_of_val(x) >= 1 << 16 && rayon::current_num_threads() > 1 {
            chunks.enumerate().for_each(|(i, c)| plane(i, c));
        } else {
            for (i, c) in best.chunks_mut(p_out).zip(at.chunks_mut(p_out)).enumerate() {
                plane(i, c);
            }
        }
    }
    (best, at)
}

/// The window geometry of a pooling op over planes of `[N, C, D…]` (one
/// channel per plane: `cin` counts the planes of an image).
pub(crate) struct Pool {
    pub geometry: Geometry,
    pad_end: [i64; 3],
}

impl Pool {
    pub fn new(
        call: &Call<'_>,
        input: &[usize],
        output: &[usize],
        kind: WindowKind,
    ) -> KResult<Pool> {
        let spatial = input.len().saturating_sub(2);
        if output.len() != input.len() || spatial == 0 {
            return Err(
                format!("internal: input {input:?} and output {output:?} do not agree").into(),
            );
        }
        let attrs = WindowAttrs::read(call.node, spatial, kind).map_err(|e| e.to_string())?;
        let kernel = sizes(
            &call
                .node
                .attributes
                .i64_list("kernel")
                .map_err(|e| e.to_string())?
                .unwrap_or_default(),
        )?;
        let pads = window::concrete_forward_pads(&attrs, &input[2..], &kernel)
            .map_err(|e| e.to_string())?;
        let begin: Vec<i64> = pads.iter().map(|p| p.0).collect();
        let end: Vec<i64> = pads.iter().map(|p| p.1).collect();
        Ok(Pool {
            geometry: Geometry {
                batch: input[0],
                groups: 1,
                cin: input[1],
                cout: input[1],
                input: pad3(&input[2..], 1)?,
                kernel: pad3(&kernel, 1)?,
                output: pad3(&output[2..], 1)?,
                stride: pad3(&sizes(&attrs.strides)?, 1)?,
                dilation: pad3(&sizes(&attrs.dilations)?, 1)?,
                pad_begin: pad3(&begin, 0)?,
            },
            pad_end: pad3(&end, 0)?,
        })
    }

    /// For every output row and kernel tap, calls `f(out, input, stride,
    /// run)`: outputs `out..out + run` of the plane read the plane's inputs
    /// `input, input + stride, …` under that tap (only reads inside the
    /// input; taps in window order, so the first maximum stays first).
    pub fn for_each_run(&self, mut f: impl FnMut(usize, usize, usize, usize)) {
        let g = &self.geometry;
        let [od, oh, ow] = g.output;
        let [_, ih, iw] = g.input;
        let [kd, kh, kw] = g.kernel;
        for z in 0..od {
            for y in 0..oh {
                let row_out = (z * oh + y) * ow;
                for tz in 0..kd {
                    let Some(iz) = Axis::new(g, 0, tz).at(z) else {
                        continue;
                    };
                    for ty in 0..kh {
                        let Some(iy) = Axis::new(g, 1, ty).at(y) else {
                            continue;
                        };
                        let row_in = (iz * ih + iy) * iw;
                        for tx in 0..kw {
                            let ax = Axis::new(g, 2, tx);
                            let (lo, hi) = ax.inside(0, ow);
                            if lo < hi {
                                let start = ((lo * ax.stride) as i64 + ax.offset) as usize;
                                f(row_out + lo, row_in + start, ax.stride, hi - lo);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Per spatial axis, per output index: the first input index the window
    /// reads inside the input, and the range of its taps that do (relative
    /// to that first one, in taps).
    pub fn valid_taps(&self) -> [Vec<(usize, std::ops::Range<usize>)>; 3] {
        let g = &self.geometry;
        std::array::from_fn(|axis| {
            (0..g.output[axis])
                .map(|o| {
                    let start = (o * g.stride[axis]) as i64 - g.pad_begin[axis];
                    let d = g.dilation[axis] as i64;
                    let inside: Vec<usize> = (0..g.kernel[axis])
                        .filter(|&t| (0..g.input[axis] as i64).contains(&(start + t as i64 * d)))
                        .collect();
                    match (inside.first(), inside.last()) {
                        (Some(&lo), Some(&hi)) => {
                            ((start + lo as i64 * d) as usize, 0..hi - lo + 1)
                        }
                        _ => (0, 0..0),
                    }
                })
                .collect()
        })
    }

    /// Per spatial axis, per output index: how many of the window's taps
    /// read inside the input (`padded`: inside the padded input; with
    /// `past_end` too, anything past the end padding — OpenVINO's CPU plugin
    /// counts a ceil_torch window's overhang, PyTorch does not).
    pub fn tap_counts(&self, padded: bool, past_end: bool) -> [Vec<usize>; 3] {
        let g = &self.geometry;
        std::array::from_fn(|axis| {
            let (lo, hi) = if padded {
                let hi = if past_end {
                    i64::MAX
                } else {
                    g.input[axis] as i64 + self.pad_end[axis]
                };
                (-g.pad_begin[axis], hi)
            } else {
                (0, g.input[axis] as i64)
            };
            (0..g.output[axis])
                .map(|o| {
                    let start = (o * g.stride[axis]) as i64 - g.pad_begin[axis];
                    (0..g.kernel[axis])
                        .filter(|&t| (lo..hi).contains(&(start + (t * g.dilation[axis]) as i64)))
                        .count()
                })
                .collect()
        })
    }
}
