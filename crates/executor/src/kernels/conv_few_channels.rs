//! 2-D (and 1-D) f32 convolutions with few input channels, a network's
//! stem (3 → 64 channels, 3x3 or 7x7, stride 2), by a direct kernel.
//!
//! By im2col and GEMM such a layer is a product only `C_in·K` deep (27 for
//! a 3x3 stem), whose packing and im2col gathers cost as much as its
//! multiply-adds. Here the sums are held in registers: runs of 32 (or 16)
//! outputs along a row for 8 output channels at once, so each kernel tap
//! loads its run of inputs once for the 8 channels and one weight per
//! channel. The input rows that a band of output rows reads are first laid
//! out zero-padded and cut into their stride phases (phase `p` holds every
//! `stride`-th element from `p`), so that every tap reads a contiguous run
//! whatever the stride, pads and dilation. Bands of output rows run on the
//! threads. A fused epilogue (bias, residual shortcut, activation) runs on
//! each run of sums before it is stored.
//!
//! The sums are AVX-512 registers, written with its intrinsics: left to
//! the compiler, the register blocks were kept on the stack and added one
//! element at a time (15 times slower than the GEMM). Without AVX-512 the
//! GEMM path runs these layers. Each sum adds its taps in the direct
//! loop's order (channel, kernel row, kernel column) from zero by fused
//! multiply-adds, skipping the kernel rows in the padding.
//!
//! It runs 7x7 kernels (ResNet's stem) by default; smaller ones, where it
//! does not beat the GEMM path yet, when `OVIR_FEW_CHANNELS` is set (see
//! [`chosen`]).

use ir::ElementType;
use rayon::prelude::*;

use super::convolution::Geometry;
use crate::fusion::{Activation, Epilogue, Side};
use crate::gemm::Scalar;
use crate::simd::{cut_pairs, has_avx512};
use crate::tensor::Element;

/// At most this many input channels (per group; groups must be 1).
const MAX_CHANNELS: usize = 4;
/// At most this many kernel taps along each spatial axis.
const MAX_KERNEL: usize = 7;
/// Output channels whose sums are computed together (8 rows of registers).
const BLOCK: usize = 8;
/// f32 lanes of an AVX-512 register.
const LANES: usize = 16;
/// Outputs along a row in one run of sums: two registers per channel, 16
/// in all for the [`BLOCK`] channels.
const WIDE: usize = 2 * LANES;
/// The shorter run for a row's rest (and rows shorter than [`WIDE`]).
const NARROW: usize = LANES;
/// Output rows per band: enough that the rows shared by neighbouring
/// bands (laid out by both) are few, few enough that a band's laid-out
/// input stays in the first-level cache.
const BAND_ROWS: usize = 8;

/// Whether the kernel takes a convolution of this geometry on this CPU
/// (with AVX-512): one group of 1 to 4 input channels and at least a
/// block's worth of output channels, at most 2-D, a kernel of at most
/// 7x7, stride 1 or 2 along the rows (any stride across them), any
/// dilation and pads.
pub(crate) fn applies(g: &Geometry) -> bool {
    g.groups == 1
        && (1..=MAX_CHANNELS).contains(&g.cin)
        && g.cout >= BLOCK
        && g.input[0] == 1
        && g.kernel[0] == 1
        && g.output[0] == 1
        && g.kernel[1] <= MAX_KERNEL
        && g.kernel[2] <= MAX_KERNEL
        && (1..=2).contains(&g.stride[2])
        && g.stride[1] >= 1
        && has_avx512()
}

/// Kernels of at least this many taps (7x7) take this kernel by default:
/// ResNet's stem (7x7 stride 2, 3 → 64, 224 → 112) took 1.19-1.20 ms
/// here against the GEMM path's 1.62-1.65 (fastest call at one thread),
/// while the 3x3 stems were slower here (SqueezeNet's 0.59-0.62 ms against
/// 0.41, MobileNetV2's 0.34-0.37 against 0.31): with 27 taps a run, the
/// cost of finishing and storing each run of sums is not covered.
/// `OVIR_FEW_CHANNELS` set takes every kernel size here.
const DEFAULT_MIN_TAPS: usize = 49;

