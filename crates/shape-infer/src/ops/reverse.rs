//! Reverse-1: the data with its elements reversed along some axes; the
//! output has the data's shape and type. `mode` `index` reads the second
//! input as axis indices (integers; a repeated axis reverses once), `mask`
//! as one boolean per data axis.
//!
//! As OpenVINO: the axes input is 1-D; in index mode known axes must be
//! below the rank (OpenVINO's shape inference clips a negative axis to 0
//! for that check, and its runtime counts one from the end, which we
//! follow: `-rank..rank`); in mask mode its length must equal the rank.

use ir::ElementType;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "Reverse",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Reverses the data along the axes of input 1 (indices, or a boolean mask of one flag per axis).",
        attributes: "`mode` (`index`, `mask`)",
        symbolic: "output = data shape and type",
        errors: "`attribute-invalid` (`mode` missing or not index/mask), `element-type` (index-mode axes not integers, a mask not boolean), `input-rank` (axes not 1-D), `reverse-mask-length` (a mask's length not the data's rank), `axis-out-of-range`",
    },
};

/// Whether `mode` is `mask` (else `index`), checked.
pub fn is_mask_mode(attributes: &ir::Attributes) -> Result<bool, ShapeError> {
    match attributes
        .get("mode")
        .map(|m| m.trim().to_ascii_lowercase())
    {
        Some(m) if m == "index" => Ok(false),
        Some(m) if m == "mask" => Ok(true),
        Some(m) => Err(ShapeError::rule(
            "attribute-invalid",
            format!("`mode` {m} is not index or mask"),
        )),
        None => Err(ShapeError::rule(
            "attribute-invalid",
            "the `mode` attribute is missing",
        )),
    }
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let mask = is_mask_mode(&call.node.attributes)?;
    let t = call.inputs[1].element_type;
    if mask && t.is_static() && t != ElementType::Boolean {
        return Err(ShapeError::ElementType {
            what: "axes (input 1)".to_owned(),
            message: format!("must be boolean in mask mode, got {t}"),
        });
    }
    if !mask {
        support::expect_integer_input(call, 1, "axes (input 1)")?;
    }
    support::expect_rank_le1(call, 1, "axes (input 1)", false)?;
    let data = &call.inputs[0];
    if let Some(rank) = data.shape.rank() {
        if mask {
            if let Some([len]) = call.inputs[1].shape.dims() {
                let rank_dim = symdim::Expr::constant(rank as i64);
                support::merge_equal_dims(
                    ctx,
                    len,
                    &rank_dim,
                    "reverse-mask-length",
                    "the mask's length and the data's rank",
                )?;
            }
        } else if let Some(axes) = support::input_ints(call, 1) {
            for a in axes {
                support::normalize_axis(a, rank, "axis")?;
            }
        }
    }
    Ok(vec![TensorInfo::new(data.element_type, data.shape.clone())])
}
