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
use crate::simd::cut_pairs;
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
            // Unread, so left unset (`OutSpec::used`): a buffer the
            // executor takes back at once (filling SqueezeNet's first
            // one, 1.5 MB of i64, cost about a tenth of the pooling).
            let et = call.out_type(1)?;
            let unset = crate::pool::take(byte_size(et, &out_shape)?);
            outputs.push(Tensor::from_bytes(et, out_shape, unset)?);
        }
        return Ok(outputs);
    }
    let (values, offsets) = match et {
        ElementType::F32 => {
            let (v, o) = maxima(&elements::<f32>(x)?, &pool)?;
            (Tensor::from_vec(out_shape.clone(), v)?, o)
        }
        ElementType::F64 => {
            let (v, o) = maxima(&elements::<f64>(x)?, &pool)?;
            (Tensor::from_vec(out_shape.clone(), v)?, o)
        }
        ElementType::F16 | ElementType::BF16 => {
            let (v, o) = maxima(&widen(x)?, &pool)?;
            (narrow(et, out_shape.clone(), &v)?, o)
        }
        // Integers: exact in f64.
        _ => {
            let (v, o) = maxima(&to_f64s(x)?, &pool)?;
            (from_f64s(et, out_shape.clone(), &v)?, o)
        }
    };
    let axis = norm_axis(call.attr_i64("axis")?.unwrap_or(0), x.shape.len())?;
    // The index in the input flattened from `axis`: the flat index in the
    // whole input, modulo the size of the dims from `axis` on.
    let span = x.shape[axis..].iter().product::<usize>().max(1);
    let p_out = pool.geometry.output_size().max(1);
    let p_in = pool.geometry.input_size();
    let index = |k: usize, offset: u32| ((k / p_out) * p_in + offset as usize) % span;
    // Plane by plane: with `axis` at most 2 the span is a whole number of
    // planes, so a plane's indices are its offsets plus one base (no
    // division per element, which took as long as the pooling).
    let by_planes = span % p_in.max(1) == 0;
    let fill = |out: &mut [u64]| {
        if by_planes {
            let planes = out.chunks_mut(p_out).zip(offsets.chunks(p_out));
            for (plane, (out, offsets)) in planes.enumerate() {
                let base = ((plane * p_in) % span) as u64;
                for (o, &offset) in out.iter_mut().zip(offsets) {
                    *o = base + u64::from(offset);
                }
            }
        } else {
            for (k, (o, &offset)) in out.iter_mut().zip(&offsets).enumerate() {
                *o = index(k, offset) as u64;
            }
        }
    };
    let index_type = call.out_type(1)?;
    let indices = match index_type {
        ElementType::I64 => Tensor::computed(out_shape, |out: &mut [i64]| {
            // Below the input's element count, which fits in i64.
            fill(bytemuck::cast_slice_mut(out));
            Ok::<(), crate::ExecError>(())
        })?,
        ElementType::I32 if span <= 1 << 31 => {
            let mut wide = vec![0u64; offsets.len()];
            fill(&mut wide);
            let narrow: Vec<i32> = wide.iter().map(|&i| i as i32).collect();
            Tensor::from_vec(out_shape, narrow)?
        }
        _ => {
            let indices: Vec<i128> = (offsets.iter().enumerate())
                .map(|(k, &offset)| index(k, offset) as i128)
                .collect();
            from_i128s(index_type, out_shape, &indices)?
        }
    };
    Ok(vec![values, indices])
}

