//! TopK-1/-3/-11: the axis dim becomes k (an expression when k is read from
//! a shape), and the errors and warnings of bad k and attributes.

mod support;
use support::Ir;

fn topk(k: i64, attrs: &[(&str, &str)]) -> support::Run {
    let mut b = Ir::new();
    let x = b.param("x", "N,5", "f32");
    let k = b.scalar("k", k);
    let t = b.layer("t", "TopK", "opset11", attrs, &[x, k], 2);
    b.result(t[1]);
    b.run_to(t[0])
}

const MAX_VALUE: &[(&str, &str)] = &[("axis", "1"), ("mode", "max"), ("sort", "value")];

#[test]
fn k_replaces_the_axis_dim() {
    let r = topk(3, MAX_VALUE);
    r.clean();
    assert_eq!(r.shape_of("t", 0), "[N, 3]");
    assert_eq!(r.shape_of("t", 1), "[N, 3]");
    assert_eq!(r.tensor_of("t", 1).element_type.to_string(), "i32");
}

#[test]
fn bad_k_and_attributes() {
    topk(0, MAX_VALUE).error("t", "topk", "k is 0; it must be at least 1");
    topk(2, &[("axis", "1"), ("mode", "largest"), ("sort", "value")]).error(
        "t",
        "topk",
        "`mode` largest",
    );
    topk(
        2,
        &[
            ("axis", "1"),
            ("mode", "max"),
            ("sort", "none"),
            ("stable", "true"),
        ],
    )
    .error("t", "topk", "`stable` needs `sort` value or index");
    // Above the axis dim: OpenVINO's shape inference accepts it.
    let r = topk(7, MAX_VALUE);
    assert_eq!(r.shape_of("t", 0), "[N, 7]");
    assert_eq!(r.messages("topk-k-exceeds-dim").len(), 1);
}
