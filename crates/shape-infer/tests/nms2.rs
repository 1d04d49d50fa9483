//! MatrixNms-8, MulticlassNms-8/-9 and NMSRotated-13 on symbolic shapes:
//! the selected count as a fresh symbol keeping OpenVINO's bound as an
//! expression, and the checks of their specifications as errors (OpenVINO's
//! goldens are in `golden/nms2_*`).

mod support;

use support::{Ir, Out};

/// A layer `nms` of `type_name`/`version` with `attrs` fed by Parameters of
/// the given shapes (the last one, when there are three, an i32 roisnum).
fn selection(
    type_name: &str,
    version: &str,
    attrs: &[(&str, &str)],
    shapes: &[(&str, &str)],
    outputs: usize,
) -> Ir {
    let mut net = Ir::new();
    let inputs: Vec<Out> = shapes
        .iter()
        .enumerate()
        .map(|(i, &(shape, element_type))| net.param(&format!("in{i}"), shape, element_type))
        .collect();
    for out in net.layer("nms", type_name, version, attrs, &inputs, outputs) {
        net.result(out);
    }
    net
}

const BOXES: (&str, &str) = ("B,N,4", "f32");
const SCORES: (&str, &str) = ("B,3,N", "f32");

#[test]
fn matrix_nms_count_is_bounded_by_top_k_and_keep_top_k() {
    let attrs = [
        ("nms_top_k", "2"),
        ("keep_top_k", "5"),
        ("output_type", "i32"),
    ];
    let r = selection("MatrixNms", "opset8", &attrs, &[BOXES, SCORES], 3).run_checked();
    r.clean();
    let (upper, lo, _) = r.bound_of("nms", 0);
    assert_eq!((upper.as_str(), lo), ("B*min(3*min(N, 2), 5)", Some(0)));
    assert_eq!(
        r.shape_of("nms", 0).replace(", 6]", ""),
        r.shape_of("nms", 1).replace(", 1]", "")
    );
    assert_eq!(r.shape_of("nms", 2), "[B]");
    assert_eq!(r.element_type("nms"), "f32");
    assert_eq!(r.tensor_of("nms", 1).element_type.to_string(), "i32");
    assert_eq!(r.tensor_of("nms", 2).element_type.to_string(), "i32");
    // No limits: every box of every class; f16 boxes give f16 rows.
    let f16 = [("B,N,4", "f16"), ("B,3,N", "f16")];
    let r = selection("MatrixNms", "opset8", &[], &f16, 3).run_checked();
    r.clean();
    assert_eq!(r.bound_of("nms", 0).0, "3*B*N");
    assert_eq!(r.element_type("nms"), "f16");
    assert_eq!(r.tensor_of("nms", 1).element_type.to_string(), "i64");
    // nms_top_k 0 selects nothing.
    let r = selection(
        "MatrixNms",
        "opset8",
        &[("nms_top_k", "0")],
        &[BOXES, SCORES],
        3,
    )
    .run_checked();
    assert_eq!(r.shape("nms"), "[0, 6]");
}

#[test]
fn multiclass_nms_counts_per_image_of_roisnum() {
    let r = selection(
        "MulticlassNms",
        "opset8",
        &[("keep_top_k", "4")],
        &[BOXES, SCORES],
        3,
    )
    .run_checked();
    r.clean();
    assert_eq!(r.bound_of("nms", 0).0, "B*min(3*N, 4)");
    assert_eq!(r.shape_of("nms", 2), "[B]");
    // Version 9 with roisnum: boxes [C, M, 4], scores [C, M], R images.
    let shapes = [("C,M,4", "f32"), ("C,M", "f32"), ("R", "i64")];
    let r = selection("MulticlassNms", "opset9", &[("nms_top_k", "3")], &shapes, 3).run_checked();
    r.clean();
    assert_eq!(r.bound_of("nms", 0).0, "C*R*min(M, 3)");
    assert_eq!(r.shape_of("nms", 2), "[R]");
}

