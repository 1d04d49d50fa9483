//! Gather-1, Gather-7 and Gather-8: slices of `data` along `axis` picked by
//! `indices`.
//!
//! Output shape `data[:axis] + indices[batch_dims:] + data[axis+1:]`. When
//! `data` carries values (a ShapeOf output) and the indices are constants, the
//! output carries the gathered values: `ShapeOf -> Gather([0, 2])` of
//! `[N, 3, H]` is `[N, H]`.

use ir::{Dim, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "Gather",
    versions: &[
        OpVersion::openvino(1, 1),
        OpVersion::openvino(7, 7),
        OpVersion::openvino(8, 8),
    ],
    infer,
    doc: OpDoc {
        summary: "Gathers slices of `data` along `axis` at `indices`: `data[:axis] + indices[batch_dims:] + data[axis+1:]`.",
        attributes: "`batch_dims` (v7, v8; default 0, negative counts from the indices' rank)",
        symbolic: "dims are copied symbolically; the first `batch_dims` dims of data and indices are merged (an undecidable equality is a constraint); with values in `data` and constant indices the gathered values propagate (negative indices in v8 count from the end; out-of-range indices give no value); an unknown axis gives fresh dims of the known rank",
        errors: "non-integer indices or axis, axis not scalar, axis out of range, `batch_dims` greater than axis or than the indices' rank, differing batch dims",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 3)?;
    support::expect_integer_input(call, 1, "indices (input 1)")?;
    support::expect_integer_input(call, 2, "axis (input 2)")?;
    let (data, indices) = (&call.inputs[0], &call.inputs[1]);
    let raw_batch_dims = if call.version >= 7 {
        call.node.attributes.i64("batch_dims")?.unwrap_or(0)
    } else {
        0
    };
    let indices_rank = indices.shape.rank();
    let mut batch_dims = raw_batch_dims;
    if batch_dims < 0 {
        if let Some(r) = indices_rank {
            batch_dims = batch_dims.saturating_add(r as i64);
        }
    }
    if batch_dims < 0 && indices_rank.is_some() {
        return Err(ShapeError::rule(
            "gather-batch-dims",
            format!(
                "batch_dims {raw_batch_dims} is out of range for indices of rank {}",
                indices_rank.unwrap_or(0)
            ),
        ));
    }
    let axis_raw = support::scalar_int_input(call, 2, "axis (input 2)")?;
    let axis = match (axis_raw, data.shape.rank()) {
        (Some(a), Some(rank)) => Some(support::normalize_axis(a, rank, "axis")?),
        _ => None,
    };
    if let Some(axis) = axis {
        if batch_dims > axis as i64 {
            return Err(ShapeError::rule(
                "gather-batch-dims",
                format!("batch_dims {batch_dims} must not be greater than axis {axis}"),
            ));
        }
    }
    if let Some(r) = indices_rank {
        if batch_dims > r as i64 {
            return Err(ShapeError::rule(
                "gather-batch-dims",
                format!("batch_dims {batch_dims} must not be greater than the indices' rank {r}"),
            ));
        }
    }
    let (Some(ddims), Some(idims), true) =
        (data.shape.dims(), indices.shape.dims(), batch_dims >= 0)
    else {
        return Ok(vec![TensorInfo::new(data.element_type, Shape::DynamicRank)]);
    };
    let bd = batch_dims as usize;
    if bd > ddims.len() {
        return Err(ShapeError::rule(
            "gather-batch-dims",
            format!(
                "batch_dims {bd} is greater than the data rank {}",
                ddims.len()
            ),
        ));
    }
    let mut out: Vec<Dim> = Vec::new();
    for i in 0..bd {
        out.push(support::merge_equal_dims(
            ctx,
            &ddims[i],
            &idims[i],
            "gather-batch-dims",
            &format!("batch dim {i} of data and indices"),
        )?);
    }
    let Some(axis) = axis else {
        let out_rank = (ddims.len() + idims.len())
            .checked_sub(1 + bd)
            .ok_or_else(|| {
                ShapeError::rule("axis-out-of-range", "data of rank 0 has no axis to gather")
            })?;
        while out.len() < out_rank {
            let i = out.len();
            out.push(support::unknown_dim(
                ctx,
                format!("dim {i} of Gather with an axis known only at run time"),
            ));
        }
        return Ok(vec![TensorInfo::new(data.element_type, Shape::ranked(out))]);
    };
    out.extend(ddims[bd..axis].iter().cloned());
    out.extend(idims[bd..].iter().cloned());
    out.extend(ddims[axis + 1..].iter().cloned());
    let value = if bd == 0 {
        gathered_values(call, ddims, axis)
    } else {
        None
    };
    let tensor = TensorInfo::new(data.element_type, Shape::ranked(out));
    Ok(vec![tensor.with_value(value)])
}

/// The gathered values when `data` has values and a static shape and the
/// indices are constants in range.
fn gathered_values(call: &OpCall<'_>, ddims: &[Dim], axis: usize) -> Option<Vec<Dim>> {
    let values = support::input_values(call, 0)?;
    let indices = support::input_ints(call, 1)?;
    let shape: Vec<i64> = ddims
        .iter()
        .map(|d| d.as_constant())
        .collect::<Option<_>>()?;
    let to_usize = |v: i64| usize::try_from(v).ok();
    let outer = shape[..axis]
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(to_usize(d)?))?;
    let inner = shape[axis + 1..]
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(to_usize(d)?))?;
    let len = shape[axis];
    let total = outer.checked_mul(indices.len())?.checked_mul(inner)?;
    if total > support::MAX_VALUE_ELEMENTS
        || outer.checked_mul(to_usize(len)?)?.checked_mul(inner)? != values.len()
    {
        return None;
    }
    let picks: Vec<usize> = indices
        .iter()
        .map(|&i| {
            let i = if i < 0 && call.version >= 8 {
                i.checked_add(len)?
            } else {
                i
            };
            (0..len).contains(&i).then_some(i as usize)
        })
        .collect::<Option<_>>()?;
    let len = len as usize;
    let mut out = Vec::with_capacity(total);
    for o in 0..outer {
        for &p in &picks {
            let start = (o * len + p) * inner;
            out.extend_from_slice(values.get(start..start + inner)?);
        }
    }
    Some(out)
}
