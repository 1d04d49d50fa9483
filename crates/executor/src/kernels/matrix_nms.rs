//! MatrixNms-8, as OpenVINO's CPU plugin computes it (in `f32`): per batch
//! and class (the background class skipped), the candidates scoring above
//! `score_threshold` are sorted best first and cut to `nms_top_k`. The best
//! one keeps its score; candidate `i` gets its score times the smallest
//! decay over the better candidates `j`, `decay(iou(i, j), max_iou(j))`
//! with `max_iou(j)` the largest IoU of `j` with a candidate better than
//! it: linear `(1 - iou) / (1 - max_iou)`, Gaussian
//! `exp((max_iou² - iou²) * gaussian_sigma)`. Candidates whose (decayed)
//! score is above `post_threshold` are selected. Each image's selection is
//! sorted by score (ties: class, box) and cut to `keep_top_k`; with
//! `sort_result_across_batch`, all of them are then sorted by score or class.
//!
//! IoU is the CPU plugin's: boxes `(x1, y1, x2, y2)` used as given (an
//! inverted box has area 0 but may still intersect), sides `max - min + 1`
//! when not `normalized`.

use shape_infer::ops::matrix_nms::gaussian_decay;

use super::nms_common::{self, Detection};
use super::{to_f64s, Call, KResult};
use crate::tensor::{check_scratch, Tensor};

/// The settings of one run.
struct Settings {
    score_threshold: f32,
    post_threshold: f32,
    nms_top_k: i64,
    gaussian: bool,
    sigma: f32,
    /// 0 (normalized) or 1: added to each side.
    side_extra: f32,
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let boxes = call.input(0)?;
    let scores = call.input(1)?;
    let (&[batches, count, 4], &[score_batches, classes, score_count]) =
        (boxes.shape.as_slice(), scores.shape.as_slice())
    else {
        return Err(format!(
            "boxes {:?} and scores {:?} must be [B, N, 4] and [B, C, N]",
            boxes.shape, scores.shape
        )
        .into());
    };
    if score_batches != batches || score_count != count {
        return Err(format!(
            "boxes {:?} and scores {:?} do not fit [B, N, 4] and [B, C, N]",
            boxes.shape, scores.shape
        )
        .into());
    }
    let attrs = nms_common::attrs(call)?;
    let gaussian = gaussian_decay(&call.node.attributes).map_err(|e| e.to_string())?;
    let settings = Settings {
        score_threshold: attrs.score_threshold,
        post_threshold: call.attr_f64("post_threshold")?.unwrap_or(0.0) as f32,
        nms_top_k: attrs.nms_top_k,
        gaussian,
        sigma: call.attr_f64("gaussian_sigma")?.unwrap_or(2.0) as f32,
        side_extra: if attrs.normalized { 0.0 } else { 1.0 },
    };
    check_scratch(
        batches.saturating_mul(classes).saturating_mul(count),
        48,
        "MatrixNms",
    )?;
    let corners: Vec<[f32; 4]> = to_f64s(boxes)?
        .chunks_exact(4)
        .map(|b| [b[0] as f32, b[1] as f32, b[2] as f32, b[3] as f32])
        .collect();
    let scores: Vec<f32> = to_f64s(scores)?.iter().map(|&s| s as f32).collect();
    let mut rows = Vec::new();
    for batch in 0..batches {
        let image = &corners[batch * count..(batch + 1) * count];
        let mut picked = Vec::new();
        for class in 0..classes {
            if i64::try_from(class).is_ok_and(|c| c == attrs.background_class) {
                continue;
            }
            let start = (batch * classes + class) * count;
            let class_scores = &scores[start..start + count];
            for (index, score) in decay(image, class_scores, &settings) {
                picked.push(Detection {
                    score,
                    batch,
                    class,
                    index,
                    flat_index: (batch * count + index) as i128,
                    corners: image[index],
                });
            }
        }
        picked.sort_by(nms_common::by_score);
        if let Ok(keep) = usize::try_from(attrs.keep_top_k) {
            picked.truncate(keep);
        }
        rows.extend(picked);
    }
    nms_common::sort_across_batches(&mut rows, &attrs);
    nms_common::outputs(call, &rows, batches)
}

/// One class of one image: `(box, decayed score)` of the selected boxes.
fn decay(boxes: &[[f32; 4]], scores: &[f32], s: &Settings) -> Vec<(usize, f32)> {
    let mut order: Vec<usize> = (0..scores.len())
        .filter(|&i| scores[i] > s.score_threshold)
        .collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    if let Ok(top) = usize::try_from(s.nms_top_k) {
        order.truncate(top);
    }
    let n = order.len();
    // iou[i][j] for j < i, and each candidate's largest IoU with a better one.
    let mut ious = vec![0f32; n * n];
    let mut max_iou = vec![0f32; n];
    for i in 1..n {
        for j in 0..i {
            let v = iou(&boxes[order[i]], &boxes[order[j]], s.side_extra);
            ious[i * n + j] = v;
            max_iou[i] = max_iou[i].max(v);
        }
    }
    let mut picked = Vec::new();
    for (i, &index) in order.iter().enumerate() {
        let mut min_decay = 1f32;
        for j in 0..i {
            let d = if s.gaussian {
                ((max_iou[j] * max_iou[j] - ious[i * n + j] * ious[i * n + j]) * s.sigma).exp()
            } else {
                // The CPU plugin divides in double precision.
                ((1.0 - f64::from(ious[i * n + j]))
                    / (1.0 - f64::from(max_iou[j]) + f64::from(1e-10f32))) as f32
            };
            min_decay = min_decay.min(d);
        }
        let score = min_decay * scores[index];
        if score > s.post_threshold {
            picked.push((index, score));
        }
    }
    picked
}

/// Area of `(x1, y1, x2, y2)`, 0 when inverted.
fn area(b: &[f32; 4], side_extra: f32) -> f32 {
    if b[2] < b[0] || b[3] < b[1] {
        0.0
    } else {
        (b[2] - b[0] + side_extra) * (b[3] - b[1] + side_extra)
    }
}

/// The CPU plugin's IoU: 0 for boxes apart, else the intersection of the
/// given corners over the union of the areas.
fn iou(a: &[f32; 4], b: &[f32; 4], side_extra: f32) -> f32 {
    if b[0] > a[2] || b[2] < a[0] || b[1] > a[3] || b[3] < a[1] {
        return 0.0;
    }
    let width = a[2].min(b[2]) - a[0].max(b[0]) + side_extra;
    let height = a[3].min(b[3]) - a[1].max(b[1]) + side_extra;
    let intersection = width * height;
    intersection / (area(a, side_extra) + area(b, side_extra) - intersection)
}
