//! NonMaxSuppression-1/-3/-4/-5/-9 and GridSample-9 on symbolic shapes:
//! the padded NMS sizes as expressions, the unpadded count as a fresh
//! symbol keeping its symbolic bound, and the spec checks as errors.

mod support;

use support::{Ir, Out};

/// boxes `[B, N, 4]`, scores `[B, 3, N]` and an NMS layer `nms` of
/// `version` with a Const max of `max` (none: no max input) and thresholds.
fn nms(version: &str, attrs: &[(&str, &str)], max: Option<i64>, outputs: usize) -> Ir {
    let mut net = Ir::new();
    let boxes = net.param("boxes", "B,N,4", "f32");
    let scores = net.param("scores", "B,3,N", "f32");
    let mut inputs: Vec<Out> = vec![boxes, scores];
    if let Some(m) = max {
        inputs.push(net.scalar("max", m));
        inputs.push(net.const_f32("iou", &[], &[0.5]));
    }
    let outs = net.layer("nms", "NonMaxSuppression", version, attrs, &inputs, outputs);
    for out in outs {
        net.result(out);
    }
    net
}

#[test]
fn padded_versions_give_the_size_as_an_expression() {
    let r = nms("opset1", &[], Some(2), 1).run_checked();
    r.clean();
    assert_eq!(r.shape("nms"), "[min(N, 6), 3]");
    assert_eq!(r.element_type("nms"), "i64");
    let r = nms("opset3", &[("output_type", "i32")], Some(2), 1).run_checked();
    assert_eq!(r.shape("nms"), "[min(N, 6), 3]");
    assert_eq!(r.element_type("nms"), "i32");
    let r = nms("opset4", &[], Some(2), 1).run_checked();
    r.clean();
    assert_eq!(r.shape("nms"), "[3*B*min(N, 2), 3]");
}

#[test]
fn unpadded_versions_count_with_a_symbolic_bound() {
    let r = nms("opset5", &[], Some(2), 3).run_checked();
    r.clean();
    let (upper, lo, hi) = r.bound_of("nms", 0);
    assert_eq!((upper.as_str(), lo, hi), ("3*B*min(N, 2)", Some(0), None));
    assert_eq!(r.shape_of("nms", 0), r.shape_of("nms", 1));
    assert_eq!(r.element_type("nms"), "i64");
    assert_eq!(r.tensor_of("nms", 1).element_type.to_string(), "f32");
    assert_eq!(r.shape_of("nms", 2), "[1]");
    // No max input: nothing is selected.
    let r = nms("opset9", &[], None, 3).run_checked();
    r.clean();
    assert_eq!(r.shape("nms"), "[0, 3]");
    // A max known only at run time: bounded by every box of every class.
    let mut net = Ir::new();
    let boxes = net.param("boxes", "B,N,4", "f32");
    let scores = net.param("scores", "B,3,N", "f32");
    let max = net.param("max", "", "i64");
    for (name, version, outputs) in [("v9", "opset9", 3), ("v4", "opset4", 1)] {
        let out = net.layer(
            name,
            "NonMaxSuppression",
            version,
            &[],
            &[boxes, scores, max],
            outputs,
        )[0];
        net.result(out);
    }
    let r = net.run_checked();
    r.clean();
    assert_eq!(r.bound_of("v9", 0).0, "3*B*N");
    assert_eq!(r.bound_of("v4", 0).0, "3*B*N");
}

#[test]
fn nms_spec_checks_are_errors() {
    let cases: &[(&str, &str, &str, &str)] = &[
        ("2,5,4", "3,1,5", "opset9", "batch dims"),
        ("2,5,4", "2,1,6", "opset9", "box counts"),
        ("2,5,5", "2,1,5", "opset5", "last dim of boxes"),
        ("2,5", "2,1,5", "opset5", "boxes (input 0) must be 3-D"),
    ];
    for &(boxes, scores, version, needle) in cases {
        let mut net = Ir::new();
        let b = net.param("boxes", boxes, "f32");
        let s = net.param("scores", scores, "f32");
        let out = net.op("nms", "NonMaxSuppression", version, &[], &[b, s]);
        net.result(out);
        net.run().error("nms", "nms-input", needle);
    }
    // A one-element threshold is fine from version 5 on, not before.
    for (version, ok) in [("opset5", true), ("opset4", false)] {
        let mut net = Ir::new();
        let b = net.param("boxes", "1,5,4", "f32");
        let s = net.param("scores", "1,1,5", "f32");
        let m = net.scalar("max", 2);
        let iou = net.const_f32("iou", &[1], &[0.5]);
        let outputs = if ok { 3 } else { 1 };
        let outs = net.layer(
            "nms",
            "NonMaxSuppression",
            version,
            &[],
            &[b, s, m, iou],
            outputs,
        );
        net.result(outs[0]);
        let r = net.run();
        if ok {
            assert!(r.errors().is_empty(), "{:?}", r.errors());
        } else {
            r.error(
                "nms",
                "nms-input",
                "iou_threshold (input 3) must be a scalar",
            );
        }
    }
    let r = nms("opset9", &[("box_encoding", "edges")], Some(1), 3).run();
    r.error("nms", "nms-attribute", "box_encoding");
}

fn grid_sample(data: &str, grid: &str, attrs: &[(&str, &str)]) -> support::Run {
    let mut net = Ir::new();
    let d = net.param("data", data, "f16");
    let g = net.param("grid", grid, "f32");
    let out = net.op("gs", "GridSample", "opset9", attrs, &[d, g]);
    net.result(out);
    net.run()
}

#[test]
fn grid_sample_takes_channels_from_the_data_and_size_from_the_grid() {
    let r = grid_sample("N,C,H,W", "N,Ho,Wo,2", &[("mode", "bicubic")]);
    r.clean();
    assert_eq!(r.shape("gs"), "[N, C, Ho, Wo]");
    assert_eq!(r.element_type("gs"), "f16");
    let r = grid_sample("...", "2,Ho,Wo,2", &[]);
    r.clean();
    let shape = r.shape("gs");
    assert!(
        shape.starts_with("[2, ") && shape.ends_with(", Ho, Wo]"),
        "{shape}"
    );
}

#[test]
fn grid_sample_spec_checks_are_errors() {
    grid_sample("1,2,3,3", "1,4,4,3", &[]).error("gs", "grid-sample-input", "must be 2");
    grid_sample("2,2,3,3", "1,4,4,2", &[]).error("gs", "grid-sample-input", "batch dims");
    grid_sample("2,3,3", "2,4,4,2", &[]).error("gs", "grid-sample-input", "4-D");
    grid_sample("1,2,3,3", "1,4,4,2", &[("padding_mode", "wrap")]).error(
        "gs",
        "grid-sample-attribute",
        "padding_mode",
    );
}
