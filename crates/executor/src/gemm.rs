//! Matrix products on the `gemm` crate (candle's GEMM: packed SIMD
//! microkernels, AVX-512 through its `x86-v4` feature, AVX2/FMA, selected
//! at run time), behind a safe interface: every operand is a slice with
//! explicit strides, checked to stay inside it before the crate's
//! raw-pointer call. Each call of the crate runs on one thread
//! (`Parallelism::None`); a large product is cut into blocks of rows or of
//! columns run on the current rayon pool, so `--threads` governs it.
//!
//! Why this crate rather than `matrixmultiply` (ndarray's, used before) is
//! in `docs/performance.md` (measured by `benches/gemm_compare.rs` and on
//! whole models).

use rayon::prelude::*;

use ir::ElementType;

use crate::error::{ExecError, KernelError};
use crate::tensor::Tensor;

/// A float type the GEMM computes in.
pub(crate) trait Scalar:
    Copy
    + Send
    + Sync
    + Default
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + 'static
{
    const ZERO: Self;
    const ONE: Self;
    /// The lowest finite value.
    const LOWEST: Self;
    const NEG_INFINITY: Self;
    fn is_nan(self) -> bool;
    /// A count as this type (rounded to nearest).
    fn from_count(n: usize) -> Self;
    /// Runs `f` on `len` elements of this thread's block buffer (kept from
    /// one call to the next, so the blocks of every layer reuse it, the
    /// GEMM's column blocks and Winograd's alike; stale contents: `f`
    /// writes before it reads).
    fn with_block<R>(len: usize, f: impl FnOnce(&mut [Self]) -> R) -> R;
    /// `c = a · b + beta · c` by the `gemm` crate on one thread: `a` is
    /// `m × k` and `b` is `k × n` with (row, column) strides, `c` has rows
    /// `rsc` apart (and columns 1 apart).
    ///
    /// # Safety
    /// Every element the product reads or writes must lie inside its
    /// allocation, and `c`'s must not alias each other or `a`'s and `b`'s.
    unsafe fn gemm(
        dims: (usize, usize, usize),
        a: (*const Self, isize, isize),
        b: (*const Self, isize, isize),
        beta: Self,
        c: (*mut Self, isize),
    );
}

/// The float types the GEMM computes in.
macro_rules! scalar {
    ($t:ident) => {
        impl Scalar for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const LOWEST: Self = $t::MIN;
            const NEG_INFINITY: Self = $t::NEG_INFINITY;
            fn is_nan(self) -> bool {
                $t::is_nan(self)
            }
            fn from_count(n: usize) -> Self {
                n as $t
            }
            fn with_block<R>(len: usize, f: impl FnOnce(&mut [Self]) -> R) -> R {
                thread_local! {
                    static BLOCK: std::cell::Cell<Vec<$t>> = const { std::cell::Cell::new(Vec::new()) };
                }
                // Taken out while in use: a nested call gets a buffer of its own.
                let mut buffer = BLOCK.take();
                if buffer.len() < len {
                    buffer.resize(len, 0.0);
                }
                let result = f(&mut buffer[..len]);
                BLOCK.set(buffer);
                result
            }
            unsafe fn gemm(
                (m, k, n): (usize, usize, usize),
                a: (*const Self, isize, isize),
                b: (*const Self, isize, isize),
                beta: Self,
                c: (*mut Self, isize),
            ) {
                // SAFETY: the caller's contract is the routine's. `gemm`
                // computes dst = alpha·dst + beta·lhs·rhs, takes (column,
                // row) strides, and reads dst only when told to (a zero
                // `beta` here: `c` may hold anything, even NaN).
                unsafe {
                    gemm::gemm(
                        m,
                        n,
                        k,
                        c.0,
                        1,
                        c.1,
                        beta != 0.0,
                        a.0,
                        a.2,
                        a.1,
                        b.0,
                        b.2,
                        b.1,
                        beta,
                        1.0,
                        false,
                        false,
                        false,
                        gemm::Parallelism::None,
                    )
                }
            }
        }
    };
}
scalar!(f32);
scalar!(f64);

/// A strided matrix inside a slice: element `(r, c)` is
/// `data[r*row_stride + c*col_stride]`.
#[derive(Clone, Copy)]
pub(crate) struct Mat<'a, T> {
    pub data: &'a [T],
    pub row_stride: usize,
    pub col_stride: usize,
}

impl<'a, T> Mat<'a, T> {
    /// A row-major matrix whose rows are `cols` apart.
    pub fn rows(data: &'a [T], cols: usize) -> Self {
        Mat {
            data,
            row_stride: cols,
            col_stride: 1,
        }
    }

    /// The transpose of a row-major `rows × cols` matrix, read in place.
    pub fn transposed(data: &'a [T], cols: usize) -> Self {
        Mat {
            data,
            row_stride: 1,
            col_stride: cols,
        }
    }

    fn fits(&self, rows: usize, cols: usize) -> bool {
        if rows == 0 || cols == 0 {
            return true;
        }
        let last = (rows - 1)
            .checked_mul(self.row_stride)
            .zip((cols - 1).checked_mul(self.col_stride))
            .and_then(|(a, b)| a.checked_add(b));
        last.is_some_and(|l| l < self.data.len())
    }
}