/// Where the windows of every plane read, worked out once per call: the
/// input rows under each output row, and along the last axis each kernel
/// tap's run of outputs.
struct Plan {
    /// Output row `r` (`z·oh + y`) reads the input rows starting at
    /// `row_starts[row_bounds[r]..row_bounds[r + 1]]` (offsets in the
    /// plane, in window order).
    row_bounds: Vec<usize>,
    row_starts: Vec<usize>,
    iw: usize,
    ow: usize,
    stride: usize,
    /// Values: the rows under a window, reduced column by column, are laid
    /// into a row padded with -inf (`lead` elements of padding before input
    /// column 0; `padded_len` in all, a multiple of `stride`), which is then
    /// cut into its `stride` phases (every `stride`-th element from each
    /// offset, `phase_len` each, `phase_stride` apart: room for a whole
    /// chunk of [`LANES`] read from any of them).
    lead: i64,
    padded_len: usize,
    phase_len: usize,
    phase_stride: usize,
    /// The input columns of a row that some window reads.
    copy: std::ops::Range<usize>,
    /// Per kernel tap, in window order: where its run of `ow` outputs
    /// starts in the padded row's phases.
    padded_taps: Vec<usize>,
    /// Per kernel tap, in window order, for the indices: its run of
    /// outputs inside the input (taps wholly outside are left out).
    taps: Vec<Tap>,
    /// Outputs whose window misses the input along the last axis.
    missed: Vec<usize>,
}

/// One kernel tap along the last axis: outputs `lo..hi` read inside the
/// input, output `lo` at input column `column`, which is element `at` of
/// the input row's phases (`stride` of them, `iw.div_ceil(stride)` each).
struct Tap {
    lo: usize,
    hi: usize,
    column: usize,
    at: usize,
}

impl Plan {
    fn new(g: &Geometry) -> Plan {
        let [od, oh, ow] = g.output;
        let [_, ih, iw] = g.input;
        let [kd, kh, kw] = g.kernel;
        let stride = g.stride[2].max(1);
        let mut row_bounds = vec![0];
        let mut row_starts = Vec::new();
        for z in 0..od {
            for y in 0..oh {
                for iz in (0..kd).filter_map(|tz| Axis::new(g, 0, tz).at(z)) {
                    for iy in (0..kh).filter_map(|ty| Axis::new(g, 1, ty).at(y)) {
                        row_starts.push((iz * ih + iy) * iw);
                    }
                }
                row_bounds.push(row_starts.len());
            }
        }
        let lead = g.pad_begin[2];
        let dilation = g.dilation[2];
        // Output o's tap t reads padded position o·stride + t·dilation.
        let reach = if ow == 0 || kw == 0 {
            0
        } else {
            (ow - 1) * stride + (kw - 1) * dilation + 1
        };
        let padded_len = reach.next_multiple_of(stride);
        let phase_len = padded_len / stride;
        // Stride 1 reads the padded row itself.
        let phase_stride = if stride == 1 {
            padded_len
        } else {
            phase_len + LANES
        };
        let first = lead.clamp(0, padded_len as i64);
        let last = (lead + iw as i64).clamp(first, padded_len as i64);
        let copy = (first - lead) as usize..(last - lead) as usize;
        let padded_taps = (0..kw)
            .map(|t| (t * dilation) % stride * phase_stride + t * dilation / stride)
            .collect();
        let input_phase = iw.div_ceil(stride);
        let taps: Vec<Tap> = (0..kw)
            .filter_map(|t| {
                let ax = Axis::new(g, 2, t);
                let (lo, hi) = ax.inside(0, ow);
                (lo < hi).then(|| {
                    let column = ((lo * stride) as i64 + ax.offset) as usize;
                    Tap {
                        lo,
                        hi,
                        column,
                        at: column % stride * input_phase + column / stride,
                    }
                })
            })
            .collect();
        let missed = (0..ow)
            .filter(|&o| !taps.iter().any(|t| (t.lo..t.hi).contains(&o)))
            .collect();
        Plan {
            row_bounds,
            row_starts,
            iw,
            ow,
            stride,
            lead,
            padded_len,
            phase_len,
            phase_stride,
            copy,
            padded_taps,
            taps,
            missed,
        }
    }

    /// The input rows under output row `r`'s window.
    fn rows(&self, r: usize) -> &[usize] {
        &self.row_starts[self.row_bounds[r]..self.row_bounds[r + 1]]
    }

    /// How many output rows a plane has.
    fn out_rows(&self) -> usize {
        self.row_bounds.len() - 1
    }
}

/// How many planes one parallel task takes (all of them when the input is
/// too small for the threads): a few tasks a thread, so none waits long on
/// the last one.
fn planes_per_task<T>(x: &[T], planes: usize) -> usize {
    let threads = rayon::current_num_threads();
    if std::mem::size_of_val(x) >= 1 << 16 && threads > 1 {
        planes.div_ceil(4 * threads).max(1)
    } else {
        planes.max(1)
    }
}

