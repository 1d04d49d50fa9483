//! End to end: the shape subgraphs exported models compute at run time keep
//! their symbols as values.

mod support;
use support::Ir;

#[test]
fn shapeof_gather_concat_builds_a_symbolic_reshape_target() {
    let mut b = Ir::new();
    let x = b.param("x", "N,S,64", "f32");
    let shape = b.op("shape", "ShapeOf", "opset3", &[], &[x]);
    let idx = b.vec("idx", &[0, 1]);
    let axis = b.scalar("axis", 0);
    let ns = b.op(
        "ns",
        "Gather",
        "opset8",
        &[("batch_dims", "0")],
        &[shape, idx, axis],
    );
    let tail = b.vec("tail", &[4, 16]);
    let target = b.op("target", "Concat", "opset1", &[("axis", "0")], &[ns, tail]);
    let r = b.run_to(target);
    r.clean();
    assert_eq!(r.value("shape").as_deref(), Some("[N, S, 64]"));
    assert_eq!(r.value("ns").as_deref(), Some("[N, S]"));
    assert_eq!(r.shape("target"), "[4]");
    assert_eq!(r.value("target").as_deref(), Some("[N, S, 4, 16]"));
    assert_eq!(r.element_type("target"), "i64");
}

#[test]
fn range_over_a_gathered_dim_has_that_length() {
    let mut b = Ir::new();
    let x = b.param("x", "N,S,64", "f32");
    let shape = b.op("shape", "ShapeOf", "opset3", &[], &[x]);
    let one = b.vec("one", &[1]);
    let axis = b.scalar("axis", 0);
    // Gather with a scalar index gives a scalar: the `stop` of the Range.
    let idx = b.scalar("idx", 1);
    let s = b.op("s", "Gather", "opset8", &[], &[shape, idx, axis]);
    let start = b.scalar("start", 0);
    let step = b.scalar("step", 1);
    let range = b.op(
        "positions",
        "Range",
        "opset4",
        &[("output_type", "i64")],
        &[start, s, step],
    );
    b.result(range);
    // Gather([1]) keeps a 1-D vector.
    let s1 = b.op("s1", "Gather", "opset8", &[], &[shape, one, axis]);
    b.result(s1);
    // Range(2, S, 2): ceil((S - 2)/2), clamped at 0.
    let two = b.scalar("two", 2);
    let evens = b.op(
        "evens",
        "Range",
        "opset4",
        &[("output_type", "i32")],
        &[two, s, two],
    );
    let r = b.run_to(evens);
    r.clean();
    assert_eq!(r.shape("s"), "[]");
    assert_eq!(r.value("s").as_deref(), Some("[S]"));
    assert_eq!(r.shape("positions"), "[S]");
    assert_eq!(r.shape("s1"), "[1]");
    assert_eq!(r.value("s1").as_deref(), Some("[S]"));
    assert_eq!(r.shape("evens"), "[max(ceil(S/2) - 1, 0)]");
    assert_eq!(r.element_type("evens"), "i32");
}

#[test]
fn flatten_pattern_reduces_the_shape_to_a_product() {
    // ShapeOf -> Gather([1, 2, 3]) -> ReduceProd, then Concat([N], prod).
    let mut b = Ir::new();
    let x = b.param("x", "N,3,H,W", "f32");
    let shape = b.op("shape", "ShapeOf", "opset1", &[], &[x]);
    let idx = b.vec("idx", &[1, 2, 3]);
    let axis = b.scalar("axis", 0);
    let tail = b.op("tail", "Gather", "opset1", &[], &[shape, idx, axis]);
    let zero = b.vec("zero", &[0]);
    let prod = b.op(
        "prod",
        "ReduceProd",
        "opset1",
        &[("keep_dims", "true")],
        &[tail, zero],
    );
    let first = b.vec("first", &[0]);
    let n = b.op("n", "Gather", "opset1", &[], &[shape, first, axis]);
    let target = b.op("target", "Concat", "opset1", &[("axis", "-1")], &[n, prod]);
    let r = b.run_to(target);
    r.clean();
    assert_eq!(r.value("prod").as_deref(), Some("[3*H*W]"));
    assert_eq!(r.shape("prod"), "[1]");
    assert_eq!(r.value("target").as_deref(), Some("[N, 3*H*W]"));
}

#[test]
fn shape_of_unknown_rank_has_no_value() {
    let mut b = Ir::new();
    let x = b.param("x", "...", "f32");
    let shape = b.op(
        "shape",
        "ShapeOf",
        "opset3",
        &[("output_type", "i32")],
        &[x],
    );
    let idx = b.vec("idx", &[0]);
    let axis = b.scalar("axis", 0);
    let g = b.op("g", "Gather", "opset8", &[], &[shape, idx, axis]);
    let r = b.run_to(g);
    r.clean();
    assert_eq!(r.shape("shape"), "[?0]");
    assert_eq!(r.value("shape"), None);
    assert_eq!(r.element_type("shape"), "i32");
    assert_eq!(r.shape("g"), "[1]");
    assert_eq!(r.value("g"), None);
}

