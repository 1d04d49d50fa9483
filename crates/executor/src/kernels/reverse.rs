//! Reverse-1: output element `i` along each reversed axis is input element
//! `dim - 1 - i`. Index mode names the axes (negative ones count from the
//! end, a repeated axis reverses once, as OpenVINO's CPU plugin); mask mode
//! flags each axis. Raw bytes, any type.

use shape_infer::ops::reverse::is_mask_mode;

use super::{gather_indexed, norm_axis, Call, KResult};
use crate::broadcast::row_major_strides;
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out = call.out_shape(0)?;
    if out != x.shape {
        return Err(format!("internal: the inferred shape {out:?} is not the data's").into());
    }
    let rank = x.shape.len();
    let axes = call.input(1)?;
    let mut reversed = vec![false; rank];
    if is_mask_mode(&call.node.attributes).map_err(|e| e.to_string())? {
        let mask = axes.nonzero_mask()?;
        if mask.len() != rank {
            return Err(format!(
                "reverse-mask-length: the mask has {} flags for data of rank {rank}",
                mask.len()
            )
            .into());
        }
        reversed = mask;
    } else {
        for a in axes.to_i64s()? {
            reversed[norm_axis(a, rank)?] = true;
        }
    }
    let strides = row_major_strides(&x.shape);
    let t = gather_indexed(x, out, None, |idx| {
        let mut k = 0;
        for (a, &i) in idx.iter().enumerate() {
            let i = if reversed[a] { x.shape[a] - 1 - i } else { i };
            k += i * strides[a] as usize;
        }
        Some(k)
    })?;
    Ok(vec![t])
}
