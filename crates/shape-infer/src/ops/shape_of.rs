//! ShapeOf-1 and ShapeOf-3: the shape of a tensor as a 1-D integer tensor.
//!
//! The output carries the input's dims as its value, so shape subgraphs see
//! `[N, 3, H, W]` rather than four unknown numbers.

use ir::{ElementType, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "ShapeOf",
    versions: &[
        OpVersion::openvino(1, 1),
        OpVersion::openvino(3, 3),
    ],
    infer,
    doc: OpDoc {
        summary: "The shape of the input as a 1-D integer tensor of length rank.",
        attributes: "`output_type` (v3: `i32` or `i64`, default `i64`; v1 is always `i64`)",
        symbolic: "the output's value is the input's dims (symbolic), so shape subgraphs keep `N`, `H`…; an unknown rank gives `[?]` with a fresh symbol and no value",
        errors: "`output_type` other than `i32`/`i64`",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let element_type = if call.version >= 3 {
        match call.node.attributes.get("output_type").map(str::trim) {
            None | Some("i64") => ElementType::I64,
            Some("i32") => ElementType::I32,
            Some(other) => {
                return Err(ShapeError::rule(
                    "shapeof-output-type",
                    format!("output_type must be i32 or i64, got `{other}`"),
                ))
            }
        }
    } else {
        ElementType::I64
    };
    Ok(vec![match call.inputs[0].shape.dims() {
        Some(dims) => {
            let rank = i64::try_from(dims.len()).map_err(|_| symdim::DimError::Overflow)?;
            let out = TensorInfo::new(element_type, Shape::ranked([Expr::constant(rank)]));
            if dims.len() <= support::MAX_VALUE_ELEMENTS {
                out.with_value(dims.to_vec())
            } else {
                out
            }
        }
        None => {
            let rank = support::unknown_dim(ctx, "rank of the input of ShapeOf (unknown rank)");
            TensorInfo::new(element_type, Shape::ranked([rank]))
        }
    }])
}
