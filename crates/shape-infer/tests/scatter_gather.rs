//! GatherElements-6, GatherND-5/8, ScatterUpdate-3, ScatterNDUpdate-3/15,
//! ScatterElementsUpdate-3/12: symbolic shapes, values, and the checks of
//! OpenVINO's shape inference as typed errors.

mod support;
use support::Ir;

#[test]
fn gather_elements_shapes_and_values() {
    let mut b = Ir::new();
    let x = b.param("x", "N,4,H", "f32");
    let i = b.param("i", "N,K,H", "i32");
    let g = b.op("g", "GatherElements", "opset6", &[("axis", "1")], &[x, i]);
    b.result(g);
    // Dims other than the axis are merged: M == N becomes a constraint.
    let j = b.param("j", "M,2,H", "i64");
    let g2 = b.op("g2", "GatherElements", "opset6", &[("axis", "-2")], &[x, j]);
    b.result(g2);
    // Data of unknown rank: the indices' shape.
    let d = b.param("d", "...", "f32");
    let g3 = b.op("g3", "GatherElements", "opset6", &[], &[d, i]);
    b.result(g3);
    let shape = b.op("shape", "ShapeOf", "opset3", &[], &[x]);
    let perm = b.vec("perm", &[2, -3, 1]);
    let v = b.op("v", "GatherElements", "opset6", &[], &[shape, perm]);
    let r = b.run_to(v);
    r.clean();
    assert_eq!(r.shape("g"), "[N, K, H]");
    assert_eq!(r.shape("g2"), "[M, 2, H]");
    assert_eq!(r.constraints(), ["M == N"]);
    assert_eq!(r.shape("g3"), "[N, K, H]");
    assert_eq!(r.value("v").as_deref(), Some("[H, N, 4]"));
}

#[test]
fn gather_elements_errors() {
    for (idx_type, idx_shape, axis, rule, needle) in [
        ("f32", "2,3", "0", "element-type", "must be i32 or i64"),
        ("i8", "2,3", "0", "element-type", "must be i32 or i64"),
        ("i64", "2", "0", "gather-elements-rank", "same rank"),
        ("i64", "2,3", "2", "axis-out-of-range", "axis 2"),
        ("i64", "2,4", "0", "gather-elements-dims", "dim 1"),
    ] {
        let mut b = Ir::new();
        let x = b.param("x", "5,3", "f32");
        let i = b.param("i", idx_shape, idx_type);
        let g = b.op("g", "GatherElements", "opset6", &[("axis", axis)], &[x, i]);
        b.run_to(g).error("g", rule, needle);
    }
    let mut b = Ir::new();
    let x = b.param("x", "", "f32");
    let i = b.param("i", "2", "i64");
    let g = b.op("g", "GatherElements", "opset6", &[], &[x, i]);
    b.run_to(g)
        .error("g", "gather-elements-rank", "data must have a rank");
}

#[test]
fn gather_nd_shapes_v5_and_v8() {
    let mut b = Ir::new();
    let x = b.param("x", "N,S,64", "f32");
    let i = b.param("i", "K,2", "i64");
    let g = b.op("g", "GatherND", "opset8", &[], &[x, i]);
    b.result(g);
    let y = b.param("y", "B,4,H,6", "f32");
    let j = b.param("j", "B,4,3,1", "i32");
    let bd = [("batch_dims", "2")];
    let g8 = b.op("g8", "GatherND", "opset8", &bd, &[y, j]);
    b.result(g8);
    let g5 = b.op("g5", "GatherND", "opset5", &bd, &[y, j]);
    b.result(g5);
    let k = b.param("k", "B,3", "i32");
    let g1 = b.op("g1", "GatherND", "opset5", &[("batch_dims", "1")], &[y, k]);
    b.result(g1);
    // A tuple length not known: an unknown rank, as OpenVINO.
    let u = b.param("u", "K,?", "i32");
    let gu = b.op("gu", "GatherND", "opset8", &[], &[x, u]);
    b.result(gu);
    let shape = b.op("shape", "ShapeOf", "opset3", &[], &[x]);
    let pick = b.const_i64("pick", &[2, 1], &[2, -3]);
    let v = b.op("v", "GatherND", "opset8", &[], &[shape, pick]);
    let r = b.run_to(v);
    r.clean();
    assert_eq!(r.shape("g"), "[K, 64]");
    assert_eq!(r.shape("g8"), "[B, 4, 3, 6]");
    assert_eq!(r.shape("g5"), "[4*B, 3, 6]");
    assert_eq!(r.shape("g1"), "[B]");
    assert_eq!(r.shape("gu"), "[...]");
    assert_eq!(r.value("v").as_deref(), Some("[64, N]"));
}

