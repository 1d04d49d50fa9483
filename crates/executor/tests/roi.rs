//! ROI kernels on hand-computed values and on boxes that name no image or
//! are too large to sample: typed errors, never a panic.

mod common;

use common::Net;
use executor::Tensor;

/// Runs one op on a `[1, 1, 4, 4]` map of `0..16` and the boxes Parameter
/// `rois` (`[R, width]`), with the extra Const inputs `extra` adds.
fn run_on_map(
    op: &str,
    version: &str,
    attrs: &str,
    rois: &[f32],
    width: usize,
    extra: impl FnOnce(&mut Net) -> Vec<common::Out>,
) -> Result<Vec<f32>, String> {
    let mut net = Net::new();
    let map: Vec<f32> = (0..16).map(|v| v as f32).collect();
    let data = net.f32s("data", &[1, 1, 4, 4], &map);
    let r = net.param("rois", "f32", &format!("?,{width}"));
    let mut inputs = vec![data, r];
    inputs.extend(extra(&mut net));
    let o = net.op("roi", op, version, attrs, &inputs, None);
    net.result("out", o);
    let boxes = Tensor::from_vec(vec![rois.len() / width, width], rois.to_vec()).unwrap();
    net.exec(vec![("rois", boxes)])
        .map(|out| out["out"].to_vec::<f32>().unwrap())
        .map_err(|e| e.to_string())
}

const MAX_POOL: &str = r#"pooled_h="2" pooled_w="2" spatial_scale="1" method="max""#;

#[test]
fn roi_pooling_max_takes_each_bins_maximum() {
    // The whole 4x4 map in 2x2 bins: the bottom-right cell of each.
    let out = run_on_map(
        "ROIPooling",
        "opset2",
        MAX_POOL,
        &[0.0, 0.0, 0.0, 3.0, 3.0],
        5,
        |_| vec![],
    );
    assert_eq!(out.unwrap(), [5.0, 7.0, 13.0, 15.0]);
}

#[test]
fn a_box_of_another_image_is_an_error() {
    let err = run_on_map(
        "ROIPooling",
        "opset2",
        MAX_POOL,
        &[1.0, 0.0, 0.0, 3.0, 3.0],
        5,
        |_| vec![],
    );
    assert!(err.unwrap_err().contains("names batch 1"));
    let align = r#"pooled_h="1" pooled_w="1" sampling_ratio="1" spatial_scale="1" mode="avg""#;
    let err = run_on_map(
        "ROIAlign",
        "opset3",
        align,
        &[0.0, 0.0, 2.0, 2.0],
        4,
        |net| vec![net.i64s("idx", &[1], &[3])],
    );
    assert!(err.unwrap_err().contains("names batch 3"));
}

#[test]
fn roi_align_averages_bilinear_samples() {
    // One sample at the centre of the box [0, 2] x [0, 2]: cell (1, 1) = 5.
    let align = r#"pooled_h="1" pooled_w="1" sampling_ratio="1" spatial_scale="1" mode="avg""#;
    let out = run_on_map(
        "ROIAlign",
        "opset3",
        align,
        &[0.0, 0.0, 2.0, 2.0],
        4,
        |net| vec![net.i64s("idx", &[1], &[0])],
    );
    assert_eq!(out.unwrap(), [5.0]);
    // half_pixel_for_nn shifts the box by -0.5: the sample at (0.5, 0.5)
    // weighs cells 0, 1, 4, 5 equally.
    let for_nn = r#"pooled_h="1" pooled_w="1" sampling_ratio="1" spatial_scale="1" mode="avg" aligned_mode="half_pixel_for_nn""#;
    let out = run_on_map(
        "ROIAlign",
        "opset9",
        for_nn,
        &[0.0, 0.0, 2.0, 2.0],
        4,
        |net| vec![net.i64s("idx", &[1], &[0])],
    );
    assert_eq!(out.unwrap(), [2.5]);
    // half_pixel at scale 0.5: the box [-0.25, 0.75]^2, not widened to 1x1
    // first, sampled at (0.25, 0.25): 0.1875 * 1 + 0.1875 * 4 + 0.0625 * 5.
    let half = r#"pooled_h="1" pooled_w="1" sampling_ratio="1" spatial_scale="0.5" mode="avg" aligned_mode="half_pixel""#;
    let out = run_on_map(
        "ROIAlign",
        "opset9",
        half,
        &[0.0, 0.0, 2.0, 2.0],
        4,
        |net| vec![net.i64s("idx", &[1], &[0])],
    );
    assert_eq!(out.unwrap(), [1.25]);
}

#[test]
fn a_box_too_large_to_sample_adaptively_is_an_error() {
    let align = r#"pooled_h="1" pooled_w="1" sampling_ratio="0" spatial_scale="1" mode="avg""#;
    let err = run_on_map(
        "ROIAlign",
        "opset3",
        align,
        &[0.0, 0.0, 1e12, 1e12],
        4,
        |net| vec![net.i64s("idx", &[1], &[0])],
    );
    assert!(err.unwrap_err().contains("over the limit"));
}
