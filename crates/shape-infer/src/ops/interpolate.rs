//! Interpolate-1, -4 and -11: resizing along some axes.
//!
//! v1 takes the target lengths of the axes of its `axes` attribute (input 1).
//! v4 pads the data (`pads_begin`/`pads_end`, zeros) and then takes either
//! `sizes` (input 1) or `scales` (input 2) on its axes (input 3, default all),
//! as `shape_calculation_mode` says; v11 has one input for sizes or scales
//! (input 1) and its axes as input 2, and adds the Pillow modes.
//!
//! A scale gives OpenVINO's `trunc(f32(D) * f32(scale + 1e-6))`. For a
//! symbolic `D` that is kept exact as `floor(D*p/q)`, `p/q` being the scale's
//! simplest ratio ([`ExactScale`]): `2*D` for 2.0, `floor(D/2)` for 0.5. The
//! two agree for every `D` up to a limit near a million that the ratio
//! proves; past it OpenVINO's f32 epsilon adds one, so `D <= limit` is a
//! recorded constraint when `D` may exceed it.
//!
//! The attributes are read here once ([`Attrs::read`]) for the rule and the
//! executor's kernel.

use ir::{Dim, ElementType, Node, Shape};
use symdim::{Expr, Interval, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Interpolate",
    versions: &[
        OpVersion::openvino(1, 1),
        OpVersion::openvino(4, 4),
        OpVersion::openvino(11, 11),
    ],
    infer,
    doc: OpDoc {
        summary: "Resizing along some axes by target sizes or scales (nearest, linear, cubic and Pillow filters), after zero padding (v4, v11).",
        attributes: "v1: `axes`, `mode` (nearest, linear, cubic, area), `align_corners`, `antialias`, `pads_begin`, `pads_end`; v4, v11: `mode` (nearest, linear, linear_onnx, cubic; v11: bilinear_pillow, bicubic_pillow), `shape_calculation_mode` (sizes, scales), `coordinate_transformation_mode`, `nearest_mode`, `antialias`, `pads_begin`, `pads_end`, `cube_coeff`",
        symbolic: "padded dims `D + pb + pe`; sizes as propagated (a ShapeOf subgraph's expressions); a scale `floor(D*p/q)` with `p/q` its simplest ratio (`2*D`, `floor(D/2)`), `D` at most the ratio's proven limit (about 10^6) a recorded constraint when it may exceed it; a scale with no small ratio gives a fresh dim with OpenVINO's bounds",
        errors: "`interpolate` (an attribute value outside its set, an axis outside `[0, rank)`, fewer sizes or scales than axes, a negative size, pad or scale, a NaN scale), `element-type`; warning `interpolate-repeated-axis` (the last entry of a repeated axis wins, as in OpenVINO's runtime), `interpolate-antialias-ignored` and `interpolate-cube-coeff-ignored` (where OpenVINO's CPU plugin, and the executor with it, departs from the specification)",
    },
};

/// How output coordinates map back to input coordinates (Interpolate-4's
/// `coordinate_transformation_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoordinateTransform {
    HalfPixel,
    PytorchHalfPixel,
    Asymmetric,
    TfHalfPixelForNn,
    AlignCorners,
}

/// How a fractional source coordinate picks a pixel in `nearest` mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NearestMode {
    RoundPreferFloor,
    RoundPreferCeil,
    Floor,
    Ceil,
    Simple,
}

/// The interpolation filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Nearest,
    /// Interpolate-4's `linear`: a triangle filter widened by the scale
    /// when downsampling with `antialias`.
    Linear,
    LinearOnnx,
    Cubic,
    BilinearPillow,
    BicubicPillow,
}

/// Whether the output lengths come from sizes or from scales.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeCalculation {
    Sizes,
    Scales,
}

