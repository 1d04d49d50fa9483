//! The greedy suppression of region proposals that OpenVINO's CPU plugin
//! shares between Proposal, GenerateProposals and
//! ExperimentalDetectronGenerateProposalsSingleImage: boxes in score
//! order, sides of `x1 - x0 + offset` (offset 1 for Caffe-like pixel
//! boxes, else 0), a box dropped when its IoU with a kept one is above the
//! threshold. (NonMaxSuppression and DetectionOutput weigh overlaps
//! differently: no offset, other tie and threshold rules.)

/// `v` clipped to `[0, hi]`.
pub(crate) fn clip(v: f32, hi: f32) -> f32 {
    v.min(hi).max(0.0)
}

/// Greedy suppression of `boxes` `(x0, y0, x1, y1)` taken in order, those
/// marked in `dead` never kept: the indices of at most `max` kept boxes.
pub(crate) fn suppress(
    boxes: &[[f32; 4]],
    mut dead: Vec<bool>,
    threshold: f32,
    max: usize,
    offset: f32,
) -> Vec<usize> {
    let mut kept = Vec::new();
    for i in 0..boxes.len() {
        if dead[i] {
            continue;
        }
        kept.push(i);
        if kept.len() == max {
            break;
        }
        for (j, d) in dead.iter_mut().enumerate().skip(i + 1) {
            if iou(&boxes[i], &boxes[j], offset) > threshold {
                *d = true;
            }
        }
    }
    kept
}

/// The IoU of two corner boxes with sides `x1 - x0 + offset`: 0 when they
/// do not touch.
fn iou(a: &[f32; 4], b: &[f32; 4], offset: f32) -> f32 {
    if !(a[0] <= b[2] && a[1] <= b[3] && b[0] <= a[2] && b[1] <= a[3]) {
        return 0.0;
    }
    let width = (a[2].min(b[2]) - a[0].max(b[0]) + offset).max(0.0);
    let height = (a[3].min(b[3]) - a[1].max(b[1]) + offset).max(0.0);
    let area = width * height;
    let area_a = (a[2] - a[0] + offset) * (a[3] - a[1] + offset);
    let area_b = (b[2] - b[0] + offset) * (b[3] - b[1] + offset);
    area / (area_a + area_b - area)
}
