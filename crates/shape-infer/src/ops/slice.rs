//! Slice-8: `data[start:stop:step]` along the given axes (ONNX Slice-13 rules).
//!
//! With constant starts, stops and steps the sliced length is an exact
//! expression of the input dim: `S` sliced 1 to -1 is `max(S - 2, 0)` (`S - 2`
//! when `S >= 2`), step 2 from 0 to INT_MAX is `ceil(S/2)`.

use std::cmp::Ordering;

use ir::{Dim, Shape};
use smallvec::{smallvec, SmallVec};
use symdim::{Atom, Expr, Interval, Predicate};

use super::support::{self, expect_integer_input, normalize_axis};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Slice",
    versions: &[OpVersion::openvino(8, 8)],
    infer,
    doc: OpDoc {
        summary: "`data[start:stop:step]` along the given axes (ONNX Slice-13 rules).",
        attributes: "-",
        symbolic:
            "exact lengths for constant start/stop/step: `max(0, ceil((end - start)/step))` after \
                   clamping, simplified by the dim's range (`S` from 1 to -1 is `S - 2` when \
                   `S >= 2`, else `max(S - 2, 0)`; step 2 to INT_MAX is `ceil(S/2)`); an i32 \
                   INT_MAX/INT_MIN bound on an unbounded dim records `S <= 2147483647`; where \
                   interval arithmetic on that expression is looser than the range the length \
                   takes over the dim's range, it is clamped to that range; unknown \
                   start/stop/step give fresh dims bounded by the input dim and, for start/stop \
                   known by their ranges (computed from bounded shapes), by interval arithmetic \
                   over the clamped positions; 1-D values are sliced",
        errors: "`slice-step-zero`, `slice-repeated-axis`, `slice-length-mismatch` (start, stop, \
                 step and axes lengths differ), `axis-out-of-range`, `slice-scalar-data` (a scalar \
                 data input, as OpenVINO)",
    },
};

/// Starts, stops, steps or axes: one per sliced axis, rarely more than four
/// (held inline: each was an allocation for every Slice of a chain).
type Ints = SmallVec<[i64; 4]>;

