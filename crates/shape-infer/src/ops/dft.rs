//! DFT-7 and IDFT-7: the (inverse) discrete Fourier transform of complex
//! data `[n_0, …, n_{r-2}, 2]` (the last dim holds the real and imaginary
//! parts) over `axes` (input 1), each axis first trimmed or zero-padded to
//! its `signal_size` (optional input 2, `-1`: the axis's own length).
//!
//! The checks shared by the whole family (DFT, IDFT, RDFT, IRDFT) live here,
//! as OpenVINO's `fft_common_validation.hpp`: data of type f32/f16/bf16 with
//! rank at least 2 (1 for RDFT's real data) and a last dim of 2 (complex
//! data); axes and signal_size 1-D i32/i64 of the same length, fewer axes than
//! the complex rank; axes unique and in range, negative ones counting from
//! the complex rank (`r - 1`; RDFT: from `r`), so the complex dim can never
//! be transformed. [`Signal`] is what the checks learnt, which `rdft.rs` and
//! `irdft.rs` build their outputs from.

use ir::{Dim, ElementType, Shape};
use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

/// The errors of every op of the family, for their `docs/ops.md` rows.
const ERRORS: &str = "`element-type` (data not f32/f16/bf16, axes or signal_size not i32/i64), `input-rank` (axes or signal_size not 1-D), `dft-input` (data rank below 2 — 1 for RDFT —, a last dim other than 2 for complex data, as many axes as the complex rank or more), `axis-out-of-range`, `dft-axes` (an axis repeated), `dft-signal-size` (signal_size and axes of different lengths, a size below -1)";

pub static DFT: OpDef = OpDef {
    type_name: "DFT",
    versions: &[OpVersion::openvino(7, 7)],
    infer: infer_dft,
    doc: OpDoc {
        summary: "Discrete Fourier transform of complex data `[..., 2]` over `axes` (input 1), each axis trimmed or zero-padded to its `signal_size` (optional input 2; -1 keeps the axis's length); not normalized.",
        attributes: "-",
        symbolic: "the data's shape with each transformed dim replaced by its signal_size (an expression when read from a shape); unknown axes with a signal_size: every dim but the complex one fresh",
        errors: ERRORS,
    },
};

pub static IDFT: OpDef = OpDef {
    type_name: "IDFT",
    versions: &[OpVersion::openvino(7, 7)],
    infer: infer_dft,
    doc: OpDoc {
        summary: "Inverse discrete Fourier transform of complex data `[..., 2]` over `axes` (input 1), each axis trimmed or zero-padded to its `signal_size` (optional input 2), divided by the product of the signal sizes.",
        attributes: "-",
        symbolic: "as DFT",
        errors: ERRORS,
    },
};

/// Whether the data are complex (`[..., 2]`: DFT, IDFT, IRDFT) or real (RDFT).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Data {
    Complex,
    Real,
}

/// What the family's checks learnt about one layer.
pub(crate) struct Signal {
    /// The data's dims (rank known), the complex dim of 2 included.
    pub dims: Option<Vec<Dim>>,
    /// The axes, normalized and in input order, when known.
    pub axes: Option<Vec<usize>>,
    /// Whether there is a signal_size input.
    pub has_sizes: bool,
    /// The signal sizes in the order of the axes (`None`: -1, the axis's own
    /// length), when known.
    pub sizes: Option<Vec<Option<Dim>>>,
}

impl Signal {
    /// Dims `0..count` of the data, each axis with a signal size set to it;
    /// a signal_size of unknown value makes every transformed dim (all of
    /// them, when the axes are unknown too) a fresh symbol.
    pub(crate) fn resized_dims(&self, ctx: &mut InferContext, count: usize) -> Option<Vec<Dim>> {
        let mut out = self.dims.as_ref()?[..count].to_vec();
        if !self.has_sizes {
            return Some(out);
        }
        match (&self.axes, &self.sizes) {
            (Some(axes), Some(sizes)) => {
                for (&axis, size) in axes.iter().zip(sizes) {
                    if let Some(size) = size {
                        out[axis] = size.clone();
                    }
                }
            }
            (Some(axes), None) => {
                for &axis in axes {
                    out[axis] = support::unknown_dim(
                        ctx,
                        "a dim resized by a signal_size of unknown value",
                    );
                }
            }
            (None, _) => {
                for d in &mut out {
                    *d = support::unknown_dim(ctx, "a dim of a transform over unknown axes");
                }
            }
        }
        Some(out)
    }
}

fn infer_dft(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let signal = check(ctx, call, Data::Complex)?;
    let et = call.inputs[0].element_type;
    let shape = match &signal.dims {
        None => Shape::DynamicRank,
        Some(dims) => {
            let complex_rank = dims.len() - 1;
            let mut out = signal.resized_dims(ctx, complex_rank).unwrap_or_default();
            out.push(Expr::constant(2));
            Shape::ranked(out)
        }
    };
    Ok(vec![TensorInfo::new(et, shape)])
}

