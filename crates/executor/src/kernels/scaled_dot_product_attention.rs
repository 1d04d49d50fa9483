//! ScaledDotProductAttention-13 per batch of matrices: scores `Q·Kᵀ` on the
//! project's GEMM, scaled, the mask's bias added (boolean: `-inf` where
//! false; float: its value; `causal`: `-inf` above the diagonal), a softmax
//! per row, and `P·V` on the GEMM again. Computed in f32 (f16, bf16 and f64
//! converted, as OpenVINO's CPU plugin computes them); the batch dims of
//! every operand broadcast through the shared helpers. A row whose every
//! score is masked gives NaN, as the softmax of nothing.
//!
//! A bf16 query rounds where the CPU plugin's bf16 attention rounds
//! (measured, `scripts/probe_cpu_precision.py`): the product `Q·Kᵀ` and
//! the softmax are rounded to bf16 (each is a bf16 input or output of the
//! plugin's bf16 matrix products), the scale and the mask apply in f32
//! between them. (Where the scale is known when the model is compiled the
//! plugin folds it into `K` first, rounded to bf16: `crate::precision`
//! does that rewrite.)

use half::{bf16, f16};
use ir::ElementType;

use super::convolution::{narrow, widen};
use super::{Call, KResult};
use crate::broadcast::{placed_strides, walk};
use crate::gemm::{self, Mat};
use crate::tensor::{element_count, Tensor};

/// What is added to the scores.
enum Bias {
    None,
    Causal,
    /// Per element of `[B…, L, S]`: the mask as f32 (`-inf` / 0 for a
    /// boolean one) with its strides over those axes.
    Mask {
        values: Vec<f32>,
        strides: Vec<isize>,
    },
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (q, k, v) = (call.input(0)?, call.input(1)?, call.input(2)?);
    let out = call.out_shape(0)?;
    let rank = out.len();
    if rank < 3 || q.shape.len() < 3 || k.shape.len() < 3 || v.shape.len() < 3 {
        return Err("internal: attention operands below rank 3".into());
    }
    let (l, ev) = (out[rank - 2], out[rank - 1]);
    let (lq, e) = (q.shape[q.shape.len() - 2], q.shape[q.shape.len() - 1]);
    let (s, ek) = (k.shape[k.shape.len() - 2], k.shape[k.shape.len() - 1]);
    if e != ek || v.shape[v.shape.len() - 2] != s || v.shape[v.shape.len() - 1] != ev {
        return Err(format!(
            "the query {:?}, key {:?} and value {:?} do not fit together",
            q.shape, k.shape, v.shape
        )
        .into());
    }
    if lq != l && lq != 1 {
        return Err(format!("the query's L {lq} does not broadcast to {l}").into());
    }
    let batch = &out[..rank - 2];
    let scale = match call.inputs.get(4) {
        Some(t) => *widen(t)?.first().ok_or("the scale is empty")?,
        None => default_scale(e, q.element_type),
    };
    let causal = call.attr_bool("causal", false);
    let bias = match call.inputs.get(3) {
        _ if causal => Bias::Causal,
        None => Bias::None,
        Some(m) => {
            let values = if m.element_type == ElementType::Boolean {
                m.nonzero_mask()?
                    .into_iter()
                    .map(|keep| if keep { 0.0 } else { f32::NEG_INFINITY })
                    .collect()
            } else {
                widen(m)?
            };
            let mut scores = batch.to_vec();
            scores.extend([l, s]);
            let strides = placed_strides(&m.shape, &scores, None)?;
            Bias::Mask { values, strides }
        }
    };

    let (qv, kv, vv) = (widen(q)?, widen(k)?, widen(v)?);
    let bf16_steps = q.element_type == ElementType::BF16;
    let round = |x: &mut f32| *x = bf16::from_f32(*x).to_f32();
    let matrices = |shape: &[usize]| placed_strides(&shape[..shape.len() - 2], batch, None);
    let mut strides = vec![
        matrices(&q.shape)?,
        matrices(&k.shape)?,
        matrices(&v.shape)?,
    ];
    if let Bias::Mask { strides: m, .. } = &bias {
        strides.push(m[..rank - 2].to_vec());
    }
    let mut offsets = Vec::with_capacity(element_count(batch)?);
    walk(batch, &vec![0; strides.len()], &strides, |o| {
        offsets.push(o.to_vec())
    });

    let mut result = vec![0.0f32; element_count(&out)?];
    let mut scores = vec![0.0f32; l * s];
    for (b, o) in offsets.iter().enumerate() {
        let q_b = &qv[o[0] * lq * e..(o[0] + 1) * lq * e];
        // A query of one row against a mask of L rows: the row read L times
        // (row stride 0), not copied.
        let query = Mat {
            data: q_b,
            row_stride: if lq == l { e } else { 0 },
            col_stride: 1,
        };
        let k_b = &kv[o[1] * s * e..(o[1] + 1) * s * e];
        let v_b = &vv[o[2] * s * ev..(o[2] + 1) * s * ev];
        gemm::matmul(
            &mut scores,
            s,
            (l, e, s),
            query,
            Mat::transposed(k_b, e),
            false,
        )?;
        if bf16_steps {
            scores.iter_mut().for_each(round);
        }
        for (i, row) in scores.chunks_exact_mut(s.max(1)).enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                *x *= scale;
                match &bias {
                    Bias::None => {}
                    Bias::Causal if j > i => *x = f32::NEG_INFINITY,
                    Bias::Causal => {}
                    Bias::Mask { values, strides } => {
                        let at = o[3] as isize
                            + i as isize * strides[rank - 2]
                            + j as isize * strides[rank - 1];
                        *x += values[at as usize];
                    }
                }
            }
            softmax(row);
            if bf16_steps {
                row.iter_mut().for_each(round);
            }
        }
        let dst = &mut result[b * l * ev..(b + 1) * l * ev];
        gemm::matmul(
            dst,
            ev,
            (l, s, ev),
            Mat::rows(&scores, s),
            Mat::rows(v_b, ev),
            false,
        )?;
    }
    Ok(vec![narrow(q.element_type, out, &result)?])
}

/// The scale of an op without a scale input: `1 / sqrt(E)` computed in the
/// query's element type, as OpenVINO's decomposition of the op computes it
/// (`ConvertLike` of E to the query's type, `Sqrt`, `Divide`, each rounded
/// to an f16 or bf16 query's type; the CPU plugin folds it so before it
/// computes f16 in f32).
pub(crate) fn default_scale(e: usize, query: ElementType) -> f32 {
    let round = |v: f32| match query {
        ElementType::F16 => f16::from_f32(v).to_f32(),
        ElementType::BF16 => bf16::from_f32(v).to_f32(),
        _ => v,
    };
    round(1.0 / round(round(e as f32).sqrt()))
}

/// The softmax of one row in place (NaN when every entry is `-inf`).
fn softmax(row: &mut [f32]) {
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for x in row.iter_mut() {
        *x = (*x - max).exp();
        sum += *x;
    }
    for x in row.iter_mut() {
        *x /= sum;
    }
}
