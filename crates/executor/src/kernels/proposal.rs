//! Proposal-1/-4 as OpenVINO's CPU plugin computes it (in `f32`).
//!
//! Anchors: for each ratio and scale, a box of `base_size` reshaped to the
//! ratio (its sides rounded, Caffe-like) and scaled, centred on the base
//! box (tensorflow: shifted by half the base size, no rounding, no +1 in
//! sizes). Per image and feature-map cell (offset by `feat_stride`), each
//! anchor is shifted and resized by its deltas (divided by
//! `box_coordinate_scale` and `box_size_scale`), clipped to the image
//! (`clip_before_nms`; tensorflow also clips the anchor first), and its
//! foreground score zeroed when a side is below `min_size` times the image
//! scale. The best `pre_nms_topn` are suppressed greedily (IoU above
//! `nms_thresh`, sizes with the +1 of Caffe) and the first
//! `post_nms_topn` kept, clipped again (`clip_after_nms`), normalized by
//! the image size (`normalize`); the remaining rows are zero, the first
//! with image id -1.
//!
//! The CPU plugin orders the proposals with an unstable partial sort:
//! proposals of equal score (those zeroed by `min_size`) may come in
//! another order there; ours keeps the lower index first.

use shape_infer::ops::proposal::{attributes, Attrs};

use super::proposal_nms::{clip, suppress};
use super::{from_f64s, to_f64s, Call, KResult};
use crate::tensor::{check_scratch, Tensor};

/// A proposal `(x0, y0, x1, y1)` and its score.
#[derive(Clone, Copy)]
struct Candidate {
    corners: [f32; 4],
    score: f32,
}

/// The settings the framework fixes.
struct Style {
    /// 1 (Caffe-like sizes `x1 - x0 + 1`) or 0 (tensorflow).
    offset: f32,
    tensorflow: bool,
}

/// The anchors, `(x0, y0, x1, y1)`, ratio-major.
fn anchors(a: &Attrs, style: &Style) -> Vec<[f32; 4]> {
    let base = a.base_size as f32;
    let area = (a.base_size * a.base_size) as f32;
    let center = 0.5 * (base - style.offset);
    let shift = if style.tensorflow { 0.5 * base } else { 0.0 };
    let mut out = Vec::with_capacity(a.ratio.len() * a.scale.len());
    for &ratio in &a.ratio {
        let (w, h) = if style.tensorflow {
            let w = (area / ratio).sqrt();
            (w, w * ratio)
        } else {
            let w = (area / ratio).sqrt().round();
            (w, (w * ratio).round())
        };
        for &scale in &a.scale {
            let half_w = 0.5 * (w * scale - style.offset);
            let half_h = 0.5 * (h * scale - style.offset);
            out.push([
                center - half_w - shift,
                center - half_h - shift,
                center + half_w - shift,
                center + half_h - shift,
            ]);
        }
    }
    out
}