/// Whether a convolution of `taps` kernel taps (per input channel) runs
/// here: 7x7 and larger, or any when `OVIR_FEW_CHANNELS` was set when
/// first asked.
fn chosen(taps: usize) -> bool {
    static ALL: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    taps >= DEFAULT_MIN_TAPS || *ALL.get_or_init(|| std::env::var_os("OVIR_FEW_CHANNELS").is_some())
}

/// [`compute`] for the kernel sizes [`chosen`]; returns whether it ran.
pub(crate) fn run<T: Scalar + Element + bytemuck::Pod>(
    x: &[T],
    w: &[T],
    g: &Geometry,
    out: &mut [T],
    epilogue: Option<&Epilogue<T>>,
    shortcut: Option<&[T]>,
) -> bool {
    chosen(g.kernel_size()) && compute(x, w, g, out, epilogue, shortcut)
}

/// Computes the convolution of `x` by `w` into `out` (the layouts of
/// `convolution::compute_fused`, whose checks they passed), then
/// `epilogue` with `shortcut`, when it is f32 and [`applies`]; returns
/// whether it did.
fn compute<T: Scalar + Element + bytemuck::Pod>(
    x: &[T],
    w: &[T],
    g: &Geometry,
    out: &mut [T],
    epilogue: Option<&Epilogue<T>>,
    shortcut: Option<&[T]>,
) -> bool {
    if T::TYPE != ElementType::F32 || !applies(g) {
        return false;
    }
    // T is f32: the casts cannot fail.
    let epilogue = match epilogue {
        Some(e) => match e.as_f32() {
            Some(e) => Some(e),
            None => return false,
        },
        None => None,
    };
    let x: &[f32] = bytemuck::cast_slice(x);
    let w: &[f32] = bytemuck::cast_slice(w);
    let out: &mut [f32] = bytemuck::cast_slice_mut(out);
    let shortcut: Option<&[f32]> = shortcut.map(bytemuck::cast_slice);
    let plan = Plan::new(x, w, g, epilogue, shortcut);
    let [_, oh, ow] = g.output;
    let p_out = oh * ow;
    if p_out == 0 || g.batch == 0 {
        return true;
    }
    let threads = rayon::current_num_threads();
    let parallel = threads > 1 && std::mem::size_of_val(out) >= 1 << 16;
    // A few bands a thread, so that a slow thread is made up for.
    let band = if parallel {
        oh.div_ceil(4 * threads).clamp(1, BAND_ROWS)
    } else {
        BAND_ROWS
    };
    let bands = oh.div_ceil(band);
    // Each task's rows of every output channel: the planes cut into bands,
    // regrouped by (image, band).
    let mut tasks: Vec<Vec<&mut [f32]>> = (0..g.batch * bands)
        .map(|_| Vec::with_capacity(g.cout))
        .collect();
    for (plane, values) in out.chunks_mut(p_out).enumerate() {
        let image = plane / g.cout;
        for (b, rows) in values.chunks_mut(band * ow).enumerate() {
            tasks[image * bands + b].push(rows);
        }
    }
    let task = |buf: &mut Vec<f32>, (index, mut rows): (usize, Vec<&mut [f32]>)| {
        let (image, y0) = (index / bands, (index % bands) * band);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `applies` checked that the CPU has AVX-512F.
        unsafe {
            avx512::band_rows(&plan, image, y0, &mut rows, buf)
        };
    };
    if parallel {
        tasks
            .into_par_iter()
            .enumerate()
            .for_each_init(Vec::new, task);
    } else {
        let mut buf = Vec::new();
        tasks
            .into_iter()
            .enumerate()
            .for_each(|t| task(&mut buf, t));
    }
    true
}

