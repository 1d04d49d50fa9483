//! Depthwise convolutions (one input and one output channel per group):
//! each output plane is its input plane convolved with its own kernel,
//! directly, planes in parallel. With AVX-512, 3x3 kernels of stride 1 or
//! 2 onto rows of 14 to 64 outputs, up to 1 MiB of them, straight from
//! the planes ([`Direct`]);
//! others 16 channels at a time on a channel-interleaved copy of their
//! rows ([`Blocked`]), as OpenVINO's `nChw16c` kernels do; otherwise plane
//! by plane ([`Bands`]).

use rayon::prelude::*;

use super::convolution::Geometry;
use crate::fusion::Epilogue;
use crate::gemm::Scalar;
use crate::simd::has_avx512;

/// One input and one output channel per group: each output plane is its
/// input plane convolved with its own kernel, directly. 1-D and 2-D ones
/// with finite weights and no negative pads take [`depthwise_direct`] (f32
/// on AVX-512, 3x3 of stride 1 or 2, rows of 14 to 64 outputs, up to
/// 1 MiB of output),
/// [`depthwise_blocked`] (f32 on AVX-512, output planes up to 112x112 and
/// at least 16 channels) or
/// [`depthwise_banded`]; the others a loop over output rows and kernel
/// taps, a multiply-add over the run of outputs whose reads are inside the
/// input.
pub(crate) fn depthwise<T: Scalar + bytemuck::Pod>(
    x: &[T],
    w: &[T],
    g: &Geometry,
    out: &mut [T],
    epilogue: Option<&Epilogue<T>>,
    shortcut: Option<&[T]>,
) {
    // Padding taps are multiplied in by the banded and blocked loops: with
    // a finite weight they add zero, as skipping them does. (A fold, not
    // `all`: it vectorizes, and a layer's weights are all finite in
    // practice.)
    let finite = w
        .iter()
        .fold(true, |all, &v| all & (v * T::ZERO == T::ZERO));
    if g.input[0] == 1 && g.kernel[0] == 1 && g.output[0] == 1 && finite {
        if let Some(bands) = Bands::new(g, BAND_BYTES, MIN_BAND) {
            let operands = Operands {
                x,
                w,
                g,
                bands: &bands,
                epilogue,
                shortcut,
            };
            if let Some(o) = as_f32(&operands) {
                if let Some(direct) = Direct::new(g) {
                    return depthwise_direct(&o, &direct, bytemuck::cast_slice_mut(out));
                }
                if let Some(blocked) = Blocked::new(g, BLOCKED_BYTES) {
                    return depthwise_blocked(&o, &blocked, bytemuck::cast_slice_mut(out));
                }
            }
            return depthwise_banded(&operands, out);
        }
    }
    depthwise_rows(x, w, g, out, epilogue, shortcut);
}

/// How many bytes the phase rows of one band of output rows take at most,
/// counted in f32 values (unless a band of [`MIN_BAND`] rows takes more):
/// the band, the output rows being written and the input rows being read
/// stay in L1.
const BAND_BYTES: usize = 16 << 10;

/// The fewest output rows of a band: each band copies the rows it shares
/// with the next one (the kernel's height less the stride) again.
const MIN_BAND: usize = 4;

/// The most sums [`Band::sums`] keeps in registers through every tap (eight
/// AVX-512 vectors: enough independent additions in flight to hide their
/// latency).
const CHUNK: usize = 128;

/// The layout of [`depthwise_banded`]. The output plane is cut into bands
/// of `band` rows; for each, the input rows under it, zero-padded, are cut
/// into `stride²` phase planes (phase `(ry, rx)` holds the padded rows
/// `ry, ry + sy, …` of the band and their columns `rx, rx + sx, …`), each
/// `rows × width`, so that every kernel tap reads one phase plane at a
/// fixed offset from the output position: contiguous for any stride and
/// dilation, and the whole band is one flat run of `band × width` sums
/// (the columns past the output's are computed and dropped).
struct Bands {
    stride: [usize; 2],
    /// Output rows per band.
    band: usize,
    /// The largest tap row offset in a phase plane: a band of `b` output
    /// rows reads `b + reach` rows of each phase plane.
    reach: usize,
    /// Rows and width of a phase plane (the width is the output's plus
    /// the largest tap column offset).
    rows: usize,
    width: usize,
    /// Per kernel tap (row-major): where its reads start in the band's
    /// buffer (its phase plane's start plus its offset in it).
    starts: Vec<usize>,
    /// Where a band's buffer holds a run of sums (after the phase planes
    /// and the slack the last run's reads take past them), and its length
    /// (with that run).
    stage: usize,
    len: usize,
}

impl Bands {
    /// `None` when a pad is negative (the row loop handles those). Bands
    /// take about `budget` bytes of phase rows, and have at least
    /// `min_band` rows (unless the output has fewer).
    fn new(g: &Geometry, budget: usize, min_band: usize) -> Option<Bands> {
        if g.pad_begin[1] < 0 || g.pad_begin[2] < 0 {
            return None;
        }
        let (sy, sx) = (g.stride[1].max(1), g.stride[2].max(1));
        let (dy, dx) = (g.dilation[1], g.dilation[2]);
        let [_, kh, kw] = g.kernel;
        let [_, oh, ow] = g.output;
        let reach = (kh.saturating_sub(1) * dy) / sy;
        let qx = (kw.saturating_sub(1) * dx) / sx;
        let width = ow + qx;
        let row_bytes = sy * sx * width * std::mem::size_of::<f32>();
        let band = (budget / row_bytes.max(1))
            .saturating_sub(reach)
            .max(min_band)
            .min(oh)
            .max(1);
        let rows = band + reach;
        let plane = rows * width;
        let starts = (0..kh * kw)
            .map(|t| {
                let (oy, ox) = ((t / kw) * dy, (t % kw) * dx);
                let phase = (oy % sy) * sx + ox % sx;
                phase * plane + (oy / sy) * width + ox / sx
            })
            .collect();
        // The last run of a band ends less than a run past its `band ×
        // width` sums (a flat run at most 15 past, a row's last run less
        // than half its length past the row), and its last tap starts
        // `reach` rows and `qx` columns into the last plane.
        let stage = sy * sx * plane + qx + CHUNK;
        Some(Bands {
            stage,
            len: stage + CHUNK,
            stride: [sy, sx],
            band,
            reach,
            rows,
            width,
            starts,
        })
    }

    /// Fills the phase planes of the band whose first output row is `y0`
    /// and which has `count` rows, from one input plane (`ih × iw`, padded
    /// by `pad_begin`), into `buf`. Only the input's values and the rows
    /// of padding are written: the columns of padding are the same places
    /// in every band and plane, and stay as the buffer was made, zeros.
    /// Inlined into [`banded_planes`]'s clones, so vectorized as they are.
    #[inline(always)]
    fn fill<T: Scalar>(&self, src: &[T], g: &Geometry, y0: usize, count: usize, buf: &mut [T]) {
        let [sy, sx] = self.stride;
        let [_, ih, iw] = g.input;
        let (pt, pl) = (g.pad_begin[1] as usize, g.pad_begin[2] as usize);
        let (plane, width) = (self.rows * self.width, self.width);
        for ry in 0..sy {
            // The phase planes (ry, 0..sx), side by side.
            let planes = &mut buf[ry * sx * plane..][..sx * plane];
            for j in 0..count + self.reach {
                // Padded row (y0 + j)*sy + ry is input row that less pt.
                let iy = ((y0 + j) * sy + ry).checked_sub(pt).filter(|&iy| iy < ih);
                let Some(iy) = iy else {
                    for rx in 0..sx {
                        planes[rx * plane + j * width..][..width].fill(T::ZERO);
                    }
                    continue;
                };
                let input = &src[iy * iw..][..iw];
                match sx {
                    1 => pad_row(input, pl, &mut planes[j * width..][..width]),
                    2 => {
                        let (even, odd) = planes.split_at_mut(plane);
                        let even = &mut even[j * width..][..width];
                        let odd = &mut odd[j * width..][..width];
                        deinterleave_row(input, pl, even, odd);
                    }
                    _ => {
                        for rx in 0..sx {
                            let row = &mut planes[rx * plane + j * width..][..width];
                            gather_row(input, pl, rx, sx, row);
                        }
                    }
                }
            }
        }
    }
}

/// The input's part of `row`, the padded input row (`pad` zeros, then
/// `input`, then zeros) cut to its length.
#[inline(always)]
fn pad_row<T: Scalar>(input: &[T], pad: usize, row: &mut [T]) {
    let inside = inside(row, pad, input.len());
    copy_run(inside, input);
}

/// The input's part of the stride-2 phases of the padded input row (`pad`
/// zeros, then `input`): `even` its columns 0, 2, …, `odd` its columns 1,
/// 3, …, each cut to its length. Input pair `(2m, 2m + 1)` lands at padded
/// columns `pad + 2m` and `pad + 2m + 1`, so one pass over the pairs
/// writes both.
#[inline(always)]
fn deinterleave_row<T: Scalar>(input: &[T], pad: usize, even: &mut [T], odd: &mut [T]) {
    // Input column 2m goes to phase `pad % 2` at `pad / 2 + m`, column
    // 2m + 1 to the other phase at `(pad + 1) / 2 + m`.
    let (first, second) = if pad.is_multiple_of(2) {
        (even, odd)
    } else {
        (odd, even)
    };
    let firsts = inside(first, pad / 2, input.len().div_ceil(2));
    let seconds = inside(second, pad.div_ceil(2), input.len() / 2);
    let both = firsts.len().min(seconds.len());
    // `both` pairs (at most the input's): a plain zip, which vectorizes.
    let pairs = input.chunks_exact(2);
    for ((a, b), pair) in firsts.iter_mut().zip(seconds.iter_mut()).zip(pairs) {
        *a = pair[0];
        *b = pair[1];
    }
    for (m, a) in firsts.iter_mut().enumerate().skip(both) {
        *a = input[2 * m];
    }
    for (m, b) in seconds.iter_mut().enumerate().skip(both) {
        *b = input[2 * m + 1];
    }
}

/// The `len` values of `row` from `at`, cut to the row.
#[inline(always)]
fn inside<T>(row: &mut [T], at: usize, len: usize) -> &mut [T] {
    let start = at.min(row.len());
    let end = (at + len).min(row.len());
    &mut row[start..end]
}

/// `dst` = `src` (as long), by whole moves of 16, 8 or 4 values (the last
/// one overlapping the one before) rather than a call to `memcpy`: the
/// runs here are short (a 7x7 plane's rows) and many.
#[inline(always)]
fn copy_run<T: Copy>(dst: &mut [T], src: &[T]) {
    let n = dst.len();
    let src = &src[..n];
    if n >= 16 {
        let mut k = 0;
        while k + 16 < n {
            copy_block::<T, 16>(dst, src, k);
            k += 16;
        }
        copy_block::<T, 16>(dst, src, n - 16);
    } else if n >= 8 {
        copy_block::<T, 8>(dst, src, 0);
        copy_block::<T, 8>(dst, src, n - 8);
    } else if n >= 4 {
        copy_block::<T, 4>(dst, src, 0);
        copy_block::<T, 4>(dst, src, n - 4);
    } else {
        for (d, &v) in dst.iter_mut().zip(src) {
            *d = v;
        }
    }
}

