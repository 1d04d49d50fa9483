//! The elementwise unary family: the output has the shape and element type
//! of the data input (input 0). Extra inputs (PReLU's slope, HardSigmoid's
//! alpha and beta, Swish's beta) do not change the shape.
//!
//! Element types as OpenVINO checks them: most ops reject boolean data
//! (`Abs`, `ReLU`, `Sigmoid`, ...); `Gelu`, `Mish`, `SoftPlus`, `Swish`
//! require a floating type; `Round`, `Elu`, `LogicalNot`, `PReLU`,
//! `HardSigmoid` accept any.
//!
//! The trigonometric ops (`Sin`, `Cos`, `Tan`, `Asin`, `Acos`, `Atan`,
//! `Sinh`, `Cosh`: version 1; `Asinh`, `Acosh`, `Atanh`: version 3, first in
//! opset4) accept every numeric type, as OpenVINO (boolean is rejected); on
//! integers the result is rounded (see the executor's kernel).
//! `BitwiseNot`-13 takes integer or boolean data.
//!
//! `IsNaN`-10, `IsInf`-10 (`detect_negative`, `detect_positive`) and
//! `IsFinite`-10 take floating data and give booleans; `Selu`-1 (inputs
//! data, alpha, lambda of one type) and `SoftSign`-9 take floating data.
//!
//! Values propagate (shape subgraphs) for `Negative`, `Abs` (where the
//! range decides the sign), `ReLU` and `Clamp` on integers, and
//! `Floor`/`Ceiling`/`Round` of integers (identity), and `BitwiseNot` of
//! booleans and signed integers.

use ir::{Dim, ElementType};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Abs,
    Negative,
    Relu,
    Prelu,
    Sigmoid,
    Tanh,
    Exp,
    Log,
    Sqrt,
    Erf,
    Floor,
    Ceiling,
    Round,
    Sign,
    Clamp,
    Gelu,
    HSwish,
    HSigmoid,
    HardSigmoid,
    Swish,
    Mish,
    SoftPlus,
    Elu,
    LogicalNot,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Asinh,
    Acosh,
    Atanh,
    BitwiseNot,
    IsNaN,
    IsInf,
    IsFinite,
    Selu,
    SoftSign,
}

/// Which data element types an op accepts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Types {
    /// Anything but boolean.
    NotBoolean,
    /// Floating types only.
    Real,
    /// Any type.
    Any,
    /// Integer or boolean types.
    Bits,
}

impl Kind {
    fn types(self) -> Types {
        use Kind::*;
        match self {
            Gelu | Mish | SoftPlus | Swish | IsNaN | IsInf | IsFinite | Selu | SoftSign => {
                Types::Real
            }
            Round | Elu | LogicalNot | Prelu | HardSigmoid => Types::Any,
            BitwiseNot => Types::Bits,
            _ => Types::NotBoolean,
        }
    }

    /// (min, max) number of inputs.
    fn inputs(self) -> (usize, usize) {
        match self {
            Kind::Prelu => (2, 2),
            Kind::HardSigmoid | Kind::Selu => (3, 3),
            Kind::Swish => (1, 2),
            _ => (1, 1),
        }
    }
}

const SYMBOLIC: &str = "output = data shape and type, symbols kept";
const ERRORS: &str = "`element-type` for a data type OpenVINO rejects; `input-count`";

const OPSET4: &[OpVersion] = &[OpVersion::openvino(4, 4)];
const OPSET5: &[OpVersion] = &[OpVersion::openvino(5, 5)];
/// Asinh-3, Acosh-3, Atanh-3: version 3, first in opset4.
const V3_OPSET4: &[OpVersion] = &[OpVersion::openvino(3, 4)];
const GELU_VERSIONS: &[OpVersion] = &[OpVersion::openvino(2, 2), OpVersion::openvino(7, 7)];

