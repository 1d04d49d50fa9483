//! Convert-1: element type conversion between every computable type, and
//! from and to the storage types of compressed weights and low-precision
//! tensors (`crate::packed`: f8e4m3, f8e5m2, f8e8m0, f4e2m1, nf4, i4, u4,
//! u2; u1 only from).
//!
//! Float to integer truncates toward zero and saturates at the type's range
//! (NaN becomes 0); integer to integer wraps (two's complement, as C++);
//! anything to boolean is `!= 0` (NaN is true); boolean is 0 or 1;
//! conversions to floats round to nearest; f64 to f32 saturates at f32's
//! finite range, as OpenVINO's CPU plugin does.

use half::{bf16, f16};
use ir::ElementType;

use super::{with_num, Call, KResult};
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

/// Runs `$body` with `$T` the Rust type of any computable element type
/// (the numeric ones of [`with_num`], and `bool`).
macro_rules! with_conv {
    ($et:expr, $T:ident => $body:expr) => {{
        match $et {
            ir::ElementType::Boolean => {
                type $T = bool;
                $body
            }
            other => with_num!(other, $T => $body, else {
                return Err(ExecError::InvalidTensor(format!("cannot convert {other}")))
            }),
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
    if crate::packed::is_decodable(to) {
        return crate::packed::encode(tensor, to);
    }
    if crate::packed::is_decodable(tensor.element_type) {
        return decoded(tensor, to);
    }
    if (tensor.element_type, to) == (ElementType::F64, ElementType::F32) {
        return f64_to_f32_saturating(tensor);
    }
    with_conv!(tensor.element_type, S => with_conv!(to, D => convert_as::<S, D>(tensor)))
}

/// A storage type (compressed weights, low-precision tensors) converted to
/// a computable type `to`: decoded exactly to f32, then converted as
/// OpenVINO's CPU plugin converts them (measured on every code): to
/// integers through i32 (truncated; NaN, infinities and values past i32's
/// range are `i32::MIN`), keeping the low bits; to f64 with infinities at
/// ±f32::MAX; nf4 to bf16 rounded up only from an odd bf16 (the other types
/// are exact in bf16);
/// to the other floats rounded to nearest.
fn decoded(tensor: &Tensor, to: ElementType) -> Result<Tensor, ExecError> {
    let count = crate::tensor::element_count(&tensor.shape)?;
    let mut values = crate::packed::decode(tensor.element_type, tensor.bytes(), count)?;
    let shape = tensor.shape.clone();
    let made = if to.is_integral() {
        let integers: Vec<i128> = values
            .iter()
            .map(|&v| {
                let t = v.trunc();
                if (-2147483648.0..2147483648.0).contains(&t) {
                    t as i128
                } else {
                    i128::from(i32::MIN)
                }
            })
            .collect();
        super::from_i128s(to, shape, &integers)
    } else if to == ElementType::BF16 && tensor.element_type == ElementType::NF4 {
        // OpenVINO's `bfloat16::round_to_nearest_even`: half an ulp is
        // added only when the kept part is odd.
        let bits: Vec<bf16> = values
            .iter()
            .map(|&v| {
                let b = (v as f32).to_bits();
                bf16::from_bits((b.wrapping_add((b & 0x1_0000) >> 1) >> 16) as u16)
            })
            .collect();
        return Tensor::from_vec(shape, bits);
    } else {
        if to == ElementType::F64 {
            let limit = f64::from(f32::MAX);
            for v in values.iter_mut().filter(|v| v.is_infinite()) {
                *v = v.clamp(-limit, limit);
            }
        }
        super::from_f64s(to, shape, &values)
    };
    made.map_err(|e| match e {
        crate::error::KernelError::Exec(e) => e,
        crate::error::KernelError::Message(m) => ExecError::InvalidTensor(m),
    })
}

/// f64 to f32 as OpenVINO's CPU plugin converts: values beyond f32's range,
/// infinities included, saturate at its largest finite values (NaN stays
/// NaN). Other narrowing float conversions overflow to infinity, there as
/// here.
fn f64_to_f32_saturating(t: &Tensor) -> Result<Tensor, ExecError> {
    let limit = f64::from(f32::MAX);
    let mut out = vec![0u8; byte_size(ElementType::F32, &t.shape)?];
    for (o, i) in out.chunks_exact_mut(4).zip(t.bytes().chunks_exact(8)) {
        let v = f64::read(i).clamp(-limit, limit) as f32;
        v.write(o);
    }
    Tensor::from_bytes(ElementType::F32, t.shape.clone(), out)
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
