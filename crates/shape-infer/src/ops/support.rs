//! Helpers shared by op rules: reading inputs, normalizing axes, counting
//! elements. Op files use these instead of writing their own.

use ir::{Dim, ElementType, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::OpCall;
use crate::tensor::TensorInfo;

/// Maps a possibly negative `axis` into `0..rank`, or fails naming `what`.
pub fn normalize_axis(axis: i64, rank: usize, what: &str) -> Result<usize, ShapeError> {
    let rank_i = i64::try_from(rank).unwrap_or(i64::MAX);
    let normalized = if axis < 0 { axis + rank_i } else { axis };
    if (0..rank_i).contains(&normalized) {
        Ok(normalized as usize)
    } else {
        Err(ShapeError::rule(
            "axis-out-of-range",
            format!(
                "{what} {axis} is out of range for rank {rank} (valid: {} to {})",
                -rank_i,
                rank_i - 1
            ),
        ))
    }
}

/// The known element values of input `index` as dims (constants or values
/// propagated through shape subgraphs).
pub fn input_values<'a>(call: &'a OpCall<'_>, index: usize) -> Option<&'a [Dim]> {
    call.inputs.get(index)?.value.as_deref()
}

/// The element values of input `index` when all of them are integers.
pub fn input_ints(call: &OpCall<'_>, index: usize) -> Option<Vec<i64>> {
    input_values(call, index)?
        .iter()
        .map(Expr::as_constant)
        .collect()
}

/// The number of elements of a ranked shape, as an expression.
pub fn element_count(dims: &[Dim]) -> Result<Dim, ShapeError> {
    dims.iter()
        .try_fold(Expr::constant(1), |acc, d| acc.mul(d))
        .map_err(ShapeError::from)
}

/// The number of elements of a shape whose rank is known, as an integer when
/// static.
pub fn static_element_count(shape: &Shape) -> Option<i64> {
    shape
        .to_static()?
        .iter()
        .try_fold(1i64, |acc, &d| acc.checked_mul(d))
}

/// Checks that input `index` has an integer element type (shape-like inputs:
/// Reshape targets, Slice starts, Gather indices).
pub fn expect_integer_input(call: &OpCall<'_>, index: usize, what: &str) -> Result<(), ShapeError> {
    let Some(input) = call.inputs.get(index) else {
        return Ok(());
    };
    let t = input.element_type;
    if t.is_static() && !t.is_integral() {
        return Err(ShapeError::ElementType {
            what: what.to_owned(),
            message: format!("must be an integer tensor, got {t}"),
        });
    }
    Ok(())
}

/// Checks that inputs `a` and `b` have the same element type (where known).
pub fn expect_same_type(call: &OpCall<'_>, a: usize, b: usize) -> Result<ElementType, ShapeError> {
    let (ta, tb) = (call.inputs[a].element_type, call.inputs[b].element_type);
    match (ta.is_static(), tb.is_static()) {
        (true, true) if ta != tb => Err(ShapeError::ElementType {
            what: format!("inputs {a} and {b}"),
            message: format!("must have the same element type, got {ta} and {tb}"),
        }),
        (true, _) => Ok(ta),
        _ => Ok(tb),
    }
}

/// The output with the shape and type of input `index` (unary elementwise ops).
pub fn same_as_input(call: &OpCall<'_>, index: usize) -> Result<TensorInfo, ShapeError> {
    let input = call.inputs.get(index).ok_or(ShapeError::InputCount {
        expected: format!("at least {}", index + 1),
        actual: call.inputs.len(),
    })?;
    Ok(TensorInfo::new(input.element_type, input.shape.clone()))
}

/// A fresh symbol for a dim known only at run time, bounded by `upper`
/// (`[0, upper]`), created by the current node.
pub fn data_dependent_dim(
    ctx: &mut InferContext,
    upper: &Dim,
    reason: &str,
) -> Result<Dim, ShapeError> {
    let hi = ctx.symbols.bounds(upper)?.hi;
    let symbol = ctx.fresh_symbol(symdim::Interval::new(Some(0), hi), reason);
    Ok(Expr::symbol(symbol))
}

/// The size of a data-dependent selection made by the current layer (the
/// count NonZero, Compress or Extract keep): `0` when `upper` is provably 0,
/// else a fresh symbol in `[0, upper]` that keeps `upper` as its symbolic
/// bound ([`symdim::SymbolInfo::upper`]), or in `[0, ∞)` when there is no
/// upper bound (an input of unknown rank).
pub fn data_dependent_count(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    upper: Option<&Dim>,
    reason: &str,
) -> Result<Dim, ShapeError> {
    let Some(upper) = upper else {
        let symbol = ctx.fresh_symbol(symdim::Interval::new(Some(0), None), reason);
        return Ok(Expr::symbol(symbol));
    };
    if ctx.symbols.bounds(upper)?.hi.is_some_and(|hi| hi <= 0) {
        return Ok(Expr::zero());
    }
    let provenance = symdim::Provenance {
        layer: call.node.name.clone(),
        line: call.node.location.line,
        reason: reason.to_owned(),
    };
    let symbol = ctx.symbols.fresh_bounded(upper, Some(provenance))?;
    Ok(Expr::symbol(symbol))
}

/// The positions of the nonzero elements of a known value (a boolean mask,
/// NonZero's input), `None` unless every element is a known integer.
pub fn nonzero_positions(values: &[Dim]) -> Option<Vec<usize>> {
    let mut positions = Vec::new();
    for (i, v) in values.iter().enumerate() {
        if v.as_constant()? != 0 {
            positions.push(i);
        }
    }
    Some(positions)
}
