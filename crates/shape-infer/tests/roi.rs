//! The ROI ops: symbolic shapes and the checks of their specifications
//! (OpenVINO's goldens are in `golden/roi_*`, `golden/psroi_*`,
//! `golden/deformable_psroi_*` and `golden/ed_*`).

mod support;
use support::Ir;

const POOL: &[(&str, &str)] = &[
    ("pooled_h", "2"),
    ("pooled_w", "3"),
    ("spatial_scale", "0.5"),
    ("method", "max"),
];

#[test]
fn roi_pooling_keeps_the_roi_count_symbolic() {
    let mut n = Ir::new();
    let feat = n.param("feat", "N,C,H,W", "f32");
    let rois = n.param("rois", "R,5", "f32");
    let p = n.op("p", "ROIPooling", "opset2", POOL, &[feat, rois]);
    let r = n.run_to(p);
    r.clean();
    assert_eq!(r.shape("p"), "[R, C, 2, 3]");
}

#[test]
fn roi_pooling_pooled_sizes_override_output_size() {
    let mut n = Ir::new();
    let feat = n.param("feat", "1,4,8,8", "f32");
    let rois = n.param("rois", "3,5", "f32");
    let p = n.op(
        "p",
        "ROIPooling",
        "opset2",
        &[
            ("output_size", "5, 5"),
            ("pooled_w", "4"),
            ("spatial_scale", "1"),
        ],
        &[feat, rois],
    );
    let r = n.run_to(p);
    r.clean();
    assert_eq!(r.shape("p"), "[3, 4, 5, 4]");
}

#[test]
fn roi_pooling_rejects_bad_boxes_and_attributes() {
    for (attrs, rois, rule) in [
        (POOL, "3,4", "roi-box-size"),
        (POOL, "3,5,1", "roi-input-rank"),
        (
            &[("pooled_h", "0"), ("pooled_w", "2"), ("spatial_scale", "1")][..],
            "3,5",
            "roi-pooled-size",
        ),
        (
            &[("pooled_h", "2"), ("pooled_w", "2"), ("spatial_scale", "0")][..],
            "3,5",
            "roi-spatial-scale",
        ),
        (
            &[
                ("pooled_h", "2"),
                ("pooled_w", "2"),
                ("spatial_scale", "1"),
                ("method", "avg"),
            ][..],
            "3,5",
            "roi-method",
        ),
    ] {
        let mut n = Ir::new();
        let feat = n.param("feat", "1,4,8,8", "f32");
        let rois = n.param("rois", rois, "f32");
        let p = n.op("p", "ROIPooling", "opset2", attrs, &[feat, rois]);
        n.run_to(p).error("p", rule, "");
    }
}

fn align_attrs(mode: &'static str) -> Vec<(&'static str, &'static str)> {
    vec![
        ("pooled_h", "2"),
        ("pooled_w", "2"),
        ("sampling_ratio", "0"),
        ("spatial_scale", "1"),
        ("mode", "avg"),
        ("aligned_mode", mode),
    ]
}

#[test]
fn roi_align_merges_the_roi_count_with_the_batch_indices() {
    let mut n = Ir::new();
    let data = n.param("data", "N,C,H,W", "f32");
    let rois = n.param("rois", "R,4", "f32");
    let idx = n.param("idx", "R", "i32");
    let v3 = n.op(
        "v3",
        "ROIAlign",
        "opset3",
        &align_attrs("x")[..5],
        &[data, rois, idx],
    );
    n.result(v3);
    let attrs = align_attrs("half_pixel");
    let v9 = n.op("v9", "ROIAlign", "opset9", &attrs, &[data, rois, idx]);
    let r = n.run_to(v9);
    r.clean();
    assert_eq!(r.shape("v3"), "[R, C, 2, 2]");
    assert_eq!(r.shape("v9"), "[R, C, 2, 2]");
}

