//! Convert-1: element type conversion between every computable type.
//!
//! Float to integer truncates toward zero and saturates at the type's range
//! (NaN becomes 0); integer to integer wraps (two's complement, as C++);
//! anything to boolean is `!= 0` (NaN is true); boolean is 0 or 1;
//! conversions to floats round to nearest.

use half::{bf16, f16};
use ir::ElementType;

use super::{Call, KResult};
use crate::error::ExecError;
use crate::tensor::{byte_size, Element, Tensor};

/// One element on its way between types.
#[derive(Clone, Copy)]
pub(crate) enum Val {
    F(f64),
    I(i128),
}

pub(crate) trait Conv: Element {
    fn to_val(self) -> Val;
    fn from_val(v: Val) -> Self;
}

macro_rules! conv_int {
    ($($t:ty),*) => {$(
        impl Conv for $t {
            fn to_val(self) -> Val { Val::I(self as i128) }
            fn from_val(v: Val) -> Self {
                match v { Val::F(f) => f as $t, Val::I(i) => i as $t }
            }
        }
    )*};
}
conv_int!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Conv for f32 {
    fn to_val(self) -> Val {
        Val::F(self as f64)
    }
    fn from_val(v: Val) -> Self {
        match v {
            Val::F(f) => f as f32,
            Val::I(i) => i as f32,
        }
    }
}
impl Conv for f64 {
    fn to_val(self) -> Val {
        Val::F(self)
    }
    fn from_val(v: Val) -> Self {
        match v {
            Val::F(f) => f,
            Val::I(i) => i as f64,
        }
    }
}
impl Conv for f16 {
    fn to_val(self) -> Val {
        Val::F(self.to_f64())
    }
    fn from_val(v: Val) -> Self {
        match v {
            Val::F(f) => f16::from_f64(f),
            Val::I(i) => f16::from_f64(i as f64),
        }
    }
}
impl Conv for bf16 {
    fn to_val(self) -> Val {
        Val::F(self.to_f64())
    }
    fn from_val(v: Val) -> Self {
        match v {
            Val::F(f) => bf16::from_f64(f),
            Val::I(i) => bf16::from_f64(i as f64),
        }
    }
}
impl Conv for bool {
    fn to_val(self) -> Val {
        Val::I(i128::from(self))
    }
    fn from_val(v: Val) -> Self {
        match v {
            Val::F(f) => f != 0.0,
            Val::I(i) => i != 0,
        }
    }
}

pub(crate) fn from_f64<T: Conv>(v: f64) -> T {
    T::from_val(Val::F(v))
}

/// `v` as `T` when it is representable exactly.
pub(crate) fn from_int_checked<T: Conv>(v: i128) -> Option<T> {
    let t = T::from_val(Val::I(v));
    matches!(t.to_val(), Val::I(back) if back == v).then_some(t)
}

macro_rules! with_conv {
    ($et:expr, $T:ident => $body:expr) => {{
        use ir::ElementType as E;
        match $et {
            E::Boolean => {
                type $T = bool;
                $body
            }
            E::F32 => {
                type $T = f32;
                $body
            }
            E::F64 => {
                type $T = f64;
                $body
            }
            E::F16 => {
                type $T = half::f16;
                $body
            }
            E::BF16 => {
                type $T = half::bf16;
                $body
            }
            E::I8 => {
                type $T = i8;
                $body
            }
            E::I16 => {
                type $T = i16;
                $body
            }
            E::I32 => {
                type $T = i32;
                $body
            }
            E::I64 => {
                type $T = i64;
                $body
            }
            E::U8 => {
                type $T = u8;
                $body
            }
            E::U16 => {
                type $T = u16;
                $body
            }
            E::U32 => {
                type $T = u32;
                $body
            }
            E::U64 => {
                type $T = u64;
                $body
            }
            t => return Err(ExecError::InvalidTensor(format!("cannot convert {t}"))),
        }
    }};
}

fn convert_as<S: Conv, D: Conv>(t: &Tensor) -> Result<Tensor, ExecError> {
    let mut out = vec![0u8; byte_size(D::TYPE, &t.shape)?];
    for (o, i) in out
        .chunks_exact_mut(D::SIZE)
        .zip(t.bytes().chunks_exact(S::SIZE))
    {
        D::from_val(S::read(i).to_val()).write(o);
    }
    Tensor::from_bytes(D::TYPE, t.shape.clone(), out)
}

/// `tensor` converted to `to` (the semantics of Convert; useful to feed a
/// bf16 Parameter from an f32 `.npy`).
pub fn convert(tensor: &Tensor, to: ElementType) -> Result<Tensor, ExecError> {
    if tensor.element_type == to {
        return Ok(tensor.clone());
    }
    with_conv!(tensor.element_type, S => with_conv!(to, D => convert_as::<S, D>(tensor)))
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let to = call.out_type(0)?;
    Ok(vec![convert(call.input(0)?, to)?])
}

/// ConvertLike-1: input 0 converted to the element type of input 1.
pub(crate) fn like(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let to = call.input(1)?.element_type;
    Ok(vec![convert(call.input(0)?, to)?])
}