/// `dst[at..at + K]` = `src[at..at + K]`, one move.
#[inline(always)]
fn copy_block<T: Copy, const K: usize>(dst: &mut [T], src: &[T], at: usize) {
    let to = <&mut [T; K]>::try_from(&mut dst[at..at + K]);
    let from = <&[T; K]>::try_from(&src[at..at + K]);
    // Both exactly `K` long: the conversions cannot fail.
    if let (Ok(to), Ok(from)) = (to, from) {
        *to = *from;
    }
}

/// Phase `rx` of stride `sx` of the padded input row (`pad` zeros, then
/// `input`): its columns `rx, rx + sx, …`, cut to the length of `row`.
#[inline(always)]
fn gather_row<T: Scalar>(input: &[T], pad: usize, rx: usize, sx: usize, row: &mut [T]) {
    for (k, v) in row.iter_mut().enumerate() {
        let column = (rx + k * sx).checked_sub(pad);
        *v = column
            .and_then(|c| input.get(c))
            .copied()
            .unwrap_or(T::ZERO);
    }
}

/// A 1-D or 2-D depthwise convolution plane by plane and band by band
/// ([`Bands`]): the band's phase planes are filled, every kernel tap is a
/// multiply-add over runs of [`CHUNK`] sums kept in registers, and the
/// sums are stored into the output finished (the epilogue applied). Runs
/// of planes go to the threads, each with its own band buffer.
fn depthwise_banded<T: Scalar>(o: &Operands<'_, T>, out: &mut [T]) {
    let p_out = o.g.output_size();
    let planes = out.len() / p_out;
    let threads = rayon::current_num_threads();
    let run = |first: usize, dst: &mut [T]| {
        let mut buf = vec![T::ZERO; o.bands.len];
        banded_planes(o, first, dst, &mut buf);
    };
    if std::mem::size_of_val(out) >= 1 << 16 && threads > 1 && planes > 1 {
        // A few runs of planes a thread, so a slow thread is made up for.
        let per_task = planes.div_ceil(4 * threads);
        out.par_chunks_mut(per_task * p_out)
            .enumerate()
            .for_each(|(i, dst)| run(i * per_task, dst));
    } else {
        run(0, out);
    }
}

/// What [`banded_planes`] reads: the convolution's operands, layout and
/// epilogue.
struct Operands<'a, T> {
    x: &'a [T],
    w: &'a [T],
    g: &'a Geometry,
    bands: &'a Bands,
    epilogue: Option<&'a Epilogue<T>>,
    shortcut: Option<&'a [T]>,
}

/// The output planes `first..` in `dst` (whole planes) of
/// [`depthwise_banded`], with `buf` ([`Bands::len`]) for the phase planes.
/// Compiled for AVX-512 and AVX2 too (chosen at run time, once per run of
/// planes): its loops are the compiler's to vectorize, and the default
/// target has 4-lane SSE2 only.
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512cd+avx512dq+avx512vl",
    "x86_64+avx2+fma",
))]
fn banded_planes<T: Scalar>(o: &Operands<'_, T>, first: usize, dst: &mut [T], buf: &mut [T]) {
    let g = o.g;
    let (p_in, p_out, k_size) = (g.input_size(), g.output_size(), g.kernel_size());
    let [_, oh, _] = g.output;
    for (i, out_plane) in dst.chunks_exact_mut(p_out).enumerate() {
        let index = first + i;
        let channel = index % g.groups;
        let src = &o.x[index * p_in..][..p_in];
        let weights = &o.w[channel * k_size..][..k_size];
        let shortcut = o.shortcut.map(|s| &s[index * p_out..][..p_out]);
        let (phases, stage) = buf.split_at_mut(o.bands.stage);
        let mut y0 = 0;
        while y0 < oh {
            let count = o.bands.band.min(oh - y0);
            o.bands.fill(src, g, y0, count, phases);
            let band = Band {
                bands: o.bands,
                ow: g.output[2],
                weights,
                phases,
                y0,
                count,
                epilogue: o.epilogue,
                channel,
                shortcut,
            };
            band.store(out_plane, stage);
            y0 += count;
        }
    }
}

/// One band of [`banded_planes`]: its `count` output rows from `y0`, its
/// phase planes, the plane's kernel `weights`, and how its sums
/// are finished (the epilogue, the plane's output channel, the plane's
/// shortcut values).
struct Band<'a, T> {
    bands: &'a Bands,
    ow: usize,
    weights: &'a [T],
    phases: &'a [T],
    y0: usize,
    count: usize,
    epilogue: Option<&'a Epilogue<T>>,
    channel: usize,
    shortcut: Option<&'a [T]>,
}

impl<T: Scalar> Band<'_, T> {
    /// The band's sums, stored into `out_plane` finished: runs of sums in
    /// registers through every tap (one store per output instead of a
    /// load and a store per tap; each sum still adds the taps in kernel
    /// order from zero), all whole vectors of 16 sums. Rows of more than
    /// 64 outputs by runs along each row ([`Band::row_run`]), stored
    /// straight from the registers; narrower rows by runs over the band's
    /// flat sums ([`Band::run`]), several rows a run of up to [`CHUNK`]
    /// (measured on MobileNetV2: runs of one row, or of two or four rows
    /// at once, were slower there, the 28-wide rows' by 1.8 times). `stage`
    /// ([`CHUNK`] long) takes a run on its way out when it cannot be
    /// stored whole.
    #[inline(always)]
    fn store(&self, out_plane: &mut [T], stage: &mut [T]) {
        let (width, ow) = (self.bands.width, self.ow);
        if ow > 64 {
            for row in 0..self.count {
                let mut column = 0;
                while column < ow {
                    // The narrowest run that takes the rest of the row.
                    let left = ow - column;
                    let at = row * width + column;
                    let o = (self.y0 + row) * ow + column;
                    column += if left > 64 {
                        self.row_run::<CHUNK>(at, o, left, out_plane, stage)
                    } else if left > 32 {
                        self.row_run::<64>(at, o, left, out_plane, stage)
                    } else if left > 16 {
                        self.row_run::<32>(at, o, left, out_plane, stage)
                    } else {
                        self.row_run::<16>(at, o, left, out_plane, stage)
                    };
                }
            }
            return;
        }
        let total = self.count * width;
        let mut at = 0;
        while at < total {
            let left = total - at;
            at += if left >= CHUNK {
                self.run::<CHUNK>(at, out_plane, stage)
            } else if left >= 64 {
                self.run::<64>(at, out_plane, stage)
            } else if left >= 32 {
                self.run::<32>(at, out_plane, stage)
            } else {
                self.run::<16>(at, out_plane, stage)
            };
        }
    }

    /// The `N` sums from flat position `at` of the band, through every tap
    /// (only whole-array uses, so that they stay in registers).
    #[inline(always)]
    fn sums<const N: usize>(&self, at: usize) -> [T; N] {
        let mut sums = [T::ZERO; N];
        for (&weight, &start) in self.weights.iter().zip(&self.bands.starts) {
            // Exactly `N` long (the buffer has the slack): the conversion
            // cannot fail.
            let reads = &self.phases[start + at..][..N];
            if let Ok(reads) = <&[T; N]>::try_from(reads) {
                for (s, &v) in sums.iter_mut().zip(reads) {
                    *s = *s + weight * v;
                }
            }
        }
        sums
    }

    /// The `N` sums from flat position `at` of the band, the start of a
    /// run of `left` outputs of one row from output `o`: the first
    /// `min(N, left)` of them stored finished; returns that count.
    #[inline(always)]
    fn row_run<const N: usize>(
        &self,
        at: usize,
        o: usize,
        left: usize,
        out_plane: &mut [T],
        stage: &mut [T],
    ) -> usize {
        let sums = self.sums::<N>(at);
        let n = left.min(N);
        self.finish_run(sums, o, n, out_plane, stage);
        n
    }

    /// Stores the first `n` of a run of sums, finished, as the plane's
    /// outputs `o..o + n` (of one row).
    #[inline(always)]
    fn finish_run<const N: usize>(
        &self,
        mut sums: [T; N],
        o: usize,
        n: usize,
        out_plane: &mut [T],
        stage: &mut [T],
    ) {
        if let Some(e) = self.epilogue {
            match self.shortcut {
                Some(shortcut) => {
                    // The run's shortcut values (zeros past the row's end).
                    let near = &mut stage[..N];
                    near[n..].fill(T::ZERO);
                    copy_run(&mut near[..n], &shortcut[o..o + n]);
                    e.apply_inline(self.channel, &mut sums, Some(near));
                }
                None => e.apply_inline(self.channel, &mut sums, None),
            }
        }
        if let Ok(whole) = <&mut [T; N]>::try_from(&mut out_plane[o..o + n]) {
            *whole = sums;
            return;
        }
        let Ok(staged) = <&mut [T; N]>::try_from(&mut stage[..N]) else {
            return;
        };
        *staged = sums;
        let blocks = n.next_multiple_of(16);
        if o + blocks <= out_plane.len() {
            // Whole vectors from the stage, as it was stored: the values
            // past the row's end land on outputs after it, which are
            // stored later (rows and bands go in order).
            for k in (0..blocks).step_by(16) {
                copy_block::<T, 16>(&mut out_plane[o..], &staged[..], k);
            }
        } else {
            copy_run(&mut out_plane[o..o + n], &staged[..n]);
        }
    }

    /// The `N` sums from flat position `at` of the band (row `at / width`,
    /// column `at % width`), the outputs among them stored finished;
    /// returns `N`.
    #[inline(always)]
    fn run<const N: usize>(&self, at: usize, out_plane: &mut [T], stage: &mut [T]) -> usize {
        let mut sums = self.sums::<N>(at);
        let Ok(stage) = <&mut [T; N]>::try_from(&mut stage[..N]) else {
            return N;
        };
        if let Some(e) = self.epilogue {
            // On all `N` sums while they are in registers (the same
            // arithmetic for each as on the outputs alone), the shortcut's
            // values gathered to the outputs' places first.
            match self.shortcut {
                Some(shortcut) => {
                    self.outputs(at, N, |from, o, n| {
                        copy_run(&mut stage[from..from + n], &shortcut[o..o + n]);
                    });
                    e.apply_inline(self.channel, &mut sums, Some(&stage[..]));
                }
                None => e.apply_inline(self.channel, &mut sums, None),
            }
        }
        *stage = sums;
        self.outputs(at, N, |from, o, n| {
            copy_run(&mut out_plane[o..o + n], &stage[from..from + n]);
        });
        N
    }

    /// Calls `store(from, o, n)` for each run of outputs among the `len`
    /// sums from flat position `at` of the band: sums `from..from + n` of
    /// them are the plane's outputs `o..o + n` (each band row's first `ow`
    /// sums are outputs, the rest are dropped).
    #[inline(always)]
    fn outputs(&self, at: usize, len: usize, mut store: impl FnMut(usize, usize, usize)) {
        let (width, ow) = (self.bands.width, self.ow);
        let end = (at + len).min(self.count * width);
        let mut row = at / width;
        let mut q = at;
        while q < end {
            let row_start = row * width;
            let outputs_end = (row_start + ow).min(end);
            if q < outputs_end {
                let o = (self.y0 + row) * ow + (q - row_start);
                store(q - at, o, outputs_end - q);
            }
            q = (row_start + width).min(end);
            row += 1;
        }
    }
}

