//! The elementwise binary family with `auto_broadcast` (numpy default,
//! pdpd, none): arithmetic (integers wrap; Divide floors integer quotients
//! when `m_pythondiv`, the default, and integer division by zero is an
//! error; `Precision::Plugin` computes run-time integer Divides in f32, as
//! the CPU plugin does), comparisons (boolean output) and logical ops (boolean inputs).
//! FloorMod takes the sign of the divisor, Mod of the dividend (C `fmod`);
//! integer Power wraps and truncates negative exponents toward zero;
//! SquaredDifference is `(a - b) * (a - b)` in the type.
//! Floats follow IEEE: NaN and infinities propagate, Maximum/Minimum return
//! NaN when either operand is NaN.
//!
//! The bitwise ops: And/Or/Xor on integers (every bit of the type) and
//! booleans (logical); the shifts on integers, with shift counts as
//! [`Bits`] says.

use ir::ElementType;
use shape_infer::broadcast::Mode;

use std::sync::atomic::{AtomicBool, Ordering};

use super::{unsupported, with_int, with_num, Call, KResult, Num};
use crate::broadcast::{placed_strides, run_in_bounds, Rows};
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
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
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
       squared_difference => SqDiff, bitwise_and => BitAnd, bitwise_or => BitOr,
       bitwise_xor => BitXor, bitwise_left_shift => Shl, bitwise_right_shift => Shr);

/// Integer shifts. A count below 0 or not below the width is
/// implementation-defined by the spec; as OpenVINO 2026.4's CPU plugin, 8-
/// and 16-bit types shift their 32-bit extension (sign- or zero-extended) by
/// `count mod 32` and keep the low bits (so counts from the width to 31
/// give 0, or -1 when shifting a negative value right), and 32-bit types
/// shift by `count mod 32`. 64-bit types shift by `count mod 64`; unsigned
/// types shift right logically. (The CPU plugin computes i64, u32 and u64 on
/// 32 bits, u32 right shifts arithmetically: results OpenVINO's spec and
/// reference implementation contradict; see `KNOWN_DIFFERENCES` in
/// `tests/conformance.rs`.)
pub(crate) trait Bits: Copy {
    fn shl(self, count: Self) -> Self;
    fn shr(self, count: Self) -> Self;
}

macro_rules! bits_narrow {
    ($($t:ty),*) => {$(
        impl Bits for $t {
            fn shl(self, count: Self) -> Self {
                (self as i32).wrapping_shl(count as i32 as u32) as $t
            }
            fn shr(self, count: Self) -> Self {
                (self as i32).wrapping_shr(count as i32 as u32) as $t
            }
        }
    )*};
}
bits_narrow!(i8, i16, u8, u16);

