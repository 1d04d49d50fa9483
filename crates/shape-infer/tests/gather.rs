//! Gather-1/7/8.

mod support;
use support::Ir;

#[test]
fn gather_shapes() {
    let mut b = Ir::new();
    let x = b.param("x", "N,S,64", "f32");
    let idx = b.param("idx", "K,2", "i64");
    let axis = b.scalar("axis", -2);
    let g = b.op("g", "Gather", "opset8", &[], &[x, idx, axis]);
    let r = b.run_to(g);
    r.clean();
    assert_eq!(r.shape("g"), "[N, K, 2, 64]");
}

#[test]
fn gather_batch_dims() {
    let mut b = Ir::new();
    let x = b.param("x", "2,3,4", "f32");
    let idx = b.param("idx", "2,5", "i32");
    let axis = b.scalar("axis", 2);
    let g = b.op(
        "g",
        "Gather",
        "opset8",
        &[("batch_dims", "1")],
        &[x, idx, axis],
    );
    b.result(g);
    let g2 = b.op(
        "g2",
        "Gather",
        "opset7",
        &[("batch_dims", "-1")],
        &[x, idx, axis],
    );
    let r = b.run_to(g2);
    r.clean();
    // OpenVINO: [2, 3, 5] for both.
    assert_eq!(r.shape("g"), "[2, 3, 5]");
    assert_eq!(r.shape("g2"), "[2, 3, 5]");
}

#[test]
fn gather_symbolic_batch_dim_is_a_constraint() {
    let mut b = Ir::new();
    let x = b.param("x", "B,3,4", "f32");
    let idx = b.param("idx", "2,5", "i32");
    let axis = b.scalar("axis", 1);
    let g = b.op(
        "g",
        "Gather",
        "opset8",
        &[("batch_dims", "1")],
        &[x, idx, axis],
    );
    let r = b.run_to(g);
    r.clean();
    assert_eq!(r.shape("g"), "[2, 5, 4]");
    assert_eq!(r.constraints(), ["B == 2"]);
}

#[test]
fn gather_errors() {
    let mut b = Ir::new();
    let x = b.param("x", "2,3,4", "f32");
    let idx = b.param("idx", "3,5", "i32");
    let axis = b.scalar("axis", 2);
    let g = b.op(
        "g",
        "Gather",
        "opset8",
        &[("batch_dims", "1")],
        &[x, idx, axis],
    );
    b.run_to(g).error(
        "g",
        "gather-batch-dims",
        "batch dim 0 of data and indices: 2 and 3 differ",
    );

    let mut b = Ir::new();
    let x = b.param("x", "2,3,4", "f32");
    let idx = b.param("idx", "2,3", "i32");
    let axis = b.scalar("axis", 0);
    let g = b.op(
        "g",
        "Gather",
        "opset7",
        &[("batch_dims", "1")],
        &[x, idx, axis],
    );
    b.run_to(g).error(
        "g",
        "gather-batch-dims",
        "batch_dims 1 must not be greater than axis 0",
    );

    let mut b = Ir::new();
    let x = b.param("x", "2,3,4", "f32");
    let idx = b.param("idx", "2", "i32");
    let axis = b.scalar("axis", 3);
    let g = b.op("g", "Gather", "opset8", &[], &[x, idx, axis]);
    b.run_to(g).error(
        "g",
        "axis-out-of-range",
        "axis 3 is out of range for rank 3",
    );

    let mut b = Ir::new();
    let x = b.param("x", "2,3,4", "f32");
    let idx = b.param("idx", "2", "f32");
    let axis = b.scalar("axis", 0);
    let g = b.op("g", "Gather", "opset8", &[], &[x, idx, axis]);
    b.run_to(g).error("g", "element-type", "integer");
}

#[test]
fn gather_values_negative_and_out_of_range_indices() {
    let mut b = Ir::new();
    let x = b.param("x", "N,S,64", "f32");
    let shape = b.op("shape", "ShapeOf", "opset3", &[], &[x]);
    let axis = b.scalar("axis", 0);
    let neg = b.vec("neg", &[-1, 0]);
    let g8 = b.op("g8", "Gather", "opset8", &[], &[shape, neg, axis]);
    b.result(g8);
    let g1 = b.op("g1", "Gather", "opset1", &[], &[shape, neg, axis]);
    b.result(g1);
    let oob = b.vec("oob", &[3]);
    let g_oob = b.op("g_oob", "Gather", "opset8", &[], &[shape, oob, axis]);
    let r = b.run_to(g_oob);
    r.clean();
    assert_eq!(r.value("g8").as_deref(), Some("[64, N]"));
    assert_eq!(r.value("g1"), None, "Gather-1 has no negative indices");
    assert_eq!(r.shape("g_oob"), "[1]");
    assert_eq!(r.value("g_oob"), None);
}

#[test]
fn gather_unknown_rank_and_unknown_axis() {
    let mut b = Ir::new();
    let x = b.param("x", "...", "f32");
    let idx = b.param("idx", "2", "i32");
    let axis = b.scalar("axis", 0);
    let g = b.op("g", "Gather", "opset8", &[], &[x, idx, axis]);
    b.result(g);
    let y = b.param("y", "2,3", "f32");
    let ax = b.param("ax", "", "i64");
    let h = b.op("h", "Gather", "opset8", &[], &[y, idx, ax]);
    let r = b.run_to(h);
    r.clean();
    assert_eq!(r.shape("g"), "[...]");
    assert_eq!(r.shape("h"), "[?0, ?1]");
}
