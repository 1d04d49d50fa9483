//! Select-1: `cond ? then : else`, elementwise, with `auto_broadcast`.
//!
//! * `numpy` (default): `then` and `else` broadcast to each other (numpy),
//!   then `cond` with that result. The specification's step 2 broadcasts
//!   `cond` one way; OpenVINO's runtime broadcasts it both ways (its ONNX
//!   frontend relies on that for `Where`), so we do what the runtime does and
//!   warn (`select-cond-broadcast`, an error under `--strict-spec`) when
//!   `cond` provably widens the result;
//! * `pdpd`: `then` is the base; `else` is merged into it with the pdpd
//!   axis, then `cond` (OpenVINO's rule);
//! * `none`: all three shapes are equal.
//!
//! `cond` must be boolean; `then` and `else` have one element type, the
//! output's. Values propagate when all three inputs carry them.

use ir::{Dim, ElementType};

use crate::broadcast::{self, Mode, Operand};
use crate::context::{InferContext, SELECT_COND_BROADCAST};
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
        symbolic: "numpy: `then`/`else` broadcast symbolically, then `cond` with the result (both ways, as OpenVINO's runtime); values propagate",
        errors: "`broadcast-incompatible` naming the failing dim, axis and shapes; `element-type` for a non-boolean `cond` or `then`/`else` of different types; `select-cond-broadcast` warning when `cond` widens the then/else broadcast (cond `[6, 1]`, then `[8, 1, 4]` gives `[8, 6, 4]`), beyond the specification's one-way step 2: an error under `--strict-spec`",
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
            let branches = broadcast::numpy(ctx, then, els)?;
            let out = broadcast::numpy(ctx, cond, Operand::new("broadcast then/else", &branches))?;
            if let Some(how) = widens(ctx, &branches, &out) {
                ctx.warn(
                    SELECT_COND_BROADCAST,
                    format!(
                        "cond {} widens the broadcast of then/else {} to {} ({how}): the \
                         specification's step 2 broadcasts cond one way into then/else; \
                         OpenVINO's runtime broadcasts it both ways",
                        call.inputs[0].shape.display(&ctx.symbols),
                        branches.display(&ctx.symbols),
                        out.display(&ctx.symbols),
                    ),
                );
            }
            out
        }
        Mode::Pdpd { axis } => {
            let s = broadcast::pdpd(ctx, then, els, axis)?;
            broadcast::pdpd(ctx, Operand::new("then/else", &s), cond, axis)?
        }
    };
    let value = values(call, mode, &shape);
    let out = TensorInfo::new(element_type, shape);
    Ok(vec![out.with_value(value)])
}

/// How the broadcast with `cond` (`out`) provably widens the broadcast of
/// `then` and `else` (`branches`), if it does: a higher rank, or a dim that
/// is 1 in `branches` and cannot be 1 in `out`.
fn widens(ctx: &InferContext, branches: &ir::Shape, out: &ir::Shape) -> Option<String> {
    let (b, o) = (branches.dims()?, out.dims()?);
    if o.len() > b.len() {
        return Some(format!("rank {} over rank {}", o.len(), b.len()));
    }
    let point = |d: &Dim| ctx.symbols.bounds(d).ok().and_then(|i| i.as_point());
    let excludes_one = |d: &Dim| ctx.symbols.bounds(d).is_ok_and(|i| !i.contains(1));
    b.iter()
        .zip(o)
        .position(|(bd, od)| point(bd) == Some(1) && excludes_one(od))
        .map(|axis| format!("axis {axis}"))
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
