//! DetectionOutput-1/-8 as OpenVINO's CPU plugin computes it (in `f32`;
//! version 1 runs as version 8 there, the class count read from the class
//! predictions).
//!
//! Per image: the priors (up to the first image id -1 of unnormalized ones)
//! are decoded by the box predictions, first by the auxiliary ones when
//! there are five inputs (and an auxiliary objectness below
//! `objectness_score` turns a prior's scores into background only). Caffe
//! style: per class other than the background, the priors scoring above
//! `confidence_threshold`, best first (ties: lower prior), cut to `top_k`,
//! then greedy suppression of an IoU above `nms_threshold`. MXNet style
//! (`decrease_label_id`): each prior votes for its best class other than 0
//! scoring at least the threshold, the votes are cut to `top_k` and
//! suppressed within their class. With `keep_top_k` not -1 and more
//! detections than it, the best `keep_top_k` of the image are kept (ties:
//! lower prior). Rows are written image by image, class by class, the
//! remaining rows zero, the first of them with image id -1.

use shape_infer::ops::detection_output::{attributes, Attrs};
use shape_infer::registry::OpsetFamily;

use super::{from_f64s, Call, KResult};
use crate::tensor::{check_scratch, Tensor};

/// A decoded box `(xmin, ymin, xmax, ymax)`.
type Corners = [f32; 4];

/// The sizes of one run.
struct Dims {
    images: usize,
    priors: usize,
    classes: usize,
    /// Classes with their own locations: 1 with `share_location`.
    loc_classes: usize,
    prior_size: usize,
    /// Whether each image has its own priors.
    priors_per_image: bool,
}

/// What the selection of one image reads.
struct Image<'a> {
    n: usize,
    /// The image's scores, `[class][prior]`.
    scores: &'a [f32],
    /// The class predictions of every image, `[image][prior][class]`.
    conf: &'a [f32],
    arm_conf: Option<&'a [f32]>,
    decoded: &'a Decoded,
    /// The image's priors before an image id of -1.
    actual: usize,
}

/// Decoded boxes and their areas, `[image][loc class][prior]`.
struct Decoded {
    boxes: Vec<Corners>,
    sizes: Vec<f32>,
}