macro_rules! bits_wide {
    ($($t:ty),*) => {$(
        impl Bits for $t {
            fn shl(self, count: Self) -> Self {
                // `wrapping_shl` takes the count modulo the width.
                self.wrapping_shl(count as u32)
            }
            fn shr(self, count: Self) -> Self {
                self.wrapping_shr(count as u32)
            }
        }
    )*};
}
bits_wide!(i32, i64, u32, u64);

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
    let rows = Rows::new(&out, &[0, 0], &strides);
    let t = a.element_type;
    let failed = AtomicBool::new(false);
    let tensor = match op {
        Op::And | Op::Or | Op::Xor => {
            if t != ElementType::Boolean {
                return Err(unsupported("a logical op", t));
            }
            match op {
                Op::And => map2(a, b, &out, &rows, |x: bool, y: bool| x & y),
                Op::Or => map2(a, b, &out, &rows, |x: bool, y: bool| x | y),
                _ => map2(a, b, &out, &rows, |x: bool, y: bool| x ^ y),
            }
        }
        Op::BitAnd | Op::BitOr | Op::BitXor | Op::Shl | Op::Shr => {
            if t == ElementType::Boolean && !matches!(op, Op::Shl | Op::Shr) {
                match op {
                    Op::BitAnd => map2(a, b, &out, &rows, |x: bool, y: bool| x & y),
                    Op::BitOr => map2(a, b, &out, &rows, |x: bool, y: bool| x | y),
                    _ => map2(a, b, &out, &rows, |x: bool, y: bool| x ^ y),
                }
            } else {
                with_int!(t, T => match op {
                    Op::BitAnd => map2(a, b, &out, &rows, |x: T, y: T| x & y),
                    Op::BitOr => map2(a, b, &out, &rows, |x: T, y: T| x | y),
                    Op::BitXor => map2(a, b, &out, &rows, |x: T, y: T| x ^ y),
                    Op::Shl => map2(a, b, &out, &rows, |x: T, y: T| x.shl(y)),
                    _ => map2(a, b, &out, &rows, |x: T, y: T| x.shr(y)),
                }, else Err(unsupported("a bitwise op", t)))
            }
        }
        Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => {
            if t == ElementType::Boolean {
                compare::<bool>(op, a, b, &out, &rows)
            } else {
                with_num!(t, T => compare::<T>(op, a, b, &out, &rows),
                    else Err(unsupported("a comparison", t)))
            }
        }
        _ => with_num!(t, T => arith::<T>(op, python, a, b, &out, &rows, &failed),
            else Err(unsupported("arithmetic", t))),
    }?;
    if failed.into_inner() {
        return Err(match op {
            Op::Pow => "integer 0 to a negative power",
            _ => "integer division by zero",
        }
        .into());
    }
    Ok(vec![tensor])
}

fn compare<T: Element + PartialOrd>(
    op: Op,
    a: &Tensor,
    b: &Tensor,
    out: &[usize],
    rows: &Rows,
) -> KResult<Tensor> {
    match op {
        Op::Eq => map2(a, b, out, rows, |x: T, y: T| x == y),
        Op::Ne => map2(a, b, out, rows, |x: T, y: T| x != y),
        Op::Lt => map2(a, b, out, rows, |x: T, y: T| x < y),
        Op::Le => map2(a, b, out, rows, |x: T, y: T| x <= y),
        Op::Gt => map2(a, b, out, rows, |x: T, y: T| x > y),
        _ => map2(a, b, out, rows, |x: T, y: T| x >= y),
    }
}

/// Arithmetic; an integer division by zero (or 0 to a negative power) sets
/// `failed` and writes 0 (the caller turns it into an error).
fn arith<T: Num>(
    op: Op,
    python: bool,
    a: &Tensor,
    b: &Tensor,
    out: &[usize],
    rows: &Rows,
    failed: &AtomicBool,
) -> KResult<Tensor> {
    let fail = || {
        failed.store(true, Ordering::Relaxed);
        T::zero()
    };
    match op {
        Op::Add => map2(a, b, out, rows, |x: T, y| x.add(y)),
        Op::Sub => map2(a, b, out, rows, |x: T, y| x.sub(y)),
        Op::Mul => map2(a, b, out, rows, |x: T, y| x.mul(y)),
        Op::Div => map2(a, b, out, rows, |x: T, y| {
            x.div(y, python).unwrap_or_else(fail)
        }),
        // NaN wins either way; ties give `y` for Min and `x` for Max.
        Op::Max => map2(a, b, out, rows, |x: T, y| {
            if x.is_nan() || (!y.is_nan() && x >= y) {
                x
            } else {
                y
            }
        }),
        Op::Min => map2(a, b, out, rows, |x: T, y| {
            if x.is_nan() || (!y.is_nan() && x < y) {
                x
            } else {
                y
            }
        }),
        Op::FloorMod => map2(a, b, out, rows, |x: T, y| {
            x.rem(y, true).unwrap_or_else(fail)
        }),
        Op::Mod => map2(a, b, out, rows, |x: T, y| {
            x.rem(y, false).unwrap_or_else(fail)
        }),
        Op::Pow => map2(a, b, out, rows, |x: T, y| x.pow(y).unwrap_or_else(fail)),
        Op::SqDiff => map2(a, b, out, rows, |x: T, y| {
            let d = x.sub(y);
            d.mul(d)
        }),
        _ => Err("internal: not an arithmetic op".into()),
    }
}

