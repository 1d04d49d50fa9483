//! ExperimentalDetectronROIFeatureExtractor-6 after OpenVINO's reference
//! (Detectron's FPN ROIAlign): each box goes to pyramid level
//! `clamp(floor(log2(sqrt(area) / 224 + 1e-6) + 2), 0, L - 1)` (a box of
//! no area to none, its features 0), is scaled by `1 / pyramid_scales[l]`
//! (shifted half a pixel when `aligned`, at least 1x1) and pooled into
//! `output_size^2` bins averaging `sampling_ratio^2` (or `ceil(bin)` per
//! side) bilinear samples, samples off the map counting 0. The second
//! output repeats the boxes. Computed in f32 as OpenVINO.

use shape_infer::ops::experimental_detectron_roi_feature_extractor::{attributes, Attrs};

use super::roi_align::{checked_samples, sample};
use super::roi_pooling::{f32s, nchw, output};
use super::{Call, KResult};
use crate::tensor::Tensor;

/// The pyramid level of a box, `None` for a box of no area.
fn level_of(roi: &[f32], levels: usize) -> Option<usize> {
    let area = (roi[2] - roi[0]) * (roi[3] - roi[1]);
    if area <= 0.0 {
        return None;
    }
    let level = ((area.sqrt() / 224.0 + 1e-6).log2() + 2.0).floor();
    Some(level.clamp(0.0, (levels - 1) as f32) as usize)
}

/// One level's feature maps (`[1, C, H, W]`).
struct Level {
    maps: Vec<f32>,
    height: usize,
    width: usize,
}

fn pool_box(roi: &[f32], level: &Level, scale: f32, attrs: &Attrs, dst: &mut [f32]) -> KResult<()> {
    let size = attrs.output_size;
    let (height, width) = (level.height, level.width);
    let offset = if attrs.aligned { 0.5 } else { 0.0 };
    let start_w = roi[0] * scale - offset;
    let start_h = roi[1] * scale - offset;
    let roi_w = (roi[2] * scale - offset - start_w).max(1.0);
    let roi_h = (roi[3] * scale - offset - start_h).max(1.0);
    let bin_h = roi_h / size as f32;
    let bin_w = roi_w / size as f32;
    let grid = |extent: f32| match attrs.sampling_ratio {
        0 => (extent / size as f32).ceil() as usize,
        r => r,
    };
    let (grid_h, grid_w) = (grid(roi_h), grid(roi_w));
    let count = (grid_h * grid_w) as f32;
    // Four (cell, weight) pairs per sample, shared by the channels.
    let mut samples = Vec::with_capacity(checked_samples(&[size, size, grid_h, grid_w])?);
    for ph in 0..size {
        for pw in 0..size {
            for iy in 0..grid_h {
                for ix in 0..grid_w {
                    let y = start_h + ph as f32 * bin_h + (iy as f32 + 0.5) * bin_h / grid_h as f32;
                    let x = start_w + pw as f32 * bin_w + (ix as f32 + 0.5) * bin_w / grid_w as f32;
                    samples.push(weights(x, y, height, width));
                }
            }
        }
    }
    let plane = height * width;
    let per_bin = grid_h * grid_w;
    for (c, out) in dst.chunks_exact_mut(size * size).enumerate() {
        let map = &level.maps[c * plane..(c + 1) * plane];
        for (bin, v) in out.iter_mut().enumerate() {
            let mut acc = 0f32;
            for s in &samples[bin * per_bin..(bin + 1) * per_bin] {
                acc += s[0].1 * map[s[0].0]
                    + s[1].1 * map[s[1].0]
                    + s[2].1 * map[s[2].0]
                    + s[3].1 * map[s[3].0];
            }
            *v = acc / count;
        }
    }
    Ok(())
}

/// [`sample`]'s cells as offsets into a plane of `width` columns.
fn weights(x: f32, y: f32, height: usize, width: usize) -> [(usize, f32); 4] {
    sample(x, y, height, width).map(|((row, column), w)| (row * width + column, w))
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    const WHAT: &str = "ExperimentalDetectronROIFeatureExtractor";
    let attrs = attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    let rois = f32s(call.input(0)?, WHAT)?;
    let count = call.inputs.len() - 1;
    if attrs.pyramid_scales.len() < count || attrs.pyramid_scales.iter().any(|&s| s <= 0) {
        return Err(format!(
            "pyramid_scales {:?} are not one positive scale per level of the {count}",
            attrs.pyramid_scales
        )
        .into());
    }
    let mut levels = Vec::with_capacity(count);
    let mut channels = None;
    for t in &call.inputs[1..] {
        let [_, c, height, width] = nchw(t, "a pyramid level")?;
        if height == 0 || width == 0 || channels.is_some_and(|k| k != c) {
            return Err(
                format!("pyramid level {:?} is empty or of other channels", t.shape).into(),
            );
        }
        channels = Some(c);
        levels.push(Level {
            maps: f32s(t, WHAT)?,
            height,
            width,
        });
    }
    let channels = channels.unwrap_or(0);
    let per_box = channels * attrs.output_size * attrs.output_size;
    let mut features = vec![0f32; rois.len() / 4 * per_box];
    for (roi, dst) in rois
        .chunks_exact(4)
        .zip(features.chunks_exact_mut(per_box.max(1)))
    {
        if let Some(l) = level_of(roi, count) {
            let scale = 1.0 / attrs.pyramid_scales[l] as f32;
            pool_box(roi, &levels[l], scale, &attrs, dst)?;
        }
    }
    Ok(vec![output(call, 0, &features)?, output(call, 1, &rois)?])
}
