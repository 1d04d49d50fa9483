//! Unary elementwise ops: ReLU, Abs, Negative (every numeric type; integers
//! wrap), Sigmoid, Tanh, Exp, Sqrt (floating-point types, computed in f64
//! and rounded to the type; NaN propagates, Sqrt of a negative is NaN),
//! LogicalNot (boolean), Log and Erf (floats), Floor, Ceiling, Round and
//! Sign (every numeric type; identity on integers except Sign).

use ir::ElementType;

use super::{from_f64s, from_i128s, to_f64s, to_i128s, unsupported, with_num, Call, KResult, Num};
use crate::tensor::{byte_size, Element, Tensor};

fn map<T: Element>(t: &Tensor, f: impl Fn(T) -> Option<T>, what: &str) -> KResult<Tensor> {
    let mut out = vec![0u8; byte_size(T::TYPE, &t.shape)?];
    for (o, i) in out
        .chunks_exact_mut(T::SIZE)
        .zip(t.bytes().chunks_exact(T::SIZE))
    {
        f(T::read(i))
            .ok_or_else(|| unsupported(what, t.element_type))?
            .write(o);
    }
    Ok(Tensor::from_bytes(T::TYPE, t.shape.clone(), out)?)
}

fn numeric(call: &Call<'_>, what: &str, f: fn(f64) -> f64, int: bool) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let t = x.element_type;
    with_num!(t, T => {
        let h = |v: T| -> Option<T> {
            match what {
                "ReLU" => Some(if v.is_nan() || v > T::zero() { v } else { T::zero() }),
                "Abs" => Some(v.abs()),
                "Negative" => Some(v.neg()),
                _ if int => None,
                _ => v.real(f),
            }
        };
        Ok(vec![map::<T>(x, h, what)?])
    }, else Err(unsupported(what, t)))
}

pub(crate) fn relu(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    numeric(call, "ReLU", |x| x, true)
}
pub(crate) fn abs(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    numeric(call, "Abs", |x| x, true)
}
pub(crate) fn negative(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    numeric(call, "Negative", |x| x, true)
}
pub(crate) fn sigmoid(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    numeric(call, "Sigmoid", |x| 1.0 / (1.0 + (-x).exp()), false)
}
pub(crate) fn tanh(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    numeric(call, "Tanh", f64::tanh, false)
}
pub(crate) fn exp(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    numeric(call, "Exp", f64::exp, false)
}
pub(crate) fn sqrt(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    numeric(call, "Sqrt", f64::sqrt, false)
}
pub(crate) fn logical_not(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    if x.element_type != ElementType::Boolean {
        return Err(unsupported("LogicalNot", x.element_type));
    }
    Ok(vec![map::<bool>(x, |v| Some(!v), "LogicalNot")?])
}

/// `f` applied to every element of a floating-point tensor, computed in f64
/// and rounded once to the type.
pub(crate) fn floats(call: &Call<'_>, what: &str, f: impl Fn(f64) -> f64) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let et = x.element_type;
    if !et.is_real() {
        return Err(unsupported(what, et));
    }
    let v: Vec<f64> = to_f64s(x)?.into_iter().map(f).collect();
    Ok(vec![from_f64s(et, x.shape.clone(), &v)?])
}

/// `ff` on floats (in f64), `fi` on integers (in i128, wrapped to the type).
pub(crate) fn any_num(
    call: &Call<'_>,
    what: &str,
    ff: impl Fn(f64) -> f64,
    fi: impl Fn(i128) -> i128,
) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    if x.element_type.is_real() {
        return floats(call, what, ff);
    }
    let v: Vec<i128> = to_i128s(x)?.into_iter().map(fi).collect();
    Ok(vec![from_i128s(x.element_type, x.shape.clone(), &v)?])
}

/// The Gauss error function (from `libm`, the port of musl's libm).
pub(crate) fn erf(x: f64) -> f64 {
    libm::erf(x)
}

pub(crate) fn log(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    floats(call, "Log", f64::ln)
}
pub(crate) fn erf_op(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    floats(call, "Erf", erf)
}
pub(crate) fn floor(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    any_num(call, "Floor", f64::floor, |v| v)
}
pub(crate) fn ceiling(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    any_num(call, "Ceiling", f64::ceil, |v| v)
}
/// Round-5: `half_to_even` (default) or `half_away_from_zero`.
pub(crate) fn round(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let f: fn(f64) -> f64 = match call.node.attributes.get("mode").map(str::trim) {
        None | Some("half_to_even") => f64::round_ties_even,
        Some("half_away_from_zero") => f64::round,
        Some(other) => return Err(format!("Round mode `{other}` is unknown").into()),
    };
    any_num(call, "Round", f, |v| v)
}
/// Sign: -1, 0 or 1 (NaN stays NaN, -0 gives 0).
pub(crate) fn sign(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    any_num(
        call,
        "Sign",
        |v| {
            if v.is_nan() || v == 0.0 {
                v.abs()
            } else {
                v.signum()
            }
        },
        i128::signum,
    )
}
