//! GroupedMatMul-17: one matrix product per group, the weights of each group
//! stored transposed (`mat_b [G, N, K]`).
//!
//! - 3-D × 3-D: `out[g] = mat_a[g] · mat_b[g]ᵀ` (`[G, M, N]`); an offsets
//!   input is ignored, as OpenVINO's shape inference ignores it.
//! - 2-D × 3-D: the rows of `mat_a [T, K]` are split by the cumulative end
//!   offsets `[G]` (group `g` owns rows `offsets[g-1]..offsets[g]`, from 0);
//!   each block is multiplied by `mat_b[g]ᵀ`. Rows past the last offset are
//!   zero, as in OpenVINO's reference implementation. Offsets that decrease,
//!   are negative, pass `T` or do not number `G` are an error (the reference
//!   reads out of bounds).
//!
//! OpenVINO 2026.4's CPU plugin cannot run the op (no kernel, no evaluate),
//! so its goldens are the equivalent MatMul graph (see
//! `scripts/goldens/moe.py`). Floats run on the project's GEMM (f16 and
//! bf16 in f32, as the CPU plugin's MatMul); integers wrap, computed exactly.

use ir::ElementType;

use super::convolution::{elements, narrow, widen};
use super::{from_i128s, to_i128s, Call, KResult};
use crate::gemm::{self, Mat, Scalar};
use crate::tensor::{element_count, Tensor};

/// The products to compute: `(rows of mat_a, group)` blocks, in row order,
/// each written at the same rows of the output.
struct Plan {
    /// `(first row, row count, group)` of every non-empty block.
    blocks: Vec<(usize, usize, usize)>,
    /// Rows of mat_a (all groups together for the 3-D form).
    rows: usize,
    k: usize,
    n: usize,
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (a, b) = (call.input(0)?, call.input(1)?);
    if a.element_type != b.element_type {
        return Err(format!("mat_a is {} and mat_b {}", a.element_type, b.element_type).into());
    }
    let out = call.out_shape(0)?;
    let plan = plan(call, &a.shape, &b.shape)?;
    let expected: Vec<usize> = if a.shape.len() == 3 {
        vec![a.shape[0], a.shape[1], plan.n]
    } else {
        vec![plan.rows, plan.n]
    };
    if out != expected {
        return Err(format!("internal: the inferred shape {out:?} is not {expected:?}").into());
    }
    let et = a.element_type;
    let total = element_count(&out)?;
    if total == 0 {
        return Ok(vec![Tensor::from_bytes(et, out, Vec::new())?]);
    }
    let t = match et {
        ElementType::F32 => {
            let (va, vb) = (elements::<f32>(a)?, elements::<f32>(b)?);
            Tensor::computed(out, |dst: &mut [f32]| products(dst, &va, &vb, &plan))?
        }
        ElementType::F64 => {
            let (va, vb) = (elements::<f64>(a)?, elements::<f64>(b)?);
            Tensor::computed(out, |dst: &mut [f64]| products(dst, &va, &vb, &plan))?
        }
        _ if et.is_real() => {
            let mut res = vec![0f32; total];
            products(&mut res, &widen(a)?, &widen(b)?, &plan)?;
            narrow(et, out, &res)?
        }
        _ => {
            let (va, vb) = (to_i128s(a)?, to_i128s(b)?);
            let mut res = vec![0i128; total];
            let (k, n) = (plan.k, plan.n);
            for &(first, count, g) in &plan.blocks {
                for r in first..first + count {
                    for j in 0..n {
                        let w = &vb[(g * n + j) * k..(g * n + j + 1) * k];
                        res[r * n + j] = va[r * k..(r + 1) * k]
                            .iter()
                            .zip(w)
                            .fold(0i128, |s, (&x, &y)| s.wrapping_add(x.wrapping_mul(y)));
                    }
                }
            }
            from_i128s(et, out, &res)?
        }
    };
    Ok(vec![t])
}

/// The blocks of rows and their groups, with the checks of the shapes and
/// the offsets.
fn plan(call: &Call<'_>, a: &[usize], b: &[usize]) -> KResult<Plan> {
    let &[groups, n, k] = b else {
        return Err(format!("mat_b must be 3-D [G, N, K], got {b:?}").into());
    };
    match *a {
        [ga, m, ka] => {
            if ga != groups || ka != k {
                return Err(format!(
                    "mat_a {a:?} does not match mat_b {b:?} ([G, M, K] × [G, N, K])"
                )
                .into());
            }
            let blocks = (0..groups)
                .filter(|_| m > 0)
                .map(|g| (g * m, m, g))
                .collect();
            Ok(Plan {
                blocks,
                rows: groups * m,
                k,
                n,
            })
        }
        [rows, ka] => {
            if ka != k {
                return Err(
                    format!("mat_a {a:?} does not match mat_b {b:?} ([T, K] × [G, N, K])").into(),
                );
            }
            let offsets = to_i128s(
                call.input(2)
                    .map_err(|_| "the 2-D × 3-D form needs offsets (input 2)")?,
            )?;
            if offsets.len() != groups {
                return Err(format!(
                    "offsets (input 2) has {} values for {groups} groups of mat_b",
                    offsets.len()
                )
                .into());
            }
            let mut blocks = Vec::new();
            let mut start = 0usize;
            for (g, &end) in offsets.iter().enumerate() {
                let end = usize::try_from(end)
                    .ok()
                    .filter(|&e| e >= start && e <= rows)
                    .ok_or_else(|| {
                        format!("offsets[{g}] = {end} is not in [{start}, {rows}] (cumulative row ends, non-decreasing)")
                    })?;
                if end > start {
                    blocks.push((start, end - start, g));
                }
                start = end;
            }
            Ok(Plan { blocks, rows, k, n })
        }
        _ => Err(format!("mat_a must be 2-D or 3-D, got {a:?}").into()),
    }
}

/// Every block's product on the GEMM into `res` (`[rows, N]`, zero where no
/// block writes).
fn products<T: Scalar>(res: &mut [T], va: &[T], vb: &[T], plan: &Plan) -> KResult<()> {
    let (k, n) = (plan.k, plan.n);
    if res.len() != plan.rows * n || va.len() != plan.rows * k {
        return Err("internal: the buffers do not fit the plan".into());
    }
    res.fill(T::ZERO);
    for &(first, count, g) in &plan.blocks {
        let lhs = Mat::rows(&va[first * k..], k);
        // mat_b[g] is N × K row-major: its transpose, read in place.
        let rhs = Mat::transposed(&vb[g * n * k..], k);
        let dst = &mut res[first * n..(first + count) * n];
        gemm::matmul(dst, n, (count, k, n), lhs, rhs, false)?;
    }
    Ok(())
}
