//! Broadcast-1/3: the data broadcast to the inferred shape (the values of
//! `target_shape`): `numpy` (aligned right), `bidirectional` (v3: the same
//! placement, the output being the numpy broadcast of data and target),
//! `explicit`/`none` (data axis `i` at output axis `axes_mapping[i]`,
//! input 2) and `pdpd` (placed at `axis`, else aligned right). Every
//! placement goes through the shared broadcast helper. Raw bytes.

use super::{Call, KResult};
use crate::broadcast::{mapped_strides, placed_strides, walk};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let data = call.input(0)?;
    let mode = call
        .node
        .attributes
        .get("mode")
        .unwrap_or("numpy")
        .trim()
        .to_ascii_lowercase();
    // A target known only at run time (fed by a Parameter): the shape is its
    // values (bidirectional: broadcast with the data's); the executor checks
    // it against the inferred symbols.
    let out = match call.out_shape(0) {
        Ok(out) => out,
        Err(_) => run_time_shape(&data.shape, &call.input(1)?.to_i64s()?, &mode)?,
    };
    let strides = match mode.as_str() {
        "numpy" | "bidirectional" => placed_strides(&data.shape, &out, None)?,
        "pdpd" => {
            let start = match call.attr_i64("axis")? {
                Some(a) if a >= 0 => Some(a as usize),
                _ => None,
            };
            placed_strides(&data.shape, &out, start)?
        }
        "explicit" | "none" => {
            let axes = call
                .input(2)?
                .to_i64s()?
                .into_iter()
                .map(|a| {
                    usize::try_from(a).map_err(|_| format!("axes_mapping value {a} is negative"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            mapped_strides(&data.shape, &out, &axes)?
        }
        other => return Err(format!("mode `{other}` is not supported").into()),
    };
    let strides = vec![strides];
    let t = super::gather_elements(data, out.clone(), |push| {
        walk(&out, &[0], &strides, |o| push(o[0]));
    })?;
    Ok(vec![t])
}

/// The output shape from the target's values, when inference could not know
/// them.
fn run_time_shape(data: &[usize], target: &[i64], mode: &str) -> KResult<Vec<usize>> {
    let target = target
        .iter()
        .map(|&d| usize::try_from(d).map_err(|_| format!("target_shape value {d} is negative")))
        .collect::<Result<Vec<_>, _>>()?;
    if mode != "bidirectional" {
        return Ok(target);
    }
    let rank = data.len().max(target.len());
    let at = |s: &[usize], i: usize| {
        let pad = rank - s.len();
        if i < pad {
            1
        } else {
            s[i - pad]
        }
    };
    (0..rank)
        .map(|i| match (at(data, i), at(&target, i)) {
            (a, b) if a == b || b == 1 => Ok(a),
            (1, b) => Ok(b),
            (a, b) => Err(format!(
                "dim {a} of the data and {b} of the target do not broadcast (axis {i})"
            )
            .into()),
        })
        .collect()
}