macro_rules! unary_op {
    ($static:ident, $fn:ident, $kind:ident, $name:literal, $versions:expr, $summary:literal, $attrs:literal) => {
        unary_op!($static, $fn, $kind, $name, $versions, $summary, $attrs, SYMBOLIC, ERRORS);
    };
    ($static:ident, $fn:ident, $kind:ident, $name:literal, $versions:expr, $summary:literal, $attrs:literal, $symbolic:expr, $errors:expr) => {
        pub static $static: OpDef = OpDef {
            type_name: $name,
            versions: $versions,
            infer: $fn,
            doc: OpDoc {
                summary: $summary,
                attributes: $attrs,
                symbolic: $symbolic,
                errors: $errors,
            },
        };

        fn $fn(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
            infer(ctx, call, Kind::$kind)
        }
    };
}

const S1: &[OpVersion] = super::SINCE_OPSET1;
const TRIG_SYMBOLIC: &str = "output = data shape and type, symbols kept; integer data: OpenVINO's CPU plugin computes in f32 and rounds half to even (see the executor)";
const VALUES: &str = "output = data shape and type; integer values propagate";

unary_op!(
    SIN,
    infer_sin,
    Sin,
    "Sin",
    S1,
    "Elementwise sine (radians).",
    "-",
    TRIG_SYMBOLIC,
    ERRORS
);
unary_op!(
    COS,
    infer_cos,
    Cos,
    "Cos",
    S1,
    "Elementwise cosine (radians).",
    "-",
    TRIG_SYMBOLIC,
    ERRORS
);
unary_op!(
    TAN,
    infer_tan,
    Tan,
    "Tan",
    S1,
    "Elementwise tangent (radians).",
    "-",
    TRIG_SYMBOLIC,
    ERRORS
);
unary_op!(
    ASIN,
    infer_asin,
    Asin,
    "Asin",
    S1,
    "Elementwise arcsine (NaN outside [-1, 1]).",
    "-",
    TRIG_SYMBOLIC,
    ERRORS
);
unary_op!(
    ACOS,
    infer_acos,
    Acos,
    "Acos",
    S1,
    "Elementwise arccosine (NaN outside [-1, 1]).",
    "-",
    TRIG_SYMBOLIC,
    ERRORS
);
unary_op!(
    ATAN,
    infer_atan,
    Atan,
    "Atan",
    S1,
    "Elementwise arctangent.",
    "-",
    TRIG_SYMBOLIC,
    ERRORS
);
unary_op!(
    SINH,
    infer_sinh,
    Sinh,
    "Sinh",
    S1,
    "Elementwise hyperbolic sine.",
    "-",
    TRIG_SYMBOLIC,
    ERRORS
);
unary_op!(
    COSH,
    infer_cosh,
    Cosh,
    "Cosh",
    S1,
    "Elementwise hyperbolic cosine.",
    "-",
    TRIG_SYMBOLIC,
    ERRORS
);
unary_op!(
    ASINH,
    infer_asinh,
    Asinh,
    "Asinh",
    V3_OPSET4,
    "Elementwise inverse hyperbolic sine (Asinh-3, first in opset4).",
    "-",
    TRIG_SYMBOLIC,
    ERRORS
);
unary_op!(
    ACOSH,
    infer_acosh,
    Acosh,
    "Acosh",
    V3_OPSET4,
    "Elementwise inverse hyperbolic cosine (Acosh-3, first in opset4; NaN below 1).",
    "-",
    TRIG_SYMBOLIC,
    ERRORS
);
unary_op!(
    ATANH,
    infer_atanh,
    Atanh,
    "Atanh",
    V3_OPSET4,
    "Elementwise inverse hyperbolic tangent (Atanh-3, first in opset4; NaN outside [-1, 1], infinities at ±1).",
    "-",
    TRIG_SYMBOLIC,
    ERRORS
);
unary_op!(
    BITWISE_NOT,
    infer_bitwise_not,
    BitwiseNot,
    "BitwiseNot",
    &[OpVersion::openvino(13, 13)],
    "Elementwise bitwise not of an integer tensor (boolean: logical not).",
    "-",
    SYMBOLIC,
    "`element-type` for floating-point data; `input-count`"
);
unary_op!(
    ABS,
    infer_abs,
    Abs,
    "Abs",
    S1,
    "Elementwise absolute value.",
    "-",
    VALUES,
    ERRORS
);
unary_op!(
    NEGATIVE,
    infer_negative,
    Negative,
    "Negative",
    S1,
    "Elementwise negation.",
    "-",
    VALUES,
    ERRORS
);
unary_op!(
    RELU,
    infer_relu,
    Relu,
    "ReLU",
    S1,
    "Elementwise `max(x, 0)`.",
    "-",
    VALUES,
    ERRORS
);
unary_op!(
    PRELU,
    infer_prelu,
    Prelu,
    "PReLU",
    S1,
    "Parametric ReLU: `x < 0 ? slope * x : x` (input 1: slope).",
    "-",
    "output = data shape and type (OpenVINO checks no slope shape)",
    ERRORS
);
unary_op!(
    SIGMOID,
    infer_sigmoid,
    Sigmoid,
    "Sigmoid",
    S1,
    "Elementwise logistic function.",
    "-"
);
unary_op!(
    TANH,
    infer_tanh,
    Tanh,
    "Tanh",
    S1,
    "Elementwise hyperbolic tangent.",
    "-"
);
unary_op!(
    EXP,
    infer_exp,
    Exp,
    "Exp",
    S1,
    "Elementwise exponential.",
    "-"
);
unary_op!(
    LOG,
    infer_log,
    Log,
    "Log",
    S1,
    "Elementwise natural logarithm.",
    "-"
);
unary_op!(
    SQRT,
    infer_sqrt,
    Sqrt,
    "Sqrt",
    S1,
    "Elementwise square root.",
    "-"
);
unary_op!(
    ERF,
    infer_erf,
    Erf,
    "Erf",
    S1,
    "Elementwise Gauss error function.",
    "-"
);
unary_op!(
    FLOOR,
    infer_floor,
    Floor,
    "Floor",
    S1,
    "Elementwise floor.",
    "-",
    VALUES,
    ERRORS
);
unary_op!(
    CEILING,
    infer_ceiling,
    Ceiling,
    "Ceiling",
    S1,
    "Elementwise ceiling.",
    "-",
    VALUES,
    ERRORS
);
unary_op!(
    ROUND,
    infer_round,
    Round,
    "Round",
    OPSET5,
    "Elementwise rounding.",
    "`mode` (`half_to_even`, `half_away_from_zero`)",
    VALUES,
    "`attribute-invalid` for an unknown `mode`"
);
unary_op!(
    SIGN,
    infer_sign,
    Sign,
    "Sign",
    S1,
    "Elementwise sign (-1, 0, 1).",
    "-"
);
unary_op!(
    CLAMP,
    infer_clamp,
    Clamp,
    "Clamp",
    S1,
    "Elementwise clamp to `[min, max]`.",
    "`min`, `max` (required numbers)",
    VALUES,
    "`clamp-min-max` when `min > max`; `element-type` for boolean data"
);
unary_op!(
    GELU,
    infer_gelu,
    Gelu,
    "Gelu",
    GELU_VERSIONS,
    "Gaussian error linear unit (Gelu-2; Gelu-7 with an approximation mode).",
    "`approximation_mode` (Gelu-7: `erf` default, `tanh`)",
    SYMBOLIC,
    "`attribute-invalid` for an unknown `approximation_mode`; `element-type` for non-floating data"
);
unary_op!(
    HSWISH,
    infer_hswish,
    HSwish,
    "HSwish",
    OPSET4,
    "Elementwise `x * min(max(x + 3, 0), 6) / 6`.",
    "-"
);
unary_op!(
    HSIGMOID,
    infer_hsigmoid,
    HSigmoid,
    "HSigmoid",
    OPSET5,
    "Elementwise `min(max(x + 3, 0), 6) / 6`.",
    "-"
);
unary_op!(
    HARD_SIGMOID,
    infer_hard_sigmoid,
    HardSigmoid,
    "HardSigmoid",
    S1,
    "Elementwise `max(0, min(1, alpha * x + beta))` (inputs: data, alpha, beta).",
    "-"
);
unary_op!(
    SWISH,
    infer_swish,
    Swish,
    "Swish",
    OPSET4,
    "Elementwise `x * sigmoid(beta * x)` (optional input 1: beta).",
    "-"
);
unary_op!(
    MISH,
    infer_mish,
    Mish,
    "Mish",
    OPSET4,
    "Elementwise `x * tanh(softplus(x))`.",
    "-"
);
unary_op!(
    SOFT_PLUS,
    infer_soft_plus,
    SoftPlus,
    "SoftPlus",
    OPSET4,
    "Elementwise `ln(1 + e^x)`.",
    "-"
);
unary_op!(
    ELU,
    infer_elu,
    Elu,
    "Elu",
    S1,
    "Exponential linear unit.",
    "`alpha`"
);
unary_op!(
    LOGICAL_NOT,
    infer_logical_not,
    LogicalNot,
    "LogicalNot",
    S1,
    "Elementwise logical negation.",
    "-",
    VALUES,
    ERRORS
);