/// Channels per block of [`depthwise_blocked`]: one AVX-512 vector of f32.
const LANES: usize = 16;

/// The largest output plane [`Blocked`] takes (values): the largest
/// measured. On MobileNetV2 (one thread, fastest calls, loaded machine),
/// with its tap loop and epilogue in registers the blocked path wins or
/// ties at every size against the planar bands: 192x28x28 0.081 → 0.058
/// ms, 144x56x56 0.197 → 0.181 (0.173 with its fill's prefetch), the
/// stride-2 96x56x56 0.287 → 0.227 (0.212), and 32x112x112 0.151 →
/// 0.149. (Before those, it lost from 28x28 planes of stride 1 on: its
/// transposes cost more than the bands' row copies.)
const BLOCKED_MAX_PLANE: usize = 112 * 112;

/// From how many bytes of input (an image's planes) [`fill_blocked`]
/// prefetches: inputs that do not fit in L2 come from L3 or memory, along
/// 16 planes at once, more streams than the hardware prefetcher follows
/// well. Measured on MobileNetV2's layers of 1.6 MB and more (96x56x56 of
/// stride 2 0.227 → 0.212 ms, 144x56x56 0.181 → 0.173); on smaller ones
/// it cost up to 0.004 ms.
const PREFETCH_INPUT_BYTES: usize = 1 << 20;

/// How far ahead [`fill_blocked`] prefetches along each plane, in lines
/// of 16 values (8 measured better than 24).
const PREFETCH_LINES: usize = 8;

/// How many bytes one band of [`Blocked`] scratch rows takes at most
/// (unless a band of [`Blocked::min_band`] rows takes more): the rows stay
/// in L2, and the three rows a tap row reads from, in L1.
const BLOCKED_BYTES: usize = 96 << 10;

/// The layout of [`depthwise_blocked`]: 16 planes (channels) at a time, the
/// padded input rows under a band of output rows copied into a scratch of
/// `rows × pw` pixels of 16 channels each (channel-interleaved, by 16x16
/// transposes), every output pixel the sum of its taps over 16 channels at
/// once, and 16 pixels' sums transposed back into the 16 planes. A stride
/// or dilation is only a different pixel offset in the scratch: no phase
/// planes, and no per-plane cost for small planes (a 7x7 plane is 49 of
/// a block's pixels).
struct Blocked {
    stride: [usize; 2],
    /// Scratch row width in pixels: the padded input's columns `0..pw`,
    /// those the outputs read (input column `x` is scratch column
    /// `pad_begin + x`; the others are padding, zeros).
    pw: usize,
    /// Output rows per band; the fewest that hold [`LANES`] outputs (the
    /// last band takes the rows left when fewer than these would be).
    band: usize,
    min_band: usize,
    /// Per kernel tap (row-major): its read's offset from an output
    /// pixel's first value in the scratch, and the largest of them.
    offsets: Vec<usize>,
    reach: usize,
    /// The scratch's length in values.
    len: usize,
    /// How many lines of 16 values ahead [`fill_blocked`] prefetches along
    /// each plane (0: none).
    ahead: usize,
}

impl Blocked {
    /// `None` unless this CPU has AVX-512, there are at least 16 channels,
    /// each input and output plane holds at least 16 values, the output
    /// plane at most [`BLOCKED_MAX_PLANE`]'s, and no pad is negative. Bands
    /// take about `budget` bytes of scratch rows.
    fn new(g: &Geometry, budget: usize) -> Option<Blocked> {
        let planes_fit = g.groups >= LANES
            && g.input_size() >= LANES
            && (LANES..=BLOCKED_MAX_PLANE).contains(&g.output_size())
            && g.kernel_size() > 0;
        if !planes_fit || g.pad_begin[1] < 0 || g.pad_begin[2] < 0 || !has_avx512() {
            return None;
        }
        let (sy, sx) = (g.stride[1].max(1), g.stride[2].max(1));
        let (dy, dx) = (g.dilation[1], g.dilation[2]);
        let [_, kh, kw] = g.kernel;
        let [_, oh, ow] = g.output;
        let pw = (ow - 1) * sx + (kw - 1) * dx + 1;
        let rows = |band: usize| (band - 1) * sy + (kh - 1) * dy + 1;
        let row_bytes = pw * LANES * std::mem::size_of::<f32>();
        let min_band = LANES.div_ceil(ow).min(oh);
        let mut band = min_band;
        while band < oh && rows(band + 1) * row_bytes <= budget {
            band += 1;
        }
        let offsets: Vec<usize> = (0..kh * kw)
            .map(|t| ((t / kw) * dy * pw + (t % kw) * dx) * LANES)
            .collect();
        Some(Blocked {
            stride: [sy, sx],
            pw,
            band,
            min_band,
            reach: offsets.iter().max().map_or(0, |&o| o),
            offsets,
            len: rows(band + min_band - 1) * pw * LANES,
            ahead: if g.groups * g.input_size() * std::mem::size_of::<f32>() >= PREFETCH_INPUT_BYTES
            {
                PREFETCH_LINES
            } else {
                0
            },
        })
    }
}

/// `o` as f32 operands when `T` is f32 (the blocked path's type).
fn as_f32<'a, T: Scalar + bytemuck::Pod>(o: &Operands<'a, T>) -> Option<Operands<'a, f32>> {
    if std::any::TypeId::of::<T>() != std::any::TypeId::of::<f32>() {
        return None;
    }
    let epilogue = match o.epilogue {
        Some(e) => Some(e.as_f32()?),
        None => None,
    };
    Some(Operands {
        x: bytemuck::cast_slice(o.x),
        w: bytemuck::cast_slice(o.w),
        g: o.g,
        bands: o.bands,
        epilogue,
        shortcut: o.shortcut.map(bytemuck::cast_slice),
    })
}

/// One task of [`depthwise_blocked`]: a block of 16 planes, or the planes
/// of an image left after its blocks (fewer than 16, by [`banded_planes`]);
/// the index of the first plane and the output planes.
enum Work<'a> {
    Block(usize, &'a mut [f32]),
    Planes(usize, &'a mut [f32]),
}

/// A thread's buffers for [`depthwise_blocked`]: the blocked scratch (its
/// padding columns zeros, as made), the block's weights by tap, and the
/// phase planes of [`banded_planes`] (made when first needed).
struct Scratch {
    rows: Vec<f32>,
    taps: Vec<[f32; LANES]>,
    phases: Vec<f32>,
    /// Where each input value of a band goes in `rows` ([`fill_blocked`]),
    /// and the first output row of the band it was made for.
    places: Vec<u32>,
    places_band: Option<usize>,
}

/// A 1-D or 2-D depthwise convolution by blocks of 16 channels
/// ([`Blocked`]), each image's last planes (the channels past its last
/// whole block) by [`banded_planes`]. Blocks go to the threads, each with
/// its own scratch.
fn depthwise_blocked(o: &Operands<'_, f32>, b: &Blocked, out: &mut [f32]) {
    let p_out = o.g.output_size();
    let channels = o.g.groups;
    let whole = channels / LANES * LANES;
    let parallel = std::mem::size_of_val(out) >= 1 << 16 && rayon::current_num_threads() > 1;
    let mut work = Vec::new();
    for (n, image) in out.chunks_exact_mut(channels * p_out).enumerate() {
        let (blocks, rest) = image.split_at_mut(whole * p_out);
        for (i, dst) in blocks.chunks_exact_mut(LANES * p_out).enumerate() {
            work.push(Work::Block(n * channels + i * LANES, dst));
        }
        if !rest.is_empty() {
            work.push(Work::Planes(n * channels + whole, rest));
        }
    }
    let init = || Scratch {
        // With a pixel past the band's rows for the values a fill drops.
        rows: vec![0.0; b.len + LANES],
        taps: Vec::new(),
        phases: Vec::new(),
        places: Vec::new(),
        places_band: None,
    };
    let run = |s: &mut Scratch, item: Work<'_>| match item {
        Work::Block(first, dst) => {
            // SAFETY: `b` exists, so `Blocked::new` found the CPU's
            // AVX-512 (`has_avx512`), the features `blocked_group` needs.
            #[cfg(target_arch = "x86_64")]
            unsafe {
                blocked_group(o, b, first, dst, s)
            };
            // (Elsewhere `Blocked::new` is always `None`.)
            #[cfg(not(target_arch = "x86_64"))]
            let _ = (first, dst, s);
        }
        Work::Planes(first, dst) => {
            if s.phases.is_empty() {
                s.phases = vec![0.0; o.bands.len];
            }
            banded_planes(o, first, dst, &mut s.phases);
        }
    };
    if parallel && work.len() > 1 {
        work.into_par_iter().for_each_init(init, run);
    } else {
        let mut s = init();
        for item in work {
            run(&mut s, item);
        }
    }
}

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m512, _mm512_add_ps, _mm512_castpd_ps, _mm512_castps_pd, _mm512_loadu_ps, _mm512_mul_ps,
    _mm512_setzero_ps, _mm512_shuffle_f32x4, _mm512_storeu_ps, _mm512_unpackhi_pd,
    _mm512_unpackhi_ps, _mm512_unpacklo_pd, _mm512_unpacklo_ps, _mm_prefetch, _MM_HINT_T0,
};

/// The 16 values of `s` from `at` as a vector.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn load(s: &[f32], at: usize) -> __m512 {
    let v = &s[at..at + LANES];
    // SAFETY: `v` holds the 16 values read.
    unsafe { _mm512_loadu_ps(v.as_ptr()) }
}

/// Stores `v` as the 16 values of `s` from `at`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn store(s: &mut [f32], at: usize, v: __m512) {
    let to = &mut s[at..at + LANES];
    // SAFETY: `to` holds the 16 values written.
    unsafe { _mm512_storeu_ps(to.as_mut_ptr(), v) }
}

