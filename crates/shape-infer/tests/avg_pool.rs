//! AvgPool-16's dilations and the `exclude-pad` check every AvgPool version
//! makes (OpenVINO's goldens are in `golden/pool_avg16*`).

mod support;
use support::Ir;

const WINDOW: &[(&str, &str)] = &[
    ("kernel", "2,2"),
    ("strides", "1,1"),
    ("pads_begin", "0,0"),
    ("pads_end", "0,0"),
    ("dilations", "2,3"),
    ("exclude-pad", "true"),
    ("rounding_type", "floor"),
];

#[test]
fn v16_dilates_its_window() {
    let mut n = Ir::new();
    let x = n.param("x", "N,2,H,W", "f32");
    let p = n.op("p", "AvgPool", "opset16", WINDOW, &[x]);
    let r = n.run_to(p);
    r.clean();
    assert_eq!(r.shape("p"), "[N, 2, H - 2, W - 3]");
}

#[test]
fn earlier_versions_have_no_dilations() {
    let mut n = Ir::new();
    let x = n.param("x", "N,2,H,W", "f32");
    let p = n.op("p", "AvgPool", "opset14", WINDOW, &[x]);
    let r = n.run_to(p);
    r.clean();
    assert_eq!(r.shape("p"), "[N, 2, H - 1, W - 1]");
}

#[test]
fn a_window_of_padding_only_is_an_error_with_exclude_pad() {
    let mut n = Ir::new();
    let x = n.param("x", "1,2,8,8", "f32");
    let attrs = [
        ("kernel", "2,2"),
        ("strides", "1,1"),
        ("pads_begin", "0,4"),
        ("pads_end", "0,0"),
        ("dilations", "1,3"),
        ("exclude-pad", "true"),
    ];
    let p = n.op("p", "AvgPool", "opset16", &attrs, &[x]);
    n.run_to(p).error(
        "p",
        "window-in-padding",
        "dilated kernel (4) must be larger",
    );
    // Counting the padding, the same window is allowed.
    let mut n = Ir::new();
    let x = n.param("x", "1,2,8,8", "f32");
    let attrs = [
        ("kernel", "2,2"),
        ("strides", "1,1"),
        ("pads_begin", "0,4"),
        ("pads_end", "0,0"),
        ("dilations", "1,3"),
        ("exclude-pad", "false"),
    ];
    let p = n.op("p", "AvgPool", "opset16", &attrs, &[x]);
    let r = n.run_to(p);
    r.clean();
    assert_eq!(r.shape("p"), "[1, 2, 7, 9]");
}
