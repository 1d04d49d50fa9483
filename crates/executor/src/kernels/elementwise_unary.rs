//! Unary elementwise ops: ReLU, Abs, Negative (every numeric type; integers
//! wrap), Sigmoid, Tanh, Exp, Sqrt (floating-point types, computed in f64
//! and rounded to the type; NaN propagates, Sqrt of a negative is NaN),
//! LogicalNot (boolean), Log and Erf (floats), Floor, Ceiling, Round and
//! Sign (every numeric type; identity on integers except Sign); the
//! trigonometric family (Sin … Atanh) on every numeric type, integers as
//! OpenVINO's CPU plugin computes them; BitwiseNot (integers, booleans);
//! IsNaN, IsInf and IsFinite (floats to booleans).

use ir::ElementType;

use super::convert::{Conv, Val};
use super::{unsupported, with_int, with_num, Call, KResult, Num};
use crate::parallel;
use crate::tensor::{byte_size, Element, Tensor};

/// `f` over every element of `t` (of `T`'s type), in parallel when large.
pub(crate) fn map1<T: Element, O: Element>(
    t: &Tensor,
    f: impl Fn(T) -> O + Sync,
) -> KResult<Tensor> {
    let size = byte_size(O::TYPE, &t.shape)?;
    let src = t.bytes();
    if t.element_type != T::TYPE || src.len() != size / O::SIZE * T::SIZE {
        return Err("internal: the input is not of the kernel's type".into());
    }
    let bytes = parallel::filled(size, O::SIZE, |first, chunk| {
        let n = chunk.len() / O::SIZE;
        let input = &src[first * T::SIZE..(first + n) * T::SIZE];
        if let Some(input) = T::view(input) {
            if let Some(out) = O::view_mut(chunk) {
                // Typed slices: a loop the compiler vectorizes.
                for (o, &i) in out.iter_mut().zip(input) {
                    *o = f(i);
                }
                return;
            }
        }
        for (o, i) in chunk
            .chunks_exact_mut(O::SIZE)
            .zip(input.chunks_exact(T::SIZE))
        {
            f(T::read(i)).write(o);
        }
    });
    Ok(Tensor::from_bytes(O::TYPE, t.shape.clone(), bytes)?)
}

/// A value as `f64` (integers converted).
fn f64_of<T: Conv>(v: T) -> f64 {
    match v.to_val() {
        Val::F(f) => f,
        Val::I(i) => i as f64,
    }
}

/// An integer value as `i128`.
fn i128_of<T: Conv>(v: T) -> i128 {
    match v.to_val() {
        Val::F(f) => f as i128,
        Val::I(i) => i,
    }
}

fn numeric(call: &Call<'_>, what: &str, f: fn(f64) -> f64, int: bool) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let t = x.element_type;
    with_num!(t, T => {
        let y = match what {
            "ReLU" => map1(x, |v: T| if v.is_nan() || v > T::zero() { v } else { T::zero() }),
            "Abs" => map1(x, |v: T| v.abs()),
            "Negative" => map1(x, |v: T| v.neg()),
            _ if int || !t.is_real() => Err(unsupported(what, t)),
            // `real` is defined for every floating-point type.
            _ => map1(x, |v: T| v.real(f).unwrap_or(v)),
        };
        Ok(vec![y?])
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
    Ok(vec![map1(x, |v: bool| !v)?])
}

/// BitwiseNot-13: every bit of an integer, logical not of a boolean.
pub(crate) fn bitwise_not(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let t = x.element_type;
    if t == ElementType::Boolean {
        return Ok(vec![map1(x, |v: bool| !v)?]);
    }
    with_int!(t, T => Ok(vec![map1(x, |v: T| !v)?]), else Err(unsupported("BitwiseNot", t)))
}

/// `f` applied to every element of a floating-point tensor, computed in f64
/// and rounded once to the type.
pub(crate) fn floats(
    call: &Call<'_>,
    what: &str,
    f: impl Fn(f64) -> f64 + Sync,
) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let et = x.element_type;
    if !et.is_real() {
        return Err(unsupported(what, et));
    }
    if et == ElementType::F32 {
        // The common case, without the per-element dispatch of `Val`
        // (rounding to f32 is the same).
        return Ok(vec![map1(x, |v: f32| f(f64::from(v)) as f32)?]);
    }
    with_num!(et, T => Ok(vec![map1(x, |v: T| T::from_val(Val::F(f(f64_of(v)))))?]),
        else Err(unsupported(what, et)))
}

/// `ff` on floats (in f64), `fi` on integers (in i128, wrapped to the type).
pub(crate) fn any_num(
    call: &Call<'_>,
    what: &str,
    ff: impl Fn(f64) -> f64 + Sync,
    fi: impl Fn(i128) -> i128 + Sync,
) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    if x.element_type.is_real() {
        return floats(call, what, ff);
    }
    let et = x.element_type;
    with_num!(et, T => Ok(vec![map1(x, |v: T| T::from_val(Val::I(fi(i128_of(v)))))?]),
        else Err(unsupported(what, et)))
}