/// The checks of OpenVINO's `fft_common_validation.hpp` for any op of the
/// family, and the known axes and signal sizes.
pub(crate) fn check(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    data: Data,
) -> Result<Signal, ShapeError> {
    call.expect_inputs(2, 3)?;
    let et = call.inputs[0].element_type;
    if et.is_static() && !matches!(et, ElementType::F32 | ElementType::F16 | ElementType::BF16) {
        return Err(ShapeError::ElementType {
            what: "data (input 0)".to_owned(),
            message: format!("must be f32, f16 or bf16, got {et}"),
        });
    }
    support::expect_index_input(call, 1, "axes (input 1)")?;
    support::expect_index_input(call, 2, "signal_size (input 2)")?;
    support::expect_rank_le1(call, 1, "axes (input 1)", false)?;
    support::expect_rank_le1(call, 2, "signal_size (input 2)", false)?;

    let mut dims = call.inputs[0].shape.dims().map(<[Dim]>::to_vec);
    let axes_len = call.inputs[1].shape.dims().map(|d| d[0].clone());
    if let Some(dims) = dims.as_mut() {
        let min_rank = match data {
            Data::Complex => 2,
            Data::Real => 1,
        };
        if dims.len() < min_rank {
            return Err(ShapeError::rule(
                "dft-input",
                format!(
                    "the data must have rank {min_rank} or more, got {}",
                    dims.len()
                ),
            ));
        }
        if data == Data::Complex {
            let last = dims.len() - 1;
            dims[last] = support::merge_equal_dims(
                ctx,
                &dims[last],
                &Expr::constant(2),
                "dft-input",
                "the last dim of complex data (real and imaginary parts) and 2",
            )?;
        }
        let transformable = match data {
            Data::Complex => dims.len() - 1,
            Data::Real => dims.len(),
        };
        if let Some(count) = axes_len.as_ref().and_then(Expr::as_constant) {
            if count > transformable as i64 {
                return Err(ShapeError::rule(
                    "dft-input",
                    format!(
                        "{count} axes for data of rank {} (at most {transformable})",
                        dims.len()
                    ),
                ));
            }
        }
    }

    let axes = match (support::input_ints(call, 1), &dims) {
        (Some(raw), Some(dims)) => Some(normalize_axes(&raw, dims.len(), data)?),
        _ => None,
    };

    let has_sizes = call.inputs.len() == 3;
    let mut sizes = None;
    if has_sizes {
        if let (Some(a), Some(s)) = (&axes_len, call.inputs[2].shape.dims()) {
            support::merge_equal_dims(
                ctx,
                a,
                &s[0],
                "dft-signal-size",
                "the lengths of axes and signal_size",
            )?;
        }
        if let Some(values) = support::input_values(call, 2) {
            sizes = Some(signal_sizes(values)?);
        }
    }
    if let (Some(a), Some(s)) = (&axes, &sizes) {
        if a.len() != s.len() {
            return Err(ShapeError::rule(
                "dft-signal-size",
                format!("{} axes but {} signal sizes", a.len(), s.len()),
            ));
        }
    }
    Ok(Signal {
        dims,
        axes,
        has_sizes,
        sizes,
    })
}

/// The axes normalized into `0..r - 1` for complex data of rank `r` (a
/// negative axis counts from `r - 1`), into `0..r` for real data; none
/// repeated.
fn normalize_axes(raw: &[i64], rank: usize, data: Data) -> Result<Vec<usize>, ShapeError> {
    let transformable = match data {
        Data::Complex => rank - 1,
        Data::Real => rank,
    };
    let mut axes = Vec::with_capacity(raw.len());
    for &a in raw {
        let axis = support::normalize_axis(a, transformable, "axis")?;
        if axes.contains(&axis) {
            return Err(ShapeError::rule(
                "dft-axes",
                format!("axis {a} is repeated (each axis must be unique)"),
            ));
        }
        axes.push(axis);
    }
    Ok(axes)
}

/// The signal sizes as dims (`None` for -1).
fn signal_sizes(values: &[Dim]) -> Result<Vec<Option<Dim>>, ShapeError> {
    values
        .iter()
        .map(|v| match v.as_constant() {
            Some(-1) => Ok(None),
            Some(c) if c < -1 => Err(ShapeError::rule(
                "dft-signal-size",
                format!("signal size {c} is neither -1 nor a length"),
            )),
            _ => Ok(Some(v.clone())),
        })
        .collect()
}

/// RDFT's length of the last transformed axis, `floor(n/2) + 1` for a
/// signal of length `n` (0 stays 0, as OpenVINO; a symbolic `n` is assumed
/// at least 1, an empty transform having no defined output).
pub(crate) fn half_spectrum(ctx: &mut InferContext, n: &Dim) -> Result<Dim, ShapeError> {
    if n.as_constant() == Some(0) {
        return Ok(Expr::zero());
    }
    ctx.assume(Predicate::Ge(n.clone(), Expr::one()))?;
    Ok(n.floor_div(2)?.add_const(1)?)
}

/// IRDFT's default output length of the last axis, `2*(n - 1)` for `n`
/// complex values (0 stays 0; a symbolic `n` is assumed at least 1).
pub(crate) fn full_length(ctx: &mut InferContext, n: &Dim) -> Result<Dim, ShapeError> {
    if n.as_constant() == Some(0) {
        return Ok(Expr::zero());
    }
    ctx.assume(Predicate::Ge(n.clone(), Expr::one()))?;
    Ok(n.add_const(-1)?.mul_const(2)?)
}
