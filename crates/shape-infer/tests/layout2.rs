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

#[test]
fn slice_scatter_checks_updates_against_slice() {
    let mut c = ctx(&["N", "M", "S:2", "K"]);
    let x = rule::data(&mut c, "N, 6, S");
    let start = rule::ints(&[0, 0]);
    let stop = rule::ints(&[6, i64::MAX]);
    let step = rule::ints(&[2, 1]);
    let axes = rule::ints(&[1, 0]);
    // Updates of shape [M, 3, K]: M and K recorded equal to N and S.
    let u = rule::data(&mut c, "M, 3, K");
    let inputs = [
        x.clone(),
        u,
        start.clone(),
        stop.clone(),
        step.clone(),
        axes.clone(),
    ];
    let r = rule::run(&mut c, "SliceScatter", "opset15", &[], &inputs).unwrap();
    assert_eq!(shape0(&c, &r), "[N, 6, S]");
    let k = rule::constraints(&c);
    assert!(
        k.iter().any(|s| s.contains('M') && s.contains('N')),
        "{k:?}"
    );
    assert!(
        k.iter().any(|s| s.contains('K') && s.contains('S')),
        "{k:?}"
    );
    // A static updates dim other than the sliced length (3).
    let bad = rule::data(&mut c, "N, 4, S");
    let inputs = [
        x.clone(),
        bad,
        start.clone(),
        stop.clone(),
        step.clone(),
        axes.clone(),
    ];
    let e = failure(rule::run(&mut c, "SliceScatter", "opset15", &[], &inputs));
    assert_eq!(e.0, "slice-scatter-updates", "{}", e.1);
    // Rank mismatch, step 0, a repeated axis.
    let flat = rule::data(&mut c, "N, 3");
    let inputs = [
        x.clone(),
        flat,
        start.clone(),
        stop.clone(),
        step.clone(),
        axes.clone(),
    ];
    assert_eq!(
        failure(rule::run(&mut c, "SliceScatter", "opset15", &[], &inputs)).0,
        "slice-scatter-updates"
    );
    let u = rule::data(&mut c, "N, 3, S");
    let zero = rule::ints(&[2, 0]);
    let inputs = [
        x.clone(),
        u.clone(),
        start.clone(),
        stop.clone(),
        zero,
        axes.clone(),
    ];
    assert_eq!(
        failure(rule::run(&mut c, "SliceScatter", "opset15", &[], &inputs)).0,
        "slice-step-zero"
    );
    let twice = rule::ints(&[1, 1]);
    let inputs = [
        x.clone(),
        u.clone(),
        start.clone(),
        stop.clone(),
        step.clone(),
        twice,
    ];
    assert_eq!(
        failure(rule::run(&mut c, "SliceScatter", "opset15", &[], &inputs)).0,
        "slice-repeated-axis"
    );
    // Unknown starts: an updates dim above the data's is an error.
    let big = rule::data(&mut c, "N, 7, S");
    let inputs = [x, big, rule::unknown(&[2]), stop, step, axes];
    assert_eq!(
        failure(rule::run(&mut c, "SliceScatter", "opset15", &[], &inputs)).0,
        "slice-scatter-updates"
    );
}

