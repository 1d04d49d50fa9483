//! The one index helper every broadcasting or strided kernel uses.
//!
//! [`placed_strides`] gives, for each output axis, the element stride of an
//! operand placed in the output's axes (numpy: aligned right; pdpd: from a
//! start axis), 0 where the operand has 1 (broadcast). [`walk`] visits every
//! output position in row-major order with each operand's element offset;
//! [`Rows`] does the same a row at a time, after merging the axes every
//! operand reads contiguously, so that the hot kernels run tight loops (and
//! whole-row copies) over long rows and split the rows among threads.
//! [`copy_strided`] is the data-movement kernel built on it.

use std::ops::Range;

use crate::parallel;

/// Row-major element strides of `shape`.
pub(crate) fn row_major_strides(shape: &[usize]) -> Vec<isize> {
    let mut strides = vec![0isize; shape.len()];
    let mut acc = 1isize;
    for i in (0..shape.len()).rev() {
        strides[i] = acc;
        acc = acc.saturating_mul(shape[i] as isize);
    }
    strides
}

/// The strides, per axis of `out`, of an operand of shape `input` placed
/// at axis `start` (`None`: aligned right, as numpy). Each operand dim must be
/// 1 (broadcast: stride 0) or the output's.
pub(crate) fn placed_strides(
    input: &[usize],
    out: &[usize],
    start: Option<usize>,
) -> Result<Vec<isize>, String> {
    let bad = || format!("an operand of shape {input:?} does not broadcast to {out:?}");
    if input.len() > out.len() {
        return Err(bad());
    }
    let offset = start.unwrap_or(out.len() - input.len());
    if offset + input.len() > out.len() {
        return Err(bad());
    }
    let own = row_major_strides(input);
    let mut strides = vec![0isize; out.len()];
    for (j, &d) in input.iter().enumerate() {
        let o = out[offset + j];
        if d == o && d != 1 {
            strides[offset + j] = own[j];
        } else if d != 1 {
            return Err(bad());
        }
    }
    Ok(strides)
}

/// The strides, per axis of `out`, of an operand whose axis `j` is placed
/// at output axis `axes[j]` (Broadcast's explicit `axes_mapping`: increasing
/// axes, not necessarily adjacent). Each operand dim must be 1 or the
/// output's.
pub(crate) fn mapped_strides(
    input: &[usize],
    out: &[usize],
    axes: &[usize],
) -> Result<Vec<isize>, String> {
    let bad = || format!("an operand of shape {input:?} does not map to {out:?} by axes {axes:?}");
    if axes.len() != input.len() || axes.windows(2).any(|w| w[0] >= w[1]) {
        return Err(bad());
    }
    let own = row_major_strides(input);
    let mut strides = vec![0isize; out.len()];
    for (j, (&d, &a)) in input.iter().zip(axes).enumerate() {
        let o = *out.get(a).ok_or_else(bad)?;
        if d == o && d != 1 {
            strides[a] = own[j];
        } else if d != 1 {
            return Err(bad());
        }
    }
    Ok(strides)
}

/// Calls `f` with each operand's element offset for every position of `out`
/// in row-major order. Operand `k` starts at `bases[k]` and moves by
/// `strides[k][axis]` along each axis (strides may be negative or 0).
pub(crate) fn walk(
    out: &[usize],
    bases: &[isize],
    strides: &[Vec<isize>],
    mut f: impl FnMut(&[usize]),
) {
    if out.contains(&0) {
        return;
    }
    let rank = out.len();
    let mut offs: Vec<isize> = bases.to_vec();
    let mut idx = vec![0usize; rank];
    let mut current: Vec<usize> = vec![0; offs.len()];
    loop {
        for (c, &o) in current.iter_mut().zip(&offs) {
            *c = o as usize;
        }
        f(&current);
        let mut axis = rank;
        loop {
            if axis == 0 {
                return;
            }
            axis -= 1;
            idx[axis] += 1;
            for (o, s) in offs.iter_mut().zip(strides) {
                *o += s[axis];
            }
            if idx[axis] < out[axis] {
                break;
            }
            for (o, s) in offs.iter_mut().zip(strides) {
                *o -= s[axis] * out[axis] as isize;
            }
            idx[axis] = 0;
        }
    }
}

