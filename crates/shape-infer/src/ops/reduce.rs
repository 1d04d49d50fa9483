//! ReduceSum-1, ReduceProd-1, ReduceMax-1, ReduceMin-1, ReduceMean-1,
//! ReduceL1-4, ReduceL2-4, ReduceLogicalAnd-1, ReduceLogicalOr-1: one rule.
//! ReduceL1/L2 take numeric data (not boolean), the logical ones boolean
//! data, as OpenVINO checks them.
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
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
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
        symbolic: "reduced dims vanish (or become 1); a 1-D value vector reduced over axis 0 carries the symbolic sum; axes known only at run time keep the rank (keep_dims, or one axis: rank - 1) with dims ranging over what they can be, else an unknown rank",
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
        symbolic: "reduced dims vanish (or become 1); a 1-D value vector reduced over axis 0 carries the symbolic product (`ShapeOf -> StridedSlice -> ReduceProd` gives `3*H*W`); axes known only at run time keep the rank (keep_dims, or one axis: rank - 1) with dims ranging over what they can be, else an unknown rank",
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
        symbolic: "reduced dims vanish (or become 1); a 1-D value vector reduced over axis 0 carries the range-aware `max` of its elements; axes known only at run time keep the rank (keep_dims, or one axis: rank - 1) with dims ranging over what they can be, else an unknown rank",
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
        symbolic: "reduced dims vanish (or become 1); a 1-D value vector reduced over axis 0 carries the range-aware `min` of its elements; axes known only at run time keep the rank (keep_dims, or one axis: rank - 1) with dims ranging over what they can be, else an unknown rank",
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
        symbolic: "reduced dims vanish (or become 1); no value propagation; axes known only at run time keep the rank (keep_dims, or one axis: rank - 1) with dims ranging over what they can be, else an unknown rank",
        errors: ERRORS,
    },
};

const OPSET4: &[OpVersion] = &[OpVersion::openvino(4, 4)];
const NO_VALUES: &str = "reduced dims vanish (or become 1); no value propagation; axes known only at run time keep the rank (keep_dims, or one axis: rank - 1) with dims ranging over what they can be, else an unknown rank";
const LOGICAL_VALUES: &str = "reduced dims vanish (or become 1); a 1-D boolean value vector reduced over axis 0 carries its result; axes known only at run time keep the rank (keep_dims, or one axis: rank - 1) with dims ranging over what they can be, else an unknown rank";

pub static L1: OpDef = OpDef {
    type_name: "ReduceL1",
    versions: OPSET4,
    infer: infer_l1,
    doc: OpDoc {
        summary: "L1 norm (sum of absolute values) over the `axes`; integers: computed exactly and saturated to the type.",
        attributes: ATTRIBUTES,
        symbolic: NO_VALUES,
        errors: "`element-type` for boolean data; non-integer `axes`, `axes` of rank above 1, an axis out of range",
    },
};

pub static L2: OpDef = OpDef {
    type_name: "ReduceL2",
    versions: OPSET4,
    infer: infer_l2,
    doc: OpDoc {
        summary: "L2 norm (square root of the sum of squares) over the `axes`; integers: truncated, as OpenVINO's CPU plugin.",
        attributes: ATTRIBUTES,
        symbolic: NO_VALUES,
        errors: "`element-type` for boolean data; non-integer `axes`, `axes` of rank above 1, an axis out of range",
    },
};

pub static LOGICAL_AND: OpDef = OpDef {
    type_name: "ReduceLogicalAnd",
    versions: super::SINCE_OPSET1,
    infer: infer_logical_and,
    doc: OpDoc {
        summary: "Logical and over the `axes` (true over an empty set).",
        attributes: ATTRIBUTES,
        symbolic: LOGICAL_VALUES,
        errors: "`element-type` for non-boolean data; non-integer `axes`, `axes` of rank above 1, an axis out of range",
    },
};