/// The 16 output planes `dst` of the planes from `first` (one image's
/// channels `c0..c0 + 16`), band by band: the input rows under the band
/// transposed into `s.rows`, then 16 output pixels at a time, each the
/// sum of its taps in kernel order from zero (a multiply, then an add:
/// the same roundings as the planar paths), transposed back to the
/// planes, finished by the epilogue in registers, and stored.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512dq,avx512vl")]
fn blocked_group(
    o: &Operands<'_, f32>,
    b: &Blocked,
    first: usize,
    dst: &mut [f32],
    s: &mut Scratch,
) {
    let g = o.g;
    let (p_in, p_out) = (g.input_size(), g.output_size());
    let c0 = first % g.groups;
    let src = &o.x[first * p_in..][..LANES * p_in];
    let shortcut = o.shortcut.map(|sc| &sc[first * p_out..][..LANES * p_out]);
    block_weights(o.w, g.kernel_size(), c0, &mut s.taps);
    // The bias of the block's 16 channels, one per lane.
    let bias = o
        .epilogue
        .and_then(|e| e.bias.as_ref())
        .map(|bias| load(bias, c0));
    let [_, oh, ow] = g.output;
    let [sy, sx] = b.stride;
    let (kh, kw) = (g.kernel[1], g.kernel[2]);
    let walk = Walk {
        ow,
        step: sx * LANES,
        row_step: sy * b.pw * LANES,
        tap_row: g.dilation[1] * b.pw * LANES,
        tap_column: g.dilation[2] * LANES,
    };
    let mut y0 = 0;
    while y0 < oh {
        let mut count = b.band.min(oh - y0);
        if oh - y0 - count < b.min_band {
            count = oh - y0;
        }
        if s.places_band != Some(y0) {
            band_places(g, b, y0, count, &mut s.places);
            s.places_band = Some(y0);
        }
        fill_blocked(src, g, b, y0, count, &s.places, &mut s.rows);
        let rows = &s.rows[..b.len];
        let mut p = y0 * ow;
        let end = (y0 + count) * ow;
        while p < end {
            // The band holds at least 16 outputs: the last block of 16
            // overlaps the one before (the same sums again).
            let at = p.min(end - LANES);
            // Each pixel's reads start further than the one before (rows
            // in order, a row's pixels in order): the last pixel's last
            // read is the furthest, checked once, not at every read.
            let base_of = |q: usize| ((q / ow - y0) * sy * b.pw + q % ow * sx) * LANES;
            assert!(base_of(at + LANES - 1) + b.reach + LANES <= rows.len());
            let (base, x) = (base_of(at), at % ow);
            // SAFETY: every read is at most the last pixel's furthest
            // (asserted above).
            let sums = unsafe {
                match (kh, kw) {
                    (3, 3) => walk.sums::<3, 3>(rows, &s.taps, base, x),
                    (5, 5) => walk.sums::<5, 5>(rows, &s.taps, base, x),
                    _ => walk.sums_any(rows, &s.taps, &b.offsets, base, x),
                }
            };
            match (o.epilogue, shortcut) {
                // The shortcut is by planes: the bias is added to the
                // pixels' 16 channels, the rest to the planes' 16 pixels.
                (Some(e), Some(sc)) => {
                    let mut sums = sums;
                    if let Some(bias) = bias {
                        for v in &mut sums {
                            *v = _mm512_add_ps(*v, bias);
                        }
                    }
                    for (lane, v) in transpose(sums).into_iter().enumerate() {
                        let at = lane * p_out + at;
                        store(dst, at, e.apply_vector(None, v, Some(load(sc, at))));
                    }
                }
                // All of it on the pixels' 16 channels.
                (Some(e), None) => {
                    let mut sums = sums;
                    for v in &mut sums {
                        *v = e.apply_vector(bias, *v, None);
                    }
                    for (lane, v) in transpose(sums).into_iter().enumerate() {
                        store(dst, lane * p_out + at, v);
                    }
                }
                (None, _) => {
                    for (lane, v) in transpose(sums).into_iter().enumerate() {
                        store(dst, lane * p_out + at, v);
                    }
                }
            }
            p = at + LANES;
        }
        y0 += count;
    }
}

/// The weights of channels `c0..c0 + 16` by tap into `taps` (tap `t`'s 16
/// weights, one per channel), 16 taps at a time by a transpose of their
/// rows (masked loads past a channel's last tap).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512dq,avx512vl")]
fn block_weights(w: &[f32], k_size: usize, c0: usize, taps: &mut Vec<[f32; LANES]>) {
    use std::arch::x86_64::_mm512_maskz_loadu_ps;
    taps.clear();
    let channels = &w[c0 * k_size..][..LANES * k_size];
    for t0 in (0..k_size).step_by(LANES) {
        let n = LANES.min(k_size - t0);
        let mask = ((1u32 << n) - 1) as u16;
        let rows: [__m512; LANES] = std::array::from_fn(|lane| {
            let row = &channels[lane * k_size + t0..][..n];
            // SAFETY: the mask reads only the `n` values of `row`.
            unsafe { _mm512_maskz_loadu_ps(mask, row.as_ptr()) }
        });
        for v in &transpose(rows)[..n] {
            let mut tap = [0.0f32; LANES];
            store(&mut tap, 0, *v);
            taps.push(tap);
        }
    }
}

/// How [`blocked_group`] steps from one output pixel's reads to the
/// next's and to its taps' in the scratch, in values: the next pixel of a
/// row (of `ow`) is `step` further, the next row's first `row_step` after
/// this row's first; tap `(ky, kx)` is `ky * tap_row + kx * tap_column`
/// from the pixel's start.
#[cfg(target_arch = "x86_64")]
struct Walk {
    ow: usize,
    step: usize,
    row_step: usize,
    tap_row: usize,
    tap_column: usize,
}

#[cfg(target_arch = "x86_64")]
impl Walk {
    /// Where the reads of the pixel after the one at `base` (column `x`)
    /// start, and its column.
    #[inline(always)]
    fn next(&self, base: usize, x: usize) -> (usize, usize) {
        if x + 1 == self.ow {
            (base - x * self.step + self.row_step, 0)
        } else {
            (base + self.step, x + 1)
        }
    }

    /// Where the reads of the 16 output pixels from the one at `base`
    /// (column `x`) start.
    #[inline(always)]
    fn bases(&self, base: usize, x: usize) -> [usize; LANES] {
        let (mut base, mut x) = (base, x);
        let mut bases = [0; LANES];
        for b in &mut bases {
            *b = base;
            (base, x) = self.next(base, x);
        }
        bases
    }

    /// The sums of the 16 output pixels whose reads start at `base` in
    /// `rows` (the first at column `x` of its row), for a `KH x KW`
    /// kernel: four pixels at a time through their taps in kernel order
    /// (four independent chains of additions in flight), the weights in
    /// registers and each read at a fixed distance from its pixel's start.
    /// (Sixteen pixels at a time through each tap kept 16 addresses, which
    /// did not fit in the general registers and were reloaded from the
    /// stack at every read.)
    ///
    /// # Safety
    /// Every read, up to the last pixel's last tap's 16 values, is inside
    /// `rows`.
    #[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512dq,avx512vl")]
    #[inline]
    unsafe fn sums<const KH: usize, const KW: usize>(
        &self,
        rows: &[f32],
        taps: &[[f32; LANES]],
        base: usize,
        x: usize,
    ) -> [__m512; LANES] {
        let weights: [[__m512; KW]; KH] =
            std::array::from_fn(|ky| std::array::from_fn(|kx| load(&taps[ky * KW + kx], 0)));
        let bases = self.bases(base, x);
        let mut sums = [_mm512_setzero_ps(); LANES];
        for (group, out) in bases.chunks_exact(4).zip(sums.chunks_exact_mut(4)) {
            let pixels = [0, 1, 2, 3].map(|k| rows.as_ptr().wrapping_add(group[k]));
            let mut acc = [_mm512_setzero_ps(); 4];
            for (ky, row) in weights.iter().enumerate() {
                for (kx, &w) in row.iter().enumerate() {
                    let at = ky * self.tap_row + kx * self.tap_column;
                    for (sum, pixel) in acc.iter_mut().zip(pixels) {
                        // SAFETY: as the caller guarantees.
                        let v = unsafe { _mm512_loadu_ps(pixel.add(at)) };
                        *sum = _mm512_add_ps(*sum, _mm512_mul_ps(w, v));
                    }
                }
            }
            out.copy_from_slice(&acc);
        }
        sums
    }

    /// [`Walk::sums`] for any kernel: the taps' weights read with their
    /// values, their distances from `offsets`.
    ///
    /// # Safety
    /// As [`Walk::sums`].
    #[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512dq,avx512vl")]
    #[inline]
    unsafe fn sums_any(
        &self,
        rows: &[f32],
        taps: &[[f32; LANES]],
        offsets: &[usize],
        base: usize,
        x: usize,
    ) -> [__m512; LANES] {
        let bases = self.bases(base, x);
        let mut sums = [_mm512_setzero_ps(); LANES];
        for (group, out) in bases.chunks_exact(4).zip(sums.chunks_exact_mut(4)) {
            let pixels = [0, 1, 2, 3].map(|k| rows.as_ptr().wrapping_add(group[k]));
            let mut acc = [_mm512_setzero_ps(); 4];
            for (weights, &at) in taps.iter().zip(offsets) {
                let w = load(weights, 0);
                for (sum, pixel) in acc.iter_mut().zip(pixels) {
                    // SAFETY: as the caller guarantees.
                    let v = unsafe { _mm512_loadu_ps(pixel.add(at)) };
                    *sum = _mm512_add_ps(*sum, _mm512_mul_ps(w, v));
                }
            }
            out.copy_from_slice(&acc);
        }
        sums
    }
}

/// Where each input value under the band of `count` output rows from
/// `y0` goes in the [`Blocked`] scratch (the first value of its pixel),
/// in the order of the input from the band's first row: the same for
/// every block of channels, so made once per band. Values never read (the
/// columns a negative end pad cuts) go to the pixel past the band's rows,
/// [`Blocked::len`].
fn band_places(g: &Geometry, b: &Blocked, y0: usize, count: usize, places: &mut Vec<u32>) {
    let (first_row, end_row) = band_input_rows(g, b, y0, count);
    let [_, _, iw] = g.input;
    let (pt, pl) = (g.pad_begin[1] as usize, g.pad_begin[2] as usize);
    let r0 = y0 * b.stride[0];
    let columns = iw.min(b.pw.saturating_sub(pl));
    places.clear();
    for iy in first_row..end_row {
        let row = (iy + pt - r0) * b.pw + pl;
        places.extend((0..iw).map(|ix| {
            let at = if ix < columns {
                (row + ix) * LANES
            } else {
                b.len
            };
            // The scratch is far below 2^32 values (a band's budget).
            at as u32
        }));
    }
}

/// The input rows `first..end` under the band of `count` output rows
/// from `y0` (those of its padded rows that are not padding).
fn band_input_rows(g: &Geometry, b: &Blocked, y0: usize, count: usize) -> (usize, usize) {
    let [_, ih, _] = g.input;
    let (kh, dy) = (g.kernel[1], g.dilation[1]);
    let pt = g.pad_begin[1] as usize;
    let r0 = y0 * b.stride[0];
    let r1 = (y0 + count - 1) * b.stride[0] + (kh - 1) * dy + 1;
    (r0.saturating_sub(pt).min(ih), r1.saturating_sub(pt).min(ih))
}

