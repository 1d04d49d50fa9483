//! Unary elementwise ops: ReLU, Abs, Negative (every numeric type; integers
//! wrap), Sigmoid, Tanh, Exp, Sqrt (floating-point types, computed in f64
//! and rounded to the type; NaN propagates, Sqrt of a negative is NaN), and
//! LogicalNot (boolean).

use ir::ElementType;

use super::{unsupported, with_num, Call, KResult, Num};
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
