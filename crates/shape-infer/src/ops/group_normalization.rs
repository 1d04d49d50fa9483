//! GroupNormalization-12: `[N, C, …]` normalized over each of `num_groups`
//! groups of channels (and all the dims after C), then scaled and shifted
//! per channel (`scale`, `bias`: `[C]`). The output has the data's shape.

use symdim::Predicate;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "GroupNormalization",
    versions: &[OpVersion::openvino(12, 12)],
    infer,
    doc: OpDoc {
        summary: "Normalization over groups of channels, then a per-channel scale and bias.",
        attributes: "`num_groups`, `epsilon`",
        symbolic: "the data's shape; `C` divisible by `num_groups` is a recorded constraint when C is symbolic; `scale` and `bias` have C elements (a constraint when symbolic)",
        errors: "`group-norm` (data of rank below 2, `num_groups` not positive or not dividing C, `scale`/`bias` not 1-D of C elements), `element-type`",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 3)?;
    let element_type = support::expect_same_type(call, 0, 1)?;
    support::expect_same_type(call, 0, 2)?;
    let groups =
        call.node.attributes.i64("num_groups")?.ok_or_else(|| {
            ShapeError::rule("group-norm", "the `num_groups` attribute is missing")
        })?;
    if groups <= 0 {
        return Err(ShapeError::rule(
            "group-norm",
            format!("`num_groups` {groups} is not positive"),
        ));
    }
    let data = &call.inputs[0];
    if let Some(dims) = data.shape.dims() {
        if dims.len() < 2 {
            return Err(ShapeError::rule(
                "group-norm",
                format!("the data must have rank 2 or more, got {}", dims.len()),
            ));
        }
        let channels = &dims[1];
        match channels.as_constant() {
            Some(c) if c % groups != 0 => {
                return Err(ShapeError::rule(
                    "group-norm",
                    format!("{c} channels do not split into {groups} groups"),
                ))
            }
            Some(_) => {}
            None => ctx.assume(Predicate::Divides {
                divisor: groups,
                expr: channels.clone(),
            })?,
        }
        for (index, what) in [(1, "scale (input 1)"), (2, "bias (input 2)")] {
            support::expect_rank_le1(call, index, what, false)?;
            if let Some([len]) = call.inputs[index].shape.dims() {
                support::merge_equal_dims(
                    ctx,
                    len,
                    channels,
                    "group-norm",
                    &format!("{what} and the channels"),
                )?;
            }
        }
    }
    Ok(vec![TensorInfo::new(element_type, data.shape.clone())])
}
