//! Constant-1 (`Const` in the XML): a tensor stored in the weights file.
//!
//! Small integer constants also carry their values as dims, so shape
//! subgraphs (a Reshape target, a Gather index) see the numbers.

use ir::{ElementType, Op, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Const",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "A constant tensor stored in the weights file (`Const` in the XML).",
        attributes: "`element_type`, `shape`, `offset`, `size`",
        symbolic: "static; integer constants of at most 1024 elements carry their values for shape subgraphs",
        errors: "data outside the `.bin`, `size` disagreeing with shape and type (reported by the reader)",
    },
};

/// Integer constants with at most this many elements carry their values.
/// Shape tensors are tiny; weights are not worth decoding.
pub const MAX_VALUE_ELEMENTS: u64 = 1024;

fn infer(_: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(0, 0)?;
    let Op::Constant {
        element_type,
        shape,
        data,
    } = &call.node.op
    else {
        return Err(ShapeError::Unreadable);
    };
    let dims = shape
        .iter()
        .map(|&d| {
            i64::try_from(d)
                .map(Expr::constant)
                .map_err(|_| ShapeError::rule("const-invalid", format!("dim {d} is too large")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let tensor = TensorInfo::new(*element_type, Shape::ranked(dims));
    let count = shape.iter().try_fold(1u64, |acc, &d| acc.checked_mul(d));
    Ok(vec![match count {
        Some(n) if n <= MAX_VALUE_ELEMENTS => {
            match decode_integers(*element_type, data.as_slice()) {
                Some(values) => tensor.with_value(values),
                // Checked before decoding: a float weight of up to 1024
                // elements was decoded and then dropped (a fifth of a small
                // CNN's check, issue 18).
                None if n <= MAX_REAL_VALUE_ELEMENTS => {
                    match decode_reals(*element_type, data.as_slice()) {
                        Some(values) => tensor.with_real_value(values),
                        None => tensor,
                    }
                }
                None => tensor,
            }
        }
        _ => tensor,
    }])
}

/// Floating-point constants with at most this many elements carry their
/// values (the scalars of a Range; weights are not worth decoding).
pub const MAX_REAL_VALUE_ELEMENTS: u64 = 16;

/// Decodes little-endian floating-point elements.
fn decode_reals(element_type: ElementType, bytes: &[u8]) -> Option<Vec<f64>> {
    fn each<const N: usize>(bytes: &[u8], f: impl Fn([u8; N]) -> f64) -> Option<Vec<f64>> {
        let chunks = bytes.chunks_exact(N);
        if !chunks.remainder().is_empty() {
            return None;
        }
        chunks.map(|c| Some(f(c.try_into().ok()?))).collect()
    }
    match element_type {
        ElementType::F64 => each::<8>(bytes, f64::from_le_bytes),
        ElementType::F32 => each::<4>(bytes, |b| f64::from(f32::from_le_bytes(b))),
        ElementType::F16 => each::<2>(bytes, |b| half::f16::from_le_bytes(b).to_f64()),
        ElementType::BF16 => each::<2>(bytes, |b| half::bf16::from_le_bytes(b).to_f64()),
        _ => None,
    }
}

/// Decodes little-endian integer (and boolean) elements as constant dims;
/// `None` when a value does not fit an `i64` (a huge u64).
fn decode_integers(element_type: ElementType, bytes: &[u8]) -> Option<Vec<Expr>> {
    fn each<const N: usize>(bytes: &[u8], f: impl Fn([u8; N]) -> Option<i64>) -> Option<Vec<Expr>> {
        let chunks = bytes.chunks_exact(N);
        if !chunks.remainder().is_empty() {
            return None;
        }
        chunks
            .map(|c| f(c.try_into().ok()?).map(Expr::constant))
            .collect()
    }
    match element_type {
        ElementType::Boolean | ElementType::U8 => each::<1>(bytes, |b| Some(i64::from(b[0]))),
        ElementType::I8 => each::<1>(bytes, |b| Some(i64::from(b[0] as i8))),
        ElementType::I16 => each::<2>(bytes, |b| Some(i64::from(i16::from_le_bytes(b)))),
        ElementType::U16 => each::<2>(bytes, |b| Some(i64::from(u16::from_le_bytes(b)))),
        ElementType::I32 => each::<4>(bytes, |b| Some(i64::from(i32::from_le_bytes(b)))),
        ElementType::U32 => each::<4>(bytes, |b| Some(i64::from(u32::from_le_bytes(b)))),
        ElementType::I64 => each::<8>(bytes, |b| Some(i64::from_le_bytes(b))),
        ElementType::U64 => each::<8>(bytes, |b| i64::try_from(u64::from_le_bytes(b)).ok()),
        _ => None,
    }
}
