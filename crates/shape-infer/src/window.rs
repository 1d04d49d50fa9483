//! Windowed spatial arithmetic: a window (a convolution's filter, a pooling
//! kernel) sliding over the spatial axes of `[N, C, D1, …, Dk]`.
//!
//! Every convolution and pooling op takes its spatial output dims and its
//! pads from here, as every broadcasting op takes its dims from
//! [`crate::broadcast`]; the executor's kernels call [`forward_pads`] and
//! [`backward_pads`] with constant dims for the pads they apply, so the
//! arithmetic exists once. The rules are OpenVINO's
//! (`convolution_shape_inference_util.hpp`, `pooling_shape_inference_util.hpp`,
//! `convolution_backprop_shape_inference_util.hpp`), kept symbolic:
//!
//! * the dilated window is `dk = d*(k - 1) + 1`;
//! * explicit pads: `floor((D + pb + pe - dk)/s) + 1` (pooling's `ceil`
//!   rounding: `ceil(…) + 1`; `ceil_torch`: the last window must start inside
//!   the input or its left padding);
//! * `same_upper` / `same_lower`: the total pad is
//!   `max((ceil(D/s) - 1)*s + dk - D, 0)`, half of it (rounded down) on the
//!   named side's opposite end, so the output is `ceil(D/s)`;
//! * `valid`: no pads;
//! * backward (transposed) windows: `s*(D - 1) + dk - pb - pe + output_padding`.
//!
//! A window that must fit in its padded input (`D + pb + pe >= dk`) is an
//! error when the dims say it cannot and a recorded constraint when they
//! cannot tell.

use ir::{Dim, Node};
use symdim::{Expr, Predicate, SymbolTable};

use crate::context::InferContext;
use crate::error::ShapeError;

/// How a window's pads are chosen (`auto_pad`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AutoPad {
    /// `explicit` (or `notset`): the `pads_begin` / `pads_end` attributes.
    Explicit,
    /// `same_upper`: pads that give `ceil(D/s)` outputs, the odd one at the end.
    SameUpper,
    /// `same_lower`: the same pads, the odd one at the beginning.
    SameLower,
    /// `valid`: no pads.
    Valid,
}

impl AutoPad {
    /// Reads the `auto_pad` attribute (default `explicit`). OpenVINO reads
    /// the names case-insensitively.
    pub fn read(node: &Node) -> Result<AutoPad, ShapeError> {
        let Some(text) = node.attributes.get("auto_pad") else {
            return Ok(AutoPad::Explicit);
        };
        match text.trim().to_ascii_lowercase().as_str() {
            "explicit" | "notset" | "" => Ok(AutoPad::Explicit),
            "same_upper" => Ok(AutoPad::SameUpper),
            "same_lower" => Ok(AutoPad::SameLower),
            "valid" => Ok(AutoPad::Valid),
            _ => Err(ShapeError::rule(
                "window-attribute",
                format!(
                    "`auto_pad` \"{text}\" is not one of explicit, notset, same_upper, same_lower, valid"
                ),
            )),
        }
    }

    /// `same_upper` or `same_lower`.
    pub fn is_same(self) -> bool {
        matches!(self, AutoPad::SameUpper | AutoPad::SameLower)
    }
}

/// How a pooling window's output count is rounded (`rounding_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    /// `floor`: only windows that end inside the padded input.
    Floor,
    /// `ceil`: a last, partial window may hang over the end.
    Ceil,
    /// `ceil_torch` (MaxPool-14, AvgPool-14): as `ceil`, but the last window
    /// must start inside the input or its left padding (PyTorch's rule).
    CeilTorch,
}

impl Rounding {
    /// Reads the `rounding_type` attribute (default `floor`); `ceil_torch`
    /// only where `allow_torch` (the v14 pooling ops).
    pub fn read(node: &Node, allow_torch: bool) -> Result<Rounding, ShapeError> {
        let Some(text) = node.attributes.get("rounding_type") else {
            return Ok(Rounding::Floor);
        };
        match text.trim().to_ascii_lowercase().as_str() {
            "floor" => Ok(Rounding::Floor),
            "ceil" => Ok(Rounding::Ceil),
            "ceil_torch" if allow_torch => Ok(Rounding::CeilTorch),
            "ceil_torch" => Err(ShapeError::rule(
                "window-attribute",
                "`rounding_type` ceil_torch is only defined for MaxPool-14 and AvgPool-14",
            )),
            _ => Err(ShapeError::rule(
                "window-attribute",
                format!("`rounding_type` \"{text}\" is not one of floor, ceil, ceil_torch"),
            )),
        }
    }
}

