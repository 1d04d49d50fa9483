//! DeformablePSROIPooling-1 after OpenVINO's reference: each box
//! (`[batch, x1, y1, x2, y2]`, rounded, end inclusive, shifted half a pixel)
//! is cut into `group_size x group_size` bins, bin `(ph, pw)` of output
//! channel `c` read from input channel `(c * group + ph) * group + pw`.
//! With the offsets input, a bin moves by `offset * trans_std` times the
//! box size, its offset pair taken from its part of a `part_size x
//! part_size` grid and its class group. A bin averages the bilinear
//! values of those of its `spatial_bins_x x spatial_bins_y` sub-bin corners
//! that lie on the map (0 when none does). A negative batch id leaves the
//! box's output 0. Both modes run this algorithm, as the reference (the
//! CPU plugin refuses `bilinear`). Computed in f32 as OpenVINO.

use shape_infer::ops::deformable_psroi_pooling::{attributes, Attrs};

use super::roi_pooling::{f32s, nchw, output};
use super::{Call, KResult};
use crate::tensor::Tensor;

/// The map's size and the sub-bin and part counts (checked positive).
struct Sizes {
    height: usize,
    width: usize,
    bins_x: usize,
    bins_y: usize,
    part: usize,
}

/// The offsets input: its values and its `[_, 2 * groups, part, part]` dims.
struct Offsets {
    values: Vec<f32>,
    coord_groups: usize,
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let data = call.input(0)?;
    let dims = nchw(data, "the data")?;
    let [batches, channels, height, width] = dims;
    if height == 0 || width == 0 {
        return Err("the data has no cells".into());
    }
    let attrs = attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    let positive = |key: &str, v: i64| {
        usize::try_from(v)
            .ok()
            .filter(|&v| v > 0)
            .ok_or_else(|| format!("`{key}` is {v}; it must be a positive integer"))
    };
    let sizes = Sizes {
        height,
        width,
        bins_x: positive("spatial_bins_x", attrs.spatial_bins_x)?,
        bins_y: positive("spatial_bins_y", attrs.spatial_bins_y)?,
        part: positive("part_size", attrs.part_size)?,
    };
    let group = attrs.group_size;
    let per_box = attrs.output_dim * group * group;
    if per_box > channels {
        return Err(format!(
            "{per_box} input channels are read (output_dim * group_size^2), the data has {channels}"
        )
        .into());
    }
    let maps = f32s(data, "DeformablePSROIPooling")?;
    let rois = f32s(call.input(1)?, "DeformablePSROIPooling")?;
    let offsets = match call.inputs.get(2) {
        Some(t) if t.shape.len() == 4 => {
            let coord_groups = t.shape[1] / 2;
            if coord_groups == 0 || attrs.output_dim % coord_groups != 0 {
                return Err(format!(
                    "offsets {:?} do not give k offset pairs, k dividing output_dim {}",
                    t.shape, attrs.output_dim
                )
                .into());
            }
            Some(Offsets {
                values: f32s(t, "DeformablePSROIPooling")?,
                coord_groups,
            })
        }
        _ => None,
    };
    let mut out = vec![0f32; rois.len() / 5 * per_box];
    for (r, roi) in rois.chunks_exact(5).enumerate() {
        if roi[0] < 0.0 {
            continue;
        }
        let b = roi[0] as usize;
        if b >= batches {
            return Err(format!(
                "ROI {r} names batch {}, not one of the {batches} of the data",
                roi[0]
            )
            .into());
        }
        let image = &maps[b * channels * height * width..(b + 1) * channels * height * width];
        pool_box(
            image,
            roi,
            r,
            &sizes,
            &attrs,
            offsets.as_ref(),
            &mut out[r * per_box..(r + 1) * per_box],
        )?;
    }
    Ok(vec![output(call, 0, &out)?])
}

fn pool_box(
    image: &[f32],
    roi: &[f32],
    r: usize,
    sizes: &Sizes,
    attrs: &Attrs,
    offsets: Option<&Offsets>,
    dst: &mut [f32],
) -> KResult<()> {
    let scale = attrs.spatial_scale;
    let group = attrs.group_size;
    let (height, width, part) = (sizes.height, sizes.width, sizes.part);
    let x1 = roi[1].round() * scale - 0.5;
    let y1 = roi[2].round() * scale - 0.5;
    let x2 = (roi[3].round() + 1.0) * scale - 0.5;
    let y2 = (roi[4].round() + 1.0) * scale - 0.5;
    let roi_w = (x2 - x1).max(0.1);
    let roi_h = (y2 - y1).max(0.1);
    let bin_w = roi_w / group as f32;
    let bin_h = roi_h / group as f32;
    let (bins_x, bins_y) = (sizes.bins_x, sizes.bins_y);
    let sub_w = bin_w / bins_x as f32;
    let sub_h = bin_h / bins_y as f32;
    let plane = height * width;
    let mut c_in = 0;
    for c in 0..attrs.output_dim {
        for ph in 0..group {
            for pw in 0..group {
                let mut bx = x1 + pw as f32 * bin_w;
                let mut by = y1 + ph as f32 * bin_h;
                if let Some(o) = offsets {
                    let class = c / (attrs.output_dim / o.coord_groups);
                    let (oh, ow) = (ph * part / group, pw * part / group);
                    let channel = (r * o.coord_groups + class) * 2;
                    let x_at = (channel * part + oh) * part + ow;
                    let y_at = ((channel + 1) * part + oh) * part + ow;
                    let (Some(&ox), Some(&oy)) = (o.values.get(x_at), o.values.get(y_at)) else {
                        return Err(format!(
                            "box {r} reads offset {y_at} of the {} given",
                            o.values.len()
                        )
                        .into());
                    };
                    bx += ox * attrs.trans_std * roi_w;
                    by += oy * attrs.trans_std * roi_h;
                }
                let map = &image[c_in * plane..(c_in + 1) * plane];
                let (mut sum, mut count) = (0f32, 0usize);
                for sy in 0..bins_y {
                    let y = by + sy as f32 * sub_h;
                    if y < -0.5 || y > height as f32 - 0.5 {
                        continue;
                    }
                    for sx in 0..bins_x {
                        let x = bx + sx as f32 * sub_w;
                        if x < -0.5 || x > width as f32 - 0.5 {
                            continue;
                        }
                        let x = x.clamp(0.0, width as f32 - 1.0);
                        let y = y.clamp(0.0, height as f32 - 1.0);
                        let (left, right) = (x.floor() as usize, x.ceil() as usize);
                        let (top, bottom) = (y.floor() as usize, y.ceil() as usize);
                        let at = |yy: usize, xx: usize| map[yy * width + xx];
                        let dx = (x - left as f32).abs();
                        let dy = (y - top as f32).abs();
                        let t = at(top, left) + (at(top, right) - at(top, left)) * dx;
                        let b = at(bottom, left) + (at(bottom, right) - at(bottom, left)) * dx;
                        sum += t + (b - t) * dy;
                        count += 1;
                    }
                }
                if count > 0 {
                    dst[(c * group + ph) * group + pw] = sum / count as f32;
                }
                c_in += 1;
            }
        }
    }
    Ok(())
}
