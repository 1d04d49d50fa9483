//! Compress-1 of the project's opset (`type="Compress" version="ovir1"`):
//! ONNX Compress-11 / `numpy.compress`. Not an OpenVINO op; see
//! `docs/project-opset.md` for how it is written in the XML.
//!
//! Input 0 is the data, input 1 a 1-D boolean condition. With an `axis`, the
//! slices along it whose condition is true are kept; without one, the data is
//! flattened first. Only the first `min(len(cond), dim)` positions count: a
//! shorter condition drops the slices past its end (ONNX), a longer one is
//! truncated to the dim (a warning: ONNX only allows a shorter one).

use std::cmp::Ordering;

use ir::{Dim, ElementType, Shape};
use symdim::Expr;

use super::support::{
    data_dependent_count, element_count, nonzero_positions, normalize_axis, static_dims,
};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Compress",
    versions: super::SINCE_OVIR1,
    infer,
    doc: OpDoc {
        summary: "Project op (`ovir1`, ONNX Compress-11): keeps the slices of input 0 along `axis` (or the elements of the flattened input) where the 1-D boolean condition (input 1) is true.",
        attributes: "`axis` (optional, in `[-r, r-1]`; absent: the input is flattened first)",
        symbolic: "the kept dim is the count of true values among the first `min(len(cond), dim)` positions: static when the condition is a known constant, else a fresh symbol `c ∈ [0, min(len(cond), dim)]` created by the layer (symbolic upper bound kept); other dims are kept; unknown data rank gives unknown rank with an axis, `[c]` without",
        errors: "`compress-condition-rank` (condition not 1-D), `compress-data-rank` (scalar data), `axis-out-of-range`, `element-type` (condition not boolean); warning `compress-condition-too-long` (condition provably longer than the dim: truncated)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let (data, cond) = (&call.inputs[0], &call.inputs[1]);
    let t = cond.element_type;
    if t.is_static() && t != ElementType::Boolean {
        return Err(ShapeError::ElementType {
            what: "input 1 (condition)".to_owned(),
            message: format!("must be a boolean tensor, got {t}"),
        });
    }
    let cond_len = match &cond.shape {
        Shape::DynamicRank => None,
        Shape::Ranked(dims) => match dims.as_slice() {
            [len] => Some(len.clone()),
            _ => {
                return Err(ShapeError::rule(
                    "compress-condition-rank",
                    format!(
                        "the condition (input 1) must be 1-D, got rank {} ({})",
                        dims.len(),
                        cond.shape.display(&ctx.symbols)
                    ),
                ))
            }
        },
    };
    let axis = call.node.attributes.i64("axis")?;

    // The dims of the data, and the index of the compressed one (`None`
    // when flattening).
    let dims = match &data.shape {
        Shape::Ranked(dims) if dims.is_empty() => {
            return Err(ShapeError::rule(
                "compress-data-rank",
                "the data (input 0) must have rank 1 or more, got a scalar",
            ))
        }
        Shape::Ranked(dims) => Some(dims.as_slice()),
        Shape::DynamicRank => None,
    };
    let axis = match (axis, dims) {
        (Some(a), Some(dims)) => Some(normalize_axis(a, dims.len(), "axis")?),
        _ => None,
    };
    // The length along which the condition applies: the axis dim, or the
    // element count when flattening (unknown for unknown rank).
    let length = match (axis, dims) {
        (Some(a), Some(dims)) => Some(dims[a].clone()),
        (None, Some(dims)) => Some(element_count(dims)?),
        (_, None) => None,
    };
    if let (Some(len), Some(length)) = (&cond_len, &length) {
        if ctx.symbols.compare(len, length) == Some(Ordering::Greater) {
            ctx.warn(
                "compress-condition-too-long",
                format!(
                    "the condition has {} elements but the compressed {} has {}; only the first {} are used (ONNX only allows a shorter condition)",
                    ctx.symbols.display(len),
                    if axis.is_some() { "axis" } else { "flattened input" },
                    ctx.symbols.display(length),
                    ctx.symbols.display(length),
                ),
            );
        }
    }
    let positions = kept_positions(ctx, cond, length.as_ref());
    let count = match &positions {
        Some(p) => Expr::constant(i64::try_from(p.len()).unwrap_or(i64::MAX)),
        None => {
            let upper = upper_bound(ctx, cond, cond_len.as_ref(), length.as_ref())?;
            data_dependent_count(
                ctx,
                call,
                upper.as_ref(),
                "count of true condition values kept by Compress",
            )?
        }
    };

    let output = match (call.node.attributes.get("axis"), dims, axis) {
        // With an axis on data of unknown rank, only the type is known.
        (Some(_), None, _) => TensorInfo::new(data.element_type, Shape::DynamicRank),
        (_, Some(dims), Some(a)) => {
            let mut out: Vec<Dim> = dims.to_vec();
            out[a] = count;
            let tensor = TensorInfo::new(data.element_type, Shape::ranked(out));
            tensor.with_value(compress_values(data, dims, a, positions.as_deref()))
        }
        _ => {
            let tensor = TensorInfo::new(data.element_type, Shape::ranked([count]));
            match (&data.value, &positions) {
                (Some(values), Some(p)) => tensor.with_value(
                    p.iter()
                        .map(|&i| values.get(i).cloned())
                        .collect::<Option<Vec<_>>>(),
                ),
                _ => tensor,
            }
        }
    };
    Ok(vec![output])
}