/// An Interpolate layer's attributes, in Interpolate-4's terms (v1's are
/// translated as OpenVINO's runtime translates them).
#[derive(Debug, Clone, PartialEq)]
pub struct Attrs {
    pub mode: Mode,
    pub shape_calculation: ShapeCalculation,
    pub coordinate_transform: CoordinateTransform,
    pub nearest_mode: NearestMode,
    pub antialias: bool,
    /// Zero padding before the resize, one entry per axis of the data
    /// (shorter lists are extended with zeros, longer ones cut, as OpenVINO).
    pub pads_begin: Vec<usize>,
    pub pads_end: Vec<usize>,
    pub cube_coeff: f32,
    /// v1's `axes` attribute (the other versions take axes as an input).
    pub v1_axes: Option<Vec<i64>>,
}

fn rule(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("interpolate", message)
}

/// An enumerated attribute: its lower-cased text among `choices`.
fn choice<T: Copy>(
    node: &Node,
    key: &str,
    default: Option<T>,
    choices: &[(&str, T)],
) -> Result<T, ShapeError> {
    let Some(text) = node.attributes.get(key) else {
        return default.ok_or_else(|| rule(format!("the `{key}` attribute is missing")));
    };
    let text = text.trim().to_ascii_lowercase();
    choices
        .iter()
        .find(|(name, _)| *name == text)
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
            rule(format!("`{key}` {text} is not one of {}", names.join(", ")))
        })
}

fn pads(node: &Node, key: &str, rank: usize) -> Result<Vec<usize>, ShapeError> {
    let mut pads = Vec::with_capacity(rank);
    for p in node.attributes.i64_list(key)?.unwrap_or_default() {
        let p =
            usize::try_from(p).map_err(|_| rule(format!("`{key}` has the negative entry {p}")))?;
        pads.push(p);
    }
    pads.resize(rank, 0);
    Ok(pads)
}

impl Attrs {
    /// Reads the attributes of an Interpolate layer of op version `version`
    /// over data of rank `rank`.
    pub fn read(node: &Node, version: u32, rank: usize) -> Result<Attrs, ShapeError> {
        let antialias = node.attributes.bool("antialias")?.unwrap_or(false);
        let pads_begin = pads(node, "pads_begin", rank)?;
        let pads_end = pads(node, "pads_end", rank)?;
        if version < 4 {
            return Self::read_v1(node, rank, antialias, pads_begin, pads_end);
        }
        use CoordinateTransform as T;
        let mut modes = vec![
            ("nearest", Mode::Nearest),
            ("linear", Mode::Linear),
            ("linear_onnx", Mode::LinearOnnx),
            ("cubic", Mode::Cubic),
        ];
        if version >= 11 {
            modes.push(("bilinear_pillow", Mode::BilinearPillow));
            modes.push(("bicubic_pillow", Mode::BicubicPillow));
        }
        let cube_coeff = match node.attributes.get("cube_coeff").map(str::trim) {
            None => -0.75,
            Some(text) => text
                .parse::<f32>()
                .map_err(|_| rule(format!("`cube_coeff` {text} is not a number")))?,
        };
        Ok(Attrs {
            mode: choice(node, "mode", None, &modes)?,
            shape_calculation: choice(
                node,
                "shape_calculation_mode",
                None,
                &[
                    ("sizes", ShapeCalculation::Sizes),
                    ("scales", ShapeCalculation::Scales),
                ],
            )?,
            coordinate_transform: choice(
                node,
                "coordinate_transformation_mode",
                Some(T::HalfPixel),
                &[
                    ("half_pixel", T::HalfPixel),
                    ("pytorch_half_pixel", T::PytorchHalfPixel),
                    ("asymmetric", T::Asymmetric),
                    ("tf_half_pixel_for_nn", T::TfHalfPixelForNn),
                    ("align_corners", T::AlignCorners),
                ],
            )?,
            nearest_mode: choice(
                node,
                "nearest_mode",
                Some(NearestMode::RoundPreferFloor),
                &[
                    ("round_prefer_floor", NearestMode::RoundPreferFloor),
                    ("round_prefer_ceil", NearestMode::RoundPreferCeil),
                    ("floor", NearestMode::Floor),
                    ("ceil", NearestMode::Ceil),
                    ("simple", NearestMode::Simple),
                ],
            )?,
            antialias,
            pads_begin,
            pads_end,
            cube_coeff,
            v1_axes: None,
        })
    }

