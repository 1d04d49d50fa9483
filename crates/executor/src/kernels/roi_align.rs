//! ROIAlign-3/-9 after OpenVINO's reference: each box (scaled by
//! `spatial_scale`, shifted by half a pixel in the v9 `half_pixel` modes,
//! at least 1x1 unless aligned) is cut into `pooled_h x pooled_w` bins of
//! `sampling_ratio^2` (or `ceil(bin)` per side when 0) bilinear samples;
//! samples more than a pixel outside the map count as 0. Bins take the
//! average or the maximum (from 0, as the reference) of their samples.
//! ROIAlignRotated shares the sampling with boxes rotated about their
//! centre. Computed in f32 as OpenVINO.

use shape_infer::ops::roi_align::{attributes, AlignedMode, Attrs};

use super::roi_pooling::{batch_index, f32s, nchw, output};
use super::{to_f64s, Call, KResult};
use crate::tensor::Tensor;

/// A box's sampling space: its start and size before the rotation, and
/// the rotation about its centre (identity for axis-aligned boxes).
pub(crate) struct Space {
    pub start: (f32, f32),
    pub size: (f32, f32),
    pub centre: (f32, f32),
    pub cos_sin: (f32, f32),
}

impl Space {
    fn to_image(&self, x: f32, y: f32) -> (f32, f32) {
        if self.cos_sin == (1.0, 0.0) && self.centre == (0.0, 0.0) {
            return (x, y);
        }
        let (cos, sin) = self.cos_sin;
        (
            y * sin + x * cos + self.centre.0,
            y * cos - x * sin + self.centre.1,
        )
    }
}

/// One bilinear sample: four cells (y, x) of a plane and their weights.
pub(super) type Sample = [((usize, usize), f32); 4];

/// The four cells and weights of a bilinear sample at `(x, y)` of a
/// `height` x `width` plane; all weights 0 more than a pixel off the plane
/// (OpenVINO's ROIAlign and ExperimentalDetectronROIFeatureExtractor).
pub(super) fn sample(x: f32, y: f32, height: usize, width: usize) -> Sample {
    if x < -1.0 || x > width as f32 || y < -1.0 || y > height as f32 {
        return [((0, 0), 0.0); 4];
    }
    let (y_lo, y_hi, y) = neighbours(y, height);
    let (x_lo, x_hi, x) = neighbours(x, width);
    let (ly, lx) = (y - y_lo as f32, x - x_lo as f32);
    let (hy, hx) = (1.0 - ly, 1.0 - lx);
    [
        ((y_lo, x_lo), hy * hx),
        ((y_lo, x_hi), hy * lx),
        ((y_hi, x_lo), ly * hx),
        ((y_hi, x_hi), ly * lx),
    ]
}

/// Along one axis of `size` cells: the cells below and above `v` (clamped
/// to the axis, negative positions to 0) and `v` itself, moved onto the last
/// cell past the end, as the reference does.
fn neighbours(v: f32, size: usize) -> (usize, usize, f32) {
    let v = v.max(0.0);
    let lo = v as usize;
    if lo >= size - 1 {
        (size - 1, size - 1, (size - 1) as f32)
    } else {
        (lo, lo + 1, v)
    }
}

/// Pools every box of `spaces` (image `batches[r]`) over `maps`
/// (`[N, C, H, W]`), as the reference's `roi_align`.
pub(crate) fn pool(
    maps: &[f32],
    [_, channels, height, width]: [usize; 4],
    spaces: &[(Space, usize)],
    attrs: &Attrs,
) -> KResult<Vec<f32>> {
    let (ph_n, pw_n) = (attrs.pooled_h, attrs.pooled_w);
    let plane = height * width;
    let mut out = Vec::with_capacity(spaces.len() * channels * ph_n * pw_n);
    for (space, b) in spaces {
        let bin_w = space.size.0 / pw_n as f32;
        let bin_h = space.size.1 / ph_n as f32;
        let ratio = |bin: f32| match attrs.sampling_ratio {
            0 => bin.ceil().max(0.0) as usize,
            r => r,
        };
        let (rx, ry) = (ratio(bin_w), ratio(bin_h));
        let (dx, dy) = (bin_w / rx as f32, bin_h / ry as f32);
        let count = checked_samples(&[ph_n, pw_n, rx, ry])?;
        let mut samples: Vec<Sample> = Vec::with_capacity(count);
        for by in 0..ph_n {
            for bx in 0..pw_n {
                for sy in 0..ry {
                    let py = space.start.1 + by as f32 * bin_h + dy * (sy as f32 + 0.5);
                    for sx in 0..rx {
                        let px = space.start.0 + bx as f32 * bin_w + dx * (sx as f32 + 0.5);
                        let (x, y) = space.to_image(px, py);
                        samples.push(sample(x, y, height, width));
                    }
                }
            }
        }
        let per_bin = rx * ry;
        for c in 0..channels {
            let map = &maps[(b * channels + c) * plane..(b * channels + c + 1) * plane];
            for bin in 0..ph_n * pw_n {
                let mut pooled = 0f32;
                for s in &samples[bin * per_bin..(bin + 1) * per_bin] {
                    let v: f32 = s.iter().map(|&((y, x), w)| w * map[y * width + x]).sum();
                    if attrs.max {
                        pooled = pooled.max(v);
                    } else {
                        pooled += v / per_bin as f32;
                    }
                }
                out.push(pooled);
            }
        }
    }
    Ok(out)
}

