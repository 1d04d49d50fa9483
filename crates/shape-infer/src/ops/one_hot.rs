//! OneHot-1 and OneHot-16: `indices` expanded along a new axis of size
//! `depth`, `on_value` where the index equals the position and `off_value`
//! elsewhere. OneHot-16 adds `negative_indices_mode`: `ignore_negative`
//! (the default, as OneHot-1: a negative index matches nothing) or
//! `normalize` (an index in `[-depth, -1]` counts from the end).
//!
//! The output has the indices' shape with `depth` inserted at `axis`
//! (`-rank-1..=rank`), of the on/off values' type; `depth` is the
//! propagated value where known (an expression when read from a shape).

use ir::{Dim, Shape};
use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "OneHot",
    versions: &[OpVersion::openvino(1, 1), OpVersion::openvino(16, 16)],
    infer,
    doc: OpDoc {
        summary: "One-hot encoding: a new axis of size `depth` holding `on_value` at each index and `off_value` elsewhere.",
        attributes: "`axis` (`-rank-1..=rank` of the indices), v16: `negative_indices_mode` (`ignore_negative` default, `normalize`)",
        symbolic: "the indices' shape with `depth` inserted at `axis`; `depth` from the propagated value (expressions kept), else a fresh dim",
        errors: "`one-hot-scalar` (depth, on_value or off_value not a scalar), `one-hot-depth` (a negative depth), `axis-out-of-range`, `element-type` (non-integer indices or depth, on/off values of different types), `attribute-invalid` (`negative_indices_mode`)",
    },
};

/// Whether OneHot-16's `negative_indices_mode` is `normalize`.
pub fn normalizes_negative(attributes: &ir::Attributes, version: u32) -> Result<bool, ShapeError> {
    if version < 16 {
        return Ok(false);
    }
    match attributes.get("negative_indices_mode").map(str::trim) {
        None | Some("ignore_negative") => Ok(false),
        Some("normalize") => Ok(true),
        Some(other) => Err(ShapeError::rule(
            "attribute-invalid",
            format!("negative_indices_mode `{other}` is not ignore_negative or normalize"),
        )),
    }
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(4, 4)?;
    normalizes_negative(&call.node.attributes, call.version)?;
    support::expect_integer_input(call, 0, "indices (input 0)")?;
    support::expect_integer_input(call, 1, "depth (input 1)")?;
    let et = support::expect_same_type(call, 2, 3)?;
    for (i, name) in [(1, "depth"), (2, "on_value"), (3, "off_value")] {
        if let Some(r) = call.inputs[i].shape.rank().filter(|&r| r != 0) {
            return Err(ShapeError::rule(
                "one-hot-scalar",
                format!("{name} (input {i}) must be a scalar, got rank {r}"),
            ));
        }
    }
    let axis =
        call.node.attributes.i64("axis")?.ok_or_else(|| {
            ShapeError::rule("attribute-invalid", "the `axis` attribute is missing")
        })?;
    let Some(dims) = call.inputs[0].shape.dims() else {
        return Ok(vec![TensorInfo::new(et, Shape::DynamicRank)]);
    };
    let axis = support::normalize_axis(axis, dims.len() + 1, "axis")?;
    let depth: Dim = match support::input_values(call, 1) {
        Some([d]) => {
            if let Some(c) = d.as_constant().filter(|&c| c < 0) {
                return Err(ShapeError::rule(
                    "one-hot-depth",
                    format!("depth is {c}; it must not be negative"),
                ));
            }
            ctx.assume(Predicate::Ge(d.clone(), Expr::zero()))?;
            d.clone()
        }
        _ => support::unknown_dim(ctx, "OneHot's depth, known only at run time"),
    };
    let mut out = dims.to_vec();
    out.insert(axis, depth);
    Ok(vec![TensorInfo::new(et, Shape::ranked(out))])
}
