//! MatMul-0: transposes, 1-D operands, batch broadcasting, contracted dims.

mod support;
use support::Ir;

fn matmul(a: &str, b: &str, attrs: &[(&str, &str)]) -> support::Run {
    let mut n = Ir::new();
    let x = n.param("a", a, "f32");
    let y = n.param("b", b, "f32");
    let m = n.op("mm", "MatMul", "opset1", attrs, &[x, y]);
    n.run_to(m)
}

#[test]
fn plain_and_transposed() {
    let r = matmul("2,3", "3,4", &[]);
    r.clean();
    assert_eq!(r.shape("mm"), "[2, 4]");
    let r = matmul(
        "3,2",
        "4,3",
        &[("transpose_a", "true"), ("transpose_b", "true")],
    );
    r.clean();
    assert_eq!(r.shape("mm"), "[2, 4]");
}

#[test]
fn one_d_operands_lose_the_added_dim() {
    assert_eq!(matmul("3", "3,4", &[]).shape("mm"), "[4]");
    assert_eq!(matmul("2,3", "3", &[]).shape("mm"), "[2]");
    assert_eq!(
        matmul("3", "3", &[("transpose_a", "true")]).shape("mm"),
        "[]"
    );
    assert_eq!(matmul("5,2,3", "3", &[]).shape("mm"), "[5, 2]");
}

#[test]
fn batch_dims_broadcast_symbolically() {
    let r = matmul("?,1,2,3", "4,3,5", &[]);
    r.clean();
    assert_eq!(r.shape("mm"), "[?0, 4, 2, 5]");
}

#[test]
fn symbolic_contracted_dim_is_assumed_equal() {
    let r = matmul("2,?", "3,4", &[]);
    r.clean();
    assert_eq!(r.shape("mm"), "[2, 4]");
    assert_eq!(r.constraints(), ["?0 == 3"]);
}

#[test]
fn contracted_dims_that_differ_are_an_error() {
    let r = matmul("2,3", "4,5", &[]);
    let e = r.errors();
    assert_eq!(e[0].0, "matmul-contracted-dim");
    assert!(
        e[0].1.contains("3 (dim 1 of input 0 [2, 3])")
            && e[0].1.contains("4 (dim 0 of input 1 [4, 5])"),
        "{}",
        e[0].1
    );
    assert_eq!(matmul("", "3", &[]).errors()[0].0, "matmul-scalar");
    assert_eq!(
        matmul("2,2,3", "3,3,4", &[]).errors()[0].0,
        "broadcast-incompatible"
    );
}

#[test]
fn unknown_rank_gives_unknown_rank() {
    let r = matmul("...", "3,4", &[]);
    r.clean();
    assert_eq!(r.shape("mm"), "[...]");
}
