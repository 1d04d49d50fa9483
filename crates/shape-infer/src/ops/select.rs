//! Select-1: `cond ? then : else`, elementwise, with `auto_broadcast`.
//!
//! * `numpy` (default): `then` and `else` broadcast to each other (numpy),
//!   then `cond` is broadcast ONE-WAY to that result, as the op's
//!   specification says (aligned right, each `cond` dim equals the result's
//!   or is 1, `cond`'s rank may not exceed the result's);
//! * `pdpd`: `then` is the base; `else` is merged into it with the pdpd
//!   axis, then `cond` (OpenVINO's rule);
//! * `none`: all three shapes are equal.
//!
//! `cond` must be boolean; `then` and `else` have one element type, the
//! output's. Values propagate when all three inputs carry them.

use ir::{Dim, ElementType};

use crate::broadcast::{self, Mode, Operand};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::constant::MAX_VALUE_ELEMENTS;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Select",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Elementwise `cond ? then : else`.",
        attributes: "`auto_broadcast` (`numpy` default, `none`, `pdpd` with `auto_broadcast.auto_broadcast_axis`, 0 when absent)",
        symbolic: "numpy: `then`/`else` broadcast symbolically, `cond` one-way into the result; values propagate",
        errors: "`broadcast-incompatible` naming the failing dim, axis and shapes; `element-type` for a non-boolean `cond` or `then`/`else` of different types. Deliberate difference from OpenVINO 2026.4's implementation, which merges `cond` both ways: we follow the Select-1 specification, so a `cond` dim other than 1 against a result dim of 1 (cond `[6, 1]`, then `[8, 1, 4]`) is an error",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 3)?;
    let ct = call.inputs[0].element_type;
    if ct.is_static() && ct != ElementType::Boolean {
        return Err(ShapeError::ElementType {
            what: "cond (input 0)".to_owned(),
            message: format!("must be boolean, got {ct}"),
        });
    }
    let element_type = support::expect_same_type(call, 1, 2)?;
    let mode = Mode::from_attributes(&call.node.attributes)?;
    let (cond, then, els) = (
        Operand::new("cond", &call.inputs[0].shape),
        Operand::new("then", &call.inputs[1].shape),
        Operand::new("else", &call.inputs[2].shape),
    );
    let shape = match mode {
        Mode::None => {
            let s = broadcast::equal(ctx, then, els)?;
            broadcast::equal(ctx, Operand::new("then/else", &s), cond)?
        }
        Mode::Numpy => {
            let s = broadcast::numpy(ctx, then, els)?;
            broadcast::one_way(ctx, cond, Operand::new("broadcast then/else", &s))?
        }
        Mode::Pdpd { axis } => {
            let s = broadcast::pdpd(ctx, then, els, axis)?;
            broadcast::pdpd(ctx, Operand::new("then/else", &s), cond, axis)?
        }
    };
    let value = values(call, mode, &shape);
    let out = TensorInfo::new(element_type, shape);
    Ok(vec![match value {
        Some(v) => out.with_value(v),
        None => out,
    }])
}

fn values(call: &OpCall<'_>, mode: Mode, out: &ir::Shape) -> Option<Vec<Dim>> {
    let so = out.to_static()?;
    let start = match mode {
        Mode::Pdpd { axis } if axis >= 0 => Some(usize::try_from(axis).ok()?),
        _ => None,
    };
    let mut maps = Vec::with_capacity(3);
    for i in 0..3 {
        let s = call.inputs[i].shape.to_static()?;
        let start = if i == 1 { None } else { start };
        maps.push(broadcast::element_map(&s, &so, start, MAX_VALUE_ELEMENTS)?);
    }
    let (vc, vt, ve) = (
        support::input_values(call, 0)?,
        support::input_values(call, 1)?,
        support::input_values(call, 2)?,
    );
    (0..maps[0].len())
        .map(|k| {
            let c = vc.get(maps[0][k])?.as_constant()?;
            if c != 0 {
                vt.get(maps[1][k]).cloned()
            } else {
                ve.get(maps[2][k]).cloned()
            }
        })
        .collect()
}
