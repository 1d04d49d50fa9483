//! ExperimentalDetectronGenerateProposalsSingleImage-6 as OpenVINO's CPU
//! plugin computes it (in `f32`): GenerateProposals' refinement of the
//! anchors `[H*W*A, 4]` (order: row, column, anchor) with pixel sides
//! (`x1 - x0 + 1`) and a `min_size` not scaled by the image, the score of a
//! box below it zeroed; then the best `pre_nms_count` suppressed (sides
//! without the +1, zero scores never kept) and `post_nms_count` rows
//! written, zero after the kept ones.

use super::generate_proposals::{Image, Settings};
use super::proposal_nms::suppress;
use super::{from_f64s, Call, KResult};
use crate::tensor::{check_scratch, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let Settings {
        pre_nms_count: pre,
        post_nms_count: post,
        min_size,
        nms_threshold: threshold,
    } = Settings::read(call)?;
    let shape = |i: usize| call.input(i).map(|t| t.shape.clone());
    let (anchor_shape, delta_shape, score_shape) = (shape(1)?, shape(2)?, shape(3)?);
    let (count, height, width) = match (
        anchor_shape.as_slice(),
        delta_shape.as_slice(),
        score_shape.as_slice(),
    ) {
        (&[k, 4], &[dc, dh, dw], &[a, h, w]) if k == a * h * w && (dc, dh, dw) == (4 * a, h, w) => {
            (a, h, w)
        }
        _ => {
            return Err(format!(
                "anchors {anchor_shape:?}, deltas {delta_shape:?} and scores {score_shape:?} do not fit [H*W*A, 4], [4A, H, W] and [A, H, W]"
            )
            .into())
        }
    };
    let info = call.input_f32s(0)?;
    let [img_h, img_w, ..] = info.as_slice() else {
        return Err(format!("im_info has {} values, not 3", info.len()).into());
    };
    let cells = height * width;
    let total = count * cells;
    check_scratch(
        total,
        24,
        "ExperimentalDetectronGenerateProposalsSingleImage",
    )?;
    let anchors = call.input_f32s(1)?;
    let deltas = call.input_f32s(2)?;
    let scores = call.input_f32s(3)?;
    let image = Image {
        height: *img_h,
        width: *img_w,
        min_h: min_size,
        min_w: min_size,
        offset: 1.0,
    };
    let mut refined = image.refine_all(&anchors, &deltas, &scores, [height, width, count]);
    // Unlike GenerateProposals, a box below `min_size` has its score zeroed
    // (and zero scores are never kept).
    for r in refined.iter_mut().filter(|r| !r.big_enough) {
        r.score = 0.0;
    }
    refined.sort_by(|l, r| r.score.total_cmp(&l.score));
    refined.truncate(total.min(usize::try_from(pre).unwrap_or(usize::MAX)));
    let rows = usize::try_from(post).unwrap_or(0);
    let corners: Vec<[f32; 4]> = refined.iter().map(|r| r.corners).collect();
    let dead = refined.iter().map(|r| r.score == 0.0).collect();
    let kept = suppress(&corners, dead, threshold, rows, 0.0);
    let mut rois = vec![0f64; rows * 4];
    let mut roi_scores = vec![0f64; rows];
    for (i, &k) in kept.iter().enumerate() {
        for (j, v) in refined[k].corners.iter().enumerate() {
            rois[i * 4 + j] = f64::from(*v);
        }
        roi_scores[i] = f64::from(refined[k].score);
    }
    Ok(vec![
        from_f64s(call.out_type(0)?, vec![rows, 4], &rois)?,
        from_f64s(call.out_type(1)?, vec![rows], &roi_scores)?,
    ])
}
