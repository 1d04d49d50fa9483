//! Multinomial-13: `num_samples` class indices drawn per batch row from the
//! probabilities (or, with `log_probs`, log-probabilities) `[B, C]`, with or
//! without replacement, from a random generator seeded by `global_seed` and
//! `op_seed` (OpenVINO's CPU plugin: mt19937; its reference: Philox);
//! output `[B, num_samples]` of `convert_type`.

use ir::{Dim, ElementType, Shape};
use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::random_uniform::{expect_one_element, seed_attr};
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Multinomial",
    versions: &[OpVersion::openvino(13, 13)],
    infer,
    doc: OpDoc {
        summary: "`num_samples` class indices per batch row drawn from the (log-)probabilities `[B, C]`, with or without replacement, from a generator seeded by `global_seed`/`op_seed` (the CPU plugin's mt19937 from `seed_seq`, bit for bit).",
        attributes: "`convert_type` (the output's element type: i32 or i64 by the specification; OpenVINO also takes others), `with_replacement`, `log_probs` (booleans), `global_seed` and `op_seed` (non-negative)",
        symbolic: "`[B, num_samples]` with `num_samples` the propagated value of input 1 (an expression when read from a ShapeOf), else a fresh dim",
        errors: "`multinomial-input` (probabilities not 2-D, num_samples not a scalar or one-element tensor, a negative num_samples), `element-type` (probabilities not floating-point, num_samples not an integer), `attribute-invalid` (`convert_type`, a negative seed)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let text = call.node.attributes.require("convert_type")?;
    let et = ElementType::parse(text.trim())
        .filter(|t| t.is_static() && (t.is_integral() || t.is_real()) && *t != ElementType::Boolean)
        .ok_or_else(|| {
            ShapeError::rule(
                "attribute-invalid",
                format!("convert_type `{text}` is not a numeric element type"),
            )
        })?;
    support::bool_attr(ctx, call, "with_replacement", false);
    support::bool_attr(ctx, call, "log_probs", false);
    seed_attr(call, "global_seed")?;
    seed_attr(call, "op_seed")?;
    support::expect_real_input(call, 0, "'probs' (input 0)")?;
    support::expect_integer_input(call, 1, "'num_samples' (input 1)")?;
    let probs = &call.inputs[0];
    if let Some(r) = probs.shape.rank().filter(|&r| r != 2) {
        return Err(ShapeError::rule(
            "multinomial-input",
            format!("the probabilities must be a 2-D tensor [batch, classes], got rank {r}"),
        ));
    }
    expect_one_element(call, 1, "'num_samples' (input 1)")
        .map_err(|e| ShapeError::rule("multinomial-input", e.to_string()))?;
    let samples: Dim = match support::input_values(call, 1) {
        Some([v]) => {
            if let Some(c) = v.as_constant().filter(|&c| c < 0) {
                return Err(ShapeError::rule(
                    "multinomial-input",
                    format!("num_samples is {c}; it must not be negative"),
                ));
            }
            ctx.assume(Predicate::Ge(v.clone(), Expr::zero()))?;
            v.clone()
        }
        _ => support::unknown_dim(ctx, "Multinomial's num_samples, known only at run time"),
    };
    let batch = match probs.shape.dims() {
        Some(d) => d[0].clone(),
        None => support::unknown_dim(ctx, "Multinomial's batch (probabilities of unknown rank)"),
    };
    Ok(vec![TensorInfo::new(et, Shape::ranked([batch, samples]))])
}