/// The image's `(height, width, scale_h, scale_w)`, checked as the CPU
/// plugin does.
fn image_info(call: &Call<'_>) -> KResult<[f32; 4]> {
    let info: Vec<f32> = to_f64s(call.input(2)?)?
        .into_iter()
        .map(|v| v as f32)
        .collect();
    let (height, width, scale_h, scale_w) = match info.as_slice() {
        &[h, w, s] => (h, w, s, s),
        &[h, w, sh, sw] => (h, w, sh, sw),
        other => return Err(format!("image_shape has {} values, not 3 or 4", other.len()).into()),
    };
    if !height.is_normal() || !width.is_normal() || height < 0.0 || width < 0.0 {
        return Err("the image info must have a positive image height and width".into());
    }
    if !scale_h.is_finite() || !scale_w.is_finite() || scale_h < 0.0 || scale_w < 0.0 {
        return Err("the image info must have non-negative scales".into());
    }
    Ok([height, width, scale_h, scale_w])
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let a = attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    let style = Style {
        offset: if a.tensorflow { 0.0 } else { 1.0 },
        tensorflow: a.tensorflow,
    };
    let anchors = anchors(&a, &style);
    let probs = call.input(0)?;
    let deltas = call.input(1)?;
    let count = anchors.len();
    let (batch, height, width) = match (probs.shape.as_slice(), deltas.shape.as_slice()) {
        (&[n, c, h, w], &[dn, dc, dh, dw])
            if c == 2 * count && dc == 4 * count && (dn, dh, dw) == (n, h, w) =>
        {
            (n, h, w)
        }
        (p, d) => {
            return Err(format!(
                "class_probs {p:?} and bbox_deltas {d:?} do not fit [N, 2*{count}, H, W] and [N, 4*{count}, H, W]"
            )
            .into())
        }
    };
    let [image_h, image_w, scale_h, scale_w] = image_info(call)?;
    // Tensorflow's image info is (width, height) for this purpose.
    let (img_h, img_w) = if a.tensorflow {
        (image_w, image_h)
    } else {
        (image_h, image_w)
    };
    let min_h = a.min_size as f32 * scale_h;
    let min_w = a.min_size as f32 * scale_w;
    let post = usize::try_from(a.post_nms_topn).unwrap_or(0);
    let cells = height * width;
    let total = count * cells;
    let pre = total.min(usize::try_from(a.pre_nms_topn).unwrap_or(0));
    check_scratch(total, 20, "Proposal")?;
    let probs: Vec<f32> = to_f64s(probs)?.into_iter().map(|v| v as f32).collect();
    let deltas: Vec<f32> = to_f64s(deltas)?.into_iter().map(|v| v as f32).collect();
    let rows = match call.out_shape(0)?.as_slice() {
        &[rows, 5] if rows == batch * post => rows,
        other => {
            return Err(format!("inferred boxes {other:?} are not [{}, 5]", batch * post).into())
        }
    };
    let mut boxes = vec![0f64; rows * 5];
    let mut scores = vec![0f64; rows];
    for n in 0..batch {
        // The foreground scores are the second half of the channels.
        let image_scores = &probs[(2 * n + 1) * total..(2 * n + 2) * total];
        let image_deltas = &deltas[n * 4 * total..(n + 1) * 4 * total];
        let mut candidates = Vec::with_capacity(total);
        for h in 0..height {
            for w in 0..width {
                let (x, y) = if a.tensorflow { (h, w) } else { (w, h) };
                let shift = [x, y].map(|v| (v as i64 * a.feat_stride) as f32);
                for (k, anchor) in anchors.iter().enumerate() {
                    let delta = |i: usize| image_deltas[(k * 4 + i) * cells + h * width + w];
                    let cell = Cell {
                        anchor: [
                            anchor[0] + shift[0],
                            anchor[1] + shift[1],
                            anchor[2] + shift[0],
                            anchor[3] + shift[1],
                        ],
                        deltas: [
                            delta(0) / a.box_coordinate_scale,
                            delta(1) / a.box_coordinate_scale,
                            delta(2) / a.box_size_scale,
                            delta(3) / a.box_size_scale,
                        ],
                        score: image_scores[k * cells + h * width + w],
                    };
                    candidates.push(cell.decode(&a, &style, (img_h, img_w), (min_h, min_w)));
                }
            }
        }
        // The CPU plugin's order: cell-major, anchor-minor; best first.
        candidates.sort_by(|l, r| r.score.total_cmp(&l.score));
        candidates.truncate(pre);
        let corners: Vec<[f32; 4]> = candidates.iter().map(|c| c.corners).collect();
        let dead = vec![false; corners.len()];
        let kept = suppress(&corners, dead, a.nms_thresh, post, style.offset);
        for (roi, &index) in kept.iter().enumerate() {
            let mut c = candidates[index].corners;
            if a.clip_after_nms {
                c = [
                    clip(c[0], img_w),
                    clip(c[1], img_h),
                    clip(c[2], img_w),
                    clip(c[3], img_h),
                ];
            }
            if a.normalize {
                c = [c[0] / img_w, c[1] / img_h, c[2] / img_w, c[3] / img_h];
            }
            let at = n * post + roi;
            boxes[at * 5] = n as f64;
            for i in 0..4 {
                boxes[at * 5 + 1 + i] = f64::from(c[i]);
            }
            scores[at] = f64::from(candidates[index].score);
        }
        if kept.len() < post {
            boxes[(n * post + kept.len()) * 5] = -1.0;
        }
    }
    let et = call.out_type(0)?;
    let mut out = vec![from_f64s(et, vec![rows, 5], &boxes)?];
    if call.outputs.len() == 2 {
        out.push(from_f64s(call.out_type(1)?, vec![rows], &scores)?);
    }
    Ok(out)
}

/// One anchor of one cell before decoding.
struct Cell {
    anchor: [f32; 4],
    /// `(dx, dy, d log w, d log h)`, already scaled.
    deltas: [f32; 4],
    score: f32,
}

impl Cell {
    fn decode(
        &self,
        a: &Attrs,
        style: &Style,
        (img_h, img_w): (f32, f32),
        (min_h, min_w): (f32, f32),
    ) -> Candidate {
        let [mut x0, mut y0, mut x1, mut y1] = self.anchor;
        if style.tensorflow {
            x0 = clip(x0, img_w);
            y0 = clip(y0, img_h);
            x1 = clip(x1, img_w);
            y1 = clip(y1, img_h);
        }
        let ww = x1 - x0 + style.offset;
        let hh = y1 - y0 + style.offset;
        let center_x = x0 + 0.5 * ww;
        let center_y = y0 + 0.5 * hh;
        let [dx, dy, dw, dh] = self.deltas;
        let pred_x = dx * ww + center_x;
        let pred_y = dy * hh + center_y;
        let pred_w = dw.exp() * ww;
        let pred_h = dh.exp() * hh;
        x0 = pred_x - 0.5 * pred_w;
        y0 = pred_y - 0.5 * pred_h;
        x1 = pred_x + 0.5 * pred_w;
        y1 = pred_y + 0.5 * pred_h;
        if a.clip_before_nms {
            x0 = clip(x0, img_w - style.offset);
            y0 = clip(y0, img_h - style.offset);
            x1 = clip(x1, img_w - style.offset);
            y1 = clip(y1, img_h - style.offset);
        }
        let box_w = x1 - x0 + style.offset;
        let box_h = y1 - y0 + style.offset;
        let big_enough = min_w <= box_w && min_h <= box_h;
        Candidate {
            corners: [x0, y0, x1, y1],
            score: if big_enough { self.score } else { 0.0 },
        }
    }
}
