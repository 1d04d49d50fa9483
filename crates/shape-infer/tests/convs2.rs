//! DeformableConvolution, BinaryConvolution, the NV12/I420 colour
//! conversions and CTCLoss: symbolic shapes and the checks of their
//! specifications (OpenVINO's goldens are in `golden/deformable_conv_*`,
//! `golden/binary_conv*`, `golden/color_*`, `golden/ctc_loss*`).

mod support;
use support::{Ir, Out};

const CONV_2D: [(&str, &str); 4] = [
    ("strides", "1,1"),
    ("pads_begin", "1,1"),
    ("pads_end", "1,1"),
    ("dilations", "1,1"),
];

/// A DeformableConvolution of the given version and extra attributes over
/// `inputs`, as the last layer.
fn deformable(n: &mut Ir, version: &str, extra: &[(&str, &str)], inputs: &[Out]) -> Out {
    let mut attrs: Vec<(&str, &str)> = CONV_2D.to_vec();
    for &(key, value) in extra {
        attrs.retain(|(k, _)| *k != key);
        attrs.push((key, value));
    }
    n.op("dc", "DeformableConvolution", version, &attrs, inputs)
}

#[test]
fn deformable_output_is_convolutions_with_offsets_merged() {
    let mut n = Ir::new();
    let x = n.param("x", "N,4,H,W", "f32");
    let off = n.param("off", "N,18,?,?", "f32");
    let w = n.param("w", "6,2,3,3", "f32");
    let mask = n.param("mask", "N,9,H,W", "f32");
    let dc = deformable(
        &mut n,
        "opset8",
        &[("group", "2"), ("bilinear_interpolation_pad", "true")],
        &[x, off, w, mask],
    );
    let r = n.run_to(dc);
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert_eq!(r.shape("dc"), "[N, 6, H, W]");

    // Stride 2 without pads: the exact window expression.
    let mut n = Ir::new();
    let x = n.param("x", "N,2,H,W", "f32");
    let off = n.param("off", "N,16,?,?", "f32");
    let w = n.param("w", "3,2,2,2", "f32");
    let dc = deformable(
        &mut n,
        "opset1",
        &[
            ("strides", "2,2"),
            ("pads_begin", "0,0"),
            ("pads_end", "0,0"),
            ("deformable_group", "2"),
        ],
        &[x, off, w],
    );
    let r = n.run_to(dc);
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert_eq!(r.shape("dc"), "[N, 3, floor(H/2), floor(W/2)]");
}

#[test]
fn deformable_offsets_channels_must_match_the_kernel() {
    let mut n = Ir::new();
    let x = n.param("x", "1,4,5,5", "f32");
    let off = n.param("off", "1,16,5,5", "f32");
    let w = n.param("w", "4,4,3,3", "f32");
    let dc = deformable(&mut n, "opset1", &[], &[x, off, w]);
    n.run_to(dc)
        .error("dc", "deformable-offsets", "the offsets' channels");
}

#[test]
fn deformable_mask_must_match_the_output() {
    let mut n = Ir::new();
    let x = n.param("x", "1,4,5,5", "f32");
    let off = n.param("off", "1,18,5,5", "f32");
    let w = n.param("w", "4,4,3,3", "f32");
    let mask = n.param("mask", "1,9,4,5", "f32");
    let dc = deformable(&mut n, "opset8", &[], &[x, off, w, mask]);
    n.run_to(dc).error("dc", "deformable-mask", "spatial dim 2");

    // No mask before v8.
    let mut n = Ir::new();
    let x = n.param("x", "1,4,5,5", "f32");
    let off = n.param("off", "1,18,5,5", "f32");
    let w = n.param("w", "4,4,3,3", "f32");
    let mask = n.param("mask", "1,9,5,5", "f32");
    let dc = deformable(&mut n, "opset1", &[], &[x, off, w, mask]);
    let r = n.run_to(dc);
    assert_eq!(r.errors().len(), 1, "{:?}", r.errors());
}