/// What every band reads: the operands, the packed weights, and where
/// each kernel tap reads in a laid-out input row.
struct Plan<'a> {
    x: &'a [f32],
    g: &'a Geometry,
    /// `[block][cin][kh][kw][BLOCK]`: per tap, the weights of a block's
    /// output channels side by side (zero past the last channel).
    weights: Vec<f32>,
    /// Per kernel column, the start of its reads in a laid-out row (its
    /// phase, then its offset in the phase).
    taps: Vec<usize>,
    /// The length of each phase of a laid-out row: every run of sums,
    /// [`NARROW`] long at least, reads inside it.
    phase_len: usize,
    epilogue: Option<&'a Epilogue<f32>>,
    shortcut: Option<&'a [f32]>,
}

impl<'a> Plan<'a> {
    fn new(
        x: &'a [f32],
        w: &[f32],
        g: &'a Geometry,
        epilogue: Option<&'a Epilogue<f32>>,
        shortcut: Option<&'a [f32]>,
    ) -> Plan<'a> {
        let [_, kh, kw] = g.kernel;
        let (stride, dilation) = (g.stride[2], g.dilation[2]);
        let k_size = kh * kw;
        let blocks = g.cout.div_ceil(BLOCK);
        let mut weights = vec![0f32; blocks * g.cin * k_size * BLOCK];
        for (co, filter) in w.chunks_exact(g.cin * k_size).enumerate() {
            let (block, lane) = (co / BLOCK, co % BLOCK);
            for (k, &v) in filter.iter().enumerate() {
                // k runs over (channel, row, column) as the packing does.
                weights[(block * g.cin * k_size + k) * BLOCK + lane] = v;
            }
        }
        let reach = (kw.saturating_sub(1) * dilation) / stride;
        let phase_len = g.output[2].max(NARROW) + reach;
        let taps = (0..kw)
            .map(|t| {
                let offset = t * dilation;
                offset % stride * phase_len + offset / stride
            })
            .collect();
        Plan {
            x,
            g,
            weights,
            taps,
            phase_len,
            epilogue,
            shortcut,
        }
    }
}

/// One band's laid-out input rows (`[cin][rows][stride][phase_len]`).
struct Band<'a> {
    plan: &'a Plan<'a>,
    phases: &'a [f32],
    /// Where the image's outputs start in the shortcut.
    shortcut_base: usize,
}

/// Which sums a run computes: the block of output channels, the output
/// row, and where that row starts in the band's rows.
struct Row {
    block: usize,
    oy: usize,
    offset: usize,
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::*;

