//! Slice-8: `data[start:stop:step]` along the given axes (ONNX Slice-13 rules).
//!
//! With constant starts, stops and steps the sliced length is an exact
//! expression of the input dim: `S` sliced 1 to -1 is `max(S - 2, 0)` (`S - 2`
//! when `S >= 2`), step 2 from 0 to INT_MAX is `ceil(S/2)`.

use std::cmp::Ordering;

use ir::{Dim, Shape};
use symdim::{Atom, Expr, Predicate};

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
                   INT_MAX/INT_MIN bound on an unbounded dim records `S <= 2147483647`; unknown \
                   start/stop/step give fresh dims bounded by the input dim; 1-D values are sliced",
        errors: "`slice-step-zero`, `slice-repeated-axis`, `slice-length-mismatch` (start, stop, \
                 step and axes lengths differ), `axis-out-of-range`, `slice-scalar-data` (a scalar \
                 data input, as OpenVINO)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
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
    let lens: Vec<Option<usize>> = (1..call.inputs.len())
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

    let starts = support::input_ints(call, 1);
    let stops = support::input_ints(call, 2);
    // Computed starts and stops (from shapes) as expressions.
    let (start_values, stop_values) = (
        support::input_values(call, 1),
        support::input_values(call, 2),
    );
    let steps = if call.inputs.len() > 3 {
        support::input_ints(call, 3)
    } else {
        known_len.map(|(_, n)| vec![1; n])
    };
    if let Some(steps) = &steps {
        if let Some(i) = steps.iter().position(|&s| s == 0) {
            return Err(ShapeError::rule(
                "slice-step-zero",
                format!("step {i} is 0"),
            ));
        }
    }
    let axes_raw: Option<Vec<i64>> = if call.inputs.len() > 4 {
        support::input_ints(call, 4)
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
    let mut out: Vec<Dim> = in_dims.to_vec();

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
        return Ok(vec![TensorInfo::new(out_type, Shape::ranked(out))]);
    };
    let mut axes = Vec::with_capacity(axes_raw.len());
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
                Some(sliced_len(ctx, &in_dims[axis], start, stop, step)?)
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
            None => super::reshape::fresh_bounded(
                ctx,
                call,
                &in_dims[axis],
                &format!("dim {axis} of a Slice whose start/stop/step are unknown"),
            )?,
        };
    }

    let mut tensor = TensorInfo::new(out_type, Shape::ranked(out));
    // Values of a 1-D tensor (a shape) are sliced too.
    if let (Some(values), [_], Some(starts), Some(stops), Some(steps)) =
        (&data.value, in_dims, &starts, &stops, &steps)
    {
        if let (Some(&start), Some(&stop), Some(&step), true) =
            (starts.first(), stops.first(), steps.first(), axes == [0])
        {
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
    let (start, stop) = (Expr::constant(start), Expr::constant(stop));
    sliced_len_of(ctx, dim, &start, &stop, step)?
        .ok_or_else(|| ShapeError::rule("slice", "internal: constant bounds left unplaced"))
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
    // len = max(0, ceil((U - L)/k)) with U a min and L a max of candidates;
    // U - L = min over the pairs.
    let zero = Expr::zero();
    let (upper, lower, k) = if step > 0 {
        let u = match stop {
            Bound::NegInf => return Ok(Some(zero)),
            Bound::PosInf => dim.clone(),
            Bound::At(p) => ctx.symbols.min(&p, dim)?,
        };
        let l = match start {
            Bound::PosInf => return Ok(Some(zero)),
            Bound::NegInf => zero.clone(),
            Bound::At(p) => ctx.symbols.max(&p, &zero)?,
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
            Bound::PosInf => return Ok(Some(zero)),
            Bound::NegInf => Expr::constant(-1),
            Bound::At(p) => ctx.symbols.max(&p, &Expr::constant(-1))?,
        };
        (u, l, step.checked_neg().ok_or(symdim::DimError::Overflow)?)
    };
    let us = split(&upper, true);
    let ls = split(&lower, false);
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
    Ok(Some(ctx.symbols.max(&best, &Expr::zero())?))
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
fn split(e: &Expr, min: bool) -> Vec<Expr> {
    match (e.as_atom(), min) {
        (Some(Atom::Min(a, b)), true) | (Some(Atom::Max(a, b)), false) => {
            vec![(**a).clone(), (**b).clone()]
        }
        _ => vec![e.clone()],
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
