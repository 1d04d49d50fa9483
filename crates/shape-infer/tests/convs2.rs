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
