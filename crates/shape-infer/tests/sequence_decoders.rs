//! CTCGreedyDecoder, CTCGreedyDecoderSeqLen and GatherTree: symbolic shapes
//! and the checks of their specifications (OpenVINO's goldens are in
//! `golden/sequence_*`).

mod support;
use support::Ir;

#[test]
fn ctc_greedy_decoder_gives_batch_by_time() {
    let mut n = Ir::new();
    let x = n.param("x", "T,N,C", "f32");
    let m = n.param("m", "T,N", "f32");
    let d = n.op("d", "CTCGreedyDecoder", "opset1", &[], &[x, m]);
    let r = n.run_to(d);
    r.clean();
    assert_eq!(r.shape("d"), "[N, T, 1, 1]");

    let mut n = Ir::new();
    let x = n.param("x", "5,2,4", "f32");
    let m = n.param("m", "5,3", "f32");
    let d = n.op("d", "CTCGreedyDecoder", "opset1", &[], &[x, m]);
    n.run_to(d)
        .error("d", "ctc-shape", "N of the logits and of the mask");
}

#[test]
fn ctc_greedy_decoder_seq_len_has_two_outputs() {
    let mut n = Ir::new();
    let x = n.param("x", "N,T,C", "f16");
    let l = n.param("l", "N", "i64");
    let d = n.layer(
        "d",
        "CTCGreedyDecoderSeqLen",
        "opset6",
        &[("classes_index_type", "i64")],
        &[x, l],
        2,
    );
    n.result(d[1]);
    let r = n.run_to(d[0]);
    r.clean();
    assert_eq!(r.shape_of("d", 0), "[N, T]");
    assert_eq!(r.shape_of("d", 1), "[N]");
    assert_eq!(r.element_type("d"), "i64");
    assert_eq!(r.tensor_of("d", 1).element_type.to_string(), "i32");

    let mut n = Ir::new();
    let x = n.param("x", "2,5,4", "f32");
    let l = n.param("l", "2", "i32");
    let b = n.const_ints("b", "i32", &[2], &[0, 1]);
    let d = n.layer("d", "CTCGreedyDecoderSeqLen", "opset6", &[], &[x, l, b], 2);
    n.run_to(d[0]).error("d", "input-rank", "blank_index");
}

#[test]
fn gather_tree_merges_ids_parents_and_lengths() {
    let mut n = Ir::new();
    let ids = n.param("ids", "T,B,W", "i32");
    let parents = n.param("parents", "T,B,W", "i32");
    let lens = n.param("lens", "B", "i32");
    let end = n.const_ints("end", "i32", &[], &[0]);
    let g = n.op("g", "GatherTree", "opset1", &[], &[ids, parents, lens, end]);
    let r = n.run_to(g);
    r.clean();
    assert_eq!(r.shape("g"), "[T, B, W]");

    let mut n = Ir::new();
    let ids = n.param("ids", "4,2,3", "i32");
    let lens = n.param("lens", "3", "i32");
    let end = n.const_ints("end", "i32", &[], &[0]);
    let g = n.op("g", "GatherTree", "opset1", &[], &[ids, ids, lens, end]);
    n.run_to(g).error("g", "gather-tree-shape", "max_seq_len");

    let mut n = Ir::new();
    let ids = n.param("ids", "4,2,3", "i32");
    let lens = n.param("lens", "2", "f32");
    let end = n.const_ints("end", "i32", &[], &[0]);
    let g = n.op("g", "GatherTree", "opset1", &[], &[ids, ids, lens, end]);
    let r = n.run_to(g);
    assert_eq!(r.errors().len(), 1);
    assert_eq!(r.errors()[0].0, "element-type");
}
