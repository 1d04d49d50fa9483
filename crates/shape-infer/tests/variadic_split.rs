//! VariadicSplit-1.

mod support;
use support::Ir;

fn vsplit(shape: &str, axis: i64, lengths: &[i64]) -> support::Run {
    let mut b = Ir::new();
    let x = b.param("x", shape, "f32");
    let a = b.scalar("a", axis);
    let l = b.vec("l", lengths);
    let outs = b.layer(
        "v",
        "VariadicSplit",
        "opset1",
        &[],
        &[x, a, l],
        lengths.len(),
    );
    for o in outs {
        b.result(o);
    }
    b.run()
}

#[test]
fn variadic_split_shapes() {
    // OpenVINO: [2,3,4] axis 2 lengths [1,-1] gives [2,3,1] and [2,3,3].
    let r = vsplit("2,3,4", 2, &[1, -1]);
    r.clean();
    assert_eq!(r.shape_of("v", 0), "[2, 3, 1]");
    assert_eq!(r.shape_of("v", 1), "[2, 3, 3]");
    let r = vsplit("N,S", -1, &[2, -1, 3]);
    r.clean();
    assert_eq!(r.shape_of("v", 1), "[N, S - 5]");
    assert_eq!(r.constraints(), ["S - 5 >= 0"]);
    let r = vsplit("N,S", 1, &[2, 3]);
    r.clean();
    assert_eq!(r.constraints(), ["5 == S"]);
}

#[test]
fn variadic_split_errors() {
    vsplit("2,3,4", 2, &[-1, -1]).error("v", "variadic-split-lengths", "at most one -1");
    vsplit("2,3,4", 2, &[-2, 6]).error("v", "variadic-split-lengths", "split_lengths[0] is -2");
    vsplit("2,3,4", 2, &[1, 2]).error(
        "v",
        "variadic-split-sum",
        "split_lengths sum to 3 but dim 2 is 4",
    );
    vsplit("2,3,4", 2, &[5, -1]).error("v", "variadic-split-sum", "sum to 5, more than dim 2 = 4");
}