fn dims(call: &Call<'_>, a: &Attrs) -> KResult<Dims> {
    let shape = |i: usize| call.input(i).map(|t| t.shape.clone());
    let (loc, conf, priors) = (shape(0)?, shape(1)?, shape(2)?);
    let (&[images, loc_len], &[conf_images, conf_len], &[prior_batch, prior_rows, prior_len]) =
        (loc.as_slice(), conf.as_slice(), priors.as_slice())
    else {
        return Err(format!(
            "box logits {loc:?}, class predictions {conf:?} and proposals {priors:?} must be 2-D, 2-D and 3-D"
        )
        .into());
    };
    let prior_size = a.prior_size() as usize;
    let rows = if a.variance_encoded_in_target { 1 } else { 2 };
    if prior_len % prior_size != 0
        || prior_rows != rows
        || (prior_batch != 1 && prior_batch != images)
    {
        return Err(format!(
            "proposals {priors:?} do not fit {images} images of [{rows}, P*{prior_size}]"
        )
        .into());
    }
    let priors = prior_len / prior_size;
    if priors == 0 || conf_len % priors != 0 || conf_images != images {
        return Err(format!("class predictions {conf:?} do not fit {priors} priors").into());
    }
    let classes = conf_len / priors;
    let loc_classes = if a.share_location { 1 } else { classes };
    if loc_len != priors * loc_classes * 4 {
        return Err(format!("box logits {loc:?} do not fit {priors} priors").into());
    }
    if a.decrease_label_id && a.background_label_id != 0 {
        return Err(
            "decrease_label_id needs background_label_id 0 (as OpenVINO's CPU plugin)".into(),
        );
    }
    Ok(Dims {
        images,
        priors,
        classes,
        loc_classes,
        prior_size,
        priors_per_image: prior_batch != 1,
    })
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let version = OpsetFamily::parse(&call.node.op_type.version).map_or(8, |(_, v)| v);
    let a = attributes(&call.node.attributes, version).map_err(|e| e.to_string())?;
    let d = dims(call, &a)?;
    check_scratch(
        d.images.saturating_mul(d.classes).saturating_mul(d.priors),
        32,
        "DetectionOutput",
    )?;
    let loc = call.input_f32s(0)?;
    let conf = call.input_f32s(1)?;
    let priors = call.input_f32s(2)?;
    let arm = if call.inputs.len() == 5 {
        let (arm_conf, arm_loc) = (call.input_f32s(3)?, call.input_f32s(4)?);
        if arm_conf.len() != d.images * d.priors * 2 || arm_loc.len() != loc.len() {
            return Err(format!(
                "the auxiliary predictions ({} and {} values) do not fit {} images of {} priors",
                arm_conf.len(),
                arm_loc.len(),
                d.images,
                d.priors
            )
            .into());
        }
        Some((arm_conf, arm_loc))
    } else {
        None
    };
    let actual = actual_priors(&priors, &a, &d);
    let scores = reorder_scores(&conf, arm.as_ref().map(|(c, _)| c.as_slice()), &a, &d);
    let decoded = decode_all(
        &priors,
        &loc,
        arm.as_ref().map(|(_, l)| l.as_slice()),
        &actual,
        &a,
        &d,
    );
    let rows = match call.out_shape(0)?.as_slice() {
        &[1, 1, rows, 7] => rows,
        other => return Err(format!("inferred output {other:?} is not [1, 1, R, 7]").into()),
    };
    let mut out = vec![0f64; rows * 7];
    let mut count = 0;
    for n in 0..d.images {
        let scores = &scores[n * d.classes * d.priors..(n + 1) * d.classes * d.priors];
        let image = Image {
            n,
            scores,
            conf: &conf,
            arm_conf: arm.as_ref().map(|(c, _)| c.as_slice()),
            decoded: &decoded,
            actual: actual[n],
        };
        let kept = if a.decrease_label_id {
            select_mxnet(&image, &a, &d)
        } else {
            select_caffe(&image, &a, &d)
        };
        let kept = keep_top(kept, scores, &a, &d);
        for (class, picks) in kept.iter().enumerate() {
            for &p in picks {
                if count >= rows {
                    return Err(format!("more than the {rows} inferred detections").into());
                }
                let mut b = decoded.boxes[box_index(n, class, p, &d)];
                if a.clip_after_nms {
                    b = b.map(|v| v.clamp(0.0, 1.0));
                }
                let label = if a.decrease_label_id {
                    class as f64 - 1.0
                } else {
                    class as f64
                };
                let row = [
                    n as f64,
                    label,
                    f64::from(scores[class * d.priors + p]),
                    f64::from(b[0]),
                    f64::from(b[1]),
                    f64::from(b[2]),
                    f64::from(b[3]),
                ];
                out[count * 7..count * 7 + 7].copy_from_slice(&row);
                count += 1;
            }
        }
    }
    if count < rows {
        out[count * 7] = -1.0;
    }
    Ok(vec![from_f64s(
        call.out_type(0)?,
        vec![1, 1, rows, 7],
        &out,
    )?])
}

/// The priors of each image before the first image id of -1 (unnormalized
/// priors only).
fn actual_priors(priors: &[f32], a: &Attrs, d: &Dims) -> Vec<usize> {
    let stride = prior_image_stride(a, d);
    let batches = if d.priors_per_image { d.images } else { 1 };
    let mut actual: Vec<usize> = (0..batches)
        .map(|n| {
            if a.normalized {
                return d.priors;
            }
            let start = n * stride;
            (0..d.priors)
                .position(|p| priors.get(start + p * d.prior_size) == Some(&-1.0))
                .unwrap_or(d.priors)
        })
        .collect();
    actual.resize(d.images, actual.first().copied().unwrap_or(d.priors));
    actual
}

/// The values of one image's priors (with their variances unless they are
/// in the target).
fn prior_image_stride(a: &Attrs, d: &Dims) -> usize {
    let rows = if a.variance_encoded_in_target { 1 } else { 2 };
    rows * d.priors * d.prior_size
}

/// The scores as `[image][class][prior]`; a prior whose auxiliary
/// objectness is below `objectness_score` scores 1 for the background and 0
/// for the other classes.
fn reorder_scores(conf: &[f32], arm: Option<&[f32]>, a: &Attrs, d: &Dims) -> Vec<f32> {
    let (classes, priors) = (d.classes, d.priors);
    let mut out = vec![0f32; d.images * classes * priors];
    for n in 0..d.images {
        for p in 0..priors {
            let background_only =
                arm.is_some_and(|arm| arm[n * priors * 2 + p * 2 + 1] < a.objectness_score);
            for c in 0..classes {
                out[(n * classes + c) * priors + p] = if background_only {
                    f32::from(u8::from(c as i64 == a.background_label_id))
                } else {
                    conf[(n * priors + p) * classes + c]
                };
            }
        }
    }
    out
}