#[test]
fn nms_rotated_counts_as_non_max_suppression_9() {
    let mut net = Ir::new();
    let b = net.param("boxes", "B,N,5", "f32");
    let s = net.param("scores", "B,3,N", "f32");
    let m = net.scalar("max", 2);
    let iou = net.const_f32("iou", &[], &[0.5]);
    let st = net.const_f32("st", &[1], &[0.1]);
    for out in net.layer(
        "nms",
        "NMSRotated",
        "opset13",
        &[("output_type", "i32"), ("clockwise", "false")],
        &[b, s, m, iou, st],
        3,
    ) {
        net.result(out);
    }
    let r = net.run_checked();
    r.clean();
    assert_eq!(r.bound_of("nms", 0).0, "3*B*min(N, 2)");
    assert_eq!(r.element_type("nms"), "i32");
    assert_eq!(r.tensor_of("nms", 1).element_type.to_string(), "f32");
    assert_eq!(r.shape_of("nms", 2), "[1]");
}

/// Op type, opset, attributes, input shapes and types, rule, message part.
type SpecCase<'a> = (
    &'a str,
    &'a str,
    &'a [(&'a str, &'a str)],
    &'a [(&'a str, &'a str)],
    &'a str,
    &'a str,
);

#[test]
fn spec_checks_are_errors() {
    let f32_pair = [("2,5,4", "f32"), ("2,3,5", "f32")];
    let cases: &[SpecCase] = &[
        (
            "MatrixNms",
            "opset8",
            &[],
            &[("2,5,5", "f32"), ("2,3,5", "f32")],
            "nms-input",
            "last dim of boxes must be 4",
        ),
        (
            "MatrixNms",
            "opset8",
            &[],
            &[("2,5,4", "f32"), ("3,3,5", "f32")],
            "nms-input",
            "batch dims",
        ),
        (
            "MatrixNms",
            "opset8",
            &[],
            &[("2,5,4", "f32"), ("2,3,6", "f32")],
            "nms-input",
            "box counts",
        ),
        (
            "MatrixNms",
            "opset8",
            &[("nms_top_k", "-2")],
            &f32_pair,
            "nms-attribute",
            "nms_top_k",
        ),
        (
            "MatrixNms",
            "opset8",
            &[("background_class", "-3")],
            &f32_pair,
            "nms-attribute",
            "background_class",
        ),
        (
            "MatrixNms",
            "opset8",
            &[("decay_function", "cubic")],
            &f32_pair,
            "nms-attribute",
            "decay_function",
        ),
        (
            "MatrixNms",
            "opset8",
            &[("sort_result_type", "area")],
            &f32_pair,
            "nms-attribute",
            "sort_result_type",
        ),
        (
            "MatrixNms",
            "opset8",
            &[("output_type", "f32")],
            &f32_pair,
            "nms-attribute",
            "output_type",
        ),
        (
            "MatrixNms",
            "opset8",
            &[("gaussian_sigma", "wide")],
            &f32_pair,
            "nms-attribute",
            "gaussian_sigma",
        ),
        (
            "MatrixNms",
            "opset8",
            &[],
            &[("2,5,4", "i32"), ("2,3,5", "i32")],
            "element-type",
            "bf16, f16 or f32",
        ),
        (
            "MatrixNms",
            "opset8",
            &[],
            &[("2,5,4", "f16"), ("2,3,5", "f32")],
            "element-type",
            "same element type",
        ),
        (
            "MulticlassNms",
            "opset8",
            &[("nms_eta", "1.5")],
            &f32_pair,
            "nms-attribute",
            "nms_eta",
        ),
        (
            "MulticlassNms",
            "opset8",
            &[("keep_top_k", "-4")],
            &f32_pair,
            "nms-attribute",
            "keep_top_k",
        ),
        (
            "MulticlassNms",
            "opset8",
            &[],
            &[("2,5", "f32"), ("2,3,5", "f32")],
            "nms-input",
            "3-D",
        ),
        (
            "MulticlassNms",
            "opset9",
            &[],
            &[("3,5,4", "f32"), ("3,5,1", "f32"), ("2", "i32")],
            "nms-input",
            "scores (input 1) with roisnum must be 2-D",
        ),
        (
            "MulticlassNms",
            "opset9",
            &[],
            &[("3,5,4", "f32"), ("3,5", "f32"), ("2,1", "i32")],
            "nms-input",
            "roisnum (input 2) must be 1-D",
        ),
        (
            "MulticlassNms",
            "opset9",
            &[],
            &[("3,5,4", "f32"), ("3,6", "f32"), ("2", "i32")],
            "nms-input",
            "box counts",
        ),
        (
            "MulticlassNms",
            "opset9",
            &[],
            &[("3,5,4", "f32"), ("4,5", "f32"), ("2", "i32")],
            "nms-input",
            "class counts",
        ),
        (
            "MulticlassNms",
            "opset9",
            &[],
            &[("3,5,4", "f32"), ("3,5", "f32"), ("2", "f32")],
            "element-type",
            "i32 or i64",
        ),
    ];
    for &(type_name, version, attrs, shapes, rule, needle) in cases {
        selection(type_name, version, attrs, shapes, 3)
            .run()
            .error("nms", rule, needle);
    }
    // Version 8 has no roisnum input.
    let shapes = [("3,5,4", "f32"), ("3,5", "f32"), ("2", "i32")];
    let r = selection("MulticlassNms", "opset8", &[], &shapes, 3).run();
    assert_eq!(r.errors()[0].0, "input-count");
}