/// Slice's rule; SliceScatter checks its updates against it.
pub(super) fn infer(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 5)?;
    for (i, what) in [
        (1, "input 1 (start)"),
        (2, "input 2 (stop)"),
        (3, "input 3 (step)"),
        (4, "input 4 (axes)"),
    ] {
        expect_integer_input(call, i, what)?;
    }
    let data = &call.inputs[0];
    let out_type = data.element_type;
    let names = ["start", "stop", "step", "axes"];
    // The length of each parameter input, from its values or its shape.
    let lens: SmallVec<[Option<usize>; 4]> = (1..call.inputs.len())
        .map(|i| {
            support::input_values(call, i)
                .map(<[Dim]>::len)
                .or_else(|| {
                    let dims = call.inputs[i].shape.dims()?;
                    match dims {
                        [] => Some(1),
                        [d] => d.as_constant().and_then(|v| usize::try_from(v).ok()),
                        _ => None,
                    }
                })
        })
        .collect();
    let mut known_len: Option<(usize, usize)> = None;
    for (i, len) in lens.iter().enumerate() {
        if let Some(len) = *len {
            match known_len {
                Some((first, l)) if l != len => {
                    return Err(ShapeError::rule(
                        "slice-length-mismatch",
                        format!(
                            "{} has {l} element(s) but {} has {len}",
                            names[first], names[i]
                        ),
                    ));
                }
                None => known_len = Some((i, len)),
                _ => {}
            }
        }
    }

    let starts = support::input_ints_in::<Ints>(call, 1);
    let stops = support::input_ints_in::<Ints>(call, 2);
    // Computed starts and stops (from shapes) as expressions.
    let (start_values, stop_values) = (
        support::input_values(call, 1),
        support::input_values(call, 2),
    );
    let steps = if call.inputs.len() > 3 {
        support::input_ints_in::<Ints>(call, 3)
    } else {
        known_len.map(|(_, n)| smallvec![1; n])
    };
    if let Some(steps) = &steps {
        if let Some(i) = steps.iter().position(|&s| s == 0) {
            return Err(ShapeError::rule(
                "slice-step-zero",
                format!("step {i} is 0"),
            ));
        }
    }
    let axes_raw: Option<Ints> = if call.inputs.len() > 4 {
        support::input_ints_in::<Ints>(call, 4)
    } else {
        known_len.map(|(_, n)| (0..n as i64).collect())
    };

    let Some(in_dims) = data.shape.dims() else {
        return Ok(vec![TensorInfo::new(out_type, Shape::DynamicRank)]);
    };
    let rank = in_dims.len();
    if rank == 0 {
        return Err(ShapeError::rule(
            "slice-scalar-data",
            "the data (input 0) is a scalar; Slice needs rank 1 or more",
        ));
    }
    let mut out: SmallVec<[Dim; 6]> = in_dims.iter().cloned().collect();

    let Some(axes_raw) = axes_raw else {
        // Any axis may be sliced: every dim is bounded by the input's.
        for (axis, d) in out.iter_mut().enumerate() {
            *d = super::reshape::fresh_bounded(
                ctx,
                call,
                &in_dims[axis],
                &format!("dim {axis} of a Slice whose axes are unknown"),
            )?;
        }
        return Ok(vec![TensorInfo::new(out_type, Shape::Ranked(out))]);
    };
    let mut axes: SmallVec<[usize; 4]> = SmallVec::with_capacity(axes_raw.len());
    for &a in &axes_raw {
        let axis = normalize_axis(a, rank, "axis")?;
        if axes.contains(&axis) {
            return Err(ShapeError::rule(
                "slice-repeated-axis",
                format!("axis {a} (axis {axis}) appears more than once in axes {axes_raw:?}"),
            ));
        }
        axes.push(axis);
    }

    for (i, &axis) in axes.iter().enumerate() {
        let params = (
            starts.as_ref().and_then(|v| v.get(i).copied()),
            stops.as_ref().and_then(|v| v.get(i).copied()),
            steps.as_ref().and_then(|v| v.get(i).copied()),
        );
        let symbolic = match (params, start_values, stop_values) {
            ((Some(start), Some(stop), Some(step)), _, _) => {
                let exact = sliced_len(ctx, &in_dims[axis], start, stop, step)?;
                Some(within_sampled_range(
                    ctx,
                    &in_dims[axis],
                    exact,
                    start,
                    stop,
                    step,
                )?)
            }
            ((_, _, Some(step)), Some(starts), Some(stops)) => {
                match (starts.get(i), stops.get(i)) {
                    (Some(start), Some(stop)) => {
                        sliced_len_of(ctx, &in_dims[axis], start, stop, step)?
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        out[axis] = match symbolic {
            Some(d) => d,
            None => {
                let value = |values: Option<&[Dim]>| values.and_then(|v| v.get(i)).cloned();
                unknown_len(
                    ctx,
                    call,
                    &in_dims[axis],
                    (value(start_values), value(stop_values), params.2),
                    &format!("dim {axis} of a Slice whose start/stop/step are unknown"),
                )?
            }
        };
    }

    let mut tensor = TensorInfo::new(out_type, Shape::Ranked(out));
    // Values of a 1-D tensor (a shape) are sliced too.
    if let (Some(values), [_], Some(starts), Some(stops), Some(steps)) =
        (&data.value, in_dims, &starts, &stops, &steps)
    {
        if let (Some(&start), Some(&stop), Some(&step), true) = (
            starts.first(),
            stops.first(),
            steps.first(),
            axes[..] == [0],
        ) {
            if let Some(idx) = slice_indices(values.len() as i64, start, stop, step) {
                tensor = tensor.with_value(
                    idx.into_iter()
                        .map(|i| values[i].clone())
                        .collect::<Vec<_>>(),
                );
            }
        }
    }
    Ok(vec![tensor])
}

/// The indices `[start:stop:step]` selects from `0..len` (ONNX clamping),
/// `None` for step 0.
pub(crate) fn slice_indices(len: i64, start: i64, stop: i64, step: i64) -> Option<Vec<usize>> {
    let n = static_len(len, start, stop, step)?;
    let (s, _) = clamped(len, start, stop, step);
    (0..n)
        .map(|k| usize::try_from(s + i128::from(k) * i128::from(step)).ok())
        .collect()
}

/// Start and end after ONNX clamping (in `i128`, so nothing overflows).
fn clamped(len: i64, start: i64, stop: i64, step: i64) -> (i128, i128) {
    let d = i128::from(len);
    let adj = |v: i64| {
        let v = i128::from(v);
        if v < 0 {
            v + d
        } else {
            v
        }
    };
    let clamp = |v: i128, lo: i128, hi: i128| v.max(lo).min(hi);
    if step > 0 {
        (clamp(adj(start), 0, d), clamp(adj(stop), 0, d))
    } else {
        (clamp(adj(start), 0, d - 1), clamp(adj(stop), -1, d - 1))
    }
}

/// The sliced length of a static dim, `None` for step 0.
pub(crate) fn static_len(len: i64, start: i64, stop: i64, step: i64) -> Option<i64> {
    if step == 0 {
        return None;
    }
    let (s, e) = clamped(len, start, stop, step);
    let (dist, k) = if step > 0 {
        (e - s, i128::from(step))
    } else {
        (s - e, -i128::from(step))
    };
    let n = if dist <= 0 { 0 } else { (dist + k - 1) / k };
    i64::try_from(n).ok()
}

/// The length of `dim[start:stop:step]` as an exact expression. `step != 0`.
pub(crate) fn sliced_len(
    ctx: &mut InferContext,
    dim: &Dim,
    start: i64,
    stop: i64,
    step: i64,
) -> Result<Dim, ShapeError> {
    if step == 0 {
        return Err(ShapeError::rule("slice-step-zero", "step is 0"));
    }
    if let Some(d) = dim.as_constant() {
        return static_len(d, start, stop, step)
            .map(Expr::constant)
            .ok_or(ShapeError::Dim(symdim::DimError::Overflow));
    }
    // Placed as `sliced_len_of` places constants, without making them
    // expressions first (a stop of `i64::MAX` was an allocation).
    let (start, stop) = (extreme(ctx, dim, start)?, extreme(ctx, dim, stop)?);
    len_between(ctx, dim, start, stop, step)
}

/// The length of `dim[start:stop:step]` for start and stop that may be
/// expressions (values computed from shapes: `[0:H]`), exact when each
/// symbolic one is provably non-negative (counted from the start) or
/// negative (from the end); `None` when a sign is undecided. `step != 0`.
pub(crate) fn sliced_len_of(
    ctx: &mut InferContext,
    dim: &Dim,
    start: &Dim,
    stop: &Dim,
    step: i64,
) -> Result<Option<Dim>, ShapeError> {
    if step == 0 {
        return Err(ShapeError::rule("slice-step-zero", "step is 0"));
    }
    if let (Some(d), Some(a), Some(b)) =
        (dim.as_constant(), start.as_constant(), stop.as_constant())
    {
        return static_len(d, a, b, step)
            .map(|n| Some(Expr::constant(n)))
            .ok_or(ShapeError::Dim(symdim::DimError::Overflow));
    }
    // Values of i32 size and beyond are "past the end" (or before the
    // beginning): certainly for the i64 extremes, else by a recorded assumption
    // when the dim's range does not settle it. Other values are small, so the
    // arithmetic below cannot overflow.
    let (Some(start), Some(stop)) = (place(ctx, dim, start)?, place(ctx, dim, stop)?) else {
        return Ok(None);
    };
    len_between(ctx, dim, start, stop, step).map(Some)
}

/// The length of `dim[start:stop:step]` between placed bounds (see
/// [`sliced_len_of`]). `step != 0`.
fn len_between(
    ctx: &mut InferContext,
    dim: &Dim,
    start: Bound,
    stop: Bound,
    step: i64,
) -> Result<Dim, ShapeError> {
    // len = max(0, ceil((U - L)/k)) with U a min and L a max of candidates;
    // U - L = min over the pairs.
    let zero = Expr::zero();
    let (upper, lower, k) = if step > 0 {
        let u = match stop {
            Bound::NegInf => return Ok(zero),
            Bound::PosInf => dim.clone(),
            Bound::At(p) => ctx.symbols.min(&p, dim)?,
        };
        let l = match start {
            Bound::PosInf => return Ok(zero),
            Bound::NegInf => zero.clone(),
            // A constant start: the larger of it and 0, as `max` answers
            // for two constants (without bounding their difference).
            Bound::At(p) => match p.as_constant() {
                Some(v) => Expr::constant(v.max(0)),
                None => ctx.symbols.max(&p, &zero)?,
            },
        };
        (u, l, step)
    } else {
        let last = dim.add_const(-1)?;
        let u = match start {
            Bound::PosInf => last,
            Bound::NegInf => ctx.symbols.min(&zero, &last)?,
            Bound::At(p) => {
                let inner = ctx.symbols.max(&p, &zero)?;
                ctx.symbols.min(&inner, &last)?
            }
        };
        let l = match stop {
            Bound::PosInf => return Ok(zero),
            Bound::NegInf => Expr::constant(-1),
            Bound::At(p) => ctx.symbols.max(&p, &Expr::constant(-1))?,
        };
        (u, l, step.checked_neg().ok_or(symdim::DimError::Overflow)?)
    };
    let us = split(&upper, true);
    let ls = split(&lower, false);
    if let ([u], [l], 1) = (&us[..], &ls[..], k) {
        if let Some(l) = l.as_constant() {
            // One pair, a whole step, a constant start: `max(u - l, 0)`
            // (each Slice of a chain), built without `u - l` where it can.
            return Ok(ctx.symbols.max_of_difference(u, l)?);
        }
    }
    let mut best: Option<Expr> = None;
    for u in &us {
        for l in &ls {
            let t = u.sub(l)?.ceil_div(k)?;
            best = Some(match best {
                None => t,
                Some(b) => ctx.symbols.min(&b, &t)?,
            });
        }
    }
    let best = best.unwrap_or_else(Expr::zero);
    Ok(ctx.symbols.max(&best, &Expr::zero())?)
}

/// The length of `dim[start:stop:step]` when it has no exact expression: a
/// fresh dim at most `dim`, within the bounds that the ranges of start and
/// stop (values computed from bounded shapes, where known) give with a
/// known step.
pub(crate) fn unknown_len(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    dim: &Dim,
    (start, stop, step): (Option<Dim>, Option<Dim>, Option<i64>),
    reason: &str,
) -> Result<Dim, ShapeError> {
    let fresh = super::reshape::fresh_bounded(ctx, call, dim, reason)?;
    if let (Some(step), Some(s)) = (step.filter(|&k| k != 0), fresh.as_symbol()) {
        let range = |v: Option<Dim>| -> Result<Interval, ShapeError> {
            match v {
                Some(v) => Ok(ctx.symbols.bounds(&v)?),
                None => Ok(Interval::unbounded()),
            }
        };
        let (start, stop) = (range(start)?, range(stop)?);
        let range = len_range(ctx.symbols.bounds(dim)?, start, stop, step);
        // Both ranges hold at every binding; their intersection is never
        // empty then, and left alone if it were.
        let _ = ctx.symbols.restrict(s, range);
    }
    Ok(fresh)
}

/// An unbounded end in [`len_range`]'s `i128` arithmetic: far beyond any
/// `i64`, with room for the sums below.
const INF: i128 = 1 << 100;

/// The range of `clamp(v counted from the end when negative, floor, d + top)`
/// for `v` in `v_range` and `d` in `d_range`. Within each sign of `v` the
/// position grows with `v` and with `d`, so each part's ends are at the
/// box's corners.
fn position_range(
    v_range: (i128, i128),
    d_range: (i128, i128),
    floor: i128,
    top: i128,
) -> (i128, i128) {
    let at = |v: i128, d: i128| {
        let p = if v < 0 { v + d } else { v };
        p.max(floor).min(d + top)
    };
    let (mut lo, mut hi) = (INF, -INF);
    if v_range.1 >= 0 {
        lo = lo.min(at(v_range.0.max(0), d_range.0));
        hi = hi.max(at(v_range.1, d_range.1));
    }
    if v_range.0 < 0 {
        lo = lo.min(at(v_range.0, d_range.0));
        hi = hi.max(at(v_range.1.min(-1), d_range.1));
    }
    (lo, hi)
}

/// Sound bounds of the length of `d[start:stop:step]` when the dim, start
/// and stop are only known by their ranges: interval arithmetic over the
/// clamped positions (ONNX clamping, as [`static_len`]). `step != 0`.
pub(crate) fn len_range(dim: Interval, start: Interval, stop: Interval, step: i64) -> Interval {
    let lo = |v: Option<i64>| v.map_or(-INF, i128::from);
    let hi = |v: Option<i64>| v.map_or(INF, i128::from);
    let d = (lo(dim.lo).max(0), hi(dim.hi));
    let (s, e) = ((lo(start.lo), hi(start.hi)), (lo(stop.lo), hi(stop.hi)));
    let (least, most) = if step > 0 {
        let (s, e) = (position_range(s, d, 0, 0), position_range(e, d, 0, 0));
        (e.0 - s.1, e.1 - s.0)
    } else {
        let (s, e) = (position_range(s, d, 0, -1), position_range(e, d, -1, -1));
        (s.0 - e.1, s.1 - e.0)
    };
    let k = i128::from(step).abs();
    let count = |dist: i128| if dist <= 0 { 0 } else { (dist + k - 1) / k };
    let finite = |v: i128| (v < INF / 2).then(|| i64::try_from(v).ok()).flatten();
    Interval::new(finite(count(least)), finite(count(most)))
}

/// `exact` (the length of `dim[start:stop:step]` as an expression) clamped to
/// the range the length takes over the dim's range, where interval
/// arithmetic on `exact` is looser (it cannot see that `min` and `max`
/// arguments move together: `?[-2:-8:-1]` is at most 6, not 7).
///
/// The length is `max(0, ceil(L/k))` with `L` piecewise linear in the dim,
/// breaking only where a clamp switches (the dim at `±v`, `±v ± 1` for start
/// or stop `v`), and monotone between the breaks; `L` changes sign at most
/// once on a piece, at `±start ± stop`. So its extremes over a range are at
/// the range's ends and next to those points; past the last of them it is
/// monotone: unbounded if it grows there, down to 0 if it shrinks.
pub(crate) fn within_sampled_range(
    ctx: &mut InferContext,
    dim: &Dim,
    exact: Dim,
    start: i64,
    stop: i64,
    step: i64,
) -> Result<Dim, ShapeError> {
    if exact.is_constant() || step == 0 {
        return Ok(exact);
    }
    let range = ctx.symbols.bounds(dim)?;
    let Some((lo_len, hi_len)) = sampled_len_range(range, start, stop, step) else {
        return Ok(exact);
    };
    let bounds = ctx.symbols.bounds(&exact)?;
    let mut out = exact;
    if let Some(h) = hi_len {
        if bounds.hi.is_none_or(|b| b > h) {
            out = ctx.symbols.min(&out, &Expr::constant(h))?;
        }
    }
    if bounds.lo.is_none_or(|b| b < lo_len) {
        out = ctx.symbols.max(&out, &Expr::constant(lo_len))?;
    }
    Ok(out)
}

/// The least and (when bounded) greatest length of `d[start:stop:step]`
/// for `d` in `range`, from samples ([`within_sampled_range`]); `None` when
/// a sample has no length. A function of its four arguments alone, so the
/// last answer is kept: the Slices of a chain ask the same again and again
/// (about 40 samples, each a division in `i128`).
fn sampled_len_range(
    range: Interval,
    start: i64,
    stop: i64,
    step: i64,
) -> Option<(i64, Option<i64>)> {
    type Sampled = ((Interval, i64, i64, i64), Option<(i64, Option<i64>)>);
    thread_local! {
        static LAST: std::cell::Cell<Option<Sampled>> = const { std::cell::Cell::new(None) };
    }
    let key = (range, start, stop, step);
    if let Some((k, answer)) = LAST.get() {
        if k == key {
            return answer;
        }
    }
    let answer = sample_len_range(range, start, stop, step);
    LAST.set(Some((key, answer)));
    answer
}

/// [`sampled_len_range`], computed.
fn sample_len_range(
    range: Interval,
    start: i64,
    stop: i64,
    step: i64,
) -> Option<(i64, Option<i64>)> {
    let d_lo = range.lo.unwrap_or(0).max(0);
    let len = |d: i64| static_len(d, start, stop, step);
    // The lengths at the sample points, folded as they are found (no list
    // of points: this runs for every Slice of a chain).
    let mut lo_len = i64::MAX;
    let mut hi_len = 0;
    let mut sample = |p: i64| -> Option<()> {
        let n = len(p)?;
        lo_len = lo_len.min(n);
        hi_len = hi_len.max(n);
        Some(())
    };
    sample(d_lo)?;
    let mut last_break = d_lo;
    let (a, b) = (i128::from(start), i128::from(stop));
    for brk in [a, -a, b, -b, a - b, b - a, a + b, -a - b] {
        for off in -2..=2 {
            // Points beyond i64 are beyond every dim.
            if let Ok(p) = i64::try_from(brk + off) {
                if p >= d_lo && range.hi.is_none_or(|h| p <= h) {
                    sample(p)?;
                    last_break = last_break.max(p);
                }
            }
        }
    }
    // Past the last break the length is `max(0, ceil(L/k))` for one linear
    // `L` of fixed sign: growing over one step means growing forever,
    // shrinking means reaching 0.
    let (unbounded, reaches_zero) = match range.hi {
        Some(h) => {
            sample(h)?;
            (false, false)
        }
        None => {
            let b = last_break.checked_add_unsigned(step.unsigned_abs());
            match (len(last_break), b.and_then(len)) {
                (Some(x), Some(y)) => (y > x, y < x),
                _ => return None,
            }
        }
    };
    let hi_len = (!unbounded).then_some(hi_len);
    if reaches_zero {
        lo_len = 0;
    }
    Some((lo_len, hi_len))
}

/// A start or stop as a position in `dim`: a constant through [`extreme`];
/// an expression counted from the start when provably non-negative, from the
/// end when provably negative; `None` when its sign is undecided.
fn place(ctx: &mut InferContext, dim: &Dim, raw: &Dim) -> Result<Option<Bound>, ShapeError> {
    if let Some(c) = raw.as_constant() {
        return extreme(ctx, dim, c).map(Some);
    }
    match ctx
        .symbols
        .decide(&Predicate::Ge(raw.clone(), Expr::zero()))
    {
        Some(true) => Ok(Some(Bound::At(raw.clone()))),
        Some(false) => Ok(Some(Bound::At(dim.add(raw)?))),
        None => Ok(None),
    }
}

/// The arguments of a `min` (or `max`) atom, else the expression itself.
fn split(e: &Expr, min: bool) -> SmallVec<[&Expr; 2]> {
    match (e.as_atom(), min) {
        (Some(Atom::Min(a, b)), true) | (Some(Atom::Max(a, b)), false) => smallvec![a, b],
        _ => smallvec![e],
    }
}

/// `raw` (negative counts from the end of `dim`) made relative to the start.
fn adjust(dim: &Dim, raw: i64) -> Result<Expr, ShapeError> {
    Ok(if raw < 0 {
        dim.add_const(raw)?
    } else {
        Expr::constant(raw)
    })
}

const I32_EXTREME: i64 = i32::MAX as i64;

/// A slice bound after taking the extremes as infinite: a position
/// relative to the start of the dim (a negative raw value already counted
/// from the end).
#[derive(Clone)]
enum Bound {
    NegInf,
    At(Expr),
    PosInf,
}

/// `raw` as a [`Bound`]: values of magnitude `>= i32::MAX` are past the end
/// (or before the beginning) of the dim, which is certain for the i64
/// extremes and for dims whose range settles it, and otherwise recorded as an
/// assumption (`S <= 2147483647`).
fn extreme(ctx: &mut InferContext, dim: &Dim, raw: i64) -> Result<Bound, ShapeError> {
    if raw > -I32_EXTREME && raw < I32_EXTREME {
        return Ok(Bound::At(adjust(dim, raw)?));
    }
    let (bound, limit) = if raw > 0 {
        (Bound::PosInf, raw)
    } else {
        (
            Bound::NegInf,
            raw.checked_add(1)
                .and_then(i64::checked_neg)
                .unwrap_or(i64::MAX),
        )
    };
    // Past the end when dim <= limit; before the beginning when
    // dim + raw <= -1, i.e. dim <= -raw - 1 (always for i64::MIN).
    let certain = raw == i64::MAX
        || raw == i64::MIN
        || matches!(
            ctx.symbols.compare(dim, &Expr::constant(limit)),
            Some(Ordering::Less | Ordering::Equal)
        );
    if !certain {
        ctx.assume(Predicate::Le(dim.clone(), Expr::constant(limit)))?;
    }
    Ok(bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Intervals over `ends` (`None`: unbounded), every `lo <= hi` pair.
    fn intervals(ends: &[Option<i64>]) -> Vec<Interval> {
        let mut out = Vec::new();
        for &lo in ends {
            for &hi in ends {
                match (lo, hi) {
                    (Some(l), Some(h)) if l > h => {}
                    (None, _) | (_, None) | (Some(_), Some(_)) => out.push(Interval::new(lo, hi)),
                }
            }
        }
        out
    }

    /// The concrete values of `range` inside `window` (where a concrete
    /// check can reach).
    fn members(range: Interval, window: (i64, i64)) -> impl Iterator<Item = i64> {
        let lo = range.lo.unwrap_or(window.0).max(window.0);
        let hi = range.hi.unwrap_or(window.1).min(window.1);
        lo..=hi
    }

    /// `len_range` contains the sliced length at every dim, start and stop
    /// of its ranges: exhaustively over small ranges, unbounded ends
    /// checked across a window beyond every finite end.
    #[test]
    fn len_range_contains_every_concrete_length() {
        let values = intervals(&[
            None,
            Some(-6),
            Some(-3),
            Some(-1),
            Some(0),
            Some(2),
            Some(5),
        ]);
        let dims = intervals(&[Some(0), Some(1), Some(3), Some(7), None]);
        for step in [1, 2, 3, -1, -2, -3] {
            for &dim in &dims {
                for &start in &values {
                    for &stop in &values {
                        let range = len_range(dim, start, stop, step);
                        for d in members(dim, (0, 12)) {
                            for s in members(start, (-14, 14)) {
                                for e in members(stop, (-14, 14)) {
                                    let n = static_len(d, s, e, step).expect("step is not 0");
                                    assert!(
                                        range.contains(n),
                                        "{d}[{s}:{e}:{step}] has {n} elements, outside \
                                         {range:?} (dim {dim:?}, start {start:?}, stop {stop:?})"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
