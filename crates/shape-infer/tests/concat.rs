//! Concat-1.

mod support;
use support::Ir;

#[test]
fn concat_sums_the_axis() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3,H", "f32");
    let y = b.param("y", "N,5,H", "f32");
    let c = b.op("c", "Concat", "opset1", &[("axis", "-2")], &[x, y, x]);
    let r = b.run_to(c);
    r.clean();
    assert_eq!(r.shape("c"), "[N, 11, H]");
    assert_eq!(r.value("c"), None);
}

#[test]
fn concat_undecidable_dim_is_a_constraint_and_takes_the_static_one() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3", "f32");
    let y = b.param("y", "4,M", "f32");
    let c = b.op("c", "Concat", "opset1", &[("axis", "1")], &[x, y]);
    let r = b.run_to(c);
    r.clean();
    assert_eq!(r.shape("c"), "[4, M + 3]");
    assert_eq!(r.constraints(), ["N == 4"]);
}

#[test]
fn concat_errors() {
    let mut b = Ir::new();
    let x = b.param("x", "2,3,4", "f32");
    let y = b.param("y", "2,4,4", "f32");
    let c = b.op("c", "Concat", "opset1", &[("axis", "0")], &[x, y]);
    b.run_to(c).error(
        "c",
        "concat-dim-mismatch",
        "dim 1 of input 0 and of input 1: 3 and 4 differ",
    );

    let mut b = Ir::new();
    let x = b.param("x", "2..4,3", "f32");
    let y = b.param("y", "5..9,3", "f32");
    let c = b.op("c", "Concat", "opset1", &[("axis", "1")], &[x, y]);
    b.run_to(c).error(
        "c",
        "concat-dim-mismatch",
        "dim 0 of input 0 and of input 1",
    );

    let mut b = Ir::new();
    let x = b.param("x", "2,3,4", "f32");
    let y = b.param("y", "2,4", "f32");
    let c = b.op("c", "Concat", "opset1", &[("axis", "0")], &[x, y]);
    b.run_to(c).error(
        "c",
        "concat-rank",
        "input 1 has rank 2 but input 0 has rank 3",
    );

    let mut b = Ir::new();
    let x = b.param("x", "2,3", "f32");
    let y = b.param("y", "2,3", "i32");
    let c = b.op("c", "Concat", "opset1", &[("axis", "0")], &[x, y]);
    b.run_to(c).error("c", "element-type", "got i32");

    let mut b = Ir::new();
    let x = b.param("x", "2,3", "f32");
    let c = b.op("c", "Concat", "opset1", &[("axis", "2")], &[x, x]);
    b.run_to(c).error("c", "axis-out-of-range", "axis 2");
}

#[test]
fn concat_with_unknown_rank_input() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3", "f32");
    let y = b.param("y", "...", "f32");
    let c = b.op("c", "Concat", "opset1", &[("axis", "0")], &[y, x]);
    let r = b.run_to(c);
    r.clean();
    let shape = r.shape("c");
    assert!(
        shape.starts_with("[?") && shape.ends_with(", 3]"),
        "{shape}"
    );
}

#[test]
fn concat_values_of_2d_pieces() {
    let mut b = Ir::new();
    let a = b.const_i64("a", &[2, 1], &[1, 2]);
    let c2 = b.const_i64("c2", &[2, 2], &[3, 4, 5, 6]);
    let c = b.op("c", "Concat", "opset1", &[("axis", "1")], &[a, c2]);
    let r = b.run_to(c);
    r.clean();
    assert_eq!(r.shape("c"), "[2, 3]");
    assert_eq!(r.value("c").as_deref(), Some("[1, 3, 4, 2, 5, 6]"));
}

/// A shape piece and a Parameter's unknown element: the Concat has no
/// value, only bounds, and a Reshape to it (through a Convert) assumes
/// nothing of the unknown element, which may be its -1.
#[test]
fn concat_with_an_unknown_piece_constrains_no_reshape() {
    let mut b = Ir::new();
    let x = b.param("x", "N,4", "f32");
    let y = b.param("y", "6,4", "f32");
    let p = b.param("p", "1", "i64");
    let s = b.op("s", "ShapeOf", "opset3", &[], &[x]);
    let zero = b.vec("zero", &[0]);
    let one = b.vec("one", &[1]);
    let first = b.op("first", "Slice", "opset8", &[], &[s, zero, one, one]);
    let c = b.op("c", "Concat", "opset1", &[("axis", "0")], &[first, p]);
    let cv = b.op(
        "cv",
        "Convert",
        "opset1",
        &[("destination_type", "i32")],
        &[c],
    );
    let r = b.op(
        "r",
        "Reshape",
        "opset1",
        &[("special_zero", "false")],
        &[y, cv],
    );
    let run = b.run_to(r);
    run.clean();
    assert_eq!(run.value("c"), None);
    assert_eq!(run.value("cv"), None);
    assert!(run.constraints().is_empty(), "{:?}", run.constraints());
}