/// The window attributes common to convolutions and pooling, one entry per
/// spatial axis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowAttrs {
    pub strides: Vec<i64>,
    pub dilations: Vec<i64>,
    /// The `pads_begin` attribute (zeros when empty); only used with
    /// [`AutoPad::Explicit`].
    pub pads_begin: Vec<i64>,
    /// The `pads_end` attribute (zeros when empty).
    pub pads_end: Vec<i64>,
    pub auto_pad: AutoPad,
}

/// Where the attributes come from, for what [`WindowAttrs::read`] accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowKind {
    /// Convolutions: `dilations` required, pads may be negative.
    Convolution,
    /// Pooling with a `dilations` attribute (MaxPool-8/-14), ones when absent.
    DilatedPool,
    /// Pooling without dilations (MaxPool-1, AvgPool): all ones.
    Pool,
}

impl WindowAttrs {
    /// Reads and checks `strides`, `dilations`, `pads_begin`, `pads_end` and
    /// `auto_pad` for `spatial` axes: every list has one entry per axis
    /// (empty pads are zeros, as OpenVINO resizes them), strides and
    /// dilations are positive, pooling pads are not negative.
    pub fn read(node: &Node, spatial: usize, kind: WindowKind) -> Result<WindowAttrs, ShapeError> {
        let attrs = &node.attributes;
        let list = |key: &str| -> Result<Option<Vec<i64>>, ShapeError> { Ok(attrs.i64_list(key)?) };
        let required = |key: &str| -> Result<Vec<i64>, ShapeError> {
            list(key)?.ok_or_else(|| {
                ShapeError::rule(
                    "window-attribute",
                    format!("the `{key}` attribute is missing"),
                )
            })
        };
        let strides = required("strides")?;
        let dilations = match kind {
            WindowKind::Convolution => required("dilations")?,
            WindowKind::DilatedPool => list("dilations")?
                .filter(|d| !d.is_empty())
                .unwrap_or_else(|| vec![1; spatial]),
            WindowKind::Pool => vec![1; spatial],
        };
        let auto_pad = AutoPad::read(node)?;
        let pads = |key: &str| -> Result<Vec<i64>, ShapeError> {
            // Pads are ignored (and may be absent) unless explicit.
            let values = match auto_pad {
                AutoPad::Explicit => required(key)?,
                _ => list(key)?.unwrap_or_default(),
            };
            Ok(if values.is_empty() {
                vec![0; spatial]
            } else {
                values
            })
        };
        let pads_begin = pads("pads_begin")?;
        let pads_end = pads("pads_end")?;
        for (key, values) in [
            ("strides", &strides),
            ("dilations", &dilations),
            ("pads_begin", &pads_begin),
            ("pads_end", &pads_end),
        ] {
            if values.len() != spatial {
                return Err(ShapeError::rule(
                    "window-attribute",
                    format!(
                        "`{key}` has {} entries ({values:?}) but the input has {spatial} spatial dims",
                        values.len()
                    ),
                ));
            }
        }
        for (key, values) in [("strides", &strides), ("dilations", &dilations)] {
            if let Some(bad) = values.iter().find(|&&v| v <= 0) {
                return Err(ShapeError::rule(
                    "window-attribute",
                    format!("`{key}` {values:?} has the non-positive entry {bad}"),
                ));
            }
        }
        if kind != WindowKind::Convolution && auto_pad == AutoPad::Explicit {
            for (key, values) in [("pads_begin", &pads_begin), ("pads_end", &pads_end)] {
                if let Some(bad) = values.iter().find(|&&v| v < 0) {
                    return Err(ShapeError::rule(
                        "window-attribute",
                        format!("pooling `{key}` {values:?} has the negative entry {bad}"),
                    ));
                }
            }
        }
        Ok(WindowAttrs {
            strides,
            dilations,
            pads_begin,
            pads_end,
            auto_pad,
        })
    }
}