#[test]
fn roi_align_checks_indices_modes_and_types() {
    let mut n = Ir::new();
    let data = n.param("data", "1,2,4,4", "f32");
    let rois = n.param("rois", "3,4", "f32");
    let idx = n.param("idx", "2", "i32");
    let a = n.op(
        "a",
        "ROIAlign",
        "opset9",
        &align_attrs("asymmetric"),
        &[data, rois, idx],
    );
    n.run_to(a).error("a", "roi-batch-indices", "one length");

    let mut n = Ir::new();
    let data = n.param("data", "1,2,4,4", "f32");
    let rois = n.param("rois", "3,4", "f32");
    let idx = n.param("idx", "3", "i32");
    let a = n.op(
        "a",
        "ROIAlign",
        "opset9",
        &align_attrs("pixel"),
        &[data, rois, idx],
    );
    n.run_to(a).error("a", "roi-aligned-mode", "pixel");

    let mut n = Ir::new();
    let data = n.param("data", "1,2,4,4", "f32");
    let rois = n.param("rois", "3,4", "f16");
    let idx = n.param("idx", "3", "i32");
    let a = n.op(
        "a",
        "ROIAlign",
        "opset9",
        &align_attrs("half_pixel"),
        &[data, rois, idx],
    );
    n.run_to(a).error("a", "element-type", "same element type");
}

#[test]
fn roi_align_rotated_takes_five_numbers_per_box() {
    let attrs = [
        ("pooled_h", "3"),
        ("pooled_w", "2"),
        ("sampling_ratio", "2"),
        ("spatial_scale", "1"),
        ("clockwise_mode", "true"),
    ];
    let mut n = Ir::new();
    let data = n.param("data", "N,C,H,W", "f32");
    let rois = n.param("rois", "R,5", "f32");
    let idx = n.param("idx", "R", "i64");
    let a = n.op(
        "a",
        "ROIAlignRotated",
        "opset15",
        &attrs,
        &[data, rois, idx],
    );
    let r = n.run_to(a);
    r.clean();
    assert_eq!(r.shape("a"), "[R, C, 3, 2]");

    let mut n = Ir::new();
    let data = n.param("data", "N,C,H,W", "f32");
    let rois = n.param("rois", "R,4", "f32");
    let idx = n.param("idx", "R", "i64");
    let a = n.op(
        "a",
        "ROIAlignRotated",
        "opset15",
        &attrs,
        &[data, rois, idx],
    );
    n.run_to(a).error("a", "roi-box-size", "must be 5");
}

#[test]
fn psroi_pooling_checks_the_channel_groups() {
    let avg = [
        ("output_dim", "2"),
        ("group_size", "2"),
        ("spatial_scale", "1"),
        ("mode", "average"),
    ];
    let mut n = Ir::new();
    let feat = n.param("feat", "N,8,H,W", "f32");
    let rois = n.param("rois", "R,5", "f32");
    let p = n.op("p", "PSROIPooling", "opset1", &avg, &[feat, rois]);
    let r = n.run_to(p);
    r.clean();
    assert_eq!(r.shape("p"), "[R, 2, 2, 2]");

    let bilinear = [
        ("output_dim", "2"),
        ("group_size", "3"),
        ("spatial_scale", "1"),
        ("mode", "bilinear"),
        ("spatial_bins_x", "2"),
        ("spatial_bins_y", "3"),
    ];
    let mut n = Ir::new();
    let feat = n.param("feat", "1,8,4,4", "f32");
    let rois = n.param("rois", "R,5", "f32");
    let p = n.op("p", "PSROIPooling", "opset1", &bilinear, &[feat, rois]);
    n.run_to(p).error("p", "roi-channels", "spatial_bins_x");
}

