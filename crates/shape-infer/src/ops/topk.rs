//! TopK-1, -3 and -11: the `k` largest (`mode` max) or smallest (min)
//! elements along `axis`, and their indices; both outputs have the data's
//! shape with the axis dim `k`. Version 3 adds `index_element_type`, 11
//! `stable`. A `k` below 1 is an error (OpenVINO's CPU plugin refuses it; a
//! recorded constraint where `k` is symbolic); one above the axis dim is a
//! warning, as OpenVINO's shape inference accepts it though its CPU plugin
//! does not run it.

use ir::{ElementType, Shape};
use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "TopK",
    versions: &[
        OpVersion::openvino(1, 1),
        OpVersion::openvino(3, 3),
        OpVersion::openvino(11, 11),
    ],
    infer,
    doc: OpDoc {
        summary: "The `k` largest or smallest elements along an axis (sorted by value or by index) and their indices; ties go to the lower index.",
        attributes: "`axis`, `mode` (max, min), `sort` (value, index, none), v3+: `index_element_type` (i32, i64; default i32), v11: `stable`",
        symbolic: "the data's shape with the axis dim `k`, as propagated (`k` read from a ShapeOf stays an expression); a `k` known only at run time is a fresh dim bounded by the axis dim",
        errors: "`topk` (data of rank 0, `k` not a scalar or below 1, an attribute outside its set, `stable` with `sort` none); warning `topk-k-exceeds-dim`, `axis-out-of-range`, `element-type`",
    },
};

fn rule(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("topk", message)
}

/// `mode` is max (else min).
pub fn mode_is_max(call_attrs: &ir::Attributes) -> Result<bool, ShapeError> {
    match call_attrs
        .get("mode")
        .map(|m| m.trim().to_ascii_lowercase())
    {
        Some(m) if m == "max" => Ok(true),
        Some(m) if m == "min" => Ok(false),
        Some(m) => Err(rule(format!("`mode` {m} is not max or min"))),
        None => Err(rule("the `mode` attribute is missing")),
    }
}

/// `sort` is index (else value or none, which OpenVINO's CPU plugin runs
/// as value).
pub fn sorts_by_index(call_attrs: &ir::Attributes) -> Result<bool, ShapeError> {
    match call_attrs
        .get("sort")
        .map(|m| m.trim().to_ascii_lowercase())
    {
        Some(m) if m == "index" => Ok(true),
        Some(m) if m == "value" || m == "none" => Ok(false),
        None => Ok(false),
        Some(m) => Err(rule(format!("`sort` {m} is not value, index or none"))),
    }
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    support::expect_integer_input(call, 1, "k (input 1)")?;
    if let Some(r) = call.inputs[1].shape.rank().filter(|&r| r != 0) {
        return Err(rule(format!("k (input 1) must be a scalar, got rank {r}")));
    }
    mode_is_max(&call.node.attributes)?;
    sorts_by_index(&call.node.attributes)?;
    let index_type = if call.version >= 3 {
        support::index_type_attr(call, "index_element_type", ElementType::I32, "topk")?
    } else {
        ElementType::I32
    };
    let stable = call.version >= 11 && support::bool_attr(ctx, call, "stable", false);
    let sort_none = call
        .node
        .attributes
        .get("sort")
        .is_none_or(|s| s.trim().eq_ignore_ascii_case("none"));
    if stable && sort_none {
        return Err(rule(
            "`stable` needs `sort` value or index, as OpenVINO requires",
        ));
    }
    let data = &call.inputs[0];
    let axis = call
        .node
        .attributes
        .i64("axis")?
        .ok_or_else(|| rule("the `axis` attribute is missing"))?;
    let Some(dims) = data.shape.dims() else {
        return Ok(vec![
            TensorInfo::new(data.element_type, Shape::DynamicRank),
            TensorInfo::new(index_type, Shape::DynamicRank),
        ]);
    };
    if dims.is_empty() {
        return Err(rule("the data is a scalar; TopK needs rank 1 or more"));
    }
    let axis = support::normalize_axis(axis, dims.len(), "axis")?;
    let d = dims[axis].clone();
    let k = match support::input_values(call, 1) {
        Some([k]) => {
            if let Some(c) = k.as_constant().filter(|&c| c < 1) {
                return Err(rule(format!("k is {c}; it must be at least 1")));
            }
            ctx.assume(Predicate::Ge(k.clone(), Expr::one()))?;
            // OpenVINO's shape inference accepts a k above the axis dim (the
            // output dim is k); its CPU plugin refuses to compile it.
            if ctx.symbols.decide(&Predicate::Le(k.clone(), d.clone())) == Some(false) {
                ctx.warn(
                    "topk-k-exceeds-dim",
                    format!(
                        "k is {} but axis {axis} has only {}: OpenVINO's shape inference accepts it, its CPU plugin (and the executor) refuse to run it",
                        ctx.symbols.display(k),
                        ctx.symbols.display(&d)
                    ),
                );
            }
            k.clone()
        }
        _ => support::data_dependent_dim(ctx, &d, "TopK's k, known only at run time")?,
    };
    let mut out = dims.to_vec();
    out[axis] = k;
    let shape = Shape::ranked(out);
    Ok(vec![
        TensorInfo::new(data.element_type, shape.clone()),
        TensorInfo::new(index_type, shape),
    ])
}
