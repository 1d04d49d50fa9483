//! Pad-1 and Pad-12: `dim + pads_begin + pads_end` on every axis (Pad-12 is
//! documented to allow negative pads, which crop; OpenVINO accepts them in
//! Pad-1 as well).

use std::cmp::Ordering;

use ir::{Dim, Shape};
use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "Pad",
    versions: &[
        OpVersion::openvino(1, 1),
        OpVersion::openvino(12, 12),
    ],
    infer,
    doc: OpDoc {
        summary: "Pads (or, with negative pads, crops) every axis: `dim + pads_begin[i] + pads_end[i]`.",
        attributes: "`pad_mode` (`constant` (default), `edge`, `reflect`, `symmetric`)",
        symbolic: "`D + b + e` with pads that may be shape values; an output dim that may be negative is assumed `>= 0` (a constraint); reflect/symmetric limits on the pads are checked or recorded; unknown pads give fresh dims",
        errors: "an unknown `pad_mode`, pads that are not 1-D integers or whose length is not the rank, a provably negative output dim (`pad-negative-dim`), reflect pads not below the dim or symmetric pads above it (`pad-mode-limit`), a non-scalar pad value",
    },
};

#[derive(PartialEq, Clone, Copy)]
enum Mode {
    Constant,
    Edge,
    Reflect,
    Symmetric,
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 4)?;
    let mode = match call.node.attributes.get("pad_mode").map(str::trim) {
        None | Some("constant") => Mode::Constant,
        Some("edge") => Mode::Edge,
        Some("reflect") => Mode::Reflect,
        Some("symmetric") => Mode::Symmetric,
        Some(other) => {
            return Err(ShapeError::rule(
                "pad-mode",
                format!("pad_mode must be constant, edge, reflect or symmetric, got `{other}`"),
            ))
        }
    };
    support::expect_integer_input(call, 1, "pads_begin (input 1)")?;
    support::expect_integer_input(call, 2, "pads_end (input 2)")?;
    support::expect_rank_le1(call, 1, "pads_begin (input 1)", false)?;
    support::expect_rank_le1(call, 2, "pads_end (input 2)", false)?;
    if let Some(value) = call.inputs.get(3) {
        if mode == Mode::Constant && value.shape.rank().is_some_and(|r| r != 0) {
            return Err(ShapeError::rule(
                "input-rank",
                "pad_value (input 3) must be a scalar",
            ));
        }
    }
    let data = &call.inputs[0];
    let Some(dims) = data.shape.dims() else {
        return Ok(vec![TensorInfo::new(data.element_type, Shape::DynamicRank)]);
    };
    for (i, name) in [(1, "pads_begin"), (2, "pads_end")] {
        let len = call.inputs[i]
            .shape
            .to_static()
            .and_then(|s| s.first().copied());
        if let Some(n) = len {
            if usize::try_from(n).ok() != Some(dims.len()) {
                return Err(ShapeError::rule(
                    "pad-length",
                    format!(
                        "{name} has {n} elements but the input has rank {}",
                        dims.len()
                    ),
                ));
            }
        }
    }
    let (Some(begin), Some(end)) = (
        support::input_values(call, 1),
        support::input_values(call, 2),
    ) else {
        let out: Vec<Dim> = (0..dims.len())
            .map(|i| {
                support::unknown_dim(
                    ctx,
                    format!("dim {i} of Pad with pads known only at run time"),
                )
            })
            .collect();
        return Ok(vec![TensorInfo::new(data.element_type, Shape::ranked(out))]);
    };
    for (name, pads) in [("pads_begin", begin), ("pads_end", end)] {
        if pads.len() != dims.len() {
            return Err(ShapeError::rule(
                "pad-length",
                format!(
                    "{name} has {} elements but the input has rank {}",
                    pads.len(),
                    dims.len()
                ),
            ));
        }
    }
    let mut out = Vec::with_capacity(dims.len());
    for (axis, ((d, b), e)) in dims.iter().zip(begin).zip(end).enumerate() {
        let padded = d.add(b)?.add(e)?;
        match ctx.symbols.compare(&padded, &Expr::zero()) {
            Some(Ordering::Less) => {
                return Err(ShapeError::rule(
                    "pad-negative-dim",
                    format!(
                        "dim {axis} would be {} + {} + {} = {}, which is negative",
                        ctx.symbols.display(d),
                        ctx.symbols.display(b),
                        ctx.symbols.display(e),
                        ctx.symbols.display(&padded)
                    ),
                ))
            }
            Some(_) => {}
            None => ctx.assume(Predicate::Ge(padded.clone(), Expr::zero()))?,
        }
        if matches!(mode, Mode::Reflect | Mode::Symmetric) {
            // The same pad on both sides is one assumption, not two.
            let sides: &[(&str, &Dim)] = if b == e {
                &[("pads_begin", b)]
            } else {
                &[("pads_begin", b), ("pads_end", e)]
            };
            for &(name, p) in sides {
                let limit_ok = if mode == Mode::Reflect {
                    Predicate::Lt(p.clone(), d.clone())
                } else {
                    Predicate::Le(p.clone(), d.clone())
                };
                if ctx.symbols.decide(&limit_ok) == Some(false) {
                    return Err(ShapeError::rule(
                        "pad-mode-limit",
                        format!(
                            "{} padding needs {name}[{axis}] = {} {} dim {axis} = {}",
                            if mode == Mode::Reflect {
                                "reflect"
                            } else {
                                "symmetric"
                            },
                            ctx.symbols.display(p),
                            if mode == Mode::Reflect { "<" } else { "<=" },
                            ctx.symbols.display(d)
                        ),
                    ));
                }
                ctx.assume(limit_ok)?;
            }
        }
        out.push(padded);
    }
    Ok(vec![TensorInfo::new(data.element_type, Shape::ranked(out))])
}