/// The positions (among the first `min(len(cond), length)`) whose condition
/// is true, when the condition's value decides them.
pub(super) fn kept_positions(
    ctx: &InferContext,
    cond: &TensorInfo,
    length: Option<&Dim>,
) -> Option<Vec<usize>> {
    let mut positions = nonzero_positions(cond.value.as_deref()?)?;
    let Some(&last) = positions.last() else {
        return Some(positions);
    };
    let Some(length) = length else {
        // Unknown length: decided only when nothing is true.
        return None;
    };
    let needed = i64::try_from(last).ok()?.checked_add(1)?;
    let slack = length.add_const(-needed).ok()?;
    if ctx
        .symbols
        .bounds(&slack)
        .ok()?
        .lo
        .is_some_and(|lo| lo >= 0)
    {
        // Every true position is within the length.
        return Some(positions);
    }
    let length = usize::try_from(length.as_constant()?).ok()?;
    positions.retain(|&p| p < length);
    Some(positions)
}

/// The bound of the kept count: `min(len(cond), length)`, and no more than
/// the number of true values when the condition's value is known. Constant
/// candidates are combined first, so `min(N, 2)` rather than
/// `min(min(N, 4), 2)`.
pub(super) fn upper_bound(
    ctx: &InferContext,
    cond: &TensorInfo,
    cond_len: Option<&Dim>,
    length: Option<&Dim>,
) -> Result<Option<Dim>, ShapeError> {
    let trues = cond
        .value
        .as_deref()
        .and_then(nonzero_positions)
        .map(|p| Expr::constant(i64::try_from(p.len()).unwrap_or(i64::MAX)));
    let mut candidates: Vec<Dim> = [cond_len.cloned(), length.cloned(), trues]
        .into_iter()
        .flatten()
        .collect();
    candidates.sort_by_key(|c| !c.is_constant());
    let mut upper: Option<Dim> = None;
    for c in candidates {
        upper = Some(match upper {
            Some(u) => ctx.symbols.min(&u, &c)?,
            None => c,
        });
    }
    Ok(upper)
}

/// The elements of the data kept along `axis`, when the data's value and
/// static shape and the kept positions are known.
fn compress_values(
    data: &TensorInfo,
    dims: &[Dim],
    axis: usize,
    positions: Option<&[usize]>,
) -> Option<Vec<Dim>> {
    let (values, positions) = (data.value.as_ref()?, positions?);
    let dims = static_dims(dims)?;
    let outer: usize = dims[..axis]
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))?;
    let inner: usize = dims[axis + 1..]
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))?;
    let along = dims[axis];
    if outer.checked_mul(along)?.checked_mul(inner)? != values.len() {
        return None;
    }
    let mut out = Vec::with_capacity(outer * positions.len() * inner);
    for o in 0..outer {
        for &p in positions {
            let start = (o * along + p) * inner;
            out.extend_from_slice(values.get(start..start + inner)?);
        }
    }
    Some(out)
}
