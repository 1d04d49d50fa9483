//! Transpose-1: axes permuted by input 1 (empty: reversed). Raw bytes.

use super::{norm_axis, strided, Call, KResult};
use crate::broadcast::row_major_strides;
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let data = call.input(0)?;
    let out = call.out_shape(0)?;
    let rank = data.shape.len();
    let mut perm: Vec<usize> = call
        .input(1)?
        .to_i64s()?
        .into_iter()
        .map(|a| norm_axis(a, rank))
        .collect::<Result<_, _>>()?;
    if perm.is_empty() {
        perm = (0..rank).rev().collect();
    }
    if perm.len() != rank {
        return Err(format!("the permutation has {} axes, the data {rank}", perm.len()).into());
    }
    let own = row_major_strides(&data.shape);
    let strides: Vec<isize> = perm.iter().map(|&p| own[p]).collect();
    Ok(vec![strided(data, out, 0, &strides)?])
}