/// The begin and end pads of one axis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pads {
    pub begin: Dim,
    pub end: Dim,
}

impl Pads {
    /// The pads as integers, when both are constant.
    pub fn as_constants(&self) -> Option<(i64, i64)> {
        Some((self.begin.as_constant()?, self.end.as_constant()?))
    }
}

/// The extent of a dilated window: `d*(k - 1) + 1`.
pub fn dilated(kernel: &Dim, dilation: i64) -> Result<Dim, ShapeError> {
    Ok(kernel.add_const(-1)?.mul_const(dilation)?.add_const(1)?)
}

/// The pads of one forward axis (a convolution or a pooling window) of
/// `input` with a dilated window of `window` and `stride`: the explicit ones,
/// none for `valid`, or for `same_*` the total
/// `max((ceil(D/s) - 1)*s + dk - D, 0)` split with the smaller half at the
/// beginning (`same_upper`) or at the end (`same_lower`).
pub fn forward_pads(
    symbols: &SymbolTable,
    auto_pad: AutoPad,
    input: &Dim,
    window: &Dim,
    stride: i64,
    explicit: (i64, i64),
) -> Result<Pads, ShapeError> {
    let (smaller, larger) = match auto_pad {
        AutoPad::Explicit => {
            return Ok(Pads {
                begin: Expr::constant(explicit.0),
                end: Expr::constant(explicit.1),
            })
        }
        AutoPad::Valid => {
            return Ok(Pads {
                begin: Expr::zero(),
                end: Expr::zero(),
            })
        }
        AutoPad::SameUpper | AutoPad::SameLower => {
            let covered = input
                .ceil_div(stride)?
                .add_const(-1)?
                .mul_const(stride)?
                .add(window)?
                .sub(input)?;
            let total = symbols.max(&covered, &Expr::zero())?;
            let smaller = total.floor_div(2)?;
            let larger = total.sub(&smaller)?;
            (smaller, larger)
        }
    };
    Ok(if auto_pad == AutoPad::SameUpper {
        Pads {
            begin: smaller,
            end: larger,
        }
    } else {
        Pads {
            begin: larger,
            end: smaller,
        }
    })
}

/// The number of positions of a forward window on one axis: `input` padded
/// by `pads`, a dilated window of `window`, `stride`, `rounding`.
///
/// The window must fit in the padded input: when the dims say it cannot,
/// this is the error `window-exceeds-input` (OpenVINO's "Kernel after
/// dilation has size … larger than the data shape after padding"); when they
/// cannot tell, the fit is recorded as a constraint. `axis` names the
/// spatial axis (0-based) in messages.
pub fn forward_extent(
    ctx: &mut InferContext,
    input: &Dim,
    window: &Dim,
    stride: i64,
    pads: &Pads,
    rounding: Rounding,
    axis: usize,
) -> Result<Dim, ShapeError> {
    // Stated on the input alone (`H >= 3`), which reads better than the
    // equivalent `H + 2 >= 5`. The pads and the window are constants in
    // almost every model: they fold first, so the input's expression takes
    // one sum (`H - 1`), not three.
    let needed = window.sub(&pads.begin)?.sub(&pads.end)?;
    let slack = input.sub(&needed)?;
    let fits = Predicate::Ge(input.clone(), needed);
    match ctx.symbols.decide(&fits) {
        Some(true) => {}
        Some(false) => {
            let padded = input.add(&pads.begin)?.add(&pads.end)?;
            return Err(ShapeError::rule(
                "window-exceeds-input",
                format!(
                    "spatial axis {axis}: the window after dilation ({}) is larger than the padded input ({} = {} + {} + {})",
                    ctx.symbols.display(window),
                    ctx.symbols.display(&padded),
                    ctx.symbols.display(input),
                    ctx.symbols.display(&pads.begin),
                    ctx.symbols.display(&pads.end),
                ),
            ));
        }
        None => ctx.assume(fits)?,
    }
    Ok(match rounding {
        Rounding::Floor => floor_positions(&slack, stride)?,
        Rounding::Ceil => slack.ceil_div(stride)?.add_const(1)?,
        Rounding::CeilTorch if ends_before_end_pad(window, stride, pads) => {
            // `last*s < D + pb + pe - dk + s <= D + pb`: the last window
            // always starts inside the input or its left padding.
            slack.ceil_div(stride)?.add_const(1)?
        }
        Rounding::CeilTorch => {
            // `last` is the start of the last ceil-rounded window; it is kept
            // only if it starts before the end of input and left padding:
            // `last*s < D + pb`, i.e. `last < ceil((D + pb)/s)`. So the count
            // is `min(last + 1, max(last, ceil((D + pb)/s)))`.
            let last = slack.ceil_div(stride)?;
            let starts = input.add(&pads.begin)?.ceil_div(stride)?;
            let kept = ctx.symbols.max(&last, &starts)?;
            ctx.symbols.min(&last.add_const(1)?, &kept)?
        }
    })
}