#[test]
fn gather_nd_errors() {
    for (idx_type, idx_shape, batch_dims, rule, needle) in [
        ("f32", "2,1", "0", "element-type", "integer"),
        ("i64", "2,4", "0", "gather-nd-index-length", "length 4"),
        ("i64", "2,3", "1", "gather-nd-index-length", "batch_dims 1"),
        ("i64", "2,1", "-1", "gather-nd-batch-dims", "negative"),
        ("i64", "2,1", "2", "gather-nd-batch-dims", "rank of indices"),
        ("i64", "3,1", "1", "gather-nd-batch-dims", "batch dim 0"),
        ("i64", "", "0", "gather-nd-rank", "indices must have a rank"),
    ] {
        let mut b = Ir::new();
        let x = b.param("x", "2,3,4", "f32");
        let i = b.param("i", idx_shape, idx_type);
        let g = b.op(
            "g",
            "GatherND",
            "opset8",
            &[("batch_dims", batch_dims)],
            &[x, i],
        );
        b.run_to(g).error("g", rule, needle);
    }
}

#[test]
fn scatter_update_shapes_values_and_errors() {
    let mut b = Ir::new();
    let x = b.param("x", "N,5,H", "f32");
    let i = b.param("i", "K", "i32");
    let u = b.param("u", "N,K,M", "f32");
    let axis = b.scalar("axis", -2);
    let s = b.op("s", "ScatterUpdate", "opset3", &[], &[x, i, u, axis]);
    b.result(s);
    // ShapeOf [N, 5, H] with dims 1 and 2 replaced by [12, 1].
    let shape = b.op("shape", "ShapeOf", "opset3", &[], &[x]);
    let dims = b.vec("dims", &[1, 2]);
    let vals = b.vec("vals", &[12, 1]);
    let zero = b.scalar("zero", 0);
    let t = b.op(
        "t",
        "ScatterUpdate",
        "opset3",
        &[],
        &[shape, dims, vals, zero],
    );
    let r = b.run_to(t);
    r.clean();
    assert_eq!(r.shape("s"), "[N, 5, H]");
    assert_eq!(r.constraints(), ["M == H"]);
    assert_eq!(r.value("t").as_deref(), Some("[N, 12, 1]"));

    for (u_shape, u_type, i_type, axis, rule, needle) in [
        ("2,3", "f32", "i64", 0, "scatter-updates-shape", "rank"),
        ("2,5,4", "f32", "i64", 0, "scatter-updates-shape", "dim 1"),
        ("2,2,4", "f32", "i64", 3, "axis-out-of-range", "axis 3"),
        ("2,2,4", "f32", "f32", 0, "element-type", "integer"),
        (
            "2,2,4",
            "f16",
            "i64",
            0,
            "element-type",
            "same element type",
        ),
    ] {
        let mut b = Ir::new();
        let x = b.param("x", "3,2,4", "f32");
        let i = b.param("i", "2", i_type);
        let u = b.param("u", u_shape, u_type);
        let axis = b.scalar("axis", axis);
        let s = b.op("s", "ScatterUpdate", "opset3", &[], &[x, i, u, axis]);
        b.run_to(s).error("s", rule, needle);
    }
    let mut b = Ir::new();
    let x = b.param("x", "3,2,4", "f32");
    let i = b.param("i", "2", "i64");
    let u = b.param("u", "2,2,4", "f32");
    let axis = b.vec("axis", &[0, 1]);
    let s = b.op("s", "ScatterUpdate", "opset3", &[], &[x, i, u, axis]);
    b.run_to(s).error("s", "axis-not-scalar", "one element");
}