#[test]
fn deformable_psroi_pooling_with_and_without_offsets() {
    let attrs = [
        ("output_dim", "4"),
        ("group_size", "3"),
        ("spatial_scale", "0.5"),
        ("trans_std", "0.1"),
        ("part_size", "3"),
    ];
    let mut n = Ir::new();
    let data = n.param("data", "N,36,H,W", "f32");
    let rois = n.param("rois", "R,5", "f32");
    let off = n.param("off", "R,2,3,3", "f32");
    let a = n.op(
        "a",
        "DeformablePSROIPooling",
        "opset1",
        &attrs,
        &[data, rois],
    );
    n.result(a);
    let b = n.op(
        "b",
        "DeformablePSROIPooling",
        "opset1",
        &attrs,
        &[data, rois, off],
    );
    let r = n.run_to(b);
    r.clean();
    assert_eq!(r.shape("a"), "[R, 4, 3, 3]");
    assert_eq!(r.shape("b"), "[R, 4, 3, 3]");

    let mut n = Ir::new();
    let data = n.param("data", "N,36,H,W", "f32");
    let rois = n.param("rois", "R,5", "f32");
    let off = n.param("off", "R,2,3", "f32");
    let b = n.op(
        "b",
        "DeformablePSROIPooling",
        "opset1",
        &attrs,
        &[data, rois, off],
    );
    n.run_to(b).error("b", "roi-input-rank", "offsets");
}

#[test]
fn roi_feature_extractor_merges_the_level_channels() {
    let attrs = [
        ("output_size", "7"),
        ("sampling_ratio", "2"),
        ("pyramid_scales", "4,8"),
        ("aligned", "false"),
    ];
    let mut n = Ir::new();
    let rois = n.param("rois", "R,4", "f32");
    let l0 = n.param("l0", "1,C,H,W", "f32");
    let l1 = n.param("l1", "1,C,H2,W2", "f32");
    let outs = n.layer(
        "e",
        "ExperimentalDetectronROIFeatureExtractor",
        "opset6",
        &attrs,
        &[rois, l0, l1],
        2,
    );
    n.result(outs[0]);
    let r = n.run_to(outs[1]);
    r.clean();
    assert_eq!(r.shape_of("e", 0), "[R, C, 7, 7]");
    assert_eq!(r.shape_of("e", 1), "[R, 4]");

    let mut n = Ir::new();
    let rois = n.param("rois", "R,4", "f32");
    let l0 = n.param("l0", "1,3,8,8", "f32");
    let l1 = n.param("l1", "1,4,4,4", "f32");
    let outs = n.layer(
        "e",
        "ExperimentalDetectronROIFeatureExtractor",
        "opset6",
        &attrs,
        &[rois, l0, l1],
        2,
    );
    n.run_to(outs[0])
        .error("e", "roi-pyramid", "one channel count");
}

#[test]
fn topk_rois_and_prior_grid_shapes() {
    let mut n = Ir::new();
    let rois = n.param("rois", "R,4", "f32");
    let probs = n.param("probs", "R", "f32");
    let t = n.op(
        "t",
        "ExperimentalDetectronTopKROIs",
        "opset6",
        &[("max_rois", "5")],
        &[rois, probs],
    );
    let priors = n.param("priors", "P,4", "f32");
    let fm = n.param("fm", "1,C,H,W", "f32");
    let im = n.param("im", "1,3,IH,IW", "f32");
    let grid = "ExperimentalDetectronPriorGridGenerator";
    let flat = n.op(
        "flat",
        grid,
        "opset6",
        &[("flatten", "true")],
        &[priors, fm, im],
    );
    n.result(t);
    n.result(flat);
    let g = n.op(
        "g",
        grid,
        "opset6",
        &[("flatten", "false")],
        &[priors, fm, im],
    );
    let r = n.run_to(g);
    r.clean();
    assert_eq!(r.shape("t"), "[5, 4]");
    assert_eq!(r.shape("flat"), "[P*H*W, 4]");
    assert_eq!(r.shape("g"), "[H, W, P, 4]");

    let mut n = Ir::new();
    let rois = n.param("rois", "4,4", "f32");
    let probs = n.param("probs", "3", "f32");
    let t = n.op(
        "t",
        "ExperimentalDetectronTopKROIs",
        "opset6",
        &[("max_rois", "2")],
        &[rois, probs],
    );
    n.run_to(t).error("t", "roi-probabilities", "one count");
}