fn box_index(image: usize, class: usize, prior: usize, d: &Dims) -> usize {
    let class = if d.loc_classes == 1 { 0 } else { class };
    (image * d.loc_classes + class) * d.priors + prior
}

/// Every image's priors decoded for every location class (the background's
/// own locations are skipped, as the CPU plugin's Caffe path).
fn decode_all(
    priors: &[f32],
    loc: &[f32],
    arm_loc: Option<&[f32]>,
    actual: &[usize],
    a: &Attrs,
    d: &Dims,
) -> Decoded {
    let total = d.images * d.loc_classes * d.priors;
    let mut out = Decoded {
        boxes: vec![[0.0; 4]; total],
        sizes: vec![0.0; total],
    };
    let stride = prior_image_stride(a, d);
    for (n, &image_actual) in actual.iter().enumerate() {
        let start = if d.priors_per_image { n * stride } else { 0 };
        let image_priors = &priors[start..];
        // The variances follow the priors of the image.
        let variances = &image_priors[d.priors * d.prior_size..];
        for c in 0..d.loc_classes {
            if d.loc_classes > 1 && c as i64 == a.background_label_id {
                continue;
            }
            let deltas = |source: &[f32], p: usize| -> Corners {
                let at = (n * d.priors + p) * d.loc_classes * 4 + c * 4;
                [source[at], source[at + 1], source[at + 2], source[at + 3]]
            };
            let offset = usize::from(!a.normalized);
            let prior = |p: usize| -> Corners {
                let at = p * d.prior_size + offset;
                [
                    image_priors[at],
                    image_priors[at + 1],
                    image_priors[at + 2],
                    image_priors[at + 3],
                ]
            };
            let variance = |p: usize| -> Corners {
                [
                    variances[p * 4],
                    variances[p * 4 + 1],
                    variances[p * 4 + 2],
                    variances[p * 4 + 3],
                ]
            };
            let base = (n * d.loc_classes + c) * d.priors;
            let boxes = &mut out.boxes[base..base + d.priors];
            let first = arm_loc.unwrap_or(loc);
            for (p, b) in boxes.iter_mut().enumerate().take(image_actual) {
                *b = decode(prior(p), deltas(first, p), variance, p, a);
            }
            if arm_loc.is_some() {
                // The auxiliary deltas refined the priors of the image; the
                // box deltas then refine every one of those boxes.
                for (p, b) in boxes.iter_mut().enumerate() {
                    *b = decode(*b, deltas(loc, p), variance, p, a);
                }
            }
            let sizes = &mut out.sizes[base..base + d.priors];
            for (size, b) in sizes.iter_mut().zip(&out.boxes[base..base + d.priors]) {
                *size = (b[2] - b[0]) * (b[3] - b[1]);
            }
        }
    }
    out
}

/// One prior decoded by its deltas (`CORNER`: offsets of the corners;
/// `CENTER_SIZE`: of the center, scaled by the size, and log-scales of the
/// size), with the variance unless it is in the target.
fn decode(
    prior: Corners,
    delta: Corners,
    variance: impl Fn(usize) -> Corners,
    p: usize,
    a: &Attrs,
) -> Corners {
    let mut prior = prior;
    if !a.normalized {
        prior[0] /= a.input_width;
        prior[1] /= a.input_height;
        prior[2] /= a.input_width;
        prior[3] /= a.input_height;
    }
    let v = if a.variance_encoded_in_target {
        [1.0; 4]
    } else {
        variance(p)
    };
    let mut b = if a.center_size {
        let width = prior[2] - prior[0];
        let height = prior[3] - prior[1];
        let center_x = (prior[0] + prior[2]) / 2.0;
        let center_y = (prior[1] + prior[3]) / 2.0;
        let (cx, cy, w, h) = if a.variance_encoded_in_target {
            (
                delta[0] * width + center_x,
                delta[1] * height + center_y,
                delta[2].exp() * width,
                delta[3].exp() * height,
            )
        } else {
            (
                v[0] * delta[0] * width + center_x,
                v[1] * delta[1] * height + center_y,
                (v[2] * delta[2]).exp() * width,
                (v[3] * delta[3]).exp() * height,
            )
        };
        [cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0]
    } else if a.variance_encoded_in_target {
        [0, 1, 2, 3].map(|i| prior[i] + delta[i])
    } else {
        [0, 1, 2, 3].map(|i| prior[i] + v[i] * delta[i])
    };
    if a.clip_before_nms {
        b = b.map(|x| x.clamp(0.0, 1.0));
    }
    b
}

