//! LRN-1.

mod support;
use support::Ir;

const ATTRS: &[(&str, &str)] = &[
    ("alpha", "0.0001"),
    ("beta", "0.75"),
    ("bias", "1"),
    ("size", "5"),
];

#[test]
fn lrn_passes_the_shape() {
    let mut b = Ir::new();
    let x = b.param("x", "N,C,H,W", "f32");
    let ax = b.vec("ax", &[2, 3]);
    let l = b.op("l", "LRN", "opset1", ATTRS, &[x, ax]);
    b.result(l);
    // Axes from a Parameter: not known, nothing to check.
    let axes = b.param("axes", "1", "i32");
    let d = b.op("d", "LRN", "opset1", ATTRS, &[x, axes]);
    let r = b.run_to(d);
    r.clean();
    assert_eq!(r.shape("l"), "[N, C, H, W]");
    assert_eq!(r.shape("d"), "[N, C, H, W]");
    assert_eq!(r.element_type("l"), "f32");
}

#[test]
fn lrn_axis_and_attribute_errors() {
    for (axes, needle) in [
        (&[4][..], "axis 4 is out of range for rank 4"),
        (&[-1][..], "no negative axes"),
        (&[1, 1][..], "axis 1 is repeated"),
        (&[0, 1, 2, 3, 3][..], "5 axes for data of rank 4"),
    ] {
        let mut b = Ir::new();
        let x = b.param("x", "2,3,4,5", "f32");
        let ax = b.vec("ax", axes);
        let l = b.op("l", "LRN", "opset1", ATTRS, &[x, ax]);
        b.run_to(l).error("l", "lrn", needle);
    }
    for (key, value, needle) in [
        ("size", "0", "`size` 0 is below 1"),
        ("size", "-3", "`size` -3 is below 1"),
        ("alpha", "fast", "`alpha` \"fast\" is not a number"),
    ] {
        let attrs: Vec<(&str, &str)> = ATTRS
            .iter()
            .map(|&(k, v)| (k, if k == key { value } else { v }))
            .collect();
        let mut b = Ir::new();
        let x = b.param("x", "2,3,4,5", "f32");
        let ax = b.vec("ax", &[1]);
        let l = b.op("l", "LRN", "opset1", &attrs, &[x, ax]);
        b.run_to(l).error("l", "lrn", needle);
    }
    let mut b = Ir::new();
    let x = b.param("x", "2,3,4,5", "f32");
    let ax = b.vec("ax", &[1]);
    let l = b.op("l", "LRN", "opset1", &ATTRS[..3], &[x, ax]);
    b.run_to(l)
        .error("l", "lrn", "the `size` attribute is missing");
}

#[test]
fn lrn_axes_input_errors() {
    let mut b = Ir::new();
    let x = b.param("x", "2,3,4,5", "f32");
    let ax = b.const_i64("ax", &[1, 1], &[1]);
    let l = b.op("l", "LRN", "opset1", ATTRS, &[x, ax]);
    b.run_to(l).error("l", "input-rank", "must be 1-D");

    let mut b = Ir::new();
    let x = b.param("x", "2,3,4,5", "f32");
    let ax = b.const_f32("ax", &[1], &[1.0]);
    let l = b.op("l", "LRN", "opset1", ATTRS, &[x, ax]);
    b.run_to(l)
        .error("l", "element-type", "must be an integer tensor");
}
