//! ReduceSum/ReduceProd/ReduceMax/ReduceMin/ReduceMean-1 over the `axes`
//! (input 1; negative values count from the end; empty: nothing reduced),
//! with `keep_dims`. The output shape is inference's.
//!
//! Floats accumulate in f64 and round once; integers accumulate in i128 and
//! wrap to the type (the same result as wrapping in the type for Sum and
//! Prod); ReduceMean of integers truncates the quotient. A float ReduceMax
//! starts from the lowest finite value (of f32; of bf16 for bf16, of f64
//! for f64), as OpenVINO's reference implementation and its CPU plugin do,
//! so values all -inf reduce to it (an f16 result rounds it to -inf);
//! ReduceMin starts from +inf as the reference does (the CPU plugin's
//! highest finite value is `Precision::Plugin`'s rewrite). Over an empty
//! set (undefined by the specification), what OpenVINO's CPU plugin gives:
//! Sum 0, Prod 1, Max/Min the lowest/highest finite value (the type's
//! limits for integers), Mean 0 (floats) or an error (integers).
//!
//! ReduceL1/ReduceL2-4 accumulate `|x|` and `x²` in f64 (L2 takes the square
//! root at the end); on integers the result is truncated and saturated to
//! the type (OpenVINO's CPU plugin truncates L2 and saturates L1 on i8/u8;
//! its L2 of 8-bit types saturates the squares too, which we do not follow).
//! Over an empty set both give 0. ReduceLogicalAnd/Or-1 on booleans: true /
//! false over an empty set.

use rayon::prelude::*;

use super::{from_f64s, from_i128s, norm_axis, to_f64s, to_i128s, Call, KResult};
use crate::broadcast::{row_major_strides, walk};
use crate::tensor::{byte_size, element_count, Element, Tensor};

/// Input bytes from which global pooling's sums run on the threads (with
/// the workers awake a split costs a few µs; MobileNetV2's 1280 × 7x7, 245
/// KiB, takes about 15 µs on one thread).
const GLOBAL_POOL_PARALLEL_BYTES: usize = 64 << 10;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Sum,
    Prod,
    Max,
    Min,
    Mean,
    L1,
    L2,
    And,
    Or,
}

pub(crate) fn sum(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    reduce(call, Kind::Sum)
}
pub(crate) fn prod(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    reduce(call, Kind::Prod)
}
pub(crate) fn max(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    reduce(call, Kind::Max)
}
pub(crate) fn min(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    reduce(call, Kind::Min)
}
pub(crate) fn mean(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    reduce(call, Kind::Mean)
}
pub(crate) fn l1(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    reduce(call, Kind::L1)
}
pub(crate) fn l2(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    reduce(call, Kind::L2)
}
pub(crate) fn logical_and(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    reduce(call, Kind::And)
}
pub(crate) fn logical_or(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    reduce(call, Kind::Or)
}

/// The lowest and highest value of an integer type.
fn int_limits(et: ir::ElementType) -> (i128, i128) {
    use ir::ElementType as E;
    match et {
        E::I8 => (i8::MIN.into(), i8::MAX.into()),
        E::I16 => (i16::MIN.into(), i16::MAX.into()),
        E::I32 => (i32::MIN.into(), i32::MAX.into()),
        E::I64 => (i64::MIN.into(), i64::MAX.into()),
        E::U8 => (0, u8::MAX.into()),
        E::U16 => (0, u16::MAX.into()),
        E::U32 => (0, u32::MAX.into()),
        _ => (0, u64::MAX.into()),
    }
}

