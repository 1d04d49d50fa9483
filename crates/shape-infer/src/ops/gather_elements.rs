//! GatherElements-6: `out[i0, .., ik, ..] = data[i0, .., indices[i0, .., ik, ..], ..]`
//! with `ik` on `axis`.
//!
//! The output has the indices' shape. OpenVINO requires data and indices of
//! the same rank whose dims other than `axis` are equal (its shape inference
//! merges them), and i32 or i64 indices. When `data` carries values (a
//! ShapeOf output) and the indices are constants, the gathered values
//! propagate.

use ir::{Dim, ElementType, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "GatherElements",
    versions: &[OpVersion::openvino(6, 6)],
    infer,
    doc: OpDoc {
        summary: "Picks one element of `data` per index along `axis`: `out[.., i, ..] = data[.., indices[.., i, ..], ..]`; the output has the indices' shape.",
        attributes: "`axis` (default 0; negative counts from the data's rank)",
        symbolic: "the indices' dims, each dim other than `axis` merged with the data's (an undecidable equality is a constraint); data of unknown rank gives the indices' shape, indices of unknown rank the data's shape with a fresh dim at `axis`; with values in `data` and constant indices the gathered values propagate (negative indices count from the end)",
        errors: "`element-type` (indices not i32 or i64), `gather-elements-rank` (data or indices of rank 0, ranks differ), `axis-out-of-range`, `gather-elements-dims` (a dim other than `axis` differs)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let (data, indices) = (&call.inputs[0], &call.inputs[1]);
    let it = indices.element_type;
    if it.is_static() && !matches!(it, ElementType::I32 | ElementType::I64) {
        return Err(ShapeError::ElementType {
            what: "indices (input 1)".to_owned(),
            message: format!("must be i32 or i64, got {it}"),
        });
    }
    let raw_axis = call.node.attributes.i64("axis")?.unwrap_or(0);
    if indices.shape.rank() == Some(0) {
        return Err(ShapeError::rule(
            "gather-elements-rank",
            "indices must have a rank of at least 1",
        ));
    }
    let Some(ddims) = data.shape.dims() else {
        return Ok(vec![TensorInfo::new(
            data.element_type,
            indices.shape.clone(),
        )]);
    };
    if ddims.is_empty() {
        return Err(ShapeError::rule(
            "gather-elements-rank",
            "data must have a rank of at least 1",
        ));
    }
    let axis = support::normalize_axis(raw_axis, ddims.len(), "axis")?;
    let Some(idims) = indices.shape.dims() else {
        let mut out = ddims.to_vec();
        out[axis] = support::unknown_dim(
            ctx,
            "dim `axis` of GatherElements with indices of unknown rank",
        );
        return Ok(vec![TensorInfo::new(data.element_type, Shape::ranked(out))]);
    };
    if idims.len() != ddims.len() {
        return Err(ShapeError::rule(
            "gather-elements-rank",
            format!(
                "data and indices must have the same rank, got {} and {}",
                ddims.len(),
                idims.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(idims.len());
    for (i, (d, ix)) in ddims.iter().zip(idims).enumerate() {
        out.push(if i == axis {
            ix.clone()
        } else {
            support::merge_equal_dims(
                ctx,
                ix,
                d,
                "gather-elements-dims",
                &format!("dim {i} of indices and data"),
            )?
        });
    }
    let value = gathered_values(call, ddims, &out, axis);
    let tensor = TensorInfo::new(data.element_type, Shape::ranked(out));
    Ok(vec![tensor.with_value(value)])
}

/// The gathered values when `data` has values and both shapes are static and
/// the indices are constants in range.
fn gathered_values(
    call: &OpCall<'_>,
    ddims: &[Dim],
    odims: &[Dim],
    axis: usize,
) -> Option<Vec<Dim>> {
    let values = support::input_values(call, 0)?;
    let indices = support::input_ints(call, 1)?;
    let (dshape, oshape) = (support::static_dims(ddims)?, support::static_dims(odims)?);
    let total = oshape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))?;
    if total > support::MAX_VALUE_ELEMENTS
        || indices.len() != total
        || dshape.iter().product::<usize>() != values.len()
    {
        return None;
    }
    let inner: usize = oshape[axis + 1..].iter().product();
    let (ilen, dlen) = (oshape[axis], dshape[axis]);
    let mut out = Vec::with_capacity(total);
    for (k, &i) in indices.iter().enumerate() {
        let i = if i < 0 {
            i.checked_add(dlen as i64)?
        } else {
            i
        };
        let i = usize::try_from(i).ok().filter(|&i| i < dlen)?;
        let (outer, rest) = (k / (ilen * inner), k % inner);
        out.push(values.get((outer * dlen + i) * inner + rest)?.clone());
    }
    Some(out)
}
