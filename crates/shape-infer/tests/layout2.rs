//! The layout ops of issue 17, second part (ExtractImagePatches, Col2Im,
//! SliceScatter, SegmentMax, SparseFillEmptyRows): symbolic outputs,
//! recorded constraints and the errors OpenVINO's type_prop tests name.

mod support;
use support::rule::{self, ctx, failure, shape0};

fn patches(pad: &str) -> Vec<(&'static str, String)> {
    vec![
        ("sizes", "3,2".to_owned()),
        ("strides", "2,3".to_owned()),
        ("rates", "1,2".to_owned()),
        ("auto_pad", pad.to_owned()),
    ]
}

fn run_patches(
    c: &mut shape_infer::InferContext,
    attrs: &[(&'static str, String)],
    x: shape_infer::TensorInfo,
) -> Result<Vec<shape_infer::TensorInfo>, shape_infer::ShapeError> {
    let attrs: Vec<(&str, &str)> = attrs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    rule::run(c, "ExtractImagePatches", "opset3", &attrs, &[x])
}

#[test]
fn extract_image_patches_spatial_dims_are_window_expressions() {
    let mut c = ctx(&["N", "C", "H:4", "W"]);
    let x = rule::data(&mut c, "N, C, H, W");
    let r = run_patches(&mut c, &patches("valid"), x.clone()).unwrap();
    // Rows: window 3, stride 2, H >= 4 decides the fit; columns: window
    // 2*(2 - 1) + 1 = 3, stride 3: `max(floor((W - 3)/3) + 1, 0)`, which
    // is `floor(W/3)` for every W >= 0.
    assert_eq!(shape0(&c, &r), "[N, 6*C, floor((H - 3)/2) + 1, floor(W/3)]");
    // Window 3, stride 2 on W: `floor((W - 3)/2) + 1` is -1 at W = 0, so
    // the clamp stays.
    let attrs = [
        ("sizes", "1,3".to_owned()),
        ("strides", "1,2".to_owned()),
        ("rates", "1,1".to_owned()),
        ("auto_pad", "valid".to_owned()),
    ];
    let r = run_patches(&mut c, &attrs, x.clone()).unwrap();
    assert_eq!(shape0(&c, &r), "[N, 3*C, H, max(floor((W - 3)/2) + 1, 0)]");
    for pad in ["same_upper", "same_lower"] {
        let r = run_patches(&mut c, &patches(pad), x.clone()).unwrap();
        assert_eq!(shape0(&c, &r), "[N, 6*C, ceil(H/2), ceil(W/3)]");
    }
    // A patch larger than a static image gives no positions, as OpenVINO.
    let small = rule::data(&mut c, "1, 2, 2, 9");
    let r = run_patches(&mut c, &patches("valid"), small).unwrap();
    assert_eq!(shape0(&c, &r), "[1, 12, 0, 3]");
}

#[test]
fn extract_image_patches_rejects_bad_inputs_and_attributes() {
    let mut c = ctx(&[]);
    let x3 = rule::data(&mut c, "1, 2, 3");
    assert_eq!(
        failure(run_patches(&mut c, &patches("valid"), x3)).0,
        "input-rank"
    );
    let x = rule::data(&mut c, "1, 2, 5, 5");
    for (key, value) in [
        ("sizes", "3"),
        ("strides", "0,1"),
        ("rates", "1,-1"),
        ("sizes", "0,2"),
        ("auto_pad", "explicit"),
    ] {
        let mut attrs = patches("valid");
        attrs.retain(|(k, _)| *k != key);
        attrs.push((key, value.to_owned()));
        let e = failure(run_patches(&mut c, &attrs, x.clone()));
        assert_eq!(e.0, "window-attribute", "{key}={value}: {}", e.1);
    }
}

#[test]
fn col2im_outputs_and_block_count() {
    let mut c = ctx(&["N", "L", "H", "W"]);
    let x = rule::data(&mut c, "N, 12, L");
    let size = rule::values(&mut c, "H, W");
    let kernel = rule::ints(&[2, 3]);
    let attrs = [
        ("strides", "2,1"),
        ("dilations", "1,2"),
        ("pads_begin", "1,0"),
        ("pads_end", "0,1"),
    ];
    let r = rule::run(
        &mut c,
        "Col2Im",
        "opset15",
        &attrs,
        &[x, size, kernel.clone()],
    )
    .unwrap();
    assert_eq!(shape0(&c, &r), "[N, 2, H, W]");
    // L = (floor((H + 1 - 2)/2) + 1) * (W + 1 - 5 + 1), recorded.
    let k = rule::constraints(&c);
    assert!(
        k.iter()
            .any(|s| s.contains('L') && s.contains('H') && s.contains('W')),
        "{k:?}"
    );
    // Unbatched, static: 9 blocks expected, 8 given.
    let x = rule::data(&mut c, "12, 8");
    let size = rule::ints(&[4, 5]);
    let e = failure(rule::run(
        &mut c,
        "Col2Im",
        "opset15",
        &[
            ("strides", "1,1"),
            ("dilations", "1,1"),
            ("pads_begin", "0,0"),
            ("pads_end", "0,0"),
        ],
        &[x, size.clone(), kernel.clone()],
    ));
    assert_eq!(e.0, "col2im-block-count", "{}", e.1);
    let ones = [
        ("strides", "1,1"),
        ("dilations", "1,1"),
        ("pads_begin", "0,0"),
        ("pads_end", "0,0"),
    ];
    // Channels not divisible by the kernel's product; wrong ranks.
    let x = rule::data(&mut c, "10, 9");
    assert_eq!(
        failure(rule::run(
            &mut c,
            "Col2Im",
            "opset15",
            &ones,
            &[x, size.clone(), kernel.clone()]
        ))
        .0,
        "block-divisible"
    );
    let x = rule::data(&mut c, "1, 12, 9, 1");
    assert_eq!(
        failure(rule::run(
            &mut c,
            "Col2Im",
            "opset15",
            &ones,
            &[x, size.clone(), kernel.clone()]
        ))
        .0,
        "input-rank"
    );
    let x = rule::data(&mut c, "12, 9");
    let three = rule::ints(&[2, 3, 1]);
    assert_eq!(
        failure(rule::run(
            &mut c,
            "Col2Im",
            "opset15",
            &ones,
            &[x.clone(), size.clone(), three]
        ))
        .0,
        "col2im-inputs"
    );
    // A kernel larger than the padded image.
    let big = rule::ints(&[6, 2]);
    assert_eq!(
        failure(rule::run(
            &mut c,
            "Col2Im",
            "opset15",
            &ones,
            &[x, size, big]
        ))
        .0,
        "window-exceeds-input"
    );
}