#[test]
fn segment_max_counts_segments() {
    let mut c = ctx(&["N", "S"]);
    let x = rule::data(&mut c, "N, 3");
    let zero = [("fill_mode", "ZERO")];
    // Run-time ids, no num_segments: a fresh symbol, never a bare `?`.
    let ids = shape_infer::TensorInfo::new(
        ir::ElementType::I32,
        ir::Shape::ranked(rule::dims(&mut c, "N")),
    );
    let r = rule::run(
        &mut c,
        "SegmentMax",
        "opset16",
        &zero,
        &[x.clone(), ids.clone()],
    )
    .unwrap();
    let dims = r[0].shape.dims().unwrap();
    assert!(!dims[0].symbols().is_empty(), "{}", shape0(&c, &r));
    assert_eq!(dims[1].as_constant(), Some(3));
    // num_segments read from a shape.
    let n = shape_infer::TensorInfo::new(ir::ElementType::I64, ir::Shape::ranked(vec![]))
        .with_value(rule::dims(&mut c, "S"));
    let r = rule::run(
        &mut c,
        "SegmentMax",
        "opset16",
        &[("fill_mode", "LOWEST")],
        &[x.clone(), ids, n],
    )
    .unwrap();
    assert_eq!(shape0(&c, &r), "[S, 3]");
    // Constant ids: the last id + 1; unsorted ids, a bad fill mode.
    let y = rule::data(&mut c, "5, 2");
    let r = rule::run(
        &mut c,
        "SegmentMax",
        "opset16",
        &zero,
        &[y.clone(), rule::ints(&[0, 0, 2, 2, 6])],
    )
    .unwrap();
    assert_eq!(shape0(&c, &r), "[7, 2]");
    let e = failure(rule::run(
        &mut c,
        "SegmentMax",
        "opset16",
        &zero,
        &[y.clone(), rule::ints(&[0, 3, 2, 2, 6])],
    ));
    assert_eq!(e.0, "segment-ids-sorted");
    let e = failure(rule::run(
        &mut c,
        "SegmentMax",
        "opset16",
        &[("fill_mode", "max")],
        &[y.clone(), rule::ints(&[0, 0, 2, 2, 6])],
    ));
    assert_eq!(e.0, "segment-max-fill-mode");
    let minus = shape_infer::TensorInfo::new(ir::ElementType::I64, ir::Shape::ranked(vec![]))
        .with_value(vec![symdim::Expr::constant(-1)]);
    let ids = rule::ints(&[0, 0, 2, 2, 6]);
    let e = failure(rule::run(
        &mut c,
        "SegmentMax",
        "opset16",
        &zero,
        &[y.clone(), ids, minus],
    ));
    assert_eq!(e.0, "segment-max-num-segments");
    let e = failure(rule::run(
        &mut c,
        "SegmentMax",
        "opset16",
        &zero,
        &[y, rule::ints(&[0, 0, 2, 2])],
    ));
    assert_eq!(e.0, "segment-ids-length");
}

#[test]
fn sparse_fill_empty_rows_counts_entries() {
    let mut c = ctx(&["N", "R", "C"]);
    let values = rule::data(&mut c, "N");
    let dense = rule::values(&mut c, "R, C");
    let indices = shape_infer::TensorInfo::new(
        ir::ElementType::I64,
        ir::Shape::ranked(rule::dims(&mut c, "N, 2")),
    );
    let default = rule::data(&mut c, "");
    let r = rule::run(
        &mut c,
        "SparseFillEmptyRows",
        "opset16",
        &[],
        &[values, dense, indices, default.clone()],
    )
    .unwrap();
    // K: a fresh symbol bounded by N + R, shared by both outputs.
    let k = &r[0].shape.dims().unwrap()[0];
    assert_eq!(r[1].shape.dims().unwrap()[0], *k);
    let bound = c.symbols.bounds(k).unwrap();
    assert_eq!(bound.lo, Some(0));
    assert_eq!(shape0(&c, &r[2..]), "[R]");
    assert_eq!(r[2].element_type, ir::ElementType::Boolean);
    // Known indices: 2 of 6 rows used, so 4 entries added.
    let values = rule::data(&mut c, "3");
    let dense = rule::ints(&[6, 4]);
    let known = shape_infer::TensorInfo::new(ir::ElementType::I64, ir::Shape::from_static(&[3, 2]))
        .with_value(
            [0, 1, 0, 3, 2, 0]
                .iter()
                .map(|&v| symdim::Expr::constant(v))
                .collect::<Vec<_>>(),
        );
    let r = rule::run(
        &mut c,
        "SparseFillEmptyRows",
        "opset16",
        &[],
        &[values.clone(), dense.clone(), known, default.clone()],
    )
    .unwrap();
    assert_eq!(shape0(&c, &r), "[7, 2]");
    let outside =
        shape_infer::TensorInfo::new(ir::ElementType::I64, ir::Shape::from_static(&[3, 2]))
            .with_value(
                [0, 1, 0, 4, 2, 0]
                    .iter()
                    .map(|&v| symdim::Expr::constant(v))
                    .collect::<Vec<_>>(),
            );
    let e = failure(rule::run(
        &mut c,
        "SparseFillEmptyRows",
        "opset16",
        &[],
        &[values.clone(), dense.clone(), outside, default.clone()],
    ));
    assert_eq!(e.0, "sparse-index-range");
    let wrong = rule::unknown(&[3, 3]);
    let e = failure(rule::run(
        &mut c,
        "SparseFillEmptyRows",
        "opset16",
        &[],
        &[values, dense, wrong, default],
    ));
    assert_eq!(e.0, "sparse-inputs");
}