#[test]
fn slices_bounded_by_computed_values_stay_exact() {
    // OpenVINO gives these dims as intervals (5..7, 6..8, 5..6); the values
    // are expressions of the Parameter's symbols, so ours are exact.
    let mut b = Ir::new();
    let x = b.param("x", "2..4,5..7,3", "f32");
    let data = b.param("data", "10,20,30", "f32");
    let shape = b.op("shape", "ShapeOf", "opset3", &[], &[x]);
    let zero = b.scalar("zero", 0);
    let i0 = b.vec("i0", &[0]);
    let i1 = b.vec("i1", &[1]);
    let d0 = b.op("d0", "Gather", "opset8", &[], &[shape, i0, zero]);
    let d1 = b.op("d1", "Gather", "opset8", &[], &[shape, i1, zero]);
    let start = b.vec("start", &[0]);
    let one = b.vec("one", &[1]);
    let axis0 = b.vec("axis0", &[0]);
    let by_stop = b.op(
        "by_stop",
        "Slice",
        "opset8",
        &[],
        &[data, start, d1, one, axis0],
    );
    let six = b.vec("six", &[6]);
    let capped = b.op("capped", "Minimum", "opset1", &[], &[d1, six]);
    let axis2 = b.vec("axis2", &[2]);
    let by_min = b.op(
        "by_min",
        "Slice",
        "opset8",
        &[],
        &[data, start, capped, one, axis2],
    );
    let end = b.vec("end", &[1000]);
    let by_begin = b.op(
        "by_begin",
        "StridedSlice",
        "opset1",
        &[("begin_mask", "0"), ("end_mask", "0")],
        &[data, d0, end, one],
    );
    b.result(by_stop);
    b.result(by_min);
    let r = b.run_to(by_begin);
    r.clean();
    let x_dims = r.shape("x");
    let sym = |i: usize| {
        x_dims[1..x_dims.len() - 1]
            .split(", ")
            .nth(i)
            .unwrap()
            .to_owned()
    };
    assert_eq!(r.shape("by_stop"), format!("[{}, 20, 30]", sym(1)));
    assert_eq!(r.shape("by_min"), format!("[10, 20, min({}, 6)]", sym(1)));
    assert_eq!(r.shape("by_begin"), format!("[-{} + 10, 20, 30]", sym(0)));
}

#[test]
fn nonzero_of_a_converted_float_constant_folds() {
    let mut b = Ir::new();
    let halves: Vec<u8> = [1.0f32, 0.0, 2.0, 0.0, 3.0, 0.0]
        .iter()
        .flat_map(|&v| half::f16::from_f32(v).to_le_bytes())
        .collect();
    let c = b.constant("c", "f16", &[2, 3], &halves);
    let f = b.op(
        "f",
        "Convert",
        "opset1",
        &[("destination_type", "f32")],
        &[c],
    );
    let nz = b.op("nz", "NonZero", "opset3", &[("output_type", "i64")], &[f]);
    let r = b.run_to(nz);
    r.clean();
    assert_eq!(r.shape("nz"), "[2, 3]");
}

#[test]
fn split_pieces_of_a_shape_value_keep_their_values() {
    // Swin's padding computes its pads as a [3, 2] tensor split in two.
    let mut b = Ir::new();
    let x = b.param("x", "N,H,W,96", "f32");
    let shape = b.op("shape", "ShapeOf", "opset3", &[], &[x]);
    let tail = b.vec("tail", &[1, 2]);
    let six = b.op("six", "Concat", "opset1", &[("axis", "0")], &[shape, tail]);
    let pattern = b.vec("pattern", &[3, 2]);
    let grid = b.op(
        "grid",
        "Reshape",
        "opset1",
        &[("special_zero", "false")],
        &[six, pattern],
    );
    let axis = b.scalar("axis", 1);
    let halves = b.layer(
        "halves",
        "Split",
        "opset1",
        &[("num_splits", "2")],
        &[grid, axis],
        2,
    );
    let lengths = b.vec("lengths", &[1, 2]);
    let axis0 = b.scalar("axis0", 0);
    let rows = b.layer(
        "rows",
        "VariadicSplit",
        "opset1",
        &[],
        &[grid, axis0, lengths],
        2,
    );
    b.result(halves[0]);
    b.result(rows[1]);
    let r = b.run_to(halves[1]);
    r.clean();
    assert_eq!(r.value("halves").as_deref(), Some("[N, W, 1]"));
    assert_eq!(
        r.tensor_of("halves", 1).value.as_ref().map(Vec::len),
        Some(3)
    );
    assert_eq!(r.tensor_of("rows", 1).value.as_ref().map(Vec::len), Some(4));
}