/// `dst (m × n, rows dst_row_stride apart) = lhs (m × k) · rhs (k × n)`, or
/// `+=` when `accumulate`. Runs on the current rayon pool's threads when the
/// product is large enough to gain from them.
pub(crate) fn matmul<T: Scalar>(
    dst: &mut [T],
    dst_row_stride: usize,
    (m, k, n): (usize, usize, usize),
    lhs: Mat<'_, T>,
    rhs: Mat<'_, T>,
    accumulate: bool,
) -> Result<(), KernelError> {
    let out = Mat {
        data: &*dst,
        row_stride: dst_row_stride,
        col_stride: 1,
    };
    if !(lhs.fits(m, k) && rhs.fits(k, n) && out.fits(m, n)) {
        return Err("internal: a GEMM operand does not fit its buffer".into());
    }
    if m == 0 || n == 0 {
        return Ok(());
    }
    if k == 0 {
        if !accumulate {
            for r in 0..m {
                dst[r * dst_row_stride..r * dst_row_stride + n].fill(T::ZERO);
            }
        }
        return Ok(());
    }
    if m == 1 && vector_product(dst, (k, n), lhs, rhs, accumulate).is_some() {
        return Ok(());
    }
    let beta = if accumulate { T::ONE } else { T::ZERO };
    let strides = [
        lhs.row_stride,
        lhs.col_stride,
        rhs.row_stride,
        rhs.col_stride,
        dst_row_stride,
    ];
    if strides.iter().any(|&s| isize::try_from(s).is_err()) {
        return Err("internal: a GEMM stride overflows".into());
    }
    let [rsa, csa, rsb, csb, rsc] = strides.map(|s| s as isize);
    let threads = rayon::current_num_threads();
    // Below about a million multiply-adds the threads cost more than they give.
    if threads < 2 || m.saturating_mul(n).saturating_mul(k) < 1 << 20 {
        // SAFETY: every element the product reads or writes lies inside its
        // slice (checked by `fits` above, for the given sizes and strides);
        // `dst` is borrowed mutably, distinct from the read-only operands,
        // and its elements are `dst_row_stride >= n` apart row to row, so
        // none alias.
        unsafe {
            T::gemm(
                (m, k, n),
                (lhs.data.as_ptr(), rsa, csa),
                (rhs.data.as_ptr(), rsb, csb),
                beta,
                (dst.as_mut_ptr(), rsc),
            );
        }
        return Ok(());
    }
    if m >= n {
        let dst = &mut dst[..(m - 1) * dst_row_stride + n];
        // Blocks of rows, each a product of its own (its rows of `dst` are
        // a slice of their own).
        let rows = m.div_ceil(threads).next_multiple_of(8);
        dst.par_chunks_mut(rows * dst_row_stride)
            .enumerate()
            .for_each(|(block, out)| {
                let first = block * rows;
                let count = rows.min(m - first);
                // SAFETY: as above; `out` holds rows `first..first + count`
                // of `dst` (the last one cut to `n` at least: `dst` holds
                // row m-1's `n` elements), and `lhs` row `first` on lies
                // inside its slice (`fits`).
                unsafe {
                    T::gemm(
                        (count, k, n),
                        (lhs.data.as_ptr().add(first * lhs.row_stride), rsa, csa),
                        (rhs.data.as_ptr(), rsb, csb),
                        beta,
                        (out.as_mut_ptr(), rsc),
                    );
                }
            });
        return Ok(());
    }
    // Blocks of columns: each writes its own columns of every row of `dst`,
    // which no slice can express.
    let cols = n.div_ceil(threads).next_multiple_of(16);
    let out = SharedMut(dst.as_mut_ptr());
    (0..n.div_ceil(cols)).into_par_iter().for_each(|block| {
        let first = block * cols;
        let count = cols.min(n - first);
        let out = &out;
        // SAFETY: as above, for columns `first..first + count` (inside the
        // checked `n`); the blocks' columns are disjoint, so no two threads
        // write the same element of `dst`, which stays borrowed mutably
        // (and unread elsewhere) until every block is done.
        unsafe {
            T::gemm(
                (m, k, count),
                (lhs.data.as_ptr(), rsa, csa),
                (rhs.data.as_ptr().add(first * rhs.col_stride), rsb, csb),
                beta,
                (out.0.add(first), rsc),
            );
        }
    });
    Ok(())
}