    /// Output rows `y0..` of image `image` (as many as `rows`, the band's
    /// rows of each output channel, hold), with `buf` for the laid-out
    /// input rows.
    ///
    /// # Safety
    /// The CPU must have AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn band_rows(
        plan: &Plan<'_>,
        image: usize,
        y0: usize,
        rows: &mut [&mut [f32]],
        buf: &mut Vec<f32>,
    ) {
        let g = plan.g;
        let [_, ih, iw] = g.input;
        let [_, kh, kw] = g.kernel;
        let [_, oh, ow] = g.output;
        let count = rows.first().map_or(0, |r| r.len() / ow.max(1));
        if count == 0 {
            return;
        }
        let (stride_y, dilation_y, pad_y) = (g.stride[1], g.dilation[1], g.pad_begin[1]);
        // The input rows the band reads, clamped to the input.
        let first_read = (y0 * stride_y) as i64 - pad_y;
        let last_read = ((y0 + count - 1) * stride_y + (kh - 1) * dilation_y) as i64 - pad_y;
        let lo = first_read.clamp(0, ih as i64) as usize;
        let hi = (last_read + 1).clamp(lo as i64, ih as i64) as usize;
        let row_len = g.stride[2] * plan.phase_len;
        let laid_rows = hi - lo;
        buf.clear();
        buf.resize(g.cin * laid_rows * row_len, 0.0);
        let image_x = &plan.x[image * g.cin * ih * iw..][..g.cin * ih * iw];
        for (k, dst) in buf.chunks_exact_mut(row_len).enumerate() {
            let (c, r) = (k / laid_rows, k % laid_rows);
            let src = &image_x[(c * ih + lo + r) * iw..][..iw];
            lay_out_row(src, g.stride[2], g.pad_begin[2], plan.phase_len, dst);
        }
        let band = Band {
            plan,
            phases: buf,
            shortcut_base: image * g.cout * oh * ow,
        };
        for (i, oy) in (y0..y0 + count).enumerate() {
            // Every tap inside the input, in the sums' order (channel,
            // kernel row, kernel column): where it reads in the laid-out
            // rows, and its weights in a block. One flat list, so that the
            // sums' loop is one loop (over nested ones the compiler moved
            // the 16 registers of sums to the stack and back at each row).
            let mut taps = [(0usize, 0usize); MAX_CHANNELS * MAX_KERNEL * MAX_KERNEL];
            let mut n = 0;
            for c in 0..g.cin {
                for ky in 0..kh {
                    let iy = (oy * stride_y + ky * dilation_y) as i64 - pad_y;
                    if !(0..ih as i64).contains(&iy) {
                        continue;
                    }
                    let row = (c * laid_rows + iy as usize - lo) * row_len;
                    for (kx, &tap) in plan.taps.iter().enumerate() {
                        taps[n] = (row + tap, ((c * kh + ky) * kw + kx) * BLOCK);
                        n += 1;
                    }
                }
            }
            let reads = &taps[..n];
            for (block, out) in rows.chunks_mut(BLOCK).enumerate() {
                let at = Row {
                    block,
                    oy,
                    offset: i * ow,
                };
                // Runs of WIDE, the rest by a WIDE or NARROW run that
                // ends at the row's end (overlapping the run before: each
                // output is computed from the inputs alone, so it is
                // written twice with the same value); rows shorter than
                // NARROW by one run stored in part.
                let mut x0 = 0;
                while x0 + WIDE <= ow {
                    run::<2>(&band, &at, reads, x0, out);
                    x0 += WIDE;
                }
                let left = ow - x0;
                if left > NARROW {
                    if ow >= WIDE {
                        run::<2>(&band, &at, reads, ow - WIDE, out);
                    } else {
                        run::<1>(&band, &at, reads, 0, out);
                        run::<1>(&band, &at, reads, ow - NARROW, out);
                    }
                } else if left > 0 {
                    run::<1>(&band, &at, reads, ow.saturating_sub(NARROW), out);
                }
            }
        }
    }

    /// The sums of outputs `x0..x0 + 16·V` (those in the row) of `at`'s
    /// row for the block's channels, finished by the epilogue and stored
    /// into `out` (the block's channels' rows of the band); `reads` are
    /// the taps inside the input: where each reads in the laid-out rows
    /// (from output 0) and where its weights are in a block's.
    ///
    /// # Safety
    /// The CPU must have AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn run<const V: usize>(
        band: &Band<'_>,
        at: &Row,
        reads: &[(usize, usize)],
        x0: usize,
        out: &mut [&mut [f32]],
    ) {
        let plan = band.plan;
        let g = plan.g;
        let [_, kh, kw] = g.kernel;
        let [_, oh, ow] = g.output;
        let width = V * LANES;
        let mut sums = [[_mm512_setzero_ps(); V]; BLOCK];
        let block_weights = &plan.weights[at.block * g.cin * kh * kw * BLOCK..];
        for &(read, weights) in reads {
            let (Some(v), Some(w)) = (
                band.phases.get(read + x0..read + x0 + width),
                block_weights.get(weights..weights + BLOCK),
            ) else {
                continue;
            };
            let mut inputs = [_mm512_setzero_ps(); V];
            for (k, input) in inputs.iter_mut().enumerate() {
                // SAFETY: `v` holds `V` registers' worth.
                *input = _mm512_loadu_ps(v.as_ptr().add(k * LANES));
            }
            for (sums, &w) in sums.iter_mut().zip(w) {
                let w = _mm512_set1_ps(w);
                for (s, &input) in sums.iter_mut().zip(&inputs) {
                    *s = _mm512_fmadd_ps(input, w, *s);
                }
            }
        }
        // Finished and stored from the registers: through memory, each
        // 64-byte store of a sum and the epilogue's load of it met in the
        // store queue, which cost more than the sums themselves.
        let len = width.min(ow - x0);
        let lanes = out.len().min(BLOCK);
        for lane in 0..BLOCK {
            if lane >= lanes {
                break;
            }
            let channel = at.block * BLOCK + lane;
            let at_out = band.shortcut_base + (channel * oh + at.oy) * ow + x0;
            // A row shorter than a run: its shortcut values padded.
            let mut near = [0f32; WIDE];
            let shortcut = match plan.shortcut {
                Some(s) if len == width => Some(&s[at_out..at_out + width]),
                Some(s) => {
                    near[..len].copy_from_slice(&s[at_out..at_out + len]);
                    Some(&near[..width])
                }
                None => None,
            };
            let mut finished = [_mm512_setzero_ps(); V];
            for (k, (f, &sum)) in finished.iter_mut().zip(&sums[lane]).enumerate() {
                *f = match plan.epilogue {
                    Some(e) => {
                        // SAFETY: `shortcut` holds `V` registers' worth.
                        let s = shortcut.map(|s| _mm512_loadu_ps(s.as_ptr().add(k * LANES)));
                        finish(e, channel, sum, s)
                    }
                    None => sum,
                };
            }
            let row = &mut out[lane][at.offset + x0..];
            if len == width {
                let dst = &mut row[..width];
                for (k, &f) in finished.iter().enumerate() {
                    // SAFETY: `dst` holds `V` registers' worth.
                    _mm512_storeu_ps(dst.as_mut_ptr().add(k * LANES), f);
                }
            } else {
                let mut values = [0f32; WIDE];
                for (k, &f) in finished.iter().enumerate() {
                    // SAFETY: `values` holds two registers' worth.
                    _mm512_storeu_ps(values.as_mut_ptr().add(k * LANES), f);
                }
                row[..len].copy_from_slice(&values[..len]);
            }
        }
    }

    /// `epilogue` on 16 sums of output channel `channel`, with the
    /// shortcut's values at their positions: the same operations in the
    /// same order as `Epilogue::apply_at` (so the same values).
    ///
    /// # Safety
    /// The CPU must have AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn finish(
        epilogue: &Epilogue<f32>,
        channel: usize,
        sums: __m512,
        shortcut: Option<__m512>,
    ) -> __m512 {
        let mut v = sums;
        if let Some(bias) = &epilogue.bias {
            v = _mm512_add_ps(v, _mm512_set1_ps(bias[channel]));
        }
        if let (Some(side), Some(s)) = (epilogue.shortcut, shortcut) {
            v = match side {
                Side::Left => _mm512_add_ps(s, v),
                Side::Right => _mm512_add_ps(v, s),
            };
        }
        match epilogue.activation {
            Activation::Identity => v,
            // v where v > 0 or NaN (not v <= 0, unordered), else +0.
            Activation::Relu => {
                let keep = _mm512_cmp_ps_mask::<_CMP_NLE_UQ>(v, _mm512_setzero_ps());
                _mm512_maskz_mov_ps(keep, v)
            }
            Activation::Clamp { lo, hi } => {
                let (lo, hi) = (_mm512_set1_ps(lo), _mm512_set1_ps(hi));
                let v = _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask::<_CMP_LT_OQ>(v, lo), lo);
                _mm512_mask_mov_ps(v, _mm512_cmp_ps_mask::<_CMP_GT_OQ>(v, hi), hi)
            }
        }
    }
}

