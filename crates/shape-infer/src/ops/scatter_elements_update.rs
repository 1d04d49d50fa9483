//! ScatterElementsUpdate-3 and ScatterElementsUpdate-12: a copy of `data`
//! where each element of `updates` replaces (v12: is reduced into) the
//! element at its own position with the coordinate on `axis` taken from
//! `indices`.
//!
//! The output has the data's shape and type. OpenVINO's checks: integer
//! indices and axis, data and updates of one type, an axis of rank 0 or 1,
//! indices of the data's rank and of the updates' shape, an axis in range.
//! It checks nothing of the indices' dims against the data's; an index
//! shape that reaches outside the data is a run-time error here.

use ir::{Dim, ElementType};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "ScatterElementsUpdate",
    versions: &[OpVersion::openvino(3, 3), OpVersion::openvino(12, 12)],
    infer,
    doc: OpDoc {
        summary: "A copy of `data` where each element of `updates` replaces (v12: is combined by `reduction` with) the element at its own position but with the coordinate on `axis` (input 3) taken from `indices`; writes apply in index order (a repeated index: the last wins, or reductions accumulate), negative indices count from the end. Integer `mean` rounds down, as OpenVINO's specification and reference (its 2026.4 CPU plugin truncates toward zero).",
        attributes: "`reduction` (v12: `none` (default), `sum`, `prod`, `min`, `max`, `mean`), `use_init_val` (v12, default true: whether the data's element takes part in the reduction)",
        symbolic: "the data's shape; the dims of indices and updates are merged (an undecidable equality is a constraint); without a reduction, values in `data` and `updates` with constant indices and axis propagate (negative indices count from the end)",
        errors: "`element-type` (non-integer indices or axis, updates of another type than data), `input-rank` (axis of rank above 1), `scatter-elements-rank` (indices of another rank than data), `scatter-updates-shape` (updates of another shape than indices), `axis-out-of-range`, `scatter-reduction` (an unknown `reduction`)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(4, 4)?;
    if call.version >= 12 {
        super::scatter_nd_update::reduction(call, &["none", "sum", "prod", "min", "max", "mean"])?;
        support::bool_attr(ctx, call, "use_init_val", true);
    }
    // OpenVINO's `is_integral` takes booleans too.
    for (i, what) in [(1, "indices (input 1)"), (3, "axis (input 3)")] {
        if call.inputs[i].element_type != ElementType::Boolean {
            support::expect_integer_input(call, i, what)?;
        }
    }
    let et = support::expect_same_type(call, 0, 2)?;
    support::expect_rank_le1(call, 3, "axis (input 3)", true)?;
    let (data, indices, updates) = (&call.inputs[0], &call.inputs[1], &call.inputs[2]);
    if let (Some(d), Some(i)) = (data.shape.rank(), indices.shape.rank()) {
        if d != i {
            return Err(ShapeError::rule(
                "scatter-elements-rank",
                format!("indices must have the data's rank {d}, got {i}"),
            ));
        }
    }
    if let (Some(idims), Some(udims)) = (indices.shape.dims(), updates.shape.dims()) {
        if idims.len() != udims.len() {
            return Err(ShapeError::rule(
                "scatter-updates-shape",
                format!(
                    "updates must have the indices' shape, got ranks {} and {}",
                    udims.len(),
                    idims.len()
                ),
            ));
        }
        for (i, (u, ix)) in udims.iter().zip(idims).enumerate() {
            support::merge_equal_dims(
                ctx,
                u,
                ix,
                "scatter-updates-shape",
                &format!("dim {i} of updates and indices"),
            )?;
        }
    }
    let out = TensorInfo::new(et, data.shape.clone());
    if let (Some(rank), Some(axis)) = (
        data.shape.rank(),
        support::input_ints(call, 3).and_then(|v| v.first().copied()),
    ) {
        let axis = support::normalize_axis(axis, rank, "axis")?;
        if let Some(v) = updated_values(call, axis) {
            return Ok(vec![out.with_value(v)]);
        }
    }
    Ok(vec![out])
}

/// The updated values (no reduction) when `data` and `updates` have values,
/// both shapes are static and the indices are constants in range.
fn updated_values(call: &OpCall<'_>, axis: usize) -> Option<Vec<Dim>> {
    if support::reduces(call, 12) {
        return None;
    }
    let values = support::input_values(call, 0)?;
    let updates = support::input_values(call, 2)?;
    let indices = support::input_ints(call, 1)?;
    let static_dims = |i: usize| support::static_dims(call.inputs[i].shape.dims()?);
    let (ds, is) = (static_dims(0)?, static_dims(1)?);
    if values.len() > support::MAX_VALUE_ELEMENTS
        || ds.iter().product::<usize>() != values.len()
        || is.iter().product::<usize>() != indices.len()
        || updates.len() != indices.len()
        || is
            .iter()
            .zip(&ds)
            .enumerate()
            .any(|(i, (n, d))| i != axis && n > d)
    {
        return None;
    }
    let mut out = values.to_vec();
    for (k, (&i, u)) in indices.iter().zip(updates).enumerate() {
        let len = ds[axis];
        let i = if i < 0 { i.checked_add(len as i64)? } else { i };
        let i = usize::try_from(i).ok().filter(|&i| i < len)?;
        // The coordinate of element k of the indices, with `i` on `axis`.
        let (mut rest, mut dst, mut stride) = (k, 0usize, 1usize);
        for d in (0..is.len()).rev() {
            let c = if d == axis { i } else { rest % is[d] };
            rest /= is[d];
            dst += c * stride;
            stride *= ds[d];
        }
        *out.get_mut(dst)? = u.clone();
    }
    Some(out)
}