/// The right operand of [`matmul_by_column_blocks`]: a matrix, or one
/// built block of columns by block (an im2col).
pub(crate) enum Columns<'a, T> {
    /// `k × n`, read in place block by block.
    Matrix(Mat<'a, T>),
    /// `fill(first, block)` writes columns `first..first + len` as `k` rows
    /// of `len` (`block.len() == k * len`).
    Built(&'a (dyn Fn(usize, &mut [T]) + Sync)),
}

/// What runs on every row of each output tile right after its product,
/// while the tile is in cache: `finish(row, first_column, values)` (a
/// fused bias and activation).
pub(crate) type Finish<'a, T> = &'a (dyn Fn(usize, usize, &mut [T]) + Sync);

/// Elements of `B` a column block holds at most (4 MiB of f32): a bound on
/// the im2col buffers, not a cache size. Blocks that fit a core's L2 cache
/// (1 MiB) were slower, one thread, on ResNet-50's 3x3 convolutions (256
/// channels at 14x14: 2.25 against 1.9 ms, on `matrixmultiply`): each
/// block packs all of `A` again, and the GEMM blocks `B` for the caches
/// itself. On `gemm`, 256 Ki and 1 Mi elements, and one block for the
/// whole product, gave ResNet-50 the same time within the noise.
const BLOCK_ELEMENTS: usize = 1 << 20;

/// The columns of one block of [`matmul_by_column_blocks`] for a depth of
/// `k`, `n` columns and `threads` threads: within [`BLOCK_ELEMENTS`], in a
/// number of blocks that is a multiple of the threads (so none waits on a
/// last, lone block), rounded up to a multiple of 16 (the microkernel's
/// width).
pub(crate) fn column_block(k: usize, n: usize, threads: usize) -> usize {
    column_block_within(k, n, threads, usize::MAX)
}

/// [`column_block`] with blocks of at most about `widest` columns: the
/// bound sets how many blocks there are, and the columns are then shared
/// evenly among them (a bound applied after the sharing left one short
/// block: 3136 columns in 912, 912, 912 and 400, which two threads took
/// as 1824 against 1312).
fn column_block_within(k: usize, n: usize, threads: usize, widest: usize) -> usize {
    let fits = (BLOCK_ELEMENTS / k.max(1)).min(widest).max(16);
    let blocks = n.div_ceil(fits).next_multiple_of(threads.max(1));
    n.div_ceil(blocks).next_multiple_of(16)
}

/// Whether a product is worth the threads: about a million multiply-adds
/// (below, it runs as one block on the calling thread).
fn is_large((m, k, n): (usize, usize, usize)) -> bool {
    m.saturating_mul(n).saturating_mul(k) >= 1 << 20
}

/// Whether [`matmul_by_column_blocks`] cuts this product into blocks of
/// rows (one per thread of the current pool) rather than of columns. Every
/// column block packs all of its rows of `lhs`, every row block builds and
/// packs all of its columns of `rhs`: an output taller than wide (a deep
/// layer's narrow planes, where the weights outweigh the columns) is cut by
/// rows; a wider one into column blocks (`column_block`), its rows cut too
/// only if there are fewer column blocks than threads. A caller whose
/// columns are built (an im2col) builds them once for all the row blocks
/// when this holds.
pub(crate) fn cuts_rows((m, k, n): (usize, usize, usize)) -> bool {
    rayon::current_num_threads() > 1 && is_large((m, k, n)) && m >= n
}

/// `dst (m × n, rows dst_row_stride apart) = lhs (m × k) · rhs (k × n)` by
/// blocks of output columns, each on one thread of the current rayon pool:
/// a block builds its columns of `rhs` (when [`Columns::Built`]) into a
/// buffer of its thread, kept from one call to the next, multiplies by it,
/// and runs `finish` on the tile it wrote. Outputs taller than wide are cut
/// into blocks of rows instead (each builds its own columns: a copy per
/// row block, against a product `m / row blocks` times as large). On one
/// thread the column blocks keep the columns in cache all the same; small
/// products (under a million multiply-adds) run as one block.
pub(crate) fn matmul_by_column_blocks<T: Scalar>(
    dst: &mut [T],
    dst_row_stride: usize,
    (m, k, n): (usize, usize, usize),
    lhs: Mat<'_, T>,
    rhs: Columns<'_, T>,
    finish: Option<Finish<'_, T>>,
) -> Result<(), KernelError> {
    let out = Mat {
        data: &*dst,
        row_stride: dst_row_stride,
        col_stride: 1,
    };
    let rhs_fits = match &rhs {
        Columns::Matrix(b) => b.fits(k, n),
        Columns::Built(_) => true,
    };
    if !(lhs.fits(m, k) && rhs_fits && out.fits(m, n)) || dst_row_stride < n {
        return Err("internal: a GEMM operand does not fit its buffer".into());
    }
    if m == 0 || n == 0 {
        return Ok(());
    }
    let strides = [lhs.row_stride, lhs.col_stride, dst_row_stride, k];
    if strides.iter().any(|&s| isize::try_from(s).is_err()) {
        return Err("internal: a GEMM stride overflows".into());
    }
    let large = is_large((m, k, n));
    let threads = rayon::current_num_threads();
    let parallel = threads > 1 && large;
    let threads = if parallel { threads } else { 1 };
    let cols = if !large || cuts_rows((m, k, n)) {
        n
    } else if finish.is_some() {
        // The tile `finish` reads should still be in L2 when it runs: at
        // most 512 KiB of f32 (but 256 columns at least, so the rows of
        // `lhs` each block packs again stay a small part of its work).
        let tile = ((1 << 17) / m).max(256);
        column_block_within(k, n, threads, tile)
    } else {
        column_block(k, n, threads)
    };
    let col_blocks = n.div_ceil(cols);
    let rows = if col_blocks >= threads {
        m
    } else {
        m.div_ceil(threads.div_ceil(col_blocks))
            .next_multiple_of(16)
            .min(m)
    };
    let row_blocks = m.div_ceil(rows);
    if let Columns::Built(_) = rhs {
        crate::tensor::check_scratch(
            k.saturating_mul(cols),
            std::mem::size_of::<T>(),
            "a block of columns",
        )?;
    }
    let out = SharedMut(dst.as_mut_ptr());
    let block = |index: usize| {
        let (col_block, row_block) = (index / row_blocks, index % row_blocks);
        let (first, first_row) = (col_block * cols, row_block * rows);
        let (len, count) = (cols.min(n - first), rows.min(m - first_row));
        let product = |b: Mat<'_, T>| {
            let out = &out;
            // SAFETY: `lhs` holds m × k (`fits`), so rows `first_row..` on
            // lie inside it; `b` holds the k × len block (a block of the
            // checked `rhs`, or a buffer of k·len laid out `len` wide);
            // rows `first_row..first_row + count`, columns `first..first +
            // len` of the m × n output lie inside `dst` (`fits`). The blocks
            // are disjoint rectangles of `dst`, so no two threads write one
            // element; `dst` stays borrowed mutably (unread elsewhere)
            // until every block is done.
            unsafe {
                T::gemm(
                    (count, k, len),
                    (
                        lhs.data.as_ptr().add(first_row * lhs.row_stride),
                        lhs.row_stride as isize,
                        lhs.col_stride as isize,
                    ),
                    (
                        b.data.as_ptr(),
                        b.row_stride as isize,
                        b.col_stride as isize,
                    ),
                    T::ZERO,
                    (
                        out.0.add(first_row * dst_row_stride + first),
                        dst_row_stride as isize,
                    ),
                );
            }
            if let Some(finish) = finish {
                for r in first_row..first_row + count {
                    // SAFETY: this block's part of row r (inside `dst`, as
                    // above), written by no other block, and no other
                    // reference to it is live.
                    let values = unsafe {
                        std::slice::from_raw_parts_mut(out.0.add(r * dst_row_stride + first), len)
                    };
                    finish(r, first, values);
                }
            }
        };
        match &rhs {
            Columns::Matrix(b) => product(Mat {
                data: &b.data[first * b.col_stride..],
                ..*b
            }),
            Columns::Built(fill) => T::with_block(k * len, |buf| {
                fill(first, buf);
                product(Mat::rows(buf, len));
            }),
        }
    };
    let blocks = col_blocks * row_blocks;
    if parallel && blocks > 1 {
        (0..blocks).into_par_iter().for_each(block);
    } else {
        (0..blocks).for_each(block);
    }
    Ok(())
}

