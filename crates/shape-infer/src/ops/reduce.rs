//! ReduceSum-1, ReduceProd-1, ReduceMax-1, ReduceMin-1, ReduceMean-1: one rule.
//!
//! The `axes` input names the reduced axes (negative counts from the rank,
//! duplicates allowed as in OpenVINO); `keep_dims` keeps them as 1s. Reducing a
//! 1-D value vector gives its sum, product, max or min as an expression: the
//! flatten pattern `ShapeOf -> StridedSlice -> ReduceProd` yields `3*H*W`.

use std::collections::BTreeSet;

use ir::{Dim, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

use super::support;

const ATTRIBUTES: &str = "`keep_dims` (default false: reduced axes are removed; true: kept as 1)";
const ERRORS: &str = "non-integer `axes`, `axes` of rank above 1, an axis out of range";

pub static SUM: OpDef = OpDef {
    type_name: "ReduceSum",
    versions: super::SINCE_OPSET1,
    infer: infer_sum,
    doc: OpDoc {
        summary: "Sum over the `axes`.",
        attributes: ATTRIBUTES,
        symbolic: "reduced dims vanish (or become 1); a 1-D value vector reduced over axis 0 carries the symbolic sum; unknown axes give fresh dims (keep_dims) or an unknown rank",
        errors: ERRORS,
    },
};

pub static PROD: OpDef = OpDef {
    type_name: "ReduceProd",
    versions: super::SINCE_OPSET1,
    infer: infer_prod,
    doc: OpDoc {
        summary: "Product over the `axes`.",
        attributes: ATTRIBUTES,
        symbolic: "reduced dims vanish (or become 1); a 1-D value vector reduced over axis 0 carries the symbolic product (`ShapeOf -> StridedSlice -> ReduceProd` gives `3*H*W`); unknown axes give fresh dims (keep_dims) or an unknown rank",
        errors: ERRORS,
    },
};

pub static MAX: OpDef = OpDef {
    type_name: "ReduceMax",
    versions: super::SINCE_OPSET1,
    infer: infer_max,
    doc: OpDoc {
        summary: "Maximum over the `axes`.",
        attributes: ATTRIBUTES,
        symbolic: "reduced dims vanish (or become 1); a 1-D value vector reduced over axis 0 carries the range-aware `max` of its elements; unknown axes give fresh dims (keep_dims) or an unknown rank",
        errors: ERRORS,
    },
};

pub static MIN: OpDef = OpDef {
    type_name: "ReduceMin",
    versions: super::SINCE_OPSET1,
    infer: infer_min,
    doc: OpDoc {
        summary: "Minimum over the `axes`.",
        attributes: ATTRIBUTES,
        symbolic: "reduced dims vanish (or become 1); a 1-D value vector reduced over axis 0 carries the range-aware `min` of its elements; unknown axes give fresh dims (keep_dims) or an unknown rank",
        errors: ERRORS,
    },
};

pub static MEAN: OpDef = OpDef {
    type_name: "ReduceMean",
    versions: super::SINCE_OPSET1,
    infer: infer_mean,
    doc: OpDoc {
        summary: "Mean over the `axes`.",
        attributes: ATTRIBUTES,
        symbolic: "reduced dims vanish (or become 1); no value propagation; unknown axes give fresh dims (keep_dims) or an unknown rank",
        errors: ERRORS,
    },
};

#[derive(Clone, Copy)]
enum Kind {
    Sum,
    Prod,
    Max,
    Min,
    Mean,
}

fn infer_sum(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    reduce(ctx, call, Kind::Sum)
}
fn infer_prod(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    reduce(ctx, call, Kind::Prod)
}
fn infer_max(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    reduce(ctx, call, Kind::Max)
}
fn infer_min(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    reduce(ctx, call, Kind::Min)
}
fn infer_mean(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    reduce(ctx, call, Kind::Mean)
}

fn reduce(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    kind: Kind,
) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    support::expect_integer_input(call, 1, "axes (input 1)")?;
    support::expect_rank_le1(call, 1, "axes (input 1)", true)?;
    let keep_dims = support::bool_attr(ctx, call, "keep_dims", false);
    let data = &call.inputs[0];
    let element_type = data.element_type;
    let Some(dims) = data.shape.dims() else {
        return Ok(vec![TensorInfo::new(element_type, Shape::DynamicRank)]);
    };
    let Some(raw_axes) = support::input_ints(call, 1) else {
        if !keep_dims {
            return Ok(vec![TensorInfo::new(element_type, Shape::DynamicRank)]);
        }
        let out: Vec<Dim> = (0..dims.len())
            .map(|i| {
                support::unknown_dim(
                    ctx,
                    format!("dim {i} of a reduction over axes known only at run time"),
                )
            })
            .collect();
        return Ok(vec![TensorInfo::new(element_type, Shape::ranked(out))]);
    };
    let axes = raw_axes
        .iter()
        .map(|&a| support::normalize_axis(a, dims.len(), "axis"))
        .collect::<Result<BTreeSet<usize>, _>>()?;
    let out: Vec<Dim> = dims
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match (axes.contains(&i), keep_dims) {
            (false, _) => Some(d.clone()),
            (true, true) => Some(Expr::one()),
            (true, false) => None,
        })
        .collect();
    let mut tensor = TensorInfo::new(element_type, Shape::ranked(out));
    if let Some(v) = reduced_value(ctx, call, kind, dims.len(), &axes) {
        tensor = tensor.with_value(v);
    }
    Ok(vec![tensor])
}

/// The value of a reduction of a 1-D value vector over its only axis (or of any
/// value over no axis).
fn reduced_value(
    ctx: &InferContext,
    call: &OpCall<'_>,
    kind: Kind,
    rank: usize,
    axes: &BTreeSet<usize>,
) -> Option<Vec<Dim>> {
    let values = support::input_values(call, 0)?;
    if axes.is_empty() {
        return Some(values.to_vec());
    }
    if rank != 1 {
        return None;
    }
    let (first, rest) = values.split_first()?;
    let mut acc = first.clone();
    for v in rest {
        acc = match kind {
            Kind::Sum => acc.add(v).ok()?,
            Kind::Prod => acc.mul(v).ok()?,
            Kind::Max => ctx.symbols.max(&acc, v).ok()?,
            Kind::Min => ctx.symbols.min(&acc, v).ok()?,
            Kind::Mean => return None,
        };
    }
    Some(vec![acc])
}