/// Copies the padded input rows under the band of `count` output rows from
/// `y0` from the 16 planes `src` into `rows`, channel-interleaved: 16
/// input values of each plane at a time (along the plane, across its
/// rows), transposed into 16 pixels, each stored where `places` (made by
/// [`band_places`] for this band) says. Rows of padding are zeroed;
/// columns of padding are never written (zeros since the scratch was
/// made).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512dq,avx512vl")]
fn fill_blocked(
    src: &[f32],
    g: &Geometry,
    b: &Blocked,
    y0: usize,
    count: usize,
    places: &[u32],
    rows: &mut [f32],
) {
    let [sy, _] = b.stride;
    let [_, ih, iw] = g.input;
    let (kh, dy) = (g.kernel[1], g.dilation[1]);
    let pt = g.pad_begin[1] as usize;
    let p_in = g.input_size();
    let row = b.pw * LANES;
    // Padded rows r0..r1 are scratch rows 0..r1 - r0.
    let r0 = y0 * sy;
    let r1 = (y0 + count - 1) * sy + (kh - 1) * dy + 1;
    for r in r0..r1 {
        if r < pt || r - pt >= ih {
            rows[(r - r0) * row..][..row].fill(0.0);
        }
    }
    let (first_row, end_row) = band_input_rows(g, b, y0, count);
    let (start, end) = (first_row * iw, end_row * iw);
    let places = &places[..end - start];
    let mut p = start;
    while p < end {
        // A whole block of 16 from the plane, its values outside the band
        // dropped (stored past the band's rows).
        let at = p.min(p_in - LANES);
        let pixels = transpose(std::array::from_fn(|lane| load(src, lane * p_in + at)));
        if b.ahead > 0 {
            // The same line of each plane `ahead` lines on (past a
            // plane's end, the next plane's first: read next or soon).
            for lane in 0..LANES {
                let line = src
                    .as_ptr()
                    .wrapping_add(lane * p_in + at + b.ahead * LANES);
                // A prefetch reads nothing and faults on no address.
                _mm_prefetch::<_MM_HINT_T0>(line.cast());
            }
        }
        if at == p && at + LANES <= end {
            let to = &places[at - start..][..LANES];
            for (pixel, &to) in pixels.into_iter().zip(to) {
                store(rows, to as usize, pixel);
            }
        } else {
            for (j, pixel) in pixels.into_iter().enumerate() {
                let q = at + j;
                let to = if q >= p && q < end {
                    places[q - start] as usize
                } else {
                    b.len
                };
                store(rows, to, pixel);
            }
        }
        p = at + LANES;
    }
}

/// Transposes 16 vectors of 16 values in registers: four rounds of
/// AVX-512 shuffles (pairs of values, pairs of pairs, then 128-bit lanes
/// twice), 64 instructions for 256 values.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn transpose(r: [__m512; LANES]) -> [__m512; LANES] {
    // Rows 2i and 2i + 1 interleaved by pairs of values, within each lane.
    let t: [__m512; LANES] = std::array::from_fn(|i| {
        let (a, b) = (r[i & !1], r[i | 1]);
        if i % 2 == 0 {
            _mm512_unpacklo_ps(a, b)
        } else {
            _mm512_unpackhi_ps(a, b)
        }
    });
    // Then by pairs of pairs: u[4k + col] holds, in lane l, column 4l +
    // col of rows 4k..4k + 4.
    let u: [__m512; LANES] = std::array::from_fn(|i| {
        let (k, col) = (i / 4, i % 4);
        let (a, b) = (
            _mm512_castps_pd(t[4 * k + col / 2]),
            _mm512_castps_pd(t[4 * k + col / 2 + 2]),
        );
        _mm512_castpd_ps(if col % 2 == 0 {
            _mm512_unpacklo_pd(a, b)
        } else {
            _mm512_unpackhi_pd(a, b)
        })
    });
    // Lanes 0-1 and 2-3 of rows col and 4 + col (v), of 8 + col and 12 +
    // col (w).
    let v: [__m512; 8] = std::array::from_fn(|i| {
        let col = i % 4;
        if i < 4 {
            _mm512_shuffle_f32x4::<0x44>(u[col], u[4 + col])
        } else {
            _mm512_shuffle_f32x4::<0xEE>(u[col], u[4 + col])
        }
    });
    let w: [__m512; 8] = std::array::from_fn(|i| {
        let col = i % 4;
        if i < 4 {
            _mm512_shuffle_f32x4::<0x44>(u[8 + col], u[12 + col])
        } else {
            _mm512_shuffle_f32x4::<0xEE>(u[8 + col], u[12 + col])
        }
    });
    // Column 4l + col: lane l of u[col], u[4 + col], u[8 + col], u[12 + col].
    std::array::from_fn(|i| {
        let (l, col) = (i / 4, i % 4);
        let half = if l < 2 { col } else { 4 + col };
        if l % 2 == 0 {
            _mm512_shuffle_f32x4::<0x88>(v[half], w[half])
        } else {
            _mm512_shuffle_f32x4::<0xDD>(v[half], w[half])
        }
    })
}

/// The narrowest output row [`Direct`] takes: narrower rows fill too few
/// of a vector's 16 lanes (a 7-wide row 7), and go blocked.
const DIRECT_MIN_WIDTH: usize = 14;

/// The most bytes of output (an image's) [`Direct`] takes: an output
/// larger than L2 (1 MiB here) made its calls slow on average though its
/// fastest ones were fast (MobileNetV2's 96x56x56 of stride 2: fastest
/// 0.154-0.238 ms against blocked's 0.200, mean 0.41 against 0.22;
/// 144x56x56: 0.125 against 0.158, mean 0.19-0.21 against 0.18), while
/// the smaller ones gained in both.
const DIRECT_MAX_OUTPUT_BYTES: usize = 1 << 20;

/// The widest output row [`Direct`] takes: 4 vectors of 16. A 112-wide
/// row (7 vectors, a tile of one row) measured slower than blocked.
const DIRECT_MAX_WIDTH: usize = 4 * LANES;

/// The layout of [`depthwise_direct`]: 3x3 kernels of stride 1 or 2 on
/// the planes as they are (no copy, no transpose), 16 outputs of a row a
/// vector, each tap one load (stride 1) or two loads and a permute
/// (stride 2, its even columns) straight from the input plane, masked
/// where they would read padding (which the loads make zeros).
struct Direct {
    /// Vectors of 16 outputs per output row.
    chunks: usize,
    /// Per chunk and tap column: which of the 16 (for stride 2, 32: two
    /// masks) values its reads take from the padded row are inside the
    /// input row.
    columns: Vec<DirectColumn>,
}

#[derive(Clone, Copy, Debug)]
struct DirectColumn {
    /// The 16 values from the first read, for stride 2 the 16 after
    /// them, and the one after those (its lowest bit).
    masks: [u16; 3],
}

impl Direct {
    /// `None` unless this CPU has AVX-512, the kernel is 3x3, undilated,
    /// of stride 1 or 2 along each axis, with no negative pad, and the
    /// output rows are [`DIRECT_MIN_WIDTH`] to [`DIRECT_MAX_WIDTH`] wide.
    fn new(g: &Geometry) -> Option<Direct> {
        let [_, kh, kw] = g.kernel;
        let [_, _, ow] = g.output;
        let [_, sy, sx] = g.stride;
        let fits = (kh, kw) == (3, 3)
            && g.dilation[1..] == [1, 1]
            && sy == sx
            && (1..=2).contains(&sx)
            && (DIRECT_MIN_WIDTH..=DIRECT_MAX_WIDTH).contains(&ow)
            && g.groups * g.output_size() * std::mem::size_of::<f32>() <= DIRECT_MAX_OUTPUT_BYTES
            && g.pad_begin[1] >= 0
            && g.pad_begin[2] >= 0;
        if !fits || !has_avx512() {
            return None;
        }
        let iw = g.input[2] as isize;
        let pl = g.pad_begin[2] as isize;
        let chunks = ow.div_ceil(LANES);
        // Bit j of a mask: whether column `start + j` is inside the row.
        let mask = |start: isize| {
            (0..LANES).fold(0u16, |m, j| {
                let c = start + j as isize;
                if (0..iw).contains(&c) {
                    m | 1 << j
                } else {
                    m
                }
            })
        };
        let columns = (0..chunks)
            .flat_map(|c| {
                (0..kw).map(move |kx| {
                    let start = ((c * LANES * sx) + kx) as isize - pl;
                    (start, sx)
                })
            })
            .map(|(start, sx)| DirectColumn {
                masks: if sx == 2 {
                    let after = 2 * LANES as isize;
                    [
                        mask(start),
                        mask(start + LANES as isize),
                        mask(start + after) & 1,
                    ]
                } else {
                    [mask(start), 0, 0]
                },
            })
            .collect();
        Some(Direct { chunks, columns })
    }
}

/// A 3x3 depthwise convolution on the planes as they are ([`Direct`]):
/// runs of planes go to the threads.
fn depthwise_direct(o: &Operands<'_, f32>, d: &Direct, out: &mut [f32]) {
    let p_out = o.g.output_size();
    let planes = out.len() / p_out;
    let threads = rayon::current_num_threads();
    let run = |first: usize, dst: &mut [f32]| {
        // SAFETY: `d` exists, so `Direct::new` found the CPU's AVX-512.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            direct_planes(o, d, first, dst)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (first, dst);
    };
    if std::mem::size_of_val(out) >= 1 << 16 && threads > 1 && planes > 1 {
        let per_task = planes.div_ceil(DIRECT_TASKS_PER_THREAD * threads);
        out.par_chunks_mut(per_task * p_out)
            .enumerate()
            .for_each(|(i, dst)| run(i * per_task, dst));
    } else {
        run(0, out);
    }
}

/// How many runs of planes [`depthwise_direct`] makes per thread.
const DIRECT_TASKS_PER_THREAD: usize = 4;

/// The output planes `first..` in `dst` of [`depthwise_direct`], tile by
/// tile: `R` output rows of `C` vectors each, chosen by the row's width
/// (8 vectors of sums in registers, or 6 for rows of 3: enough
/// independent chains of additions to hide their latency, with the 9
/// weights well inside the 32 vector registers).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512dq,avx512vl")]
fn direct_planes(o: &Operands<'_, f32>, d: &Direct, first: usize, dst: &mut [f32]) {
    match (d.chunks, o.g.stride[2]) {
        (1, 1) => direct_tiles::<8, 1, 1>(o, d, first, dst),
        (2, 1) => direct_tiles::<4, 2, 1>(o, d, first, dst),
        (3, 1) => direct_tiles::<2, 3, 1>(o, d, first, dst),
        (_, 1) => direct_tiles::<2, 4, 1>(o, d, first, dst),
        (1, _) => direct_tiles::<8, 1, 2>(o, d, first, dst),
        (2, _) => direct_tiles::<4, 2, 2>(o, d, first, dst),
        (3, _) => direct_tiles::<2, 3, 2>(o, d, first, dst),
        (_, _) => direct_tiles::<2, 4, 2>(o, d, first, dst),
    }
}

