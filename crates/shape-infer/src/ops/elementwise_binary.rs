//! The elementwise binary family (all version 1, opset1): arithmetic (`Add`,
//! `Subtract`, `Multiply`, `Divide`, `FloorMod`, `Mod`, `Power`, `Maximum`,
//! `Minimum`, `SquaredDifference`), comparisons (`Equal`, `NotEqual`,
//! `Less`, `LessEqual`, `Greater`, `GreaterEqual`) and logical ops
//! (`LogicalAnd`, `LogicalOr`, `LogicalXor`); the bitwise ops
//! `BitwiseAnd`/`BitwiseOr`/`BitwiseXor`-13 (integer or boolean inputs) and
//! `BitwiseLeftShift`/`BitwiseRightShift`-15 (integer inputs). One rule: the
//! two shapes broadcast with `auto_broadcast` (see [`crate::broadcast`]).
//!
//! Values propagate when both inputs carry them (shape subgraphs): `Add`,
//! `Subtract`, `Multiply` as dim arithmetic, `Divide`/`FloorMod`/`Mod` by a
//! positive constant, `Maximum`/`Minimum` range-aware, comparisons when the
//! ranges decide them.

use std::borrow::Cow;
use std::cmp::Ordering;

use ir::{Dim, ElementType, Shape};
use symdim::{Expr, Predicate};

use crate::broadcast::{self, Mode, Operand};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::constant::MAX_VALUE_ELEMENTS;
use crate::ops::{convert, support};
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Add,
    Subtract,
    Multiply,
    Divide,
    FloorMod,
    Mod,
    Power,
    Maximum,
    Minimum,
    SquaredDifference,
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
    BitwiseAnd,
    BitwiseOr,
    BitwiseXor,
    BitwiseLeftShift,
    BitwiseRightShift,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Arithmetic,
    Comparison,
    Logical,
    /// Integer or boolean inputs of one type, output of that type.
    Bitwise,
    /// Integer inputs of one type, output of that type.
    Shift,
}

impl Kind {
    fn class(self) -> Class {
        use Kind::*;
        match self {
            Equal | NotEqual | Less | LessEqual | Greater | GreaterEqual => Class::Comparison,
            LogicalAnd | LogicalOr | LogicalXor => Class::Logical,
            BitwiseAnd | BitwiseOr | BitwiseXor => Class::Bitwise,
            BitwiseLeftShift | BitwiseRightShift => Class::Shift,
            _ => Class::Arithmetic,
        }
    }
}

const ATTRS: &str = "`auto_broadcast` (`numpy` default, `none`, `pdpd` with `auto_broadcast.auto_broadcast_axis`, 0 when absent)";
const SYMBOLIC: &str = "shapes broadcast symbolically (`bcast(N, M)`, assumptions `N == 1 or N == 5`); values of small integer tensors propagate, and of float tensors while they are exact integers (a float quotient that is not becomes element bounds, by interval arithmetic)";
const ERRORS: &str = "`broadcast-incompatible` naming both dims, axes and shapes; `element-type` for mismatched input types";

macro_rules! binary_op {
    ($static:ident, $fn:ident, $kind:ident, $name:literal, $summary:literal, $attrs:expr) => {
        binary_op!(
            $static,
            $fn,
            $kind,
            $name,
            super::SINCE_OPSET1,
            $summary,
            $attrs
        );
    };
    ($static:ident, $fn:ident, $kind:ident, $name:literal, $versions:expr, $summary:literal, $attrs:expr) => {
        pub static $static: OpDef = OpDef {
            type_name: $name,
            versions: $versions,
            infer: $fn,
            doc: OpDoc {
                summary: $summary,
                attributes: $attrs,
                symbolic: SYMBOLIC,
                errors: ERRORS,
            },
        };

        fn $fn(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
            infer(ctx, call, Kind::$kind)
        }
    };
}

