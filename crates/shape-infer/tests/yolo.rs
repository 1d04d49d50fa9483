//! ReorgYolo, RegionYolo, PriorBoxClustered and PriorBox: symbolic shapes
//! and the checks of their specifications (OpenVINO's goldens are in
//! `golden/{reorg_yolo,region_yolo,prior_box,prior_box_clustered}.*`).

mod support;
use support::{Ir, Out};

fn reorg(n: &mut Ir, x: Out, stride: &str) -> Out {
    n.op("r", "ReorgYolo", "opset2", &[("stride", stride)], &[x])
}

#[test]
fn reorg_moves_space_into_channels() {
    let mut n = Ir::new();
    let x = n.param("x", "N,C,H,W", "f32");
    let r = reorg(&mut n, x, "2");
    let r = n.run_to(r);
    r.clean();
    assert_eq!(r.shape("r"), "[N, 4*C, H/2, W/2]");
    assert_eq!(r.constraints(), ["C >= 4", "H % 2 == 0", "W % 2 == 0"]);
}

#[test]
fn reorg_static_and_list_stride() {
    let mut n = Ir::new();
    let x = n.param("x", "1,9,6,3", "f32");
    let r = reorg(&mut n, x, "3,3");
    let r = n.run_to(r);
    r.clean();
    assert_eq!(r.shape("r"), "[1, 81, 2, 1]");
}

#[test]
fn reorg_errors() {
    let mut n = Ir::new();
    let x = n.param("x", "1,3,4,4", "f32");
    let r = reorg(&mut n, x, "2");
    n.run_to(r)
        .error("r", "reorg-channels", "C >= stride*stride = 4");

    let mut n = Ir::new();
    let x = n.param("x", "1,8,5,4", "f32");
    let r = reorg(&mut n, x, "2");
    n.run_to(r)
        .error("r", "reorg-divisible", "H 5 is not divisible");

    let mut n = Ir::new();
    let x = n.param("x", "1,8,4", "f32");
    let r = reorg(&mut n, x, "2");
    n.run_to(r).error("r", "reorg-rank", "rank 3");

    let mut n = Ir::new();
    let x = n.param("x", "1,8,4,4", "f32");
    let r = reorg(&mut n, x, "0");
    n.run_to(r).error("r", "attribute-invalid", "`stride`");
}

fn region(n: &mut Ir, x: Out, softmax: &str, mask: &str, axes: (&str, &str)) -> Out {
    n.op(
        "y",
        "RegionYolo",
        "opset1",
        &[
            ("coords", "4"),
            ("classes", "3"),
            ("num", "6"),
            ("do_softmax", softmax),
            ("mask", mask),
            ("axis", axes.0),
            ("end_axis", axes.1),
            ("anchors", "1,2"),
        ],
        &[x],
    )
}

#[test]
fn region_softmax_flattens_axes() {
    for ((axis, end), want) in [
        (("1", "3"), "[N, C*H*W]"),
        (("2", "-1"), "[N, C, H*W]"),
        (("1", "1"), "[N, C, H, W]"),
        (("2", "1"), "[N, C, H, W]"),
    ] {
        let mut n = Ir::new();
        let x = n.param("x", "N,C,H,W", "f32");
        let y = region(&mut n, x, "true", "", (axis, end));
        let r = n.run_to(y);
        r.clean();
        assert_eq!(r.shape("y"), want, "axis {axis}, end_axis {end}");
    }
}

#[test]
fn region_mask_sets_channels() {
    let mut n = Ir::new();
    let x = n.param("x", "N,C,H,W", "f32");
    let y = region(&mut n, x, "false", "0,1,2", ("1", "3"));
    let r = n.run_to(y);
    r.clean();
    assert_eq!(r.shape("y"), "[N, 24, H, W]");
}

#[test]
fn region_errors() {
    let mut n = Ir::new();
    let x = n.param("x", "N,C,H", "f32");
    let y = region(&mut n, x, "true", "", ("1", "2"));
    n.run_to(y).error("y", "region-rank", "rank 4, got 3");

    let mut n = Ir::new();
    let x = n.param("x", "N,C,H,W", "i32");
    let y = region(&mut n, x, "true", "", ("1", "3"));
    n.run_to(y).error("y", "element-type", "floating point");

    let mut n = Ir::new();
    let x = n.param("x", "N,C,H,W", "f32");
    let y = region(&mut n, x, "true", "", ("1", "4"));
    n.run_to(y).error("y", "axis-out-of-range", "end_axis 4");
}

/// `[H, W]` of an NCHW tensor, read with ShapeOf and StridedSlice.
fn spatial(n: &mut Ir, name: &str, x: Out) -> Out {
    let shape = n.op(
        &format!("{name}_shape"),
        "ShapeOf",
        "opset3",
        &[("output_type", "i64")],
        &[x],
    );
    let begin = n.vec(&format!("{name}_begin"), &[2]);
    let end = n.vec(&format!("{name}_end"), &[4]);
    let step = n.vec(&format!("{name}_step"), &[1]);
    n.op(
        name,
        "StridedSlice",
        "opset1",
        &[("begin_mask", "0"), ("end_mask", "0")],
        &[shape, begin, end, step],
    )
}

fn prior_graph(n: &mut Ir) -> (Out, Out) {
    let feat = n.param("feat", "1,8,H,W", "f32");
    let img = n.param("img", "1,3,IH,IW", "f32");
    (spatial(n, "feat_hw", feat), spatial(n, "img_hw", img))
}