fn reduce(call: &Call<'_>, kind: Kind) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out = call.out_shape(0)?;
    let rank = x.shape.len();
    let mut reduced = vec![false; rank];
    for a in call.input(1)?.to_i64s()? {
        reduced[norm_axis(a, rank)?] = true;
    }
    // The output with kept dims: reduced axes are 1 and do not move.
    let kept: Vec<usize> = (0..rank)
        .map(|a| if reduced[a] { 1 } else { x.shape[a] })
        .collect();
    let count = element_count(&kept)?;
    byte_size(x.element_type, &kept)?;
    if element_count(&out)? != count {
        return Err(format!(
            "internal: the inferred shape {out:?} does not hold the reduction {kept:?}"
        )
        .into());
    }
    let n = element_count(&x.shape)? / count.max(1);
    // Reduced axes after every kept one (global pooling's spatial axes):
    // each output reduces one run of `n` adjacent inputs, in order.
    let last_kept = (0..rank).rev().find(|&a| !reduced[a] && x.shape[a] > 1);
    let first_reduced = (0..rank).find(|&a| reduced[a] && x.shape[a] > 1);
    let runs = match (last_kept, first_reduced) {
        (Some(k), Some(r)) => k < r,
        _ => true,
    };
    // Otherwise, the output each input goes to.
    let mut targets = Vec::new();
    if !runs {
        let mut strides = row_major_strides(&kept);
        for a in 0..rank {
            if reduced[a] {
                strides[a] = 0;
            }
        }
        targets.reserve(x.len());
        walk(&x.shape, &[0], &[strides], |o| targets.push(o[0]));
    }
    let target = |i: usize| if runs { i / n.max(1) } else { targets[i] };
    let et = x.element_type;
    if matches!(kind, Kind::And | Kind::Or) {
        if et != ir::ElementType::Boolean {
            return Err(super::unsupported("a logical reduction", et));
        }
        let all = kind == Kind::And;
        let mut acc = vec![all; count];
        for (i, &b) in x.bytes().iter().enumerate() {
            if (b != 0) != all {
                acc[target(i)] = !all;
            }
        }
        return Ok(vec![Tensor::from_vec(out, acc)?]);
    }
    if matches!(kind, Kind::L1 | Kind::L2) {
        let mut acc = vec![0.0f64; count];
        for (i, v) in to_f64s(x)?.into_iter().enumerate() {
            acc[target(i)] += if kind == Kind::L1 { v.abs() } else { v * v };
        }
        if kind == Kind::L2 {
            for a in &mut acc {
                *a = a.sqrt();
            }
        }
        return Ok(vec![from_f64s(et, out, &acc)?]);
    }
    let t = if et.is_real() {
        // The accumulator's start (the module docs): the lowest finite value
        // of f32, bf16 or f64 (an f16 result overflows it to an infinity, as
        // OpenVINO's does), which an empty set keeps.
        let finite = match et {
            ir::ElementType::F64 => f64::MAX,
            ir::ElementType::BF16 => f64::from(half::bf16::MAX.to_f32()),
            _ => f64::from(f32::MAX),
        };
        let init = match (kind, n) {
            (Kind::Sum | Kind::Mean, _) => 0.0,
            (Kind::Prod, _) => 1.0,
            (Kind::Max, _) => -finite,
            (Kind::Min, 0) => finite,
            (Kind::Min, _) => f64::INFINITY,
            _ => return Err("internal: not an arithmetic reduction".into()),
        };
        let mut acc = vec![init; count];
        if runs && et == ir::ElementType::F32 && n > 0 && matches!(kind, Kind::Sum | Kind::Mean) {
            // Global pooling's sums, read straight from the bytes.
            let bytes = x.bytes();
            let reduced = |o: usize| {
                let sum = sum_f32s(&bytes[o * n * 4..(o + 1) * n * 4]);
                let value = if kind == Kind::Mean {
                    sum / n as f64
                } else {
                    sum
                };
                value as f32
            };
            let fill = |first: usize, chunk: &mut [f32]| {
                for (o, v) in (first..).zip(chunk) {
                    *v = reduced(o);
                }
            };
            let mut rounded = vec![0f32; count];
            let threads = rayon::current_num_threads();
            if threads > 1 && bytes.len() >= GLOBAL_POOL_PARALLEL_BYTES {
                // Each output's sum is its own: the split changes no order.
                let per_task = count.div_ceil(4 * threads).max(1);
                rounded
                    .par_chunks_mut(per_task)
                    .enumerate()
                    .for_each(|(task, chunk)| fill(task * per_task, chunk));
            } else {
                fill(0, &mut rounded);
            }
            return Ok(vec![Tensor::from_vec(out, rounded)?]);
        }
        if runs && et == ir::ElementType::F32 && n > 0 {
            // The same reductions in the same order, read straight from the bytes.
            let mut values = x.bytes().chunks_exact(4).map(|b| f64::from(f32::read(b)));
            for a in &mut acc {
                for v in values.by_ref().take(n) {
                    *a = match kind {
                        Kind::Sum | Kind::Mean => *a + v,
                        Kind::Prod => *a * v,
                        Kind::Max if v.is_nan() || v > *a => v,
                        Kind::Min if v.is_nan() || v < *a => v,
                        _ => *a,
                    };
                }
            }
            if kind == Kind::Mean {
                for a in &mut acc {
                    *a /= n as f64;
                }
            }
            let rounded: Vec<f32> = acc.iter().map(|&a| a as f32).collect();
            return Ok(vec![Tensor::from_vec(out, rounded)?]);
        }
        for (i, v) in to_f64s(x)?.into_iter().enumerate() {
            let a = &mut acc[target(i)];
            *a = match kind {
                Kind::Sum | Kind::Mean => *a + v,
                Kind::Prod => *a * v,
                // NaN propagates.
                Kind::Max if v.is_nan() || v > *a => v,
                Kind::Min if v.is_nan() || v < *a => v,
                _ => *a,
            };
        }
        if kind == Kind::Mean && n > 0 {
            for a in &mut acc {
                *a /= n as f64;
            }
        }
        from_f64s(et, out, &acc)?
    } else {
        let (lo, hi) = int_limits(et);
        let init = match kind {
            Kind::Sum | Kind::Mean => 0,
            Kind::Prod => 1,
            Kind::Max => lo,
            Kind::Min => hi,
            _ => return Err("internal: not an arithmetic reduction".into()),
        };
        let mut acc = vec![init; count];
        for (i, v) in to_i128s(x)?.into_iter().enumerate() {
            let a = &mut acc[target(i)];
            *a = match kind {
                Kind::Sum | Kind::Mean => a.wrapping_add(v),
                Kind::Prod => a.wrapping_mul(v),
                Kind::Max => (*a).max(v),
                Kind::Min => (*a).min(v),
                _ => *a,
            };
        }
        if kind == Kind::Mean {
            if n == 0 {
                return Err("ReduceMean of integers over an empty set".into());
            }
            for a in &mut acc {
                *a /= n as i128;
            }
        }
        from_i128s(et, out, &acc)?
    };
    Ok(vec![t])
}

