//! RGBtoNV12-17 and BGRtoNV12-17: symbolic shapes and the checks of OpenVINO's
//! shape inference (OpenVINO's goldens are in `golden/coverage_to_nv12`).

mod support;
use support::Ir;

#[test]
fn one_plane_is_half_again_as_tall() {
    let mut n = Ir::new();
    let x = n.param("x", "N,H,W,3", "u8");
    let c = n.op("c", "RGBtoNV12", "opset17", &[], &[x]);
    let r = n.run_to(c);
    assert_eq!(r.shape("c"), "[N, 3*(H/2), W, 1]");
    let constraints = r.constraints();
    assert!(
        constraints.iter().any(|c| c.contains("H")) && constraints.iter().any(|c| c.contains("W")),
        "{constraints:?}"
    );
}

#[test]
fn two_planes_give_y_and_interleaved_uv() {
    let mut n = Ir::new();
    let x = n.param("x", "2,4,6,3", "f32");
    let c = n.layer(
        "c",
        "BGRtoNV12",
        "opset17",
        &[("single_plane", "false")],
        &[x],
        2,
    );
    let r = n.run_to(c[1]);
    r.clean();
    assert_eq!(r.shape_of("c", 0), "[2, 4, 6, 1]");
    assert_eq!(r.shape_of("c", 1), "[2, 2, 3, 2]");
    assert_eq!(r.element_type("c"), "f32");
}

#[test]
fn odd_height_or_width_is_an_error() {
    for shape in ["1,5,6,3", "1,4,7,3"] {
        let mut n = Ir::new();
        let x = n.param("x", shape, "u8");
        let c = n.op("c", "RGBtoNV12", "opset17", &[], &[x]);
        n.run_to(c)
            .error("c", "color-divisible", "is not divisible by 2");
    }
}

#[test]
fn channels_rank_and_type_are_checked() {
    let mut n = Ir::new();
    let x = n.param("x", "1,4,6,4", "u8");
    let c = n.op("c", "RGBtoNV12", "opset17", &[], &[x]);
    n.run_to(c).error("c", "color-channels", "4 and 3 differ");
    let mut n = Ir::new();
    let x = n.param("x", "4,6,3", "u8");
    let c = n.op("c", "RGBtoNV12", "opset17", &[], &[x]);
    n.run_to(c).error("c", "input-rank", "got rank 3");
    let mut n = Ir::new();
    let x = n.param("x", "1,4,6,3", "i32");
    let c = n.op("c", "BGRtoNV12", "opset17", &[], &[x]);
    n.run_to(c)
        .error("c", "element-type", "u8 or floating point");
}