/// `dst (1 × n) = lhs (1 × k) · rhs (k × n)`, or `+=` when `accumulate`,
/// for a `rhs` with unit row or column stride: a matrix-vector product that
/// streams `rhs` once, cut into column blocks on the threads (`matrixmultiply`,
/// the GEMM before, packed all of `rhs` and ran its 16-row microkernel on
/// one row: a classifier's `[1, 2048] × [2048, 1000]` took 5 to 10 times
/// as long; `gemm` has a one-thread matrix-vector path of its own, but
/// only for some layouts). `None` when `rhs` has neither
/// stride 1 (the caller then runs the GEMM).
fn vector_product<T: Scalar>(
    dst: &mut [T],
    (k, n): (usize, usize),
    lhs: Mat<'_, T>,
    rhs: Mat<'_, T>,
    accumulate: bool,
) -> Option<()> {
    let a: Vec<T> = (0..k).map(|p| lhs.data[p * lhs.col_stride]).collect();
    let dst = &mut dst[..n];
    // Blocks of columns, for the threads: at least 64 KiB of `rhs` each.
    let block = (n.div_ceil(rayon::current_num_threads()))
        .max((16384 / k.max(1)).max(16))
        .next_multiple_of(16);
    if rhs.row_stride == 1 {
        // Column j of rhs is contiguous: a dot product each.
        let column = |j: usize| &rhs.data[j * rhs.col_stride..][..k];
        let run = |first: usize, out: &mut [T]| {
            for (i, o) in out.iter_mut().enumerate() {
                let sum = dot(&a, column(first + i));
                *o = if accumulate { *o + sum } else { sum };
            }
        };
        by_blocks(dst, block, n * k, run);
        return Some(());
    }
    if rhs.col_stride == 1 {
        // Row p of rhs is contiguous: the output is a sum of scaled rows.
        let run = |first: usize, out: &mut [T]| {
            if !accumulate {
                out.fill(T::ZERO);
            }
            for (p, &scale) in a.iter().enumerate() {
                let row = &rhs.data[p * rhs.row_stride + first..][..out.len()];
                axpy(out, scale, row);
            }
        };
        by_blocks(dst, block, n * k, run);
        return Some(());
    }
    None
}

/// Runs `run(first, block)` over `dst` cut into blocks of `block` elements,
/// on the current rayon pool when the product (`work` multiply-adds) is
/// worth the threads.
fn by_blocks<T: Scalar>(
    dst: &mut [T],
    block: usize,
    work: usize,
    run: impl Fn(usize, &mut [T]) + Sync,
) {
    if rayon::current_num_threads() > 1 && work >= 1 << 18 {
        dst.par_chunks_mut(block)
            .enumerate()
            .for_each(|(i, out)| run(i * block, out));
    } else {
        run(0, dst);
    }
}

/// How far ahead of a streaming read (bytes) [`dot`] and [`axpy`] ask for
/// the memory they will read next. A matrix-vector product reads its
/// matrix once, mostly from memory (a classifier's 5 MB of weights, last
/// read a whole inference ago), and the hardware prefetcher starts over
/// at every 4 KiB page: asking 16 KiB ahead, line by line as the loop
/// goes, streamed 1280 × 1000 f32 weights from a cold cache about twice
/// as fast (0.12–0.16 → 0.05–0.08 ms, one thread; a burst of requests a
/// whole column ahead gained nothing).
const PREFETCH_AHEAD: usize = 16 << 10;

