//! MatMul-1: the matrix product of the last two dims, with `transpose_a`,
//! `transpose_b`, 1-D operands (a vector `[K]` is `[1, K]` on the left and
//! `[K, 1]` on the right, its transpose ignored, and its dim removed from the
//! output) and batch dims broadcast (numpy) through the shared helper.
//!
//! Floats run on the project's GEMM (`crate::gemm`), accumulating in their
//! own type (f16 and bf16 in f32) as OpenVINO's CPU plugin does; integers
//! wrap, computed exactly.

use ir::ElementType;

use super::convolution::{elements, narrow, widen};
use super::{from_i128s, to_i128s, Call, KResult};
use crate::broadcast::{placed_strides, walk};
use crate::gemm::{self, Mat, Scalar};
use crate::tensor::{byte_size, element_count, Tensor};

/// An operand as a batch of matrices: batch dims, rows, cols, and whether
/// element (r, c) is stored transposed.
struct Operand<'a> {
    batch: &'a [usize],
    rows: usize,
    cols: usize,
    transposed: bool,
}

fn operand(shape: &[usize], transpose: bool, left: bool) -> KResult<Operand<'_>> {
    match shape.len() {
        0 => Err("MatMul needs operands of rank 1 or more".into()),
        1 if left => Ok(Operand {
            batch: &[],
            rows: 1,
            cols: shape[0],
            transposed: false,
        }),
        1 => Ok(Operand {
            batch: &[],
            rows: shape[0],
            cols: 1,
            transposed: false,
        }),
        r => {
            let (a, b) = (shape[r - 2], shape[r - 1]);
            Ok(Operand {
                batch: &shape[..r - 2],
                rows: if transpose { b } else { a },
                cols: if transpose { a } else { b },
                transposed: transpose,
            })
        }
    }
}

impl Operand<'_> {
    /// One of its matrices, stored from the start of `data`.
    fn mat<'d, T>(&self, data: &'d [T]) -> Mat<'d, T> {
        if self.transposed {
            Mat::transposed(data, self.rows)
        } else {
            Mat::rows(data, self.cols)
        }
    }

    /// The element offset of (r, c) inside one matrix.
    fn at(&self, r: usize, c: usize) -> usize {
        if self.transposed {
            c * self.rows + r
        } else {
            r * self.cols + c
        }
    }
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (a, b) = (call.input(0)?, call.input(1)?);
    let out = call.out_shape(0)?;
    if a.element_type != b.element_type {
        return Err(format!("inputs are {} and {}", a.element_type, b.element_type).into());
    }
    let ta = call.attr_bool("transpose_a", false);
    let tb = call.attr_bool("transpose_b", false);
    let oa = operand(&a.shape, ta, true)?;
    let ob = operand(&b.shape, tb, false)?;
    if oa.cols != ob.rows {
        return Err(format!(
            "contracted dims differ: {:?} and {:?} (transpose_a {ta}, transpose_b {tb})",
            a.shape, b.shape
        )
        .into());
    }
    let (m, k, n) = (oa.rows, oa.cols, ob.cols);
    // The output's batch dims: the inferred shape without the matrix dims
    // (a vector operand's dim is removed).
    let kept = usize::from(a.shape.len() > 1) + usize::from(b.shape.len() > 1);
    let batch_rank = out
        .len()
        .checked_sub(kept)
        .ok_or("internal: the inferred rank is too small")?;
    let out_batch = &out[..batch_rank];
    let mut tail = Vec::new();
    if a.shape.len() > 1 {
        tail.push(m);
    }
    if b.shape.len() > 1 {
        tail.push(n);
    }
    if out[batch_rank..] != tail[..] {
        return Err(format!(
            "internal: the inferred shape {out:?} does not end with the matrix dims {tail:?}"
        )
        .into());
    }
    let strides = vec![
        placed_strides(oa.batch, out_batch, None)?,
        placed_strides(ob.batch, out_batch, None)?,
    ];
    let total = element_count(&out)?;
    if total == 0 {
        return Ok(vec![Tensor::from_bytes(a.element_type, out, Vec::new())?]);
    }
    byte_size(a.element_type, &out)?;
    let batches = element_count(out_batch)?;
    let mut pairs = Vec::with_capacity(batches);
    walk(out_batch, &[0, 0], &strides, |o| pairs.push((o[0], o[1])));
    let (sa, sb) = (m * k, k * n);
    if pairs.len() * m * n != total {
        return Err("internal: the batch does not fill the output".into());
    }
    macro_rules! product {
        ($va:expr, $vb:expr, $zero:expr, $mul:expr, $add:expr) => {{
            let (va, vb) = ($va, $vb);
            let mut res = Vec::with_capacity(total);
            for &(pa, pb) in &pairs {
                for i in 0..m {
                    for j in 0..n {
                        let mut acc = $zero;
                        for p in 0..k {
                            let x = va[pa * sa + oa.at(i, p)];
                            let y = vb[pb * sb + ob.at(p, j)];
                            acc = $add(acc, $mul(x, y));
                        }
                        res.push(acc);
                    }
                }
            }
            res
        }};
    }
    let et = a.element_type;
    let t = if et.is_real() {
        match et {
            // Written in place into the output's (pooled) buffer.
            ElementType::F32 => {
                let (va, vb) = (elements::<f32>(a)?, elements::<f32>(b)?);
                Tensor::computed(out, |dst: &mut [f32]| {
                    products(dst, &va, &vb, &pairs, &oa, &ob, n)
                })?
            }
            ElementType::F64 => {
                let (va, vb) = (elements::<f64>(a)?, elements::<f64>(b)?);
                Tensor::computed(out, |dst: &mut [f64]| {
                    products(dst, &va, &vb, &pairs, &oa, &ob, n)
                })?
            }
            // f16 and bf16 compute in f32, as OpenVINO's CPU plugin does.
            _ => {
                let mut res = vec![0f32; total];
                products(&mut res, &widen(a)?, &widen(b)?, &pairs, &oa, &ob, n)?;
                narrow(et, out, &res)?
            }
        }
    } else {
        let r = product!(
            to_i128s(a)?,
            to_i128s(b)?,
            0i128,
            |x: i128, y: i128| x.wrapping_mul(y),
            |s: i128, v: i128| s.wrapping_add(v)
        );
        from_i128s(et, out, &r)?
    };
    Ok(vec![t])
}

/// The float products of every (batch of `a`, batch of `b`) pair, in output
/// order, on the GEMM, into `res` (every element written).
fn products<T: Scalar>(
    res: &mut [T],
    va: &[T],
    vb: &[T],
    pairs: &[(usize, usize)],
    oa: &Operand<'_>,
    ob: &Operand<'_>,
    n: usize,
) -> KResult<()> {
    let (m, k) = (oa.rows, oa.cols);
    let (sa, sb) = (m * k, k * n);
    if res.len() != pairs.len() * m * n {
        return Err("internal: the output does not hold every product".into());
    }
    for (dst, &(pa, pb)) in res.chunks_mut((m * n).max(1)).zip(pairs) {
        let lhs = oa.mat(&va[(pa * sa).min(va.len())..]);
        let rhs = ob.mat(&vb[(pb * sb).min(vb.len())..]);
        gemm::matmul(dst, n, (m, k, n), lhs, rhs, false)?;
    }
    Ok(())
}