/// The CPU plugin's Jaccard overlap: 0 for boxes apart, else the
/// intersection over the union of the two decoded areas (which, unlike
/// NonMaxSuppression's IoU, may be negative for an inverted box).
fn overlap(decoded: &Decoded, i: usize, j: usize) -> f32 {
    let (a, b) = (decoded.boxes[i], decoded.boxes[j]);
    if b[0] > a[2] || b[2] < a[0] || b[1] > a[3] || b[3] < a[1] {
        return 0.0;
    }
    let width = a[2].min(b[2]) - a[0].max(b[0]);
    let height = a[3].min(b[3]) - a[1].max(b[1]);
    if width <= 0.0 || height <= 0.0 {
        return 0.0;
    }
    let intersection = width * height;
    intersection / (decoded.sizes[i] + decoded.sizes[j] - intersection)
}

/// `indices` sorted best score first (ties: lower index), cut to `top_k`
/// (-1: all).
fn top(mut indices: Vec<usize>, score: impl Fn(usize) -> f32, top_k: i64) -> Vec<usize> {
    indices.sort_by(|&x, &y| score(y).total_cmp(&score(x)).then(x.cmp(&y)));
    if top_k != -1 {
        indices.truncate(usize::try_from(top_k).unwrap_or(0));
    }
    indices
}

/// Caffe style: per class, thresholded, top-k and greedy suppression; the
/// kept priors of each class, best first.
fn select_caffe(image: &Image<'_>, a: &Attrs, d: &Dims) -> Vec<Vec<usize>> {
    let (n, decoded) = (image.n, image.decoded);
    (0..d.classes)
        .map(|c| {
            if c as i64 == a.background_label_id {
                return Vec::new();
            }
            let class_scores = &image.scores[c * d.priors..(c + 1) * d.priors];
            let candidates = (0..image.actual)
                .filter(|&p| class_scores[p] > a.confidence_threshold)
                .collect();
            let mut kept: Vec<usize> = Vec::new();
            for p in top(candidates, |p| class_scores[p], a.top_k) {
                let i = box_index(n, c, p, d);
                if kept
                    .iter()
                    .all(|&k| overlap(decoded, i, box_index(n, c, k, d)) <= a.nms_threshold)
                {
                    kept.push(p);
                }
            }
            kept
        })
        .collect()
}

/// MXNet style: each prior's best class other than 0 (scoring at least the
/// threshold), top-k over the image, then suppression within each class.
fn select_mxnet(image: &Image<'_>, a: &Attrs, d: &Dims) -> Vec<Vec<usize>> {
    let (n, decoded) = (image.n, image.decoded);
    let mut votes = Vec::new();
    for p in 0..image.actual {
        let background_only = image
            .arm_conf
            .is_some_and(|arm| arm[n * d.priors * 2 + p * 2 + 1] < a.objectness_score);
        let mut best = (-1.0f32, 0usize);
        for c in 1..d.classes {
            let score = if background_only {
                f32::from(u8::from(c as i64 == a.background_label_id))
            } else {
                image.conf[(n * d.priors + p) * d.classes + c]
            };
            if score >= a.confidence_threshold && score > best.0 {
                best = (score, c);
            }
        }
        if best.1 > 0 {
            votes.push(best.1 * d.priors + p);
        }
    }
    let mut kept: Vec<Vec<usize>> = vec![Vec::new(); d.classes];
    for vote in top(votes, |v| image.scores[v], a.top_k) {
        let (c, p) = (vote / d.priors, vote % d.priors);
        let i = box_index(n, c, p, d);
        if kept[c]
            .iter()
            .all(|&k| overlap(decoded, i, box_index(n, c, k, d)) <= a.nms_threshold)
        {
            kept[c].push(p);
        }
    }
    kept
}

/// The best `keep_top_k` detections of the image (ties: lower prior), each
/// class's in score order, when there are more (`keep_top_k` -1: all).
fn keep_top(kept: Vec<Vec<usize>>, scores: &[f32], a: &Attrs, d: &Dims) -> Vec<Vec<usize>> {
    let total: usize = kept.iter().map(Vec::len).sum();
    let Ok(keep) = usize::try_from(a.keep_top_k) else {
        return kept;
    };
    if total <= keep {
        return kept;
    }
    let mut all: Vec<(f32, usize, usize)> = kept
        .iter()
        .enumerate()
        .flat_map(|(c, picks)| picks.iter().map(move |&p| (scores[c * d.priors + p], c, p)))
        .collect();
    all.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.2.cmp(&y.2)));
    all.truncate(keep);
    let mut out = vec![Vec::new(); d.classes];
    for (_, c, p) in all {
        out[c].push(p);
    }
    out
}
