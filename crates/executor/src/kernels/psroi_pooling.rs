//! PSROIPooling-1 after OpenVINO's reference. Average mode rounds each box
//! (`[batch, x1, y1, x2, y2]`, end inclusive) and scales it to cells; bin
//! `(ph, pw)` of output channel `c` averages the cells of input channel
//! `(c * group + ph) * group + pw`. Bilinear mode reads normalized boxes:
//! each output bin averages one bilinear sample of each of the
//! `spatial_bins_x x spatial_bins_y` sub-boxes, sub-box `s` from input
//! channel `s * output_dim + c`; samples outside the map add 0. Computed in
//! f32 as OpenVINO.

use shape_infer::ops::psroi_pooling::{attributes, Attrs};

use super::roi_pooling::{batch_index, f32s, nchw, output};
use super::{Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let data = call.input(0)?;
    let dims = nchw(data, "the feature map")?;
    let [batches, channels, height, width] = dims;
    if height == 0 || width == 0 {
        return Err("the feature map has no cells".into());
    }
    let attrs = attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    if attrs.input_channels() != Some(channels) {
        return Err(format!(
            "{channels} channels do not make the mode's groups of {} output channels",
            attrs.output_dim
        )
        .into());
    }
    let maps = f32s(data, "PSROIPooling")?;
    let rois = f32s(call.input(1)?, "PSROIPooling")?;
    let mut out = Vec::with_capacity(rois.len() / 5 * attrs.output_dim * attrs.group_size.pow(2));
    for (r, roi) in rois.chunks_exact(5).enumerate() {
        let b = batch_index(f64::from(roi[0]), batches, r)?;
        let image = &maps[b * channels * height * width..(b + 1) * channels * height * width];
        if attrs.bilinear {
            bilinear(image, roi, dims, &attrs, &mut out);
        } else {
            average(image, roi, dims, &attrs, &mut out);
        }
    }
    Ok(vec![output(call, 0, &out)?])
}

fn average(
    image: &[f32],
    roi: &[f32],
    [_, _, height, width]: [usize; 4],
    attrs: &Attrs,
    out: &mut Vec<f32>,
) {
    let scale = attrs.spatial_scale;
    let group = attrs.group_size;
    let start_w = roi[1].round() * scale;
    let start_h = roi[2].round() * scale;
    let end_w = (roi[3].round() + 1.0) * scale;
    let end_h = (roi[4].round() + 1.0) * scale;
    let bin_w = (end_w - start_w) / group as f32;
    let bin_h = (end_h - start_h) / group as f32;
    // Floors and ceils of negative positions saturate to cell 0, as the
    // reference's casts to size_t.
    let cell = |v: f32| v.max(0.0) as usize;
    let mut c_in = 0;
    for _ in 0..attrs.output_dim {
        for ph in 0..group {
            let h0 = cell((start_h + ph as f32 * bin_h).floor()).min(height - 1);
            let h1 = cell((start_h + (ph + 1) as f32 * bin_h).ceil())
                .min(height)
                .max(h0);
            for pw in 0..group {
                let w0 = cell((start_w + pw as f32 * bin_w).floor()).min(width - 1);
                let w1 = cell((start_w + (pw + 1) as f32 * bin_w).ceil())
                    .min(width)
                    .max(w0);
                let plane = &image[c_in * height * width..(c_in + 1) * height * width];
                let mut sum = 0f32;
                for y in h0..h1 {
                    for x in w0..w1 {
                        sum += plane[y * width + x];
                    }
                }
                out.push(sum / ((w1 - w0) * (h1 - h0)) as f32);
                c_in += 1;
            }
        }
    }
}

fn bilinear(
    image: &[f32],
    roi: &[f32],
    [_, _, height, width]: [usize; 4],
    attrs: &Attrs,
    out: &mut Vec<f32>,
) {
    let scale = attrs.spatial_scale;
    let group = attrs.group_size;
    let (bins_x, bins_y) = (attrs.spatial_bins_x, attrs.spatial_bins_y);
    let (start_w, start_h) = (roi[1] * scale, roi[2] * scale);
    let (end_w, end_h) = (roi[3] * scale, roi[4] * scale);
    let bin_w = (end_w - start_w) / bins_x as f32;
    let bin_h = (end_h - start_h) / bins_y as f32;
    let (wm, hm) = ((width - 1) as f32, (height - 1) as f32);
    let width_scale = if group > 1 {
        bin_w * wm / (group - 1) as f32
    } else {
        0.0
    };
    let height_scale = if group > 1 {
        bin_h * hm / (group - 1) as f32
    } else {
        0.0
    };
    let plane_size = height * width;
    for c in 0..attrs.output_dim {
        for ph in 0..group {
            for pw in 0..group {
                let mut acc = 0f32;
                for sby in 0..bins_y {
                    for sbx in 0..bins_x {
                        let sub = sby * bins_x + sbx;
                        let x0 = start_w + sbx as f32 * bin_w;
                        let y0 = start_h + sby as f32 * bin_h;
                        let x = if group > 1 {
                            pw as f32 * width_scale + x0 * wm
                        } else {
                            (x0 + x0 + bin_w) * wm / 2.0
                        };
                        let y = if group > 1 {
                            ph as f32 * height_scale + y0 * hm
                        } else {
                            (y0 + y0 + bin_h) * hm / 2.0
                        };
                        if x < width as f32 && y < height as f32 {
                            let channel = sub * attrs.output_dim + c;
                            let plane = &image[channel * plane_size..(channel + 1) * plane_size];
                            // Negative positions saturate to cell 0, as the
                            // reference's casts to size_t.
                            let left = x.floor().max(0.0) as usize;
                            let right = (x.ceil().max(0.0) as usize).min(width - 1);
                            let top = y.floor().max(0.0) as usize;
                            let bottom = (y.ceil().max(0.0) as usize).min(height - 1);
                            let at = |yy: usize, xx: usize| plane[yy * width + xx];
                            let t = at(top, left)
                                + (at(top, right) - at(top, left)) * (x - left as f32);
                            let b = at(bottom, left)
                                + (at(bottom, right) - at(bottom, left)) * (x - left as f32);
                            acc += t + (b - t) * (y - top as f32);
                        }
                    }
                }
                out.push(acc / (bins_x * bins_y) as f32);
            }
        }
    }
}
