//! DepthToSpace-1, SpaceToDepth-1 and ShuffleChannels-1: pure data movement, each output
//! element read from the input position the spec's reshape-transpose-reshape
//! puts there (raw bytes: any element type). The output shape is inference's.

use super::{gather_indexed, Call, KResult};
use crate::tensor::Tensor;

/// `block_size` and whether `mode` is blocks_first.
fn attrs(call: &Call<'_>) -> KResult<(usize, bool)> {
    let bs =
        usize::try_from(call.attr_i64("block_size")?.unwrap_or(1)).map_err(|_| "block_size")?;
    let blocks_first = call
        .node
        .attributes
        .get("mode")
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("blocks_first"));
    Ok((bs.max(1), blocks_first))
}

/// The flat offset of a multi-index in a row-major shape.
fn offset(shape: &[usize], index: impl Iterator<Item = usize>) -> usize {
    shape.iter().zip(index).fold(0, |acc, (&d, i)| acc * d + i)
}

pub(crate) fn depth_to_space(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out = call.out_shape(0)?;
    let (bs, blocks_first) = attrs(call)?;
    let k = x.shape.len() - 2;
    let blocks = bs.pow(k as u32);
    let c_out = out[1];
    let t = gather_indexed(x, out.clone(), None, |idx| {
        // Output (n, c, o…): block digits o_i % bs, input spatial o_i / bs.
        let block = idx[2..].iter().fold(0, |acc, &o| acc * bs + o % bs);
        let c_in = if blocks_first {
            block * c_out + idx[1]
        } else {
            idx[1] * blocks + block
        };
        let spatial = idx[2..].iter().map(|&o| o / bs);
        Some(offset(&x.shape, [idx[0], c_in].into_iter().chain(spatial)))
    })?;
    Ok(vec![t])
}

pub(crate) fn space_to_depth(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out = call.out_shape(0)?;
    let (bs, blocks_first) = attrs(call)?;
    let k = x.shape.len() - 2;
    let blocks = bs.pow(k as u32);
    let c_in = x.shape[1];
    let t = gather_indexed(x, out.clone(), None, |idx| {
        let (block, c) = if blocks_first {
            (idx[1] / c_in, idx[1] % c_in)
        } else {
            (idx[1] % blocks, idx[1] / blocks)
        };
        // The block's digits, most significant first, offset each spatial dim.
        let mut digits = vec![0; k];
        let mut rest = block;
        for d in digits.iter_mut().rev() {
            *d = rest % bs;
            rest /= bs;
        }
        let spatial = idx[2..].iter().zip(&digits).map(|(&o, &b)| o * bs + b);
        Some(offset(&x.shape, [idx[0], c].into_iter().chain(spatial)))
    })?;
    Ok(vec![t])
}

/// ShuffleChannels-1: output index `a*group + g` along `axis` reads input
/// index `g*(D/group) + a`.
pub(crate) fn shuffle_channels(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let rank = x.shape.len();
    let axis = super::norm_axis(call.attr_i64("axis")?.unwrap_or(1), rank)?;
    let group = usize::try_from(call.attr_i64("group")?.unwrap_or(1))
        .map_err(|_| "group")?
        .max(1);
    let per_group = x.shape[axis] / group;
    let t = gather_indexed(x, x.shape.clone(), None, |idx| {
        let j = idx[axis];
        let source = (j % group) * per_group + j / group;
        Some(offset(
            &x.shape,
            idx.iter()
                .enumerate()
                .map(|(a, &i)| if a == axis { source } else { i }),
        ))
    })?;
    Ok(vec![t])
}
