//! MulticlassNms-8/-9, as OpenVINO's CPU plugin computes it (in `f32`):
//! per image and class (the background class skipped), the candidates
//! scoring at least `score_threshold`, best first (ties: lower box), of
//! which the first `min(nms_top_k, N)` are considered. A candidate is
//! dropped when its IoU with a selected box is at least the threshold;
//! with `nms_eta` below 1, the threshold (starting at `iou_threshold`) is
//! multiplied by `nms_eta` after each selection while above 0.5. Each
//! image's selection is sorted by score (ties: class, box) and cut to
//! `keep_top_k`; then sorted by class within each image (`classid`), or
//! across images by score or class (`sort_result_across_batch`).
//!
//! Version 9 with `roisnum`: boxes `[C, M, 4]` and scores `[C, M]`, image
//! `b` owning `roisnum[b]` boxes of each class from the sum of the ones
//! before; its `selected_indices` are `(offset + box) * C + class`.
//!
//! IoU is the CPU plugin's: corners used as given, a box of area at most 0
//! overlaps nothing, sides `max - min + 1` when not `normalized`.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use shape_infer::ops::nms_common::{f32_attr, SortResultType};

use super::nms_common::{self, Detection};
use super::{to_f64s, Call, KResult};
use crate::tensor::{check_scratch, Tensor};

/// The settings of one run.
struct Settings {
    score_threshold: f32,
    iou_threshold: f32,
    /// Candidates considered per image and class.
    top_k: usize,
    eta: f32,
    side_extra: f32,
}

/// Where the boxes and scores of one image and class are.
struct Slice<'a> {
    boxes: &'a [[f32; 4]],
    scores: &'a [f32],
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let boxes = call.input(0)?;
    let scores = call.input(1)?;
    let attrs = nms_common::attrs(call)?;
    let text_error = |e: shape_infer::error::ShapeError| e.to_string();
    let corners: Vec<[f32; 4]> = to_f64s(boxes)?
        .chunks_exact(4)
        .map(|b| [b[0] as f32, b[1] as f32, b[2] as f32, b[3] as f32])
        .collect();
    let score_values: Vec<f32> = to_f64s(scores)?.iter().map(|&s| s as f32).collect();
    // Per image: its first box in each class's list and its box count.
    let (batches, classes, count, images) = match (
        boxes.shape.as_slice(),
        scores.shape.as_slice(),
        call.inputs.get(2),
    ) {
        (&[b, n, 4], &[sb, c, sn], None) if sb == b && sn == n => {
            (b, c, n, (0..b).map(|i| (i * n, n)).collect::<Vec<_>>())
        }
        (&[c, m, 4], &[sc, sm], Some(rois)) if sc == c && sm == m => {
            let mut images = Vec::new();
            let mut offset = 0usize;
            for r in rois.to_i64s()? {
                // A non-positive count is an image without boxes.
                let len = usize::try_from(r).unwrap_or(0);
                if offset + len > m {
                    return Err(format!(
                        "roisnum asks for {} boxes, there are {m}",
                        offset + len
                    )
                    .into());
                }
                images.push((offset, len));
                offset += len;
            }
            (images.len(), c, m, images)
        }
        _ => {
            return Err(format!(
                "boxes {:?} and scores {:?} do not fit [B, N, 4] and [B, C, N] (or [C, M, 4] and [C, M] with roisnum)",
                boxes.shape, scores.shape
            )
            .into())
        }
    };
    let per_class = call.inputs.len() == 3;
    let settings = Settings {
        score_threshold: attrs.score_threshold,
        iou_threshold: f32_attr(&call.node.attributes, "iou_threshold", 0.0).map_err(text_error)?,
        top_k: usize::try_from(attrs.nms_top_k).map_or(count, |k| k.min(count)),
        eta: f32_attr(&call.node.attributes, "nms_eta", 1.0).map_err(text_error)?,
        side_extra: if attrs.normalized { 0.0 } else { 1.0 },
    };
    check_scratch(
        batches.saturating_mul(classes).saturating_mul(count),
        48,
        "MulticlassNms",
    )?;
    let mut rows = Vec::new();
    for (batch, &(offset, len)) in images.iter().enumerate() {
        let mut picked = Vec::new();
        for class in 0..classes {
            if i64::try_from(class).is_ok_and(|c| c == attrs.background_class) {
                continue;
            }
            let (box_start, score_start) = if per_class {
                (class * count + offset, class * count + offset)
            } else {
                (batch * count, (batch * classes + class) * count)
            };
            let slice = Slice {
                boxes: &corners[box_start..box_start + len],
                scores: &score_values[score_start..score_start + len],
            };
            let selected = if (0.0..1.0).contains(&settings.eta) {
                with_eta(&slice, &settings)
            } else {
                without_eta(&slice, &settings)
            };
            for (index, score) in selected {
                let flat_index = if per_class {
                    ((offset + index) * classes + class) as i128
                } else {
                    (batch * count + index) as i128
                };
                picked.push(Detection {
                    score,
                    batch,
                    class,
                    index,
                    flat_index,
                    corners: slice.boxes[index],
                });
            }
        }
        picked.sort_by(nms_common::by_score);
        if let Ok(keep) = usize::try_from(attrs.keep_top_k) {
            picked.truncate(keep);
        }
        if !attrs.sort_result_across_batch && attrs.sort_result_type == SortResultType::ClassId {
            picked.sort_by(|l, r| {
                l.class
                    .cmp(&r.class)
                    .then(r.score.total_cmp(&l.score))
                    .then(l.index.cmp(&r.index))
            });
        }
        rows.extend(picked);
    }
    nms_common::sort_across_batches(&mut rows, &attrs);
    nms_common::outputs(call, &rows, batches)
}

