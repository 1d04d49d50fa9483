//! Squeeze-1 and Squeeze-15: remove dims of size 1.
//!
//! Without axes (or with empty axes) every dim that is 1 goes: a dim whose
//! range excludes 1 stays, a dim provably 1 goes, and an undecidable dim
//! makes the rank unknown, as in OpenVINO. With axes, a symbolic dim there is
//! assumed to be 1 (recorded), except with Squeeze-15's `allow_axis_skip`,
//! where an undecidable dim makes the rank unknown.

use std::cmp::Ordering;

use ir::{Dim, Shape};
use symdim::{Expr, Predicate};

use super::support::{self, expect_integer_input, normalize_axis};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Squeeze",
    versions: &[OpVersion::openvino(1, 1), OpVersion::openvino(15, 15)],
    infer,
    doc: OpDoc {
        summary: "The data without the dims of size 1 (all of them, or those at the given axes).",
        attributes: "`allow_axis_skip` (Squeeze-15: an axis whose dim is not 1 is skipped; a \
                     dynamic dim there makes the rank unknown)",
        symbolic: "a dim whose range excludes 1 stays, a dim provably 1 goes; without axes an \
                   undecidable dim gives an unknown rank (as OpenVINO); at a given axis a \
                   symbolic dim is assumed to be 1 (recorded); values pass through",
        errors: "`axis-out-of-range`; a static dim other than 1 at a given axis is kept, as \
                 OpenVINO's runtime does, with a `squeeze-non-one` warning (an error under \
                 `--strict-spec`: the specification requires 1)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 2)?;
    expect_integer_input(call, 1, "input 1 (axes)")?;
    let allow_skip = if call.version >= 15 {
        support::bool_attr(ctx, call, "allow_axis_skip", false)
    } else {
        false
    };
    let data = &call.inputs[0];
    let dynamic = || Ok(vec![TensorInfo::new(data.element_type, Shape::DynamicRank)]);
    let Some(dims) = data.shape.dims() else {
        return dynamic();
    };
    let axes_raw = if call.inputs.len() == 2 {
        match support::input_ints(call, 1) {
            Some(a) => Some(a),
            None => return dynamic(),
        }
    } else {
        None
    };
    let one = Expr::one();
    let mut keep = vec![true; dims.len()];
    match axes_raw.filter(|a| !a.is_empty()) {
        None => {
            for (axis, d) in dims.iter().enumerate() {
                match ctx.symbols.compare(d, &one) {
                    Some(Ordering::Equal) => keep[axis] = false,
                    Some(_) => {}
                    None => return dynamic(),
                }
            }
        }
        Some(axes) => {
            for a in axes {
                let axis = normalize_axis(a, dims.len(), "axis")?;
                let d = &dims[axis];
                match ctx.symbols.compare(d, &one) {
                    Some(Ordering::Equal) => keep[axis] = false,
                    Some(_) => {
                        if !allow_skip {
                            ctx.warn(
                                crate::context::SQUEEZE_NON_ONE,
                                format!(
                                    "axis {a} has dim {}, not 1: the specification requires 1; OpenVINO's runtime keeps the dim",
                                    ctx.symbols.display(d)
                                ),
                            );
                        }
                    }
                    None if allow_skip => return dynamic(),
                    None => {
                        ctx.assume(Predicate::Eq(d.clone(), one.clone()))?;
                        keep[axis] = false;
                    }
                }
            }
        }
    }
    let out: Vec<Dim> = dims
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(d, _)| d.clone())
        .collect();
    let mut tensor = TensorInfo::new(data.element_type, Shape::ranked(out));
    if let Some(v) = &data.value {
        tensor = tensor.with_value(v.clone());
    }
    Ok(vec![tensor])
}