#[test]
fn nms_rotated_checks_are_errors() {
    let cases: &[(&str, &str, &str, &str)] = &[
        ("2,5,4", "f32", "nms-input", "last dim of boxes must be 5"),
        ("2,5,5", "i32", "element-type", "floating-point"),
    ];
    for &(boxes, element_type, rule, needle) in cases {
        let mut net = Ir::new();
        let b = net.param("boxes", boxes, element_type);
        let s = net.param("scores", "2,1,5", "f32");
        let m = net.scalar("max", 2);
        let iou = net.const_f32("iou", &[], &[0.5]);
        let st = net.const_f32("st", &[], &[0.1]);
        let outs = net.layer("nms", "NMSRotated", "opset13", &[], &[b, s, m, iou, st], 3);
        net.result(outs[0]);
        net.run().error("nms", rule, needle);
    }
    // Five inputs, no fewer.
    let mut net = Ir::new();
    let b = net.param("boxes", "2,5,5", "f32");
    let s = net.param("scores", "2,1,5", "f32");
    let outs = net.layer("nms", "NMSRotated", "opset13", &[], &[b, s], 3);
    net.result(outs[0]);
    assert_eq!(net.run().errors()[0].0, "input-count");
}

/// The static cases of OpenVINO's `type_prop/multiclass_nms.cpp` and
/// `matrix_nms.cpp`: the count's upper bound and `valid_outputs`.
#[test]
fn type_prop_static_bounds() {
    let shared = [("2,7,4", "f32"), ("2,5,7", "f32")];
    let per_class = [("2,7,4", "f32"), ("2,7", "f32"), ("4", "i32")];
    let per_class_3 = [("3,7,4", "f32"), ("3,7", "f32"), ("4", "i32")];
    let top3 = [("nms_top_k", "3")];
    let top3_keep8 = [("nms_top_k", "3"), ("keep_top_k", "8")];
    let cases: &[SpecCase] = &[
        ("MulticlassNms", "opset8", &[], &shared, "70", "[2]"),
        ("MulticlassNms", "opset9", &top3, &shared, "30", "[2]"),
        ("MulticlassNms", "opset8", &top3_keep8, &shared, "16", "[2]"),
        ("MulticlassNms", "opset9", &[], &per_class, "56", "[4]"),
        (
            "MulticlassNms",
            "opset9",
            &top3_keep8,
            &per_class_3,
            "32",
            "[4]",
        ),
        ("MatrixNms", "opset8", &[], &shared, "70", "[2]"),
        ("MatrixNms", "opset8", &top3, &shared, "30", "[2]"),
        ("MatrixNms", "opset8", &top3_keep8, &shared, "16", "[2]"),
    ];
    for &(type_name, version, attrs, shapes, hi, valid) in cases {
        let r = selection(type_name, version, attrs, shapes, 3).run_checked();
        r.clean();
        let (_, lo, upper) = r.bound_of("nms", 0);
        assert_eq!(
            (lo, upper),
            (Some(0), hi.parse().ok()),
            "{type_name} {attrs:?}"
        );
        assert_eq!(r.shape_of("nms", 2), valid);
    }
}
