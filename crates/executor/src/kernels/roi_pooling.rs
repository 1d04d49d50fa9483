//! ROIPooling-2 after OpenVINO's reference: max mode rounds each box
//! (`[batch, x1, y1, x2, y2]` times `spatial_scale`) to cells and takes the
//! maximum of each of the `pooled_h x pooled_w` bins (0 for an empty bin);
//! bilinear mode reads normalized boxes and interpolates one sample per
//! bin, on the corners of the box for the first and last bin. Computed in
//! f32 as OpenVINO (the bin edges are floors and ceils of f32 products).
//! Also the f32 and batch-id helpers of the other ROI kernels.

use shape_infer::ops::roi_pooling::attributes;

use super::{from_f64s, to_f64s, unsupported, Call, KResult};
use crate::tensor::Tensor;

/// The elements of a floating-point tensor as f32, the precision OpenVINO's
/// ROI kernels compute in; `what` names the op in the error.
pub(crate) fn f32s(t: &Tensor, what: &str) -> KResult<Vec<f32>> {
    if !t.element_type.is_real() {
        return Err(unsupported(what, t.element_type));
    }
    Ok(to_f64s(t)?.into_iter().map(|v| v as f32).collect())
}

/// An output of `shape` and type `t` from f32 values.
pub(crate) fn output(call: &Call<'_>, index: usize, values: &[f32]) -> KResult<Tensor> {
    let values: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
    from_f64s(call.out_type(index)?, call.out_shape(index)?, &values)
}

/// A batch index read from the data (a float box column or an integer
/// input), checked to be in `0..batches`.
pub(crate) fn batch_index(value: f64, batches: usize, roi: usize) -> KResult<usize> {
    let b = value.trunc();
    if b >= 0.0 && b < batches as f64 {
        Ok(b as usize)
    } else {
        Err(format!("ROI {roi} names batch {value}, not one of the {batches} of the data").into())
    }
}

/// The `[N, C, H, W]` dims of a feature-map input.
pub(crate) fn nchw(t: &Tensor, what: &str) -> KResult<[usize; 4]> {
    <[usize; 4]>::try_from(t.shape.as_slice())
        .map_err(|_| format!("{what} must be [N, C, H, W], not {:?}", t.shape).into())
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let data = call.input(0)?;
    let [batches, channels, height, width] = nchw(data, "the feature map")?;
    let feat = f32s(data, "ROIPooling")?;
    let rois = f32s(call.input(1)?, "ROIPooling")?;
    let attrs = attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    let (ph_n, pw_n) = (attrs.pooled_h, attrs.pooled_w);
    if height == 0 || width == 0 {
        return Err("the feature map has no cells".into());
    }
    let count = rois.len() / 5;
    let plane = height * width;
    let mut out = vec![0f32; count * channels * ph_n * pw_n];
    for (r, roi) in rois.chunks_exact(5).enumerate() {
        let b = batch_index(f64::from(roi[0]), batches, r)?;
        let maps = &feat[b * channels * plane..(b + 1) * channels * plane];
        let dst = &mut out[r * channels * ph_n * pw_n..(r + 1) * channels * ph_n * pw_n];
        if attrs.bilinear {
            bilinear(maps, roi, [channels, height, width], [ph_n, pw_n], dst);
        } else {
            max_pool(
                maps,
                roi,
                attrs.spatial_scale,
                [channels, height, width],
                [ph_n, pw_n],
                dst,
            );
        }
    }
    Ok(vec![output(call, 0, &out)?])
}

fn max_pool(
    maps: &[f32],
    roi: &[f32],
    scale: f32,
    [channels, height, width]: [usize; 3],
    [ph_n, pw_n]: [usize; 2],
    dst: &mut [f32],
) {
    let cell = |v: f32| (v * scale).round() as i64;
    let (x1, y1, x2, y2) = (cell(roi[1]), cell(roi[2]), cell(roi[3]), cell(roi[4]));
    // Malformed boxes are 1x1.
    let roi_h = y2.saturating_sub(y1).saturating_add(1).max(1);
    let roi_w = x2.saturating_sub(x1).saturating_add(1).max(1);
    let bin_h = roi_h as f32 / ph_n as f32;
    let bin_w = roi_w as f32 / pw_n as f32;
    let (h, w) = (height as i64, width as i64);
    for c in 0..channels {
        let map = &maps[c * height * width..(c + 1) * height * width];
        for ph in 0..ph_n {
            let (hs, he) = bin_edges(ph, bin_h, y1, h);
            for pw in 0..pw_n {
                let (ws, we) = bin_edges(pw, bin_w, x1, w);
                let mut best = if he <= hs || we <= ws { 0.0 } else { f32::MIN };
                for y in hs..he {
                    for x in ws..we {
                        best = best.max(map[y as usize * width + x as usize]);
                    }
                }
                dst[(c * ph_n + ph) * pw_n + pw] = best;
            }
        }
    }
}

/// The cells of bin `i` (of `bin` cells each) of a box starting at cell
/// `start`, clamped to an axis of `limit` cells: floor of its start, ceil of
/// its end.
fn bin_edges(i: usize, bin: f32, start: i64, limit: i64) -> (i64, i64) {
    let edge = |at: f32| (at as i64).saturating_add(start).clamp(0, limit);
    (
        edge((i as f32 * bin).floor()),
        edge(((i + 1) as f32 * bin).ceil()),
    )
}

fn bilinear(
    maps: &[f32],
    roi: &[f32],
    [channels, height, width]: [usize; 3],
    [ph_n, pw_n]: [usize; 2],
    dst: &mut [f32],
) {
    let (x1, y1, x2, y2) = (roi[1], roi[2], roi[3], roi[4]);
    let (hm, wm) = ((height - 1) as f32, (width - 1) as f32);
    let scale_h = if ph_n > 1 {
        (y2 - y1) * hm / (ph_n - 1) as f32
    } else {
        0.0
    };
    let scale_w = if pw_n > 1 {
        (x2 - x1) * wm / (pw_n - 1) as f32
    } else {
        0.0
    };
    for ph in 0..ph_n {
        // The last bin sits on the box's edge exactly.
        let y = match ph_n {
            1 => (0.5 * f64::from(y1 + y2) * f64::from(hm)) as f32,
            _ if ph == ph_n - 1 => hm * y2,
            _ => ph as f32 * scale_h + y1 * hm,
        };
        for pw in 0..pw_n {
            let x = match pw_n {
                1 => (0.5 * f64::from(x1 + x2) * f64::from(wm)) as f32,
                _ if pw == pw_n - 1 => wm * x2,
                _ => pw as f32 * scale_w + x1 * wm,
            };
            let inside = (0.0..=hm).contains(&y) && (0.0..=wm).contains(&x);
            let (top, left) = (y.floor() as usize, x.floor() as usize);
            let bottom = (y.ceil() as usize).min(height - 1);
            let right = (x.ceil() as usize).min(width - 1);
            for c in 0..channels {
                let at = |yy: usize, xx: usize| maps[c * height * width + yy * width + xx];
                dst[(c * ph_n + ph) * pw_n + pw] = if inside {
                    let t = at(top, left) + (at(top, right) - at(top, left)) * (x - left as f32);
                    let b = at(bottom, left)
                        + (at(bottom, right) - at(bottom, left)) * (x - left as f32);
                    t + (b - t) * (y - top as f32)
                } else {
                    0.0
                };
            }
        }
    }
}
