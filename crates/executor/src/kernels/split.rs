//! Split-1 and VariadicSplit-1: pieces of the data along `axis` (input 1).
//! Each piece's length is its inferred output dim (lengths known only at run
//! time are sized by the op's shape rule, which the executor reruns on the
//! run's values). The lengths must add up to the dim. Raw bytes.

use super::{norm_axis, Call, KResult};
use crate::tensor::{byte_size, element_count, element_width, Tensor};

fn axis_of(call: &Call<'_>, rank: usize) -> KResult<usize> {
    let v = call.input(1)?.to_i64s()?;
    let [a] = v.as_slice() else {
        return Err("the axis (input 1) must hold one value".into());
    };
    norm_axis(*a, rank)
}

/// Split and VariadicSplit alike: the pieces are the inferred outputs.
pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let data = call.input(0)?;
    let rank = data.shape.len();
    let axis = axis_of(call, rank)?;
    let dim = data.shape[axis];
    let shapes: Vec<Vec<usize>> = (0..call.outputs.len())
        .map(|k| call.out_shape(k))
        .collect::<Result<_, _>>()?;
    if shapes.len() != call.outputs.len() {
        return Err(format!(
            "{} pieces but the layer has {} outputs",
            shapes.len(),
            call.outputs.len()
        )
        .into());
    }
    let mut total = 0usize;
    for s in &shapes {
        if s.len() != rank
            || s.iter()
                .enumerate()
                .any(|(a, &d)| a != axis && d != data.shape[a])
        {
            return Err(format!(
                "internal: output shape {s:?} is not a piece of {:?}",
                data.shape
            )
            .into());
        }
        total = total.checked_add(s[axis]).ok_or("lengths overflow")?;
    }
    if total != dim {
        return Err(format!("the pieces' lengths add up to {total}, not the dim {dim}").into());
    }
    let w = element_width(data.element_type)?;
    let inner = element_count(&data.shape[axis + 1..])? * w;
    let outer = element_count(&data.shape[..axis])?;
    let src = data.bytes();
    let row = dim * inner;
    let mut offset = 0usize;
    let mut outs = Vec::with_capacity(shapes.len());
    for s in shapes {
        let block = s[axis] * inner;
        let mut bytes = Vec::with_capacity(byte_size(data.element_type, &s)?);
        for o in 0..outer {
            let start = o * row + offset;
            bytes.extend_from_slice(
                src.get(start..start + block)
                    .ok_or("internal: a piece reads outside the input")?,
            );
        }
        offset += block;
        outs.push(Tensor::from_bytes(data.element_type, s, bytes)?);
    }
    Ok(outs)
}
