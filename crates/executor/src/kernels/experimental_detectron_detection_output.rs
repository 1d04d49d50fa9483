//! ExperimentalDetectronDetectionOutput-6 as OpenVINO's CPU plugin computes
//! it (in `f32`; the plugin reads neither `im_info` nor
//! `class_agnostic_box_regression`).
//!
//! Each roi of positive size is refined per class other than 0 by its
//! deltas divided by `deltas_weights` (log-size deltas capped at
//! `max_delta_log_wh`, pixel sides `x1 - x0 + 1`, corners clipped below at
//! 0). Per class: the rois scoring above `score_threshold`, best first
//! (ties: lower roi), greedy suppression of an IoU above `nms_threshold`,
//! at most `post_nms_count` kept. The detections are listed class by class
//! unless there are more than `max_detections_per_image`, then the best of
//! them (ties: lower roi); rows after them are zero.

use shape_infer::ops::experimental_detectron_detection_output::{attributes, Attrs};

use super::{from_f64s, from_i128s, Call, KResult};
use crate::tensor::{check_scratch, Tensor};

/// The refined boxes, their areas and scores, `[class][roi]`.
struct Refined {
    boxes: Vec<[f32; 4]>,
    areas: Vec<f32>,
    scores: Vec<f32>,
}

fn refine(rois: &[f32], deltas: &[f32], scores: &[f32], classes: usize, a: &Attrs) -> Refined {
    let count = rois.len() / 4;
    let mut out = Refined {
        boxes: vec![[0.0; 4]; classes * count],
        areas: vec![0.0; classes * count],
        scores: vec![0.0; classes * count],
    };
    let w = a.deltas_weights;
    for r in 0..count {
        let [x0, y0, x1, y1] = [
            rois[r * 4],
            rois[r * 4 + 1],
            rois[r * 4 + 2],
            rois[r * 4 + 3],
        ];
        if x1 - x0 <= 0.0 || y1 - y0 <= 0.0 {
            continue;
        }
        let ww = x1 - x0 + 1.0;
        let hh = y1 - y0 + 1.0;
        let center_x = x0 + 0.5 * ww;
        let center_y = y0 + 0.5 * hh;
        for c in 1..classes {
            let d = &deltas[(r * classes + c) * 4..(r * classes + c) * 4 + 4];
            let pred_x = d[0] / w[0] * ww + center_x;
            let pred_y = d[1] / w[1] * hh + center_y;
            let pred_w = (d[2] / w[2]).min(a.max_delta_log_wh).exp() * ww;
            let pred_h = (d[3] / w[3]).min(a.max_delta_log_wh).exp() * hh;
            let b = [
                (pred_x - 0.5 * pred_w).max(0.0),
                (pred_y - 0.5 * pred_h).max(0.0),
                (pred_x + 0.5 * pred_w - 1.0).max(0.0),
                (pred_y + 0.5 * pred_h - 1.0).max(0.0),
            ];
            let at = c * count + r;
            out.boxes[at] = b;
            out.areas[at] = (b[2] - b[0] + 1.0) * (b[3] - b[1] + 1.0);
            out.scores[at] = scores[r * classes + c];
        }
    }
    out
}

/// The CPU plugin's overlap of two refined boxes (pixel sides, the areas
/// computed at refinement): 0 when apart.
fn overlap(refined: &Refined, i: usize, j: usize) -> f32 {
    let (a, b) = (refined.boxes[i], refined.boxes[j]);
    if b[0] > a[2] || b[2] < a[0] || b[1] > a[3] || b[3] < a[1] {
        return 0.0;
    }
    let width = a[2].min(b[2]) - a[0].max(b[0]) + 1.0;
    let height = a[3].min(b[3]) - a[1].max(b[1]) + 1.0;
    if width <= 0.0 || height <= 0.0 {
        return 0.0;
    }
    let intersection = width * height;
    intersection / (refined.areas[i] + refined.areas[j] - intersection)
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let a = attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    let classes = usize::try_from(a.num_classes).unwrap_or(0);
    let rois = call.input_f32s(0)?;
    let deltas = call.input_f32s(1)?;
    let scores = call.input_f32s(2)?;
    let count = rois.len() / 4;
    if rois.len() != count * 4
        || deltas.len() != count * classes * 4
        || scores.len() != count * classes
    {
        return Err(format!(
            "rois ({} values), deltas ({}) and scores ({}) do not fit [R, 4], [R, {}] and [R, {classes}]",
            rois.len(),
            deltas.len(),
            scores.len(),
            classes * 4
        )
        .into());
    }
    check_scratch(
        count.saturating_mul(classes),
        28,
        "ExperimentalDetectronDetectionOutput",
    )?;
    let refined = refine(&rois, &deltas, &scores, classes, &a);
    let per_class = usize::try_from(a.post_nms_count).unwrap_or(usize::MAX);
    // (score, class, roi) of every detection, class by class.
    let mut detections: Vec<(f32, usize, usize)> = Vec::new();
    for c in 1..classes {
        let base = c * count;
        let mut order: Vec<usize> = (0..count)
            .filter(|&r| refined.scores[base + r] > a.score_threshold)
            .collect();
        order.sort_by(|&x, &y| {
            refined.scores[base + y]
                .total_cmp(&refined.scores[base + x])
                .then(x.cmp(&y))
        });
        let mut kept: Vec<usize> = Vec::new();
        for r in order {
            if kept
                .iter()
                .all(|&k| overlap(&refined, base + r, base + k) <= a.nms_threshold)
            {
                kept.push(r);
            }
        }
        kept.truncate(per_class);
        detections.extend(kept.into_iter().map(|r| (refined.scores[base + r], c, r)));
    }
    let rows = usize::try_from(a.max_detections_per_image).unwrap_or(0);
    if detections.len() > rows {
        detections.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.2.cmp(&y.2)));
        detections.truncate(rows);
    }
    let mut boxes = vec![0f64; rows * 4];
    let mut labels = vec![0i128; rows];
    let mut out_scores = vec![0f64; rows];
    for (i, &(score, c, r)) in detections.iter().enumerate() {
        let b = refined.boxes[c * count + r];
        for (j, v) in b.iter().enumerate() {
            boxes[i * 4 + j] = f64::from(*v);
        }
        labels[i] = c as i128;
        out_scores[i] = f64::from(score);
    }
    Ok(vec![
        from_f64s(call.out_type(0)?, vec![rows, 4], &boxes)?,
        from_i128s(call.out_type(1)?, vec![rows], &labels)?,
        from_f64s(call.out_type(2)?, vec![rows], &out_scores)?,
    ])
}
