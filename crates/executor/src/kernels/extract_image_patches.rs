//! ExtractImagePatches-3: output `(n, (kh*KW + kw)*C + c, oh, ow)` is input
//! `(n, c, oh*SH - PT + kh*RH, ow*SW - PL + kw*RW)`, 0 where that falls in
//! the padding (OpenVINO's reference). The pads `PT`, `PL` are the shared
//! window module's `same_*` split (none for `valid`). Raw bytes, any type.

use shape_infer::ops::extract_image_patches::PatchAttrs;
use shape_infer::window;

use super::{gather_indexed, Call, KResult};
use crate::tensor::{element_width, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out = call.out_shape(0)?;
    let &[_, c, h, w] = x.shape.as_slice() else {
        return Err(format!("ExtractImagePatches takes [N, C, H, W], not {:?}", x.shape).into());
    };
    let attrs = PatchAttrs::read(call.node).map_err(|e| e.to_string())?;
    let as_usize = |v: [i64; 2]| v.map(|x| x as usize);
    let sizes = as_usize(attrs.sizes);
    let pads = window::concrete_forward_pads(&attrs.window(), &[h, w], &sizes)
        .map_err(|e| e.to_string())?;
    let (strides, rates) = (as_usize(attrs.strides), as_usize(attrs.rates));
    let zero = vec![0u8; element_width(x.element_type)?];
    let t = gather_indexed(x, out, Some(&zero), |idx| {
        let &[n, oc, oh, ow] = idx else {
            return None;
        };
        let (patch, ch) = (oc / c, oc % c);
        let (kh, kw) = (patch / sizes[1], patch % sizes[1]);
        let row = (oh * strides[0] + kh * rates[0]) as i64 - pads[0].0;
        let col = (ow * strides[1] + kw * rates[1]) as i64 - pads[1].0;
        if !(0..h as i64).contains(&row) || !(0..w as i64).contains(&col) {
            return None;
        }
        Some(((n * c + ch) * h + row as usize) * w + col as usize)
    })?;
    Ok(vec![t])
}
