//! VariadicSplit-1: pieces of the given `split_lengths` along `axis`.

use std::cmp::Ordering;

use ir::{Dim, Shape};
use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "VariadicSplit",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Splits the input along `axis` (input 1) into pieces of `split_lengths` (input 2); one length may be -1 (the rest).",
        attributes: "-",
        symbolic: "lengths may be shape values; a -1 piece is `D - sum(others)` (assumed `>= 0`); otherwise the sum must equal `D` (a constraint when undecidable); unknown lengths or axis give fresh dims",
        errors: "a non-scalar or non-integer axis, an axis out of range, more than one -1 or a length below -1 (`variadic-split-lengths`), lengths whose sum provably differs from the dim or a provably negative -1 piece (`variadic-split-sum`)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 3)?;
    support::expect_integer_input(call, 1, "axis (input 1)")?;
    support::expect_integer_input(call, 2, "split_lengths (input 2)")?;
    support::expect_rank_le1(call, 2, "split_lengths (input 2)", false)?;
    let axis = support::scalar_int_input(call, 1, "axis (input 1)")?;
    let data = &call.inputs[0];
    let lengths = support::input_values(call, 2);
    let count = match lengths {
        Some(l) => l.len(),
        None => call.inputs[2]
            .shape
            .to_static()
            .and_then(|s| s.first().copied())
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(call.node.outputs.len()),
    };
    if count > call.node.outputs.len().max(1) {
        return Err(ShapeError::rule(
            "variadic-split-lengths",
            format!(
                "split_lengths has {count} elements but the layer declares {} output port(s)",
                call.node.outputs.len()
            ),
        ));
    }
    let Some(dims) = data.shape.dims() else {
        return Ok(vec![
            TensorInfo::new(data.element_type, Shape::DynamicRank);
            count
        ]);
    };
    let axis = match axis {
        Some(a) => Some(support::normalize_axis(a, dims.len(), "axis")?),
        None => None,
    };
    let (Some(axis), Some(lengths)) = (axis, lengths) else {
        let mut outs = Vec::with_capacity(count);
        for k in 0..count {
            let out: Vec<Dim> = (0..dims.len())
                .map(|i| match axis {
                    Some(a) if a != i => dims[i].clone(),
                    _ => support::unknown_dim(
                        ctx,
                        format!("dim {i} of output {k} of VariadicSplit with lengths known only at run time"),
                    ),
                })
                .collect();
            outs.push(TensorInfo::new(data.element_type, Shape::ranked(out)));
        }
        return Ok(outs);
    };
    let d = &dims[axis];
    let mut rest = None;
    let mut sum = Expr::zero();
    for (i, l) in lengths.iter().enumerate() {
        match l.as_constant() {
            Some(-1) if rest.is_some() => {
                return Err(ShapeError::rule(
                    "variadic-split-lengths",
                    "split_lengths may contain at most one -1",
                ))
            }
            Some(-1) => rest = Some(i),
            Some(v) if v < -1 => {
                return Err(ShapeError::rule(
                    "variadic-split-lengths",
                    format!("split_lengths[{i}] is {v}; lengths must be >= -1"),
                ))
            }
            _ => sum = sum.add(l)?,
        }
    }
    let mut pieces: Vec<Dim> = lengths.to_vec();
    match rest {
        Some(i) => {
            let remaining = d.sub(&sum)?;
            match ctx.symbols.compare(&remaining, &Expr::zero()) {
                Some(Ordering::Less) => {
                    return Err(ShapeError::rule(
                        "variadic-split-sum",
                        format!(
                            "the other split_lengths sum to {}, more than dim {axis} = {}",
                            ctx.symbols.display(&sum),
                            ctx.symbols.display(d)
                        ),
                    ))
                }
                Some(_) => {}
                None => ctx.assume(Predicate::Ge(remaining.clone(), Expr::zero()))?,
            }
            pieces[i] = remaining;
        }
        None => match ctx.symbols.compare(&sum, d) {
            Some(Ordering::Equal) => {}
            Some(_) => {
                return Err(ShapeError::rule(
                    "variadic-split-sum",
                    format!(
                        "split_lengths sum to {} but dim {axis} is {}",
                        ctx.symbols.display(&sum),
                        ctx.symbols.display(d)
                    ),
                ))
            }
            None => ctx.assume(Predicate::Eq(sum.clone(), d.clone()))?,
        },
    }
    let values = support::split_values(data, axis, &pieces);
    Ok(pieces
        .into_iter()
        .enumerate()
        .map(|(k, p)| {
            let mut out: Vec<Dim> = dims.to_vec();
            out[axis] = p;
            let tensor = TensorInfo::new(data.element_type, Shape::ranked(out));
            tensor.with_value(values.as_ref().and_then(|v| v.get(k)).cloned())
        })
        .collect())
}