/// `floor(slack/s) + 1`: the positions of a window with `slack` spare
/// elements (`D + pb + pe - dk`) moving by `stride`.
fn floor_positions(slack: &Dim, stride: i64) -> Result<Dim, ShapeError> {
    Ok(slack.floor_div(stride)?.add_const(1)?)
}

/// The positions of a forward window (floor rounding) where a window that
/// does not fit gives none instead of an error (ExtractImagePatches):
/// `max(floor((D + pb + pe - dk)/s) + 1, 0)`, the `max` dropped when the
/// dims decide it.
pub fn clamped_forward_extent(
    symbols: &SymbolTable,
    input: &Dim,
    window: &Dim,
    stride: i64,
    pads: &Pads,
) -> Result<Dim, ShapeError> {
    let slack = input.add(&pads.begin)?.add(&pads.end)?.sub(window)?;
    Ok(symbols.max(&floor_positions(&slack, stride)?, &Expr::zero())?)
}

/// The positions of a forward window (floor rounding) of `kernel` elements
/// dilated by `dilation` on a concrete `input` with explicit `pads` (the
/// same arithmetic as the shape rules, for kernels); `None` when the window
/// does not fit.
pub fn concrete_positions(
    input: usize,
    kernel: i64,
    dilation: i64,
    stride: i64,
    pads: (i64, i64),
) -> Option<usize> {
    let window = dilated(&Expr::constant(kernel), dilation).ok()?;
    let slack = Expr::constant(i64::try_from(input).ok()? + pads.0 + pads.1)
        .sub(&window)
        .ok()?;
    if slack.as_constant()? < 0 {
        return None;
    }
    let positions = floor_positions(&slack, stride).ok()?;
    usize::try_from(positions.as_constant()?).ok()
}

/// The pads and the output extent of one forward axis: [`forward_pads`]
/// then [`forward_extent`], except that `same_*` pads with floor rounding
/// give `ceil(D/s)` directly (OpenVINO's rule for them; the general formula
/// gives the same value for every `D >= 1`, but as an expression over the
/// `max` of the pads).
#[allow(clippy::too_many_arguments)]
pub fn forward_axis(
    ctx: &mut InferContext,
    auto_pad: AutoPad,
    input: &Dim,
    window: &Dim,
    stride: i64,
    explicit: (i64, i64),
    rounding: Rounding,
    axis: usize,
) -> Result<(Dim, Pads), ShapeError> {
    let pads = forward_pads(&ctx.symbols, auto_pad, input, window, stride, explicit)?;
    let extent = if auto_pad.is_same() && rounding == Rounding::Floor {
        input.ceil_div(stride)?
    } else {
        forward_extent(ctx, input, window, stride, &pads, rounding, axis)?
    };
    Ok((extent, pads))
}

