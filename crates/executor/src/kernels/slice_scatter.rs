//! SliceScatter-15: the data with `data[start:stop:step]` along `axes`
//! replaced by the updates, element `u` of the updates written at
//! `first + u*step` on each sliced axis. The first indices and the check
//! that the writes stay inside the data are Slice-8's kernel's; the updates'
//! shape is the slice's (checked by inference). Raw bytes, any type.

use super::slice::{check_reads, first_index};
use super::{for_each_index, norm_axis, Call, KResult};
use crate::broadcast::row_major_strides;
use crate::tensor::{element_width, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (data, updates) = (call.input(0)?, call.input(1)?);
    if data.element_type != updates.element_type {
        return Err("data and updates differ in element type".into());
    }
    let rank = data.shape.len();
    if updates.shape.len() != rank {
        return Err("slice-scatter-updates: the updates' rank is not the data's".into());
    }
    let starts = call.input(2)?.to_i64s()?;
    let steps = call.input(4)?.to_i64s()?;
    let n = starts.len();
    let axes = match call.inputs.get(5) {
        Some(t) => t.to_i64s()?,
        None => (0..n as i64).collect(),
    };
    if steps.len() != n || axes.len() != n {
        return Err("start, step and axes have different lengths".into());
    }
    let mut first = vec![0i64; rank];
    let mut step_of = vec![1i64; rank];
    for i in 0..n {
        let a = norm_axis(axes[i], rank)?;
        if steps[i] == 0 {
            return Err("slice-step-zero: step is 0".into());
        }
        first[a] = first_index(starts[i], steps[i], data.shape[a] as i64);
        step_of[a] = steps[i];
    }
    for a in 0..rank {
        check_reads(first[a], step_of[a], updates.shape[a], data.shape[a], a)?;
    }
    let width = element_width(data.element_type)?;
    let own = row_major_strides(&data.shape);
    let mut bytes = data.bytes().to_vec();
    let src = updates.bytes();
    let mut k = 0;
    let mut outside = false;
    for_each_index(&updates.shape, |idx| {
        let at: i64 = idx
            .iter()
            .enumerate()
            .map(|(a, &u)| (first[a] + u as i64 * step_of[a]) * own[a] as i64)
            .sum();
        let at = at as usize * width;
        match (
            bytes.get_mut(at..at + width),
            src.get(k * width..(k + 1) * width),
        ) {
            (Some(to), Some(from)) => to.copy_from_slice(from),
            _ => outside = true,
        }
        k += 1;
    });
    if outside {
        return Err("internal: a write falls outside the data".into());
    }
    Ok(vec![Tensor::from_bytes(
        data.element_type,
        data.shape.clone(),
        bytes,
    )?])
}
