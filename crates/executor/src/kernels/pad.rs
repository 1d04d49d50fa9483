//! Pad-1/12: every axis padded by `pads_begin`/`pads_end` (inputs 1, 2;
//! negative values crop, Pad-12) in `pad_mode` `constant` (input 3, a
//! scalar of the data's type, default 0), `edge` (the border element),
//! `reflect` (mirrored without the border) or `symmetric` (mirrored with
//! it). The output shape is inference's; output index `o` on an axis reads
//! input index `o - pads_begin`, mapped back inside by the mode. Raw bytes.

use super::{Call, KResult};
use crate::broadcast::row_major_strides;
use crate::tensor::{byte_size, element_count, element_width, Tensor};

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Constant,
    Edge,
    Reflect,
    Symmetric,
}

/// The input index read for `i` (possibly outside `0..dim`), `None` for the
/// constant. An error when the mode cannot map it (a reflection of a
/// too-short axis).
fn source(mode: Mode, i: i128, dim: i128) -> Result<Option<usize>, String> {
    if (0..dim).contains(&i) {
        return Ok(Some(i as usize));
    }
    let too_far = || format!("pad mode cannot map index {i} into a dim of {dim}");
    let mapped = match mode {
        Mode::Constant => return Ok(None),
        _ if dim == 0 => return Err(too_far()),
        Mode::Edge => i.clamp(0, dim - 1),
        Mode::Reflect => {
            if dim == 1 {
                0
            } else if i < 0 {
                -i
            } else {
                2 * (dim - 1) - i
            }
        }
        Mode::Symmetric => {
            if i < 0 {
                -i - 1
            } else {
                2 * dim - 1 - i
            }
        }
    };
    if (0..dim).contains(&mapped) {
        Ok(Some(mapped as usize))
    } else {
        Err(too_far())
    }
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let data = call.input(0)?;
    let out = call.out_shape(0)?;
    let begin = call.input(1)?.to_i64s()?;
    let end = call.input(2)?.to_i64s()?;
    let rank = data.shape.len();
    if begin.len() != rank || end.len() != rank || out.len() != rank {
        return Err(format!(
            "pads_begin {begin:?} and pads_end {end:?} must have the rank {rank} of the data"
        )
        .into());
    }
    let mode = match call.node.attributes.get("pad_mode").map(str::trim) {
        None | Some("constant") => Mode::Constant,
        Some("edge") => Mode::Edge,
        Some("reflect") => Mode::Reflect,
        Some("symmetric") => Mode::Symmetric,
        Some(other) => return Err(format!("pad_mode `{other}` is unknown").into()),
    };
    for a in 0..rank {
        let expected = data.shape[a] as i128 + begin[a] as i128 + end[a] as i128;
        if expected != out[a] as i128 {
            return Err(format!(
                "internal: the inferred dim {} of axis {a} is not {expected}",
                out[a]
            )
            .into());
        }
    }
    let w = element_width(data.element_type)?;
    let fill = match (mode, call.inputs.get(3)) {
        (Mode::Constant, Some(v)) => {
            if v.element_type != data.element_type || v.len() != 1 {
                return Err(format!(
                    "pad_value must be one {} value, got {} {:?}",
                    data.element_type, v.element_type, v.shape
                )
                .into());
            }
            v.bytes().to_vec()
        }
        _ => vec![0u8; w],
    };
    Ok(vec![padded(data, &begin, &end, mode, &fill, out)?])
}

/// `data` padded to `out` by `begin` (and the matching ends) in `mode`,
/// `fill` the bytes of the constant; `out` must be the padded shape.
/// (Interpolate's zero padding uses it too.)
pub(crate) fn padded(
    data: &Tensor,
    begin: &[i64],
    end: &[i64],
    mode: Mode,
    fill: &[u8],
    out: Vec<usize>,
) -> KResult<Tensor> {
    let rank = data.shape.len();
    if begin.len() != rank || end.len() != rank || out.len() != rank {
        return Err("internal: pads of another rank than the data".into());
    }
    if element_count(&out)? == 0 {
        return Ok(Tensor::from_bytes(data.element_type, out, Vec::new())?);
    }
    byte_size(data.element_type, &out)?;
    // Per axis, the source index of every output index (checked once).
    let mut maps: Vec<Vec<Option<usize>>> = Vec::with_capacity(rank);
    for a in 0..rank {
        let dim = data.shape[a] as i128;
        let map = (0..out[a])
            .map(|o| source(mode, o as i128 - begin[a] as i128, dim))
            .collect::<Result<Vec<_>, _>>()?;
        maps.push(map);
    }
    let own = row_major_strides(&data.shape);
    super::gather_indexed(data, out, Some(fill), |idx| {
        let mut k = 0usize;
        for (a, &i) in idx.iter().enumerate() {
            k += maps[a][i]? * own[a] as usize;
        }
        Some(k)
    })
}
