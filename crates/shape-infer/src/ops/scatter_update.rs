//! ScatterUpdate-3: a copy of `data` whose slices along `axis` at `indices`
//! are replaced by slices of `updates`:
//! `out[.., indices[j..], ..] = updates[.., j.., ..]`.
//!
//! The output has the data's shape and type. OpenVINO's checks: integer
//! indices and axis, data and updates of one type, a scalar or one-element
//! axis, updates of rank `rank(indices) + rank(data) - 1` and (with a known
//! axis) of dims `data[:axis] + indices + data[axis+1:]`. When `data` and
//! `updates` carry values and the indices and axis are constants, the
//! updated values propagate (shape subgraphs replace one dim this way).

use ir::Dim;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "ScatterUpdate",
    versions: &[OpVersion::openvino(3, 3)],
    infer,
    doc: OpDoc {
        summary: "A copy of `data` whose slices along `axis` (input 3) at `indices` are replaced by the slices of `updates` (`data[:axis] + indices + data[axis+1:]`); the last write of a repeated index wins (as OpenVINO's CPU plugin); a negative or out-of-range index is a run-time error (as OpenVINO).",
        attributes: "-",
        symbolic: "the data's shape; the updates' dims are merged with the data's and the indices' (an undecidable equality is a constraint); with values in `data` and `updates` and constant indices and axis the updated values propagate",
        errors: "`element-type` (non-integer indices or axis, updates of another type than data), `axis-not-scalar`, `axis-out-of-range`, `scatter-updates-shape` (updates of the wrong rank or dims)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(4, 4)?;
    support::expect_integer_input(call, 1, "indices (input 1)")?;
    support::expect_integer_input(call, 3, "axis (input 3)")?;
    let et = support::expect_same_type(call, 0, 2)?;
    let (data, indices, updates) = (&call.inputs[0], &call.inputs[1], &call.inputs[2]);
    let axis_raw = support::scalar_int_input(call, 3, "axis (input 3)")?;
    if let (Some(d), Some(i), Some(u)) = (
        data.shape.rank(),
        indices.shape.rank(),
        updates.shape.rank(),
    ) {
        if u + 1 != d + i {
            return Err(ShapeError::rule(
                "scatter-updates-shape",
                format!(
                    "updates must have rank rank(indices) + rank(data) - 1 = {}, got {u}",
                    d as i64 + i as i64 - 1
                ),
            ));
        }
    }
    let out = TensorInfo::new(et, data.shape.clone());
    let Some(ddims) = data.shape.dims() else {
        return Ok(vec![out]);
    };
    let Some(raw) = axis_raw else {
        return Ok(vec![out]);
    };
    let axis = support::normalize_axis(raw, ddims.len(), "axis")?;
    if let (Some(idims), Some(udims)) = (indices.shape.dims(), updates.shape.dims()) {
        let expected: Vec<&Dim> = ddims[..axis]
            .iter()
            .chain(idims)
            .chain(&ddims[axis + 1..])
            .collect();
        for (i, (u, e)) in udims.iter().zip(expected).enumerate() {
            support::merge_equal_dims(
                ctx,
                u,
                e,
                "scatter-updates-shape",
                &format!("dim {i} of updates and of data[:axis] + indices + data[axis+1:]"),
            )?;
        }
    }
    Ok(vec![out.with_value(updated_values(call, ddims, axis))])
}

/// The updated values when `data` and `updates` have values, the data's
/// shape is static and the indices are constants in range.
fn updated_values(call: &OpCall<'_>, ddims: &[Dim], axis: usize) -> Option<Vec<Dim>> {
    let values = support::input_values(call, 0)?;
    let updates = support::input_values(call, 2)?;
    let indices = support::input_ints(call, 1)?;
    let shape = support::static_dims(ddims)?;
    if values.len() > support::MAX_VALUE_ELEMENTS
        || shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))? != values.len()
    {
        return None;
    }
    let outer: usize = shape[..axis].iter().product();
    let inner: usize = shape[axis + 1..].iter().product();
    let len = shape[axis];
    if outer.checked_mul(indices.len())?.checked_mul(inner)? != updates.len() {
        return None;
    }
    let mut out = values.to_vec();
    for o in 0..outer {
        for (j, &i) in indices.iter().enumerate() {
            let i = usize::try_from(i).ok().filter(|&i| i < len)?;
            let dst = (o * len + i) * inner;
            let src = (o * indices.len() + j) * inner;
            out.get_mut(dst..dst + inner)?
                .clone_from_slice(updates.get(src..src + inner)?);
        }
    }
    Some(out)
}
