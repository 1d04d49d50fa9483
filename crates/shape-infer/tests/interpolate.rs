//! Interpolate-1/-4/-11: exact scaled dims, sizes from ShapeOf, pads, and the
//! errors and warnings of bad attributes and operands.

mod support;
use support::Ir;

fn v11(
    b: &mut Ir,
    name: &str,
    x: support::Out,
    values: support::Out,
    axes: Option<support::Out>,
    attrs: &[(&str, &str)],
) -> support::Out {
    let mut inputs = vec![x, values];
    inputs.extend(axes);
    b.op(name, "Interpolate", "opset11", attrs, &inputs)
}

/// Attributes as `(key, value)` pairs.
type Attrs = &'static [(&'static str, &'static str)];

const NEAREST_SCALES: &[(&str, &str)] =
    &[("mode", "nearest"), ("shape_calculation_mode", "scales")];
const NEAREST_SIZES: &[(&str, &str)] = &[("mode", "nearest"), ("shape_calculation_mode", "sizes")];

#[test]
fn scales_give_exact_ratios_under_a_recorded_limit() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3,H,W", "f32");
    let s = b.const_f32("s", &[2], &[2.0, 0.5]);
    let axes = b.vec("axes", &[2, 3]);
    let up = v11(&mut b, "up", x, s, Some(axes), NEAREST_SCALES);
    let r = b.run_to(up);
    assert_eq!(r.shape("up"), "[N, 3, 2*H, floor(W/2)]");
    let constraints = r.constraints();
    assert_eq!(constraints.len(), 2, "{constraints:?}");
    assert!(constraints[0].starts_with("H <= "), "{constraints:?}");
}

#[test]
fn bounded_dims_need_no_constraint_and_static_dims_follow_openvino_arithmetic() {
    let mut b = Ir::new();
    let x = b.param("x", "2,1..100,7", "f32");
    let s = b.const_f32("s", &[2], &[1.5, 1.7]);
    let axes = b.vec("axes", &[1, 2]);
    let y = v11(&mut b, "y", x, s, Some(axes), NEAREST_SCALES);
    let r = b.run_to(y);
    r.clean();
    // 7 * (1.7 + 1e-6) in f32 is 11.9…: 11, as OpenVINO.
    assert_eq!(r.shape("y"), "[2, floor(3*?0/2), 11]");
}

#[test]
fn sizes_from_a_shape_subgraph_stay_symbolic_and_pads_add() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3,H,W", "f32");
    let shape = b.op("shape", "ShapeOf", "opset3", &[], &[x]);
    let idx = b.vec("idx", &[2, 3]);
    let zero = b.scalar("zero", 0);
    let hw = b.op("hw", "Gather", "opset8", &[], &[shape, idx, zero]);
    let two = b.vec("two", &[2, 2]);
    let target = b.op("target", "Multiply", "opset1", &[], &[hw, two]);
    let axes = b.vec("axes", &[2, 3]);
    let y = v11(
        &mut b,
        "y",
        x,
        target,
        Some(axes),
        &[
            ("mode", "linear_onnx"),
            ("shape_calculation_mode", "sizes"),
            ("pads_begin", "0,0,1,1"),
            ("pads_end", "0,0,1"),
        ],
    );
    let s = b.const_f32("s", &[1], &[2.0]);
    let axis = b.vec("axis", &[3]);
    let z = v11(
        &mut b,
        "z",
        x,
        s,
        Some(axis),
        &[
            ("mode", "nearest"),
            ("shape_calculation_mode", "scales"),
            ("pads_begin", "0,0,1,1"),
            ("pads_end", "0,0,1"),
        ],
    );
    b.result(y);
    let r = b.run_to(z);
    assert_eq!(r.shape("y"), "[N, 3, 2*H, 2*W]");
    assert_eq!(r.shape("z"), "[N, 3, H + 2, 2*W + 2]");
}

#[test]
fn versions_1_and_4() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3,H,W", "f32");
    let target = b.vec("target", &[5, 6]);
    let v1 = b.op(
        "v1",
        "Interpolate",
        "opset1",
        &[
            ("axes", "2,3"),
            ("mode", "linear"),
            ("pads_begin", "0,0,1,1"),
        ],
        &[x, target],
    );
    let sizes = b.vec("sizes", &[1, 1]);
    let scales = b.const_f32("scales", &[2], &[3.0, 0.25]);
    let axes = b.vec("axes", &[2, 3]);
    let v4 = b.op(
        "v4",
        "Interpolate",
        "opset4",
        NEAREST_SCALES,
        &[x, sizes, scales, axes],
    );
    b.result(v1);
    let r = b.run_to(v4);
    // Interpolate-1's shape ignores its pads, as OpenVINO's.
    assert_eq!(r.shape("v1"), "[N, 3, 5, 6]");
    assert_eq!(r.shape("v4"), "[N, 3, 3*H, floor(W/4)]");
}

#[test]
fn errors() {
    let cases: &[(&[f32], &[i64], Attrs, &str)] = &[
        (
            &[2.0, 2.0],
            &[2, -1],
            NEAREST_SCALES,
            "axis -1 is outside [0, 4)",
        ),
        (
            &[2.0],
            &[2, 3],
            NEAREST_SCALES,
            "scales has 1 elements for 2 axes",
        ),
        (&[-2.0, 1.0], &[2, 3], NEAREST_SCALES, "negative or NaN"),
        (&[f32::NAN, 1.0], &[2, 3], NEAREST_SCALES, "negative or NaN"),
        (
            &[2.0, 2.0],
            &[2, 3],
            &[("mode", "bilinear"), ("shape_calculation_mode", "scales")],
            "`mode` bilinear is not one of",
        ),
        (
            &[2.0, 2.0],
            &[2, 3],
            &[
                ("mode", "nearest"),
                ("shape_calculation_mode", "scales"),
                ("pads_end", "0,0,-1"),
            ],
            "negative entry -1",
        ),
    ];
    for (scales, axes, attrs, needle) in cases {
        let mut b = Ir::new();
        let x = b.param("x", "N,3,H,W", "f32");
        let s = b.const_f32("s", &[scales.len()], scales);
        let a = b.vec("axes", axes);
        let y = v11(&mut b, "y", x, s, Some(a), attrs);
        b.run_to(y).error("y", "interpolate", needle);
    }
    let mut b = Ir::new();
    let x = b.param("x", "N,3,H,W", "f32");
    let s = b.vec("sizes", &[4, -2]);
    let a = b.vec("axes", &[2, 3]);
    let y = v11(&mut b, "y", x, s, Some(a), NEAREST_SIZES);
    b.run_to(y)
        .error("y", "interpolate", "the size -2 of axis 3 is negative");
}

#[test]
fn runtime_deviations_warn() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3,H,W", "f32");
    let s = b.vec("sizes", &[4, 4, 4]);
    let a = b.vec("axes", &[2, 3, 2]);
    let y = v11(
        &mut b,
        "y",
        x,
        s,
        Some(a),
        &[
            ("mode", "linear"),
            ("shape_calculation_mode", "sizes"),
            ("antialias", "true"),
        ],
    );
    let r = b.run_to(y);
    assert_eq!(r.shape("y"), "[N, 3, 4, 4]");
    assert_eq!(r.messages("interpolate-repeated-axis").len(), 1);
    assert_eq!(r.messages("interpolate-antialias-ignored").len(), 1);
}