/// The maxima of every window and the offsets inside their plane of the
/// first maximum (in window order; NaN beats any number), for MaxPool's
/// indices. Per output row, each input row under the window is cut into
/// its `stride` phases once, and every kernel tap along it is then one
/// vectorized pass over its run of outputs, each keeping its best value
/// and offset.
fn maxima<T: Scalar + Element>(x: &[T], pool: &Pool) -> KResult<(Vec<T>, Vec<u32>)> {
    let g = &pool.geometry;
    let (p_in, p_out) = (g.input_size(), g.output_size());
    if u32::try_from(p_in).is_err() {
        return Err("MaxPool's indices: a plane of 2^32 elements or more".into());
    }
    let planes = g.batch * g.cin;
    let mut best = vec![T::LOWEST; planes * p_out];
    let mut at = vec![0u32; planes * p_out];
    if p_out == 0 {
        return Ok((best, at));
    }
    let plan = Plan::new(g);
    let per_task = planes_per_task(x, planes);
    let task = |first: usize, (best, at): (&mut [T], &mut [u32])| {
        let mut phases = Vec::new();
        let planes = best.chunks_mut(p_out).zip(at.chunks_mut(p_out));
        for (i, (best, at)) in planes.enumerate() {
            let src = &x[(first + i) * p_in..][..p_in];
            plane_maxima_at(src, &plan, best, at, &mut phases);
        }
    };
    let chunk = per_task * p_out;
    if per_task >= planes {
        task(0, (&mut best, &mut at));
    } else {
        best.par_chunks_mut(chunk)
            .zip(at.par_chunks_mut(chunk))
            .enumerate()
            .for_each(|(i, c)| task(i * per_task, c));
    }
    Ok((best, at))
}

/// [`maxima`] of one plane.
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512cd+avx512dq+avx512vl",
    "x86_64+avx2+fma",
))]
fn plane_maxima_at<T: Scalar>(
    src: &[T],
    plan: &Plan,
    best: &mut [T],
    at: &mut [u32],
    phases: &mut Vec<T>,
) {
    const NONE: u32 = u32::MAX;
    let (iw, ow, stride) = (plan.iw, plan.ow, plan.stride);
    let phase_len = iw.div_ceil(stride);
    phases.resize(stride * phase_len, T::ZERO);
    for r in 0..plan.out_rows() {
        let best = &mut best[r * ow..][..ow];
        let at = &mut at[r * ow..][..ow];
        best.fill(T::LOWEST);
        at.fill(NONE);
        for &start in plan.rows(r) {
            let row = &src[start..start + iw];
            let read: &[T] = if stride == 1 {
                row
            } else {
                deinterleave(row, stride, phases);
                phases
            };
            for tap in &plan.taps {
                let len = tap.hi - tap.lo;
                let reads = &read[tap.at..tap.at + len];
                // Offsets fit in u32: the plane has fewer than 2^32 elements.
                let (first, step) = ((start + tap.column) as u32, stride as u32);
                let outs = best[tap.lo..tap.hi].iter_mut().zip(&mut at[tap.lo..tap.hi]);
                for (j, ((b, a), &v)) in outs.zip(reads).enumerate() {
                    // The first maximum wins; NaN beats any number.
                    let take = (*a == NONE) | (v > *b) | (v.is_nan() & !b.is_nan());
                    *b = if take { v } else { *b };
                    *a = if take { first + j as u32 * step } else { *a };
                }
            }
        }
        // A window wholly in the padding: the lowest finite value, index 0.
        for a in at.iter_mut() {
            *a = if *a == NONE { 0 } else { *a };
        }
    }
}

