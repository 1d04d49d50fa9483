//! Reshape-1: the data with a new shape taken from the *values* of input 1.
//!
//! The target may be symbolic (`[N, S, 4, 16]` from a shape subgraph). `0`
//! copies the input dim at its position when `special_zero` is true (ONNX
//! `allowzero=0`) and is a zero-size dim otherwise; one `-1` takes the exact
//! quotient of the element counts (`[N, 3, D, 5]` to `[0, -1]` is
//! `[N, 15*D]`). A quotient that is not exact symbolically is an assumed exact
//! division (`4*N*S/3`) whose divisibility is recorded as a constraint.

use ir::shape::Dims;
use ir::{Dim, Shape};
use smallvec::SmallVec;
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

    // Inline, as the shapes are: most targets have at most six values.
    let mut targets: SmallVec<[Target; 6]> = SmallVec::with_capacity(values.len());
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
    let mut out: SmallVec<[Option<Dim>; 6]> = SmallVec::with_capacity(targets.len());
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
    // The input's element count: multiplied out here where that may fail
    // (its error comes first, as it always did), else only where it is
    // used. A Reshape that keeps the dims (every one of a chain) compares
    // it with itself and never uses it.
    let known_count = if count_cannot_fail(in_dims) {
        None
    } else {
        Some(element_count(in_dims)?)
    };
    let in_count = || match &known_count {
        Some(count) => Ok(count.clone()),
        None => element_count(in_dims),
    };
    let counts_text = |ctx: &InferContext, out_count: &Expr| -> Result<String, ShapeError> {
        Ok(format!(
            "input {} has {} elements, target {} has {}",
            data.shape.display(&ctx.symbols),
            ctx.symbols.display(&in_count()?),
            target_text(ctx),
            ctx.symbols.display(out_count)
        ))
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
                        counts_text(ctx, &Expr::zero())?
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
                        ctx.symbols.display(&in_count()?),
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
    let dims: Dims = out
        .into_iter()
        .map(|d| d.unwrap_or_else(Expr::one))
        .collect();

    // The element counts must agree (OpenVINO skips this check when a special
    // zero or a -1 is present; any difference there is still an error).
    // Most Reshapes of a chain keep the dims: the same product then.
    if dims[..] != in_dims[..] {
        let out_count = element_count(&dims)?;
        let in_count = in_count()?;
        match ctx.symbols.compare(&in_count, &out_count) {
            Some(std::cmp::Ordering::Equal) => {}
            Some(_) => {
                return Err(ShapeError::rule(
                    "reshape-element-count",
                    counts_text(ctx, &out_count)?,
                ));
            }
            None => ctx.assume(Predicate::Eq(in_count, out_count))?,
        }
    }

    let mut tensor = TensorInfo::new(out_type, Shape::Ranked(dims));
    if let Some(v) = &data.value {
        tensor = tensor.with_value(v.clone());
    }
    Ok(vec![tensor])
}

/// Whether [`element_count`] of `dims` certainly succeeds, seen without
/// multiplying: lone symbols and at most one other lone atom (a Slice's
/// `max(D - k, 0)`). Their product has the coefficient 1, its symbols'
/// exponents at most the rank, the atom's exponent 1 (it is no symbol, so
/// no symbol merges into it), the atom's nesting, and at most one node
/// per symbol more than the atom's expression: so it neither overflows
/// nor leaves the algebra's limits when those sizes stay within them.
fn count_cannot_fail(dims: &[Dim]) -> bool {
    let mut atom = None;
    for d in dims {
        if d.as_symbol().is_some() {
            continue;
        }
        match d.as_atom() {
            Some(_) if atom.is_none() => atom = Some(d),
            _ => return false,
        }
    }
    let (size, nesting) = atom.map_or((1, 0), Expr::size_and_nesting);
    size.saturating_add(dims.len()) <= symdim::MAX_SIZE && nesting <= symdim::MAX_NESTING
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

#[cfg(test)]
mod tests {
    use super::*;
    use symdim::SymbolTable;

    /// A count [`count_cannot_fail`] vouches for multiplies out, at the
    /// algebra's size limit too; dims it cannot vouch for are left to the
    /// product.
    #[test]
    fn a_count_said_not_to_fail_multiplies_out() {
        let mut table = SymbolTable::new();
        let symbols: Vec<Dim> = (0..2100)
            .map(|_| Expr::symbol(table.fresh(Interval::nonnegative(), None)))
            .collect();
        let (n, s) = (&symbols[0], &symbols[1]);
        let atom_of = |terms: usize| {
            let sum = symbols[2..2 + terms]
                .iter()
                .try_fold(Expr::zero(), |acc, d| acc.add(d))
                .and_then(|sum| sum.max_with(&Expr::zero()))
                .expect("within the limits");
            assert_eq!(sum.size(), 2 * terms + 2);
            sum
        };
        let chain = s.add_const(-3).and_then(|d| d.max_with(&Expr::zero()));
        let chain = chain.expect("a small max");
        assert!(count_cannot_fail(&[n.clone(), chain.clone()]));
        assert!(count_cannot_fail(&[n.clone(), s.clone(), n.clone()]));
        assert!(!count_cannot_fail(&[n.clone(), Expr::constant(3)]));
        assert!(!count_cannot_fail(&[chain.clone(), chain.clone()]));
        let mut vouched = 0;
        for terms in [1, 100, 2045, 2046, 2047] {
            let atom = atom_of(terms);
            for dims in [
                vec![atom.clone()],
                vec![n.clone(), atom.clone()],
                vec![atom.clone(), n.clone(), s.clone()],
                vec![n.clone(), atom.clone(), n.clone()],
            ] {
                if count_cannot_fail(&dims) {
                    vouched += 1;
                    assert!(
                        element_count(&dims).is_ok(),
                        "{terms} terms, rank {}",
                        dims.len()
                    );
                }
            }
        }
        assert!(vouched >= 8, "{vouched}");
        // At the limit the product itself fails: never vouched for.
        let full = atom_of(2047);
        assert!(element_count(&[n.clone(), s.clone(), full.clone()]).is_err());
        assert!(!count_cannot_fail(&[n.clone(), s.clone(), full]));
    }
}