/// [`direct_planes`] with tiles of `R` rows of `C` vectors (`C` the
/// row's), columns of stride `SX`: each tile's sums through the 9 taps in
/// kernel order (a multiply, then an add, from zero: the same roundings
/// as the other paths; the taps that fall in padding rows are skipped,
/// which adds the same as their zero products would), then finished by
/// the epilogue in registers and stored (masked past the row's end).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512dq,avx512vl")]
// Indexed loops and `match`es rather than iterators, `array::from_fn` and
// `Option::map`: their closures are not compiled with this function's
// features, and calls to them spilled the sums (measured 2x slower).
#[allow(clippy::needless_range_loop, clippy::manual_map)]
fn direct_tiles<const R: usize, const C: usize, const S: usize>(
    o: &Operands<'_, f32>,
    d: &Direct,
    first: usize,
    dst: &mut [f32],
) {
    use std::arch::x86_64::{
        _mm512_alignr_epi32, _mm512_castps_si512, _mm512_castsi512_ps, _mm512_mask_storeu_ps,
        _mm512_maskz_loadu_ps, _mm512_permutex2var_ps, _mm512_set1_ps, _mm512_setr_epi32,
    };
    let g = o.g;
    let (p_in, p_out) = (g.input_size(), g.output_size());
    let [_, ih, iw] = g.input;
    let [_, oh, ow] = g.output;
    let (pt, pl) = (g.pad_begin[1] as usize, g.pad_begin[2] as usize);
    let even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    let odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    let mut columns = [[DirectColumn { masks: [0; 3] }; 3]; C];
    // Lanes stored of each chunk: those inside the row.
    let mut stores = [0u16; C];
    for c in 0..C {
        for kx in 0..3 {
            columns[c][kx] = d.columns[c * 3 + kx];
        }
        let n = ow.saturating_sub(c * LANES).min(LANES);
        stores[c] = ((1u32 << n) - 1) as u16;
    }
    for (i, out_plane) in dst.chunks_exact_mut(p_out).enumerate() {
        let index = first + i;
        let channel = index % g.groups;
        let plane = &o.x[index * p_in..][..p_in];
        let mut weights = [[_mm512_setzero_ps(); 3]; 3];
        for ky in 0..3 {
            for kx in 0..3 {
                weights[ky][kx] = _mm512_set1_ps(o.w[channel * 9 + ky * 3 + kx]);
            }
        }
        let bias = match o.epilogue.and_then(|e| e.bias.as_ref()) {
            Some(b) => Some(_mm512_set1_ps(b[channel])),
            None => None,
        };
        let shortcut = match o.shortcut {
            Some(s) => Some(&s[index * p_out..][..p_out]),
            None => None,
        };
        let mut y0 = 0;
        while y0 < oh {
            let mut sums = [[_mm512_setzero_ps(); C]; R];
            // The tile's input rows in order, each read once for every
            // output row it is under: output row `r` takes input row `j`
            // under tap row `j - r * S`, so each sum still goes through
            // its taps in kernel order. Rows of padding are skipped.
            let top = (y0 * S) as isize - pt as isize;
            // Unrolled by hand, `j` a constant in each copy: LLVM leaves a
            // loop over up to 17 rows rolled, and then reads the weights
            // from memory and tests every tap's row at run time.
            // Input row `j`'s values `v` under tap column `kx`, chunk `c`,
            // into the sums of the tile rows it is under.
            macro_rules! add_taps {
                ($j:literal, $kx:expr, $c:expr, $v:expr) => {
                    for r in 0..R {
                        let ky = ($j as usize).wrapping_sub(r * S);
                        if ky < 3 {
                            let w = weights[ky][$kx];
                            sums[r][$c] = _mm512_add_ps(sums[r][$c], _mm512_mul_ps(w, $v));
                        }
                    }
                };
            }
            macro_rules! input_rows {
                ($($j:literal)*) => {$(
                    let iy = top + $j;
                    if $j < (R - 1) * S + 3 && iy >= 0 && iy < ih as isize {
                        // Column `pl` of the input row is padded column 0.
                        let row = plane[iy as usize * iw..].as_ptr().wrapping_sub(pl);
                        if S == 1 {
                            for kx in 0..3 {
                                for c in 0..C {
                                    let at = row.wrapping_add(c * LANES + kx);
                                    // SAFETY: the mask lets through only
                                    // the values of the input row
                                    // (`Direct::new`).
                                    let v = unsafe {
                                        _mm512_maskz_loadu_ps(columns[c][kx].masks[0], at)
                                    };
                                    add_taps!($j, kx, c, v);
                                }
                            }
                        } else {
                            // The chunk's 32 padded columns from its first
                            // read: their even ones are tap column 0's,
                            // their odd ones tap column 1's, and tap
                            // column 2's are the even ones from the
                            // second on, then the 33rd column.
                            let mut taps = [[_mm512_setzero_ps(); 3]; C];
                            for c in 0..C {
                                let [lo, hi, next] = columns[c][0].masks;
                                let at = row.wrapping_add(c * 2 * LANES);
                                // SAFETY: the masks let through only the
                                // values of the input row (`Direct::new`).
                                let (lo, hi, next) = unsafe {
                                    (
                                        _mm512_maskz_loadu_ps(lo, at),
                                        _mm512_maskz_loadu_ps(hi, at.wrapping_add(LANES)),
                                        _mm512_maskz_loadu_ps(next, at.wrapping_add(2 * LANES)),
                                    )
                                };
                                let even_columns = _mm512_permutex2var_ps(lo, even, hi);
                                taps[c] = [
                                    even_columns,
                                    _mm512_permutex2var_ps(lo, odd, hi),
                                    _mm512_castsi512_ps(_mm512_alignr_epi32::<1>(
                                        _mm512_castps_si512(next),
                                        _mm512_castps_si512(even_columns),
                                    )),
                                ];
                            }
                            for kx in 0..3 {
                                for c in 0..C {
                                    add_taps!($j, kx, c, taps[c][kx]);
                                }
                            }
                        }
                    }
                )*};
            }
            input_rows!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
            for r in 0..R {
                let y = y0 + r;
                if y >= oh {
                    break;
                }
                for c in 0..C {
                    let at = y * ow + c * LANES;
                    let n = LANES.min(ow - c * LANES);
                    let to = &mut out_plane[at..at + n];
                    let v = match o.epilogue {
                        Some(e) => {
                            let s = match shortcut {
                                // SAFETY: the mask reads only the `n`
                                // values of the shortcut at these outputs.
                                Some(s) => Some(unsafe {
                                    _mm512_maskz_loadu_ps(stores[c], s[at..at + n].as_ptr())
                                }),
                                None => None,
                            };
                            e.apply_vector(bias, sums[r][c], s)
                        }
                        None => sums[r][c],
                    };
                    // SAFETY: the mask writes only the `n` values of `to`.
                    unsafe { _mm512_mask_storeu_ps(to.as_mut_ptr(), stores[c], v) };
                }
            }
            y0 += R;
        }
    }
}

