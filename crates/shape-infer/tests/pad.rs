//! Pad-1/12.

mod support;
use support::Ir;

fn pad(version: &str, shape: &str, begin: &[i64], end: &[i64], mode: &str) -> support::Run {
    let mut b = Ir::new();
    let x = b.param("x", shape, "f32");
    let pb = b.vec("pb", begin);
    let pe = b.vec("pe", end);
    let p = b.op("p", "Pad", version, &[("pad_mode", mode)], &[x, pb, pe]);
    b.run_to(p)
}

#[test]
fn pad_shapes() {
    // OpenVINO on [2,3,4] with [0,0,-1]/[0,0,-1] (both versions): [2,3,2].
    let r = pad("opset12", "2,3,4", &[0, 0, -1], &[0, 0, -1], "constant");
    r.clean();
    assert_eq!(r.shape("p"), "[2, 3, 2]");
    let r = pad("opset1", "N,3,H", &[0, 1, 2], &[0, 1, 3], "edge");
    r.clean();
    assert_eq!(r.shape("p"), "[N, 5, H + 5]");
    let r = pad("opset12", "N,H", &[0, -1], &[0, -1], "constant");
    r.clean();
    assert_eq!(r.shape("p"), "[N, H - 2]");
    assert_eq!(r.constraints(), ["H - 2 >= 0"]);
    let r = pad("opset1", "2,H", &[0, 2], &[0, 2], "reflect");
    assert_eq!(r.shape("p"), "[2, H + 4]");
    assert_eq!(r.constraints(), ["2 < H"]);
}

#[test]
fn pad_errors() {
    pad("opset12", "2,3,4", &[0, 0, -3], &[0, 0, -3], "constant").error(
        "p",
        "pad-negative-dim",
        "dim 2 would be 4 + -3 + -3 = -2",
    );
    pad("opset12", "2,3,4", &[0, 0, 4], &[0, 0, 0], "reflect").error(
        "p",
        "pad-mode-limit",
        "reflect padding needs pads_begin[2] = 4 < dim 2 = 4",
    );
    pad("opset12", "2,3,4", &[0, 1], &[0, 1], "constant").error(
        "p",
        "pad-length",
        "pads_begin has 2 elements but the input has rank 3",
    );
    pad("opset12", "2,3,4", &[0, 0, 0], &[0, 0, 0], "wrap").error("p", "pad-mode", "`wrap`");
    // Symmetric allows a pad equal to the dim (OpenVINO: [2, 3, 8]).
    let r = pad("opset12", "2,3,4", &[0, 0, 4], &[0, 0, 0], "symmetric");
    r.clean();
    assert_eq!(r.shape("p"), "[2, 3, 8]");
}