/// The spatial output dims of a forward window over `input` (the spatial
/// dims of the data) with the window `kernel` (one dim per axis, possibly
/// symbolic for a convolution's filter) and `attrs`: [`forward_axis`] on
/// each axis.
pub fn forward_spatial(
    ctx: &mut InferContext,
    attrs: &WindowAttrs,
    input: &[Dim],
    kernel: &[Dim],
    rounding: Rounding,
) -> Result<Vec<Dim>, ShapeError> {
    let mut out = Vec::with_capacity(input.len());
    for (axis, (d, k)) in input.iter().zip(kernel).enumerate() {
        let window = dilated(k, attrs.dilations[axis])?;
        let explicit = (attrs.pads_begin[axis], attrs.pads_end[axis]);
        let (extent, _) = forward_axis(
            ctx,
            attrs.auto_pad,
            d,
            &window,
            attrs.strides[axis],
            explicit,
            rounding,
            axis,
        )?;
        out.push(extent);
    }
    Ok(out)
}

/// The pads a forward window applies on each axis of concrete `input` dims
/// with a concrete `kernel`: what a kernel needs (the same arithmetic as the
/// shape rules).
pub fn concrete_forward_pads(
    attrs: &WindowAttrs,
    input: &[usize],
    kernel: &[usize],
) -> Result<Vec<(i64, i64)>, ShapeError> {
    let symbols = SymbolTable::new();
    let constant = |v: usize| Expr::constant(i64::try_from(v).unwrap_or(i64::MAX));
    input
        .iter()
        .zip(kernel)
        .enumerate()
        .map(|(axis, (&d, &k))| {
            let window = dilated(&constant(k), attrs.dilations[axis])?;
            let explicit = (attrs.pads_begin[axis], attrs.pads_end[axis]);
            forward_pads(
                &symbols,
                attrs.auto_pad,
                &constant(d),
                &window,
                attrs.strides[axis],
                explicit,
            )?
            .as_constants()
            .ok_or_else(|| {
                ShapeError::rule("window-attribute", "pads of constant dims are not constant")
            })
        })
        .collect()
}

/// Whether `pe + s <= dk` (constants): then no ceil-rounded window can
/// start in the end padding.
fn ends_before_end_pad(window: &Dim, stride: i64, pads: &Pads) -> bool {
    match (window.as_constant(), pads.end.as_constant()) {
        (Some(dk), Some(pe)) => pe.saturating_add(stride) <= dk,
        _ => false,
    }
}

/// The pads of one backward (transposed) axis of `input` with a dilated
/// window of `window`, `stride` and `output_padding`. Explicit pads are used
/// as they are; `valid` has none; `same_*` pads are computed only when the
/// output size is given (`output`, from the `output_shape` input): the total
/// `max(s*(D - 1) + dk - out + output_padding, 0)` with the smaller half at
/// the end for `same_upper` and at the beginning for `same_lower` (OpenVINO's
/// convention for backward windows, the mirror of the forward one); without
/// an output size, `same_*` pads are zero.
#[allow(clippy::too_many_arguments)]
pub fn backward_pads(
    symbols: &SymbolTable,
    auto_pad: AutoPad,
    input: &Dim,
    window: &Dim,
    stride: i64,
    output_padding: i64,
    output: Option<&Dim>,
    explicit: (i64, i64),
) -> Result<Pads, ShapeError> {
    match (auto_pad, output) {
        (AutoPad::Explicit, _) => Ok(Pads {
            begin: Expr::constant(explicit.0),
            end: Expr::constant(explicit.1),
        }),
        (AutoPad::SameUpper | AutoPad::SameLower, Some(output)) => {
            let needed = input
                .add_const(-1)?
                .mul_const(stride)?
                .add(window)?
                .sub(output)?
                .add_const(output_padding)?;
            let total = symbols.max(&needed, &Expr::zero())?;
            let smaller = total.floor_div(2)?;
            let larger = total.sub(&smaller)?;
            Ok(if auto_pad == AutoPad::SameUpper {
                Pads {
                    begin: larger,
                    end: smaller,
                }
            } else {
                Pads {
                    begin: smaller,
                    end: larger,
                }
            })
        }
        _ => Ok(Pads {
            begin: Expr::zero(),
            end: Expr::zero(),
        }),
    }
}