/// `f` of every element of a floating-point tensor, as booleans.
fn predicate(call: &Call<'_>, what: &str, f: impl Fn(f64) -> bool + Sync) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let et = x.element_type;
    if !et.is_real() {
        return Err(unsupported(what, et));
    }
    with_num!(et, T => Ok(vec![map1(x, |v: T| f(f64_of(v)))?]), else Err(unsupported(what, et)))
}

/// IsNaN-10.
pub(crate) fn is_nan(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    predicate(call, "IsNaN", f64::is_nan)
}

/// IsFinite-10: neither NaN nor infinite.
pub(crate) fn is_finite(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    predicate(call, "IsFinite", f64::is_finite)
}

/// IsInf-10: an infinity of a sign `detect_negative`/`detect_positive`
/// (both default true) asks for.
pub(crate) fn is_inf(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let negative = call.attr_bool("detect_negative", true);
    let positive = call.attr_bool("detect_positive", true);
    predicate(call, "IsInf", move |v| {
        v.is_infinite() && if v > 0.0 { positive } else { negative }
    })
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

/// An integer element of type `et` as OpenVINO 2026.4's CPU plugin computes
/// a real function of it (measured on every integer type, see
/// `scripts/goldens/math14.py`): it works on a 32-bit view of the data (i64,
/// u32 and u64 keep their low 32 bits, read as i32), computes `f` in f32,
/// rounds half to even and converts to i32 (NaN and values below -2^31 give
/// -2^31; 2^31 and above give 2147483520, the largest f32 below 2^31); i8
/// then saturates, i16/u16/u32 keep the low bits and i64/u64 sign-extend;
/// u8 saturates the rounded value directly, NaN giving 255. (OpenVINO's
/// reference implementation truncates instead, and its spec says nothing of
/// integers.)
fn cpu_integer_real(et: ElementType, v: i128, f: &dyn Fn(f64) -> f64) -> i128 {
    use ElementType as E;
    let x = match et {
        E::I64 | E::U64 | E::U32 => i128::from(v as u32 as i32),
        _ => v,
    };
    let z = f64::from(f(f64::from(x as f32)) as f32).round_ties_even();
    if et == E::U8 {
        return if z.is_nan() {
            255
        } else {
            z.clamp(0.0, 255.0) as i128
        };
    }
    let i = if z.is_nan() || z < -2_147_483_648.0 {
        i32::MIN
    } else if z >= 2_147_483_648.0 {
        2_147_483_520
    } else {
        z as i32
    };
    match et {
        E::I8 => i128::from(i.clamp(i8::MIN.into(), i8::MAX.into())),
        _ => i128::from(i),
    }
}

/// A real function on every numeric type: floats computed in f64 and
/// rounded once to the type, integers as [`cpu_integer_real`].
fn real_any(call: &Call<'_>, what: &str, f: fn(f64) -> f64) -> KResult<Vec<Tensor>> {
    let et = call.input(0)?.element_type;
    any_num(call, what, f, move |v| cpu_integer_real(et, v, &f))
}

macro_rules! real_ops {
    ($($name:ident => $what:literal, $f:expr;)*) => {$(
        pub(crate) fn $name(call: &Call<'_>) -> KResult<Vec<Tensor>> {
            real_any(call, $what, $f)
        }
    )*};
}
real_ops! {
    sin => "Sin", f64::sin;
    cos => "Cos", f64::cos;
    tan => "Tan", f64::tan;
    asin => "Asin", f64::asin;
    acos => "Acos", f64::acos;
    atan => "Atan", f64::atan;
    sinh => "Sinh", f64::sinh;
    cosh => "Cosh", f64::cosh;
    asinh => "Asinh", f64::asinh;
    acosh => "Acosh", f64::acosh;
    atanh => "Atanh", f64::atanh;
}
