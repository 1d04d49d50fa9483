//! Convert-1 (`destination_type`) and ConvertLike-1 (the type of input 1):
//! the shape is unchanged, the element type changes. Values of integer
//! tensors propagate through integer-to-integer conversions when every value
//! provably fits the destination type, or, for a destination of 32 bits or
//! more, under the recorded constraint that it does (PyTorch exports convert
//! the sizes they read with ShapeOf to i32: `H <= 2147483647` keeps `H`).
//! Into f32 and f64 they propagate while provably exact (below 2^24 and
//! 2^53), and back from them into integers, as OpenVINO's interval
//! propagation follows shape values through float arithmetic.

use ir::ElementType;
use symdim::{Expr, Interval, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support::MAX_REAL_VALUE_ELEMENTS;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static CONVERT: OpDef = OpDef {
    type_name: "Convert",
    versions: super::SINCE_OPSET1,
    infer: infer_convert,
    doc: OpDoc {
        summary: "Converts the elements to `destination_type`; the shape is unchanged.",
        attributes: "`destination_type` (an element type name: `i64`, `f32`, ...)",
        symbolic:
            "shape kept; integer values propagate when they provably fit the destination type, or (32 bits or more) under a recorded constraint that they fit; into f32/f64 while provably exact integers (below 2^24 and 2^53), and back",
        errors: "`attribute-invalid` for an unknown `destination_type`",
    },
};

pub static CONVERT_LIKE: OpDef = OpDef {
    type_name: "ConvertLike",
    versions: super::SINCE_OPSET1,
    infer: infer_convert_like,
    doc: OpDoc {
        summary: "Converts input 0 to the element type of input 1; the shape is unchanged.",
        attributes: "-",
        symbolic:
            "shape kept; integer values propagate when they provably fit the destination type, or (32 bits or more) under a recorded constraint that they fit; into f32/f64 while provably exact integers (below 2^24 and 2^53), and back",
        errors: "`input-count`",
    },
};

fn infer_convert(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let text = call.node.attributes.require("destination_type")?;
    let target = ElementType::parse(text.trim()).ok_or_else(|| {
        ShapeError::rule(
            "attribute-invalid",
            format!("destination_type `{text}` is not an element type"),
        )
    })?;
    convert(ctx, call.inputs[0], target).map(|t| vec![t])
}

fn infer_convert_like(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    convert(ctx, call.inputs[0], call.inputs[1].element_type).map(|t| vec![t])
}

/// The range of an integer element type, as `i64` (types wider than `i64`
/// are capped, which only makes the fit check stricter).
fn integer_range(t: ElementType) -> Option<(i64, i64)> {
    use ElementType::*;
    Some(match t {
        Boolean => (0, 1),
        I4 => (-8, 7),
        I8 => (i8::MIN.into(), i8::MAX.into()),
        I16 => (i16::MIN.into(), i16::MAX.into()),
        I32 => (i32::MIN.into(), i32::MAX.into()),
        I64 => (i64::MIN, i64::MAX),
        U1 => (0, 1),
        U2 => (0, 3),
        U3 => (0, 7),
        U4 => (0, 15),
        U6 => (0, 63),
        U8 => (0, u8::MAX.into()),
        U16 => (0, u16::MAX.into()),
        U32 => (0, u32::MAX.into()),
        U64 => (0, i64::MAX),
        _ => return None,
    })
}

/// Float elements known only by their bounds, truncated into an integer
/// type of `range`: each a fresh symbol with the truncated bounds (`None`
/// when a bound leaves the type's range, where OpenVINO's conversion is not
/// defined).
fn bounded_symbols(
    ctx: &mut InferContext,
    bounds: &[(f64, f64)],
    (lo, hi): (i64, i64),
) -> Option<Vec<Expr>> {
    let fits = |v: f64| v.is_finite() && v >= lo as f64 && v <= hi as f64;
    bounds
        .iter()
        .map(|&(l, h)| {
            let (l, h) = (l.trunc(), h.trunc());
            if l.is_nan() || h.is_nan() || (l.is_finite() && !fits(l)) {
                return None;
            }
            let lower = fits(l).then_some(l as i64);
            let upper = fits(h).then_some(h as i64);
            let s = ctx.fresh_symbol(
                Interval::new(lower, upper),
                "a value converted from a float known only by its bounds",
            );
            Some(Expr::symbol(s))
        })
        .collect()
}

/// The largest magnitude below which every integer is exactly representable
/// in the float type `t`: float tensors carry values (as dim expressions)
/// only when they are such integers. `None` for other types.
pub(crate) fn exact_integer_limit(t: ElementType) -> Option<i64> {
    match t {
        ElementType::F32 => Some(1 << 24),
        ElementType::F64 => Some(1 << 53),
        _ => None,
    }
}

/// A small float constant converted: kept as floats for f32 and f64 (f16
/// and bf16 results would need their rounding: dropped), truncated toward
/// zero into integers that fit the destination (as OpenVINO's Convert).
fn convert_reals(out: TensorInfo, reals: &[f64], target: ElementType) -> TensorInfo {
    match target {
        ElementType::F64 => out.with_real_value(reals.to_vec()),
        ElementType::F32 => {
            out.with_real_value(reals.iter().map(|&v| f64::from(v as f32)).collect())
        }
        _ => {
            let Some((lo, hi)) = integer_range(target).filter(|_| target != ElementType::Boolean)
            else {
                return out;
            };
            let ints: Option<Vec<Expr>> = reals
                .iter()
                .map(|&v| {
                    let t = v.trunc();
                    (t.is_finite() && t >= lo as f64 && t <= hi as f64)
                        .then(|| Expr::constant(t as i64))
                })
                .collect();
            out.with_value(ints)
        }
    }
}

fn convert(
    ctx: &mut InferContext,
    input: &TensorInfo,
    target: ElementType,
) -> Result<TensorInfo, ShapeError> {
    let out = TensorInfo::new(target, input.shape.clone());
    if let Some(reals) = input.real_value() {
        return Ok(convert_reals(out, reals, target));
    }
    let Some(values) = &input.value else {
        // Bounds of float values only: an integer tensor's unknown elements
        // (a Concat with a Parameter piece) may be a Reshape's -1 or 0.
        return Ok(match (input.value_bounds(), integer_range(target)) {
            (Some(bounds), Some(range))
                if target != ElementType::Boolean && input.element_type.is_real() =>
            {
                out.with_value(bounded_symbols(ctx, bounds, range))
            }
            _ => out,
        });
    };
    // Integers become floats exactly while they are small enough for the
    // mantissa (OpenVINO's interval propagation converts shape values to f32
    // and back around float arithmetic).
    if let Some(limit) = exact_integer_limit(target) {
        if values.len() > MAX_REAL_VALUE_ELEMENTS {
            // A float tensor carries values only while it is small, as a
            // float Const does: a shape's numbers, not an int8 model's
            // weights on their way to being dequantized (issue 18).
            return Ok(out);
        }
        let (lo, hi) = (Expr::constant(-limit), Expr::constant(limit));
        let exact = values.iter().all(|v| match v.as_constant() {
            // A weight's elements: no predicate to build and decide.
            Some(c) => (-limit..=limit).contains(&c),
            None => {
                ctx.symbols.decide(&Predicate::Le(v.clone(), hi.clone())) == Some(true)
                    && ctx.symbols.decide(&Predicate::Ge(v.clone(), lo.clone())) == Some(true)
            }
        });
        return Ok(if exact {
            out.with_value(values.clone())
        } else {
            out
        });
    }
    // A float tensor's values are integers (see `exact_integer_limit`), so
    // truncating them changes nothing: only the fit in `target` matters.
    let source_known = integer_range(input.element_type).is_some()
        || exact_integer_limit(input.element_type).is_some();
    let (true, Some((lo, hi))) = (source_known, integer_range(target)) else {
        return Ok(out);
    };
    let range = lo..=hi;
    let (lo, hi) = (Expr::constant(lo), Expr::constant(hi));
    let mut undecided = Vec::new();
    for v in values {
        if let Some(c) = v.as_constant() {
            if range.contains(&c) {
                continue;
            }
            return Ok(out);
        }
        for bound in [
            Predicate::Ge(v.clone(), lo.clone()),
            Predicate::Le(v.clone(), hi.clone()),
        ] {
            match ctx.symbols.decide(&bound) {
                Some(true) => {}
                Some(false) => return Ok(out),
                None => undecided.push(bound),
            }
        }
    }
    // Converting to boolean maps nonzero to 1, and a narrow type would wrap
    // a size that is only assumed to fit: those need proof.
    if !undecided.is_empty() && hi.as_constant().is_none_or(|h| h < i64::from(i32::MAX)) {
        return Ok(out);
    }
    for p in undecided {
        ctx.assume(p)?;
    }
    Ok(out.with_value(values.clone()))
}
