//! Reshape-1: the data with a new shape taken from the *values* of input 1.
//!
//! The target may be symbolic (`[N, S, 4, 16]` from a shape subgraph). `0`
//! copies the input dim at its position when `special_zero` is true (ONNX
//! `allowzero=0`) and is a zero-size dim otherwise; one `-1` takes the exact
//! quotient of the element counts (`[N, 3, D, 5]` to `[0, -1]` is
//! `[N, 15*D]`). A quotient that is not exact symbolically is an assumed exact
//! division (`4*N*S/3`) whose divisibility is recorded as a constraint.

use ir::{Dim, Shape};
use symdim::{Expr, Interval, Predicate};

use super::support::{self, element_count, expect_integer_input};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Reshape",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "The data tensor with the shape given by the values of input 1.",
        attributes: "`special_zero` (a `0` in the target copies the input dim at that position; \
                     false: `0` is a zero-size dim, ONNX `allowzero=1`)",
        symbolic:
            "target values may be symbolic (from shape subgraphs); the `-1` dim is the exact \
                   polynomial quotient of the element counts (`[N, 3, D, 5]` to `[0, -1]` is \
                   `[N, 15*D]`), else an assumed exact division `4*N*S/3` with the divisibility \
                   recorded as a constraint; element counts that may differ record their equality; \
                   unknown target values of known length give fresh dims; values pass through",
        errors:
            "`reshape-minus-one` (more than one -1), `reshape-negative-dim` (a value below -1), \
                 `reshape-zero-out-of-range` (a special 0 past the input rank), \
                 `reshape-element-count` (counts that provably differ or do not divide), \
                 `reshape-target-rank` (a target that is not 1-D, a scalar included, as \
                 OpenVINO 2026.4); a -1 beside a zero-size target dim needs a provably empty \
                 input",
    },
};

/// What one target value asks for.
enum Target {
    /// `-1`: inferred from the element counts.
    Infer,
    /// `0` with `special_zero`: copy the input dim at this position.
    Copy,
    /// A dim (possibly symbolic, possibly 0).
    Dim(Dim),
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    expect_integer_input(call, 1, "input 1 (target shape)")?;
    let special_zero = support::bool_attr(ctx, call, "special_zero", false);
    let data = &call.inputs[0];
    let pattern = &call.inputs[1];
    let out_type = data.element_type;

    let pattern_rank = pattern.shape.rank();
    if let Some(r) = pattern_rank.filter(|&r| r != 1) {
        return Err(ShapeError::rule(
            "reshape-target-rank",
            format!("input 1 (target shape) must be 1-D, got rank {r}"),
        ));
    }

    let Some(values) = support::input_values(call, 1) else {
        // Unknown values: the rank is the target's length when that is known.
        let shape = match pattern.shape.dims() {
            Some([len]) => match len.as_constant().and_then(|l| usize::try_from(l).ok()) {
                Some(len) if len as u64 <= super::constant::MAX_VALUE_ELEMENTS => {
                    let mut dims = Vec::with_capacity(len);
                    for axis in 0..len {
                        let s = ctx.fresh_symbol(
                            Interval::nonnegative(),
                            format!("dim {axis} of a Reshape whose target values are unknown"),
                        );
                        dims.push(Expr::symbol(s));
                    }
                    Shape::ranked(dims)
                }
                _ => Shape::DynamicRank,
            },
            _ => Shape::DynamicRank,
        };
        return Ok(vec![TensorInfo::new(out_type, shape)]);
    };

    let mut targets = Vec::with_capacity(values.len());
    let mut minus_one = None;
    for (i, v) in values.iter().enumerate() {
        let t = match v.as_constant() {
            Some(-1) => {
                if let Some(first) = minus_one {
                    return Err(ShapeError::rule(
                        "reshape-minus-one",
                        format!("target shape has more than one -1 (at positions {first} and {i})"),
                    ));
                }
                minus_one = Some(i);
                Target::Infer
            }
            Some(c) if c < -1 => {
                return Err(ShapeError::rule(
                    "reshape-negative-dim",
                    format!(
                        "target shape value {c} at position {i} is negative (only -1 is allowed)"
                    ),
                ));
            }
            Some(0) if special_zero => Target::Copy,
            _ => Target::Dim(v.clone()),
        };
        targets.push(t);
    }

