//! Select-1: `cond ? then : else` with the spec's two-step broadcast.
//!
//! The output shape is inference's; each operand is placed in it: numpy
//! aligns `then`, `else` and (one-way) `cond` right; pdpd keeps `then` as the
//! base and places `else` and `cond` at the pdpd axis; none needs equal shapes.
//! Elements are copied as raw bytes (any element type).

use shape_infer::broadcast::Mode;

use super::{Call, KResult};
use crate::broadcast::{placed_strides, walk};
use crate::tensor::{byte_size, element_width, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (cond, then, els) = (call.input(0)?, call.input(1)?, call.input(2)?);
    let out = call.out_shape(0)?;
    let mode = Mode::from_attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    let start = match mode {
        Mode::Pdpd { axis } if axis >= 0 => Some(axis as usize),
        _ => None,
    };
    if mode == Mode::None && (cond.shape != out || then.shape != out || els.shape != out) {
        return Err("auto_broadcast none needs equal shapes".into());
    }
    let strides = vec![
        placed_strides(&cond.shape, &out, start)?,
        placed_strides(&then.shape, &out, None)?,
        placed_strides(&els.shape, &out, start)?,
    ];
    let mask = cond.nonzero_mask()?;
    let w = element_width(then.element_type)?;
    let mut bytes = Vec::with_capacity(byte_size(then.element_type, &out)?);
    let (tb, eb) = (then.bytes(), els.bytes());
    walk(&out, &[0, 0, 0], &strides, |o| {
        let (src, k) = if mask[o[0]] { (tb, o[1]) } else { (eb, o[2]) };
        bytes.extend_from_slice(&src[k * w..k * w + w]);
    });
    Ok(vec![Tensor::from_bytes(then.element_type, out, bytes)?])
}