/// Lays out one input row `src` for the taps: `dst` holds `stride` phases
/// of `phase_len`, phase `p`'s element `m` being the padded row's element
/// `m·stride + p`, that is `src[m·stride + p - pad]`, zero outside `src`.
#[inline(always)]
fn lay_out_row(src: &[f32], stride: usize, pad: i64, phase_len: usize, dst: &mut [f32]) {
    let iw = src.len() as i64;
    let value = |j: i64| -> f32 {
        let i = j - pad;
        if (0..iw).contains(&i) {
            src[i as usize]
        } else {
            0.0
        }
    };
    if stride == 1 {
        // A zero-padded copy.
        let len = phase_len as i64;
        let lo = pad.clamp(0, len);
        let hi = (pad + iw).clamp(lo, len);
        let (lo, hi) = (lo as usize, hi as usize);
        dst[..lo].fill(0.0);
        dst[hi..phase_len].fill(0.0);
        let from = (lo as i64 - pad) as usize;
        dst[lo..hi].copy_from_slice(&src[from..from + (hi - lo)]);
        return;
    }
    let (phases, _) = dst.split_at_mut(stride * phase_len);
    if stride == 2 {
        // Pairs (2m - pad, 2m + 1 - pad) both inside src for m in a..b:
        // whole chunks of NARROW pairs there, the ends one by one.
        let (even, odd) = phases.split_at_mut(phase_len);
        let a = ((pad + 1).max(0) / 2).min(phase_len as i64) as usize;
        let b = ((iw - 2 + pad).div_euclid(2) + 1).clamp(a as i64, phase_len as i64) as usize;
        let vector = if b - a >= NARROW { a..b } else { a..a };
        if !vector.is_empty() {
            for k in 0..(b - a).div_ceil(NARROW) {
                // The last chunk ends at b, overlapping the one before.
                let m = (a + k * NARROW).min(b - NARROW);
                let from = (2 * m as i64 - pad) as usize;
                let pairs: Option<&[f32; 2 * NARROW]> = src
                    .get(from..from + 2 * NARROW)
                    .and_then(|p| p.try_into().ok());
                let e: Option<&mut [f32; NARROW]> =
                    even.get_mut(m..m + NARROW).and_then(|e| e.try_into().ok());
                let o: Option<&mut [f32; NARROW]> =
                    odd.get_mut(m..m + NARROW).and_then(|o| o.try_into().ok());
                if let (Some(&pairs), Some(e), Some(o)) = (pairs, e, o) {
                    (*e, *o) = cut_pairs(&pairs);
                }
            }
        }
        for m in (0..vector.start).chain(vector.end..phase_len) {
            even[m] = value(2 * m as i64);
            odd[m] = value(2 * m as i64 + 1);
        }
        return;
    }
    for (p, phase) in phases.chunks_exact_mut(phase_len).enumerate() {
        for (m, d) in phase.iter_mut().enumerate() {
            *d = value((m * stride + p) as i64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The convolution by direct enumeration of every tap, in f32, each
    /// sum in the kernel's order (channel, kernel row, kernel column).
    fn direct(x: &[f32], w: &[f32], g: &Geometry) -> Vec<f32> {
        let [_, ih, iw] = g.input;
        let [_, kh, kw] = g.kernel;
        let [_, oh, ow] = g.output;
        let mut out = Vec::new();
        for image in 0..g.batch {
            for o in 0..g.cout {
                let filter = &w[o * g.cin * kh * kw..];
                for y in 0..oh {
                    for xo in 0..ow {
                        let mut sum = 0f32;
                        for c in 0..g.cin {
                            let plane = &x[(image * g.cin + c) * ih * iw..];
                            for t in 0..kh * kw {
                                let iy = (y * g.stride[1] + (t / kw) * g.dilation[1]) as i64
                                    - g.pad_begin[1];
                                let ix = (xo * g.stride[2] + (t % kw) * g.dilation[2]) as i64
                                    - g.pad_begin[2];
                                if (0..ih as i64).contains(&iy) && (0..iw as i64).contains(&ix) {
                                    sum += plane[iy as usize * iw + ix as usize]
                                        * filter[c * kh * kw + t];
                                }
                            }
                        }
                        out.push(sum);
                    }
                }
            }
        }
        out
    }

    /// A case: batch, cin, cout, input, kernel, stride, dilation, pads at
    /// the begin and the end of each axis.
    struct Case {
        batch: usize,
        cin: usize,
        cout: usize,
        input: [usize; 2],
        kernel: [usize; 2],
        stride: [usize; 2],
        dilation: [usize; 2],
        pads: [[i64; 2]; 2],
    }

    impl Case {
        fn geometry(&self) -> Geometry {
            let output: [usize; 2] = std::array::from_fn(|a| {
                let span = self.input[a] as i64 + self.pads[a][0] + self.pads[a][1]
                    - ((self.kernel[a] - 1) * self.dilation[a]) as i64
                    - 1;
                (span / self.stride[a] as i64 + 1) as usize
            });
            Geometry {
                batch: self.batch,
                groups: 1,
                cin: self.cin,
                cout: self.cout,
                input: [1, self.input[0], self.input[1]],
                kernel: [1, self.kernel[0], self.kernel[1]],
                output: [1, output[0], output[1]],
                stride: [1, self.stride[0], self.stride[1]],
                dilation: [1, self.dilation[0], self.dilation[1]],
                pad_begin: [0, self.pads[0][0], self.pads[1][0]],
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    const fn case(
        batch: usize,
        cin: usize,
        cout: usize,
        input: [usize; 2],
        kernel: [usize; 2],
        stride: [usize; 2],
        dilation: [usize; 2],
        pads: [[i64; 2]; 2],
    ) -> Case {
        Case {
            batch,
            cin,
            cout,
            input,
            kernel,
            stride,
            dilation,
            pads,
        }
    }

    /// Small integers: every sum is exact in f32, whatever the order.
    fn operands(g: &Geometry) -> (Vec<f32>, Vec<f32>) {
        let x = (0..g.batch * g.cin * g.input_size())
            .map(|i| ((i * 37 + 11) % 23) as f32 - 11.0)
            .collect();
        let w = (0..g.cout * g.cin * g.kernel_size())
            .map(|i| ((i * 7 + 3) % 5) as f32 - 2.0)
            .collect();
        (x, w)
    }

    fn cases() -> Vec<Case> {
        vec![
            // SqueezeNet's stem (smaller), MobileNetV2's, ResNet's 7x7.
            case(1, 3, 64, [45, 57], [3, 3], [2, 2], [1, 1], [[0, 0], [0, 0]]),
            case(1, 3, 32, [40, 41], [3, 3], [2, 2], [1, 1], [[1, 1], [1, 1]]),
            case(1, 3, 16, [37, 70], [7, 7], [2, 2], [1, 1], [[3, 3], [3, 3]]),
            // Stride 1, one and two channels, asymmetric pads.
            case(1, 1, 8, [20, 35], [3, 3], [1, 1], [1, 1], [[0, 2], [1, 0]]),
            case(2, 2, 13, [17, 9], [5, 3], [1, 1], [1, 1], [[2, 1], [0, 2]]),
            // Dilation, a vertical stride of 3, pads as large as the window.
            case(1, 4, 11, [23, 50], [3, 3], [3, 2], [2, 2], [[4, 3], [4, 1]]),
            case(1, 3, 9, [12, 33], [2, 4], [1, 2], [3, 1], [[0, 0], [3, 3]]),
            // Rows shorter than a run (5 and 17 outputs), and exactly
            // one and two runs (16, 32, 64).
            case(3, 3, 8, [9, 9], [3, 3], [1, 1], [1, 1], [[0, 0], [0, 0]]),
            case(1, 3, 8, [6, 19], [3, 3], [1, 1], [1, 1], [[1, 1], [0, 0]]),
            case(1, 2, 8, [4, 16], [1, 1], [1, 1], [1, 1], [[0, 0], [0, 0]]),
            case(1, 2, 8, [4, 64], [3, 3], [1, 2], [1, 1], [[1, 1], [0, 1]]),
            case(1, 2, 8, [4, 66], [3, 3], [1, 1], [1, 1], [[1, 1], [0, 0]]),
            // A 1-D convolution (one row), 7 taps, odd input.
            case(2, 1, 24, [1, 101], [1, 7], [1, 2], [1, 1], [[0, 0], [2, 3]]),
        ]
    }

    #[test]
    fn sums_equal_the_direct_loop_for_strides_pads_dilations_and_short_rows() {
        let pools: Vec<rayon::ThreadPool> =
            [1, 2].iter().map(|&t| crate::gemm::test_pool(t)).collect();
        if !has_avx512() {
            // The GEMM path runs these layers on this CPU.
            return;
        }
        for case in cases() {
            let g = case.geometry();
            assert!(applies(&g), "{g:?}");
            let (x, w) = operands(&g);
            let want = direct(&x, &w, &g);
            for pool in &pools {
                let mut got = vec![f32::NAN; want.len()];
                assert!(pool.install(|| compute(&x, &w, &g, &mut got, None, None)));
                assert_eq!(got, want, "{g:?}, {} threads", pool.current_num_threads());
            }
        }
    }

    #[test]
    fn the_epilogue_finishes_every_output_as_the_unfused_ops_would() {
        if !has_avx512() {
            return;
        }
        let pool = crate::gemm::test_pool(2);
        for case in [cases().swap_remove(1), cases().swap_remove(8)] {
            let g = case.geometry();
            let (x, w) = operands(&g);
            let sums = direct(&x, &w, &g);
            let shortcut: Vec<f32> = (0..sums.len()).map(|i| (i % 7) as f32 - 3.5).collect();
            let bias: Vec<f32> = (0..g.cout).map(|c| c as f32 * 0.25 - 1.0).collect();
            let p_out = g.output_size();
            for (side, activation) in [
                (Side::Right, Activation::Relu),
                (Side::Left, Activation::Clamp { lo: -2.0, hi: 6.0 }),
            ] {
                let epilogue = Epilogue {
                    bias: Some(bias.clone()),
                    shortcut: Some(side),
                    activation,
                };
                let mut want = sums.clone();
                for (plane, values) in want.chunks_mut(p_out).enumerate() {
                    let at = &shortcut[plane * p_out..][..p_out];
                    epilogue.apply_at(plane % g.cout, values, Some(at));
                }
                let mut got = vec![f32::NAN; want.len()];
                let done = pool
                    .install(|| compute(&x, &w, &g, &mut got, Some(&epilogue), Some(&shortcut)));
                assert!(done);
                assert_eq!(got, want, "{g:?} {side:?} {activation:?}");
            }
        }
    }

    #[test]
    fn other_geometries_and_types_are_left_to_the_gemm() {
        let mut g = cases().swap_remove(0).geometry();
        let fits = |change: fn(&mut Geometry)| {
            let mut h = g.clone();
            change(&mut h);
            applies(&h)
        };
        assert!(!fits(|g| g.cin = 5));
        assert!(!fits(|g| g.cout = 7));
        assert!(!fits(|g| g.groups = 2));
        assert!(!fits(|g| g.kernel[2] = 8));
        assert!(!fits(|g| g.stride[2] = 3));
        assert!(!fits(|g| {
            g.input[0] = 2;
            g.output[0] = 2
        }));
        g.batch = 1;
        let (x, w) = operands(&g);
        let (x, w): (Vec<f64>, Vec<f64>) = (
            x.iter().map(|&v| f64::from(v)).collect(),
            w.iter().map(|&v| f64::from(v)).collect(),
        );
        let mut out = vec![0f64; g.cout * g.output_size()];
        assert!(!compute(&x, &w, &g, &mut out, None, None));
    }
}