    // Written only for a message: most Reshapes have none.
    let target_text = |ctx: &InferContext| support::show_dims(ctx, values);

    for (i, t) in targets.iter().enumerate() {
        if let Target::Dim(v) = t {
            settle_symbolic_target(
                ctx,
                v,
                data.shape.dims().and_then(|d| d.get(i)),
                special_zero,
            )?;
        }
    }

    let Some(in_dims) = data.shape.dims() else {
        // Unknown input rank: copied and inferred dims are unknown.
        let mut dims = Vec::with_capacity(targets.len());
        for (i, t) in targets.iter().enumerate() {
            dims.push(match t {
                Target::Dim(d) => d.clone(),
                Target::Infer | Target::Copy => Expr::symbol(ctx.fresh_symbol(
                    Interval::nonnegative(),
                    format!("dim {i} of a Reshape of an input of unknown rank"),
                )),
            });
        }
        return Ok(vec![TensorInfo::new(out_type, Shape::ranked(dims))]);
    };

    // Products as OpenVINO forms them: input dims copied by a special zero and
    // the -1 itself are left out of both sides.
    let mut out: Vec<Option<Dim>> = Vec::with_capacity(targets.len());
    let mut in_product = Expr::one();
    let mut out_product = Expr::one();
    for (i, t) in targets.iter().enumerate() {
        match t {
            Target::Copy => {
                let Some(d) = in_dims.get(i) else {
                    return Err(ShapeError::rule(
                        "reshape-zero-out-of-range",
                        format!(
                            "target shape {} has 0 at position {i} (copy the input dim) but the \
                             input {} has rank {}",
                            target_text(ctx),
                            data.shape.display(&ctx.symbols),
                            in_dims.len()
                        ),
                    ));
                };
                out.push(Some(d.clone()));
            }
            Target::Infer => out.push(None),
            Target::Dim(d) => {
                out_product = out_product.mul(d)?;
                out.push(Some(d.clone()));
            }
        }
    }
    for (i, d) in in_dims.iter().enumerate() {
        if !matches!(targets.get(i), Some(Target::Copy)) {
            in_product = in_product.mul(d)?;
        }
    }
    let in_count = element_count(in_dims)?;
    let counts_text = |ctx: &InferContext, out_count: &Expr| {
        format!(
            "input {} has {} elements, target {} has {}",
            data.shape.display(&ctx.symbols),
            ctx.symbols.display(&in_count),
            target_text(ctx),
            ctx.symbols.display(out_count)
        )
    };

    if let Some(idx) = minus_one {
        let quotient = if out_product.is_zero() {
            // OpenVINO: a zero-size target needs a zero-size input, and -1 is 1.
            // A product that is only possibly zero is an error too, as in
            // OpenVINO (which needs a static zero among the input dims):
            // guessing 1 and assuming an empty input hides a broken model.
            if ctx.symbols.compare(&in_product, &Expr::zero()) != Some(std::cmp::Ordering::Equal) {
                return Err(ShapeError::rule(
                    "reshape-element-count",
                    format!(
                        "cannot infer -1 with a zero-size target dim unless the input is \
                         provably empty: {}",
                        counts_text(ctx, &Expr::zero())
                    ),
                ));
            }
            Expr::one()
        } else if let Some(q) = in_product.exact_div(&out_product) {
            q
        } else if let Some(k) = out_product.as_constant().filter(|&k| k > 0) {
            if let Some(n) = in_product.as_constant() {
                return Err(ShapeError::rule(
                    "reshape-element-count",
                    format!(
                        "input {} has {} elements, target {}: {} is not a multiple of {k}",
                        data.shape.display(&ctx.symbols),
                        ctx.symbols.display(&in_count),
                        target_text(ctx),
                        n
                    ),
                ));
            }
            ctx.assume(Predicate::Divides {
                divisor: k,
                expr: in_product.clone(),
            })?;
            in_product.assumed_exact_div(k)?
        } else {
            // A symbolic divisor that does not divide: a fresh dim q with
            // q * out == in recorded.
            let q = fresh_bounded(
                ctx,
                call,
                &in_product,
                &format!("dim {idx} (-1) of a Reshape"),
            )?;
            if let (Some(s), Some(range)) = (
                q.as_symbol(),
                quotient_range(ctx, &in_product, &out_product),
            ) {
                ctx.symbols.restrict(s, range).map_err(ShapeError::from)?;
            }
            ctx.assume(Predicate::Eq(q.mul(&out_product)?, in_product.clone()))?;
            q
        };
        if let Some(slot) = out.get_mut(idx) {
            *slot = Some(quotient);
        }
    }
    let dims: Vec<Dim> = out
        .into_iter()
        .map(|d| d.unwrap_or_else(Expr::one))
        .collect();

