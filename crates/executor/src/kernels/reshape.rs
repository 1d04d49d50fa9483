//! Reshape-1 (and the views of Squeeze/Unsqueeze): the same bytes with the
//! inferred shape, no copy. When the target's values were only known at run
//! time (a data-dependent shape), the kernel applies the target itself:
//! `0` copies the input dim when `special_zero`, one `-1` takes the rest.

use super::{Call, KResult};
use crate::tensor::{element_count, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let data = call.input(0)?;
    let shape = match call.outputs.first().and_then(|o| o.shape.clone()) {
        Some(shape) => shape,
        None => from_target(call, data)?,
    };
    Ok(vec![data.reshaped(shape)?])
}

fn from_target(call: &Call<'_>, data: &Tensor) -> KResult<Vec<usize>> {
    let target = call.input(1)?.to_i64s()?;
    let special_zero = matches!(
        call.node.attributes.get("special_zero").map(str::trim),
        Some("true" | "1")
    );
    let mut out = Vec::with_capacity(target.len());
    let mut minus_one = None;
    for (i, &t) in target.iter().enumerate() {
        out.push(match t {
            -1 if minus_one.is_none() => {
                minus_one = Some(i);
                1
            }
            0 if special_zero => *data
                .shape
                .get(i)
                .ok_or_else(|| format!("target {target:?}: 0 at {i} is past the input rank"))?,
            t if t >= 0 => {
                usize::try_from(t).map_err(|_| format!("target dim {t} is too large"))?
            }
            _ => return Err(format!("target {target:?} is invalid").into()),
        });
    }
    let total = element_count(&data.shape)?;
    if let Some(i) = minus_one {
        let rest = element_count(&out)?;
        if rest == 0 || total % rest != 0 {
            return Err(format!("cannot reshape {:?} to {target:?}", data.shape).into());
        }
        out[i] = total / rest;
    }
    if element_count(&out)? != total {
        return Err(format!("cannot reshape {:?} to {target:?}", data.shape).into());
    }
    Ok(out)
}
