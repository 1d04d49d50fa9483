//! ConvertPromoteTypes-14: both inputs converted to their common element
//! type; the two outputs keep the inputs' shapes. The common type follows
//! OpenVINO's rules: equal types stay; boolean yields to the other; a float
//! and an integer give the float (safe mode: only a float at least twice
//! the integer's width); two floats or two integers of one signedness give
//! the wider (`pytorch_scalar_promotion`: the non-scalar's, where one input
//! is a scalar); signed and unsigned integers give a signed integer twice
//! the unsigned width (at least the signed one's; unsafe mode beyond, u64
//! gives `u64_integer_promotion_target`); with `promote_unsafe`, f16 and
//! bf16 give f32 and the two f8 types f16.

use ir::ElementType;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "ConvertPromoteTypes",
    versions: &[OpVersion::openvino(14, 14)],
    infer,
    doc: OpDoc {
        summary: "Converts both inputs to their common element type (OpenVINO's promotion rules); shapes unchanged.",
        attributes: "`promote_unsafe`, `pytorch_scalar_promotion` (default false), `u64_integer_promotion_target` (default f32)",
        symbolic: "each output keeps its input's shape; values are not propagated",
        errors: "`promote-types` (types that cannot be promoted safely, or at all, under the given attributes), `attribute-invalid` (`u64_integer_promotion_target`)",
    },
};

fn fail(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("promote-types", message)
}

fn supported(t: ElementType) -> bool {
    use ElementType::*;
    matches!(
        t,
        Dynamic
            | Boolean
            | F16
            | F32
            | F64
            | I4
            | I8
            | I16
            | I32
            | I64
            | U1
            | U4
            | U8
            | U16
            | U32
            | U64
            | F8E4M3
            | F8E5M2
            | BF16
    )
}

fn signed(t: ElementType) -> bool {
    t.is_real()
        || matches!(
            t,
            ElementType::I4
                | ElementType::I8
                | ElementType::I16
                | ElementType::I32
                | ElementType::I64
        )
}

fn int_of_width(bits: u32) -> Result<ElementType, ShapeError> {
    Ok(match bits {
        4 => ElementType::I4,
        8 => ElementType::I8,
        16 => ElementType::I16,
        32 => ElementType::I32,
        64 => ElementType::I64,
        _ => return Err(fail(format!("no signed integer type of {bits} bits"))),
    })
}

/// The settings of the op's attributes.
struct Rules {
    unsafe_: bool,
    pytorch: bool,
    u64_target: ElementType,
}

/// The common type of `a` and `b` (`scalar_a`, `scalar_b`: the input is a
/// static scalar).
fn common(
    r: &Rules,
    a: ElementType,
    b: ElementType,
    scalar_a: bool,
    scalar_b: bool,
) -> Result<ElementType, ShapeError> {
    use ElementType::*;
    if !supported(a) || !supported(b) {
        return Err(fail(format!(
            "ConvertPromoteTypes does not take {a} and {b}"
        )));
    }
    if a == Dynamic || b == Dynamic {
        return Ok(Dynamic);
    }
    if a == b {
        return Ok(a);
    }
    if a == Boolean {
        return Ok(b);
    }
    if b == Boolean {
        return Ok(a);
    }
    let (wa, wb) = (a.bit_width().unwrap_or(0), b.bit_width().unwrap_or(0));
    if a.is_real() != b.is_real() {
        let (real, int) = if a.is_real() { (a, b) } else { (b, a) };
        if !r.unsafe_ && real.bit_width().unwrap_or(0) < 2 * int.bit_width().unwrap_or(0) {
            return Err(fail(format!(
                "{int} cannot be promoted safely to {real} (promote_unsafe is false)"
            )));
        }
        return Ok(real);
    }
    if r.pytorch && scalar_a != scalar_b {
        let (target, scalar) = if scalar_a { (b, a) } else { (a, b) };
        if r.unsafe_ {
            return Ok(target);
        }
        let (wt, ws) = (
            target.bit_width().unwrap_or(0),
            scalar.bit_width().unwrap_or(0),
        );
        let fits = (signed(target) == signed(scalar) && wt >= ws)
            || (signed(target) && !signed(scalar) && wt * 2 >= ws);
        if !fits {
            return Err(fail(format!(
                "the scalar's {scalar} cannot be aligned to {target} safely (PyTorch-like promotion)"
            )));
        }
        return Ok(target);
    }
    if signed(a) != signed(b) {
        let (wu, ws) = if signed(a) { (wb, wa) } else { (wa, wb) };
        if wu <= 32 && (r.unsafe_ || wu * 2 <= ws) {
            return int_of_width((wu * 2).max(ws));
        }
        if !r.unsafe_ {
            return Err(fail(format!(
                "{a} and {b}: the unsigned one cannot be promoted safely to a signed integer"
            )));
        }
        return Ok(r.u64_target);
    }
    if wa != wb {
        return Ok(if wa >= wb { a } else { b });
    }
    if r.unsafe_ {
        if matches!(a, F8E4M3 | F8E5M2) && matches!(b, F8E4M3 | F8E5M2) {
            return Ok(F16);
        }
        if matches!(a, F16 | BF16) && matches!(b, F16 | BF16) {
            return Ok(F32);
        }
    }
    Err(fail(format!(
        "{a} and {b} have no common type under these attributes"
    )))
}

/// The common type the layer's inputs are converted to.
fn common_type(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<ElementType, ShapeError> {
    let rules = Rules {
        unsafe_: support::bool_attr(ctx, call, "promote_unsafe", false),
        pytorch: support::bool_attr(ctx, call, "pytorch_scalar_promotion", false),
        u64_target: match call.node.attributes.get("u64_integer_promotion_target") {
            None => ElementType::F32,
            Some(t) => ElementType::parse(t.trim()).ok_or_else(|| {
                ShapeError::rule(
                    "attribute-invalid",
                    format!("u64_integer_promotion_target `{t}` is not an element type"),
                )
            })?,
        },
    };
    let scalar = |i: usize| call.inputs[i].shape.rank() == Some(0);
    common(
        &rules,
        call.inputs[0].element_type,
        call.inputs[1].element_type,
        scalar(0),
        scalar(1),
    )
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let t = common_type(ctx, call)?;
    Ok(vec![
        TensorInfo::new(t, call.inputs[0].shape.clone()),
        TensorInfo::new(t, call.inputs[1].shape.clone()),
    ])
}