binary_op!(ADD, infer_add, Add, "Add", "Elementwise `a + b`.", ATTRS);
binary_op!(
    SUBTRACT,
    infer_subtract,
    Subtract,
    "Subtract",
    "Elementwise `a - b`.",
    ATTRS
);
binary_op!(
    MULTIPLY,
    infer_multiply,
    Multiply,
    "Multiply",
    "Elementwise `a * b`.",
    ATTRS
);
binary_op!(
    DIVIDE,
    infer_divide,
    Divide,
    "Divide",
    "Elementwise `a / b` (integers: floor division when `m_pythondiv`, else truncation). OpenVINO 2026.4's CPU plugin truncates the integer Divides it computes at run time whatever `m_pythondiv` says (its ONNX frontend writes `Div` with `m_pythondiv=\"true\"`): `ir-check --run` does too under its default `--precision plugin`, and follows the specification under `--precision exact` (`tests/errors_and_values.rs` pins both).",
    "`auto_broadcast` (as Add), `m_pythondiv` (default true)"
);
binary_op!(
    FLOOR_MOD,
    infer_floor_mod,
    FloorMod,
    "FloorMod",
    "Elementwise remainder with the sign of the divisor.",
    ATTRS
);
binary_op!(
    MOD,
    infer_mod,
    Mod,
    "Mod",
    "Elementwise remainder with the sign of the dividend.",
    ATTRS
);
binary_op!(
    POWER,
    infer_power,
    Power,
    "Power",
    "Elementwise `a ^ b`.",
    ATTRS
);
binary_op!(
    MAXIMUM,
    infer_maximum,
    Maximum,
    "Maximum",
    "Elementwise maximum.",
    ATTRS
);
binary_op!(
    MINIMUM,
    infer_minimum,
    Minimum,
    "Minimum",
    "Elementwise minimum.",
    ATTRS
);
binary_op!(
    SQUARED_DIFFERENCE,
    infer_squared_difference,
    SquaredDifference,
    "SquaredDifference",
    "Elementwise `(a - b)^2`.",
    ATTRS
);
binary_op!(
    EQUAL,
    infer_equal,
    Equal,
    "Equal",
    "Elementwise `a == b` (boolean output).",
    ATTRS
);
binary_op!(
    NOT_EQUAL,
    infer_not_equal,
    NotEqual,
    "NotEqual",
    "Elementwise `a != b` (boolean output).",
    ATTRS
);
binary_op!(
    LESS,
    infer_less,
    Less,
    "Less",
    "Elementwise `a < b` (boolean output).",
    ATTRS
);
binary_op!(
    LESS_EQUAL,
    infer_less_equal,
    LessEqual,
    "LessEqual",
    "Elementwise `a <= b` (boolean output).",
    ATTRS
);
binary_op!(
    GREATER,
    infer_greater,
    Greater,
    "Greater",
    "Elementwise `a > b` (boolean output).",
    ATTRS
);
binary_op!(
    GREATER_EQUAL,
    infer_greater_equal,
    GreaterEqual,
    "GreaterEqual",
    "Elementwise `a >= b` (boolean output).",
    ATTRS
);
binary_op!(
    LOGICAL_AND,
    infer_logical_and,
    LogicalAnd,
    "LogicalAnd",
    "Elementwise logical and of boolean tensors.",
    ATTRS
);
binary_op!(
    LOGICAL_OR,
    infer_logical_or,
    LogicalOr,
    "LogicalOr",
    "Elementwise logical or of boolean tensors.",
    ATTRS
);
binary_op!(
    LOGICAL_XOR,
    infer_logical_xor,
    LogicalXor,
    "LogicalXor",
    "Elementwise logical xor of boolean tensors.",
    ATTRS
);
binary_op!(
    XOR,
    infer_xor,
    LogicalXor,
    "Xor",
    "Elementwise logical xor of boolean tensors: OpenVINO's `v0::Xor`, in opset1 beside LogicalXor-1 and computed as it.",
    ATTRS
);

const OPSET13: &[OpVersion] = &[OpVersion::openvino(13, 13)];
const OPSET15: &[OpVersion] = &[OpVersion::openvino(15, 15)];

binary_op!(
    BITWISE_AND,
    infer_bitwise_and,
    BitwiseAnd,
    "BitwiseAnd",
    OPSET13,
    "Elementwise bitwise and of integer tensors (boolean: logical and).",
    ATTRS
);
binary_op!(
    BITWISE_OR,
    infer_bitwise_or,
    BitwiseOr,
    "BitwiseOr",
    OPSET13,
    "Elementwise bitwise or of integer tensors (boolean: logical or).",
    ATTRS
);
binary_op!(
    BITWISE_XOR,
    infer_bitwise_xor,
    BitwiseXor,
    "BitwiseXor",
    OPSET13,
    "Elementwise bitwise xor of integer tensors (boolean: logical xor).",
    ATTRS
);
binary_op!(
    BITWISE_LEFT_SHIFT,
    infer_bitwise_left_shift,
    BitwiseLeftShift,
    "BitwiseLeftShift",
    OPSET15,
    "Elementwise `a << b` of integer tensors. Shift counts below 0 or not below the width (implementation-defined by the spec): as OpenVINO's CPU plugin, 8-, 16- and 32-bit types shift in 32 bits by `b mod 32` and keep the low bits; 64-bit types shift by `b mod 64` (the CPU plugin computes i64/u64 in 32 bits, which the spec and reference contradict).",
    ATTRS
);
binary_op!(
    BITWISE_RIGHT_SHIFT,
    infer_bitwise_right_shift,
    BitwiseRightShift,
    "BitwiseRightShift",
    OPSET15,
    "Elementwise `a >> b` of integer tensors (arithmetic for signed types, logical for unsigned). Shift counts as BitwiseLeftShift; 8- and 16-bit types shift their 32-bit extension, so counts from the width to 31 give 0 or -1.",
    ATTRS
);

