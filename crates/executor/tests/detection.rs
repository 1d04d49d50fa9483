//! NonMaxSuppression and GridSample values computed by hand: the padding
//! of the NMS versions with a fixed output size, soft suppression with and
//! without the version-5 IoU cut, center-encoded boxes, the suppression of
//! disjoint boxes at an IoU threshold of 0 (at or above the threshold, as
//! OpenVINO's CPU plugin); GridSample's modes, paddings and alignments.

mod common;

use std::collections::HashMap;

use common::{Net, Out};
use executor::Tensor;

/// Runs one NonMaxSuppression layer on boxes `[1, N, 4]` and scores
/// `[1, 1, N]` (Parameters) with Const max, IoU and score thresholds and,
/// when given, sigma.
fn nms(
    version: &str,
    attrs: &str,
    boxes: &[f32],
    scores: &[f32],
    thresholds: (i64, f32, f32, Option<f32>),
) -> HashMap<String, Tensor> {
    let n = scores.len();
    let mut net = Net::new();
    let b = net.param("boxes", "f32", "1,?,4");
    let s = net.param("scores", "f32", "1,1,?");
    let (max, iou, score, sigma) = thresholds;
    let mut inputs: Vec<Out> = vec![
        b,
        s,
        net.i64s("max", &[], &[max]),
        net.f32s("iou", &[], &[iou]),
        net.f32s("score", &[], &[score]),
    ];
    if let Some(sigma) = sigma {
        inputs.push(net.f32s("sigma", &[], &[sigma]));
    }
    let outputs = if version == "opset5" || version == "opset9" {
        3
    } else {
        1
    };
    let outs = net.op_multi(
        "nms",
        "NonMaxSuppression",
        version,
        attrs,
        &inputs,
        vec![None; outputs],
    );
    for (k, o) in outs.into_iter().enumerate() {
        net.result(&format!("out{k}"), o);
    }
    let boxes = Tensor::from_vec(vec![1, n, 4], boxes.to_vec()).unwrap();
    let scores = Tensor::from_vec(vec![1, 1, n], scores.to_vec()).unwrap();
    net.exec(vec![("boxes", boxes), ("scores", scores)])
        .unwrap()
}

/// Two boxes of area 4 sharing half of each: IoU 2 / 6 = 1/3.
const OVERLAPPING: [f32; 8] = [0.0, 0.0, 2.0, 2.0, 0.0, 1.0, 2.0, 3.0];

#[test]
fn padded_versions_fill_unused_rows_with_minus_one() {
    // Three copies of one box: the first suppresses the others.
    let boxes = [0.0, 0.0, 1.0, 1.0].repeat(3);
    let out = nms(
        "opset4",
        r#"box_encoding="corner" sort_result_descending="false" output_type="i32""#,
        &boxes,
        &[0.5, 0.9, 0.7],
        (3, 0.5, 0.0, None),
    );
    let t = &out["out0"];
    assert_eq!(t.shape, vec![3, 3]);
    assert_eq!(
        t.to_vec::<i32>().unwrap(),
        vec![0, 0, 1, -1, -1, -1, -1, -1, -1]
    );
}

#[test]
fn soft_suppression_decays_scores_and_v5_also_cuts_by_iou() {
    let weight = (-1.0f32 / 9.0).exp(); // sigma 0.5: exp(-0.5 / 0.5 * (1/3)^2)
    let v9 = nms(
        "opset9",
        r#"box_encoding="corner" sort_result_descending="true""#,
        &OVERLAPPING,
        &[0.9, 0.8],
        (5, 0.3, 0.0, Some(0.5)),
    );
    assert_eq!(v9["out0"].to_vec::<i64>().unwrap(), vec![0, 0, 0, 0, 0, 1]);
    let scores = v9["out1"].to_vec::<f32>().unwrap();
    assert_eq!(scores[..3], [0.0, 0.0, 0.9]);
    assert!((scores[5] - 0.8 * weight).abs() < 1e-6, "{scores:?}");
    assert_eq!(v9["out2"].to_vec::<i64>().unwrap(), vec![2]);
    // Version 5: IoU 1/3 above the threshold 0.3 zeroes the weight.
    let v5 = nms(
        "opset5",
        r#"box_encoding="corner" sort_result_descending="true""#,
        &OVERLAPPING,
        &[0.9, 0.8],
        (5, 0.3, 0.0, Some(0.5)),
    );
    assert_eq!(v5["out0"].shape, vec![1, 3]);
    assert_eq!(v5["out2"].to_vec::<i64>().unwrap(), vec![1]);
}

