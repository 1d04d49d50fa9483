//! Split-1 and VariadicSplit-1: pieces of the data along `axis` (input 1).
//! Each piece's length is its inferred output dim; when a length was only
//! known at run time the kernel takes it from `num_splits` (equal pieces) or
//! `split_lengths` (input 2, one -1 takes the rest) and the executor checks
//! it. The lengths must add up to the dim. Raw bytes.

use super::{norm_axis, Call, KResult};
use crate::tensor::{byte_size, element_count, element_width, Tensor};

fn axis_of(call: &Call<'_>, rank: usize) -> KResult<usize> {
    let v = call.input(1)?.to_i64s()?;
    let [a] = v.as_slice() else {
        return Err("the axis (input 1) must hold one value".into());
    };
    norm_axis(*a, rank)
}

/// The run-time lengths when inference left them unknown.
fn run_time_lengths(call: &Call<'_>, dim: usize, variadic: bool) -> KResult<Vec<usize>> {
    if !variadic {
        let n = call
            .attr_i64("num_splits")?
            .ok_or("`num_splits` is missing")?;
        let n = usize::try_from(n)
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("`num_splits` {n} is not positive"))?;
        if (dim / n) * n != dim {
            return Err(format!("dim {dim} does not split into {n} equal pieces").into());
        }
        return Ok(vec![dim / n; n]);
    }
    let lengths = call.input(2)?.to_i64s()?;
    let mut rest = None;
    let mut sum = 0usize;
    let mut out = Vec::with_capacity(lengths.len());
    for (i, &l) in lengths.iter().enumerate() {
        if l == -1 && rest.is_none() {
            rest = Some(i);
            out.push(0);
            continue;
        }
        let l = usize::try_from(l).map_err(|_| format!("split_lengths {lengths:?} are invalid"))?;
        sum = sum.checked_add(l).ok_or("split_lengths overflow")?;
        out.push(l);
    }
    if let Some(i) = rest {
        out[i] = dim
            .checked_sub(sum)
            .ok_or_else(|| format!("split_lengths {lengths:?} exceed the dim {dim}"))?;
    }
    Ok(out)
}

fn split(call: &Call<'_>, variadic: bool) -> KResult<Vec<Tensor>> {
    let data = call.input(0)?;
    let rank = data.shape.len();
    let axis = axis_of(call, rank)?;
    let dim = data.shape[axis];
    let known: Option<Vec<Vec<usize>>> = call.outputs.iter().map(|o| o.shape.clone()).collect();
    let shapes: Vec<Vec<usize>> = match known {
        Some(s) => s,
        None => run_time_lengths(call, dim, variadic)?
            .into_iter()
            .map(|l| {
                let mut s = data.shape.clone();
                s[axis] = l;
                s
            })
            .collect(),
    };
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

pub(crate) fn split_equal(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    split(call, false)
}

pub(crate) fn variadic(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    split(call, true)
}
