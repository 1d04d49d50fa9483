//! ReorgYolo-2: pure data movement after OpenVINO's reference, which walks
//! the output in the input's `[N, C, H, W]` layout (same element count) and
//! reads each element from the `[N, C/s², H*s, W*s]` view of the input.
//! Raw bytes, any element type; the output shape is inference's.

use super::{gather_indexed, Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out = call.out_shape(0)?;
    let &[_, c, h, w] = x.shape.as_slice() else {
        return Err(format!("ReorgYolo takes [N, C, H, W], not {:?}", x.shape).into());
    };
    let stride = shape_infer::ops::reorg_yolo::stride(&call.node.attributes)
        .ok()
        .and_then(|s| usize::try_from(s).ok())
        .ok_or("`stride` is not a positive integer")?;
    let view_c = c / (stride * stride);
    if view_c == 0 {
        return Err(format!("C {c} is below stride*stride").into());
    }
    let (view_h, view_w) = (h * stride, w * stride);
    let t = gather_indexed(x, out.clone(), None, |idx| {
        let flat = out.iter().zip(idx).fold(0, |acc, (&d, &i)| acc * d + i);
        // The same flat position in the input's own layout.
        let (wi, rest) = (flat % w, flat / w);
        let (hi, rest) = (rest % h, rest / h);
        let (ci, n) = (rest % c, rest / c);
        let block = ci / view_c;
        let view_ci = ci % view_c;
        let view_hi = hi * stride + block / stride;
        let view_wi = wi * stride + block % stride;
        Some(((n * view_c + view_ci) * view_h + view_hi) * view_w + view_wi)
    })?;
    Ok(vec![t])
}