#[test]
fn center_boxes_and_the_iou_threshold_bound() {
    // The same two boxes as centers (x, y, w, h): IoU 1/3 keeps both at a
    // threshold of 0.34 and drops the second at 0.3.
    let center = [1.0, 1.0, 2.0, 2.0, 2.0, 1.0, 2.0, 2.0];
    let attrs = r#"box_encoding="center" sort_result_descending="false""#;
    let kept = nms("opset9", attrs, &center, &[0.9, 0.8], (5, 0.34, 0.0, None));
    assert_eq!(kept["out2"].to_vec::<i64>().unwrap(), vec![2]);
    let cut = nms("opset9", attrs, &center, &[0.9, 0.8], (5, 0.3, 0.0, None));
    assert_eq!(cut["out2"].to_vec::<i64>().unwrap(), vec![1]);
    // Disjoint boxes have IoU 0, which an IoU threshold of 0 reaches.
    let disjoint = [0.0, 0.0, 1.0, 1.0, 5.0, 5.0, 6.0, 6.0];
    let one = nms("opset9", attrs, &disjoint, &[0.9, 0.8], (5, 0.0, 0.0, None));
    assert_eq!(one["out0"].to_vec::<i64>().unwrap(), vec![0, 0, 0]);
    // Scores at or below the score threshold are never candidates.
    let none = nms("opset9", attrs, &disjoint, &[0.5, 0.5], (5, 0.5, 0.5, None));
    assert_eq!(none["out0"].shape, vec![0, 3]);
}

/// GridSample-9 of data `[[1, 2], [3, 4]]` (`[1, 1, 2, 2]`) at grid points
/// `(x, y)`.
fn grid_sample(attrs: &str, points: &[f32]) -> Vec<f32> {
    let mut net = Net::new();
    let data = net.f32s("data", &[1, 1, 2, 2], &[1.0, 2.0, 3.0, 4.0]);
    let grid = net.param("grid", "f32", "1,1,?,2");
    let o = net.op("gs", "GridSample", "opset9", attrs, &[data, grid], None);
    net.result("out", o);
    let grid = Tensor::from_vec(vec![1, 1, points.len() / 2, 2], points.to_vec()).unwrap();
    let out = net.exec(vec![("grid", grid)]).unwrap();
    out["out"].to_vec::<f32>().unwrap()
}

#[test]
fn grid_sample_modes_and_paddings() {
    let bilinear = r#"align_corners="false" mode="bilinear" padding_mode="zeros""#;
    // The center is the mean; a corner pixel's center is half of it (its
    // zero neighbours weigh half) without align_corners.
    assert_eq!(grid_sample(bilinear, &[0.0, 0.0, -0.5, -0.5]), [2.5, 1.0]);
    assert_eq!(grid_sample(bilinear, &[-1.0, -1.0]), [0.25]);
    let aligned = r#"align_corners="true" mode="bilinear" padding_mode="zeros""#;
    assert_eq!(grid_sample(aligned, &[-1.0, -1.0, 1.0, 1.0]), [1.0, 4.0]);
    // (1.5, -1.5) maps to column 2 and row -1, mirrored about the outer
    // edges to column 1 and row 0: the sample 2; border clamps to the same.
    let reflection = r#"align_corners="false" mode="nearest" padding_mode="reflection""#;
    assert_eq!(grid_sample(reflection, &[1.5, -1.5]), [2.0]);
    let border = r#"align_corners="false" mode="nearest" padding_mode="border""#;
    assert_eq!(grid_sample(border, &[1.5, -1.5]), [2.0]);
    // Nearest rounds the half of (0, 0) (at 0.5, 0.5) to even: row 0, column 0.
    let nearest = r#"align_corners="false" mode="nearest" padding_mode="zeros""#;
    assert_eq!(grid_sample(nearest, &[0.0, 0.0]), [1.0]);
    // Bicubic reproduces a constant: border padding of a 1-valued plane
    // reads 1 everywhere, so the weights must sum to 1.
    let bicubic = r#"align_corners="false" mode="bicubic" padding_mode="border""#;
    let mut net = Net::new();
    let data = net.f32s("data", &[1, 1, 2, 2], &[1.0; 4]);
    let grid = net.f32s("grid", &[1, 1, 1, 2], &[0.3, -0.7]);
    let o = net.op("gs", "GridSample", "opset9", bicubic, &[data, grid], None);
    net.result("out", o);
    let v = net.exec(vec![]).unwrap()["out"].to_vec::<f32>().unwrap();
    assert!((v[0] - 1.0).abs() < 1e-6, "{v:?}");
}