const OPSET10: &[OpVersion] = &[OpVersion::openvino(10, 10)];
const PREDICATE_SYMBOLIC: &str = "output = data shape, boolean, symbols kept";
const REAL_ERRORS: &str = "`element-type` for non-floating data; `input-count`";

unary_op!(
    IS_NAN,
    infer_is_nan,
    IsNaN,
    "IsNaN",
    OPSET10,
    "Elementwise test for NaN (boolean output).",
    "-",
    PREDICATE_SYMBOLIC,
    REAL_ERRORS
);
unary_op!(
    IS_INF,
    infer_is_inf,
    IsInf,
    "IsInf",
    OPSET10,
    "Elementwise test for an infinity of the detected signs (boolean output).",
    "`detect_negative`, `detect_positive` (default true)",
    PREDICATE_SYMBOLIC,
    REAL_ERRORS
);
unary_op!(
    IS_FINITE,
    infer_is_finite,
    IsFinite,
    "IsFinite",
    OPSET10,
    "Elementwise test for a finite value, neither NaN nor infinite (boolean output).",
    "-",
    PREDICATE_SYMBOLIC,
    REAL_ERRORS
);
unary_op!(
    SELU,
    infer_selu,
    Selu,
    "Selu",
    S1,
    "Scaled exponential linear unit: `lambda * (x > 0 ? x : alpha * (e^x - 1))` (inputs: data, alpha, lambda).",
    "-",
    SYMBOLIC,
    "`element-type` for non-floating data or alpha/lambda of another type; warning `selu-parameter-shape` for an alpha or lambda of more than one element (OpenVINO's shape inference takes it, its CPU plugin cannot run it); `input-count`"
);
unary_op!(
    SOFT_SIGN,
    infer_soft_sign,
    SoftSign,
    "SoftSign",
    &[OpVersion::openvino(9, 9)],
    "Elementwise `x / (1 + |x|)`.",
    "-",
    SYMBOLIC,
    REAL_ERRORS
);

