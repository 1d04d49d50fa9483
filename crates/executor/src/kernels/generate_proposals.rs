//! GenerateProposals-9 as OpenVINO's CPU plugin computes it (in `f32`).
//!
//! Per image: each anchor of each cell (order: row, column, anchor) is
//! moved by its deltas (the log-size deltas capped at `log(1000/16)`),
//! clipped to the image of `im_info` (`x1 - offset` for pixel boxes, whose
//! sides are `x1 - x0 + 1` when not `normalized`), and marked dead when a
//! side is below `min_size` times the image scale. The best
//! `pre_nms_count` by score are suppressed greedily (IoU above
//! `nms_threshold`, dead boxes never kept) and at most `post_nms_count`
//! kept. The rois of all images follow each other; `nms_eta` is 1 (the
//! shape rule checks it). Equal scores keep the lower proposal first (the
//! CPU plugin's partial sort is not stable).

use shape_infer::ops::generate_proposals::counts;
use shape_infer::ops::prior_box::float;

use super::proposal_nms::{clip, suppress};
use super::{from_f64s, from_i128s, Call, KResult};
use crate::tensor::{check_scratch, Tensor};

/// The cap of the log-size deltas, as the CPU plugin.
fn max_delta_log_wh() -> f32 {
    (1000.0f64 / 16.0).ln() as f32
}

/// A refined anchor.
#[derive(Clone, Copy)]
pub(crate) struct Refined {
    pub corners: [f32; 4],
    pub score: f32,
    /// Both sides reach the minimum size.
    pub big_enough: bool,
}

/// One image's settings.
pub(crate) struct Image {
    pub height: f32,
    pub width: f32,
    pub min_h: f32,
    pub min_w: f32,
    /// 1 when box sides are `x1 - x0 + 1` (pixel boxes), else 0.
    pub offset: f32,
}

impl Image {
    /// Every anchor `[H, W, A, 4]` of one image refined by its deltas
    /// `[4A, H, W]`, with its score `[A, H, W]`, in the order row, column,
    /// anchor.
    pub(crate) fn refine_all(
        &self,
        anchors: &[f32],
        deltas: &[f32],
        scores: &[f32],
        [height, width, anchors_per_cell]: [usize; 3],
    ) -> Vec<Refined> {
        let cells = height * width;
        let mut refined = Vec::with_capacity(cells * anchors_per_cell);
        for cell in 0..cells {
            for a in 0..anchors_per_cell {
                let at = (cell * anchors_per_cell + a) * 4;
                let anchor = [
                    anchors[at],
                    anchors[at + 1],
                    anchors[at + 2],
                    anchors[at + 3],
                ];
                let delta = [0, 1, 2, 3].map(|k| deltas[(a * 4 + k) * cells + cell]);
                refined.push(self.refine(anchor, delta, scores[a * cells + cell]));
            }
        }
        refined
    }

    /// An anchor `(x0, y0, x1, y1)` moved by its deltas `(dx, dy, d log w,
    /// d log h)` and clipped to the image.
    pub(crate) fn refine(&self, anchor: [f32; 4], delta: [f32; 4], score: f32) -> Refined {
        let offset = self.offset;
        let [x0, y0, x1, y1] = anchor;
        let ww = x1 - x0 + offset;
        let hh = y1 - y0 + offset;
        let center_x = x0 + 0.5 * ww;
        let center_y = y0 + 0.5 * hh;
        let pred_x = delta[0] * ww + center_x;
        let pred_y = delta[1] * hh + center_y;
        let pred_w = delta[2].min(max_delta_log_wh()).exp() * ww;
        let pred_h = delta[3].min(max_delta_log_wh()).exp() * hh;
        let corners = [
            clip(pred_x - 0.5 * pred_w, self.width - offset),
            clip(pred_y - 0.5 * pred_h, self.height - offset),
            clip(pred_x + 0.5 * pred_w - offset, self.width - offset),
            clip(pred_y + 0.5 * pred_h - offset, self.height - offset),
        ];
        let box_w = corners[2] - corners[0] + offset;
        let box_h = corners[3] - corners[1] + offset;
        Refined {
            corners,
            score,
            big_enough: self.min_w <= box_w && self.min_h <= box_h,
        }
    }
}

