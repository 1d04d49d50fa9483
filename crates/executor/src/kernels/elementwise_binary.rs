//! The elementwise binary family with `auto_broadcast` (numpy default,
//! pdpd, none): arithmetic (integers wrap; Divide floors integer quotients
//! when `m_pythondiv`, the default, and integer division by zero is an
//! error), comparisons (boolean output) and logical ops (boolean inputs).
//! FloorMod takes the sign of the divisor, Mod of the dividend (C `fmod`);
//! integer Power wraps and truncates negative exponents toward zero;
//! SquaredDifference is `(a - b) * (a - b)` in the type.
//! Floats follow IEEE: NaN and infinities propagate, Maximum/Minimum return
//! NaN when either operand is NaN.

use ir::ElementType;
use shape_infer::broadcast::Mode;

use super::{unsupported, with_num, Call, KResult, Num};
use crate::broadcast::{placed_strides, walk};
use crate::error::KernelError;
use crate::tensor::{byte_size, Element, Tensor};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Xor,
    FloorMod,
    Mod,
    Pow,
    SqDiff,
}

macro_rules! entry {
    ($($name:ident => $op:ident),*) => {$(
        pub(crate) fn $name(call: &Call<'_>) -> KResult<Vec<Tensor>> { binary(call, Op::$op) }
    )*};
}
entry!(add => Add, subtract => Sub, multiply => Mul, divide => Div, maximum => Max,
       minimum => Min, equal => Eq, not_equal => Ne, less => Lt, less_equal => Le,
       greater => Gt, greater_equal => Ge, logical_and => And, logical_or => Or,
       logical_xor => Xor, floor_mod => FloorMod, modulo => Mod, power => Pow,
       squared_difference => SqDiff);

fn binary(call: &Call<'_>, op: Op) -> KResult<Vec<Tensor>> {
    let (a, b) = (call.input(0)?, call.input(1)?);
    let out = call.out_shape(0)?;
    let mode = Mode::from_attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    let start = match mode {
        Mode::Pdpd { axis } if axis >= 0 => Some(axis as usize),
        _ => None,
    };
    if mode == Mode::None && (a.shape != out || b.shape != out) {
        return Err("auto_broadcast none needs equal shapes".into());
    }
    if a.element_type != b.element_type {
        return Err(format!("inputs are {} and {}", a.element_type, b.element_type).into());
    }
    let strides = vec![
        placed_strides(&a.shape, &out, None)?,
        placed_strides(&b.shape, &out, start)?,
    ];
    let python = !matches!(
        call.node.attributes.get("m_pythondiv").map(str::trim),
        Some("false" | "0")
    );
    let t = a.element_type;
    match op {
        Op::And | Op::Or | Op::Xor => {
            if t != ElementType::Boolean {
                return Err(unsupported("a logical op", t));
            }
            let f = match op {
                Op::And => |x: bool, y: bool| x & y,
                Op::Or => |x: bool, y: bool| x | y,
                _ => |x: bool, y: bool| x ^ y,
            };
            Ok(vec![map2::<bool, bool>(a, b, &out, &strides, |x, y| {
                Ok(f(x, y))
            })?])
        }
        Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => {
            if t == ElementType::Boolean {
                return Ok(vec![map2::<bool, bool>(a, b, &out, &strides, |x, y| {
                    Ok(compare(op, x, y))
                })?]);
            }
            with_num!(t, T => Ok(vec![map2::<T, bool>(a, b, &out, &strides, |x, y| Ok(compare(op, x, y)))?]),
                else Err(unsupported("a comparison", t)))
        }
        _ => {
            with_num!(t, T => Ok(vec![map2::<T, T>(a, b, &out, &strides, |x, y| arith(op, x, y, python))?]),
            else Err(unsupported("arithmetic", t)))
        }
    }
}

fn compare<T: PartialOrd>(op: Op, x: T, y: T) -> bool {
    match op {
        Op::Eq => x == y,
        Op::Ne => x != y,
        Op::Lt => x < y,
        Op::Le => x <= y,
        Op::Gt => x > y,
        _ => x >= y,
    }
}

fn arith<T: Num>(op: Op, x: T, y: T, python: bool) -> KResult<T> {
    Ok(match op {
        Op::Add => x.add(y),
        Op::Sub => x.sub(y),
        Op::Mul => x.mul(y),
        Op::Div => x.div(y, python).ok_or("integer division by zero")?,
        Op::Max | Op::Min => {
            if x.is_nan() {
                x
            } else if y.is_nan() {
                y
            } else if (op == Op::Max) == (x >= y) {
                x
            } else {
                y
            }
        }
        Op::FloorMod | Op::Mod => x
            .rem(y, op == Op::FloorMod)
            .ok_or("integer division by zero")?,
        Op::Pow => x.pow(y).ok_or("integer 0 to a negative power")?,
        Op::SqDiff => {
            let d = x.sub(y);
            d.mul(d)
        }
        _ => return Err("internal: not an arithmetic op".into()),
    })
}

/// Applies `f` to every broadcast pair of elements.
fn map2<T: Element, O: Element>(
    a: &Tensor,
    b: &Tensor,
    out: &[usize],
    strides: &[Vec<isize>],
    f: impl Fn(T, T) -> KResult<O>,
) -> KResult<Tensor> {
    let (ab, bb) = (a.bytes(), b.bytes());
    let mut bytes = vec![0u8; byte_size(O::TYPE, out)?];
    let mut chunks = bytes.chunks_exact_mut(O::SIZE);
    let mut error: Option<KernelError> = None;
    walk(out, &[0, 0], strides, |o| {
        if error.is_some() {
            return;
        }
        let x = T::read(&ab[o[0] * T::SIZE..(o[0] + 1) * T::SIZE]);
        let y = T::read(&bb[o[1] * T::SIZE..(o[1] + 1) * T::SIZE]);
        match (f(x, y), chunks.next()) {
            (Ok(v), Some(c)) => v.write(c),
            (Err(e), _) => error = Some(e),
            (_, None) => error = Some("internal: output overflow".into()),
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    Ok(Tensor::from_bytes(O::TYPE, out.to_vec(), bytes)?)
}