fn infer(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    kind: Kind,
) -> Result<Vec<TensorInfo>, ShapeError> {
    let (min, max) = kind.inputs();
    call.expect_inputs(min, max)?;
    let data = &call.inputs[0];
    let t = data.element_type;
    let ok = !t.is_static()
        || match kind.types() {
            Types::NotBoolean => t != ElementType::Boolean,
            Types::Real => t.is_real(),
            Types::Any => true,
            Types::Bits => t.is_integral() || t == ElementType::Boolean,
        };
    if !ok {
        return Err(ShapeError::ElementType {
            what: "data (input 0)".to_owned(),
            message: match kind.types() {
                Types::Real => format!("must be a floating-point tensor, got {t}"),
                Types::Bits => format!("must be an integer or boolean tensor, got {t}"),
                _ => format!("must not be {t}"),
            },
        });
    }
    let attrs = &call.node.attributes;
    let mut clamp = None;
    match kind {
        Kind::Round => {
            let mode = attrs.require("mode")?;
            if !matches!(
                mode.to_ascii_lowercase().as_str(),
                "half_to_even" | "half_away_from_zero"
            ) {
                return Err(ShapeError::rule(
                    "attribute-invalid",
                    format!("mode `{mode}` is not half_to_even or half_away_from_zero"),
                ));
            }
        }
        Kind::Gelu if call.version >= 7 => {
            if let Some(mode) = attrs.get("approximation_mode") {
                if !matches!(mode.to_ascii_lowercase().as_str(), "erf" | "tanh") {
                    return Err(ShapeError::rule(
                        "attribute-invalid",
                        format!("approximation_mode `{mode}` is not erf or tanh"),
                    ));
                }
            }
        }
        Kind::Clamp => {
            let number = |key: &str| -> Result<f64, ShapeError> {
                let text = attrs.require(key)?;
                text.trim().parse::<f64>().map_err(|_| {
                    ShapeError::rule(
                        "attribute-invalid",
                        format!("{key} `{text}` is not a number"),
                    )
                })
            };
            let (lo, hi) = (number("min")?, number("max")?);
            if lo.is_nan() || hi.is_nan() || lo > hi {
                return Err(ShapeError::rule(
                    "clamp-min-max",
                    format!("min {lo} must not be greater than max {hi}"),
                ));
            }
            clamp = Some((lo, hi));
        }
        Kind::IsInf => {
            support::bool_attr(ctx, call, "detect_negative", true);
            support::bool_attr(ctx, call, "detect_positive", true);
        }
        Kind::Selu => selu_parameters(ctx, call)?,
        _ => {}
    }
    let out_type = match kind {
        Kind::IsNaN | Kind::IsInf | Kind::IsFinite => ElementType::Boolean,
        _ => t,
    };
    let value = data.value.as_ref().and_then(|v| {
        v.iter()
            .map(|d| element(ctx, kind, d, clamp, t))
            .collect::<Option<Vec<_>>>()
    });
    // Built in place: a `with_value` would move the whole tensor once more.
    let mut outputs = vec![TensorInfo::new(out_type, data.shape.clone())];
    outputs[0].value = value;
    Ok(outputs)
}

