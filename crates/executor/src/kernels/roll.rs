//! Roll-7: element `i` of the output along each rolled axis is element
//! `i - shift` (modulo the dim) of the input; shifts of repeated axes add
//! up, a scalar shift applies to every axis (as the spec says; OpenVINO's
//! CPU plugin refuses that with more than one axis). Raw bytes, any type.
//! Scalar data is copied.

use super::{gather_indexed, norm_axis, Call, KResult};
use crate::broadcast::row_major_strides;
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out = call.out_shape(0)?;
    if out != x.shape {
        return Err(format!("internal: the inferred shape {out:?} is not the data's").into());
    }
    let shift_t = call.input(1)?;
    let shifts = shift_t.to_i64s()?;
    let axes = call.input(2)?.to_i64s()?;
    let rank = x.shape.len();
    if rank == 0 {
        return Ok(vec![x.clone()]);
    }
    let scalar = shift_t.shape.is_empty();
    if !scalar && shifts.len() != axes.len() {
        return Err(format!(
            "{} shifts for {} axes (a 1-D shift needs one per axis)",
            shifts.len(),
            axes.len()
        )
        .into());
    }
    // The total shift of each axis, in 0..dim.
    let mut total = vec![0i128; rank];
    for (k, &a) in axes.iter().enumerate() {
        let axis = norm_axis(a, rank)?;
        let s = if scalar { shifts[0] } else { shifts[k] };
        total[axis] += i128::from(s);
    }
    let shift: Vec<usize> = total
        .iter()
        .zip(&x.shape)
        .map(|(&t, &d)| {
            if d == 0 {
                0
            } else {
                t.rem_euclid(d as i128) as usize
            }
        })
        .collect();
    let strides = row_major_strides(&x.shape);
    let t = gather_indexed(x, out, None, |idx| {
        let mut k = 0;
        for (a, &i) in idx.iter().enumerate() {
            let d = x.shape[a];
            k += ((i + d - shift[a]) % d) * strides[a] as usize;
        }
        Some(k)
    })?;
    Ok(vec![t])
}