fn infer(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    kind: Kind,
) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let element_type = match kind.class() {
        Class::Logical => {
            for i in 0..2 {
                let t = call.inputs[i].element_type;
                if t.is_static() && t != ElementType::Boolean {
                    return Err(ShapeError::ElementType {
                        what: format!("input {i}"),
                        message: format!("must be boolean, got {t}"),
                    });
                }
            }
            ElementType::Boolean
        }
        Class::Arithmetic => {
            let t = support::expect_same_type(call, 0, 1)?;
            if t == ElementType::Boolean {
                return Err(ShapeError::ElementType {
                    what: "inputs".to_owned(),
                    message: "arithmetic is not defined on boolean tensors".to_owned(),
                });
            }
            t
        }
        Class::Comparison => {
            support::expect_same_type(call, 0, 1)?;
            ElementType::Boolean
        }
        Class::Bitwise | Class::Shift => {
            let t = support::expect_same_type(call, 0, 1)?;
            let boolean_ok = kind.class() == Class::Bitwise;
            if t.is_static() && !(t.is_integral() || (boolean_ok && t == ElementType::Boolean)) {
                return Err(ShapeError::ElementType {
                    what: "inputs".to_owned(),
                    message: format!(
                        "must be {}, got {t}",
                        if boolean_ok {
                            "integer or boolean tensors"
                        } else {
                            "integer tensors"
                        }
                    ),
                });
            }
            t
        }
    };
    let mode = Mode::from_attributes(&call.node.attributes)?;
    let python_div = kind != Kind::Divide || support::bool_attr(ctx, call, "m_pythondiv", true);
    let (a, b) = (&call.inputs[0], &call.inputs[1]);
    let shape = broadcast::broadcast(
        ctx,
        mode,
        Operand::new("input 0", &a.shape),
        Operand::new("input 1", &b.shape),
    )?;
    let value = values(ctx, call, kind, mode, &shape, python_div, element_type);
    let bounds = match (&value, element_type.is_real()) {
        (None, true) => value_bounds(ctx, call, kind, mode, &shape),
        _ => None,
    };
    let out = TensorInfo::new(element_type, shape);
    Ok(vec![out.with_value(value).with_value_bounds(bounds)])
}

/// The output values, when both inputs carry values and every element can be
/// computed.
fn values(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    kind: Kind,
    mode: Mode,
    out: &Shape,
    python_div: bool,
    element_type: ElementType,
) -> Option<Vec<Dim>> {
    // Float tensors carry values only while they are small (as a float
    // Const) and exact integers.
    if element_type.is_real() && !small_float_result(out) {
        return None;
    }
    let (va, vb) = (integer_values(call, 0)?, integer_values(call, 1)?);
    let float_limit = if element_type.is_real() {
        Some(convert::exact_integer_limit(element_type)?)
    } else {
        None
    };
    let (ma, mb) = element_maps(call, mode, out)?;
    ma.iter()
        .zip(&mb)
        .map(|(&i, &j)| {
            let (a, b) = (va.get(i)?, vb.get(j)?);
            match float_limit {
                None => element(ctx, kind, a, b, python_div),
                Some(limit) => float_element(ctx, kind, a, b, limit),
            }
        })
        .collect()
}

/// The elements' bounds of a float result whose values are not exact
/// (interval arithmetic, as OpenVINO's `evaluate_lower`/`evaluate_upper`),
/// when both inputs' values or bounds are known.
fn value_bounds(
    ctx: &InferContext,
    call: &OpCall<'_>,
    kind: Kind,
    mode: Mode,
    out: &Shape,
) -> Option<Vec<(f64, f64)>> {
    if !small_float_result(out) {
        return None;
    }
    let (ba, bb) = (
        support::known_value_bounds(ctx, call.inputs.first()?)?,
        support::known_value_bounds(ctx, call.inputs.get(1)?)?,
    );
    let (ma, mb) = element_maps(call, mode, out)?;
    ma.iter()
        .zip(&mb)
        .map(|(&i, &j)| interval(kind, *ba.get(i)?, *bb.get(j)?))
        .collect()
}