/// The output of a strided or broadcast access as rows: the innermost run
/// of the output (after dropping size-1 axes and merging adjacent axes that
/// every operand steps through as one) and, for each row, every operand's
/// element offset at the row's start.
#[derive(Debug, Clone)]
pub(crate) struct Rows {
    /// Elements per row.
    pub len: usize,
    /// Per operand, its element stride along a row.
    pub steps: Vec<isize>,
    /// The output axes around the rows, outermost first.
    outer: Vec<usize>,
    /// Per operand, its stride along each outer axis.
    outer_strides: Vec<Vec<isize>>,
    bases: Vec<isize>,
    count: usize,
}

impl Rows {
    /// The rows of `out` for operands starting at `bases` with `strides`
    /// (one per output axis, as for [`walk`]).
    pub fn new(out: &[usize], bases: &[isize], strides: &[Vec<isize>]) -> Rows {
        let operands = bases.len();
        // Axes (innermost first) as (dim, per-operand strides), merged.
        let mut axes: Vec<(usize, Vec<isize>)> = Vec::new();
        for axis in (0..out.len()).rev() {
            let dim = out[axis];
            if dim == 1 {
                continue;
            }
            let own: Vec<isize> = strides.iter().map(|s| s[axis]).collect();
            if let Some((inner_dim, inner)) = axes.last_mut() {
                let contiguous = own
                    .iter()
                    .zip(inner.iter())
                    .all(|(&o, &i)| o == i.wrapping_mul(*inner_dim as isize));
                if contiguous {
                    *inner_dim *= dim;
                    continue;
                }
            }
            axes.push((dim, own));
        }
        split_long_row(&mut axes);
        let count_all: usize = out.iter().product();
        let (len, steps) = match axes.first() {
            Some((dim, steps)) => (*dim, steps.clone()),
            None => (1, vec![0; operands]),
        };
        let rest: Vec<&(usize, Vec<isize>)> = axes.iter().skip(1).rev().collect();
        Rows {
            len,
            steps,
            outer: rest.iter().map(|(d, _)| *d).collect(),
            outer_strides: (0..operands)
                .map(|k| rest.iter().map(|(_, s)| s[k]).collect())
                .collect(),
            bases: bases.to_vec(),
            count: if count_all == 0 { 0 } else { count_all / len },
        }
    }

    /// Calls `f` with every operand's offset at the start of each row in
    /// `range`, in order.
    pub fn visit(&self, range: Range<usize>, mut f: impl FnMut(&[isize])) {
        let range = range.start..range.end.min(self.count);
        if range.is_empty() {
            return;
        }
        // The multi-index of the first row, and the offsets there.
        let mut idx = vec![0usize; self.outer.len()];
        let mut rest = range.start;
        for (i, &d) in self.outer.iter().enumerate().rev() {
            idx[i] = rest % d;
            rest /= d;
        }
        let mut offs: Vec<isize> = (0..self.bases.len())
            .map(|k| {
                let s = &self.outer_strides[k];
                self.bases[k]
                    + idx
                        .iter()
                        .zip(s)
                        .map(|(&i, &s)| i as isize * s)
                        .sum::<isize>()
            })
            .collect();
        for _ in range {
            f(&offs);
            for axis in (0..self.outer.len()).rev() {
                idx[axis] += 1;
                for (o, s) in offs.iter_mut().zip(&self.outer_strides) {
                    *o += s[axis];
                }
                if idx[axis] < self.outer[axis] {
                    break;
                }
                for (o, s) in offs.iter_mut().zip(&self.outer_strides) {
                    *o -= s[axis] * self.outer[axis] as isize;
                }
                idx[axis] = 0;
            }
        }
    }

