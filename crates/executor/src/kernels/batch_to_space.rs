//! BatchToSpace-2: output element `(n, o1, …)` reads input batch
//! `blk * (N / prod(B)) + n` at spatial `(o_i + CB_i) / B_i`, where `blk`
//! numbers the block offsets `(o_i + CB_i) % B_i` with B1 most significant
//! (the spec's reshape-transpose-reshape, then the crop). SpaceToBatch
//! shares the input checks ([`block_values`]). Raw bytes, any type.

use super::{gather_indexed, Call, KResult};
use crate::tensor::Tensor;

/// The block values and the two crop or pad inputs, checked as the shape
/// rule checks them (at run time they may come from data).
pub(super) type BlockValues = (Vec<usize>, Vec<usize>, Vec<usize>);

/// Reads and checks inputs 1 to 3 of BatchToSpace or SpaceToBatch for data
/// of `rank` (2 or more).
pub(super) fn block_values(call: &Call<'_>, rank: usize) -> KResult<BlockValues> {
    if rank < 2 {
        return Err("input-rank: the data must have rank 2 or more".into());
    }
    let read = |i: usize, min: i64| -> KResult<Vec<usize>> {
        let v = call.input(i)?.to_i64s()?;
        if v.len() != rank {
            return Err(format!(
                "batch-space-inputs: input {i} holds {} values for data of rank {rank}",
                v.len()
            )
            .into());
        }
        v.iter()
            .map(|&x| {
                usize::try_from(x)
                    .ok()
                    .filter(|&u| u as i64 >= min)
                    .ok_or_else(|| format!("batch-space-values: input {i} holds {x}").into())
            })
            .collect()
    };
    let block = read(1, 1)?;
    let begin = read(2, 0)?;
    let end = read(3, 0)?;
    if block[0] != 1 || begin[0] != 0 || end[0] != 0 {
        return Err(
            "batch-space-values: the batch axis takes a block of 1 and no crop or pad".into(),
        );
    }
    Ok((block, begin, end))
}

/// The inferred output shape when known, else the computed one; both must
/// agree.
pub(super) fn check_shape(call: &Call<'_>, computed: Vec<usize>) -> KResult<Vec<usize>> {
    match call.outputs.first().and_then(|o| o.shape.clone()) {
        Some(inferred) if inferred != computed => {
            Err(format!("internal: the inferred shape {inferred:?} is not {computed:?}").into())
        }
        _ => Ok(computed),
    }
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let rank = x.shape.len();
    let (block, begin, end) = block_values(call, rank)?;
    let prod = block
        .iter()
        .try_fold(1usize, |a, &b| a.checked_mul(b))
        .ok_or("block_shape's product overflows")?;
    if x.shape[0] % prod != 0 {
        return Err(format!(
            "block-divisible: the batch {} is not divisible by {prod}",
            x.shape[0]
        )
        .into());
    }
    let batch = x.shape[0] / prod;
    let mut out = vec![batch];
    for i in 1..rank {
        let full = x.shape[i] * block[i];
        out.push(full.checked_sub(begin[i] + end[i]).ok_or_else(|| {
            format!("batch-to-space-crops: axis {i}: crops exceed the dim {full}")
        })?);
    }
    let out = check_shape(call, out)?;
    let dims = &x.shape;
    let per_batch = spatial_count(dims);
    let t = gather_indexed(x, out, None, |idx| {
        let mut blk = 0;
        let mut spatial = 0;
        for i in 1..rank {
            let p = idx[i] + begin[i];
            blk = blk * block[i] + p % block[i];
            spatial = spatial * dims[i] + p / block[i];
        }
        Some((blk * batch + idx[0]) * per_batch + spatial)
    })?;
    Ok(vec![t])
}

/// The number of elements of one batch of `dims`.
pub(super) fn spatial_count(dims: &[usize]) -> usize {
    dims[1..].iter().product()
}