    /// Interpolate-1's attributes as OpenVINO's runtime runs them (its
    /// translation to Interpolate-4): sizes, `simple` nearest pixels,
    /// `asymmetric` coordinates unless `align_corners`, or `half_pixel` for
    /// an unpadded linear resize that is not exactly of axes 2 and 3 of a
    /// 4-D input; `linear` is `linear_onnx` below rank 5.
    fn read_v1(
        node: &Node,
        rank: usize,
        antialias: bool,
        pads_begin: Vec<usize>,
        pads_end: Vec<usize>,
    ) -> Result<Attrs, ShapeError> {
        #[derive(Clone, Copy, PartialEq)]
        enum V1 {
            Nearest,
            Linear,
            Cubic,
            Area,
        }
        let v1_mode = choice(
            node,
            "mode",
            None,
            &[
                ("nearest", V1::Nearest),
                ("linear", V1::Linear),
                ("cubic", V1::Cubic),
                ("area", V1::Area),
            ],
        )?;
        let axes = node
            .attributes
            .i64_list("axes")?
            .ok_or_else(|| rule("the `axes` attribute is missing"))?;
        let mode = match v1_mode {
            V1::Nearest => Mode::Nearest,
            V1::Linear if rank < 5 => Mode::LinearOnnx,
            V1::Linear => Mode::Linear,
            V1::Cubic => Mode::Cubic,
            // OpenVINO reads an `area` Interpolate-1 but cannot run it; the
            // shape is still defined.
            V1::Area => Mode::Nearest,
        };
        let align_corners = node.attributes.bool("align_corners")?.unwrap_or(false);
        let unpadded = pads_begin.iter().chain(&pads_end).all(|&p| p == 0);
        let coordinate_transform = if align_corners {
            CoordinateTransform::AlignCorners
        } else if matches!(mode, Mode::Linear | Mode::LinearOnnx)
            && unpadded
            && !(rank == 4 && axes == [2, 3])
        {
            CoordinateTransform::HalfPixel
        } else {
            CoordinateTransform::Asymmetric
        };
        Ok(Attrs {
            mode,
            shape_calculation: ShapeCalculation::Sizes,
            coordinate_transform,
            nearest_mode: NearestMode::Simple,
            antialias,
            pads_begin,
            pads_end,
            cube_coeff: -0.75,
            v1_axes: Some(axes),
        })
    }

    /// The input ports of the sizes and the scales (either may be absent)
    /// and of the axes, for op version `version` with `inputs` inputs.
    pub fn ports(version: u32, inputs: usize) -> Ports {
        match version {
            1 => Ports {
                sizes: Some(1),
                scales: None,
                axes: None,
            },
            4 => Ports {
                sizes: Some(1),
                scales: Some(2),
                axes: (inputs > 3).then_some(3),
            },
            _ => Ports {
                sizes: Some(1),
                scales: Some(1),
                axes: (inputs > 2).then_some(2),
            },
        }
    }
}

/// Where an Interpolate's operands are (see [`Attrs::ports`]).
#[derive(Debug, Clone, Copy)]
pub struct Ports {
    pub sizes: Option<usize>,
    pub scales: Option<usize>,
    pub axes: Option<usize>,
}

/// Checks the axes against the rank: each in `[0, rank)` (OpenVINO takes
/// no negative axes here).
pub fn check_axes(axes: &[i64], rank: usize) -> Result<Vec<usize>, ShapeError> {
    axes.iter()
        .map(|&a| {
            usize::try_from(a)
                .ok()
                .filter(|&a| a < rank)
                .ok_or_else(|| rule(format!("axis {a} is outside [0, {rank})")))
        })
        .collect()
}