    /// A new buffer of every row, `row_bytes` bytes each, row by row filled
    /// by `fill(offsets, row)`; in parallel when large.
    pub fn fill(
        &self,
        row_bytes: usize,
        fill: impl Fn(&[isize], &mut [u8]) + Sync,
    ) -> crate::pool::Buffer {
        parallel::filled(self.count * row_bytes, row_bytes, |first, chunk| {
            let n = chunk.len() / row_bytes;
            let mut rows = chunk.chunks_exact_mut(row_bytes);
            self.visit(first..first + n, |offs| {
                if let Some(row) = rows.next() {
                    fill(offs, row);
                }
            });
        })
    }
}

/// Rows longer than this are cut into equal rows of at most this many
/// elements (when the length has a divisor that large), so that a
/// contiguous tensor, which coalesces into one row, still splits into rows
/// the threads can share.
const MAX_ROW_ELEMENTS: usize = 1 << 14;

/// Cuts the innermost axis of `axes` (innermost first) in two when it is
/// longer than [`MAX_ROW_ELEMENTS`] and has a divisor in
/// `MAX_ROW_ELEMENTS / 4..=MAX_ROW_ELEMENTS`; a length without one (a large
/// prime) stays one row.
fn split_long_row(axes: &mut Vec<(usize, Vec<isize>)>) {
    let Some((len, steps)) = axes.first() else {
        return;
    };
    let len = *len;
    if len <= MAX_ROW_ELEMENTS {
        return;
    }
    let Some(row) = (MAX_ROW_ELEMENTS / 4..=MAX_ROW_ELEMENTS)
        .rev()
        .find(|r| len % r == 0)
    else {
        return;
    };
    let outer_steps = steps
        .iter()
        .map(|&s| s.wrapping_mul(row as isize))
        .collect();
    axes[0].0 = row;
    axes.insert(1, (len / row, outer_steps));
}

/// Whether `len` elements from `first` by `step` lie in `0..size`.
pub(crate) fn run_in_bounds(first: isize, step: isize, len: usize, size: usize) -> bool {
    if len == 0 {
        return true;
    }
    let last = first as i128 + (len as i128 - 1) * step as i128;
    first >= 0 && last >= 0 && (first as i128) < size as i128 && last < size as i128
}

/// Copies `row.len() / W` elements of `W` bytes from `src`, from element
/// `first` by `step` (the run must be in bounds).
fn copy_run<const W: usize>(src: &[u8], first: isize, step: isize, row: &mut [u8]) {
    if step == 1 {
        let start = first as usize * W;
        row.copy_from_slice(&src[start..start + row.len()]);
        return;
    }
    for (k, out) in row.chunks_exact_mut(W).enumerate() {
        let at = (first + k as isize * step) as usize * W;
        out.copy_from_slice(&src[at..at + W]);
    }
}