/// The candidates of one image and class, best first (ties: lower box).
fn candidates(slice: &Slice<'_>, s: &Settings) -> Vec<(usize, f32)> {
    let mut order: Vec<(usize, f32)> = slice
        .scores
        .iter()
        .enumerate()
        .filter(|&(_, &score)| score >= s.score_threshold)
        .map(|(i, &score)| (i, score))
        .collect();
    order.sort_by(|l, r| r.1.total_cmp(&l.1).then(l.0.cmp(&r.0)));
    order
}

/// Hard suppression with a fixed threshold: the first `top_k` candidates
/// are considered, each kept unless it overlaps a kept one.
fn without_eta(slice: &Slice<'_>, s: &Settings) -> Vec<(usize, f32)> {
    let order = candidates(slice, s);
    let mut picked: Vec<(usize, f32)> = Vec::new();
    for &(index, score) in order.iter().take(s.top_k) {
        let suppressed = picked.iter().rev().any(|&(j, _)| {
            iou(&slice.boxes[index], &slice.boxes[j], s.side_extra) >= s.iou_threshold
        });
        if !suppressed {
            picked.push((index, score));
        }
    }
    picked
}

/// A candidate of the adaptive queue: best score first, then lower box.
#[derive(Clone, Copy)]
struct Queued {
    score: f32,
    index: usize,
    /// The selected boxes already compared with it.
    checked: usize,
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Queued {}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score
            .total_cmp(&other.score)
            .then(other.index.cmp(&self.index))
    }
}

/// Suppression with the adaptive threshold (`nms_eta` below 1), as the CPU
/// plugin's queue: at most `top_k` candidates are taken from it.
fn with_eta(slice: &Slice<'_>, s: &Settings) -> Vec<(usize, f32)> {
    let mut queue: BinaryHeap<Queued> = candidates(slice, s)
        .into_iter()
        .map(|(index, score)| Queued {
            score,
            index,
            checked: 0,
        })
        .collect();
    let mut threshold = s.iou_threshold;
    let mut picked: Vec<(usize, f32)> = Vec::new();
    let mut takes = s.top_k.min(queue.len());
    while takes > 0 {
        let Some(mut current) = queue.pop() else {
            break;
        };
        takes -= 1;
        let original = current.score;
        let mut selected = true;
        for &(j, _) in picked[current.checked..].iter().rev() {
            let overlap = iou(&slice.boxes[current.index], &slice.boxes[j], s.side_extra);
            if overlap > threshold {
                current.score = 0.0;
            }
            if overlap >= threshold {
                selected = false;
                break;
            }
            if current.score <= s.score_threshold {
                break;
            }
        }
        current.checked = picked.len();
        if !selected {
            continue;
        }
        if s.eta < 1.0 && threshold > 0.5 {
            threshold *= s.eta;
        }
        if current.score == original {
            picked.push((current.index, current.score));
        } else if current.score > s.score_threshold {
            queue.push(current);
        }
    }
    picked
}

/// The CPU plugin's IoU of two boxes given by two corners.
fn iou(a: &[f32; 4], b: &[f32; 4], side_extra: f32) -> f32 {
    let area_a = (a[2] - a[0] + side_extra) * (a[3] - a[1] + side_extra);
    let area_b = (b[2] - b[0] + side_extra) * (b[3] - b[1] + side_extra);
    if area_a <= 0.0 || area_b <= 0.0 {
        return 0.0;
    }
    let height = (a[2].min(b[2]) - a[0].max(b[0]) + side_extra).max(0.0);
    let width = (a[3].min(b[3]) - a[1].max(b[1]) + side_extra).max(0.0);
    let intersection = height * width;
    intersection / (area_a + area_b - intersection)
}
