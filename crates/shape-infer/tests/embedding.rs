//! The embedding-bag ops: symbolic shapes and the checks of their
//! specifications (OpenVINO's goldens are in `golden/embedding_*`).

mod support;
use support::Ir;

#[test]
fn offsets_give_one_row_per_bag() {
    let mut n = Ir::new();
    let table = n.param("table", "N,D,3", "f32");
    let idx = n.param("idx", "I", "i32");
    let off = n.param("off", "B", "i32");
    let w = n.param("w", "I", "f32");
    let d = n.const_ints("d", "i32", &[], &[0]);
    let v3 = n.op(
        "v3",
        "EmbeddingBagOffsetsSum",
        "opset3",
        &[],
        &[table, idx, off, d, w],
    );
    n.result(v3);
    let v15 = n.op(
        "v15",
        "EmbeddingBagOffsets",
        "opset15",
        &[("reduction", "mean")],
        &[table, idx, off],
    );
    let r = n.run_to(v15);
    r.clean();
    assert_eq!(r.shape("v3"), "[B, D, 3]");
    assert_eq!(r.shape("v15"), "[B, D, 3]");
}

#[test]
fn weights_and_a_mean_are_an_error() {
    let mut n = Ir::new();
    let table = n.param("table", "5,3", "f32");
    let idx = n.param("idx", "4", "i32");
    let off = n.param("off", "2", "i32");
    let d = n.const_ints("d", "i32", &[], &[0]);
    let w = n.param("w", "4", "f32");
    let e = n.op(
        "e",
        "EmbeddingBagOffsets",
        "opset15",
        &[("reduction", "mean")],
        &[table, idx, off, d, w],
    );
    n.run_to(e).error(
        "e",
        "embedding-weights",
        "only be used with reduction=\"sum\"",
    );
}

#[test]
fn weights_of_another_length_are_an_error() {
    let mut n = Ir::new();
    let table = n.param("table", "5,3", "f32");
    let idx = n.param("idx", "4", "i32");
    let off = n.param("off", "2", "i32");
    let d = n.const_ints("d", "i32", &[], &[0]);
    let w = n.param("w", "3", "f32");
    let e = n.op(
        "e",
        "EmbeddingBagOffsetsSum",
        "opset3",
        &[],
        &[table, idx, off, d, w],
    );
    n.run_to(e).error("e", "embedding-weights", "one shape");
}

#[test]
fn index_types_must_agree() {
    let mut n = Ir::new();
    let table = n.param("table", "5,3", "f32");
    let idx = n.param("idx", "4", "i32");
    let off = n.param("off", "2", "i64");
    let e = n.op(
        "e",
        "EmbeddingBagOffsetsSum",
        "opset3",
        &[],
        &[table, idx, off],
    );
    let r = n.run_to(e);
    assert_eq!(r.errors().len(), 1, "{:?}", r.errors());
    assert_eq!(r.errors()[0].0, "element-type");
}

#[test]
fn packed_takes_the_first_dim_of_2d_indices() {
    let mut n = Ir::new();
    let table = n.param("table", "N,8", "f16");
    let idx = n.param("idx", "B,L", "i64");
    let e = n.op(
        "e",
        "EmbeddingBagPacked",
        "opset15",
        &[("reduction", "mean")],
        &[table, idx],
    );
    let r = n.run_to(e);
    r.clean();
    assert_eq!(r.shape("e"), "[B, 8]");
    assert_eq!(r.element_type("e"), "f16");

    let mut n = Ir::new();
    let table = n.param("table", "N,8", "f32");
    let idx = n.param("idx", "6", "i64");
    let e = n.op("e", "EmbeddingBagPackedSum", "opset3", &[], &[table, idx]);
    n.run_to(e).error("e", "input-rank", "must be 2-D");
}

#[test]
fn segments_take_num_segments_value() {
    let mut n = Ir::new();
    let table = n.param("table", "N,4", "f32");
    let idx = n.param("idx", "I", "i64");
    let seg = n.param("seg", "I", "i64");
    let s = n.param("s", "S,2", "f32");
    let shape = n.op(
        "shape",
        "ShapeOf",
        "opset3",
        &[("output_type", "i64")],
        &[s],
    );
    let zero = n.scalar("zero", 0);
    let count = n.op("count", "Gather", "opset8", &[], &[shape, zero, zero]);
    let e = n.op(
        "e",
        "EmbeddingSegmentsSum",
        "opset3",
        &[],
        &[table, idx, seg, count],
    );
    let r = n.run_to(e);
    r.clean();
    assert_eq!(r.shape("e"), "[S, 4]");

    let mut n = Ir::new();
    let table = n.param("table", "N,4", "f32");
    let idx = n.param("idx", "3", "i64");
    let seg = n.param("seg", "2", "i64");
    let k = n.scalar("k", 2);
    let e = n.op(
        "e",
        "EmbeddingSegmentsSum",
        "opset3",
        &[],
        &[table, idx, seg, k],
    );
    n.run_to(e).error("e", "embedding-segments", "one length");

    let mut n = Ir::new();
    let table = n.param("table", "N,4", "f32");
    let idx = n.param("idx", "3", "i64");
    let k = n.scalar("k", -1);
    let e = n.op(
        "e",
        "EmbeddingSegmentsSum",
        "opset3",
        &[],
        &[table, idx, idx, k],
    );
    n.run_to(e)
        .error("e", "embedding-segments", "must not be negative");
}
