//! The mixture-of-experts family of opset17: ErfInv-17 and GroupedMatMul-17
//! (OpenVINO's goldens are in `golden/moe_*`).

mod support;
use support::Ir;

#[test]
fn erfinv_keeps_shape_and_type() {
    let mut n = Ir::new();
    let x = n.param("x", "N,3", "f16");
    let e = n.op("e", "ErfInv", "opset17", &[], &[x]);
    let r = n.run_to(e);
    r.clean();
    assert_eq!(r.shape("e"), "[N, 3]");
    assert_eq!(r.element_type("e"), "f16");
}

#[test]
fn erfinv_of_integers_is_an_error() {
    let mut n = Ir::new();
    let x = n.param("x", "4", "i32");
    let e = n.op("e", "ErfInv", "opset17", &[], &[x]);
    n.run_to(e).error("e", "element-type", "floating-point");
}

#[test]
fn erfinv_is_not_in_opset16() {
    let mut n = Ir::new();
    let x = n.param("x", "4", "f32");
    let e = n.op("e", "ErfInv", "opset16", &[], &[x]);
    n.run_to(e)
        .error("e", "op-unknown", "OpenVINO's `opset16` has no op `ErfInv`");
}

#[test]
fn grouped_3d_by_3d_gives_group_rows_columns() {
    let mut n = Ir::new();
    let a = n.param("a", "G,M,K", "f32");
    let b = n.param("b", "G,N,K", "f32");
    let g = n.op("g", "GroupedMatMul", "opset17", &[], &[a, b]);
    let r = n.run_to(g);
    r.clean();
    assert_eq!(r.shape("g"), "[G, M, N]");
}

#[test]
fn grouped_3d_by_3d_assumes_symbolic_groups_and_inner_equal() {
    let mut n = Ir::new();
    let a = n.param("a", "G,M,K", "f32");
    let b = n.param("b", "H,5,L", "f32");
    let g = n.op("g", "GroupedMatMul", "opset17", &[], &[a, b]);
    let r = n.run_to(g);
    assert_eq!(r.shape("g"), "[G, M, 5]");
    let constraints = r.constraints();
    assert!(
        constraints.contains(&"G == H".to_owned()),
        "{constraints:?}"
    );
    assert!(
        constraints.contains(&"K == L".to_owned()),
        "{constraints:?}"
    );
}

#[test]
fn grouped_3d_by_3d_accepts_and_ignores_offsets() {
    let mut n = Ir::new();
    let a = n.param("a", "2,3,4", "f32");
    let b = n.param("b", "2,5,4", "f32");
    let off = n.param("off", "2,1", "i32");
    let g = n.op("g", "GroupedMatMul", "opset17", &[], &[a, b, off]);
    let r = n.run_to(g);
    r.clean();
    assert_eq!(r.shape("g"), "[2, 3, 5]");
}

#[test]
fn grouped_2d_by_3d_keeps_the_rows() {
    let mut n = Ir::new();
    let a = n.param("a", "T,K", "bf16");
    let b = n.param("b", "E,N,K", "bf16");
    let off = n.param("off", "E", "i64");
    let g = n.op("g", "GroupedMatMul", "opset17", &[], &[a, b, off]);
    let r = n.run_to(g);
    r.clean();
    assert_eq!(r.shape("g"), "[T, N]");
    assert_eq!(r.element_type("g"), "bf16");
}

#[test]
fn grouped_2d_by_3d_needs_offsets() {
    let mut n = Ir::new();
    let a = n.param("a", "7,4", "f32");
    let b = n.param("b", "2,5,4", "f32");
    let g = n.op("g", "GroupedMatMul", "opset17", &[], &[a, b]);
    n.run_to(g)
        .error("g", "grouped-matmul-offsets", "needs the offsets input");
}

#[test]
fn grouped_offsets_must_be_1d() {
    let mut n = Ir::new();
    let a = n.param("a", "7,4", "f32");
    let b = n.param("b", "2,5,4", "f32");
    let off = n.param("off", "2,1", "i32");
    let g = n.op("g", "GroupedMatMul", "opset17", &[], &[a, b, off]);
    n.run_to(g)
        .error("g", "grouped-matmul-offsets", "must be 1-D, got rank 2");
}

#[test]
fn grouped_offsets_must_be_an_index_type() {
    let mut n = Ir::new();
    let a = n.param("a", "7,4", "f32");
    let b = n.param("b", "2,5,4", "f32");
    let off = n.param("off", "2", "f32");
    let g = n.op("g", "GroupedMatMul", "opset17", &[], &[a, b, off]);
    n.run_to(g).error("g", "element-type", "i32 or i64");
}

#[test]
fn grouped_inner_dims_must_agree() {
    let mut n = Ir::new();
    let a = n.param("a", "2,3,4", "f32");
    let b = n.param("b", "2,5,3", "f32");
    let g = n.op("g", "GroupedMatMul", "opset17", &[], &[a, b]);
    n.run_to(g)
        .error("g", "grouped-matmul-inner", "4 and 3 differ");
    let mut n = Ir::new();
    let a = n.param("a", "7,4", "f32");
    let b = n.param("b", "2,5,3", "f32");
    let off = n.param("off", "2", "i64");
    let g = n.op("g", "GroupedMatMul", "opset17", &[], &[a, b, off]);
    n.run_to(g)
        .error("g", "grouped-matmul-inner", "4 and 3 differ");
}

#[test]
fn grouped_group_dims_must_agree() {
    let mut n = Ir::new();
    let a = n.param("a", "2,3,4", "f32");
    let b = n.param("b", "3,5,4", "f32");
    let g = n.op("g", "GroupedMatMul", "opset17", &[], &[a, b]);
    n.run_to(g)
        .error("g", "grouped-matmul-groups", "2 and 3 differ");
}

#[test]
fn grouped_other_ranks_are_an_error() {
    for (a_shape, b_shape) in [("4,7", "5,7"), ("2,3,4", "5,4"), ("2,2,3,4", "2,2,5,4")] {
        let mut n = Ir::new();
        let a = n.param("a", a_shape, "f32");
        let b = n.param("b", b_shape, "f32");
        let off = n.param("off", "3", "i32");
        let g = n.op("g", "GroupedMatMul", "opset17", &[], &[a, b, off]);
        n.run_to(g).error(
            "g",
            "grouped-matmul-ranks",
            "supported: 2-D × 3-D, 3-D × 3-D",
        );
    }
}

#[test]
fn grouped_operand_types_must_agree() {
    let mut n = Ir::new();
    let a = n.param("a", "2,3,4", "f32");
    let b = n.param("b", "2,5,4", "f16");
    let g = n.op("g", "GroupedMatMul", "opset17", &[], &[a, b]);
    n.run_to(g).error("g", "element-type", "same element type");
}

#[test]
fn grouped_unknown_rank_gives_unknown_rank() {
    let mut n = Ir::new();
    let a = n.param("a", "...", "f32");
    let b = n.param("b", "2,5,4", "f32");
    let g = n.op("g", "GroupedMatMul", "opset17", &[], &[a, b]);
    let r = n.run_to(g);
    assert_eq!(r.shape("g"), "[...]");
}