/// A depthwise convolution by output rows: for each output row and kernel
/// tap, a multiply-add over the run of outputs whose reads are inside the
/// input (contiguous when the stride is 1).
fn depthwise_rows<T: Scalar>(
    x: &[T],
    w: &[T],
    g: &Geometry,
    out: &mut [T],
    epilogue: Option<&Epilogue<T>>,
    shortcut: Option<&[T]>,
) {
    let (p_in, p_out, k_size) = (g.input_size(), g.output_size(), g.kernel_size());
    let plane = |index: usize, dst: &mut [T]| {
        let channel = index % g.groups;
        let src = &x[index * p_in..(index + 1) * p_in];
        let taps = &w[channel * k_size..(channel + 1) * k_size];
        dst.fill(T::ZERO);
        g.for_each_run(|tap, o, i, stride, run| {
            let weight = taps[tap];
            let outs = &mut dst[o..o + run];
            if stride == 1 {
                for (o, &v) in outs.iter_mut().zip(&src[i..i + run]) {
                    *o = *o + weight * v;
                }
            } else {
                for (o, &v) in outs.iter_mut().zip(src[i..].iter().step_by(stride)) {
                    *o = *o + weight * v;
                }
            }
        });
        if let Some(e) = epilogue {
            e.apply_at(channel, dst, shortcut.map(|s| &s[index * p_out..][..p_out]));
        }
    };
    if std::mem::size_of_val(out) >= 1 << 16 && rayon::current_num_threads() > 1 {
        out.par_chunks_mut(p_out)
            .enumerate()
            .for_each(|(i, dst)| plane(i, dst));
    } else {
        for (i, dst) in out.chunks_mut(p_out).enumerate() {
            plane(i, dst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A depthwise convolution by direct enumeration of every tap.
    fn reference(x: &[f64], w: &[f64], g: &Geometry) -> Vec<f64> {
        let (p_in, k_size) = (g.input_size(), g.kernel_size());
        let [_, ih, iw] = g.input;
        let [_, kh, kw] = g.kernel;
        let mut out = Vec::new();
        for plane in 0..g.batch * g.groups {
            let channel = plane % g.groups;
            for y in 0..g.output[1] {
                for o in 0..g.output[2] {
                    let mut sum = 0.0;
                    for t in 0..kh * kw {
                        let iy =
                            (y * g.stride[1] + (t / kw) * g.dilation[1]) as i64 - g.pad_begin[1];
                        let ix =
                            (o * g.stride[2] + (t % kw) * g.dilation[2]) as i64 - g.pad_begin[2];
                        if (0..ih as i64).contains(&iy) && (0..iw as i64).contains(&ix) {
                            sum += w[channel * k_size + t]
                                * x[plane * p_in + iy as usize * iw + ix as usize];
                        }
                    }
                    out.push(sum);
                }
            }
        }
        out
    }

    /// A depthwise geometry of `batch` images of `groups` channels, 2-D,
    /// its output size from the pads.
    fn planes(
        (batch, groups): (usize, usize),
        (input, kernel, stride, dilation): ([usize; 2], [usize; 2], [usize; 2], [usize; 2]),
        (pad_begin, pad_end): ([i64; 2], [i64; 2]),
    ) -> Geometry {
        let output: [usize; 2] = std::array::from_fn(|a| {
            let span = input[a] as i64 + pad_begin[a] + pad_end[a]
                - ((kernel[a] - 1) * dilation[a]) as i64
                - 1;
            (span / stride[a] as i64 + 1) as usize
        });
        Geometry {
            batch,
            groups,
            cin: 1,
            cout: 1,
            input: [1, input[0], input[1]],
            kernel: [1, kernel[0], kernel[1]],
            output: [1, output[0], output[1]],
            stride: [1, stride[0], stride[1]],
            dilation: [1, dilation[0], dilation[1]],
            pad_begin: [0, pad_begin[0], pad_begin[1]],
        }
    }

    /// Inputs and weights of `g` whose sums are exact in any order
    /// (small integers and halves).
    fn operands(g: &Geometry) -> (Vec<f64>, Vec<f64>) {
        let x = (0..g.batch * g.groups * g.input_size())
            .map(|i| ((i * 37 + 11) % 23) as f64 - 11.0)
            .collect();
        let w = (0..g.groups * g.kernel_size())
            .map(|i| ((i * 7 + 3) % 5) as f64 - 2.5)
            .collect();
        (x, w)
    }

    /// A 2-D case of the direct-loop tests: (input, kernel, stride,
    /// dilation, pad_begin, pad_end).
    type Case = (
        [usize; 2],
        [usize; 2],
        [usize; 2],
        [usize; 2],
        [i64; 2],
        [i64; 2],
    );

    #[test]
    fn banded_depthwise_matches_a_direct_loop() {
        let cases: &[Case] = &[
            ([1, 1], [1, 1], [1, 1], [1, 1], [0, 0], [0, 0]),
            ([5, 6], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            ([7, 7], [3, 3], [2, 2], [1, 1], [1, 1], [1, 1]),
            ([8, 9], [3, 3], [2, 2], [1, 1], [0, 0], [1, 1]),
            ([9, 11], [5, 3], [3, 2], [2, 1], [2, 0], [3, 2]),
            ([4, 4], [3, 3], [1, 1], [2, 2], [2, 2], [2, 2]),
            ([1, 13], [1, 4], [1, 3], [1, 2], [0, 3], [0, 1]),
            // Pads past the window: rows and columns of padding only.
            ([3, 3], [2, 2], [1, 1], [1, 1], [3, 4], [3, 4]),
            ([6, 5], [7, 2], [1, 1], [1, 3], [3, 2], [3, 2]),
            // Odd pads with stride 2 (the other phase first), pads that
            // cut the input's last columns, rows of more than 64 outputs.
            ([9, 12], [3, 3], [2, 2], [1, 1], [3, 3], [0, -1]),
            ([4, 150], [3, 3], [1, 2], [1, 1], [1, 1], [1, 1]),
            ([3, 140], [3, 5], [1, 1], [1, 1], [1, 2], [1, 2]),
            // Flat runs over rows of 16, 21, 50 and 30 outputs.
            ([5, 16], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            ([6, 41], [3, 3], [1, 2], [1, 1], [1, 1], [1, 1]),
            ([7, 50], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            ([7, 30], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            // Runs along rows: one whole run of 128, runs past the row's
            // end (75 = a run of 128 in part, 140 = 128 + 12 of 16).
            ([3, 128], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
        ];
        for &(input, kernel, stride, dilation, pad_begin, pad_end) in cases {
            let g = planes(
                (2, 3),
                (input, kernel, stride, dilation),
                (pad_begin, pad_end),
            );
            let (x, w) = operands(&g);
            let want = reference(&x, &w, &g);
            // A residual epilogue adds each plane's own shortcut values
            // (two images of three channels), then the ReLU; another adds
            // a bias first, the shortcut on the right, then clamps.
            let shortcut: Vec<f64> = (0..want.len()).map(|i| (i % 13) as f64 - 6.0).collect();
            let relu = Epilogue {
                bias: None,
                shortcut: Some(crate::fusion::Side::Left),
                activation: crate::fusion::Activation::Relu,
            };
            let relu_want: Vec<f64> = want
                .iter()
                .zip(&shortcut)
                .map(|(v, s)| (s + v).max(0.0))
                .collect();
            let bias = vec![0.5, -1.5, 2.0];
            let clamp = Epilogue {
                bias: Some(bias.clone()),
                shortcut: Some(crate::fusion::Side::Right),
                activation: crate::fusion::Activation::Clamp { lo: -3.0, hi: 6.0 },
            };
            let p_out = g.output_size();
            let clamp_want: Vec<f64> = want
                .iter()
                .zip(&shortcut)
                .enumerate()
                .map(|(i, (v, s))| ((v + bias[(i / p_out) % 3]) + s).clamp(-3.0, 6.0))
                .collect();
            // Every band height from one row to the whole plane, and the
            // default.
            let oh = g.output[1];
            let layouts = (1..=oh).map(|band| Bands::new(&g, 0, band));
            let layouts = layouts.chain([Bands::new(&g, BAND_BYTES, MIN_BAND)]);
            for bands in layouts {
                let bands = bands.unwrap();
                let band = bands.band;
                let mut o = Operands {
                    x: &x,
                    w: &w,
                    g: &g,
                    bands: &bands,
                    epilogue: None,
                    shortcut: None,
                };
                let mut got = vec![f64::NAN; want.len()];
                depthwise_banded(&o, &mut got);
                assert_eq!(got, want, "banded by {band} {g:?}");
                o.shortcut = Some(&shortcut);
                o.epilogue = Some(&relu);
                depthwise_banded(&o, &mut got);
                assert_eq!(got, relu_want, "banded by {band} with a shortcut {g:?}");
                o.epilogue = Some(&clamp);
                depthwise_banded(&o, &mut got);
                assert_eq!(got, clamp_want, "banded by {band} with a bias {g:?}");
            }
            let mut rows = vec![f64::NAN; want.len()];
            depthwise_rows(&x, &w, &g, &mut rows, None, None);
            assert_eq!(rows, want, "rows {g:?}");
            depthwise_rows(&x, &w, &g, &mut rows, Some(&relu), Some(&shortcut));
            assert_eq!(rows, relu_want, "rows with a shortcut {g:?}");
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_blocked_transpose_transposes() {
        if !has_avx512() {
            return;
        }
        let m: [[f32; LANES]; LANES] =
            std::array::from_fn(|i| std::array::from_fn(|j| (i * LANES + j) as f32));
        // SAFETY: the CPU has AVX-512 (checked above).
        let t = unsafe { transpose(m.map(|row| load(&row, 0))) };
        for (i, v) in t.into_iter().enumerate() {
            let mut row = [0.0f32; LANES];
            // SAFETY: as above.
            unsafe { store(&mut row, 0, v) };
            for (j, &v) in row.iter().enumerate() {
                assert_eq!(v, (j * LANES + i) as f32, "({i}, {j})");
            }
        }
    }

    /// Runs one of the vector paths (`run`, named `path` in the messages)
    /// on `g` (f32), unfused and with both epilogues, against the direct
    /// loop, and bit for bit against the banded path on values whose sums
    /// round.
    fn check_path(g: &Geometry, path: &str, run: impl Fn(&Operands<'_, f32>, &mut [f32])) {
        let bands = Bands::new(g, BAND_BYTES, MIN_BAND).unwrap();
        let (x, w) = operands(g);
        let want: Vec<f32> = reference(&x, &w, g).iter().map(|&v| v as f32).collect();
        let (x, w): (Vec<f32>, Vec<f32>) = (
            x.iter().map(|&v| v as f32).collect(),
            w.iter().map(|&v| v as f32).collect(),
        );
        let shortcut: Vec<f32> = (0..want.len()).map(|i| (i % 13) as f32 - 6.0).collect();
        let channels = g.groups;
        let bias: Vec<f32> = (0..channels).map(|c| c as f32 * 0.5 - 3.0).collect();
        let relu = Epilogue {
            bias: None,
            shortcut: Some(crate::fusion::Side::Left),
            activation: crate::fusion::Activation::Relu,
        };
        let clamp = Epilogue {
            bias: Some(bias.clone()),
            shortcut: Some(crate::fusion::Side::Right),
            activation: crate::fusion::Activation::Clamp { lo: -3.0, hi: 6.0 },
        };
        let p_out = g.output_size();
        let relu_want: Vec<f32> = want
            .iter()
            .zip(&shortcut)
            .map(|(v, s)| (s + v).max(0.0))
            .collect();
        let clamp_want: Vec<f32> = want
            .iter()
            .zip(&shortcut)
            .enumerate()
            .map(|(i, (v, s))| ((v + bias[(i / p_out) % channels]) + s).clamp(-3.0, 6.0))
            .collect();
        let mut o = Operands {
            x: &x,
            w: &w,
            g,
            bands: &bands,
            epilogue: None,
            shortcut: None,
        };
        let mut got = vec![f32::NAN; want.len()];
        run(&o, &mut got);
        assert_eq!(got, want, "{path} {g:?}");
        o.shortcut = Some(&shortcut);
        o.epilogue = Some(&relu);
        run(&o, &mut got);
        assert_eq!(got, relu_want, "{path} with a shortcut {g:?}");
        o.epilogue = Some(&clamp);
        run(&o, &mut got);
        assert_eq!(got, clamp_want, "{path} with a bias {g:?}");
        // Values whose products and sums round, a NaN and both zeros
        // among them: the same taps in the same order as the banded path.
        let mut x: Vec<f32> = (0..x.len())
            .map(|i| ((i * 7919 + 13) % 1000) as f32 / 37.0 - 13.1)
            .collect();
        x[3] = f32::from_bits(0x7fc0_1234);
        x[5] = -0.0;
        let w: Vec<f32> = (0..w.len())
            .map(|i| ((i * 104_729 + 7) % 997) as f32 / 311.0 - 1.7)
            .collect();
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        let mut banded = vec![f32::NAN; want.len()];
        for (epilogue, shortcut) in [(None, None), (Some(&clamp), Some(&shortcut[..]))] {
            let o = Operands {
                x: &x,
                w: &w,
                g,
                bands: &bands,
                epilogue,
                shortcut,
            };
            depthwise_banded(&o, &mut banded);
            run(&o, &mut got);
            assert_eq!(bits(&got), bits(&banded), "{path} against banded {g:?}");
        }
    }

    /// [`check_path`] on the blocked path with the scratch budget `budget`
    /// and the fill's prefetch distance `ahead`.
    fn check_blocked(g: &Geometry, budget: usize, ahead: usize) {
        let mut blocked = Blocked::new(g, budget).unwrap_or_else(|| panic!("not blocked: {g:?}"));
        blocked.ahead = ahead;
        let path = format!("blocked by {}", blocked.band);
        check_path(g, &path, |o, out| depthwise_blocked(o, &blocked, out));
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn blocked_depthwise_matches_a_direct_loop() {
        if !has_avx512() {
            return;
        }
        let cases: &[Case] = &[
            // MobileNetV2's: 7x7 planes, stride 2 onto them.
            ([7, 7], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            ([14, 14], [3, 3], [2, 2], [1, 1], [1, 1], [1, 1]),
            ([30, 37], [3, 3], [2, 2], [1, 1], [1, 1], [1, 1]),
            ([15, 13], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            // Planes of several bands, of stride 1.
            ([40, 37], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            // An odd pad with stride 2, a negative end pad (the input's last
            // columns and rows unread), stride 3 with a dilation.
            ([9, 12], [3, 3], [2, 2], [1, 1], [3, 3], [0, -1]),
            ([15, 11], [5, 3], [3, 2], [2, 1], [2, 0], [3, 2]),
            ([4, 4], [3, 3], [1, 1], [2, 2], [2, 2], [2, 2]),
            // 1-D, pads past the window, a kernel taller than the input.
            ([1, 60], [1, 4], [1, 3], [1, 2], [0, 3], [0, 1]),
            ([4, 5], [2, 2], [1, 1], [1, 1], [3, 4], [3, 4]),
            ([6, 5], [7, 2], [1, 1], [1, 3], [3, 2], [3, 2]),
            // Rows of more than 128 outputs; rows narrower than a block
            // (bands of at least six rows, the last band taking the rest).
            ([4, 150], [3, 3], [1, 2], [1, 1], [1, 1], [1, 1]),
            ([17, 3], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            ([2, 9], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            ([5, 8], [1, 1], [1, 1], [1, 1], [0, 0], [0, 0]),
            // The kernels with their own tap loops: 5x5 (stride 2, a
            // dilation) and 3x3 with a dilation and stride 3.
            ([12, 12], [5, 5], [1, 1], [1, 1], [2, 2], [2, 2]),
            ([17, 19], [5, 5], [2, 2], [1, 2], [2, 3], [2, 3]),
            ([13, 20], [3, 3], [3, 3], [2, 2], [2, 1], [0, 2]),
        ];
        for &(input, kernel, stride, dilation, pad_begin, pad_end) in cases {
            // Two images of 19 channels: one block of 16 and 3 planes left
            // (by the banded path); two images of 32: two blocks each.
            for groups in [19, 32] {
                let g = planes(
                    (2, groups),
                    (input, kernel, stride, dilation),
                    (pad_begin, pad_end),
                );
                // The fewest band rows, a few, and the default.
                for budget in [0, 4 << 10, BLOCKED_BYTES] {
                    check_blocked(&g, budget, 0);
                }
                // With the fill's prefetches (past the input's end too).
                check_blocked(&g, BLOCKED_BYTES, PREFETCH_LINES);
            }
        }
    }

    /// [`check_path`] on the direct path.
    fn check_direct(g: &Geometry) {
        let direct = Direct::new(g).unwrap_or_else(|| panic!("not direct: {g:?}"));
        check_path(g, "direct", |o, out| depthwise_direct(o, &direct, out));
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn direct_depthwise_matches_a_direct_loop() {
        if !has_avx512() {
            return;
        }
        let cases: &[Case] = &[
            // MobileNetV2's: 14, 28 and 56 wide, stride 1 and 2 onto them.
            ([14, 14], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            ([28, 28], [3, 3], [2, 2], [1, 1], [1, 1], [1, 1]),
            ([28, 28], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            ([56, 56], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            ([112, 112], [3, 3], [2, 2], [1, 1], [1, 1], [1, 1]),
            // Odd widths and heights (tiles past the last row), one to
            // four vectors a row, the last one in part.
            ([9, 15], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            ([5, 17], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            ([13, 33], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            ([3, 64], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            ([7, 29], [3, 3], [2, 2], [1, 1], [1, 1], [1, 1]),
            ([11, 127], [3, 3], [2, 2], [1, 1], [1, 1], [1, 1]),
            ([6, 128], [3, 3], [2, 2], [1, 1], [0, 0], [1, 1]),
            // No pads, pads of 2 (rows and columns of padding only),
            // unequal pads, a negative end pad (the last columns unread).
            ([16, 18], [3, 3], [1, 1], [1, 1], [0, 0], [0, 0]),
            ([4, 14], [3, 3], [1, 1], [1, 1], [2, 2], [2, 2]),
            ([10, 40], [3, 3], [2, 2], [1, 1], [2, 2], [0, 1]),
            ([9, 31], [3, 3], [2, 2], [1, 1], [0, 1], [2, 0]),
            ([8, 30], [3, 3], [1, 1], [1, 1], [1, 1], [1, -1]),
            ([9, 36], [3, 3], [2, 2], [1, 1], [1, 1], [0, -1]),
        ];
        for &(input, kernel, stride, dilation, pad_begin, pad_end) in cases {
            // Channels not a multiple of 16, and two images.
            for (batch, groups) in [(1, 3), (2, 19)] {
                let g = planes(
                    (batch, groups),
                    (input, kernel, stride, dilation),
                    (pad_begin, pad_end),
                );
                check_direct(&g);
            }
        }
    }

    #[test]
    fn narrow_wide_and_other_kernels_are_not_direct() {
        let g = |input: [usize; 2], kernel, stride, dilation| {
            planes((1, 32), (input, kernel, stride, dilation), ([1, 1], [1, 1]))
        };
        let direct = |g: &Geometry| Direct::new(g).is_some();
        assert_eq!(direct(&g([14, 14], [3, 3], [1, 1], [1, 1])), has_avx512());
        assert_eq!(direct(&g([56, 64], [3, 3], [1, 1], [1, 1])), has_avx512());
        // 7 and 65 outputs a row, a 5x5 kernel, a dilation, stride 3 or
        // unequal strides.
        assert!(!direct(&g([14, 14], [3, 3], [2, 2], [1, 1])));
        assert!(!direct(&g([8, 65], [3, 3], [1, 1], [1, 1])));
        assert!(!direct(&g([20, 20], [5, 5], [1, 1], [1, 1])));
        assert!(!direct(&g([20, 20], [3, 3], [1, 1], [2, 2])));
        assert!(!direct(&g([60, 60], [3, 3], [3, 3], [1, 1])));
        assert!(!direct(&g([40, 40], [3, 3], [1, 2], [1, 1])));
        // Over 1 MiB of output: 144 planes of 56x56.
        let big = planes(
            (1, 144),
            ([56, 56], [3, 3], [1, 1], [1, 1]),
            ([1, 1], [1, 1]),
        );
        assert!(!direct(&big));
    }

    #[test]
    fn small_planes_and_few_channels_are_not_blocked() {
        let g = |groups, input: [usize; 2]| {
            planes(
                (1, groups),
                (input, [3, 3], [1, 1], [1, 1]),
                ([1, 1], [1, 1]),
            )
        };
        assert!(Blocked::new(&g(15, [8, 8]), BLOCKED_BYTES).is_none());
        assert!(Blocked::new(&g(32, [3, 3]), BLOCKED_BYTES).is_none());
        assert!(Blocked::new(&g(32, [113, 112]), BLOCKED_BYTES).is_none());
        for input in [[8, 8], [28, 28], [112, 112]] {
            assert_eq!(
                Blocked::new(&g(32, input), BLOCKED_BYTES).is_some(),
                has_avx512()
            );
        }
        // The fill prefetches from 1 MiB of input.
        if has_avx512() {
            let ahead =
                |groups, input| Blocked::new(&g(groups, input), BLOCKED_BYTES).map(|b| b.ahead);
            assert_eq!(ahead(32, [92, 92]), Some(PREFETCH_LINES));
            assert_eq!(ahead(32, [56, 56]), Some(0));
        }
        // f64 values stay planar.
        let g = g(32, [8, 8]);
        let bands = Bands::new(&g, BAND_BYTES, MIN_BAND).unwrap();
        let (x, w) = operands(&g);
        let o = Operands {
            x: &x,
            w: &w,
            g: &g,
            bands: &bands,
            epilogue: None,
            shortcut: None,
        };
        assert!(as_f32(&o).is_none());
    }

    /// Runs `depthwise` (f32) on `g` on one thread and on two, unfused and
    /// with a shortcut and ReLU, against the direct loop.
    fn check_threads(g: &Geometry) {
        let (x, w) = operands(g);
        let want: Vec<f32> = reference(&x, &w, g).iter().map(|&v| v as f32).collect();
        let (x, w): (Vec<f32>, Vec<f32>) = (
            x.iter().map(|&v| v as f32).collect(),
            w.iter().map(|&v| v as f32).collect(),
        );
        // And fused.
        let shortcut: Vec<f32> = (0..want.len()).map(|i| (i % 13) as f32 - 6.0).collect();
        let relu = Epilogue {
            bias: None,
            shortcut: Some(crate::fusion::Side::Right),
            activation: crate::fusion::Activation::Relu,
        };
        let relu_want: Vec<f32> = want
            .iter()
            .zip(&shortcut)
            .map(|(v, s)| (v + s).max(0.0))
            .collect();
        for threads in [1, 2] {
            let pool = crate::gemm::test_pool(threads);
            let mut got = vec![f32::NAN; want.len()];
            pool.install(|| depthwise(&x, &w, g, &mut got, None, None));
            assert_eq!(got, want, "{threads} threads");
            let fused = (Some(&relu), Some(&shortcut[..]));
            pool.install(|| depthwise(&x, &w, g, &mut got, fused.0, fused.1));
            assert_eq!(got, relu_want, "{threads} threads, fused");
        }
    }

    #[test]
    fn blocked_depthwise_splits_blocks_among_threads() {
        // Over 64 KiB of output: two images of 40 channels, two blocks and
        // 8 planes each, on one thread and on two (a 5x5 kernel: not
        // direct), fused too (the epilogue reaches the blocked path as
        // f32's).
        check_threads(&planes(
            (2, 40),
            ([30, 37], [5, 5], [2, 2], [1, 1]),
            ([2, 2], [2, 2]),
        ));
    }

    #[test]
    fn direct_depthwise_splits_planes_among_threads() {
        // Over 64 KiB of output: 2 images of 37 planes 20x19, runs of
        // planes on two threads, fused too.
        check_threads(&planes(
            (2, 37),
            ([40, 37], [3, 3], [2, 2], [1, 1]),
            ([1, 1], [1, 1]),
        ));
    }

    #[test]
    fn banded_depthwise_splits_planes_among_threads() {
        // Enough output (over 64 KiB) for runs of planes on the threads:
        // 26 planes, a run of 4 at a time on two threads (the last of 2).
        let g = planes(
            (2, 13),
            ([40, 37], [3, 3], [2, 2], [1, 1]),
            ([1, 1], [1, 1]),
        );
        let (x, w) = operands(&g);
        let want = reference(&x, &w, &g);
        for threads in [1, 2] {
            let pool = crate::gemm::test_pool(threads);
            let mut got = vec![f64::NAN; want.len()];
            pool.install(|| depthwise(&x, &w, &g, &mut got, None, None));
            assert_eq!(got, want, "{threads} threads");
        }
    }

    #[test]
    fn depthwise_with_an_infinite_weight_skips_the_padding() {
        let g = Geometry {
            batch: 1,
            groups: 1,
            cin: 1,
            cout: 1,
            input: [1, 1, 3],
            kernel: [1, 1, 3],
            output: [1, 1, 3],
            stride: [1; 3],
            dilation: [1; 3],
            pad_begin: [0, 0, 1],
        };
        let mut out = vec![0.0f32; 3];
        depthwise(
            &[1.0, 2.0, 3.0],
            &[f32::INFINITY, 1.0, 0.0],
            &g,
            &mut out,
            None,
            None,
        );
        // The first output's infinite tap falls in the padding.
        assert_eq!(out[0], 1.0);
        assert_eq!(out[1], f32::INFINITY);
    }
}
