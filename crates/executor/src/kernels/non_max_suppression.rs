//! NonMaxSuppression-1/-3/-4/-5/-9, as OpenVINO's CPU plugin computes it
//! (in `f32`): per batch and class, the boxes scoring above
//! `score_threshold` are taken best first (ties: lower box index first).
//! Hard suppression (`soft_nms_sigma` 0) drops a box whose IoU with a
//! selected one is at least `iou_threshold`. Soft suppression multiplies its
//! score by `exp(-0.5 / sigma * iou^2)` for each box selected since it was
//! last weighed, drops it once the score is at most `score_threshold`, and
//! puts a box whose score changed back among the candidates; version 5 also
//! zeroes the weight for an IoU above `iou_threshold` (version 9 does not).
//! At most `max_output_boxes_per_class` per class (no input: 0; negative:
//! every box). The selection is listed batch by batch, class by class, or,
//! with `sort_result_descending`, by score across batches (ties: batch,
//! class, box). Outputs of a size fixed by inference (the padded versions
//! 1 to 4) are cut to it or filled with -1 rows; otherwise the size is the
//! count selected.
//!
//! OpenVINO's reference implementation drops a box at an IoU strictly above
//! the threshold; the CPU plugin, the golden here, at or above it (an IoU
//! threshold of 0 then keeps one box of each set of disjoint boxes too).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use shape_infer::ops::non_max_suppression::center_encoding;
use shape_infer::registry::OpsetFamily;

use super::{from_f64s, from_i128s, to_f64s, Call, KResult};
use crate::tensor::{check_scratch, Tensor};

/// A box's corners `(ymin, xmin, ymax, xmax)`.
type Corners = [f32; 4];

/// One selected box (also NMSRotated's).
#[derive(Clone, Copy)]
pub(super) struct Selected {
    pub score: f32,
    pub batch: usize,
    pub class: usize,
    pub index: usize,
}

/// A candidate of the soft-suppression queue: best score first, then the
/// lower box index.
#[derive(Clone, Copy)]
struct Candidate {
    score: f32,
    index: usize,
    /// The number of boxes selected when its score was last updated.
    weighed_until: usize,
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Candidate {}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score
            .total_cmp(&other.score)
            .then(other.index.cmp(&self.index))
    }
}

/// The thresholds and limits of one run.
struct Settings {
    max_per_class: usize,
    iou_threshold: f32,
    score_threshold: f32,
    /// `-0.5 / sigma`, or 0 for hard suppression.
    scale: f32,
    /// Version 5: soft suppression also drops boxes by IoU.
    soft_drops_by_iou: bool,
}

fn scalar(call: &Call<'_>, index: usize, what: &str) -> KResult<Option<f64>> {
    if call.inputs.len() <= index {
        return Ok(None);
    }
    match to_f64s(call.input(index)?)?.as_slice() {
        [v] => Ok(Some(*v)),
        other => Err(format!("{what} has {} elements, not 1", other.len()).into()),
    }
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let boxes = call.input(0)?;
    let scores = call.input(1)?;
    let (&[batches, count, four], &[score_batches, classes, score_count]) =
        (boxes.shape.as_slice(), scores.shape.as_slice())
    else {
        return Err(format!(
            "boxes {:?} and scores {:?} must both be 3-D",
            boxes.shape, scores.shape
        )
        .into());
    };
    if four != 4 || score_batches != batches || score_count != count {
        return Err(format!(
            "boxes {:?} and scores {:?} do not fit [B, N, 4] and [B, C, N]",
            boxes.shape, scores.shape
        )
        .into());
    }
    let center = center_encoding(&call.node.attributes).map_err(|e| e.to_string())?;
    let opset = OpsetFamily::parse(&call.node.op_type.version).map_or(1, |(_, n)| n);
    let max = match call.inputs.len() > 2 {
        true => match call.input(2)?.to_i64s()?.as_slice() {
            [m] => *m,
            other => {
                return Err(format!(
                    "max_output_boxes_per_class has {} elements, not 1",
                    other.len()
                )
                .into())
            }
        },
        false => 0,
    };
    // The CPU plugin reads the count unsigned: a negative one is no limit.
    let max_per_class = usize::try_from(max).map_or(count, |m| m.min(count));
    let sigma = scalar(call, 5, "soft_nms_sigma")?.unwrap_or(0.0) as f32;
    let settings = Settings {
        max_per_class,
        iou_threshold: scalar(call, 3, "iou_threshold")?.unwrap_or(0.0) as f32,
        score_threshold: scalar(call, 4, "score_threshold")?.unwrap_or(0.0) as f32,
        scale: if sigma > 0.0 { -0.5 / sigma } else { 0.0 },
        soft_drops_by_iou: opset < 9,
    };
    let corners: Vec<Corners> = to_f64s(boxes)?
        .chunks_exact(4)
        .map(|b| to_corners([b[0] as f32, b[1] as f32, b[2] as f32, b[3] as f32], center))
        .collect();
    let scores: Vec<f32> = to_f64s(scores)?.iter().map(|&s| s as f32).collect();
    check_scratch(
        batches
            .saturating_mul(classes)
            .saturating_mul(max_per_class),
        32,
        "NonMaxSuppression",
    )?;
    let mut selected = Vec::new();
    for batch in 0..batches {
        let batch_boxes = &corners[batch * count..(batch + 1) * count];
        for class in 0..classes {
            let start = (batch * classes + class) * count;
            let class_scores = &scores[start..start + count];
            let picks = if settings.scale == 0.0 {
                hard(batch_boxes, class_scores, &settings)
            } else {
                soft(batch_boxes, class_scores, &settings)
            };
            selected.extend(picks.into_iter().map(|(index, score)| Selected {
                score,
                batch,
                class,
                index,
            }));
        }
    }
    if call.attr_bool("sort_result_descending", true) {
        sort_by_score(&mut selected);
    }
    let rows = match call.outputs.first().and_then(|o| o.shape.as_deref()) {
        Some(&[rows, 3]) => rows,
        Some(other) => {
            return Err(format!("inferred selected_indices {other:?} is not [K, 3]").into())
        }
        None => selected.len(),
    };
    write_selected(call, &selected, rows)
}

