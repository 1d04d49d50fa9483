//! CumSum-3: cumulative sums along `axis` (input 1, a scalar; absent: 0).
//! The output has the data's shape and type.
//!
//! OpenVINO checks only the axis type (i32 or i64) when it reads a model; its
//! CPU plugin rejects an axis that is not a scalar and an axis out of range.
//! Here a known axis out of range is an error, a one-element 1-D axis is
//! taken with a warning, and an axis of more elements is an error. Scalar
//! data (which the spec excludes but OpenVINO runs) takes axis 0 or -1.
//!
//! A 1-D value vector summed along axis 0 carries its running sums (shape
//! subgraphs).

use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "CumSum",
    versions: &[OpVersion::openvino(3, 3)],
    infer,
    doc: OpDoc {
        summary: "Cumulative sum along `axis` (input 1, scalar i32/i64, default 0; negative counts from the end).",
        attributes: "`exclusive` (default false: the j-th sum includes element j), `reverse` (default false: sums run from the end when true)",
        symbolic: "output = data shape and type; a 1-D value vector carries its running sums",
        errors: "`element-type` for an axis other than i32/i64; `axis-out-of-range`; `axis-not-scalar` for an axis of more than one element (one element in a 1-D axis: warning `cumsum-axis-shape`, OpenVINO's CPU plugin rejects it)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 2)?;
    let exclusive = support::bool_attr(ctx, call, "exclusive", false);
    let reverse = support::bool_attr(ctx, call, "reverse", false);
    let data = &call.inputs[0];
    let mut axis = Some(0);
    if let Some(a) = call.inputs.get(1) {
        support::expect_index_input(call, 1, "axis (input 1)")?;
        axis = support::scalar_int_input(call, 1, "axis (input 1)")?;
        if a.shape.rank().is_some_and(|r| r > 0) {
            ctx.warn(
                "cumsum-axis-shape",
                "the axis is not a scalar: OpenVINO reads it, but its CPU plugin rejects it",
            );
        }
    }
    let out = TensorInfo::new(data.element_type, data.shape.clone());
    let (Some(axis), Some(rank)) = (axis, data.shape.rank()) else {
        return Ok(vec![out]);
    };
    // Scalar data sums over its single element, as OpenVINO's CPU plugin.
    support::normalize_axis(axis, rank.max(1), "axis")?;
    let value = match support::input_values(call, 0) {
        Some(v) if rank == 1 => running_sums(v, exclusive, reverse),
        _ => None,
    };
    Ok(vec![out.with_value(value)])
}

fn running_sums(values: &[ir::Dim], exclusive: bool, reverse: bool) -> Option<Vec<ir::Dim>> {
    let n = values.len();
    let mut out = vec![Expr::zero(); n];
    let mut acc = Expr::zero();
    let order: Vec<usize> = if reverse {
        (0..n).rev().collect()
    } else {
        (0..n).collect()
    };
    for i in order {
        if exclusive {
            out[i] = acc.clone();
            acc = acc.add(&values[i]).ok()?;
        } else {
            acc = acc.add(&values[i]).ok()?;
            out[i] = acc.clone();
        }
    }
    Some(out)
}
