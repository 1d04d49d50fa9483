//! DetectionOutput-1/-8, Proposal-1/-4, GenerateProposals-9 and the
//! ExperimentalDetectron detection ops on symbolic shapes: the row counts as
//! expressions of the input dims, the data-dependent counts as fresh
//! symbols with their bound, and the spec checks as errors.

mod support;

use support::Ir;

/// DetectionOutput of `version` on box logits `loc`, class predictions
/// `conf` and proposals `priors` (dims as text).
fn detection(version: &str, attrs: &[(&str, &str)], loc: &str, conf: &str, priors: &str) -> Ir {
    let mut net = Ir::new();
    let l = net.param("loc", loc, "f32");
    let c = net.param("conf", conf, "f32");
    let p = net.param("priors", priors, "f32");
    let d = net.op("det", "DetectionOutput", version, attrs, &[l, c, p]);
    net.result(d);
    net
}

#[test]
fn detection_rows_are_expressions_of_the_prior_dim() {
    let all = [
        ("num_classes", "3"),
        ("keep_top_k", "-1"),
        ("top_k", "-1"),
        ("normalized", "true"),
    ];
    let r = detection("opset1", &all, "N,Q", "N,K", "1,2,Q").run_checked();
    assert_eq!(r.shape("det"), "[1, 1, 3*N*(Q/4), 7]");
    let pixels = [("num_classes", "3"), ("keep_top_k", "-1"), ("top_k", "2")];
    let r = detection("opset1", &pixels, "N,Q", "N,K", "1,2,Q").run_checked();
    assert_eq!(r.shape("det"), "[1, 1, 6*N, 7]");
    let keep = [("keep_top_k", "10"), ("normalized", "true")];
    let r = detection("opset8", &keep, "N,24", "N,18", "1,2,24").run_checked();
    r.clean();
    assert_eq!(r.shape("det"), "[1, 1, 10*N, 7]");
}

#[test]
fn version_8_deduces_the_class_count() {
    let attrs = [
        ("keep_top_k", "-1"),
        ("top_k", "-1"),
        ("normalized", "true"),
    ];
    let r = detection("opset8", &attrs, "2,24", "2,18", "1,2,24").run_checked();
    r.clean();
    assert_eq!(r.shape("det"), "[1, 1, 36, 7]");
    // Per-class locations: the class count also from the box logits.
    let attrs = [
        ("keep_top_k", "-1"),
        ("top_k", "2"),
        ("share_location", "false"),
        ("normalized", "true"),
    ];
    let r = detection("opset8", &attrs, "1,72", "1,18", "1,2,24").run_checked();
    r.clean();
    assert_eq!(r.shape("det"), "[1, 1, 6, 7]");
}

#[test]
fn detection_dims_that_do_not_fit_are_errors() {
    let attrs = [
        ("num_classes", "3"),
        ("keep_top_k", "5"),
        ("normalized", "true"),
    ];
    let mut net = detection("opset1", &attrs, "1,24", "1,20", "1,2,24");
    net.run_checked()
        .error("det", "detection-input", "class predictions");
    net = detection("opset1", &attrs, "1,24", "1,18", "1,1,24");
    net.run_checked()
        .error("det", "detection-input", "proposals' dim 1");
    net = detection("opset1", &attrs, "1,24", "1,18", "1,2,22");
    net.run_checked()
        .error("det", "detection-input", "multiple of 4");
    net = detection("opset1", &attrs, "1,24", "1,18", "2,24");
    net.run_checked()
        .error("det", "detection-input", "must be 3-D");
    net = detection("opset1", &attrs, "1,24", "1,18", "3,2,24");
    net.run_checked()
        .error("det", "detection-input", "must be 1 or the image count");
    let code = [
        ("num_classes", "3"),
        ("keep_top_k", "5"),
        ("code_type", "caffe.PriorBoxParameter.CENTER"),
    ];
    detection("opset1", &code, "1,24", "1,18", "1,2,30")
        .run_checked()
        .error("det", "detection-attribute", "code_type");
}