#[test]
fn deformable_groups_must_divide_the_channels() {
    let mut n = Ir::new();
    let x = n.param("x", "1,3,5,5", "f32");
    let off = n.param("off", "1,18,5,5", "f32");
    let w = n.param("w", "4,1,3,3", "f32");
    let dc = deformable(&mut n, "opset1", &[("group", "2")], &[x, off, w]);
    n.run_to(dc)
        .error("dc", "deformable-channels", "not divisible by 2");

    let mut n = Ir::new();
    let x = n.param("x", "1,4,5,5", "f32");
    let off = n.param("off", "1,18,5,5", "f32");
    let w = n.param("w", "4,4,3,3", "f32");
    let dc = deformable(&mut n, "opset1", &[("deformable_group", "0")], &[x, off, w]);
    n.run_to(dc)
        .error("dc", "deformable-attribute", "`deformable_group` 0");

    // Symbolic channels: the divisibility is a recorded constraint.
    let mut n = Ir::new();
    let x = n.param("x", "1,C,5,5", "f32");
    let off = n.param("off", "1,18,5,5", "f32");
    let w = n.param("w", "4,K,3,3", "f32");
    let dc = deformable(&mut n, "opset1", &[("group", "2")], &[x, off, w]);
    let r = n.run_to(dc);
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert_eq!(r.shape("dc"), "[1, 4, 5, 5]");
    assert!(
        r.constraints().iter().any(|c| c.contains("C")),
        "{:?}",
        r.constraints()
    );
}

#[test]
fn deformable_inputs_are_4d_of_one_type() {
    let mut n = Ir::new();
    let x = n.param("x", "1,4,5,5,5", "f32");
    let off = n.param("off", "1,18,5,5", "f32");
    let w = n.param("w", "4,4,3,3", "f32");
    let dc = deformable(&mut n, "opset1", &[], &[x, off, w]);
    n.run_to(dc)
        .error("dc", "deformable-rank", "data (input 0)");

    let mut n = Ir::new();
    let x = n.param("x", "1,4,5,5", "f32");
    let off = n.param("off", "1,18,5,5", "f16");
    let w = n.param("w", "4,4,3,3", "f32");
    let dc = deformable(&mut n, "opset1", &[], &[x, off, w]);
    n.run_to(dc)
        .error("dc", "element-type", "same element type");
}

#[test]
fn binary_convolution_is_convolutions_shape_with_u1_filters() {
    let mut n = Ir::new();
    let x = n.param("x", "N,3,H,W", "f32");
    let w = n.param("w", "4,3,3,3", "u1");
    let mut attrs: Vec<(&str, &str)> = CONV_2D.to_vec();
    attrs.extend([("mode", "xnor-popcount"), ("pad_value", "-1")]);
    let bc = n.op("bc", "BinaryConvolution", "opset1", &attrs, &[x, w]);
    let r = n.run_to(bc);
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert_eq!(r.shape("bc"), "[N, 4, H, W]");
    assert_eq!(r.element_type("bc"), "f32");

    let mut n = Ir::new();
    let x = n.param("x", "1,3,5,5", "f32");
    let w = n.param("w", "4,3,3,3", "u1");
    let mut attrs: Vec<(&str, &str)> = CONV_2D.to_vec();
    attrs.extend([("mode", "xor-popcount"), ("pad_value", "0")]);
    let bc = n.op("bc", "BinaryConvolution", "opset1", &attrs, &[x, w]);
    n.run_to(bc)
        .error("bc", "binary-conv-attribute", "not xnor-popcount");

    let mut n = Ir::new();
    let x = n.param("x", "1,3,5", "f32");
    let w = n.param("w", "4,3,3", "u1");
    let mut attrs = vec![
        ("strides", "1"),
        ("pads_begin", "0"),
        ("pads_end", "0"),
        ("dilations", "1"),
    ];
    attrs.extend([("mode", "xnor-popcount"), ("pad_value", "0")]);
    let bc = n.op("bc", "BinaryConvolution", "opset1", &attrs, &[x, w]);
    n.run_to(bc).error("bc", "conv-rank", "4-D");
}