/// `f` over every broadcast pair of elements, a row at a time. Each
/// operand steps by 1 along a row or stays put (broadcast); other steps
/// cannot come from numpy or pdpd placement but are handled all the same.
fn map2<T: Element, O: Element>(
    a: &Tensor,
    b: &Tensor,
    out: &[usize],
    rows: &Rows,
    f: impl Fn(T, T) -> O + Sync,
) -> KResult<Tensor> {
    byte_size(O::TYPE, out)?;
    let (ab, bb) = (a.bytes(), b.bytes());
    let (sa, sb) = (rows.steps[0], rows.steps[1]);
    let (na, nb) = (ab.len() / T::SIZE, bb.len() / T::SIZE);
    let outside = AtomicBool::new(false);
    let bytes = rows.fill(rows.len * O::SIZE, |offs, row| {
        let (oa, ob) = (offs[0], offs[1]);
        if !run_in_bounds(oa, sa, rows.len, na) || !run_in_bounds(ob, sb, rows.len, nb) {
            outside.store(true, Ordering::Relaxed);
            return;
        }
        let (ra, rb) = (&ab[oa as usize * T::SIZE..], &bb[ob as usize * T::SIZE..]);
        let n = rows.len * T::SIZE;
        let len_a = if sa == 0 { T::SIZE } else { n };
        let len_b = if sb == 0 { T::SIZE } else { n };
        if let (Some(xs), Some(ys)) = (T::view(&ra[..len_a]), T::view(&rb[..len_b])) {
            if let Some(outs) = O::view_mut(row) {
                // Typed slices: loops the compiler vectorizes.
                match (sa, sb) {
                    (1, 1) => {
                        for (o, (&x, &y)) in outs.iter_mut().zip(xs.iter().zip(ys)) {
                            *o = f(x, y);
                        }
                        return;
                    }
                    (1, 0) => {
                        let y = ys[0];
                        for (o, &x) in outs.iter_mut().zip(xs) {
                            *o = f(x, y);
                        }
                        return;
                    }
                    (0, 1) => {
                        let x = xs[0];
                        for (o, &y) in outs.iter_mut().zip(ys) {
                            *o = f(x, y);
                        }
                        return;
                    }
                    _ => {}
                }
            }
        }
        let outs = row.chunks_exact_mut(O::SIZE);
        match (sa, sb) {
            (1, 1) => {
                let pairs = ra[..n]
                    .chunks_exact(T::SIZE)
                    .zip(rb[..n].chunks_exact(T::SIZE));
                for (o, (x, y)) in outs.zip(pairs) {
                    f(T::read(x), T::read(y)).write(o);
                }
            }
            (1, 0) => {
                let y = T::read(&rb[..T::SIZE]);
                for (o, x) in outs.zip(ra[..n].chunks_exact(T::SIZE)) {
                    f(T::read(x), y).write(o);
                }
            }
            (0, 1) => {
                let x = T::read(&ra[..T::SIZE]);
                for (o, y) in outs.zip(rb[..n].chunks_exact(T::SIZE)) {
                    f(x, T::read(y)).write(o);
                }
            }
            _ => {
                // In bounds: checked above for the whole run.
                for (k, o) in (0..).zip(outs) {
                    let (i, j) = ((oa + k * sa) as usize, (ob + k * sb) as usize);
                    let x = T::read(&ab[i * T::SIZE..][..T::SIZE]);
                    let y = T::read(&bb[j * T::SIZE..][..T::SIZE]);
                    f(x, y).write(o);
                }
            }
        }
    });
    if outside.into_inner() {
        return Err("internal: an operand does not cover the output".into());
    }
    Ok(Tensor::from_bytes(O::TYPE, out.to_vec(), bytes)?)
}