/// The most bilinear samples one box may take: an adaptive sampling ratio
/// follows the box's size, which comes from the data.
pub(crate) const MAX_SAMPLES: usize = 1 << 24;

/// The product of `factors` (bins and samples per bin), checked against
/// [`MAX_SAMPLES`].
pub(crate) fn checked_samples(factors: &[usize]) -> KResult<usize> {
    factors
        .iter()
        .try_fold(1usize, |acc, &f| acc.checked_mul(f))
        .filter(|&n| n <= MAX_SAMPLES)
        .ok_or_else(|| {
            format!("a box needs {factors:?} bins and samples, over the limit of {MAX_SAMPLES}")
                .into()
        })
}

/// The checked inputs of ROIAlign and ROIAlignRotated.
pub(crate) struct Inputs {
    /// The feature maps, `[N, C, H, W]`.
    pub maps: Vec<f32>,
    /// The maps' dims.
    pub dims: [usize; 4],
    /// The boxes, row by row.
    pub rois: Vec<f32>,
    /// Each box's image.
    pub batches: Vec<usize>,
}

/// Reads the inputs of ROIAlign and ROIAlignRotated, whose boxes have
/// `width` numbers each.
pub(crate) fn inputs(call: &Call<'_>, what: &str, width: usize) -> KResult<Inputs> {
    let data = call.input(0)?;
    let dims = nchw(data, "the data")?;
    if dims[2] == 0 || dims[3] == 0 {
        return Err("the data has no cells".into());
    }
    let maps = f32s(data, what)?;
    let rois = f32s(call.input(1)?, what)?;
    let batches = to_f64s(call.input(2)?)?
        .into_iter()
        .enumerate()
        .map(|(r, v)| batch_index(v, dims[0], r))
        .collect::<KResult<Vec<_>>>()?;
    if rois.len() != batches.len() * width {
        return Err(format!(
            "{} boxes of {width} numbers and {} batch indices",
            rois.len() / width,
            batches.len()
        )
        .into());
    }
    Ok(Inputs {
        maps,
        dims,
        rois,
        batches,
    })
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    // ROIAlign-3 is the version of opsets 3 to 8; `aligned_mode` is v9's.
    let opset = call
        .node
        .op_type
        .version
        .trim()
        .strip_prefix("opset")
        .and_then(|n| n.parse::<u32>().ok());
    let version = if opset.is_some_and(|n| n < 9) { 3 } else { 9 };
    let attrs = attributes(&call.node.attributes, version).map_err(|e| e.to_string())?;
    let Inputs {
        maps,
        dims,
        rois,
        batches,
    } = inputs(call, "ROIAlign", 4)?;
    let (src, dst) = match attrs.aligned {
        AlignedMode::Asymmetric => (0.0, 0.0),
        AlignedMode::HalfPixelForNn => (0.0, -0.5),
        AlignedMode::HalfPixel => (0.5, -0.5),
    };
    let aligned = attrs.aligned != AlignedMode::Asymmetric;
    let scale = attrs.spatial_scale;
    let spaces: Vec<(Space, usize)> = rois
        .chunks_exact(4)
        .zip(batches)
        .map(|(roi, b)| {
            let at = |v: f32| (v + src) * scale + dst;
            let (x1, y1, x2, y2) = (at(roi[0]), at(roi[1]), at(roi[2]), at(roi[3]));
            let (mut w, mut h) = (x2 - x1, y2 - y1);
            if !aligned {
                w = w.max(1.0);
                h = h.max(1.0);
            }
            let space = Space {
                start: (x1, y1),
                size: (w, h),
                centre: (0.0, 0.0),
                cos_sin: (1.0, 0.0),
            };
            (space, b)
        })
        .collect();
    let out = pool(&maps, dims, &spaces, &attrs)?;
    Ok(vec![output(call, 0, &out)?])
}
