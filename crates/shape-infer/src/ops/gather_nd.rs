//! GatherND-5 and GatherND-8: slices of `data` picked by index tuples (the
//! last dim of `indices`), after `batch_dims` leading dims shared by both.
//!
//! Output shape (v8) `indices[:b] + indices[b:-1] + data[b + k:]` with
//! `k = indices[-1]`; GatherND-5 folds the `b` batch dims into their product
//! when `b > 1`. When the last dim of `indices` is not a known number the
//! rank is unknown (as OpenVINO). When `data` carries values (a ShapeOf
//! output) and the indices are constants, the gathered values propagate:
//! `GatherND(ShapeOf [N, 3, H], [[0], [2]])` is `[N, H]`.

use ir::{Dim, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "GatherND",
    versions: &[OpVersion::openvino(5, 5), OpVersion::openvino(8, 8)],
    infer,
    doc: OpDoc {
        summary: "Gathers the slices of `data` addressed by the index tuples in the last dim of `indices`: `indices[:b] + indices[b:-1] + data[b + indices[-1]:]` (v8); GatherND-5 folds the `b` batch dims into their product when `b > 1`.",
        attributes: "`batch_dims` (`b`, default 0, below both ranks)",
        symbolic: "dims copied symbolically, the batch dims of data and indices merged (an undecidable equality is a constraint), v5's folded batch dim their product; an index tuple length not known gives an unknown rank (as OpenVINO); with values in `data` and constant indices the gathered values propagate (negative indices count from the end)",
        errors: "`element-type` (non-integer indices), `gather-nd-rank` (data or indices of rank 0), `gather-nd-batch-dims` (`batch_dims` negative or not below a rank, differing batch dims), `gather-nd-index-length` (tuple length plus `batch_dims` above the data's rank)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    support::expect_integer_input(call, 1, "indices (input 1)")?;
    let (data, indices) = (&call.inputs[0], &call.inputs[1]);
    let raw = call.node.attributes.i64("batch_dims")?.unwrap_or(0);
    let bd = usize::try_from(raw).map_err(|_| {
        ShapeError::rule(
            "gather-nd-batch-dims",
            format!("batch_dims {raw} must not be negative"),
        )
    })?;
    for (what, shape) in [("data", &data.shape), ("indices", &indices.shape)] {
        match shape.rank() {
            Some(0) => {
                return Err(ShapeError::rule(
                    "gather-nd-rank",
                    format!("{what} must have a rank of at least 1"),
                ))
            }
            Some(r) if bd >= r => {
                return Err(ShapeError::rule(
                    "gather-nd-batch-dims",
                    format!("batch_dims {bd} must be below the rank of {what} ({r})"),
                ))
            }
            _ => {}
        }
    }
    let unknown = TensorInfo::new(data.element_type, Shape::DynamicRank);
    let (Some(ddims), Some(idims)) = (data.shape.dims(), indices.shape.dims()) else {
        return Ok(vec![unknown]);
    };
    let Some(k) = idims[idims.len() - 1].as_constant() else {
        return Ok(vec![unknown]);
    };
    let k = usize::try_from(k).unwrap_or(usize::MAX);
    if k.saturating_add(bd) > ddims.len() {
        return Err(ShapeError::rule(
            "gather-nd-index-length",
            format!(
                "index tuples of length {k} with batch_dims {bd} exceed the data's rank {}",
                ddims.len()
            ),
        ));
    }
    let mut batch: Vec<Dim> = Vec::with_capacity(bd);
    for i in 0..bd {
        batch.push(support::merge_equal_dims(
            ctx,
            &ddims[i],
            &idims[i],
            "gather-nd-batch-dims",
            &format!("batch dim {i} of data and indices"),
        )?);
    }
    let mut out: Vec<Dim> = if call.version < 8 && bd > 1 {
        vec![support::element_count(&batch)?]
    } else {
        batch
    };
    out.extend(idims[bd..idims.len() - 1].iter().cloned());
    out.extend(ddims[bd + k..].iter().cloned());
    let value = if bd == 0 {
        gathered_values(call, ddims, k)
    } else {
        None
    };
    let tensor = TensorInfo::new(data.element_type, Shape::ranked(out));
    Ok(vec![tensor.with_value(value)])
}

/// The gathered values (`batch_dims` 0) when `data` has values and a static
/// shape and the indices are constants in range.
fn gathered_values(call: &OpCall<'_>, ddims: &[Dim], k: usize) -> Option<Vec<Dim>> {
    let values = support::input_values(call, 0)?;
    let indices = support::input_ints(call, 1)?;
    let shape = support::static_dims(ddims)?;
    if shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))? != values.len() {
        return None;
    }
    let slice: usize = shape[k..].iter().product();
    let tuples = indices.len().checked_div(k)?;
    if tuples.checked_mul(slice)? > support::MAX_VALUE_ELEMENTS {
        return None;
    }
    let mut out = Vec::with_capacity(tuples * slice);
    for tuple in indices.chunks_exact(k) {
        let mut offset = 0usize;
        for (&i, &dim) in tuple.iter().zip(&shape) {
            let i = if i < 0 { i.checked_add(dim as i64)? } else { i };
            let i = usize::try_from(i).ok().filter(|&i| i < dim)?;
            offset = offset * dim + i;
        }
        let start = offset * slice;
        out.extend_from_slice(values.get(start..start + slice)?);
    }
    Some(out)
}
