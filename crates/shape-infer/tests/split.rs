//! Split-1.

mod support;
use support::Ir;

fn split(shape: &str, axis: i64, num: usize) -> support::Run {
    let mut b = Ir::new();
    let x = b.param("x", shape, "f32");
    let a = b.scalar("a", axis);
    let outs = b.layer(
        "s",
        "Split",
        "opset1",
        &[("num_splits", &num.to_string())],
        &[x, a],
        num,
    );
    for o in outs {
        b.result(o);
    }
    b.run()
}

#[test]
fn split_shapes() {
    // OpenVINO: [2,3,4] axis -1 into 2 is [2,3,2] each.
    let r = split("2,3,4", -1, 2);
    r.clean();
    assert_eq!(r.output_count("s"), 2);
    assert_eq!(r.shape_of("s", 1), "[2, 3, 2]");
    let r = split("N,S", 1, 3);
    r.clean();
    assert_eq!(r.shape_of("s", 2), "[N, S/3]");
    assert_eq!(r.constraints(), ["S % 3 == 0"]);
}

#[test]
fn split_errors() {
    split("2,3,4", 2, 3).error(
        "s",
        "split-not-divisible",
        "dim 2 is 4, which is not divisible by num_splits 3",
    );
    split("2,3,4", 3, 2).error("s", "axis-out-of-range", "axis 3");
    let mut b = Ir::new();
    let x = b.param("x", "2,4", "f32");
    let a = b.scalar("a", 1);
    let outs = b.layer("s", "Split", "opset1", &[("num_splits", "0")], &[x, a], 1);
    b.result(outs[0]);
    b.run().error("s", "split-num-splits", "got 0");
}
