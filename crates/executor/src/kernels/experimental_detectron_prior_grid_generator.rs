//! ExperimentalDetectronPriorGridGenerator-6 after OpenVINO's reference:
//! for every cell `(h, w)` of a `grid_h x grid_w` grid (the attributes, or
//! the feature map's size when 0) and every prior, the prior shifted by
//! `stride * (cell + 0.5)` (the strides default to the image size over the
//! grid size). Rows past `grid_h * grid_w * P` (a grid smaller than the
//! feature map) are 0; OpenVINO leaves them unwritten. Computed in f32.

use shape_infer::ops::experimental_detectron_prior_grid_generator::attributes;

use super::roi_pooling::{f32s, nchw, output};
use super::{Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let priors = f32s(call.input(0)?, "ExperimentalDetectronPriorGridGenerator")?;
    let [_, _, map_h, map_w] = nchw(call.input(1)?, "the feature map")?;
    let [_, _, image_h, image_w] = nchw(call.input(2)?, "the image")?;
    let attrs = attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    let size = |v: i64, default: usize| match v {
        0 => Ok(default),
        v => usize::try_from(v).map_err(|_| format!("a grid size of {v}")),
    };
    let grid_h = size(attrs.h, map_h)?;
    let grid_w = size(attrs.w, map_w)?;
    let step = |stride: f32, image: usize, grid: usize| {
        if stride != 0.0 {
            stride
        } else {
            image as f32 / grid as f32
        }
    };
    let step_w = step(attrs.stride_x, image_w, grid_w);
    let step_h = step(attrs.stride_y, image_h, grid_h);
    let rows: usize = call.out_shape(0)?.iter().product::<usize>() / 4;
    let count = priors.len() / 4;
    if grid_h
        .checked_mul(grid_w)
        .and_then(|cells| cells.checked_mul(count))
        .is_none_or(|needed| needed > rows)
    {
        return Err(format!(
            "a {grid_h} x {grid_w} grid of {count} priors does not fit the {rows} output rows"
        )
        .into());
    }
    let mut out = vec![0f32; rows * 4];
    let mut row = out.chunks_exact_mut(4);
    for h in 0..grid_h {
        let dy = step_h * (h as f32 + 0.5);
        for w in 0..grid_w {
            let dx = step_w * (w as f32 + 0.5);
            for prior in priors.chunks_exact(4) {
                if let Some(dst) = row.next() {
                    dst.copy_from_slice(&[
                        prior[0] + dx,
                        prior[1] + dy,
                        prior[2] + dx,
                        prior[3] + dy,
                    ]);
                }
            }
        }
    }
    Ok(vec![output(call, 0, &out)?])
}
