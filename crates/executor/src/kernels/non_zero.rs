//! NonZero-3: the indices of the nonzero elements (NaN is nonzero) as a
//! `[rank, count]` tensor of `output_type` (i32 or i64), row `a` holding
//! coordinate `a` of each element in row-major order. A scalar gives
//! `[[0]]` (`[1, 1]`) when nonzero, else `[0, 0]` (as OpenVINO). The count
//! is data-dependent: the executor checks it against the inferred range.

use super::{from_i128s, Call, KResult};
use crate::tensor::{byte_size, check_scratch, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let et = call.out_type(0)?;
    if !matches!(et, ir::ElementType::I32 | ir::ElementType::I64) {
        return Err(format!("output_type must be i32 or i64, got {et}").into());
    }
    let mask = x.nonzero_mask()?;
    let rank = x.shape.len();
    if rank == 0 {
        let c = usize::from(mask.first().copied().unwrap_or(false));
        return Ok(vec![from_i128s(et, vec![c, c], &vec![0; c])?]);
    }
    let hits: Vec<usize> = (0..mask.len()).filter(|&k| mask[k]).collect();
    let count = hits.len();
    // The output and its i128 values, checked before they are allocated.
    byte_size(et, &[rank, count])?;
    check_scratch(rank.saturating_mul(count), 16, "NonZero")?;
    let mut values = vec![0i128; rank * count];
    for (j, &k) in hits.iter().enumerate() {
        let mut rest = k;
        for a in (0..rank).rev() {
            let d = x.shape[a];
            values[a * count + j] = (rest % d) as i128;
            rest /= d;
        }
    }
    Ok(vec![from_i128s(et, vec![rank, count], &values)?])
}