/// Whether a float result of `shape` is small enough to carry its values
/// or their bounds ([`support::MAX_REAL_VALUE_ELEMENTS`], as a float Const): shape
/// arithmetic is, an int8 model's weights being dequantized are not.
fn small_float_result(shape: &Shape) -> bool {
    shape.to_static().is_some_and(|dims| {
        dims.iter()
            .try_fold(1usize, |n, &d| n.checked_mul(usize::try_from(d).ok()?))
            .is_some_and(|n| n <= support::MAX_REAL_VALUE_ELEMENTS)
    })
}

/// For each output element, the element of input 0 and of input 1 it is
/// computed from (static shapes of at most [`MAX_VALUE_ELEMENTS`]).
fn element_maps(call: &OpCall<'_>, mode: Mode, out: &Shape) -> Option<(Vec<usize>, Vec<usize>)> {
    let (sa, sb) = (
        call.inputs[0].shape.to_static()?,
        call.inputs[1].shape.to_static()?,
    );
    let so = out.to_static()?;
    let start = match mode {
        Mode::Pdpd { axis } if axis >= 0 => Some(usize::try_from(axis).ok()?),
        _ => None,
    };
    Some((
        broadcast::element_map(&sa, &so, None, MAX_VALUE_ELEMENTS)?,
        broadcast::element_map(&sb, &so, start, MAX_VALUE_ELEMENTS)?,
    ))
}

/// `a op b` on intervals, for the four arithmetic ops; `None` where the
/// result is not an interval worth keeping (NaN, a sign change of a divisor).
fn interval(kind: Kind, (al, ah): (f64, f64), (bl, bh): (f64, f64)) -> Option<(f64, f64)> {
    let corners = |f: fn(f64, f64) -> f64| {
        let c = [f(al, bl), f(al, bh), f(ah, bl), f(ah, bh)];
        (!c.iter().any(|x| x.is_nan())).then(|| {
            (
                c.iter().copied().fold(f64::INFINITY, f64::min),
                c.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            )
        })
    };
    match kind {
        Kind::Add => Some((al + bl, ah + bh)).filter(|(l, h)| !l.is_nan() && !h.is_nan()),
        Kind::Subtract => Some((al - bh, ah - bl)).filter(|(l, h)| !l.is_nan() && !h.is_nan()),
        Kind::Multiply => corners(|x, y| x * y),
        // A divisor that may be 0 only from above (a dim): the quotient of a
        // non-negative numerator grows without bound there.
        Kind::Divide if bl == 0.0 && bh > 0.0 && al >= 0.0 => Some((al / bh, f64::INFINITY)),
        Kind::Divide if bl > 0.0 || bh < 0.0 => corners(|x, y| x / y),
        _ => None,
    }
}

/// Input `index`'s values as dim expressions: its integer values, or a
/// float constant's elements when all are integers.
fn integer_values<'a>(call: &'a OpCall<'_>, index: usize) -> Option<Cow<'a, [Dim]>> {
    if let Some(v) = support::input_values(call, index) {
        return Some(Cow::Borrowed(v));
    }
    let reals = call.inputs.get(index)?.real_value()?;
    reals
        .iter()
        .map(|&r| {
            (r.fract() == 0.0 && r.abs() <= (1u64 << 53) as f64).then(|| Expr::constant(r as i64))
        })
        .collect::<Option<Vec<_>>>()
        .map(Cow::Owned)
}

/// An element of a float op on integer-valued floats: the integer rules,
/// except that division is exact or unknown (a float quotient is not
/// rounded), and a result must stay provably within `±limit`, where the
/// float type holds every integer exactly.
fn float_element(ctx: &mut InferContext, kind: Kind, a: &Dim, b: &Dim, limit: i64) -> Option<Dim> {
    let r = match kind {
        Kind::Divide => {
            let q = a.exact_div(b)?;
            if b.as_constant().is_none() {
                ctx.assume(Predicate::Ne(b.clone(), Expr::zero())).ok()?;
            }
            q
        }
        _ => element(ctx, kind, a, b, true)?,
    };
    if let Some(c) = r.as_constant() {
        return (-limit..=limit).contains(&c).then_some(r);
    }
    let within = |p: Predicate| ctx.symbols.decide(&p) == Some(true);
    (within(Predicate::Le(r.clone(), Expr::constant(limit)))
        && within(Predicate::Ge(r.clone(), Expr::constant(-limit))))
    .then_some(r)
}