#[test]
fn a_single_yuv_plane_gives_two_thirds_of_its_height() {
    for op in ["NV12toRGB", "NV12toBGR", "I420toRGB", "I420toBGR"] {
        let mut n = Ir::new();
        let y = n.param("y", "N,H,W,1", "u8");
        let c = n.op("c", op, "opset8", &[], &[y]);
        let r = n.run_to(c);
        assert!(r.errors().is_empty(), "{op}: {:?}", r.errors());
        assert_eq!(r.shape("c"), "[N, 2*(H/3), W, 3]", "{op}");
        assert!(
            r.constraints().iter().any(|c| c.contains("H")),
            "{op}: {:?}",
            r.constraints()
        );
        assert_eq!(r.element_type("c"), "u8");
    }
    let mut n = Ir::new();
    let y = n.param("y", "1,7,4,1", "f32");
    let c = n.op("c", "NV12toRGB", "opset8", &[], &[y]);
    n.run_to(c)
        .error("c", "color-divisible", "not divisible by 3");
}

#[test]
fn yuv_planes_merge_with_twice_the_chroma() {
    let mut n = Ir::new();
    let y = n.param("y", "N,YH,YW,1", "f32");
    let uv = n.param("uv", "N,H,W,2", "f32");
    let c = n.op("c", "NV12toBGR", "opset8", &[], &[y, uv]);
    let r = n.run_to(c);
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert_eq!(r.shape("c"), "[N, YH, YW, 3]");
    let constraints = r.constraints().join("; ");
    assert!(
        constraints.contains("2*H") && constraints.contains("2*W"),
        "{constraints}"
    );

    let mut n = Ir::new();
    let y = n.param("y", "1,4,6,1", "f32");
    let u = n.param("u", "1,2,3,1", "f32");
    let v = n.param("v", "1,2,2,1", "f32");
    let c = n.op("c", "I420toRGB", "opset8", &[], &[y, u, v]);
    n.run_to(c).error("c", "color-planes", "U and V");

    let mut n = Ir::new();
    let y = n.param("y", "1,4,6,1", "f32");
    let uv = n.param("uv", "1,2,3,1", "f32");
    let c = n.op("c", "NV12toRGB", "opset8", &[], &[y, uv]);
    n.run_to(c).error("c", "color-channels", "must be 2");

    let mut n = Ir::new();
    let y = n.param("y", "1,6,5,1", "f32");
    let c = n.op("c", "I420toBGR", "opset8", &[], &[y]);
    n.run_to(c).error("c", "color-divisible", "width");

    let mut n = Ir::new();
    let y = n.param("y", "1,6,4,1", "i32");
    let c = n.op("c", "I420toBGR", "opset8", &[], &[y]);
    n.run_to(c)
        .error("c", "element-type", "u8 or floating point");
}

#[test]
fn ctc_loss_has_one_loss_per_sequence() {
    let mut n = Ir::new();
    let logits = n.param("logits", "N,T,C", "f32");
    let logit_length = n.param("ll", "?", "i32");
    let labels = n.param("labels", "?,?", "i32");
    let label_length = n.param("bl", "?", "i32");
    let blank = n.param("blank", "", "i32");
    let loss = n.op(
        "loss",
        "CTCLoss",
        "opset4",
        &[("ctc_merge_repeated", "false"), ("unique", "true")],
        &[logits, logit_length, labels, label_length, blank],
    );
    let r = n.run_to(loss);
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert_eq!(r.shape("loss"), "[N]");

    let mut n = Ir::new();
    let logits = n.param("logits", "2,6,5", "f32");
    let logit_length = n.param("ll", "2", "i32");
    let labels = n.param("labels", "2,5", "i32");
    let label_length = n.param("bl", "2", "i32");
    let loss = n.op(
        "loss",
        "CTCLoss",
        "opset4",
        &[],
        &[logits, logit_length, labels, label_length],
    );
    n.run_to(loss).error("loss", "ctc-loss-dims", "time steps");

    let mut n = Ir::new();
    let logits = n.param("logits", "2,6,5", "f32");
    let logit_length = n.param("ll", "3", "i32");
    let labels = n.param("labels", "2,6", "i32");
    let label_length = n.param("bl", "2", "f32");
    let loss = n.op(
        "loss",
        "CTCLoss",
        "opset4",
        &[],
        &[logits, logit_length, labels, label_length],
    );
    let r = n.run_to(loss);
    assert_eq!(r.errors().len(), 1, "{:?}", r.errors());
    assert_eq!(r.errors()[0].0, "element-type");
}
