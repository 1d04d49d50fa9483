//! ROIAlignRotated-15 after OpenVINO's reference: ROIAlign's sampling
//! (average of each bin's bilinear samples) over boxes `[cx, cy, w, h,
//! angle]` scaled by `spatial_scale`, centred half a pixel up-left, the
//! sample grid rotated by the angle about the centre (negated in
//! `clockwise_mode`). Computed in f32 as OpenVINO.

use shape_infer::ops::roi_align_rotated::attributes;

use super::roi_align::{inputs, pool, Inputs, Space};
use super::roi_pooling::output;
use super::{Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (attrs, clockwise) = attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    let Inputs {
        maps,
        dims,
        rois,
        batches,
    } = inputs(call, "ROIAlignRotated", 5)?;
    let scale = attrs.spatial_scale;
    let spaces: Vec<(Space, usize)> = rois
        .chunks_exact(5)
        .zip(batches)
        .map(|(roi, b)| {
            let (w, h) = (roi[2] * scale, roi[3] * scale);
            let angle = if clockwise { -roi[4] } else { roi[4] };
            let space = Space {
                start: (-w / 2.0, -h / 2.0),
                size: (w, h),
                centre: (roi[0] * scale - 0.5, roi[1] * scale - 0.5),
                cos_sin: (angle.cos(), angle.sin()),
            };
            (space, b)
        })
        .collect();
    let out = pool(&maps, dims, &spaces, &attrs)?;
    Ok(vec![output(call, 0, &out)?])
}
