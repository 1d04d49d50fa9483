//! AdaptiveAvgPool-8: `[N, C, D…]` pooled to the spatial size given by the
//! values of input 1 (`[N, C, O…]`), each output averaging the bins
//! `floor(i*D/O) .. ceil((i+1)*D/O)`. The output size may be symbolic (a
//! ShapeOf subgraph's values). AdaptiveMaxPool shares this rule
//! ([`adaptive_shape`]).

use ir::{Dim, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::max_pool::expect_pooled_rank;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "AdaptiveAvgPool",
    versions: &[OpVersion::openvino(8, 8)],
    infer,
    doc: OpDoc {
        summary: "Average pooling to a given spatial output size (input 1), each bin `floor(i*D/O)..ceil((i+1)*D/O)`.",
        attributes: "-",
        symbolic: "`[N, C]` kept; the spatial dims are input 1's values (propagated expressions from shape subgraphs), fresh symbols when unknown",
        errors: "`pool-rank` (data not 3-D to 5-D), `adaptive-output-size` (not one value per spatial dim, a negative value), `element-type`",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let shape = adaptive_shape(ctx, call)?;
    Ok(vec![TensorInfo::new(call.inputs[0].element_type, shape)])
}

/// `[N, C]` and the spatial output size of an adaptive pooling op.
pub(super) fn adaptive_shape(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
) -> Result<Shape, ShapeError> {
    call.expect_inputs(2, 2)?;
    support::expect_integer_input(call, 1, "output size (input 1)")?;
    support::expect_rank_le1(call, 1, "output size (input 1)", false)?;
    let Some(dims) = call.inputs[0].shape.dims() else {
        return Ok(Shape::DynamicRank);
    };
    expect_pooled_rank(dims.len())?;
    let spatial = dims.len() - 2;
    if let Some(len) = call.inputs[1]
        .shape
        .dims()
        .and_then(|d| d.first()?.as_constant())
    {
        if len != spatial as i64 {
            return Err(ShapeError::rule(
                "adaptive-output-size",
                format!("the output size has {len} values but the data has {spatial} spatial dims"),
            ));
        }
    }
    let mut out: Vec<Dim> = dims[..2].to_vec();
    match support::input_values(call, 1) {
        Some(values) => {
            if let Some(bad) = values
                .iter()
                .find_map(|v| v.as_constant().filter(|&c| c < 0))
            {
                return Err(ShapeError::rule(
                    "adaptive-output-size",
                    format!("output size value {bad} is negative"),
                ));
            }
            out.extend(values.iter().cloned());
        }
        None => {
            for axis in 0..spatial {
                out.push(support::unknown_dim(
                    ctx,
                    format!("spatial dim {axis} of an output size known only at run time"),
                ));
            }
        }
    }
    Ok(Shape::ranked(out))
}