/// Asks for the cache lines of `chunk` [`PREFETCH_AHEAD`] bytes further
/// on (a hint only).
#[inline(always)]
fn prefetch_ahead<T>(chunk: &[T]) {
    for line in (0..std::mem::size_of_val(chunk)).step_by(64) {
        let at = chunk.as_ptr().wrapping_byte_add(PREFETCH_AHEAD + line);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint: it never faults, whatever the
        // address (this one may lie past the end of the matrix), and
        // changes nothing the program can read.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(at.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = at;
    }
}

/// Lanes of the partial sums of [`dot`] and of the chunks of [`axpy`].
const LANES: usize = 16;

/// `Σ a[i]·b[i]` in 16 interleaved partial sums (vectorizable; the order of
/// the additions is not a loop's, as a GEMM's is not), `b` read ahead
/// ([`prefetch_ahead`]).
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512cd+avx512dq+avx512vl",
    "x86_64+avx2+fma",
))]
fn dot<T: Scalar>(a: &[T], b: &[T]) -> T {
    let mut sums = [T::ZERO; LANES];
    let (a_chunks, b_chunks) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let (a_tail, b_tail) = (a_chunks.remainder(), b_chunks.remainder());
    for (x, y) in a_chunks.zip(b_chunks) {
        prefetch_ahead(y);
        for l in 0..LANES {
            sums[l] = sums[l] + x[l] * y[l];
        }
    }
    let mut total = T::ZERO;
    for (x, y) in a_tail.iter().zip(b_tail) {
        total = total + *x * *y;
    }
    sums.iter().fold(total, |acc, &s| acc + s)
}

/// `out += scale · row`, `row` read ahead ([`prefetch_ahead`]).
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512cd+avx512dq+avx512vl",
    "x86_64+avx2+fma",
))]
fn axpy<T: Scalar>(out: &mut [T], scale: T, row: &[T]) {
    let row = &row[..out.len()];
    let mut outs = out.chunks_exact_mut(LANES);
    let mut rows = row.chunks_exact(LANES);
    for (o, v) in (&mut outs).zip(&mut rows) {
        prefetch_ahead(v);
        for l in 0..LANES {
            o[l] = o[l] + scale * v[l];
        }
    }
    for (o, &v) in outs.into_remainder().iter_mut().zip(rows.remainder()) {
        *o = *o + scale * v;
    }
}

/// `dst (m × n, rows n apart) = lhs (m × k) · Wᵀ`, where the weights `W`
/// (`n × k`) exist only block by block: `fill(first, block)` writes rows
/// `first..` of `W` into `block` (`block.len() / k` of them, at most
/// `block_rows`). The blocks run on the current rayon pool, each thread
/// filling its own buffer of `block_rows × k` and multiplying by it on its
/// own, so the decoding of compressed weights runs in parallel as well as
/// the products.
pub(crate) fn matmul_by_blocks<T: Scalar>(
    dst: &mut [T],
    (m, k, n): (usize, usize, usize),
    lhs: Mat<'_, T>,
    block_rows: usize,
    fill: impl Fn(usize, &mut [T]) -> Result<(), KernelError> + Sync,
) -> Result<(), KernelError> {
    let out = Mat::rows(&*dst, n);
    if !(lhs.fits(m, k) && out.fits(m, n)) || block_rows == 0 {
        return Err("internal: a GEMM operand does not fit its buffer".into());
    }
    if m == 0 || n == 0 {
        return Ok(());
    }
    if k == 0 {
        dst[..m * n].fill(T::ZERO);
        return Ok(());
    }
    let strides = [lhs.row_stride, lhs.col_stride, k, n];
    if strides.iter().any(|&s| isize::try_from(s).is_err()) {
        return Err("internal: a GEMM stride overflows".into());
    }
    let [rsa, csa, rsb, rsc] = strides.map(|s| s as isize);
    let len = block_rows
        .min(n)
        .checked_mul(k)
        .ok_or("internal: the block is too large")?;
    crate::tensor::check_scratch(len, std::mem::size_of::<T>(), "a block of weights")?;
    let out = SharedMut(dst.as_mut_ptr());
    (0..n.div_ceil(block_rows))
        .into_par_iter()
        .try_for_each_init(
            || vec![T::ZERO; len],
            |buf, block| {
                let first = block * block_rows;
                let count = block_rows.min(n - first);
                let buf = &mut buf[..count * k];
                fill(first, buf)?;
                let out = &out;
                // SAFETY: `lhs` holds the m × k matrix (`fits`), `buf` the
                // count × k block read transposed (k × count, rows 1 apart and
                // columns k apart), and columns `first..first + count` of the
                // m × n output lie inside `dst` (`fits`); the blocks' columns
                // are disjoint, so no two threads write the same element of
                // `dst`, borrowed mutably (and unread elsewhere) until all are
                // done.
                unsafe {
                    T::gemm(
                        (m, k, count),
                        (lhs.data.as_ptr(), rsa, csa),
                        (buf.as_ptr(), 1, rsb),
                        T::ZERO,
                        (out.0.add(first), rsc),
                    );
                }
                Ok(())
            },
        )
}