/// Cuts `row` into its `stride` phases in `phases` (phase `p` holds
/// `row[p], row[p + stride], …`; each `row.len().div_ceil(stride)` long,
/// a shorter one's last element left as it was).
#[inline(always)]
fn deinterleave<T: Scalar>(row: &[T], stride: usize, phases: &mut [T]) {
    let phase_len = row.len().div_ceil(stride);
    if stride == 2 {
        // Both phases in one pass over pairs (which vectorizes).
        let (even, odd) = phases.split_at_mut(phase_len);
        let pairs = row.chunks_exact(2);
        if let [last] = pairs.remainder() {
            even[phase_len - 1] = *last;
        }
        for ((e, o), pair) in even.iter_mut().zip(odd.iter_mut()).zip(pairs) {
            *e = pair[0];
            *o = pair[1];
        }
    } else {
        for (p, phase) in phases.chunks_exact_mut(phase_len).enumerate() {
            for (d, &v) in phase.iter_mut().zip(row[p..].iter().step_by(stride)) {
                *d = v;
            }
        }
    }
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

/// The maximum of every window into `out` (`[planes, output…]`), values
/// only: NaN when the window holds one, the lowest finite value when it is
/// wholly in the padding. Separable: per output row, the input rows under
/// the window are reduced column by column into a row padded with -inf
/// (which never wins: the maximum of anything and -inf is that thing),
/// then that row's windows, read through its `stride` phases so that each
/// kernel tap is one contiguous run over all the outputs. Planes run on
/// the threads, a few a task.
fn window_maxima<T: Scalar>(x: &[T], pool: &Pool, out: &mut [T]) {
    let g = &pool.geometry;
    let (p_in, p_out) = (g.input_size(), g.output_size());
    if p_out == 0 {
        return;
    }
    let plan = Plan::new(g);
    let planes = out.len() / p_out;
    let per_task = planes_per_task(x, planes);
    let task = |first: usize, out: &mut [T]| {
        let mut scratch = Vec::new();
        for (i, dst) in out.chunks_mut(p_out).enumerate() {
            let src = &x[(first + i) * p_in..][..p_in];
            plane_window_maxima(src, &plan, dst, &mut scratch);
        }
    };
    if per_task >= planes {
        task(0, out);
    } else {
        out.par_chunks_mut(per_task * p_out)
            .enumerate()
            .for_each(|(i, chunk)| task(i * per_task, chunk));
    }
}

/// Elements of the chunks the values loops run on: 16 f32, one AVX-512
/// register. A row of any length runs as whole chunks, its last one
/// overlapping the one before (each output is computed from the inputs
/// alone, so writing it twice writes the same value): no loop tail, which
/// on rows of 13 to 111 elements cost about as much as the rest.
const LANES: usize = 16;

/// The starts of chunks `start..start + LANES` that cover `0..len` (at
/// least `LANES`), the last one ending at `len`. An iterator, not a
/// function taking the loop's body: a closure would be compiled apart from
/// the caller's SIMD clone, for the baseline target.
#[inline(always)]
fn chunk_starts(len: usize) -> impl Iterator<Item = usize> {
    (0..len.div_ceil(LANES)).map(move |k| (k * LANES).min(len - LANES))
}

/// Elements `start..start + LANES` of `s` as an array (its length known
/// to the compiler: the loops over it vectorize with no bounds checks).
#[inline(always)]
fn lanes<T>(s: &[T], start: usize) -> Option<&[T; LANES]> {
    s.get(start..start + LANES)?.try_into().ok()
}

/// [`lanes`], mutable.
#[inline(always)]
fn lanes_mut<T>(s: &mut [T], start: usize) -> Option<&mut [T; LANES]> {
    s.get_mut(start..start + LANES)?.try_into().ok()
}

/// `out[i]` = the maximum of `rows[0][i], rows[1][i], …` folded from the
/// left by [`max_nan`] (each of `rows` at least `out.len()` long).
#[inline(always)]
fn fold_max<T: Scalar, const R: usize>(out: &mut [T], rows: [&[T]; R]) {
    if out.len() < LANES {
        for (i, o) in out.iter_mut().enumerate() {
            *o = rows[1..].iter().fold(rows[0][i], |m, r| max_nan(m, r[i]));
        }
        return;
    }
    for start in chunk_starts(out.len()) {
        // Every chunk lies inside `out` and each of `rows`.
        let (Some(o), Some(&first)) = (lanes_mut(out, start), lanes(rows[0], start)) else {
            continue;
        };
        let mut m = first;
        for row in &rows[1..] {
            if let Some(v) = lanes(row, start) {
                for (m, &v) in m.iter_mut().zip(v) {
                    *m = max_nan(*m, v);
                }
            }
        }
        *o = m;
    }
}

/// `out[i] = max_nan(out[i], row[i])` (`row` at least `out.len()` long).
#[inline(always)]
fn max_into<T: Scalar>(out: &mut [T], row: &[T]) {
    if out.len() < LANES {
        for (o, &v) in out.iter_mut().zip(row) {
            *o = max_nan(*o, v);
        }
        return;
    }
    // Idempotent: max_nan(max_nan(o, v), v) == max_nan(o, v).
    for start in chunk_starts(out.len()) {
        if let (Some(o), Some(v)) = (lanes_mut(out, start), lanes(row, start)) {
            for (o, &v) in o.iter_mut().zip(v) {
                *o = max_nan(*o, v);
            }
        }
    }
}

/// Cuts `padded` into its two phases, `even` and `odd` (`len` each; each
/// holding a whole chunk past `len`, and `padded` two past `2·len`).
#[inline(always)]
fn split_pairs<T: Scalar>(padded: &[T], even: &mut [T], odd: &mut [T], len: usize) {
    // A phase shorter than a chunk is cut as one (into its room past `len`).
    for start in chunk_starts(len.max(LANES)) {
        let pairs = padded.get(2 * start..2 * start + 2 * LANES);
        let pairs: Option<&[T; 2 * LANES]> = pairs.and_then(|p| p.try_into().ok());
        if let (Some(e), Some(o), Some(&pairs)) =
            (lanes_mut(even, start), lanes_mut(odd, start), pairs)
        {
            (*e, *o) = cut_pairs(&pairs);
        }
    }
}

/// The windows along one row into `out`: each output the fold of its taps
/// (`taps`, starts in `read`, which holds a whole chunk past every tap's
/// last output). `out` may be longer than the row: a row shorter than a
/// chunk is computed as a whole one when `out` has room for it (the
/// outputs past the row are the next row's, written after it).
#[inline(always)]
fn window_row<T: Scalar>(read: &[T], taps: &[usize], ow: usize, out: &mut [T]) {
    let mut short = [T::ZERO; LANES];
    let len = ow.max(LANES);
    let dst: &mut [T] = match out.get_mut(..len) {
        Some(dst) => dst,
        None => &mut short,
    };
    let tap = |t: usize| &read[t..t + len];
    match *taps {
        [] => dst.fill(T::LOWEST),
        [a] => dst.copy_from_slice(tap(a)),
        [a, b] => fold_max(dst, [tap(a), tap(b)]),
        [a, b, c, ref rest @ ..] => {
            fold_max(dst, [tap(a), tap(b), tap(c)]);
            for &t in rest {
                max_into(dst, tap(t));
            }
        }
    }
    if out.len() < len {
        out[..ow].copy_from_slice(&short[..ow]);
    }
}

/// [`window_maxima`] of one plane.
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512cd+avx512dq+avx512vl",
    "x86_64+avx2+fma",
))]
fn plane_window_maxima<T: Scalar>(src: &[T], plan: &Plan, dst: &mut [T], scratch: &mut Vec<T>) {
    let (ow, stride) = (plan.ow, plan.stride);
    let (phase_len, phase_stride) = (plan.phase_len, plan.phase_stride);
    // Room for whole chunks past the row's end, for the taps (stride 1)
    // and the deinterleave (stride 2), all -inf.
    let padded_len = plan.padded_len.max(2 * LANES) + LANES;
    let phases_len = if stride == 1 {
        0
    } else {
        stride * phase_stride
    };
    scratch.clear();
    scratch.resize(padded_len + phases_len, T::NEG_INFINITY);
    let (padded, phases) = scratch.split_at_mut(padded_len);
    let copy = plan.copy.clone();
    let at = (copy.start as i64 + plan.lead) as usize;
    for r in 0..plan.out_rows() {
        // This row and the rest of the plane (see `window_row`).
        let out = &mut dst[r * ow..];
        // The rows under the window, reduced column by column.
        let cols = &mut padded[at..at + copy.len()];
        let row = |start: usize| &src[start + copy.start..start + copy.end];
        match *plan.rows(r) {
            [] => {
                out[..ow].fill(T::LOWEST);
                continue;
            }
            [a] => cols.copy_from_slice(row(a)),
            [a, b] => fold_max(cols, [row(a), row(b)]),
            [a, b, c, ref rest @ ..] => {
                fold_max(cols, [row(a), row(b), row(c)]);
                for &start in rest {
                    max_into(cols, row(start));
                }
            }
        }
        // The windows along the row (the padding is -inf: it never wins).
        let read: &[T] = if stride == 1 {
            padded
        } else if stride == 2 {
            let (even, odd) = phases.split_at_mut(phase_stride);
            split_pairs(padded, even, odd, phase_len);
            phases
        } else {
            for (p, phase) in phases.chunks_exact_mut(phase_stride).enumerate() {
                let from = padded[p..plan.padded_len].iter().step_by(stride);
                for (d, &v) in phase.iter_mut().zip(from) {
                    *d = v;
                }
            }
            phases
        };
        window_row(read, &plan.padded_taps, ow, out);
        for &o in &plan.missed {
            out[o] = T::LOWEST;
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
        self.geometry
            .for_each_run(|_, out, input, stride, run| f(out, input, stride, run));
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

    /// The maximum of each window and the offset in its plane of the first
    /// maximum (in window order, a NaN beating any number), by direct
    /// enumeration of its taps.
    fn reference(x: &[f32], g: &Geometry) -> (Vec<f32>, Vec<u32>) {
        let (p_in, planes) = (g.input_size(), g.batch * g.cin);
        let (mut out, mut offsets) = (Vec::new(), Vec::new());
        for plane in 0..planes {
            let src = &x[plane * p_in..][..p_in];
            for z in 0..g.output[0] {
                for y in 0..g.output[1] {
                    for o in 0..g.output[2] {
                        let mut best: Option<(f32, usize)> = None;
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
                                let v = src[i];
                                best = match best {
                                    Some((b, _)) if b.is_nan() => best,
                                    Some((b, _)) if !v.is_nan() && v <= b => best,
                                    _ => Some((v, i)),
                                };
                            }
                        }
                        let (v, i) = best.unwrap_or((f32::MIN, 0));
                        out.push(v);
                        offsets.push(i as u32);
                    }
                }
            }
        }
        (out, offsets)
    }

    /// (input, kernel, stride, dilation, pad_begin, extra outputs past the
    /// floor count: ceil modes and windows past the end).
    type Case = (
        [usize; 3],
        [usize; 3],
        [usize; 3],
        [usize; 3],
        [i64; 3],
        usize,
    );

    const CASES: &[Case] = &[
        ([1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1], [0, 0, 0], 0),
        ([1, 7, 9], [1, 3, 3], [1, 1, 1], [1, 1, 1], [0, 1, 1], 0),
        ([1, 11, 11], [1, 3, 3], [1, 2, 2], [1, 1, 1], [0, 0, 0], 1),
        ([1, 12, 13], [1, 3, 3], [1, 2, 2], [1, 1, 1], [0, 1, 1], 1),
        ([1, 12, 12], [1, 2, 2], [1, 2, 2], [1, 1, 1], [0, 0, 0], 0),
        ([1, 13, 13], [1, 2, 2], [1, 2, 2], [1, 1, 1], [0, 1, 1], 1),
        ([1, 8, 21], [1, 2, 2], [1, 1, 1], [1, 1, 1], [0, 1, 1], 0),
        ([1, 10, 17], [1, 2, 5], [1, 3, 3], [1, 1, 2], [0, 1, 2], 1),
        ([1, 9, 9], [1, 3, 3], [1, 1, 1], [1, 2, 2], [0, 2, 2], 0),
        ([1, 5, 4], [1, 5, 4], [1, 1, 1], [1, 1, 1], [0, 0, 0], 0),
        ([1, 1, 20], [1, 1, 4], [1, 1, 4], [1, 1, 1], [0, 0, 3], 1),
        ([4, 5, 6], [2, 3, 2], [2, 2, 1], [1, 1, 3], [1, 1, 0], 1),
        // Pads as large as the window: some windows are wholly padding.
        ([1, 3, 3], [1, 2, 2], [1, 1, 1], [1, 1, 1], [0, 2, 2], 0),
        ([1, 4, 5], [1, 3, 3], [1, 2, 2], [1, 1, 1], [0, 2, 2], 1),
        // Rows of more than one chunk (16), ending in a partial one.
        ([1, 7, 37], [1, 3, 3], [1, 2, 2], [1, 1, 1], [0, 1, 1], 1),
        ([1, 6, 40], [1, 3, 3], [1, 1, 1], [1, 1, 1], [0, 1, 1], 0),
        ([1, 9, 35], [1, 4, 3], [1, 1, 2], [1, 1, 1], [0, 0, 1], 0),
        ([1, 3, 50], [1, 2, 4], [1, 1, 3], [1, 1, 2], [0, 0, 2], 1),
    ];

    /// Runs `check(geometry, input)` on every case, with distinct values
    /// and with many ties, a NaN and infinities among them.
    fn for_cases(batch: usize, cin: usize, check: impl Fn(&Geometry, &[f32])) {
        for &(input, kernel, stride, dilation, pad_begin, extra) in CASES {
            let output: [usize; 3] = std::array::from_fn(|a| {
                let span =
                    input[a] as i64 + 2 * pad_begin[a] - ((kernel[a] - 1) * dilation[a]) as i64 - 1;
                (span / stride[a] as i64 + 1) as usize + if input[a] > 1 { extra } else { 0 }
            });
            let geometry = Geometry {
                batch,
                groups: 1,
                cin,
                cout: cin,
                input,
                kernel,
                output,
                stride,
                dilation,
                pad_begin,
            };
            let n = batch * cin * geometry.input_size();
            for distinct in [23, 3] {
                let mut x: Vec<f32> = (0..n)
                    .map(|i| ((i * 37 + 11) % distinct) as f32 - 11.5)
                    .collect();
                x[n / 3] = f32::NAN;
                x[n / 2] = f32::NEG_INFINITY;
                x[n - 1] = f32::INFINITY;
                if n > 8 {
                    x[n / 4] = f32::NAN;
                    x[n / 4 + 1] = f32::NAN;
                }
                check(&geometry, &x);
            }
        }
    }

    fn same(got: &[f32], want: &[f32]) -> bool {
        got.len() == want.len()
            && got
                .iter()
                .zip(want)
                .all(|(a, b)| a == b || (a.is_nan() && b.is_nan()))
    }

    fn pool(geometry: &Geometry) -> Pool {
        Pool {
            geometry: geometry.clone(),
            pad_end: [0; 3],
        }
    }

    #[test]
    fn separable_maxima_match_a_direct_loop() {
        for_cases(2, 3, |geometry, x| {
            let mut got = vec![7.0f32; 6 * geometry.output_size()];
            window_maxima(x, &pool(geometry), &mut got);
            let (want, _) = reference(x, geometry);
            assert!(same(&got, &want), "{geometry:?}:\n{got:?}\n{want:?}");
        });
    }

    #[test]
    fn indices_are_the_first_maximum_in_window_order() {
        for_cases(2, 3, |geometry, x| {
            let (got, at) = maxima(x, &pool(geometry)).unwrap();
            let (want, want_at) = reference(x, geometry);
            assert!(same(&got, &want), "{geometry:?}:\n{got:?}\n{want:?}");
            assert_eq!(at, want_at, "{geometry:?}");
        });
    }

    #[test]
    fn many_planes_on_two_threads() {
        // Inputs of 64 KiB and more are cut into tasks of a few planes.
        let threads = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        threads.install(|| {
            for_cases(3, 37, |geometry, x| {
                let mut got = vec![7.0f32; 3 * 37 * geometry.output_size()];
                window_maxima(x, &pool(geometry), &mut got);
                let (want, want_at) = reference(x, geometry);
                assert!(same(&got, &want), "{geometry:?}");
                let (got, at) = maxima(x, &pool(geometry)).unwrap();
                assert!(same(&got, &want), "{geometry:?}");
                assert_eq!(at, want_at, "{geometry:?}");
            });
        });
    }
}
