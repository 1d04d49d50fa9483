//! MaxPool-1/-8/-14: the maximum over each window (padding never wins; a
//! window wholly in the padding gives the lowest finite f32, as OpenVINO's
//! CPU plugin), and for v8/v14 the index of the first maximum in the input
//! flattened from `axis`.
//!
//! Values alone (MaxPool-1, and the indices PyTorch's exports never read)
//! are separable: per output row, the rows under the window are reduced
//! column by column into one row, then that row's windows along the last
//! axis, read through its `stride` phases (every `stride`-th element
//! from each offset) so that each kernel tap is one contiguous run; both
//! passes are branchless loops over whole rows, which the compiler
//! vectorizes. With indices, each output keeps its window's first maximum in
//! registers (output-stationary). Planes (image × channel) run in parallel.
//! The pads come from `shape_infer::window`, the output shape from inference.

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
    if !indices_read {
        let values = match et {
            ElementType::F32 => {
                let x = elements::<f32>(x)?;
                Tensor::computed(out_shape.clone(), |out| {
                    window_maxima(&x, &pool, out);
                    Ok::<(), crate::ExecError>(())
                })?
            }
            ElementType::F64 => {
                let x = elements::<f64>(x)?;
                Tensor::computed(out_shape.clone(), |out| {
                    window_maxima(&x, &pool, out);
                    Ok::<(), crate::ExecError>(())
                })?
            }
            ElementType::F16 | ElementType::BF16 => {
                let mut out = vec![0f32; byte_size(ElementType::F32, &out_shape)? / 4];
                window_maxima(&widen(x)?, &pool, &mut out);
                narrow(et, out_shape.clone(), &out)?
            }
            _ => {
                let mut out = vec![0f64; byte_size(ElementType::F64, &out_shape)? / 8];
                window_maxima(&to_f64s(x)?, &pool, &mut out);
                from_f64s(et, out_shape.clone(), &out)?
            }
        };
        let mut outputs = vec![values];
        if with_indices {
            // Unread: zeros, in a buffer the executor takes back at once.
            let et = call.out_type(1)?;
            let mut zeros = crate::pool::take(byte_size(et, &out_shape)?);
            zeros.fill(0);
            outputs.push(Tensor::from_bytes(et, out_shape, zeros)?);
        }
        return Ok(outputs);
    }
    let (values, offsets) = match et {
        ElementType::F32 => {
            let (v, o) = maxima(&elements::<f32>(x)?, &pool);
            (Tensor::from_vec(out_shape.clone(), v)?, o)
        }
        ElementType::F64 => {
            let (v, o) = maxima(&elements::<f64>(x)?, &pool);
            (Tensor::from_vec(out_shape.clone(), v)?, o)
        }
        ElementType::F16 | ElementType::BF16 => {
            let (v, o) = maxima(&widen(x)?, &pool);
            (narrow(et, out_shape.clone(), &v)?, o)
        }
        // Integers: exact in f64.
        _ => {
            let (v, o) = maxima(&to_f64s(x)?, &pool);
            (from_f64s(et, out_shape.clone(), &v)?, o)
        }
    };
    let axis = norm_axis(call.attr_i64("axis")?.unwrap_or(0), x.shape.len())?;
    // The index in the input flattened from `axis`: the flat index in the
    // whole input, modulo the size of the dims from `axis` on.
    let span: usize = x.shape[axis..].iter().product();
    let p_out = pool.geometry.output_size().max(1);
    let p_in = pool.geometry.input_size();
    let indices: Vec<i128> = offsets
        .iter()
        .enumerate()
        .map(|(k, &offset)| (((k / p_out) * p_in + offset) % span.max(1)) as i128)
        .collect();
    Ok(vec![
        values,
        from_i128s(call.out_type(1)?, out_shape, &indices)?,
    ])
}

