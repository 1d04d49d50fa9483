//! Inverse-14: each `[N, N]` matrix of the batch inverted by LU
//! decomposition with partial pivoting (the first largest magnitude in the
//! column), forward and backward substitution, column by column; `adjoint`
//! inverts the transposed matrix (OpenVINO's CPU plugin: the inverse of the
//! adjoint, real data). As the CPU plugin under an f32 inference precision,
//! the arithmetic is in f32 for every type, rounded once to it at the end.
//! A singular matrix is not an error: the division by a zero pivot gives
//! infinities and NaN, as OpenVINO.

use super::{from_f64s, to_f64s, unsupported, Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let t = x.element_type;
    if !t.is_real() {
        return Err(unsupported("Inverse", t));
    }
    let rank = x.shape.len();
    if rank < 2 || x.shape[rank - 1] != x.shape[rank - 2] {
        return Err(format!("Inverse takes square matrices, got {:?}", x.shape).into());
    }
    let n = x.shape[rank - 1];
    let adjoint = call.attr_bool("adjoint", false);
    let data: Vec<f32> = to_f64s(x)?.into_iter().map(|v| v as f32).collect();
    let mut out = vec![0f64; data.len()];
    if n > 0 {
        for (matrix, dst) in data.chunks_exact(n * n).zip(out.chunks_exact_mut(n * n)) {
            let a: Vec<f32> = if adjoint {
                (0..n * n).map(|k| matrix[(k % n) * n + k / n]).collect()
            } else {
                matrix.to_vec()
            };
            invert(a, n, dst);
        }
    }
    Ok(vec![from_f64s(t, x.shape.clone(), &out)?])
}

/// Inverts one row-major `n × n` matrix into `dst`.
fn invert(mut u: Vec<f32>, n: usize, dst: &mut [f64]) {
    let mut l = vec![0f32; n * n];
    let mut perm: Vec<usize> = (0..n).collect();
    for i in 0..n {
        l[i * n + i] = 1.0;
    }
    for k in 0..n {
        let mut pivot = k;
        for r in k + 1..n {
            if u[r * n + k].abs() > u[pivot * n + k].abs() {
                pivot = r;
            }
        }
        if pivot != k {
            perm.swap(k, pivot);
            for c in 0..n {
                u.swap(k * n + c, pivot * n + c);
                l.swap(k * n + c, pivot * n + c);
            }
        }
        for r in k + 1..n {
            l[r * n + k] = u[r * n + k] / u[k * n + k];
        }
        for r in k + 1..n {
            for c in k..n {
                u[r * n + c] -= l[r * n + k] * u[k * n + c];
            }
        }
    }
    let mut y = vec![0f32; n];
    let mut sol = vec![0f32; n];
    for column in 0..n {
        // Forward substitution L·y = P·e(column).
        for i in 0..n {
            y[i] = if perm[i] == column { 1.0 } else { 0.0 };
            for j in 0..i {
                y[i] -= l[i * n + j] * y[j];
            }
        }
        // Backward substitution U·x = y.
        for i in (0..n).rev() {
            sol[i] = y[i];
            for j in i + 1..n {
                sol[i] -= u[i * n + j] * sol[j];
            }
            sol[i] /= u[i * n + i];
        }
        for row in 0..n {
            dst[row * n + column] = f64::from(sol[row]);
        }
    }
}
