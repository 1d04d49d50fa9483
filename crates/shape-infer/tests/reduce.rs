//! ReduceSum/Prod/Max/Min/Mean-1.

mod opc;
use opc::Builder;

#[test]
fn reduce_shapes() {
    let mut b = Builder::new();
    let x = b.param("x", "N,3,H,W", "f32");
    let axes = b.vec("axes", &[1, -1, 3]);
    let s = b.op("ReduceSum", "opset1", "s", &[], &[x, axes]);
    b.result(s);
    let m = b.op(
        "ReduceMean",
        "opset1",
        "m",
        &[("keep_dims", "true")],
        &[x, axes],
    );
    b.result(m);
    let none = b.const_i64("none", &[0], &[]);
    let id = b.op("ReduceMax", "opset1", "id", &[], &[x, none]);
    b.result(id);
    let scalar = b.scalar("scalar", 0);
    let p = b.op("ReduceProd", "opset1", "p", &[], &[x, scalar]);
    b.result(p);
    let r = b.run();
    r.clean();
    // OpenVINO on [2,3,4,5]: duplicates allowed, [2, 4]; keep_dims [2, 1, 4, 1].
    assert_eq!(r.shape("s"), "[N, H]");
    assert_eq!(r.shape("m"), "[N, 1, H, 1]");
    assert_eq!(r.shape("id"), "[N, 3, H, W]");
    assert_eq!(r.shape("p"), "[3, H, W]");
}

#[test]
fn reduce_values() {
    let mut b = Builder::new();
    let x = b.param("x", "N,3,H", "f32");
    let shape = b.op("ShapeOf", "opset3", "shape", &[], &[x]);
    let axes = b.vec("axes", &[0]);
    for (ty, name) in [
        ("ReduceSum", "sum"),
        ("ReduceProd", "prod"),
        ("ReduceMax", "max"),
        ("ReduceMin", "min"),
        ("ReduceMean", "mean"),
    ] {
        let o = b.op(ty, "opset1", name, &[], &[shape, axes]);
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
    let mut b = Builder::new();
    let x = b.param("x", "2,3", "f32");
    let axes = b.vec("axes", &[2]);
    let s = b.op("ReduceSum", "opset1", "s", &[], &[x, axes]);
    b.result(s);
    b.run().error(
        "s",
        "axis-out-of-range",
        "axis 2 is out of range for rank 2",
    );

    let mut b = Builder::new();
    let x = b.param("x", "2,3", "f32");
    let axes = b.param("axes", "1", "i64");
    let k = b.op(
        "ReduceSum",
        "opset1",
        "k",
        &[("keep_dims", "yes")],
        &[x, axes],
    );
    b.result(k);
    let k2 = b.op(
        "ReduceSum",
        "opset1",
        "k2",
        &[("keep_dims", "1")],
        &[x, axes],
    );
    b.result(k2);
    let r = b.run();
    assert_eq!(r.rules(), [("attribute-boolean", ir::Severity::Warning)]);
    assert_eq!(r.shape("k"), "[...]");
    assert_eq!(r.shape("k2"), "[?0, ?1]");
}