#[test]
fn scatter_nd_update_shapes_and_errors() {
    let mut b = Ir::new();
    let x = b.param("x", "N,4,H", "f32");
    let i = b.param("i", "K,2", "i32");
    let u = b.param("u", "K,M", "f32");
    let s = b.op("s", "ScatterNDUpdate", "opset4", &[], &[x, i, u]);
    b.result(s);
    let s15 = b.op(
        "s15",
        "ScatterNDUpdate",
        "opset15",
        &[("reduction", "sub")],
        &[x, i, u],
    );
    b.result(s15);
    // A full-rank single tuple: any updates shape (a scalar, or one element).
    let j = b.const_i64("j", &[3], &[0, 1, 2]);
    let one = b.const_f32("one", &[1], &[1.0]);
    let e = b.op("e", "ScatterNDUpdate", "opset4", &[], &[x, j, one]);
    b.result(e);
    // Values: ShapeOf [N, 4, H] with dim -1 set to 7 (not with a reduction).
    let shape = b.op("shape", "ShapeOf", "opset3", &[], &[x]);
    let last = b.const_i64("last", &[1, 1], &[-1]);
    let seven = b.vec("seven", &[7]);
    let v = b.op(
        "v",
        "ScatterNDUpdate",
        "opset15",
        &[],
        &[shape, last, seven],
    );
    b.result(v);
    let sum = [("reduction", "sum")];
    let vs = b.op(
        "vs",
        "ScatterNDUpdate",
        "opset15",
        &sum,
        &[shape, last, seven],
    );
    let r = b.run_to(vs);
    r.clean();
    assert_eq!(r.value("v").as_deref(), Some("[N, 4, 7]"));
    assert_eq!(r.value("vs"), None);
    assert_eq!(r.shape("s"), "[N, 4, H]");
    assert_eq!(r.shape("s15"), "[N, 4, H]");
    // Both layers assume it; it is reported once.
    assert_eq!(r.constraints(), ["M == H"]);

    for (i_type, i_shape, u_shape, attrs, rule, needle) in [
        ("i8", "2,1", "2,4,5", &[][..], "element-type", "i32 or i64"),
        (
            "i64",
            "2,4",
            "2",
            &[],
            "scatter-nd-index-length",
            "length 4",
        ),
        ("i64", "2,1", "2,4", &[], "scatter-updates-shape", "rank"),
        ("i64", "2,1", "3,4,5", &[], "scatter-updates-shape", "dim 0"),
        ("i64", "", "3", &[], "scatter-nd-rank", "indices"),
        (
            "i64",
            "2,1",
            "2,4,5",
            &[("reduction", "mean")],
            "scatter-reduction",
            "mean",
        ),
    ] {
        let mut b = Ir::new();
        let x = b.param("x", "3,4,5", "f32");
        let i = b.param("i", i_shape, i_type);
        let u = b.param("u", u_shape, "f32");
        let s = b.op("s", "ScatterNDUpdate", "opset15", attrs, &[x, i, u]);
        b.run_to(s).error("s", rule, needle);
    }
}

#[test]
fn scatter_elements_update_shapes_and_errors() {
    let mut b = Ir::new();
    let x = b.param("x", "N,4", "f32");
    let i = b.param("i", "K,M", "i64");
    let u = b.param("u", "K,L", "f32");
    let axis = b.scalar("axis", 1);
    let s = b.op(
        "s",
        "ScatterElementsUpdate",
        "opset12",
        &[("reduction", "mean"), ("use_init_val", "false")],
        &[x, i, u, axis],
    );
    b.result(s);
    let shape = b.op("shape", "ShapeOf", "opset3", &[], &[x]);
    let at = b.vec("at", &[-1]);
    let nine = b.vec("nine", &[9]);
    let zero = b.scalar("zero", 0);
    let v = b.op(
        "v",
        "ScatterElementsUpdate",
        "opset3",
        &[],
        &[shape, at, nine, zero],
    );
    let r = b.run_to(v);
    r.clean();
    assert_eq!(r.shape("s"), "[N, 4]");
    assert_eq!(r.constraints(), ["L == M"]);
    assert_eq!(r.value("v").as_deref(), Some("[N, 9]"));

    for (i_shape, u_shape, axis, attrs, rule, needle) in [
        ("2", "2", 0, &[][..], "scatter-elements-rank", "rank 2"),
        ("2,3", "2,2", 0, &[], "scatter-updates-shape", "dim 1"),
        ("2,3", "2,3", -3, &[], "axis-out-of-range", "axis -3"),
        (
            "2,3",
            "2,3",
            0,
            &[("reduction", "sub")],
            "scatter-reduction",
            "sub",
        ),
    ] {
        let mut b = Ir::new();
        let x = b.param("x", "3,4", "f32");
        let i = b.param("i", i_shape, "i32");
        let u = b.param("u", u_shape, "f32");
        let axis = b.scalar("axis", axis);
        let s = b.op(
            "s",
            "ScatterElementsUpdate",
            "opset12",
            attrs,
            &[x, i, u, axis],
        );
        b.run_to(s).error("s", rule, needle);
    }
    let mut b = Ir::new();
    let x = b.param("x", "3,4", "f32");
    let i = b.param("i", "2,3", "f32");
    let u = b.param("u", "2,3", "f32");
    let axis = b.scalar("axis", 0);
    let s = b.op(
        "s",
        "ScatterElementsUpdate",
        "opset3",
        &[],
        &[x, i, u, axis],
    );
    b.run_to(s).error("s", "element-type", "integer");
}
