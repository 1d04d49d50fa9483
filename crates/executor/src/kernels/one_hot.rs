//! OneHot-1/-16: per index, `on_value` at its position along the new axis
//! and `off_value` elsewhere (raw bytes: any value type). An index outside
//! `[0, depth)` matches nothing; OneHot-16's `normalize` first adds `depth`
//! to an index in `[-depth, -1]`. Indices of any integer type (OpenVINO's
//! CPU plugin takes i32 and i64 only).

use shape_infer::ops::one_hot::normalizes_negative;
use shape_infer::registry::OpsetFamily;

use super::{norm_axis, Call, KResult};
use crate::tensor::{byte_size, element_width, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let indices = call.input(0)?;
    let (on, off) = (call.input(2)?, call.input(3)?);
    if on.element_type != off.element_type {
        return Err(format!(
            "on_value is {}, off_value {}",
            on.element_type, off.element_type
        )
        .into());
    }
    // Opset 16 on is OneHot-16.
    let opset = OpsetFamily::parse(&call.node.op_type.version).map_or(1, |(_, n)| n);
    let normalize = normalizes_negative(&call.node.attributes, opset).map_err(|e| e.to_string())?;
    let out = call.out_shape(0)?;
    let rank = indices.shape.len();
    let axis = norm_axis(call.attr_i64("axis")?.ok_or("`axis` is missing")?, rank + 1)?;
    let depth = match call.input(1)?.to_i64s()?.as_slice() {
        [d] => *d,
        _ => return Err("depth (input 1) must hold one value".into()),
    };
    let mut want = indices.shape.clone();
    want.insert(
        axis,
        usize::try_from(depth).map_err(|_| format!("depth {depth} is negative"))?,
    );
    if want != out {
        return Err(format!("internal: the inferred shape {out:?} is not {want:?}").into());
    }
    let width = element_width(on.element_type)?;
    let (on, off) = (on.bytes(), off.bytes());
    if on.len() != width || off.len() != width {
        return Err("on_value and off_value must hold one value each".into());
    }
    let idx = indices.to_i64s()?;
    let size = byte_size(call.out_type(0)?, &out)?;
    let outer: usize = indices.shape[..axis].iter().product();
    let inner: usize = indices.shape[axis..].iter().product();
    let d = out[axis];
    let mut bytes = Vec::with_capacity(size);
    for o in 0..outer {
        for p in 0..d {
            for i in 0..inner {
                let mut k = idx[o * inner + i];
                if normalize && k < 0 {
                    k += depth;
                }
                bytes.extend_from_slice(if k == p as i64 { on } else { off });
            }
        }
    }
    Ok(vec![Tensor::from_bytes(call.out_type(0)?, out, bytes)?])
}
