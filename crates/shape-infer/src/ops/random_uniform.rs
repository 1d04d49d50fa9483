//! RandomUniform-8: a tensor of the shape given by the *values* of input 0
//! (1-D i32/i64) filled with uniform random numbers in `[min, max)`
//! (inputs 1 and 2, scalars or one-element tensors of `output_type`), from
//! Philox4x32-10 (`alignment` tensorflow, the default) or PyTorch's
//! Mersenne twister (`alignment` pytorch) seeded by `global_seed` and
//! `op_seed`.

use ir::{Dim, ElementType, Shape};
use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "RandomUniform",
    versions: &[OpVersion::openvino(8, 8)],
    infer,
    doc: OpDoc {
        summary: "Uniform random numbers in `[min, max)` (inputs 1, 2) in a tensor whose shape is the value of input 0, from Philox4x32-10 (or PyTorch's Mersenne twister with `alignment` pytorch) seeded by `global_seed`/`op_seed`.",
        attributes: "`output_type` (f32, f16, bf16, f64, i32 or i64), `global_seed` and `op_seed` (non-negative; both 0: a new sequence each run in OpenVINO, seed 0 here), `alignment` (`tensorflow` default, or `pytorch`)",
        symbolic: "the output's dims are the propagated values of the shape input (expressions kept when read from a ShapeOf); unknown values give fresh dims, an unknown length an unknown rank",
        errors: "`random-uniform-input` (shape not 1-D, min or max not a scalar or one-element tensor, a negative dim, a constant min not below max), `element-type` (shape not i32/i64, min/max not of `output_type`), `attribute-invalid` (`output_type`, a negative seed, `alignment`)",
    },
};

fn rule(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("random-uniform-input", message)
}

/// Checks that input `i` (named `what`) is a scalar or a one-element 1-D
/// tensor.
pub(crate) fn expect_one_element(
    call: &OpCall<'_>,
    i: usize,
    what: &str,
) -> Result<(), ShapeError> {
    let shape = &call.inputs[i].shape;
    let one_element = match shape.dims() {
        None => true,
        Some([]) => true,
        Some([d]) => d.as_constant().is_none_or(|c| c == 1),
        Some(_) => false,
    };
    if one_element {
        Ok(())
    } else {
        Err(ShapeError::rule(
            "random-uniform-input",
            format!("{what} must be a scalar or one-element 1-D tensor"),
        ))
    }
}

/// A non-negative seed attribute (0 when absent).
pub(crate) fn seed_attr(call: &OpCall<'_>, key: &str) -> Result<i64, ShapeError> {
    let seed = call
        .node
        .attributes
        .i64(key)
        .map_err(|e| ShapeError::rule("attribute-invalid", e.to_string()))?
        .unwrap_or(0);
    if seed < 0 {
        return Err(ShapeError::rule(
            "attribute-invalid",
            format!("{key} is {seed}; it must be 0 or more"),
        ));
    }
    Ok(seed)
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 3)?;
    let text = call.node.attributes.require("output_type")?;
    let et = match ElementType::parse(text.trim()) {
        Some(
            t @ (ElementType::F32
            | ElementType::F16
            | ElementType::BF16
            | ElementType::F64
            | ElementType::I32
            | ElementType::I64),
        ) => t,
        _ => {
            return Err(ShapeError::rule(
                "attribute-invalid",
                format!("output_type `{text}` is not f32, f16, bf16, f64, i32 or i64"),
            ))
        }
    };
    seed_attr(call, "global_seed")?;
    seed_attr(call, "op_seed")?;
    if let Some(a) = call.node.attributes.get("alignment") {
        if !matches!(
            a.trim().to_ascii_lowercase().as_str(),
            "tensorflow" | "pytorch"
        ) {
            return Err(ShapeError::rule(
                "attribute-invalid",
                format!("alignment `{a}` is not tensorflow or pytorch"),
            ));
        }
    }
    support::expect_index_input(call, 0, "'shape' (input 0)")?;
    if call.inputs[0].shape.rank().is_some_and(|r| r != 1) {
        return Err(rule("'shape' (input 0) must be a 1-D tensor"));
    }
    expect_one_element(call, 1, "'min' (input 1)")?;
    expect_one_element(call, 2, "'max' (input 2)")?;
    for (i, name) in [(1, "'min' (input 1)"), (2, "'max' (input 2)")] {
        let t = call.inputs[i].element_type;
        if t.is_static() && t != et {
            return Err(ShapeError::ElementType {
                what: name.to_owned(),
                message: format!("must be of output_type {et}, got {t}"),
            });
        }
    }
    if let (Some(lo), Some(hi)) = (scalar_real(call.inputs[1]), scalar_real(call.inputs[2])) {
        if lo >= hi {
            return Err(rule(format!("min ({lo}) must be less than max ({hi})")));
        }
    }
    let dims: Vec<Dim> = match support::input_values(call, 0) {
        Some(values) => {
            let mut dims = Vec::with_capacity(values.len());
            for (k, v) in values.iter().enumerate() {
                if let Some(c) = v.as_constant().filter(|&c| c < 0) {
                    return Err(rule(format!(
                        "shape[{k}] is {c}; a dim must not be negative"
                    )));
                }
                ctx.assume(Predicate::Ge(v.clone(), Expr::zero()))?;
                dims.push(v.clone());
            }
            dims
        }
        None => {
            let length = call.inputs[0]
                .shape
                .dims()
                .and_then(|d| d.first())
                .and_then(Expr::as_constant)
                .and_then(|n| usize::try_from(n).ok());
            let Some(length) = length else {
                return Ok(vec![TensorInfo::new(et, Shape::DynamicRank)]);
            };
            (0..length)
                .map(|k| {
                    support::unknown_dim(
                        ctx,
                        format!("RandomUniform's shape[{k}], known only at run time"),
                    )
                })
                .collect()
        }
    };
    Ok(vec![TensorInfo::new(et, Shape::ranked(dims))])
}

/// The one value of a scalar input, when known.
fn scalar_real(t: &TensorInfo) -> Option<f64> {
    if let Some([v]) = t.value.as_deref() {
        return v.as_constant().map(|c| c as f64);
    }
    match t.real_value() {
        Some([r]) => Some(*r),
        _ => None,
    }
}