/// Best score first; ties by batch, class and box index.
pub(super) fn sort_by_score(selected: &mut [Selected]) {
    selected.sort_by(|l, r| {
        r.score
            .total_cmp(&l.score)
            .then(l.batch.cmp(&r.batch))
            .then(l.class.cmp(&r.class))
            .then(l.index.cmp(&r.index))
    });
}

/// selected_indices `[rows, 3]` and, for the three-output versions,
/// selected_scores `[rows, 3]` and valid_outputs `[1]`; rows past the
/// selected ones (v1 to v4's padded outputs) are -1.
pub(super) fn write_selected(
    call: &Call<'_>,
    selected: &[Selected],
    rows: usize,
) -> KResult<Vec<Tensor>> {
    let valid = selected.len().min(rows);
    let mut indices = vec![-1i128; rows * 3];
    let mut triplets = vec![-1f64; rows * 3];
    for (k, s) in selected.iter().take(valid).enumerate() {
        indices[k * 3..k * 3 + 3].copy_from_slice(&[
            s.batch as i128,
            s.class as i128,
            s.index as i128,
        ]);
        triplets[k * 3..k * 3 + 3].copy_from_slice(&[
            s.batch as f64,
            s.class as f64,
            f64::from(s.score),
        ]);
    }
    let index_type = call.out_type(0)?;
    let mut out = vec![from_i128s(index_type, vec![rows, 3], &indices)?];
    if call.outputs.len() == 3 {
        out.push(from_f64s(call.out_type(1)?, vec![rows, 3], &triplets)?);
        out.push(from_i128s(call.out_type(2)?, vec![1], &[valid as i128])?);
    }
    Ok(out)
}

/// `(ymin, xmin, ymax, xmax)` of a box given by two corners in any order, or
/// by its center, width and height (`x_c, y_c, w, h`).
fn to_corners(b: [f32; 4], center: bool) -> Corners {
    if center {
        let (half_w, half_h) = (b[2] / 2.0, b[3] / 2.0);
        [b[1] - half_h, b[0] - half_w, b[1] + half_h, b[0] + half_w]
    } else {
        [
            b[0].min(b[2]),
            b[1].min(b[3]),
            b[0].max(b[2]),
            b[1].max(b[3]),
        ]
    }
}

/// Intersection over union; 0 when either box has no area.
fn iou(a: &Corners, b: &Corners) -> f32 {
    let area_a = (a[2] - a[0]) * (a[3] - a[1]);
    let area_b = (b[2] - b[0]) * (b[3] - b[1]);
    if area_a <= 0.0 || area_b <= 0.0 {
        return 0.0;
    }
    let height = (a[2].min(b[2]) - a[0].max(b[0])).max(0.0);
    let width = (a[3].min(b[3]) - a[1].max(b[1])).max(0.0);
    let intersection = height * width;
    intersection / (area_a + area_b - intersection)
}

/// Hard suppression of one batch and class: `(box, score)` in selection
/// order.
fn hard(boxes: &[Corners], scores: &[f32], s: &Settings) -> Vec<(usize, f32)> {
    let mut order: Vec<usize> = (0..scores.len())
        .filter(|&i| scores[i] > s.score_threshold)
        .collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    let mut picked: Vec<(usize, f32)> = Vec::new();
    for i in order {
        if picked.len() >= s.max_per_class {
            break;
        }
        // Suppressed at `iou >= t`; a NaN IoU suppresses nothing, as in the
        // CPU plugin.
        let suppressed = |j: usize| {
            iou(&boxes[i], &boxes[j])
                .partial_cmp(&s.iou_threshold)
                .is_some_and(Ordering::is_ge)
        };
        if !picked.iter().any(|&(j, _)| suppressed(j)) {
            picked.push((i, scores[i]));
        }
    }
    picked
}

/// Soft (Gaussian) suppression of one batch and class: `(box, decayed
/// score)` in selection order.
fn soft(boxes: &[Corners], scores: &[f32], s: &Settings) -> Vec<(usize, f32)> {
    let mut queue: BinaryHeap<Candidate> = (0..scores.len())
        .filter(|&i| scores[i] > s.score_threshold)
        .map(|index| Candidate {
            score: scores[index],
            index,
            weighed_until: 0,
        })
        .collect();
    let weight = |iou: f32| {
        if s.soft_drops_by_iou && iou > s.iou_threshold {
            0.0
        } else {
            (s.scale * iou * iou).exp()
        }
    };
    let mut picked: Vec<(usize, f32)> = Vec::new();
    while picked.len() < s.max_per_class {
        let Some(mut c) = queue.pop() else { break };
        let original = c.score;
        let mut dropped = false;
        for &(j, _) in picked[c.weighed_until..].iter().rev() {
            c.score *= weight(iou(&boxes[c.index], &boxes[j]));
            if c.score <= s.score_threshold {
                dropped = true;
                break;
            }
        }
        if dropped {
            continue;
        }
        if c.score == original {
            picked.push((c.index, c.score));
        } else {
            c.weighed_until = picked.len();
            queue.push(c);
        }
    }
    picked
}