/// Selu's alpha and lambda: the data's type, one element each (the spec;
/// OpenVINO's shape inference takes more, its CPU plugin refuses them).
fn selu_parameters(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<(), ShapeError> {
    for (i, name) in [(1, "alpha"), (2, "lambda")] {
        support::expect_same_type(call, 0, i)?;
        let count = support::static_element_count(&call.inputs[i].shape);
        if count.is_some_and(|c| c != 1) {
            ctx.warn(
                "selu-parameter-shape",
                format!(
                    "{name} (input {i}) has shape {}, not one element: OpenVINO's shape inference accepts it, its CPU plugin (and the executor) cannot run it",
                    call.inputs[i].shape.display(&ctx.symbols)
                ),
            );
        }
    }
    Ok(())
}

fn element(
    ctx: &InferContext,
    kind: Kind,
    d: &Dim,
    clamp: Option<(f64, f64)>,
    t: ElementType,
) -> Option<Dim> {
    let s = &ctx.symbols;
    let integral = t.is_integral() || t == ElementType::Boolean;
    match kind {
        Kind::Negative => d.neg().ok(),
        Kind::Abs => {
            let b = s.bounds(d).ok()?;
            if b.lo.is_some_and(|lo| lo >= 0) {
                Some(d.clone())
            } else if b.hi.is_some_and(|hi| hi <= 0) {
                d.neg().ok()
            } else {
                None
            }
        }
        Kind::Relu if integral => s.max(d, &Expr::zero()).ok(),
        Kind::Floor | Kind::Ceiling | Kind::Round if integral => Some(d.clone()),
        Kind::Clamp if integral => {
            let (lo, hi) = clamp?;
            let lo = Expr::constant(lo.ceil().clamp(-9.0e18, 9.0e18) as i64);
            let hi = Expr::constant(hi.floor().clamp(-9.0e18, 9.0e18) as i64);
            s.min(&s.max(d, &lo).ok()?, &hi).ok()
        }
        Kind::LogicalNot => Some(Expr::constant(i64::from(d.as_constant()? == 0))),
        Kind::BitwiseNot => match t {
            ElementType::Boolean => Some(Expr::constant(i64::from(d.as_constant()? == 0))),
            // Unsigned values would leave their type's range as i64.
            ElementType::I8 | ElementType::I16 | ElementType::I32 | ElementType::I64 => {
                Some(Expr::constant(!d.as_constant()?))
            }
            _ => None,
        },
        _ => None,
    }
}
