//! Parametric and composite activations, computed in f64 and rounded once
//! to the (floating-point) type: Clamp (`min`/`max` attributes; integers
//! too, with `ceil(min)`/`floor(max)`), Gelu (Gelu-2: erf; Gelu-7:
//! `approximation_mode` `ERF` or `TANH`), HSwish, HSigmoid, HardSigmoid
//! (alpha, beta: inputs 1, 2), Swish (beta: optional input 1, default 1),
//! Mish, SoftPlus (`max(x, 0) + ln(1 + e^-|x|)`, stable), Elu (`alpha`) and
//! PReLU (slope: input 1, placed on the channel axis 1 when it is 1-D of the
//! channel dim, else broadcast numpy, through the shared helper), Selu
//! (alpha, lambda: inputs 1, 2) and SoftSign.

use super::elementwise_unary::{any_num, erf, floats, map1};
use super::{from_f64s, from_i128s, to_f64s, to_i128s, Call, KResult};
use crate::broadcast::{placed_strides, walk};
use crate::tensor::{element_count, Tensor};

pub(crate) fn clamp(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let lo = call.attr_f64("min")?.ok_or("`min` is missing")?;
    let hi = call.attr_f64("max")?.ok_or("`max` is missing")?;
    if lo.is_nan() || hi.is_nan() || lo > hi {
        return Err(format!("`min` {lo} and `max` {hi} are not an interval").into());
    }
    let (ilo, ihi) = (lo.ceil() as i128, hi.floor() as i128);
    let x = call.input(0)?;
    if x.element_type == ir::ElementType::F32 {
        // In f32 with the bounds rounded to f32: the same as clamping in f64
        // and rounding once, since rounding is monotonic (`v < lo` gives
        // `v <= f32(lo)`, and `v >= lo` gives `v >= f32(lo)`; likewise for
        // `hi`), and it needs no conversion per element.
        let (lo, hi) = (lo as f32, hi as f32);
        // Selects, not `f32::clamp` (whose bounds check stops the loop from
        // vectorizing); NaN fails both comparisons and stays NaN.
        return Ok(vec![map1(x, move |v: f32| {
            let v = if v < lo { lo } else { v };
            if v > hi {
                hi
            } else {
                v
            }
        })?]);
    }
    any_num(
        call,
        "Clamp",
        // max/min rather than comparisons: no branch to mispredict on data
        // that falls on both sides of the bounds (NaN stays NaN).
        |v| v.clamp(lo, hi),
        |v| v.clamp(ilo, ihi.max(ilo)),
    )
}

pub(crate) fn gelu(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let mode = call
        .node
        .attributes
        .get("approximation_mode")
        .unwrap_or("ERF")
        .trim()
        .to_ascii_uppercase();
    match mode.as_str() {
        "ERF" => floats(call, "Gelu", |x| {
            0.5 * x * (1.0 + erf(x / std::f64::consts::SQRT_2))
        }),
        "TANH" => floats(call, "Gelu", |x| {
            let c = (2.0 / std::f64::consts::PI).sqrt();
            0.5 * x * (1.0 + (c * (x + 0.044715 * x * x * x)).tanh())
        }),
        other => Err(format!("approximation_mode `{other}` is unknown").into()),
    }
}

fn relu6(v: f64) -> f64 {
    if v.is_nan() {
        v
    } else {
        v.clamp(0.0, 6.0)
    }
}

pub(crate) fn hswish(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    floats(call, "HSwish", |x| x * relu6(x + 3.0) / 6.0)
}

pub(crate) fn hsigmoid(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    floats(call, "HSigmoid", |x| relu6(x + 3.0) / 6.0)
}

pub(crate) fn hard_sigmoid(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let alpha = call.input_f64(1, "alpha")?;
    let beta = call.input_f64(2, "beta")?;
    floats(call, "HardSigmoid", |x| {
        let v = alpha * x + beta;
        if v.is_nan() {
            v
        } else {
            v.clamp(0.0, 1.0)
        }
    })
}

pub(crate) fn swish(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let beta = if call.inputs.len() > 1 {
        call.input_f64(1, "beta")?
    } else {
        1.0
    };
    floats(call, "Swish", |x| x / (1.0 + (-beta * x).exp()))
}

fn softplus_f(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

pub(crate) fn softplus(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    floats(call, "SoftPlus", softplus_f)
}

pub(crate) fn mish(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    floats(call, "Mish", |x| x * softplus_f(x).tanh())
}

pub(crate) fn elu(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let alpha = call.attr_f64("alpha")?.ok_or("`alpha` is missing")?;
    floats(
        call,
        "Elu",
        |x| if x > 0.0 { x } else { alpha * x.exp_m1() },
    )
}

/// Selu-1: `lambda * (x > 0 ? x : alpha * (e^x - 1))`, alpha and lambda of
/// one element each (inputs 1 and 2).
pub(crate) fn selu(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let alpha = call.input_f64(1, "alpha")?;
    let lambda = call.input_f64(2, "lambda")?;
    floats(call, "Selu", |x| {
        lambda * if x > 0.0 { x } else { alpha * x.exp_m1() }
    })
}

/// SoftSign-9: `x / (1 + |x|)`.
pub(crate) fn softsign(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    floats(call, "SoftSign", |x| x / (1.0 + x.abs()))
}

pub(crate) fn prelu(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (x, slope) = (call.input(0)?, call.input(1)?);
    if x.element_type != slope.element_type {
        return Err(format!("inputs are {} and {}", x.element_type, slope.element_type).into());
    }
    let out = x.shape.clone();
    let channel = slope.shape.len() == 1 && out.len() >= 2 && slope.shape[0] == out[1];
    // Scalar data with a longer slope: OpenVINO 2026.4's CPU plugin uses the
    // slope's last element (measured: x = -2, slope [0.1, 0.2, 0.3] gives -0.6).
    let slope_strides = if out.is_empty() {
        Vec::new()
    } else {
        placed_strides(&slope.shape, &out, channel.then_some(1))?
    };
    let slope_start = if out.is_empty() {
        element_count(&slope.shape)?.saturating_sub(1)
    } else {
        0
    };
    let strides = vec![crate::broadcast::row_major_strides(&out), slope_strides];
    let mut pairs = Vec::with_capacity(element_count(&out)?);
    walk(&out, &[0, slope_start as isize], &strides, |o| {
        pairs.push((o[0], o[1]))
    });
    let t = if x.element_type.is_real() {
        let (xv, sv) = (to_f64s(x)?, to_f64s(slope)?);
        let v: Vec<f64> = pairs
            .iter()
            .map(|&(i, j)| if xv[i] < 0.0 { sv[j] * xv[i] } else { xv[i] })
            .collect();
        from_f64s(x.element_type, out, &v)?
    } else {
        let (xv, sv) = (to_i128s(x)?, to_i128s(slope)?);
        let v: Vec<i128> = pairs
            .iter()
            .map(|&(i, j)| {
                if xv[i] < 0 {
                    sv[j].wrapping_mul(xv[i])
                } else {
                    xv[i]
                }
            })
            .collect();
        from_i128s(x.element_type, out, &v)?
    };
    Ok(vec![t])
}