/// Elements of `width` bytes of `src` read in the pattern of `out`: element
/// `base + Σ index[i] * strides[i]` at each output index. `None` when a read
/// falls outside `src` (the caller's shapes disagree: an internal error).
///
/// Rows whose reads are strided (a transpose) are copied [`tile_rows`] rows
/// at a time, a cache line of each row at a time: the rows usually start at
/// neighbouring elements, so the reads for one line of every row of the
/// tile are whole lines too ([`transpose_tile`]).
pub(crate) fn copy_strided(
    src: &[u8],
    width: usize,
    out: &[usize],
    base: isize,
    strides: &[isize],
) -> Option<crate::pool::Buffer> {
    let rows = Rows::new(out, &[base], &[strides.to_vec()]);
    let size = src.len() / width.max(1);
    let (len, step) = (rows.len, rows.steps[0]);
    let row_bytes = len * width;
    let outside = std::sync::atomic::AtomicBool::new(false);
    let tile = if step == 1 {
        1
    } else {
        tile_rows(width, rows.count)
    };
    // Tasks of whole tiles where the rows divide into them, so that no tile
    // is cut in two at a task's edge.
    let task_rows = if rows.count.is_multiple_of(tile) {
        tile
    } else {
        1
    };
    let unit = task_rows * row_bytes;
    let bytes = parallel::filled(rows.count * row_bytes, unit, |first_unit, chunk| {
        let first = first_unit * task_rows;
        let mut starts = Vec::with_capacity(chunk.len() / row_bytes);
        rows.visit(first..first + chunk.len() / row_bytes, |offs| {
            starts.push(offs[0])
        });
        if !starts.iter().all(|&s| run_in_bounds(s, step, len, size)) {
            outside.store(true, std::sync::atomic::Ordering::Relaxed);
            return;
        }
        for (starts, dst) in starts.chunks(tile).zip(chunk.chunks_mut(tile * row_bytes)) {
            match width {
                1 => copy_tile::<1, 64>(src, starts, step, dst),
                2 => copy_tile::<2, 32>(src, starts, step, dst),
                4 => copy_tile::<4, 16>(src, starts, step, dst),
                8 => copy_tile::<8, 8>(src, starts, step, dst),
                _ => {
                    for (&start, row) in starts.iter().zip(dst.chunks_exact_mut(row_bytes)) {
                        for (k, out) in row.chunks_exact_mut(width).enumerate() {
                            let at = (start + k as isize * step) as usize * width;
                            out.copy_from_slice(&src[at..at + width]);
                        }
                    }
                }
            }
        }
    });
    (!outside.into_inner()).then_some(bytes)
}

/// The bytes of a cache line: a transposing tile moves whole lines.
const LINE: usize = 64;

/// The most bytes a transposing tile reads from one input page in one go.
const TILE_RUN: usize = 1024;

/// How many of `count` strided rows [`copy_strided`] copies together, for
/// elements of `width` bytes: as many as make a run of [`TILE_RUN`] bytes
/// of adjacent input elements (256 for 4-byte elements), but few enough to
/// leave four tiles for the threads to share, and a whole number of
/// squares (`64 / width` rows) where there are that many rows.
fn tile_rows(width: usize, count: usize) -> usize {
    let square = (LINE / width.max(1)).max(1);
    let most = (TILE_RUN / width.max(1)).max(1);
    let shared = count / 4 / square * square;
    most.min(shared).max(square)
}

/// Copies `starts.len()` rows of `dst` (equal lengths, elements of `W`
/// bytes), row `g` from element `starts[g]` by `step`; runs in bounds.
/// `S` is the side of a square of elements one cache line wide
/// (`64 / W`).
fn copy_tile<const W: usize, const S: usize>(
    src: &[u8],
    starts: &[isize],
    step: isize,
    dst: &mut [u8],
) {
    if let [start] = starts {
        return copy_run::<W>(src, *start, step, dst);
    }
    let row_bytes = dst.len() / starts.len();
    let len = row_bytes / W;
    let first = starts[0];
    if (first..).zip(starts).all(|(want, &start)| start == want) {
        return transpose_tile::<W, S>(src, first, starts.len(), step, len, dst);
    }
    let mut rows: Vec<&mut [u8]> = dst.chunks_exact_mut(row_bytes).collect();
    // Square-ish blocks: each row gets a cache line of output per block,
    // and each column's reads share lines across the rows.
    for k0 in (0..len).step_by(S) {
        let k1 = (k0 + S).min(len);
        for (row, &start) in rows.iter_mut().zip(starts) {
            copy_run::<W>(
                src,
                start + k0 as isize * step,
                step,
                &mut row[k0 * W..k1 * W],
            );
        }
    }
}

