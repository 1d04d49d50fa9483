//! StringTensorPack-15: the string tensor whose element `i` is the bytes
//! `symbols[begins[i]..ends[i]]`; the output has the shape of `begins`
//! (which `ends` must share).

use ir::{ElementType, Shape};

use super::support::{expect_index_input, merge_equal_dims};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "StringTensorPack",
    versions: &[OpVersion::openvino(15, 15)],
    infer,
    doc: OpDoc {
        summary: "Packs begin and end offsets into a 1-D u8 tensor of UTF-8 bytes into a string tensor.",
        attributes: "-",
        symbolic: "the shape of `begins` merged with that of `ends` (equal dims assumed where undecided)",
        errors: "`element-type` (`begins`/`ends` not both i32 or both i64, `symbols` not u8), `string-tensor-pack` (shapes of `begins` and `ends` that differ, `symbols` not 1-D)",
    },
};

fn rule(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("string-tensor-pack", message)
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 3)?;
    expect_index_input(call, 0, "begins (input 0)")?;
    expect_index_input(call, 1, "ends (input 1)")?;
    let (begins, ends, symbols) = (&call.inputs[0], &call.inputs[1], &call.inputs[2]);
    if begins.element_type.is_static()
        && ends.element_type.is_static()
        && begins.element_type != ends.element_type
    {
        return Err(ShapeError::ElementType {
            what: "begins and ends (inputs 0 and 1)".into(),
            message: format!(
                "must have the same type, got {} and {}",
                begins.element_type, ends.element_type
            ),
        });
    }
    if symbols.element_type.is_static() && symbols.element_type != ElementType::U8 {
        return Err(ShapeError::ElementType {
            what: "symbols (input 2)".into(),
            message: format!("must be u8, got {}", symbols.element_type),
        });
    }
    if let Some(rank) = symbols.shape.rank().filter(|&r| r != 1) {
        return Err(rule(format!(
            "symbols (input 2) must be 1-D, got rank {rank}"
        )));
    }
    let shape = match (begins.shape.dims(), ends.shape.dims()) {
        (Some(b), Some(e)) if b.len() != e.len() => {
            return Err(rule(format!(
                "begins has rank {} but ends rank {}",
                b.len(),
                e.len()
            )))
        }
        (Some(b), Some(e)) => {
            let mut dims = Vec::with_capacity(b.len());
            for (axis, (x, y)) in b.iter().zip(e).enumerate() {
                let what = format!("dim {axis} of begins and ends");
                dims.push(merge_equal_dims(ctx, x, y, "string-tensor-pack", &what)?);
            }
            Shape::ranked(dims)
        }
        (Some(_), None) => begins.shape.clone(),
        (None, _) => ends.shape.clone(),
    };
    Ok(vec![TensorInfo::new(ElementType::String, shape)])
}
