//! Bucketize-3: a binary search in the sorted boundaries, compared as f64
//! (data and boundaries may differ in type). With `with_right_bound`
//! (default) the index is the first boundary not below the value (buckets
//! `(b[i-1], b[i]]`), without it the first above (`[b[i-1], b[i])`).

use super::{from_i128s, to_f64s, Call, KResult};
use crate::tensor::Tensor;

/// The number of elements of the sorted `row` below `v` (`after_equal`:
/// not above `v`): a binary search, shared with SearchSorted.
pub(crate) fn position(row: &[f64], v: f64, after_equal: bool) -> usize {
    row.partition_point(|&b| if after_equal { b <= v } else { b < v })
}

pub(crate) fn indices(
    call: &Call<'_>,
    data: &Tensor,
    out: Vec<usize>,
    found: &[i128],
) -> KResult<Tensor> {
    if data.shape.iter().product::<usize>() != found.len() {
        return Err("internal: the positions do not fill the output".into());
    }
    from_i128s(call.out_type(0)?, out, found)
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (data, buckets) = (call.input(0)?, call.input(1)?);
    let out = call.out_shape(0)?;
    if out != data.shape || buckets.shape.len() != 1 {
        return Err("internal: Bucketize's shapes are not the inferred ones".into());
    }
    let right = call.attr_bool("with_right_bound", true);
    let b = to_f64s(buckets)?;
    let found: Vec<i128> = to_f64s(data)?
        .into_iter()
        .map(|v| position(&b, v, !right) as i128)
        .collect();
    Ok(vec![indices(call, data, out, &found)?])
}