fn boolean(b: bool) -> Dim {
    Expr::constant(i64::from(b))
}

fn element(ctx: &mut InferContext, kind: Kind, a: &Dim, b: &Dim, python_div: bool) -> Option<Dim> {
    let t = &ctx.symbols;
    let nonneg = |e: &Dim| {
        t.bounds(e)
            .ok()
            .and_then(|i| i.lo)
            .is_some_and(|lo| lo >= 0)
    };
    let (ca, cb) = (a.as_constant(), b.as_constant());
    Some(match kind {
        Kind::Add => a.add(b).ok()?,
        Kind::Subtract => a.sub(b).ok()?,
        Kind::Multiply => a.mul(b).ok()?,
        Kind::SquaredDifference => {
            let d = a.sub(b).ok()?;
            d.mul(&d).ok()?
        }
        Kind::Divide => match (ca, cb) {
            (Some(x), Some(y)) if y != 0 => Expr::constant(if python_div {
                floor_div(x, y)?
            } else {
                x.checked_div(y)?
            }),
            (_, Some(k)) if k > 0 && (python_div || nonneg(a)) => a.floor_div(k).ok()?,
            // A product of dims by one of its factors (Swin's batch of
            // windows by the window count): exact whatever the signs, as
            // long as the divisor is not 0, which is recorded.
            (_, None) => {
                let q = a.exact_div(b)?;
                ctx.assume(Predicate::Ne(b.clone(), Expr::zero())).ok()?;
                q
            }
            _ => return None,
        },
        Kind::FloorMod => match (ca, cb) {
            (Some(x), Some(y)) if y != 0 => {
                Expr::constant(x.checked_sub(floor_div(x, y)?.checked_mul(y)?)?)
            }
            (_, Some(k)) if k > 0 => a.sub(&a.floor_div(k).ok()?.mul_const(k).ok()?).ok()?,
            _ => return None,
        },
        Kind::Mod => match (ca, cb) {
            (Some(x), Some(y)) if y != 0 => Expr::constant(x.checked_rem(y)?),
            (_, Some(k)) if k > 0 && nonneg(a) => {
                a.sub(&a.floor_div(k).ok()?.mul_const(k).ok()?).ok()?
            }
            _ => return None,
        },
        Kind::Power => {
            let e = u32::try_from(cb?).ok()?;
            match ca {
                Some(x) => Expr::constant(x.checked_pow(e)?),
                None if e <= 8 => a.pow(e).ok()?,
                None => return None,
            }
        }
        Kind::Maximum => t.max(a, b).ok()?,
        Kind::Minimum => t.min(a, b).ok()?,
        Kind::Equal | Kind::NotEqual => {
            let equal = t.compare(a, b)? == Ordering::Equal;
            boolean(equal == (kind == Kind::Equal))
        }
        Kind::Less => boolean(t.compare(a, b)? == Ordering::Less),
        Kind::LessEqual => boolean(t.compare(a, b)? != Ordering::Greater),
        Kind::Greater => boolean(t.compare(a, b)? == Ordering::Greater),
        Kind::GreaterEqual => boolean(t.compare(a, b)? != Ordering::Less),
        // Bit operations on the values' i64 form: in range for every integer
        // type (and booleans) when both inputs are (shifts do not propagate).
        Kind::BitwiseAnd => Expr::constant(ca? & cb?),
        Kind::BitwiseOr => Expr::constant(ca? | cb?),
        Kind::BitwiseXor => Expr::constant(ca? ^ cb?),
        Kind::BitwiseLeftShift | Kind::BitwiseRightShift => return None,
        Kind::LogicalAnd | Kind::LogicalOr | Kind::LogicalXor => {
            let (x, y) = (ca? != 0, cb? != 0);
            boolean(match kind {
                Kind::LogicalAnd => x && y,
                Kind::LogicalOr => x || y,
                _ => x != y,
            })
        }
    })
}

/// `floor(x / y)` for `y != 0`, checked.
fn floor_div(x: i64, y: i64) -> Option<i64> {
    let q = x.checked_div(y)?;
    let r = x.checked_rem(y)?;
    Some(if r != 0 && ((r < 0) != (y < 0)) {
        q - 1
    } else {
        q
    })
}