/// The maxima of every window and their offsets inside their plane.
fn maxima<T: Scalar + Element>(x: &[T], pool: &Pool) -> (Vec<T>, Vec<usize>) {
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

/// The larger of `a` and `b`, or NaN when `b` is (so any NaN in a window
/// wins); `a` on ties. A select, not a branch.
#[inline(always)]
fn max_nan<T: Scalar>(a: T, b: T) -> T {
    if (b > a) | b.is_nan() {
        b
    } else {
        a
    }
}

/// One kernel tap along the last axis, for [`window_maxima`]: outputs
/// `lo..hi` read inside the input, output `o` at `phases[phase][o + shift]`.
struct Tap {
    lo: usize,
    hi: usize,
    phase: usize,
    shift: isize,
}

/// The maximum of every window into `out` (`[planes, output…]`), values
/// only: NaN when the window holds one, the lowest finite value when it is
/// wholly in the padding. Separable: the rows under an output row's window
/// are reduced column by column into `cols`, then `cols`'s windows along
/// the last axis, read through its `stride` phases so every tap is a
/// contiguous run.
fn window_maxima<T: Scalar>(x: &[T], pool: &Pool, out: &mut [T]) {
    let g = &pool.geometry;
    let (p_in, p_out) = (g.input_size(), g.output_size());
    let [od, oh, ow] = g.output;
    let [_, ih, iw] = g.input;
    let [kd, kh, kw] = g.kernel;
    let stride = g.stride[2].max(1);
    if p_out == 0 {
        return;
    }
    // Along the last axis: each tap's run of outputs and where it reads.
    let taps: Vec<Tap> = (0..kw)
        .filter_map(|t| {
            let ax = Axis::new(g, 2, t);
            let (lo, hi) = ax.inside(0, ow);
            (lo < hi).then(|| {
                let first = (lo * stride) as i64 + ax.offset;
                Tap {
                    lo,
                    hi,
                    phase: (first as usize) % stride,
                    shift: (first as usize / stride) as isize - lo as isize,
                }
            })
        })
        .collect();
    // Outputs whose window misses the input along the last axis.
    let missed: Vec<usize> = (0..ow)
        .filter(|&o| !taps.iter().any(|t| (t.lo..t.hi).contains(&o)))
        .collect();
    let phase_len = iw.div_ceil(stride);
    let plane = |index: usize, dst: &mut [T], scratch: &mut Vec<T>| {
        let src = &x[index * p_in..(index + 1) * p_in];
        scratch.resize(iw + stride * phase_len, T::ZERO);
        let (cols, phases) = scratch.split_at_mut(iw);
        for z in 0..od {
            for y in 0..oh {
                let out_row = &mut dst[(z * oh + y) * ow..][..ow];
                // The rows under the window, reduced column by column.
                let mut rows = (0..kd)
                    .filter_map(|tz| Axis::new(g, 0, tz).at(z))
                    .flat_map(|iz| {
                        (0..kh).filter_map(move |ty| {
                            Axis::new(g, 1, ty).at(y).map(|iy| (iz * ih + iy) * iw)
                        })
                    });
                let Some(first) = rows.next() else {
                    out_row.fill(T::LOWEST);
                    continue;
                };
                cols.copy_from_slice(&src[first..first + iw]);
                for start in rows {
                    for (c, &v) in cols.iter_mut().zip(&src[start..start + iw]) {
                        *c = max_nan(*c, v);
                    }
                }
                // The windows along the last axis.
                let phases: &[T] = if stride == 1 {
                    cols
                } else if stride == 2 {
                    // Both phases in one pass over pairs (which vectorizes).
                    let (even, odd) = phases.split_at_mut(phase_len);
                    let pairs = cols.chunks_exact(2);
                    if let [last] = pairs.remainder() {
                        even[phase_len - 1] = *last;
                    }
                    for ((e, o), pair) in even.iter_mut().zip(odd.iter_mut()).zip(pairs) {
                        *e = pair[0];
                        *o = pair[1];
                    }
                    phases
                } else {
                    for (r, phase) in phases.chunks_exact_mut(phase_len).enumerate() {
                        for (p, &c) in phase.iter_mut().zip(cols[r..].iter().step_by(stride)) {
                            *p = c;
                        }
                    }
                    phases
                };
                out_row.fill(T::NEG_INFINITY);
                for t in &taps {
                    let from = t.phase * phase_len + (t.lo as isize + t.shift) as usize;
                    let reads = &phases[from..from + (t.hi - t.lo)];
                    for (o, &v) in out_row[t.lo..t.hi].iter_mut().zip(reads) {
                        *o = max_nan(*o, v);
                    }
                }
                for &o in &missed {
                    out_row[o] = T::LOWEST;
                }
            }
        }
    };
    if std::mem::size_of_val(x) >= 1 << 16 && rayon::current_num_threads() > 1 {
        out.par_chunks_mut(p_out)
            .enumerate()
            .for_each_init(Vec::new, |scratch, (i, dst)| plane(i, dst, scratch));
    } else {
        let mut scratch = Vec::new();
        for (i, dst) in out.chunks_mut(p_out).enumerate() {
            plane(i, dst, &mut scratch);
        }
    }
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

    /// Whether some spatial axis has a pad at its beginning or end.
    pub fn has_padding(&self) -> bool {
        self.geometry
            .pad_begin
            .iter()
            .chain(&self.pad_end)
            .any(|&p| p != 0)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The maximum of each window by direct enumeration of its taps.
    fn reference(x: &[f32], g: &Geometry) -> Vec<f32> {
        let (p_in, planes) = (g.input_size(), g.batch * g.cin);
        let mut out = Vec::new();
        for plane in 0..planes {
            let src = &x[plane * p_in..][..p_in];
            for z in 0..g.output[0] {
                for y in 0..g.output[1] {
                    for o in 0..g.output[2] {
                        let mut inside = Vec::new();
                        for t in 0..g.kernel_size() {
                            let tap = [
                                t / (g.kernel[1] * g.kernel[2]),
                                t / g.kernel[2] % g.kernel[1],
                                t % g.kernel[2],
                            ];
                            let at: Vec<i64> = (0..3)
                                .map(|a| {
                                    ([z, y, o][a] * g.stride[a] + tap[a] * g.dilation[a]) as i64
                                        - g.pad_begin[a]
                                })
                                .collect();
                            if (0..3).all(|a| (0..g.input[a] as i64).contains(&at[a])) {
                                let i = (at[0] as usize * g.input[1] + at[1] as usize) * g.input[2]
                                    + at[2] as usize;
                                inside.push(src[i]);
                            }
                        }
                        out.push(if inside.is_empty() {
                            f32::MIN
                        } else if inside.iter().any(|v| v.is_nan()) {
                            f32::NAN
                        } else {
                            inside.iter().copied().fold(f32::NEG_INFINITY, f32::max)
                        });
                    }
                }
            }
        }
        out
    }

    #[test]
    fn separable_maxima_match_a_direct_loop() {
        // (input, kernel, stride, dilation, pad_begin, extra outputs past
        // the floor count: ceil modes and windows past the end).
        type Case = (
            [usize; 3],
            [usize; 3],
            [usize; 3],
            [usize; 3],
            [i64; 3],
            usize,
        );
        let cases: &[Case] = &[
            ([1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1], [0, 0, 0], 0),
            ([1, 7, 9], [1, 3, 3], [1, 1, 1], [1, 1, 1], [0, 1, 1], 0),
            ([1, 11, 11], [1, 3, 3], [1, 2, 2], [1, 1, 1], [0, 0, 0], 1),
            ([1, 12, 13], [1, 3, 3], [1, 2, 2], [1, 1, 1], [0, 1, 1], 1),
            ([1, 10, 17], [1, 2, 5], [1, 3, 3], [1, 1, 2], [0, 1, 2], 1),
            ([1, 9, 9], [1, 3, 3], [1, 1, 1], [1, 2, 2], [0, 2, 2], 0),
            ([1, 5, 4], [1, 5, 4], [1, 1, 1], [1, 1, 1], [0, 0, 0], 0),
            ([1, 1, 20], [1, 1, 4], [1, 1, 4], [1, 1, 1], [0, 0, 3], 1),
            ([4, 5, 6], [2, 3, 2], [2, 2, 1], [1, 1, 3], [1, 1, 0], 1),
            // Pads as large as the window: some windows are wholly padding.
            ([1, 3, 3], [1, 2, 2], [1, 1, 1], [1, 1, 1], [0, 2, 2], 0),
        ];
        for &(input, kernel, stride, dilation, pad_begin, extra) in cases {
            let output: [usize; 3] = std::array::from_fn(|a| {
                let span =
                    input[a] as i64 + 2 * pad_begin[a] - ((kernel[a] - 1) * dilation[a]) as i64 - 1;
                (span / stride[a] as i64 + 1) as usize + if input[a] > 1 { extra } else { 0 }
            });
            let geometry = Geometry {
                batch: 2,
                groups: 1,
                cin: 3,
                cout: 3,
                input,
                kernel,
                output,
                stride,
                dilation,
                pad_begin,
            };
            let n = 6 * geometry.input_size();
            let mut x: Vec<f32> = (0..n).map(|i| ((i * 37 + 11) % 23) as f32 - 11.5).collect();
            x[n / 3] = f32::NAN;
            x[n / 2] = f32::NEG_INFINITY;
            x[n - 1] = f32::INFINITY;
            let pool = Pool {
                geometry: geometry.clone(),
                pad_end: [0; 3],
            };
            let mut got = vec![7.0f32; 6 * geometry.output_size()];
            window_maxima(&x, &pool, &mut got);
            let want = reference(&x, &geometry);
            let same = got
                .iter()
                .zip(&want)
                .all(|(a, b)| a == b || (a.is_nan() && b.is_nan()));
            assert!(same, "{geometry:?}:\n{got:?}\n{want:?}");
        }
    }
}
