//! ShuffleChannels-1: the `axis` dim split into `group` rows, transposed:
//! output index `a*group + g` is input index `g*(D/group) + a`. The shape is
//! the input's; the dim at `axis` must be divisible by `group`.

use symdim::Predicate;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "ShuffleChannels",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "The `axis` dim split into `group` groups and interleaved.",
        attributes: "`axis` (default 1), `group` (default 1)",
        symbolic: "the input's shape; the divisibility of the `axis` dim by `group` is a recorded constraint when symbolic",
        errors: "`shuffle-channels` (rank 0, `group` below 1, a static dim not divisible by `group`), `axis-out-of-range`",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let group = call.node.attributes.i64("group")?.unwrap_or(1);
    if group < 1 {
        return Err(ShapeError::rule(
            "shuffle-channels",
            format!("`group` {group} is below 1"),
        ));
    }
    let data = &call.inputs[0];
    if let Some(dims) = data.shape.dims() {
        if dims.is_empty() {
            return Err(ShapeError::rule("shuffle-channels", "the data is a scalar"));
        }
        let axis = support::normalize_axis(
            call.node.attributes.i64("axis")?.unwrap_or(1),
            dims.len(),
            "`axis`",
        )?;
        let d = &dims[axis];
        match d.as_constant() {
            Some(v) if v % group != 0 => {
                return Err(ShapeError::rule(
                    "shuffle-channels",
                    format!("dim {axis} ({v}) is not divisible by `group` {group}"),
                ))
            }
            Some(_) => {}
            None => ctx.assume(Predicate::Divides {
                divisor: group,
                expr: d.clone(),
            })?,
        }
    }
    Ok(vec![TensorInfo::new(data.element_type, data.shape.clone())])
}
