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
    // A target known only at run time (fed by a Parameter) is sized by
    // Broadcast's shape rule, which the executor reruns on its values.
    let out = call.out_shape(0)?;
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