/// The attributes both proposal ops read.
pub(crate) struct Settings {
    pub pre_nms_count: i64,
    pub post_nms_count: i64,
    pub min_size: f32,
    pub nms_threshold: f32,
}

impl Settings {
    pub(crate) fn read(call: &Call<'_>) -> KResult<Settings> {
        let attributes = &call.node.attributes;
        let (pre_nms_count, post_nms_count) = counts(attributes).map_err(|e| e.to_string())?;
        let float = |key| float(attributes, key, Some(0.0)).map_err(|e| e.to_string());
        Ok(Settings {
            pre_nms_count,
            post_nms_count,
            min_size: float("min_size")?,
            nms_threshold: float("nms_threshold")?,
        })
    }
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let Settings {
        pre_nms_count: pre,
        post_nms_count: post,
        min_size,
        nms_threshold: threshold,
    } = Settings::read(call)?;
    let offset = if call.attr_bool("normalized", true) {
        0.0
    } else {
        1.0
    };
    let shape = |i: usize| call.input(i).map(|t| t.shape.clone());
    let (info_shape, anchor_shape, delta_shape, score_shape) =
        (shape(0)?, shape(1)?, shape(2)?, shape(3)?);
    let (batch, info_len, anchors_per_cell, height, width) = match (
        info_shape.as_slice(),
        anchor_shape.as_slice(),
        delta_shape.as_slice(),
        score_shape.as_slice(),
    ) {
        (&[b, i], &[ah, aw, aa, 4], &[db, dc, dh, dw], &[sb, sa, sh, sw])
            if (i == 3 || i == 4)
                && (b, db) == (sb, sb)
                && (ah, aw, aa) == (sh, sw, sa)
                && (dc, dh, dw) == (4 * sa, sh, sw) =>
        {
            (b, i, sa, sh, sw)
        }
        _ => {
            return Err(format!(
                "im_info {info_shape:?}, anchors {anchor_shape:?}, deltas {delta_shape:?} and scores {score_shape:?} do not fit [B, 3 or 4], [H, W, A, 4], [B, 4A, H, W] and [B, A, H, W]"
            )
            .into())
        }
    };
    let cells = height * width;
    let total = anchors_per_cell * cells;
    check_scratch(total, 24, "GenerateProposals")?;
    let info = call.input_f32s(0)?;
    let anchors = call.input_f32s(1)?;
    let deltas = call.input_f32s(2)?;
    let scores = call.input_f32s(3)?;
    let pre = total.min(usize::try_from(pre).unwrap_or(usize::MAX));
    let post = usize::try_from(post).unwrap_or(usize::MAX);
    let mut rois = Vec::new();
    let mut roi_scores = Vec::new();
    let mut per_image = Vec::with_capacity(batch);
    for n in 0..batch {
        let i = &info[n * info_len..(n + 1) * info_len];
        let (scale_h, scale_w) = if info_len == 4 {
            (i[2], i[3])
        } else {
            (i[2], i[2])
        };
        let image = Image {
            height: i[0],
            width: i[1],
            min_h: min_size * scale_h,
            min_w: min_size * scale_w,
            offset,
        };
        let image_deltas = &deltas[n * 4 * total..(n + 1) * 4 * total];
        let image_scores = &scores[n * total..(n + 1) * total];
        let mut refined = image.refine_all(
            &anchors,
            image_deltas,
            image_scores,
            [height, width, anchors_per_cell],
        );
        refined.sort_by(|l, r| r.score.total_cmp(&l.score));
        refined.truncate(pre);
        let corners: Vec<[f32; 4]> = refined.iter().map(|r| r.corners).collect();
        let dead = refined.iter().map(|r| !r.big_enough).collect();
        let kept = suppress(&corners, dead, threshold, post, offset);
        for &k in &kept {
            rois.extend(refined[k].corners.map(f64::from));
            roi_scores.push(f64::from(refined[k].score));
        }
        per_image.push(kept.len() as i128);
    }
    let count = roi_scores.len();
    let et = call.out_type(0)?;
    Ok(vec![
        from_f64s(et, vec![count, 4], &rois)?,
        from_f64s(call.out_type(1)?, vec![count], &roi_scores)?,
        from_i128s(call.out_type(2)?, vec![batch], &per_image)?,
    ])
}
