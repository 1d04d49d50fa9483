//! ReduceSum/Prod/Max/Min/Mean-1.

mod support;
use support::Ir;

#[test]
fn reduce_shapes() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3,H,W", "f32");
    let axes = b.vec("axes", &[1, -1, 3]);
    let s = b.op("s", "ReduceSum", "opset1", &[], &[x, axes]);
    b.result(s);
    let m = b.op(
        "m",
        "ReduceMean",
        "opset1",
        &[("keep_dims", "true")],
        &[x, axes],
    );
    b.result(m);
    let none = b.const_i64("none", &[0], &[]);
    let id = b.op("id", "ReduceMax", "opset1", &[], &[x, none]);
    b.result(id);
    let scalar = b.scalar("scalar", 0);
    let p = b.op("p", "ReduceProd", "opset1", &[], &[x, scalar]);
    let r = b.run_to(p);
    r.clean();
    // OpenVINO on [2,3,4,5]: duplicates allowed, [2, 4]; keep_dims [2, 1, 4, 1].
    assert_eq!(r.shape("s"), "[N, H]");
    assert_eq!(r.shape("m"), "[N, 1, H, 1]");
    assert_eq!(r.shape("id"), "[N, 3, H, W]");
    assert_eq!(r.shape("p"), "[3, H, W]");
}

#[test]
fn reduce_values() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3,H", "f32");
    let shape = b.op("shape", "ShapeOf", "opset3", &[], &[x]);
    let axes = b.vec("axes", &[0]);
    for (ty, name) in [
        ("ReduceSum", "sum"),
        ("ReduceProd", "prod"),
        ("ReduceMax", "max"),
        ("ReduceMin", "min"),
        ("ReduceMean", "mean"),
    ] {
        let o = b.op(name, ty, "opset1", &[], &[shape, axes]);
        b.result(o);
    }
    let r = b.run();
    r.clean();
    assert_eq!(r.value("sum").as_deref(), Some("[N + H + 3]"));
    assert_eq!(r.value("prod").as_deref(), Some("[3*N*H]"));
    assert_eq!(r.value("max").as_deref(), Some("[max(H, max(N, 3))]"));
    assert_eq!(r.value("min").as_deref(), Some("[min(H, min(N, 3))]"));
    assert_eq!(r.value("mean"), None);
    assert_eq!(r.shape("prod"), "[]");
}

#[test]
fn reduce_errors_and_unknowns() {
    let mut b = Ir::new();
    let x = b.param("x", "2,3", "f32");
    let axes = b.vec("axes", &[2]);
    let s = b.op("s", "ReduceSum", "opset1", &[], &[x, axes]);
    b.run_to(s).error(
        "s",
        "axis-out-of-range",
        "axis 2 is out of range for rank 2",
    );

    let mut b = Ir::new();
    let x = b.param("x", "2,3", "f32");
    let axes = b.param("axes", "1", "i64");
    let k = b.op(
        "k",
        "ReduceSum",
        "opset1",
        &[("keep_dims", "yes")],
        &[x, axes],
    );
    b.result(k);
    let k2 = b.op(
        "k2",
        "ReduceSum",
        "opset1",
        &[("keep_dims", "1")],
        &[x, axes],
    );
    let r = b.run_to(k2);
    assert_eq!(r.rules(), [("attribute-boolean", ir::Severity::Warning)]);
    // Axes known only at run time, of static length 1: as OpenVINO, the
    // rank is known (one less without keep_dims), and each dim ranges over
    // the dims it can be.
    assert_eq!(r.shape("k"), "[?0]");
    assert_eq!(r.shape("k2"), "[?1, ?2]");
    let range = |layer: &str, axis: usize| {
        let d = &r.tensor(layer).shape.dims().expect("ranked")[axis];
        r.inference.symbols.bounds(d).expect("bounds")
    };
    let interval = |lo, hi| symdim::Interval::new(Some(lo), Some(hi));
    assert_eq!(range("k", 0), interval(2, 3));
    assert_eq!(range("k2", 0), interval(1, 2));
    assert_eq!(range("k2", 1), interval(1, 3));

    // Two axes may repeat: the rank is unknown (OpenVINO: `[...]`); no axes:
    // no reduction.
    for (len, want) in [(2, "[...]"), (0, "[2, 3]")] {
        let mut b = Ir::new();
        let x = b.param("x", "2,3", "f32");
        let axes = b.param("axes", &len.to_string(), "i64");
        let k = b.op("k", "ReduceSum", "opset1", &[], &[x, axes]);
        assert_eq!(b.run_to(k).shape("k"), want);
    }
}