/// OpenVINO's output length for a scale: `trunc(f32(d) * f32(scale + 1e-6))`
/// (a scale of exactly 1 keeps the length).
pub fn scaled_length(d: i64, scale: f32) -> i64 {
    if scale == 1.0 {
        return d;
    }
    let multiplier = scale + 1.0e-6_f32;
    // The truncating cast is OpenVINO's `static_cast<int64_t>`.
    (d as f32 * multiplier) as i64
}

/// A scale as the exact ratio `numerator/denominator` that
/// [`scaled_length`] agrees with, `floor(d*numerator/denominator)`, for every
/// `d` in `[0, limit]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExactScale {
    pub numerator: i64,
    pub denominator: i64,
    pub limit: i64,
}

/// The largest denominator tried for a scale's ratio.
const MAX_DENOMINATOR: i64 = 1000;

impl ExactScale {
    /// The simplest ratio within an f32 rounding of `scale`, and the length
    /// up to which OpenVINO's f32 arithmetic provably agrees with it; `None`
    /// when there is no such ratio with a denominator up to 1000.
    ///
    /// Why the limit holds: for `d < 2^24`, `f32(d)` is exact; with
    /// `m = f32(scale + 1e-6)` and `δ = m - p/q > 0`, the product `d*m` is at
    /// least `d*p/q`, so its rounding is at least the integer `floor(d*p/q)`;
    /// and it stays below the next integer by more than one f32 ulp while
    /// `d*(δ + m*2^-23) + 2^-23 <= 1/q`, the fractional part of `d*p/q` being
    /// at most `1 - 1/q`.
    pub fn of(scale: f32) -> Option<ExactScale> {
        if !(scale.is_finite() && scale >= 0.0) {
            return None;
        }
        let s = f64::from(scale);
        let ulp = f64::powi(2.0, -23);
        let tolerance = s.max(1.0) * ulp;
        let (p, q) = (1..=MAX_DENOMINATOR).find_map(|q| {
            let p = (s * q as f64).round();
            ((p / q as f64 - s).abs() <= tolerance).then_some((p, q))
        })?;
        let m = f64::from(scale + 1.0e-6_f32);
        let delta = m - p / q as f64;
        if delta <= 0.0 {
            return None;
        }
        let by_ulp = ((1.0 / q as f64 - ulp) / (delta + m * ulp)).floor() - 1.0;
        let by_exactness = (f64::powi(2.0, 24) / m.max(1.0)).floor() - 1.0;
        let limit = by_ulp.min(by_exactness);
        (limit >= 1.0).then_some(ExactScale {
            numerator: p as i64,
            denominator: q,
            limit: limit as i64,
        })
    }
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    match call.version {
        1 => call.expect_inputs(2, 2)?,
        4 => call.expect_inputs(3, 4)?,
        _ => call.expect_inputs(2, 3)?,
    }
    let data = &call.inputs[0];
    if !data.element_type.is_computable() && data.element_type != ElementType::Dynamic {
        return Err(ShapeError::ElementType {
            what: "data (input 0)".into(),
            message: format!("element type {} cannot be resized", data.element_type),
        });
    }
    let rank_hint = data.shape.rank().unwrap_or(0);
    let attrs = Attrs::read(call.node, call.version, rank_hint)?;
    let ports = Attrs::ports(call.version, call.inputs.len());
    let by_scales = attrs.shape_calculation == ShapeCalculation::Scales;
    // The operand the output lengths come from.
    let operand = if by_scales { ports.scales } else { ports.sizes }.unwrap_or(1);
    for port in (1..call.inputs.len()).filter(|&p| p == operand || Some(p) == ports.axes) {
        support::expect_rank_le1(call, port, &format!("input {port}"), false)?;
    }
    if by_scales {
        expect_real(call.inputs[operand], operand)?;
    } else {
        support::expect_integer_input(call, operand, &format!("sizes (input {operand})"))?;
    }
    if let Some(port) = ports.axes {
        support::expect_integer_input(call, port, &format!("axes (input {port})"))?;
    }

