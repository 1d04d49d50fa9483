//! Range-1 and Range-4: `[start, start + step, …)` up to `stop`.
//!
//! The length is `max(ceil((stop - start)/step), 0)`, symbolic when start and
//! stop are values from a shape subgraph: `Range(0, ShapeOf(x)[1], 1)` has
//! length `S`.

use ir::{Dim, ElementType, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "Range",
    versions: &[
        OpVersion::openvino(1, 1),
        OpVersion::openvino(4, 4),
    ],
    infer,
    doc: OpDoc {
        summary: "A 1-D sequence from `start` (inclusive) to `stop` (exclusive) by `step`.",
        attributes: "`output_type` (v4, required; v1 outputs the inputs' element type)",
        symbolic: "length `max(ceil((stop - start)/step), 0)` when start and stop are known (constants or shape values) and step is a constant; otherwise a fresh symbol; small static results carry their values",
        errors: "inputs that are not scalars, a step of 0, v1 inputs of different element types, an invalid `output_type`",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 3)?;
    let names = ["start (input 0)", "stop (input 1)", "step (input 2)"];
    for (i, name) in names.iter().enumerate() {
        support::scalar_int_input(call, i, name).map_err(|_| {
            ShapeError::rule("range-input-not-scalar", format!("{name} must be a scalar"))
        })?;
    }
    let element_type = if call.version >= 4 {
        let text = call.node.attributes.require("output_type")?;
        ElementType::parse(text.trim())
            .filter(|t| t.is_static() && t.is_computable())
            .ok_or_else(|| {
                ShapeError::rule(
                    "range-output-type",
                    format!("output_type `{text}` is not a numeric element type"),
                )
            })?
    } else {
        let mut t = ElementType::Dynamic;
        for (i, input) in call.inputs.iter().enumerate() {
            let ti = input.element_type;
            if ti.is_static() {
                if t.is_static() && t != ti {
                    return Err(ShapeError::ElementType {
                        what: names[i].to_owned(),
                        message: format!("must have the element type of start ({t}), got {ti}"),
                    });
                }
                t = ti;
            }
        }
        t
    };
    // Values only mean integers when the inputs are integers.
    let scalar = |i: usize| -> Option<Dim> {
        let input = call.inputs.get(i)?;
        if input.element_type.is_static() && !input.element_type.is_integral() {
            return None;
        }
        match input.value.as_deref()? {
            [v] => Some(v.clone()),
            _ => None,
        }
    };
    let (start, stop, step) = (scalar(0), scalar(1), scalar(2));
    let step_const = step.as_ref().and_then(Expr::as_constant);
    if step_const == Some(0) {
        return Err(ShapeError::rule("range-step-zero", "step must not be 0"));
    }
    let length = match (&start, &stop, step_const) {
        (Some(start), Some(stop), Some(k)) => {
            let span = if k > 0 {
                stop.sub(start)?.ceil_div(k)?
            } else {
                let k = k.checked_neg().ok_or(symdim::DimError::Overflow)?;
                start.sub(stop)?.ceil_div(k)?
            };
            ctx.symbols.max(&span, &Expr::zero())?
        }
        _ => match real_length(call, element_type) {
            Some(n) => Expr::constant(n),
            None => support::unknown_dim(ctx, "length of Range with inputs known only at run time"),
        },
    };
    let mut tensor = TensorInfo::new(element_type, Shape::ranked([length.clone()]));
    if let (Some(n), Some(start), Some(step), true) = (
        length.as_constant(),
        start,
        step,
        element_type.is_integral(),
    ) {
        if usize::try_from(n).is_ok_and(|n| n <= support::MAX_VALUE_ELEMENTS) {
            let values = (0..n)
                .map(|i| start.add(&step.mul_const(i)?))
                .collect::<Result<Vec<_>, _>>()?;
            tensor = tensor.with_value(values);
        }
    }
    Ok(vec![tensor])
}

/// The length of a Range over known floating-point scalars, as OpenVINO
/// computes it: in double precision, after truncating the three inputs when
/// the output type is an integer (a step that truncates to 0 gives an empty
/// range), `ceil(|stop - start| / |step|)` when the step points from start to
/// stop, else 0. `None` when an input is not a known scalar or the length
/// does not fit.
fn real_length(call: &OpCall<'_>, output_type: ElementType) -> Option<i64> {
    let scalar = |i: usize| -> Option<f64> {
        let input = call.inputs.get(i)?;
        match (input.real_value(), input.value.as_deref()) {
            (Some([v]), _) => Some(*v),
            (_, Some([v])) => v.as_constant().map(|v| v as f64),
            _ => None,
        }
    };
    let (mut start, mut stop, mut step) = (scalar(0)?, scalar(1)?, scalar(2)?);
    if output_type.is_integral() {
        (start, stop, step) = (start.trunc(), stop.trunc(), step.trunc());
    }
    if !(start.is_finite() && stop.is_finite() && step.is_finite()) {
        return None;
    }
    if step == 0.0 || (step > 0.0 && start >= stop) || (step < 0.0 && start <= stop) {
        return Some(0);
    }
    let length = ((stop - start).abs() / step.abs()).ceil();
    // Lengths beyond i64 cannot be a dim; leave the length unknown.
    (length < 9.0e18).then_some(length as i64)
}