#[test]
fn clustered_count_is_an_expression_of_the_feature_map() {
    let mut n = Ir::new();
    let (fs, im) = prior_graph(&mut n);
    let p = n.op(
        "p",
        "PriorBoxClustered",
        "opset1",
        &[("width", "1,2,3"), ("height", "3,2,1"), ("offset", "0.5")],
        &[fs, im],
    );
    let r = n.run_to(p);
    r.clean();
    assert_eq!(r.shape("p"), "[2, 12*H*W]");
    assert_eq!(r.element_type("p"), "f32");
}

#[test]
fn clustered_errors() {
    let mut n = Ir::new();
    let (fs, im) = prior_graph(&mut n);
    let p = n.op(
        "p",
        "PriorBoxClustered",
        "opset1",
        &[("width", "1,2,3"), ("height", "3,2"), ("offset", "0.5")],
        &[fs, im],
    );
    n.run_to(p)
        .error("p", "prior-sizes", "2 heights do not match 3 widths");

    let mut n = Ir::new();
    let fs = n.param("fs", "3", "i64");
    let im = n.param("im", "2", "i64");
    let p = n.op(
        "p",
        "PriorBoxClustered",
        "opset1",
        &[("width", "1"), ("height", "1"), ("offset", "0.5")],
        &[fs, im],
    );
    n.run_to(p)
        .error("p", "prior-input", "must have two elements, got 3");

    let mut n = Ir::new();
    let fs = n.param("fs", "2", "f32");
    let im = n.param("im", "2", "i64");
    let p = n.op(
        "p",
        "PriorBoxClustered",
        "opset1",
        &[("width", "1"), ("height", "1"), ("offset", "0.5")],
        &[fs, im],
    );
    n.run_to(p).error("p", "element-type", "integral");
}

fn prior_box(version: &str, attrs: &[(&str, &str)]) -> String {
    let mut n = Ir::new();
    let (fs, im) = prior_graph(&mut n);
    let mut all = vec![("offset", "0.5")];
    all.extend_from_slice(attrs);
    let p = n.op("p", "PriorBox", version, &all, &[fs, im]);
    let r = n.run_to(p);
    r.clean();
    r.shape("p")
}

#[test]
fn prior_box_counts_follow_the_attributes() {
    // Ratios {1, 2, 1/2}: 3 per min size plus one max box.
    let flip = [
        ("min_size", "2"),
        ("max_size", "5"),
        ("aspect_ratio", "2"),
        ("flip", "true"),
    ];
    assert_eq!(prior_box("opset1", &flip), "[2, 16*H*W]");
    assert_eq!(prior_box("opset8", &flip), "[2, 16*H*W]");
    // Without flip, a repeated ratio and 1 add nothing: {1, 2}.
    assert_eq!(
        prior_box(
            "opset1",
            &[("min_size", "2,4"), ("aspect_ratio", "2,2.0000001,1")]
        ),
        "[2, 16*H*W]"
    );
    // Not scale_all_sizes: ratios + min sizes - 1.
    assert_eq!(
        prior_box(
            "opset8",
            &[
                ("min_size", "2,4"),
                ("aspect_ratio", "3"),
                ("scale_all_sizes", "false")
            ]
        ),
        "[2, 12*H*W]"
    );
    // Fixed sizes replace the count; each density d adds ratios*(d²-1).
    assert_eq!(
        prior_box(
            "opset1",
            &[
                ("min_size", "2"),
                ("fixed_size", "4"),
                ("density", "2"),
                ("aspect_ratio", "2")
            ]
        ),
        "[2, 32*H*W]"
    );
    // With fixed ratios the densities count those instead (d truncated).
    assert_eq!(
        prior_box(
            "opset8",
            &[
                ("fixed_size", "6"),
                ("density", "2.9"),
                ("fixed_ratio", "1,2")
            ]
        ),
        "[2, 28*H*W]"
    );
}

#[test]
fn prior_box_unknown_size_gives_a_fresh_dim_and_bad_inputs_errors() {
    let mut n = Ir::new();
    let fs = n.param("fs", "2", "i32");
    let im = n.param("im", "2", "i32");
    let p = n.op(
        "p",
        "PriorBox",
        "opset8",
        &[("min_size", "2"), ("offset", "0.5")],
        &[fs, im],
    );
    let r = n.run_to(p);
    r.clean();
    // A fresh symbol of its own: the sizes are known only at run time.
    assert_eq!(r.shape("p"), "[2, ?0]");

    let mut n = Ir::new();
    let fs = n.param("fs", "2,1", "i64");
    let im = n.param("im", "2", "i64");
    let p = n.op(
        "p",
        "PriorBox",
        "opset1",
        &[("min_size", "2"), ("offset", "0.5")],
        &[fs, im],
    );
    n.run_to(p)
        .error("p", "prior-input", "must be 1-D, got rank 2");

    let mut n = Ir::new();
    let (fs, im) = prior_graph(&mut n);
    let p = n.op("p", "PriorBox", "opset1", &[("min_size", "2")], &[fs, im]);
    n.run_to(p).error("p", "attribute-invalid", "offset");

    let mut n = Ir::new();
    let (fs, im) = prior_graph(&mut n);
    let p = n.op(
        "p",
        "PriorBox",
        "opset1",
        &[("min_size", "2,x"), ("offset", "0.5")],
        &[fs, im],
    );
    n.run_to(p).error("p", "attribute-invalid", "min_size");
}