    let Some(dims) = data.shape.dims() else {
        return Ok(vec![TensorInfo::new(data.element_type, Shape::DynamicRank)]);
    };
    let rank = dims.len();
    warn_runtime_deviations(ctx, &attrs, rank);
    let axes = match (&attrs.v1_axes, ports.axes) {
        (Some(axes), _) => Some(axes.clone()),
        (None, Some(port)) => support::input_ints(call, port),
        (None, None) => Some((0..rank as i64).collect()),
    };
    let Some(axes) = axes else {
        let unknown = (0..rank)
            .map(|_| support::unknown_dim(ctx, "Interpolate over axes known only at run time"))
            .collect();
        return Ok(vec![TensorInfo::new(
            data.element_type,
            Shape::Ranked(unknown),
        )]);
    };
    let axes = check_axes(&axes, rank)?;
    for (i, a) in axes.iter().enumerate() {
        if axes[..i].contains(a) {
            ctx.warn(
                "interpolate-repeated-axis",
                format!("axis {a} is repeated; its last entry wins, as in OpenVINO's runtime"),
            );
            break;
        }
    }

    // v1's shape ignores its pads; v4 and v11 resize the padded data.
    let mut out: Vec<Dim> = if call.version < 4 {
        dims.to_vec()
    } else {
        dims.iter()
            .zip(attrs.pads_begin.iter().zip(&attrs.pads_end))
            .map(|(d, (&b, &e))| {
                Ok(d.add_const(i64::try_from(b + e).map_err(|_| rule("the pads are too large"))?)?)
            })
            .collect::<Result<_, ShapeError>>()?
    };
    if by_scales {
        let scales = call.inputs[operand].real_value();
        match scales {
            Some(scales) => {
                expect_enough(scales.len(), axes.len(), "scales")?;
                for (&axis, &scale) in axes.iter().zip(scales) {
                    out[axis] = scaled_dim(ctx, &out[axis], scale as f32)?;
                }
            }
            None => {
                for &axis in &axes {
                    out[axis] = scaled_unknown(ctx, &out[axis])?;
                }
            }
        }
    } else {
        match support::input_values(call, operand) {
            Some(sizes) => {
                expect_enough(sizes.len(), axes.len(), "sizes")?;
                for (&axis, size) in axes.iter().zip(sizes) {
                    if let Some(c) = size.as_constant().filter(|&c| c < 0) {
                        return Err(rule(format!("the size {c} of axis {axis} is negative")));
                    }
                    ctx.assume(Predicate::Ge(size.clone(), Expr::zero()))?;
                    out[axis] = size.clone();
                }
            }
            None => {
                for &axis in &axes {
                    out[axis] =
                        support::unknown_dim(ctx, "Interpolate size known only at run time");
                }
            }
        }
    }
    Ok(vec![TensorInfo::new(
        data.element_type,
        Shape::Ranked(out.into()),
    )])
}

/// Warns where OpenVINO's CPU plugin (and so the executor) computes other
/// values than the specification says.
fn warn_runtime_deviations(ctx: &mut InferContext, attrs: &Attrs, rank: usize) {
    if attrs.mode == Mode::Linear && attrs.antialias && rank < 5 {
        ctx.warn(
            "interpolate-antialias-ignored",
            format!(
                "`antialias` is set, but OpenVINO's CPU plugin runs `linear` on {rank}-D data without it (only 5-D data is antialiased); the executor does the same"
            ),
        );
    }
    if attrs.mode == Mode::BicubicPillow && attrs.cube_coeff != -0.5 {
        ctx.warn(
            "interpolate-cube-coeff-ignored",
            format!(
                "`cube_coeff` is {}, but OpenVINO's CPU plugin filters bicubic_pillow with Pillow's -0.5; the executor does the same",
                attrs.cube_coeff
            ),
        );
    }
}

