//! SearchSorted-15: per value, the first element of the sorted sequence not
//! below it (`right_mode`: the first above it), compared as f64, in the
//! sequence's row that matches the value's leading indices (the whole
//! sequence when it is 1-D); the binary search is Bucketize's.

use super::bucketize::{indices, position};
use super::{to_f64s, Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (sorted, values) = (call.input(0)?, call.input(1)?);
    let out = call.out_shape(0)?;
    if out != values.shape || sorted.shape.is_empty() {
        return Err("internal: SearchSorted's shapes are not the inferred ones".into());
    }
    let right = call.attr_bool("right_mode", false);
    let s = to_f64s(sorted)?;
    let v = to_f64s(values)?;
    let len = sorted.shape[sorted.shape.len() - 1];
    let found: Vec<i128> = if sorted.shape.len() == 1 {
        v.iter().map(|&x| position(&s, x, right) as i128).collect()
    } else {
        let n = sorted.shape.len();
        if values.shape.len() != n || values.shape[..n - 1] != sorted.shape[..n - 1] {
            return Err(format!(
                "the values {:?} do not match the sequence {:?} but in the last dim",
                values.shape, sorted.shape
            )
            .into());
        }
        let per = values.shape[n - 1];
        v.iter()
            .enumerate()
            .map(|(k, &x)| {
                let r = k.checked_div(per).unwrap_or(0);
                let row = s.get(r * len..(r + 1) * len).unwrap_or(&[]);
                position(row, x, right) as i128
            })
            .collect()
    };
    Ok(vec![indices(call, values, out, &found)?])
}