    // The element counts must agree (OpenVINO skips this check when a special
    // zero or a -1 is present; any difference there is still an error).
    // Most Reshapes of a chain keep the dims: the same product then.
    let out_count = if dims[..] == in_dims[..] {
        in_count.clone()
    } else {
        element_count(&dims)?
    };
    match ctx.symbols.compare(&in_count, &out_count) {
        Some(std::cmp::Ordering::Equal) => {}
        Some(_) => {
            return Err(ShapeError::rule(
                "reshape-element-count",
                counts_text(ctx, &out_count),
            ));
        }
        None => ctx.assume(Predicate::Eq(in_count.clone(), out_count.clone()))?,
    }

    let mut tensor = TensorInfo::new(out_type, Shape::ranked(dims));
    if let Some(v) = &data.value {
        tensor = tensor.with_value(v.clone());
    }
    Ok(vec![tensor])
}

/// A computed (symbolic) target value stands for the dim it equals only
/// where it is not one of the pattern's special values: a value that may be
/// negative (a computed -1, or a broken pattern) is assumed to be at least 0,
/// and with `special_zero` a value that may be 0 (which would copy the
/// input dim instead) at least 1 or copying a 0, unless the input dim it
/// would copy is the same expression. Both are recorded constraints (an error when provably
/// false), never silent guesses.
fn settle_symbolic_target(
    ctx: &mut InferContext,
    v: &Dim,
    input_dim: Option<&Dim>,
    special_zero: bool,
) -> Result<(), ShapeError> {
    if v.is_constant() {
        return Ok(());
    }
    ctx.assume(Predicate::Ge(v.clone(), Expr::zero()))?;
    if !special_zero || input_dim == Some(v) {
        return Ok(());
    }
    let positive = Predicate::Ge(v.clone(), Expr::one());
    // At 0 the value copies the input dim, which is the same answer where
    // that dim is 0 too (PyTorch's `[B*S, 1]` of a `[B, S]` tensor with
    // `B = 0`): only a 0 copying a non-zero dim breaks the expression.
    let zero_copies_zero = input_dim
        .map(|d| Predicate::Eq(d.clone(), Expr::zero()))
        .filter(|p| ctx.symbols.decide(p) != Some(false));
    ctx.assume(match zero_copies_zero {
        Some(p) => Predicate::Or(vec![positive, p]),
        None => positive,
    })
}

/// The interval of an exact quotient `q = num / den` of dims from the
/// intervals of both (as OpenVINO's interval propagation: `[ceil(lo(num) /
/// hi(den)), floor(hi(num) / lo(den))]`); `None` when it says nothing new.
fn quotient_range(ctx: &InferContext, num: &Expr, den: &Expr) -> Option<Interval> {
    let num = ctx.symbols.bounds(num).ok()?;
    let den = ctx.symbols.bounds(den).ok()?;
    let den_lo = den.lo.filter(|&d| d > 0)?;
    let hi = num.hi.map(|n| n.max(0) / den_lo);
    let lo = match (num.lo, den.hi) {
        (Some(n), Some(d)) if n > 0 && d > 0 => Some((n + d - 1) / d),
        _ => Some(0),
    };
    Some(Interval::new(lo, hi))
}

/// A fresh symbol in `[0, upper]` (keeping `upper` as its symbolic bound),
/// created by the current node.
pub(crate) fn fresh_bounded(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    upper: &Expr,
    reason: &str,
) -> Result<Expr, ShapeError> {
    let provenance = ir::Provenance {
        layer: call.node.name.clone(),
        line: call.node.location.line,
        reason: reason.to_owned(),
    };
    let s = ctx.symbols.fresh_bounded(upper, Some(provenance))?;
    Ok(Expr::symbol(s))
}
