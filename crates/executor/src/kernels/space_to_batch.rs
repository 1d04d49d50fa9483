//! SpaceToBatch-2: output element `(blk * N + n, o1, …)` reads input
//! `(n, o_i * B_i + b_i - PB_i, …)`, where `blk` numbers the block offsets
//! `b_i` with B1 most significant, and zero where that falls in the padding
//! (the spec's pad-reshape-transpose-reshape). Inputs checked as
//! BatchToSpace's. Raw bytes, any type.

use super::batch_to_space::{block_values, check_shape, spatial_count};
use super::{gather_indexed, Call, KResult};
use crate::tensor::{element_width, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let rank = x.shape.len();
    let (block, begin, end) = block_values(call, rank)?;
    let batch = x.shape[0];
    let mut out = vec![block
        .iter()
        .try_fold(batch, |a, &b| a.checked_mul(b))
        .ok_or("the output batch overflows")?];
    for i in 1..rank {
        let padded = x.shape[i] + begin[i] + end[i];
        if padded % block[i] != 0 {
            return Err(format!(
                "block-divisible: the padded dim {i} ({padded}) is not divisible by {}",
                block[i]
            )
            .into());
        }
        out.push(padded / block[i]);
    }
    let out = check_shape(call, out)?;
    let dims = &x.shape;
    let per_batch = spatial_count(dims);
    let zero = vec![0u8; element_width(x.element_type)?];
    let t = gather_indexed(x, out, Some(&zero), |idx| {
        let (mut blk, n) = (idx[0] / batch, idx[0] % batch);
        let mut spatial = 0;
        // Block offsets from the last axis (least significant) back.
        let mut pos = vec![0usize; rank];
        for i in (1..rank).rev() {
            let b = blk % block[i];
            blk /= block[i];
            pos[i] = (idx[i] * block[i] + b).checked_sub(begin[i])?;
            if pos[i] >= dims[i] {
                return None;
            }
        }
        for i in 1..rank {
            spatial = spatial * dims[i] + pos[i];
        }
        Some(n * per_batch + spatial)
    })?;
    Ok(vec![t])
}