fn expect_real(input: &TensorInfo, port: usize) -> Result<(), ShapeError> {
    let t = input.element_type;
    if t.is_real() || t == ElementType::Dynamic {
        Ok(())
    } else {
        Err(ShapeError::ElementType {
            what: format!("scales (input {port})"),
            message: format!("must be floating-point, not {t}"),
        })
    }
}

fn expect_enough(count: usize, axes: usize, what: &str) -> Result<(), ShapeError> {
    if count < axes {
        return Err(rule(format!("{what} has {count} elements for {axes} axes")));
    }
    Ok(())
}

/// A dim scaled as OpenVINO scales it: exact for a constant, `floor(D*p/q)`
/// under `D <= limit` for a symbolic dim whose scale has an exact ratio.
fn scaled_dim(ctx: &mut InferContext, dim: &Dim, scale: f32) -> Result<Dim, ShapeError> {
    if scale.is_nan() || scale < 0.0 {
        return Err(rule(format!("the scale {scale} is negative or NaN")));
    }
    if scale == 1.0 {
        return Ok(dim.clone());
    }
    if let Some(d) = dim.as_constant() {
        return Ok(Expr::constant(scaled_length(d, scale)));
    }
    let Some(exact) = ExactScale::of(scale) else {
        let bounds = ctx.symbols.bounds(dim)?;
        let lo = bounds.lo.map(|lo| scaled_length(lo.max(0), scale));
        let hi = bounds.hi.map(|hi| scaled_length(hi, scale));
        let symbol = ctx.fresh_symbol(
            Interval::new(lo.or(Some(0)), hi),
            format!("Interpolate scale {scale} has no exact small ratio"),
        );
        return Ok(Expr::symbol(symbol));
    };
    ctx.assume(Predicate::Le(dim.clone(), Expr::constant(exact.limit)))?;
    Ok(dim
        .mul_const(exact.numerator)?
        .floor_div(exact.denominator)?)
}

/// A dim scaled by a scale known only at run time.
fn scaled_unknown(ctx: &mut InferContext, _dim: &Dim) -> Result<Dim, ShapeError> {
    Ok(support::unknown_dim(
        ctx,
        "Interpolate scale known only at run time",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_scales_agree_with_openvino_arithmetic_up_to_their_limit() {
        for scale in [
            2.0f32,
            0.5,
            3.0,
            1.5,
            0.25,
            4.0,
            1.0 / 3.0,
            2.0 / 3.0,
            0.1,
            8.0,
        ] {
            let exact = ExactScale::of(scale).expect("a small ratio");
            assert!(exact.limit > 50_000, "{scale}: limit {}", exact.limit);
            for d in 0..=exact.limit {
                let ours = (d * exact.numerator).div_euclid(exact.denominator);
                assert_eq!(ours, scaled_length(d, scale), "scale {scale}, d {d}");
            }
        }
    }

    #[test]
    fn openvino_adds_one_past_the_limit_of_scale_two() {
        let exact = ExactScale::of(2.0).expect("2/1");
        assert_eq!((exact.numerator, exact.denominator), (2, 1));
        let first_off = (exact.limit..1 << 23)
            .find(|&d| scaled_length(d, 2.0) != 2 * d)
            .expect("OpenVINO's epsilon shows for large lengths");
        assert!(first_off > exact.limit);
    }

    #[test]
    fn ratios() {
        let r = |s: f32| ExactScale::of(s).map(|e| (e.numerator, e.denominator));
        assert_eq!(r(0.5), Some((1, 2)));
        assert_eq!(r(1.0 / 3.0), Some((1, 3)));
        assert_eq!(r(1.25), Some((5, 4)));
        assert_eq!(r(f32::NAN), None);
        assert_eq!(r(0.123_456_79), Some((10, 81)));
        assert_eq!(r(std::f32::consts::FRAC_1_SQRT_2), None);
    }
}