/// A constant f32 operand in memory the GEMM can read in place, or `None`
/// when it already is one (or is not f32).
///
/// The GEMM reads f32 slices, and a view of the weights file is one only
/// when its offset is a multiple of 4: OpenVINO's serializer writes
/// constants back to back, so every weight after an odd-sized one (a
/// boolean or u8 constant) is misaligned, and `elements` would copy it on
/// every run (a third of a Llama decoder's time). The executor makes this
/// copy once, when it is made, instead.
pub(crate) fn aligned_weights(t: &Tensor) -> Option<Tensor> {
    // (An empty view has nothing to copy, aligned or not.)
    let in_place = t.bytes().is_empty() || bytemuck::try_cast_slice::<u8, f32>(t.bytes()).is_ok();
    if t.element_type != ElementType::F32 || in_place || cfg!(target_endian = "big") {
        return None;
    }
    let bytes = t.bytes();
    Tensor::computed(t.shape.clone(), |dst: &mut [f32]| {
        for (v, b) in dst.iter_mut().zip(bytes.chunks_exact(4)) {
            *v = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        Ok::<(), ExecError>(())
    })
    .ok()
}

/// Asks the OS to drop the whole pages inside `bytes` from this process's
/// resident memory: after [`aligned_weights`] copied a weight out of the
/// mapped weights file, its mapped pages are no longer read, and would
/// otherwise count twice in the resident size. Only a hint (its failure is
/// ignored); the contents stay the same, read back from the file (or swap)
/// if anything touches them again.
pub(crate) fn release_pages(bytes: &[u8]) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = (bytes.as_ptr() as usize).next_multiple_of(PAGE);
        let end = (bytes.as_ptr() as usize + bytes.len()) / PAGE * PAGE;
        if end > start {
            // SAFETY: the range lies inside `bytes`, which is mapped and
            // borrowed for the call; MADV_PAGEOUT never changes what memory
            // holds (it reclaims pages, which fault back in unchanged), so
            // no reference to them is invalidated.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_PAGEOUT);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = bytes;
}

/// `dst`'s pointer, shared by the column blocks that write disjoint
/// elements of it.
struct SharedMut<T>(*mut T);

// SAFETY: the blocks write disjoint elements (see `matmul`); `T` is a plain
// float.
unsafe impl<T: Send> Sync for SharedMut<T> {}

/// A pool of `threads` threads, for the tests that compare a product cut
/// for the threads with a naive loop.
#[cfg(test)]
pub(crate) fn test_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
        let mut c = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                c[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
            }
        }
        c
    }

    #[test]
    fn products_match_a_naive_loop_with_strides_and_accumulation() {
        for (m, k, n) in [(1, 1, 1), (3, 5, 2), (17, 33, 9), (64, 300, 70), (5, 0, 4)] {
            let a: Vec<f64> = (0..m * k).map(|v| ((v * 7) % 11) as f64 - 5.0).collect();
            let b: Vec<f64> = (0..k * n).map(|v| ((v * 3) % 13) as f64 - 6.0).collect();
            let want = naive(&a, &b, m, k, n);
            let mut c = vec![9.0; m * n];
            matmul(
                &mut c,
                n,
                (m, k, n),
                Mat::rows(&a, k),
                Mat::rows(&b, n),
                false,
            )
            .unwrap();
            assert_eq!(c, want, "{m}x{k}x{n}");
            // A transposed view of aᵀ is a; accumulating adds.
            let at: Vec<f64> = (0..k * m).map(|v| a[(v % m) * k + v / m]).collect();
            matmul(
                &mut c,
                n,
                (m, k, n),
                Mat::transposed(&at, m),
                Mat::rows(&b, n),
                true,
            )
            .unwrap();
            let twice: Vec<f64> = want.iter().map(|v| 2.0 * v).collect();
            assert_eq!(c, twice, "{m}x{k}x{n} accumulated");
        }
    }

    #[test]
    fn one_row_products_match_a_naive_loop_for_either_layout_and_threads() {
        let pool = test_pool(2);
        // K below and above the 16 partial sums, N below and above a block,
        // products below and above the threads' threshold.
        for (k, n) in [
            (1, 1),
            (15, 3),
            (17, 33),
            (300, 70),
            (1280, 1000),
            (3, 5000),
        ] {
            let a: Vec<f64> = (0..k).map(|v| ((v * 7) % 11) as f64 - 5.0).collect();
            let b: Vec<f64> = (0..k * n).map(|v| ((v * 3) % 13) as f64 - 6.0).collect();
            let want = naive(&a, &b, 1, k, n);
            let bt: Vec<f64> = (0..n * k).map(|v| b[(v % k) * n + v / k]).collect();
            for threads in [1, 2] {
                let product = |rhs: Mat<'_, f64>, accumulate: bool, c: &mut Vec<f64>| {
                    let lhs = Mat::rows(&a, k);
                    let result = if threads == 2 {
                        pool.install(|| matmul(c, n, (1, k, n), lhs, rhs, accumulate))
                    } else {
                        matmul(c, n, (1, k, n), lhs, rhs, accumulate)
                    };
                    result.unwrap();
                };
                // Row-major B, then B read transposed; then accumulated.
                let mut c = vec![f64::NAN; n];
                product(Mat::rows(&b, n), false, &mut c);
                assert_eq!(c, want, "1x{k}x{n} rows, {threads} threads");
                let mut c = vec![f64::NAN; n];
                product(Mat::transposed(&bt, k), false, &mut c);
                assert_eq!(c, want, "1x{k}x{n} transposed, {threads} threads");
                product(Mat::rows(&b, n), true, &mut c);
                let twice: Vec<f64> = want.iter().map(|v| 2.0 * v).collect();
                assert_eq!(c, twice, "1x{k}x{n} accumulated, {threads} threads");
            }
        }
        // The left row strided (a column of a matrix), B with neither unit
        // stride (the GEMM's path): still the product.
        let (k, n) = (5, 4);
        let a_col: Vec<f64> = (0..k * 3).map(|v| v as f64).collect();
        let a: Vec<f64> = (0..k).map(|p| a_col[p * 3]).collect();
        let b: Vec<f64> = (0..k * n * 2).map(|v| (v % 7) as f64).collect();
        let b_dense: Vec<f64> = (0..k * n).map(|v| b[2 * v]).collect();
        let want = naive(&a, &b_dense, 1, k, n);
        let mut c = vec![0.0; n];
        let lhs = Mat {
            data: &a_col,
            row_stride: 0,
            col_stride: 3,
        };
        let rhs = Mat {
            data: &b,
            row_stride: 2 * n,
            col_stride: 2,
        };
        matmul(&mut c, n, (1, k, n), lhs, rhs, false).unwrap();
        assert_eq!(c, want);
    }

    #[test]
    fn blocks_of_rows_and_of_columns_on_threads_match_a_naive_loop() {
        let pool = test_pool(3);
        // Over a million multiply-adds: cut into blocks of rows (m >= n),
        // then of columns, neither a multiple of the block size.
        for (m, k, n) in [(130, 97, 90), (40, 200, 150)] {
            let a: Vec<f64> = (0..m * k).map(|v| ((v * 7) % 11) as f64 - 5.0).collect();
            let b: Vec<f64> = (0..k * n).map(|v| ((v * 3) % 13) as f64 - 6.0).collect();
            let want = naive(&a, &b, m, k, n);
            // Rows of the output 3 apart more than n; b read transposed.
            let stride = n + 3;
            let bt: Vec<f64> = (0..n * k).map(|v| b[(v % k) * n + v / k]).collect();
            let mut c = vec![1.0; (m - 1) * stride + n];
            pool.install(|| {
                matmul(
                    &mut c,
                    stride,
                    (m, k, n),
                    Mat::rows(&a, k),
                    Mat::transposed(&bt, k),
                    true,
                )
            })
            .unwrap();
            for r in 0..m {
                let row: Vec<f64> = want[r * n..(r + 1) * n].iter().map(|v| v + 1.0).collect();
                assert_eq!(
                    c[r * stride..r * stride + n],
                    row[..],
                    "{m}x{k}x{n} row {r}"
                );
                if r + 1 < m {
                    assert_eq!(c[r * stride + n..(r + 1) * stride], [1.0; 3], "gap {r}");
                }
            }
        }
    }

    #[test]
    fn column_blocks_on_threads_match_a_naive_loop_and_finish_each_tile() {
        let pools: Vec<rayon::ThreadPool> = [1, 2, 3].iter().map(|&t| test_pool(t)).collect();
        // Small (one block), wide (column blocks), narrow (rows cut too),
        // odd sizes everywhere, an empty K.
        for (m, k, n) in [
            (3, 5, 7),
            (37, 61, 1000),
            (530, 97, 49),
            (40, 3, 9000),
            (7, 32, 5000),
            (5, 0, 6),
        ] {
            let a: Vec<f64> = (0..m * k).map(|v| ((v * 7) % 11) as f64 - 5.0).collect();
            let b: Vec<f64> = (0..k * n).map(|v| ((v * 3) % 13) as f64 - 6.0).collect();
            let want = naive(&a, &b, m, k, n);
            // The finish adds the row's index and clamps at zero.
            let finished: Vec<f64> = (0..m * n)
                .map(|i| (want[i] + (i / n) as f64).max(0.0))
                .collect();
            let stride = n + 2;
            for pool in &pools {
                let fill = |first: usize, col: &mut [f64]| {
                    let len = col.len() / k.max(1);
                    for (p, row) in col.chunks_exact_mut(len.max(1)).enumerate() {
                        row.copy_from_slice(&b[p * n + first..][..len]);
                    }
                };
                let finish = |row: usize, _: usize, values: &mut [f64]| {
                    values
                        .iter_mut()
                        .for_each(|v| *v = (*v + row as f64).max(0.0))
                };
                for built in [false, true] {
                    let mut c = vec![f64::NAN; (m - 1) * stride + n];
                    let columns = if built {
                        Columns::Built(&fill)
                    } else {
                        Columns::Matrix(Mat::rows(&b, n))
                    };
                    pool.install(|| {
                        matmul_by_column_blocks(
                            &mut c,
                            stride,
                            (m, k, n),
                            Mat::rows(&a, k),
                            columns,
                            Some(&finish),
                        )
                    })
                    .unwrap();
                    let threads = pool.current_num_threads();
                    for r in 0..m {
                        assert_eq!(
                            c[r * stride..r * stride + n],
                            finished[r * n..(r + 1) * n],
                            "{m}x{k}x{n} row {r}, {threads} threads, built {built}"
                        );
                        if r + 1 < m {
                            assert!(c[r * stride + n..(r + 1) * stride]
                                .iter()
                                .all(|v| v.is_nan()));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn few_rows_are_cut_by_columns_for_the_threads() {
        // SqueezeNet's squeeze layer (128 -> 16 channels at 55x55): its 16
        // output rows are one row block, so two threads each take half of
        // the columns.
        let (m, k, n) = (16, 128, 3025);
        let a = vec![0.5f32; m * k];
        let b = vec![0.25f32; k * n];
        let firsts = std::sync::Mutex::new(std::collections::BTreeSet::new());
        let finish = |_: usize, first: usize, _: &mut [f32]| {
            firsts.lock().unwrap().insert(first);
        };
        let mut c = vec![0.0f32; m * n];
        test_pool(2)
            .install(|| {
                matmul_by_column_blocks(
                    &mut c,
                    n,
                    (m, k, n),
                    Mat::rows(&a, k),
                    Columns::Matrix(Mat::rows(&b, n)),
                    Some(&finish),
                )
            })
            .unwrap();
        assert_eq!(
            firsts.into_inner().unwrap().into_iter().collect::<Vec<_>>(),
            [0, 1520]
        );
        assert!(c.iter().all(|&v| v == 16.0));
    }

    #[test]
    fn column_blocks_share_the_columns_within_a_bound() {
        // Deep products: blocks within 4 MiB of f32; as many blocks for
        // each thread; multiples of 16.
        assert_eq!(column_block(2304, 100_000, 2), 464);
        assert_eq!(column_block(2304, 196, 1), 208);
        assert_eq!(column_block(16, 100_000, 2), 50_000);
        assert_eq!(column_block(576, 3136, 2), 1568);
        assert_eq!(column_block(576, 3136, 1), 1568);
        assert_eq!(column_block(64, 1000, 2), 512);
        assert_eq!(column_block(4608, 49, 2), 32);
        assert_eq!(column_block(1, 1, 1), 16);
    }

    #[test]
    fn products_by_blocks_of_weights_match_a_naive_loop() {
        let pool = test_pool(2);
        // Odd shapes, one row, no rows, no columns, an empty K; blocks that
        // do and do not divide N.
        for (m, k, n, block) in [
            (5, 7, 3, 16),
            (1, 33, 40, 16),
            (130, 97, 90, 17),
            (0, 4, 5, 16),
            (3, 4, 0, 16),
            (3, 0, 5, 2),
        ] {
            let a: Vec<f64> = (0..m * k).map(|v| ((v * 7) % 11) as f64 - 5.0).collect();
            // W is n × k; the product is a · Wᵀ.
            let w: Vec<f64> = (0..n * k).map(|v| ((v * 3) % 13) as f64 - 6.0).collect();
            let wt: Vec<f64> = (0..k * n).map(|v| w[(v % n) * k + v / n]).collect();
            let want = naive(&a, &wt, m, k, n);
            let mut c = vec![f64::NAN; m * n];
            let fill = |first: usize, buf: &mut [f64]| {
                buf.copy_from_slice(&w[first * k..first * k + buf.len()]);
                Ok(())
            };
            pool.install(|| matmul_by_blocks(&mut c, (m, k, n), Mat::rows(&a, k), block, fill))
                .unwrap();
            assert_eq!(c, want, "{m}x{k}x{n} by {block}");
        }
        // A failing block fails the product.
        let mut c = vec![0.0f32; 4];
        let r = matmul_by_blocks(
            &mut c,
            (2, 1, 2),
            Mat::rows(&[1.0, 2.0], 1),
            1,
            |first, _| {
                if first == 1 {
                    Err("no such row".into())
                } else {
                    Ok(())
                }
            },
        );
        assert!(r.is_err());
    }

    #[test]
    fn misaligned_weights_are_copied_once_into_aligned_memory() {
        for count in [0usize, 1, 7, 1000] {
            let values: Vec<f32> = (0..count).map(|v| v as f32 * 0.5 - 3.0).collect();
            // One byte before the values, as after a u8 constant in a `.bin`.
            let mut bytes = vec![9u8];
            values.iter().for_each(|v| bytes.extend(v.to_le_bytes()));
            let whole = ir::TensorBytes::from_vec(bytes);
            let len = whole.len() as u64 - 1;
            let view = whole.slice(1, len).unwrap();
            let t = Tensor::new(ElementType::F32, vec![count], view).unwrap();
            let copied = aligned_weights(&t);
            // An empty view has nothing to copy.
            let Some(copied) = copied else {
                assert_eq!(count, 0);
                continue;
            };
            assert_eq!(copied.shape, [count]);
            let read = bytemuck::try_cast_slice::<u8, f32>(copied.bytes()).unwrap();
            assert_eq!(read, &values[..]);
            // Already aligned: nothing to do.
            assert!(aligned_weights(&copied).is_none());
            // Dropping the original's pages keeps its contents.
            release_pages(t.bytes());
            assert_eq!(t.to_vec::<f32>().unwrap(), values);
        }
        let ints = Tensor::from_vec(vec![2], vec![1i32, 2]).unwrap();
        assert!(aligned_weights(&ints).is_none());
    }

    #[test]
    fn operands_outside_their_buffers_are_refused() {
        let a = vec![1.0f32; 5];
        let mut c = vec![0.0f32; 4];
        let r = matmul(
            &mut c,
            2,
            (2, 3, 2),
            Mat::rows(&a, 3),
            Mat::rows(&a, 2),
            false,
        );
        assert!(r.is_err());
    }
}
