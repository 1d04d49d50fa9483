//! Split-1: `num_splits` equal pieces along `axis`.

use ir::{Dim, Shape};
use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "Split",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Splits the input into `num_splits` equal pieces along `axis` (input 1).",
        attributes: "`num_splits` (required, positive)",
        symbolic: "each piece has `D/num_splits` on the axis: exact for constants; for symbolic dims an assumed exact division with the constraint `D % num_splits == 0`; an axis known only at run time gives fresh dims",
        errors: "a missing or non-positive `num_splits`, a non-scalar or non-integer axis, an axis out of range, a static dim not divisible by `num_splits` (`split-not-divisible`)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    support::expect_integer_input(call, 1, "axis (input 1)")?;
    let num =
        call.node
            .attributes
            .i64("num_splits")?
            .ok_or_else(|| ir::AttributeError::Missing {
                key: "num_splits".to_owned(),
            })?;
    // Each output is a port in the file; more than the file could declare is an error.
    let count = usize::try_from(num)
        .ok()
        .filter(|&n| n > 0 && n <= call.node.outputs.len().max(1))
        .ok_or_else(|| {
            ShapeError::rule(
                "split-num-splits",
                format!(
                    "num_splits must be positive and match the {} declared output port(s), got {num}",
                    call.node.outputs.len()
                ),
            )
        })?;
    let axis = support::scalar_int_input(call, 1, "axis (input 1)")?;
    let data = &call.inputs[0];
    let Some(dims) = data.shape.dims() else {
        return Ok(vec![
            TensorInfo::new(data.element_type, Shape::DynamicRank);
            count
        ]);
    };
    let Some(axis) = axis else {
        let mut outs = Vec::with_capacity(count);
        for k in 0..count {
            let out: Vec<Dim> = (0..dims.len())
                .map(|i| {
                    support::unknown_dim(
                        ctx,
                        format!(
                            "dim {i} of output {k} of Split with an axis known only at run time"
                        ),
                    )
                })
                .collect();
            outs.push(TensorInfo::new(data.element_type, Shape::ranked(out)));
        }
        return Ok(outs);
    };
    let axis = support::normalize_axis(axis, dims.len(), "axis")?;
    let d = &dims[axis];
    let piece = match d.as_constant() {
        Some(v) if v % num != 0 => {
            return Err(ShapeError::rule(
                "split-not-divisible",
                format!("dim {axis} is {v}, which is not divisible by num_splits {num}"),
            ))
        }
        Some(v) => Expr::constant(v / num),
        None => {
            ctx.assume(Predicate::Divides {
                divisor: num,
                expr: d.clone(),
            })?;
            d.assumed_exact_div(num)?
        }
    };
    let mut out: Vec<Dim> = dims.to_vec();
    out[axis] = piece.clone();
    let tensor = TensorInfo::new(data.element_type, Shape::ranked(out));
    let mut outs = vec![tensor; count];
    if let Some(values) = support::split_values(data, axis, &vec![piece; count]) {
        for (o, v) in outs.iter_mut().zip(values) {
            o.value = Some(v);
        }
    }
    Ok(outs)
}