/// [`copy_tile`] for rows that start at adjacent elements (`first`,
/// `first + 1`, ...): a transpose. Element `k` of rows `g..g + S` is a run
/// of `S` adjacent input elements, so the tile goes by squares of `S` by
/// `S` elements: `S` whole cache lines read, `S` whole lines written.
/// Whole lines matter because power-of-two strides put every run, and
/// every row, in the same cache set, where element-by-element access across
/// them keeps evicting lines; and the fixed-size square compiles to
/// straight moves, without bounds checks. The squares go across the tile's
/// rows first, so each input page is read up to [`TILE_RUN`] bytes at a
/// time (one line per page visit left the transposes bound by TLB misses).
fn transpose_tile<const W: usize, const S: usize>(
    src: &[u8],
    first: isize,
    rows: usize,
    step: isize,
    len: usize,
    dst: &mut [u8],
) {
    debug_assert_eq!(S * W, LINE);
    let row_bytes = len * W;
    let (full_rows, full_len) = (rows / S * S, len / S * S);
    for k0 in (0..full_len).step_by(S) {
        for g0 in (0..full_rows).step_by(S) {
            let runs: [&[u8]; S] = std::array::from_fn(|i| {
                let at = (first + g0 as isize + (k0 + i) as isize * step) as usize * W;
                &src[at..at + S * W]
            });
            for j in 0..S {
                let out = &mut dst[(g0 + j) * row_bytes + k0 * W..][..S * W];
                for (e, run) in out.chunks_exact_mut(W).zip(&runs) {
                    e.copy_from_slice(&run[j * W..(j + 1) * W]);
                }
            }
        }
    }
    // What the squares leave: the last `len % S` elements of the full rows,
    // and the `rows % S` rows left whole; element by element.
    for (g, row) in dst.chunks_exact_mut(row_bytes).enumerate() {
        let from_k = if g < full_rows { full_len } else { 0 };
        let start = first + g as isize + from_k as isize * step;
        copy_run::<W>(src, start, step, &mut row[from_k * W..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_and_placed_broadcasts() {
        let s = placed_strides(&[3, 1], &[2, 3, 4], None).unwrap();
        assert_eq!(s, vec![0, 1, 0]);
        let mut seen = Vec::new();
        walk(&[2, 3, 4], &[0], &[s], |o| seen.push(o[0]));
        assert_eq!(seen.len(), 24);
        assert_eq!(&seen[..8], &[0, 0, 0, 0, 1, 1, 1, 1]);
        assert_eq!(placed_strides(&[3], &[3, 4], Some(0)).unwrap(), vec![1, 0]);
        assert!(placed_strides(&[3, 5], &[2, 3, 4, 5], None).is_err());
        let mut n = 0;
        walk(&[], &[0], &[vec![]], |_| n += 1);
        assert_eq!(n, 1);
        walk(&[2, 0], &[0], &[vec![0, 0]], |_| n += 1);
        assert_eq!(n, 1);
    }

    /// Every output position's offsets, through `Rows`, as `walk` gives them.
    fn by_rows(out: &[usize], bases: &[isize], strides: &[Vec<isize>]) -> Vec<Vec<usize>> {
        let rows = Rows::new(out, bases, strides);
        let mut seen = Vec::new();
        for split in [0, rows.count / 3, rows.count] {
            let mut part = Vec::new();
            let mut visit = |range: Range<usize>| {
                rows.visit(range, |offs| {
                    for k in 0..rows.len {
                        part.push(
                            offs.iter()
                                .zip(&rows.steps)
                                .map(|(&o, &s)| (o + k as isize * s) as usize)
                                .collect::<Vec<_>>(),
                        );
                    }
                })
            };
            visit(0..split);
            visit(split..rows.count);
            if seen.is_empty() {
                seen = part;
            } else {
                assert_eq!(seen, part, "split at row {split}");
            }
        }
        seen
    }

    /// Output dims, each operand's base offset, each operand's strides.
    type WalkCase = (Vec<usize>, Vec<isize>, Vec<Vec<isize>>);

    #[test]
    fn rows_visit_what_walk_visits() {
        let cases: Vec<WalkCase> = vec![
            (
                vec![2, 3, 4],
                vec![0, 0],
                vec![vec![12, 4, 1], vec![0, 1, 0]],
            ),
            (vec![2, 3, 4], vec![0], vec![vec![0, 0, 1]]),
            (vec![4, 1, 5], vec![3], vec![vec![5, 0, 1]]),
            (vec![3, 4], vec![0], vec![vec![1, 3]]),
            (vec![2, 2, 2, 2], vec![15], vec![vec![-8, -4, -2, -1]]),
            (vec![1, 1], vec![0, 0], vec![vec![0, 0], vec![0, 0]]),
            (vec![], vec![2], vec![vec![]]),
            (vec![3, 0, 2], vec![0], vec![vec![0, 2, 1]]),
            // One long row, cut into rows of 15000 (a divisor of 120000).
            (vec![3, 40000], vec![0], vec![vec![40000, 1]]),
            (
                vec![2, 3, 40000],
                vec![1, 0],
                vec![vec![0, 0, -1], vec![120000, 40000, 1]],
            ),
        ];
        for (out, bases, strides) in cases {
            let mut expected = Vec::new();
            walk(&out, &bases, &strides, |o| expected.push(o.to_vec()));
            assert_eq!(
                by_rows(&out, &bases, &strides),
                expected,
                "{out:?} {strides:?}"
            );
        }
    }

    /// Element by element, as the definition says.
    fn strided_reference(
        src: &[u8],
        width: usize,
        out: &[usize],
        base: isize,
        strides: &[isize],
    ) -> Vec<u8> {
        let mut bytes = Vec::new();
        walk(out, &[base], &[strides.to_vec()], |offs| {
            let at = offs[0] * width;
            bytes.extend_from_slice(&src[at..at + width]);
        });
        bytes
    }

    #[test]
    fn transposing_tiles_match_the_definition() {
        let check = |src: &[u8], width: usize, out: &[usize], base: isize, strides: &[isize]| {
            assert_eq!(
                copy_strided(src, width, out, base, strides)
                    .unwrap()
                    .to_vec(),
                strided_reference(src, width, out, base, strides),
                "width {width}, out {out:?}, base {base}, strides {strides:?}"
            );
        };
        let bytes = |n: usize| -> Vec<u8> { (0..n).map(|i| (i * 7 % 251) as u8).collect() };
        // Every element width the tiles specialise (and 3, which they do
        // not), sizes around the squares' edges, both directions of the
        // step, and 2-D, batched and partial (every other column)
        // transposes.
        for width in [1usize, 2, 3, 4, 8] {
            for (rows, cols) in [(1, 70), (7, 9), (16, 16), (17, 65), (64, 130), (129, 33)] {
                let src = bytes(rows * cols * width * 2);
                let (r, c) = (rows as isize, cols as isize);
                check(&src, width, &[cols, rows], 0, &[1, c]);
                check(&src, width, &[cols, rows], (r - 1) * c, &[1, -c]);
                check(&src, width, &[2, cols, rows], 0, &[r * c, 1, c]);
                check(&src, width, &[cols / 2, rows], 0, &[2, c]);
            }
        }
        // Outputs of 1 MiB and more are cut into tasks for the threads: of
        // whole tiles where the tiles divide the rows (1,024), else of
        // whole rows (700, cutting tiles at the tasks' edges).
        for (rows, cols) in [(512, 1024), (513, 700)] {
            let src = bytes(rows * cols * 4);
            check(&src, 4, &[cols, rows], 0, &[1, cols as isize]);
        }
    }

    #[test]
    fn strided_copies_check_their_reads() {
        let src: Vec<u8> = (0..24).collect();
        // A 2-byte transpose of [3, 4] elements.
        let t = copy_strided(&src, 2, &[4, 3], 0, &[1, 4]).unwrap();
        assert_eq!(&t[..6], &[0, 1, 8, 9, 16, 17]);
        // A negative step reading before the start is refused, not a panic.
        assert!(copy_strided(&src, 4, &[3], 1, &[-1]).is_none());
        assert_eq!(
            copy_strided(&src, 4, &[2], 5, &[-1]).unwrap().to_vec(),
            (20..24).chain(16..20).collect::<Vec<u8>>()
        );
        assert_eq!(
            copy_strided(&src, 3, &[0, 2], 0, &[2, 1]).unwrap().to_vec(),
            Vec::<u8>::new()
        );
    }
}
