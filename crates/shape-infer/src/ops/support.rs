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
    input_ints_in(call, index)
}

/// [`input_ints`] collected into `C` (a rule that keeps them inline).
pub fn input_ints_in<C: FromIterator<i64>>(call: &OpCall<'_>, index: usize) -> Option<C> {
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

/// Propagated values (of [`TensorInfo::value`]) are kept for at most this many
/// elements; larger results carry no value.
pub const MAX_VALUE_ELEMENTS: usize = super::constant::MAX_VALUE_ELEMENTS as usize;

/// Floating-point values (of [`TensorInfo::real_value`]) are kept for at most
/// this many elements.
pub const MAX_REAL_VALUE_ELEMENTS: usize = super::constant::MAX_REAL_VALUE_ELEMENTS as usize;

/// A fresh symbol in `[0, ∞)` for a dim known only at run time, created by the
/// current node.
pub fn unknown_dim(ctx: &mut InferContext, reason: impl Into<String>) -> Dim {
    Expr::symbol(ctx.fresh_symbol(symdim::Interval::nonnegative(), reason))
}

/// Boolean attribute `key` (default `default`). Text OpenVINO would silently
/// read as false is warned about (`attribute-boolean`) and read as false.
pub fn bool_attr(ctx: &mut InferContext, call: &OpCall<'_>, key: &str, default: bool) -> bool {
    match call.node.attributes.bool(key) {
        Ok(v) => v.unwrap_or(default),
        Err(e) => {
            ctx.warn(
                "attribute-boolean",
                format!("{e}; OpenVINO reads it as false"),
            );
            false
        }
    }
}

/// The single integer of a scalar or one-element input (an `axis` input), when
/// known. A static shape with more than one element is an error.
pub fn scalar_int_input(
    call: &OpCall<'_>,
    index: usize,
    what: &str,
) -> Result<Option<i64>, ShapeError> {
    let Some(input) = call.inputs.get(index) else {
        return Ok(None);
    };
    if let Some(count) = static_element_count(&input.shape) {
        if count != 1 || input.shape.rank().is_some_and(|r| r > 1) {
            return Err(ShapeError::rule(
                "axis-not-scalar",
                format!(
                    "{what} must be a scalar or have one element, got shape {:?}",
                    input.shape.to_static().unwrap_or_default()
                ),
            ));
        }
    }
    Ok(input_ints(call, index).and_then(|v| match v.as_slice() {
        [x] => Some(*x),
        _ => None,
    }))
}

/// Checks that input `index` is 1-D (or of unknown rank); `what` names it.
pub fn expect_rank_le1(
    call: &OpCall<'_>,
    index: usize,
    what: &str,
    allow_scalar: bool,
) -> Result<(), ShapeError> {
    let Some(rank) = call.inputs.get(index).and_then(|t| t.shape.rank()) else {
        return Ok(());
    };
    if rank == 1 || (allow_scalar && rank == 0) {
        return Ok(());
    }
    Err(ShapeError::rule(
        "input-rank",
        format!(
            "{what} must be {}, got rank {rank}",
            if allow_scalar {
                "a scalar or 1-D"
            } else {
                "1-D"
            }
        ),
    ))
}

/// Merges two dims that must be equal (`what` names them in the error): the
/// same expression or provably equal gives it; provably different is an error
/// of rule `rule`; otherwise the equality is recorded as a constraint and the
/// static one (or `a`) is used.
pub fn merge_equal_dims(
    ctx: &mut InferContext,
    a: &Dim,
    b: &Dim,
    rule: &'static str,
    what: &str,
) -> Result<Dim, ShapeError> {
    if a == b {
        return Ok(a.clone());
    }
    match ctx.symbols.compare(a, b) {
        Some(std::cmp::Ordering::Equal) => Ok(if b.is_constant() {
            b.clone()
        } else {
            a.clone()
        }),
        Some(_) => Err(ShapeError::rule(
            rule,
            format!(
                "{what}: {} and {} differ",
                ctx.symbols.display(a),
                ctx.symbols.display(b)
            ),
        )),
        None => {
            ctx.assume(symdim::Predicate::Eq(a.clone(), b.clone()))?;
            Ok(if b.is_constant() && !a.is_constant() {
                b.clone()
            } else {
                a.clone()
            })
        }
    }
}

/// The dims of a shape with a known rank as display text (`[N, 3]`).
pub fn show_dims(ctx: &InferContext, dims: &[Dim]) -> String {
    let items: Vec<String> = dims
        .iter()
        .map(|d| ctx.symbols.display(d).to_string())
        .collect();
    format!("[{}]", items.join(", "))
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

/// The known values of `input` cut along `axis` into pieces of the given
/// lengths (Split, VariadicSplit on shape values), when the input's shape and
/// the lengths are static; `None` otherwise.
pub fn split_values(input: &TensorInfo, axis: usize, pieces: &[Dim]) -> Option<Vec<Vec<Dim>>> {
    let values = input.value.as_ref()?;
    let dims = static_dims(input.shape.dims()?)?;
    let lengths = static_dims(pieces)?;
    let outer: usize = dims.get(..axis)?.iter().product();
    let inner: usize = dims.get(axis + 1..)?.iter().product();
    if lengths.iter().sum::<usize>() != *dims.get(axis)?
        || outer * dims[axis] * inner != values.len()
    {
        return None;
    }
    let mut out = Vec::with_capacity(lengths.len());
    let mut offset = 0;
    for len in lengths {
        let mut piece = Vec::with_capacity(outer * len * inner);
        for o in 0..outer {
            let start = (o * dims[axis] + offset) * inner;
            piece.extend_from_slice(&values[start..start + len * inner]);
        }
        offset += len;
        out.push(piece);
    }
    Some(out)
}

/// Whether a scatter layer of op version `since` or later combines its
/// updates by a `reduction` other than `none`.
pub fn reduces(call: &OpCall<'_>, since: u32) -> bool {
    call.version >= since
        && call
            .node
            .attributes
            .get("reduction")
            .is_some_and(|r| !r.trim().eq_ignore_ascii_case("none"))
}

/// `dims` as `usize`s when every one is a non-negative constant.
pub fn static_dims(dims: &[Dim]) -> Option<Vec<usize>> {
    dims.iter()
        .map(|d| usize::try_from(d.as_constant()?).ok())
        .collect()
}

/// Each element's lowest and highest value, where known: from exact values
/// (their symbols' bounds), a tensor's own value bounds, or a float
/// constant. `None` when nothing is known of the values.
pub fn known_value_bounds(ctx: &InferContext, input: &TensorInfo) -> Option<Vec<(f64, f64)>> {
    if let Some(values) = &input.value {
        return values
            .iter()
            .map(|v| {
                let b = ctx.symbols.bounds(v).ok()?;
                Some((
                    b.lo.map_or(f64::NEG_INFINITY, |l| l as f64),
                    b.hi.map_or(f64::INFINITY, |h| h as f64),
                ))
            })
            .collect();
    }
    if let Some(bounds) = input.value_bounds() {
        return Some(bounds.to_vec());
    }
    input
        .real_value()
        .map(|reals| reals.iter().map(|&r| (r, r)).collect())
}

/// Checks that input `index` has one of `ranks` (or an unknown rank);
/// `what` names it in the `input-rank` error.
pub fn expect_rank_in(
    call: &OpCall<'_>,
    index: usize,
    ranks: &[usize],
    what: &str,
) -> Result<(), ShapeError> {
    match call.inputs.get(index).and_then(|t| t.shape.rank()) {
        Some(r) if !ranks.contains(&r) => Err(ShapeError::rule(
            "input-rank",
            format!("{what} must have rank {ranks:?}, got {r}"),
        )),
        _ => Ok(()),
    }
}

/// Checks that input `index` is of a floating-point type (or not yet
/// known); `what` names it in the error.
pub fn expect_real_input(call: &OpCall<'_>, index: usize, what: &str) -> Result<(), ShapeError> {
    let t = call.inputs[index].element_type;
    if t.is_static() && !t.is_real() {
        return Err(ShapeError::ElementType {
            what: what.to_owned(),
            message: format!("must be a floating-point type, got {t}"),
        });
    }
    Ok(())
}

/// An index element-type attribute (`output_type`, `index_element_type`,
/// ...): `i32` or `i64`, `default` when absent; any other value is an error
/// of rule `rule`.
pub fn index_type_attr(
    call: &OpCall<'_>,
    key: &str,
    default: ElementType,
    rule: &'static str,
) -> Result<ElementType, ShapeError> {
    match call.node.attributes.get(key).map(str::trim) {
        None => Ok(default),
        Some("i32") => Ok(ElementType::I32),
        Some("i64") => Ok(ElementType::I64),
        Some(other) => Err(ShapeError::rule(
            rule,
            format!("`{key}` {other} is not i32 or i64"),
        )),
    }
}

/// Checks that input `index`, when present, is of an index type (i32 or
/// i64, or not yet known); `what` names it in the error.
pub fn expect_index_input(call: &OpCall<'_>, index: usize, what: &str) -> Result<(), ShapeError> {
    let Some(input) = call.inputs.get(index) else {
        return Ok(());
    };
    let t = input.element_type;
    if t.is_static() && !matches!(t, ElementType::I32 | ElementType::I64) {
        return Err(ShapeError::ElementType {
            what: what.to_owned(),
            message: format!("must be i32 or i64, got {t}"),
        });
    }
    Ok(())
}

/// Checks that `dim` is divisible by `divisor` (`what` names it): an error
/// of rule `rule` when it provably is not, a recorded constraint when the
/// dims cannot tell.
pub fn expect_divisible(
    ctx: &mut InferContext,
    dim: &Dim,
    divisor: i64,
    rule: &'static str,
    what: &str,
) -> Result<(), ShapeError> {
    let predicate = symdim::Predicate::Divides {
        divisor,
        expr: dim.clone(),
    };
    match ctx.symbols.decide(&predicate) {
        Some(false) => Err(ShapeError::rule(
            rule,
            format!(
                "{what} ({}) is not divisible by {divisor}",
                ctx.symbols.display(dim)
            ),
        )),
        _ => ctx.assume(predicate),
    }
}