/// The sum, in f64, of the f32 values whose little-endian bytes `bytes`
/// holds, in eight interleaved partial sums: eight independent chains of
/// additions overlap where one chain waits on each addition's latency
/// (ReduceMean over a 13x13 plane of 1,000 channels: 0.40 ms one chain).
/// f64 holds each partial sum of f32 values to far below f32's rounding,
/// so the order changes the f32 result only at a rounding tie.
fn sum_f32s(bytes: &[u8]) -> f64 {
    let mut lanes = [0f64; 8];
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        for (lane, b) in lanes.iter_mut().zip(block.chunks_exact(4)) {
            *lane += f64::from(f32::read(b));
        }
    }
    let tail: f64 = blocks
        .remainder()
        .chunks_exact(4)
        .map(|b| f64::from(f32::read(b)))
        .sum();
    lanes.iter().sum::<f64>() + tail
}

#[cfg(test)]
mod tests {
    use super::sum_f32s;

    fn bytes(values: &[f32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    #[test]
    fn interleaved_sums_equal_one_chain_rounded_to_f32() {
        for len in 0..70 {
            let values: Vec<f32> = (0..len)
                .map(|i| ((i * 7919 % 1000) as f32 - 500.0) * 1.37e-3 * (1 + i % 5) as f32)
                .collect();
            let chain: f64 = values.iter().map(|&v| f64::from(v)).sum();
            assert_eq!(
                sum_f32s(&bytes(&values)) as f32,
                chain as f32,
                "{len} values"
            );
        }
    }

    #[test]
    fn interleaved_sums_propagate_nan_and_infinities() {
        let mut values = vec![1.0f32; 19];
        values[17] = f32::INFINITY;
        assert_eq!(sum_f32s(&bytes(&values)), f64::INFINITY);
        values[3] = f32::NEG_INFINITY;
        assert!(sum_f32s(&bytes(&values)).is_nan());
        values[3] = f32::NAN;
        assert!(sum_f32s(&bytes(&values)).is_nan());
    }
}
