//! Depthwise convolutions (one input and one output channel per group):
//! each output plane is its input plane convolved with its own kernel,
//! directly, planes in parallel.

use rayon::prelude::*;

use super::convolution::{Axis, Geometry};
use crate::fusion::Epilogue;
use crate::gemm::Scalar;

/// One input and one output channel per group: each output plane is its
/// input plane convolved with its own kernel, directly. 1-D and 2-D ones
/// with finite weights take [`depthwise_planar`]; the others a loop over
/// output rows and kernel taps, a multiply-add over the run of outputs
/// whose reads are inside the input.
pub(crate) fn depthwise<T: Scalar>(
    x: &[T],
    w: &[T],
    g: &Geometry,
    out: &mut [T],
    epilogue: Option<&Epilogue<T>>,
    shortcut: Option<&[T]>,
) {
    // Padding taps are multiplied in by the planar loop: with a finite
    // weight they add zero, as skipping them does.
    let finite = w.iter().all(|&v| v * T::ZERO == T::ZERO);
    if g.input[0] == 1 && g.kernel[0] == 1 && g.output[0] == 1 && finite {
        if let Some(planar) = Planar::new(g) {
            return depthwise_planar(x, w, g, &planar, out, epilogue, shortcut);
        }
    }
    depthwise_rows(x, w, g, out, epilogue, shortcut);
}

/// The layout of [`depthwise_planar`]: the input plane, zero-padded, cut
/// into `stride²` phase planes (phase `(ry, rx)` holds the padded rows
/// `ry, ry + s, …` and their columns `rx, rx + s, …`), each `rows × width`,
/// so that every kernel tap reads one phase plane at a fixed offset from
/// the output position: contiguous for any stride and dilation.
struct Planar {
    stride: [usize; 2],
    /// Rows and width of a phase plane (the width is the output's plus
    /// the largest tap offset; the rows one more than the output's plus
    /// theirs, so whole-plane loops stay inside).
    rows: usize,
    width: usize,
    /// Per kernel tap (row-major): its phase plane and offset in it.
    taps: Vec<(usize, usize)>,
}

impl Planar {
    /// `None` when a pad is negative (the row loop handles those).
    fn new(g: &Geometry) -> Option<Planar> {
        if g.pad_begin[1] < 0 || g.pad_begin[2] < 0 {
            return None;
        }
        let (sy, sx) = (g.stride[1].max(1), g.stride[2].max(1));
        let (dy, dx) = (g.dilation[1], g.dilation[2]);
        let [_, kh, kw] = g.kernel;
        let [_, oh, ow] = g.output;
        let qy = (kh.saturating_sub(1) * dy) / sy;
        let qx = (kw.saturating_sub(1) * dx) / sx;
        let (rows, width) = (oh + qy + 1, ow + qx);
        let taps = (0..kh * kw)
            .map(|t| {
                let (oy, ox) = ((t / kw) * dy, (t % kw) * dx);
                let phase = (oy % sy) * sx + ox % sx;
                (phase, (oy / sy) * width + ox / sx)
            })
            .collect();
        Some(Planar {
            stride: [sy, sx],
            rows,
            width,
            taps,
        })
    }

