//! Tile-1: the data repeated along each axis by `repeats` (input 1); the
//! shorter of the shape and `repeats` is padded with leading 1s. The output
//! shape is inference's; output index `i` reads input index `i % dim`.
//! Raw bytes.

use super::{Call, KResult};
use crate::broadcast::row_major_strides;
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let data = call.input(0)?;
    let out = call.out_shape(0)?;
    let rank = out.len();
    let pad = rank
        .checked_sub(data.shape.len())
        .ok_or("internal: the inferred rank is below the input's")?;
    let mut dims = vec![1usize; pad];
    dims.extend_from_slice(&data.shape);
    for (a, (&d, &o)) in dims.iter().zip(&out).enumerate() {
        if (d == 0 && o != 0) || (d != 0 && o % d != 0) {
            return Err(format!(
                "internal: output dim {o} of axis {a} is not a multiple of the input's {d}"
            )
            .into());
        }
    }
    let own = row_major_strides(&dims);
    let t = super::gather_indexed(data, out, None, |idx| {
        Some(
            idx.iter()
                .zip(&dims)
                .zip(&own)
                .map(|((&i, &d), &s)| (i % d) * s as usize)
                .sum(),
        )
    })?;
    Ok(vec![t])
}