/// Proposal of `version` on scores `probs`, deltas `deltas` and image info
/// `info` (dims as text).
fn proposal(version: &str, probs: &str, deltas: &str, info: &str, outputs: usize) -> Ir {
    let mut net = Ir::new();
    let p = net.param("probs", probs, "f32");
    let d = net.param("deltas", deltas, "f32");
    let i = net.param("info", info, "f32");
    let attrs = [("post_nms_topn", "7"), ("ratio", "0.5,1"), ("scale", "2")];
    for out in net.layer("prop", "Proposal", version, &attrs, &[p, d, i], outputs) {
        net.result(out);
    }
    net
}

#[test]
fn proposal_rows_are_the_batch_times_post_nms_topn() {
    let r = proposal("opset1", "N,4,H,W", "N,8,H,W", "3", 1).run_checked();
    r.clean();
    assert_eq!(r.shape("prop"), "[7*N, 5]");
    let r = proposal("opset4", "N,4,H,W", "N,8,H,W", "4", 2).run_checked();
    r.clean();
    assert_eq!(r.shape_of("prop", 0), "[7*N, 5]");
    assert_eq!(r.shape_of("prop", 1), "[7*N]");
}

#[test]
fn proposal_inputs_that_do_not_fit_are_errors() {
    proposal("opset1", "1,4,3,3", "1,6,3,3", "3", 1)
        .run_checked()
        .error("prop", "proposal-input", "anchor count");
    proposal("opset1", "1,4,3,3", "2,8,3,3", "3", 1)
        .run_checked()
        .error("prop", "proposal-input", "batch");
    proposal("opset4", "1,4,3,3", "1,8,3,3", "5", 2)
        .run_checked()
        .error("prop", "proposal-input", "3 or 4 elements");
    proposal("opset4", "1,4,3", "1,8,3,3", "3", 2)
        .run_checked()
        .error("prop", "proposal-input", "must be 4-D");
}

/// GenerateProposals on im_info `[B, 3]`, anchors `[H, W, A, 4]`, deltas
/// `[B, 4A, H, W]` and scores `[B, A, H, W]` (dims as text).
fn generate(attrs: &[(&str, &str)], anchors: &str, deltas: &str, scores: &str) -> Ir {
    let mut net = Ir::new();
    let info = net.param("info", "B,3", "f32");
    let a = net.param("anchors", anchors, "f32");
    let d = net.param("deltas", deltas, "f32");
    let s = net.param("scores", scores, "f32");
    for out in net.layer(
        "gen",
        "GenerateProposals",
        "opset9",
        attrs,
        &[info, a, d, s],
        3,
    ) {
        net.result(out);
    }
    net
}

#[test]
fn generate_proposals_count_is_bounded_by_every_limit() {
    let attrs = [
        ("pre_nms_count", "20"),
        ("post_nms_count", "6"),
        ("roi_num_type", "i32"),
    ];
    let r = generate(&attrs, "H,W,3,4", "B,12,H,W", "B,3,H,W").run_checked();
    r.clean();
    let (upper, lo, _) = r.bound_of("gen", 0);
    assert_eq!((upper.as_str(), lo), ("B*min(3*H*W, 6)", Some(0)));
    assert_eq!(
        r.shape_of("gen", 1),
        r.shape_of("gen", 0).replace(", 4]", "]")
    );
    assert_eq!(r.shape_of("gen", 2), "[B]");
    assert_eq!(r.tensor_of("gen", 2).element_type.to_string(), "i32");
}

