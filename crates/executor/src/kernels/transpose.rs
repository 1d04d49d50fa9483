//! Transpose-1: axes permuted by input 1 (empty: reversed). Raw bytes.

use super::{norm_axis, Call, KResult};
use crate::broadcast::{row_major_strides, walk};
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
    let strides = vec![perm.iter().map(|&p| own[p]).collect()];
    let t = super::gather_elements(data, out.clone(), |push| {
        walk(&out, &[0], &strides, |o| push(o[0]));
    })?;
    Ok(vec![t])
}
