//! Transpose-1.

mod support;
use support::Ir;

#[test]
fn transpose_permutes_and_reverses() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3,H", "f32");
    let order = b.vec("order", &[2, 0, 1]);
    let t = b.op("t", "Transpose", "opset1", &[], &[x, order]);
    b.result(t);
    let empty = b.const_i64("empty", &[0], &[]);
    let rev = b.op("rev", "Transpose", "opset1", &[], &[x, empty]);
    let r = b.run_to(rev);
    r.clean();
    assert_eq!(r.shape("t"), "[H, N, 3]");
    assert_eq!(r.shape("rev"), "[H, 3, N]");
}

#[test]
fn transpose_errors() {
    for (order, needle) in [
        (vec![0, 0, 1], "is not a permutation"),
        (vec![0, -1, 1], "is not a permutation"),
        (vec![0, 1], "order has 2 elements but the input has rank 3"),
    ] {
        let mut b = Ir::new();
        let x = b.param("x", "2,3,4", "f32");
        let o = b.vec("order", &order);
        let t = b.op("t", "Transpose", "opset1", &[], &[x, o]);
        b.run_to(t).error("t", "transpose-order", needle);
    }
}