pub static LOGICAL_OR: OpDef = OpDef {
    type_name: "ReduceLogicalOr",
    versions: super::SINCE_OPSET1,
    infer: infer_logical_or,
    doc: OpDoc {
        summary: "Logical or over the `axes` (false over an empty set).",
        attributes: ATTRIBUTES,
        symbolic: LOGICAL_VALUES,
        errors: "`element-type` for non-boolean data; non-integer `axes`, `axes` of rank above 1, an axis out of range",
    },
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Sum,
    Prod,
    Max,
    Min,
    Mean,
    L1,
    L2,
    LogicalAnd,
    LogicalOr,
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

fn infer_l1(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    reduce(ctx, call, Kind::L1)
}
fn infer_l2(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    reduce(ctx, call, Kind::L2)
}
fn infer_logical_and(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
) -> Result<Vec<TensorInfo>, ShapeError> {
    reduce(ctx, call, Kind::LogicalAnd)
}
fn infer_logical_or(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
) -> Result<Vec<TensorInfo>, ShapeError> {
    reduce(ctx, call, Kind::LogicalOr)
}

/// The data element types OpenVINO accepts for `kind` (the arithmetic
/// reductions of opset1 check none).
fn check_data_type(call: &OpCall<'_>, kind: Kind) -> Result<(), ShapeError> {
    let t = call.inputs[0].element_type;
    if !t.is_static() {
        return Ok(());
    }
    let boolean = t == ir::ElementType::Boolean;
    let message = match kind {
        Kind::L1 | Kind::L2 if boolean => "must be numeric, got boolean".to_owned(),
        Kind::LogicalAnd | Kind::LogicalOr if !boolean => format!("must be boolean, got {t}"),
        _ => return Ok(()),
    };
    Err(ShapeError::ElementType {
        what: "data (input 0)".to_owned(),
        message,
    })
}

fn reduce(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    kind: Kind,
) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    check_data_type(call, kind)?;
    support::expect_integer_input(call, 1, "axes (input 1)")?;
    support::expect_rank_le1(call, 1, "axes (input 1)", true)?;
    let keep_dims = support::bool_attr(ctx, call, "keep_dims", false);
    let data = &call.inputs[0];
    let element_type = data.element_type;
    let Some(dims) = data.shape.dims() else {
        return Ok(vec![TensorInfo::new(element_type, Shape::DynamicRank)]);
    };
    let Some(raw_axes) = support::input_ints(call, 1) else {
        return Ok(vec![TensorInfo::new(
            element_type,
            unknown_axes(ctx, call, dims, keep_dims)?,
        )]);
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

/// The output shape when the axes are known only at run time. With
/// `keep_dims` the rank stays and each dim is its input dim or 1; without,
/// the number of axes (the axes input's static length) decides the rank when
/// it is 0 (no reduction) or 1 (rank - 1, each output dim one of the two
/// input dims it may come from), as OpenVINO; more axes may repeat, so the
/// rank is unknown. Each unknown dim is a fresh symbol whose range is the
/// hull of what it can be.
fn unknown_axes(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    dims: &[Dim],
    keep_dims: bool,
) -> Result<Shape, ShapeError> {
    let one = Expr::one();
    let axis_count = match call.inputs[1].shape.dims() {
        Some([]) => Some(1),
        Some([len]) => len.as_constant(),
        _ => None,
    };
    if keep_dims {
        let out = dims
            .iter()
            .enumerate()
            .map(|(i, d)| hull_symbol(ctx, i, &[d, &one]))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(Shape::ranked(out));
    }
    Ok(match axis_count {
        Some(0) => Shape::ranked(dims.to_vec()),
        Some(1) if !dims.is_empty() => {
            let out = (0..dims.len() - 1)
                .map(|i| hull_symbol(ctx, i, &[&dims[i], &dims[i + 1]]))
                .collect::<Result<Vec<_>, _>>()?;
            Shape::ranked(out)
        }
        _ => Shape::DynamicRank,
    })
}

/// A fresh symbol for output dim `i`, ranging over the hull of the
/// `candidates`' bounds.
fn hull_symbol(ctx: &mut InferContext, i: usize, candidates: &[&Dim]) -> Result<Dim, ShapeError> {
    let mut range: Option<symdim::Interval> = None;
    for c in candidates {
        let b = ctx.symbols.bounds(c)?;
        range = Some(match range {
            None => b,
            Some(r) => symdim::Interval::new(
                r.lo.zip(b.lo).map(|(x, y)| x.min(y)),
                r.hi.zip(b.hi).map(|(x, y)| x.max(y)),
            ),
        });
    }
    let symbol = ctx.fresh_symbol(
        range.unwrap_or_else(symdim::Interval::nonnegative),
        format!("dim {i} of a reduction over axes known only at run time"),
    );
    Ok(Expr::symbol(symbol))
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
    if matches!(kind, Kind::L1 | Kind::L2) {
        return None;
    }
    if axes.is_empty() {
        return Some(values.to_vec());
    }
    if rank != 1 {
        return None;
    }
    if matches!(kind, Kind::LogicalAnd | Kind::LogicalOr) {
        let bits = values
            .iter()
            .map(|v| v.as_constant().map(|c| c != 0))
            .collect::<Option<Vec<bool>>>()?;
        let r = if kind == Kind::LogicalAnd {
            bits.iter().all(|&b| b)
        } else {
            bits.iter().any(|&b| b)
        };
        return Some(vec![Expr::constant(i64::from(r))]);
    }
    let (first, rest) = values.split_first()?;
    let mut acc = first.clone();
    for v in rest {
        acc = match kind {
            Kind::Sum => acc.add(v).ok()?,
            Kind::Prod => acc.mul(v).ok()?,
            Kind::Max => ctx.symbols.max(&acc, v).ok()?,
            Kind::Min => ctx.symbols.min(&acc, v).ok()?,
            Kind::Mean | Kind::L1 | Kind::L2 | Kind::LogicalAnd | Kind::LogicalOr => return None,
        };
    }
    Some(vec![acc])
}