#[test]
fn generate_proposals_checks_are_errors() {
    let attrs = [("pre_nms_count", "20"), ("post_nms_count", "6")];
    generate(&attrs, "3,5,3,4", "B,12,3,4", "B,3,3,4")
        .run_checked()
        .error("gen", "generate-proposals-input", "widths of anchors");
    generate(&attrs, "3,4,3,4", "B,8,3,4", "B,3,3,4")
        .run_checked()
        .error("gen", "generate-proposals-input", "deltas' dim 1");
    generate(&attrs, "3,4,3,5", "B,12,3,4", "B,3,3,4")
        .run_checked()
        .error("gen", "generate-proposals-input", "last dim");
    let eta = [
        ("pre_nms_count", "20"),
        ("post_nms_count", "6"),
        ("nms_eta", "0.5"),
    ];
    generate(&eta, "3,4,3,4", "B,12,3,4", "B,3,3,4")
        .run_checked()
        .error("gen", "generate-proposals-attribute", "nms_eta");
}

#[test]
fn experimental_detectron_outputs_have_the_attribute_sizes() {
    let mut net = Ir::new();
    let rois = net.param("rois", "R,4", "f32");
    let deltas = net.param("deltas", "R,12", "f32");
    let scores = net.param("scores", "R,3", "f32");
    let info = net.param("info", "1,3", "f32");
    let attrs = [
        ("num_classes", "3"),
        ("max_detections_per_image", "6"),
        ("post_nms_count", "8"),
        ("deltas_weights", "10,10,5,5"),
    ];
    let inputs = [rois, deltas, scores, info];
    let det = "ExperimentalDetectronDetectionOutput";
    for out in net.layer("det", det, "opset6", &attrs, &inputs, 3) {
        net.result(out);
    }
    let r = net.run_checked();
    r.clean();
    assert_eq!(r.shape_of("det", 0), "[6, 4]");
    assert_eq!(r.tensor_of("det", 1).element_type.to_string(), "i32");
    assert_eq!(r.shape_of("det", 2), "[6]");

    let mut net = Ir::new();
    let rois = net.param("rois", "R,4", "f32");
    let deltas = net.param("deltas", "R,8", "f32");
    let scores = net.param("scores", "R,3", "f32");
    let info = net.param("info", "1,3", "f32");
    let d = net.layer(
        "det",
        det,
        "opset6",
        &attrs,
        &[rois, deltas, scores, info],
        3,
    );
    net.result(d[0]);
    net.run_checked()
        .error("det", "ed-detection-input", "num_classes * 4");

    let mut net = Ir::new();
    let info = net.param("info", "3", "f32");
    let anchors = net.param("anchors", "K,4", "f32");
    let deltas = net.param("deltas", "12,H,W", "f32");
    let scores = net.param("scores", "3,H,W", "f32");
    let attrs = [("pre_nms_count", "30"), ("post_nms_count", "8")];
    let single = "ExperimentalDetectronGenerateProposalsSingleImage";
    let inputs = [info, anchors, deltas, scores];
    for out in net.layer("gen", single, "opset6", &attrs, &inputs, 2) {
        net.result(out);
    }
    let r = net.run_checked();
    r.clean();
    assert_eq!(r.shape_of("gen", 0), "[8, 4]");
    assert_eq!(r.shape_of("gen", 1), "[8]");
}

#[test]
fn detection_prefers_a_constant_prior_count_and_takes_f32_proposals() {
    // OpenVINO's type_prop `detection_output_v0_calculated_num_prior_boxes`:
    // the prior count from the auxiliary class predictions.
    let mut net = Ir::new();
    let l = net.param("loc", "4,L", "f16");
    let c = net.param("conf", "4,K", "f16");
    let p = net.param("priors", "B,2,Q", "f32");
    let ac = net.param("aux_conf", "4,20", "f16");
    let al = net.param("aux_loc", "4,L", "f16");
    let attrs = [
        ("num_classes", "2"),
        ("keep_top_k", "-1"),
        ("top_k", "-1"),
        ("share_location", "false"),
        ("normalized", "true"),
    ];
    let d = net.op(
        "det",
        "DetectionOutput",
        "opset1",
        &attrs,
        &[l, c, p, ac, al],
    );
    let r = net.run_to(d);
    r.clean();
    assert_eq!(r.shape("det"), "[1, 1, 80, 7]");
    assert_eq!(r.element_type("det"), "f16");
}