    /// Fills the phase planes (`phases`: `stride²` planes of `rows ×
    /// width`) from one input plane (`ih × iw`, padded by `pad`), through
    /// `line` (scratch for one padded row, `stride * width` long). Inlined
    /// into [`planar_plane`]'s clones, so vectorized as they are.
    #[inline(always)]
    fn fill<T: Scalar>(&self, src: &[T], g: &Geometry, phases: &mut [T], line: &mut [T]) {
        let [sy, sx] = self.stride;
        let [_, ih, iw] = g.input;
        let (pt, pl) = (g.pad_begin[1] as usize, g.pad_begin[2] as usize);
        let (plane, width) = (self.rows * self.width, self.width);
        for ry in 0..sy {
            // The phase planes (ry, 0..sx), side by side.
            let planes = &mut phases[ry * sx * plane..][..sx * plane];
            for j in 0..self.rows {
                // Padded row j*sy + ry is input row j*sy + ry - pt.
                let iy = (j * sy + ry).checked_sub(pt).filter(|&iy| iy < ih);
                let Some(iy) = iy else {
                    for rx in 0..sx {
                        planes[rx * plane + j * width..][..width].fill(T::ZERO);
                    }
                    continue;
                };
                // The padded row: zeros, the input row from column pl.
                let input = &src[iy * iw..][..iw];
                let start = pl.min(line.len());
                let end = (pl + iw).min(line.len());
                line[..start].fill(T::ZERO);
                line[start..end].copy_from_slice(&input[..end - start]);
                line[end..].fill(T::ZERO);
                match sx {
                    1 => planes[j * width..][..width].copy_from_slice(line),
                    2 => {
                        // Both phases in one pass over pairs (vectorizes).
                        let (even, odd) = planes.split_at_mut(plane);
                        let even = &mut even[j * width..][..width];
                        let odd = &mut odd[j * width..][..width];
                        for ((e, o), pair) in even.iter_mut().zip(odd).zip(line.chunks_exact(2)) {
                            *e = pair[0];
                            *o = pair[1];
                        }
                    }
                    _ => {
                        for rx in 0..sx {
                            let row = &mut planes[rx * plane + j * width..][..width];
                            for (r, &v) in row.iter_mut().zip(line[rx..].iter().step_by(sx)) {
                                *r = v;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A 1-D or 2-D depthwise convolution plane by plane: each input plane is
/// laid out as [`Planar`] phase planes, then every kernel tap is one
/// multiply-add over the whole plane of outputs (`oh` rows of the phase
/// width; the columns past `ow` are scratch), a long branchless loop the
/// compiler vectorizes; the `ow` columns of each row are copied out.
/// Planes run in parallel.
fn depthwise_planar<T: Scalar>(
    x: &[T],
    w: &[T],
    g: &Geometry,
    planar: &Planar,
    out: &mut [T],
    epilogue: Option<&Epilogue<T>>,
    shortcut: Option<&[T]>,
) {
    let (p_in, p_out, k_size) = (g.input_size(), g.output_size(), g.kernel_size());
    let scratch_len = planar.scratch_len(g);
    let plane = |index: usize, dst: &mut [T], scratch: &mut Vec<T>| {
        let channel = index % g.groups;
        let src = &x[index * p_in..(index + 1) * p_in];
        let taps = &w[channel * k_size..(channel + 1) * k_size];
        scratch.resize(scratch_len, T::ZERO);
        planar_plane(src, taps, g, planar, dst, scratch);
        if let Some(e) = epilogue {
            e.apply_at(channel, dst, shortcut.map(|s| &s[index * p_out..][..p_out]));
        }
    };
    if std::mem::size_of_val(out) >= 1 << 16 && rayon::current_num_threads() > 1 {
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

/// How many sums [`planar_plane`] keeps in registers through every tap.
const PLANAR_CHUNK: usize = 64;

impl Planar {
    /// The sums of one plane: `oh` rows of the phase width, rounded up to
    /// whole [`PLANAR_CHUNK`]s (the sums past the rows are never read).
    fn sums_len(&self, g: &Geometry) -> usize {
        (g.output[1] * self.width).next_multiple_of(PLANAR_CHUNK)
    }

    /// The scratch of [`planar_plane`]: the phase planes and a chunk of
    /// zeros after them (the last chunk's reads run past the last plane),
    /// the sums, a padded input row.
    fn scratch_len(&self, g: &Geometry) -> usize {
        let phases = self.stride[0] * self.stride[1] * self.rows * self.width;
        phases + PLANAR_CHUNK + self.sums_len(g) + self.stride[1] * self.width
    }
}

/// One plane of [`depthwise_planar`]: `scratch` ([`Planar::scratch_len`])
/// holds the phase planes, the sums and a padded input row. Compiled for
/// AVX-512 and AVX2 too (chosen at run time): its loops are the compiler's
/// to vectorize, and the default target has 4-lane SSE2 only.
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512cd+avx512dq+avx512vl",
    "x86_64+avx2+fma",
))]
fn planar_plane<T: Scalar>(
    src: &[T],
    taps: &[T],
    g: &Geometry,
    planar: &Planar,
    dst: &mut [T],
    scratch: &mut [T],
) {
    let ow = g.output[2];
    let plane_len = planar.rows * planar.width;
    let phases_len = planar.stride[0] * planar.stride[1] * plane_len;
    // The chunk of zeros after the phase planes stays as `resize` made it:
    // `fill` writes the planes only.
    let (phases, rest) = scratch.split_at_mut(phases_len + PLANAR_CHUNK);
    let (acc, line) = rest.split_at_mut(planar.sums_len(g));
    planar.fill(src, g, &mut phases[..phases_len], line);
    // Runs of PLANAR_CHUNK sums stay in registers through every tap: one
    // store per sum instead of one load and store per tap. Each sum still
    // adds the taps in order from zero, as a loop over whole planes would.
    // Every chunk is whole (the sums are rounded up to chunks), so every
    // tap is one fixed-length loop the compiler unrolls, with no scalar
    // tail: a 7x7 plane's 63 sums were all tail.
    for (c, sums) in acc.chunks_exact_mut(PLANAR_CHUNK).enumerate() {
        let mut local = [T::ZERO; PLANAR_CHUNK];
        for (&weight, &(phase, offset)) in taps.iter().zip(&planar.taps) {
            let start = phase * plane_len + offset + c * PLANAR_CHUNK;
            // Exactly one chunk long: the conversion cannot fail.
            let reads = &phases[start..start + PLANAR_CHUNK];
            if let Ok(reads) = <&[T; PLANAR_CHUNK]>::try_from(reads) {
                for (a, &v) in local.iter_mut().zip(reads) {
                    *a = *a + weight * v;
                }
            }
        }
        sums.copy_from_slice(&local);
    }
    for (row, sums) in dst.chunks_exact_mut(ow).zip(acc.chunks_exact(planar.width)) {
        row.copy_from_slice(&sums[..ow]);
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
    let [od, oh, ow] = g.output;
    let [_, ih, iw] = g.input;
    let [kd, kh, kw] = g.kernel;
    let plane = |index: usize, dst: &mut [T]| {
        let channel = index % g.groups;
        let src = &x[index * p_in..(index + 1) * p_in];
        let taps = &w[channel * k_size..(channel + 1) * k_size];
        dst.fill(T::ZERO);
        for z in 0..od {
            for y in 0..oh {
                let out_row = &mut dst[(z * oh + y) * ow..][..ow];
                for tz in 0..kd {
                    let Some(iz) = Axis::new(g, 0, tz).at(z) else {
                        continue;
                    };
                    for ty in 0..kh {
                        let Some(iy) = Axis::new(g, 1, ty).at(y) else {
                            continue;
                        };
                        let row = &src[(iz * ih + iy) * iw..][..iw];
                        for tx in 0..kw {
                            let weight = taps[(tz * kh + ty) * kw + tx];
                            let ax = Axis::new(g, 2, tx);
                            let (lo, hi) = ax.inside(0, ow);
                            if lo >= hi {
                                continue;
                            }
                            let start = ((lo * ax.stride) as i64 + ax.offset) as usize;
                            if ax.stride == 1 {
                                let input = &row[start..start + (hi - lo)];
                                for (o, &v) in out_row[lo..hi].iter_mut().zip(input) {
                                    *o = *o + weight * v;
                                }
                            } else {
                                for (k, o) in out_row[lo..hi].iter_mut().enumerate() {
                                    *o = *o + weight * row[start + k * ax.stride];
                                }
                            }
                        }
                    }
                }
            }
        }
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

    #[test]
    fn planar_depthwise_matches_a_direct_loop() {
        // (input, kernel, stride, dilation, pad_begin, pad_end).
        type Case = (
            [usize; 2],
            [usize; 2],
            [usize; 2],
            [usize; 2],
            [i64; 2],
            [i64; 2],
        );
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
        ];
        for &(input, kernel, stride, dilation, pad_begin, pad_end) in cases {
            let output: [usize; 2] = std::array::from_fn(|a| {
                let span = input[a] as i64 + pad_begin[a] + pad_end[a]
                    - ((kernel[a] - 1) * dilation[a]) as i64
                    - 1;
                (span / stride[a] as i64 + 1) as usize
            });
            let g = Geometry {
                batch: 2,
                groups: 3,
                cin: 1,
                cout: 1,
                input: [1, input[0], input[1]],
                kernel: [1, kernel[0], kernel[1]],
                output: [1, output[0], output[1]],
                stride: [1, stride[0], stride[1]],
                dilation: [1, dilation[0], dilation[1]],
                pad_begin: [0, pad_begin[0], pad_begin[1]],
            };
            let x: Vec<f64> = (0..6 * g.input_size())
                .map(|i| ((i * 37 + 11) % 23) as f64 - 11.0)
                .collect();
            let w: Vec<f64> = (0..3 * g.kernel_size())
                .map(|i| ((i * 7 + 3) % 5) as f64 - 2.5)
                .collect();
            let want = reference(&x, &w, &g);
            let planar = Planar::new(&g).unwrap();
            let mut got = vec![f64::NAN; want.len()];
            depthwise_planar(&x, &w, &g, &planar, &mut got, None, None);
            assert_eq!(got, want, "planar {g:?}");
            let mut rows = vec![f64::NAN; want.len()];
            depthwise_rows(&x, &w, &g, &mut rows, None, None);
            assert_eq!(rows, want, "rows {g:?}");
            // A residual epilogue adds each plane's own shortcut values
            // (two images of three channels), then the ReLU.
            let shortcut: Vec<f64> = (0..want.len()).map(|i| (i % 13) as f64 - 6.0).collect();
            let epilogue = Epilogue {
                bias: None,
                shortcut: Some(crate::fusion::Side::Left),
                activation: crate::fusion::Activation::Relu,
            };
            let added: Vec<f64> = want
                .iter()
                .zip(&shortcut)
                .map(|(v, s)| (s + v).max(0.0))
                .collect();
            let fused = Some(&epilogue);
            depthwise_planar(&x, &w, &g, &planar, &mut got, fused, Some(&shortcut));
            assert_eq!(got, added, "planar with a shortcut {g:?}");
            depthwise_rows(&x, &w, &g, &mut rows, fused, Some(&shortcut));
            assert_eq!(rows, added, "rows with a shortcut {g:?}");
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
