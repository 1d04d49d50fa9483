//! Unsqueeze-1: insert dims of size 1 at the given axes of the output.

use ir::{Dim, Shape};
use symdim::Expr;

use super::support::{self, expect_integer_input, normalize_axis};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Unsqueeze",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "The data with dims of size 1 inserted at the given axes (of the output).",
        attributes: "-",
        symbolic: "the input dims are kept as they are; values pass through",
        errors: "`unsqueeze-empty-axes`, `axis-out-of-range` (axes are relative to the output \
                 rank); a repeated axis is a `unsqueeze-duplicate-axis` warning (OpenVINO \
                 inserts it once)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    expect_integer_input(call, 1, "input 1 (axes)")?;
    let data = &call.inputs[0];
    let dynamic = || Ok(vec![TensorInfo::new(data.element_type, Shape::DynamicRank)]);
    let Some(axes_raw) = support::input_ints(call, 1) else {
        return dynamic();
    };
    if axes_raw.is_empty() {
        return Err(ShapeError::rule(
            "unsqueeze-empty-axes",
            "axes (input 1) is empty",
        ));
    }
    let Some(dims) = data.shape.dims() else {
        return dynamic();
    };
    // Duplicates count once (OpenVINO), so the output rank is the input rank
    // plus the number of distinct normalized axes; find it by trying ranks.
    let mut distinct: Vec<i64> = Vec::new();
    for &a in &axes_raw {
        if !distinct.contains(&a) {
            distinct.push(a);
        }
    }
    let mut axes: Vec<usize> = Vec::with_capacity(distinct.len());
    let out_rank = dims.len() + distinct.len();
    for &a in &distinct {
        let axis = normalize_axis(a, out_rank, "axis")?;
        if axes.contains(&axis) {
            ctx.warn(
                "unsqueeze-duplicate-axis",
                format!("axis {a} repeats output axis {axis}; it is inserted once, as in OpenVINO"),
            );
        } else {
            axes.push(axis);
        }
    }
    if distinct.len() != axes_raw.len() {
        ctx.warn(
            "unsqueeze-duplicate-axis",
            format!("axes {axes_raw:?} repeat an axis; it is inserted once, as in OpenVINO"),
        );
    }
    let out_rank = dims.len() + axes.len();
    let mut out: Vec<Dim> = Vec::with_capacity(out_rank);
    let mut rest = dims.iter();
    for i in 0..out_rank {
        if axes.contains(&i) {
            out.push(Expr::one());
        } else if let Some(d) = rest.next() {
            out.push(d.clone());
        }
    }
    let mut tensor = TensorInfo::new(data.element_type, Shape::ranked(out));
    if let Some(v) = &data.value {
        tensor = tensor.with_value(v.clone());
    }
    Ok(vec![tensor])
}
