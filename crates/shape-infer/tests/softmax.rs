//! SoftMax-1/8.

mod support;
use support::Ir;

#[test]
fn softmax_passes_the_shape() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3,H", "f32");
    let s = b.op("s", "SoftMax", "opset8", &[("axis", "-1")], &[x]);
    b.result(s);
    let s1 = b.op("s1", "SoftMax", "opset1", &[("axis", "2")], &[x]);
    let r = b.run_to(s1);
    r.clean();
    assert_eq!(r.shape("s"), "[N, 3, H]");
    assert_eq!(r.shape("s1"), "[N, 3, H]");
    assert_eq!(r.element_type("s"), "f32");
}

#[test]
fn softmax_axis_errors() {
    // OpenVINO rejects a negative axis in SoftMax-1 and axis 3 on rank 3.
    for (version, axis, needle) in [
        ("opset1", "-1", "SoftMax-1 does not allow"),
        ("opset8", "3", "axis 3 is out of range for rank 3"),
        ("opset8", "-4", "axis -4 is out of range"),
    ] {
        let mut b = Ir::new();
        let x = b.param("x", "2,3,4", "f32");
        let s = b.op("s", "SoftMax", version, &[("axis", axis)], &[x]);
        b.run_to(s).error("s", "axis-out-of-range", needle);
    }
}
