//! ScatterNDUpdate-3 and ScatterNDUpdate-15 (OpenVINO's class `v14`, first
//! in opset15): a copy of `data` whose elements or slices addressed by the
//! index tuples in the last dim of `indices` are replaced by (v15: reduced
//! with) the slices of `updates`.
//!
//! The output has the data's shape and type. OpenVINO's checks: i32 or i64
//! indices, data and updates of one type, data and indices of rank at least
//! 1, a tuple length `k = indices[-1]` at most the data's rank, and updates
//! of shape `indices[:-1] + data[k:]` (any shape when that is a scalar, as
//! OpenVINO: it then needs one element at run time).

use ir::{Dim, ElementType};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "ScatterNDUpdate",
    versions: &[OpVersion::openvino(3, 4), OpVersion::openvino(15, 15)],
    infer,
    doc: OpDoc {
        summary: "A copy of `data` whose elements or slices addressed by the index tuples in the last dim of `indices` are replaced by the slices of `updates` (shape `indices[:-1] + data[k:]`), or (v15) combined with them by `reduction`; writes apply in index order (a repeated index: the last wins, or reductions accumulate), negative indices count from the end.",
        attributes: "`reduction` (v15: `none` (default), `sum`, `sub`, `prod`, `min`, `max`; booleans: or, xor, and, and, or, as the spec and OpenVINO's reference (its 2026.4 CPU plugin subtracts booleans as integers))",
        symbolic: "the data's shape; the updates' dims are merged with `indices[:-1] + data[k:]` (an undecidable equality is a constraint); without a reduction, values in `data` and `updates` with constant indices propagate (negative indices count from the end)",
        errors: "`element-type` (indices not i32 or i64, updates of another type than data), `scatter-nd-rank` (data or indices of rank 0), `scatter-nd-index-length` (tuple length above the data's rank), `scatter-updates-shape` (updates of the wrong rank or dims), `scatter-reduction` (an unknown `reduction`)",
    },
};

/// The reductions of ScatterNDUpdate-15 and ScatterElementsUpdate-12.
pub(crate) fn reduction(call: &OpCall<'_>, allowed: &[&str]) -> Result<(), ShapeError> {
    let Some(text) = call.node.attributes.get("reduction") else {
        return Ok(());
    };
    let lower = text.trim().to_ascii_lowercase();
    if allowed.contains(&lower.as_str()) {
        return Ok(());
    }
    Err(ShapeError::rule(
        "scatter-reduction",
        format!(
            "`reduction` must be one of {}, got `{text}`",
            allowed.join(", ")
        ),
    ))
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 3)?;
    if call.version >= 15 {
        reduction(call, &["none", "sum", "sub", "prod", "min", "max"])?;
    }
    let it = call.inputs[1].element_type;
    if it.is_static() && !matches!(it, ElementType::I32 | ElementType::I64) {
        return Err(ShapeError::ElementType {
            what: "indices (input 1)".to_owned(),
            message: format!("must be i32 or i64, got {it}"),
        });
    }
    let et = support::expect_same_type(call, 0, 2)?;
    let (data, indices, updates) = (&call.inputs[0], &call.inputs[1], &call.inputs[2]);
    for (what, shape) in [("data", &data.shape), ("indices", &indices.shape)] {
        if shape.rank() == Some(0) {
            return Err(ShapeError::rule(
                "scatter-nd-rank",
                format!("{what} must have a rank of at least 1"),
            ));
        }
    }
    let out = TensorInfo::new(et, data.shape.clone());
    let (Some(ddims), Some(idims)) = (data.shape.dims(), indices.shape.dims()) else {
        return Ok(vec![out]);
    };
    let q = idims.len();
    let Some(k) = idims[q - 1].as_constant() else {
        return Ok(vec![out]);
    };
    let k = usize::try_from(k).unwrap_or(usize::MAX);
    if k > ddims.len() {
        return Err(ShapeError::rule(
            "scatter-nd-index-length",
            format!(
                "index tuples of length {k} exceed the data's rank {}",
                ddims.len()
            ),
        ));
    }
    let value = updated_values(call, ddims, k);
    let out = out.with_value(value);
    let Some(udims) = updates.shape.dims() else {
        return Ok(vec![out]);
    };
    let expected: Vec<&Dim> = idims[..q - 1].iter().chain(&ddims[k..]).collect();
    if expected.is_empty() {
        return Ok(vec![out]);
    }
    if udims.len() != expected.len() {
        return Err(ShapeError::rule(
            "scatter-updates-shape",
            format!(
                "updates must have rank rank(data) + rank(indices) - indices[-1] - 1 = {}, got {}",
                expected.len(),
                udims.len()
            ),
        ));
    }
    for (i, (u, e)) in udims.iter().zip(expected).enumerate() {
        support::merge_equal_dims(
            ctx,
            u,
            e,
            "scatter-updates-shape",
            &format!("dim {i} of updates and of indices[:-1] + data[indices[-1]:]"),
        )?;
    }
    Ok(vec![out])
}

/// The updated values (no reduction) when `data` and `updates` have values,
/// the data's shape is static and the indices are constants in range.
fn updated_values(call: &OpCall<'_>, ddims: &[Dim], k: usize) -> Option<Vec<Dim>> {
    if support::reduces(call, 15) {
        return None;
    }
    let values = support::input_values(call, 0)?;
    let updates = support::input_values(call, 2)?;
    let indices = support::input_ints(call, 1)?;
    let shape = support::static_dims(ddims)?;
    if values.len() > support::MAX_VALUE_ELEMENTS
        || shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))? != values.len()
    {
        return None;
    }
    let slice: usize = shape[k..].iter().product();
    let tuples = indices.len().checked_div(k)?;
    if tuples.checked_mul(slice)? != updates.len() {
        return None;
    }
    let mut out = values.to_vec();
    for (t, tuple) in indices.chunks_exact(k).enumerate() {
        let mut offset = 0usize;
        for (&i, &dim) in tuple.iter().zip(&shape) {
            let i = if i < 0 { i.checked_add(dim as i64)? } else { i };
            offset = offset * dim + usize::try_from(i).ok().filter(|&i| i < dim)?;
        }
        let dst = offset * slice;
        out.get_mut(dst..dst + slice)?
            .clone_from_slice(updates.get(t * slice..(t + 1) * slice)?);
    }
    Some(out)
}
