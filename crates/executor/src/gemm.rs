//! Matrix products on the `gemm` crate (candle's GEMM: packed SIMD
//! microkernels, threads through rayon), behind a safe interface: every
//! operand is a slice with explicit strides, checked to stay inside it before
//! the crate's raw-pointer call.
//!
//! Why this crate rather than `matrixmultiply` is in `docs/performance.md`.

use crate::error::KernelError;

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
}

impl Scalar for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const LOWEST: Self = f32::MIN;
    const NEG_INFINITY: Self = f32::NEG_INFINITY;
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
    fn from_count(n: usize) -> Self {
        n as f32
    }
}

impl Scalar for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const LOWEST: Self = f64::MIN;
    const NEG_INFINITY: Self = f64::NEG_INFINITY;
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
    fn from_count(n: usize) -> Self {
        n as f64
    }
}

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
    let threads = rayon::current_num_threads();
    // Below about a million multiply-adds the threads cost more than they give.
    let parallelism = if threads > 1 && m.saturating_mul(n).saturating_mul(k) >= 1 << 20 {
        gemm::Parallelism::Rayon(threads)
    } else {
        gemm::Parallelism::None
    };
    let stride = |s: usize| {
        isize::try_from(s).map_err(|_| KernelError::from("internal: a GEMM stride overflows"))
    };
    // SAFETY: every element the product reads or writes lies inside its
    // slice (checked by `fits` above, for the given sizes and strides), `dst`
    // is borrowed mutably and distinct from the read-only operands.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.as_mut_ptr(),
            1,
            stride(dst_row_stride)?,
            accumulate,
            lhs.data.as_ptr(),
            stride(lhs.col_stride)?,
            stride(lhs.row_stride)?,
            rhs.data.as_ptr(),
            stride(rhs.col_stride)?,
            stride(rhs.row_stride)?,
            T::ONE,
            T::ONE,
            false,
            false,
            false,
            parallelism,
        );
    }
    Ok(())
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
