//! ReadValue-3 and -6 on the first run (or when the state holds no value
//! for the variable): the initial value, else (v6 without one) zeros of
//! the variable's type and shape, each dynamic dim 0 as OpenVINO's CPU
//! plugin makes them. Later runs read the state instead
//! ([`crate::State`]); the executor serves it without calling this kernel.

use ir::{Shape, SymbolTable};

use super::{Call, KResult};
use crate::tensor::{byte_size, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    if let Some(initial) = call.inputs.first() {
        // The initial value itself (a view, not a copy).
        return Ok(vec![initial.clone()]);
    }
    let element_type = call.out_type(0)?;
    if !element_type.is_static() {
        return Err("the variable's type is dynamic and there is no initial value".into());
    }
    let shape = match call.out_shape(0) {
        Ok(shape) => shape,
        Err(_) => zero_state_shape(call)?,
    };
    let bytes = vec![0u8; byte_size(element_type, &shape)?];
    Ok(vec![Tensor::from_bytes(element_type, shape, bytes)?])
}

/// The declared `variable_shape` with its static dims and 0 for each
/// unknown or interval dim.
fn zero_state_shape(call: &Call<'_>) -> KResult<Vec<usize>> {
    let text = call.node.attributes.get("variable_shape").unwrap_or("...");
    let mut symbols = SymbolTable::new();
    let shape = ir::shape::parse_openvino_shape(&mut symbols, text, &|_| ir::Provenance {
        layer: call.node.name.clone(),
        line: call.node.location.line,
        reason: "a dim of the variable".into(),
    })
    .map_err(|e| format!("`variable_shape` \"{text}\": {e}"))?;
    match shape {
        Shape::DynamicRank => {
            Err("the variable's rank is dynamic and there is no initial value".into())
        }
        Shape::Ranked(dims) => Ok(dims
            .iter()
            .map(|d| {
                d.as_constant()
                    .and_then(|c| usize::try_from(c).ok())
                    .unwrap_or(0)
            })
            .collect()),
    }
}