/// The output extent of one backward (transposed) axis:
/// `s*(D - 1) + dk - pb - pe + output_padding`. A result that can be
/// negative for these dims is an error (`window-negative-output`) when
/// provable and a recorded constraint otherwise.
pub fn backward_extent(
    ctx: &mut InferContext,
    input: &Dim,
    window: &Dim,
    stride: i64,
    pads: &Pads,
    output_padding: i64,
    axis: usize,
) -> Result<Dim, ShapeError> {
    let extent = input
        .add_const(-1)?
        .mul_const(stride)?
        .add(window)?
        .sub(&pads.begin)?
        .sub(&pads.end)?
        .add_const(output_padding)?;
    let nonnegative = Predicate::Ge(extent.clone(), Expr::zero());
    match ctx.symbols.decide(&nonnegative) {
        Some(true) => {}
        Some(false) => {
            return Err(ShapeError::rule(
                "window-negative-output",
                format!(
                    "spatial axis {axis}: the output size {} is negative",
                    ctx.symbols.display(&extent)
                ),
            ))
        }
        None => ctx.assume(nonnegative)?,
    }
    Ok(extent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use symdim::Interval;

    fn ctx_with(name: &str, lo: i64) -> (InferContext<'static>, Dim) {
        let mut symbols = SymbolTable::new();
        let h = Expr::symbol(symbols.named(name, Interval::new(Some(lo), None)));
        (InferContext::new(symbols), h)
    }

    fn c(v: i64) -> Dim {
        Expr::constant(v)
    }

    /// Every forward rule against a brute-force count of window positions.
    #[test]
    fn forward_extents_count_the_windows() {
        let symbols = SymbolTable::new();
        for input in 1..24i64 {
            for k in 1..5 {
                for d in 1..3 {
                    for s in 1..4 {
                        let dk = d * (k - 1) + 1;
                        for (pb, pe) in [(0, 0), (1, 1), (1, 0), (0, 2), (2, 1)] {
                            if input + pb + pe < dk {
                                continue;
                            }
                            let pads = Pads {
                                begin: c(pb),
                                end: c(pe),
                            };
                            let count = |r| {
                                let mut ctx = InferContext::new(symbols.clone());
                                forward_extent(&mut ctx, &c(input), &c(dk), s, &pads, r, 0)
                                    .unwrap()
                                    .as_constant()
                                    .unwrap()
                            };
                            // Windows start at 0, s, 2s… in padded coordinates.
                            let floor = (0..).take_while(|i| i * s + dk <= input + pb + pe).count();
                            let ceil = (0..)
                                .take_while(|i| i * s < input + pb + pe - dk + s)
                                .count();
                            // PyTorch drops the last window if it starts in the end padding.
                            let last_start = (ceil as i64 - 1) * s;
                            let torch = if last_start < input + pb {
                                ceil
                            } else {
                                ceil - 1
                            };
                            assert_eq!(count(Rounding::Floor), floor as i64);
                            assert_eq!(count(Rounding::Ceil), ceil as i64);
                            assert_eq!(
                                count(Rounding::CeilTorch),
                                torch as i64,
                                "D={input} dk={dk} s={s} pads={pb},{pe}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn same_pads_give_ceil_of_input_over_stride() {
        let symbols = SymbolTable::new();
        for input in 1..30i64 {
            for dk in 1..8 {
                for s in 1..5 {
                    for auto_pad in [AutoPad::SameUpper, AutoPad::SameLower] {
                        let pads =
                            forward_pads(&symbols, auto_pad, &c(input), &c(dk), s, (9, 9)).unwrap();
                        let (pb, pe) = pads.as_constants().unwrap();
                        let total = (((input + s - 1) / s - 1) * s + dk - input).max(0);
                        assert_eq!(pb + pe, total);
                        assert_eq!(
                            if auto_pad == AutoPad::SameUpper {
                                pb
                            } else {
                                pe
                            },
                            total / 2
                        );
                        let mut ctx = InferContext::new(symbols.clone());
                        let out = forward_extent(
                            &mut ctx,
                            &c(input),
                            &c(dk),
                            s,
                            &pads,
                            Rounding::Floor,
                            0,
                        )
                        .unwrap();
                        assert_eq!(out.as_constant(), Some((input + s - 1) / s));
                    }
                }
            }
        }
    }

    #[test]
    fn symbolic_extents_are_exact_expressions() {
        let (mut ctx, h) = ctx_with("H", 1);
        let pads = Pads {
            begin: c(1),
            end: c(1),
        };
        // A 3x3 convolution with stride 2 and pads 1.
        let out = forward_extent(&mut ctx, &h, &c(3), 2, &pads, Rounding::Floor, 0).unwrap();
        assert_eq!(
            ctx.symbols.display(&out).to_string(),
            "floor((H - 1)/2) + 1"
        );
        assert!(
            ctx.constraints().is_empty(),
            "H >= 1 fits a 3-window padded by 2"
        );
        // Same padding: ceil(H/2), whatever the window; the general formula
        // over the same pads agrees at every H (and gives ceil rounding).
        let (out, same) = forward_axis(
            &mut ctx,
            AutoPad::SameUpper,
            &h,
            &c(3),
            2,
            (0, 0),
            Rounding::Floor,
            0,
        )
        .unwrap();
        assert_eq!(ctx.symbols.display(&out).to_string(), "ceil(H/2)");
        let general = forward_extent(&mut ctx, &h, &c(3), 2, &same, Rounding::Floor, 0).unwrap();
        for v in 1..40 {
            assert_eq!(general.eval(&|_| Some(v)).unwrap(), (v + 1) / 2, "H = {v}");
        }
    }

    #[test]
    fn a_window_that_may_not_fit_is_a_constraint_and_one_that_cannot_is_an_error() {
        let (mut ctx, h) = ctx_with("H", 1);
        let none = Pads {
            begin: c(0),
            end: c(0),
        };
        forward_extent(&mut ctx, &h, &c(7), 1, &none, Rounding::Floor, 0).unwrap();
        assert_eq!(ctx.constraints().len(), 1);
        // The assumption narrows H's range to [7, inf): the same window
        // again, or a smaller one, needs no second constraint.
        let h_symbol = h.as_symbol().unwrap();
        assert_eq!(
            ctx.symbols.range(h_symbol),
            symdim::Interval::new(Some(7), None)
        );
        forward_extent(&mut ctx, &h, &c(7), 1, &none, Rounding::Floor, 0).unwrap();
        forward_extent(&mut ctx, &h, &c(3), 2, &none, Rounding::Floor, 0).unwrap();
        assert_eq!(ctx.constraints().len(), 1);
        let err = forward_extent(&mut ctx, &c(4), &c(7), 1, &none, Rounding::Floor, 1).unwrap_err();
        assert_eq!(err.rule_name(), "window-exceeds-input");
    }

    #[test]
    fn backward_extent_and_pads() {
        let (mut ctx, h) = ctx_with("H", 1);
        let pads = Pads {
            begin: c(1),
            end: c(1),
        };
        // A stride-2, 4-window transposed convolution with pads 1 doubles H.
        let out = backward_extent(&mut ctx, &h, &c(4), 2, &pads, 0, 0).unwrap();
        assert_eq!(ctx.symbols.display(&out).to_string(), "2*H");
        // With a requested output of 2*H + 1 and output_padding 1, same_upper
        // puts the larger half at the beginning.
        let want = c(9);
        let p = backward_pads(
            &ctx.symbols,
            AutoPad::SameUpper,
            &c(4),
            &c(3),
            2,
            1,
            Some(&want),
            (0, 0),
        )
        .unwrap();
        // total = max(2*3 + 3 - 9 + 1, 0) = 1
        assert_eq!(p.as_constants(), Some((1, 0)));
        let p = backward_pads(
            &ctx.symbols,
            AutoPad::SameLower,
            &c(4),
            &c(3),
            2,
            1,
            Some(&want),
            (0, 0),
        )
        .unwrap();
        assert_eq!(p.as_constants(), Some((0, 1)));
        let err = backward_extent(
            &mut ctx,
            &c(1),
            &c(1),
            1,
            &Pads {
                begin: c(2),
                end: c(2),
            },
            0,
            0,
        )
        .unwrap_err();
        assert_eq!(err.rule_name(), "window-negative-output");
    }
}
