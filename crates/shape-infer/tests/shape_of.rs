//! ShapeOf-1/3.

mod support;
use support::Ir;

#[test]
fn shape_of_static_and_symbolic() {
    let mut b = Ir::new();
    let x = b.param("x", "2,3", "f32");
    let s = b.op("s", "ShapeOf", "opset1", &[], &[x]);
    b.result(s);
    let y = b.param("y", "N,3,H", "f16");
    let t = b.op("t", "ShapeOf", "opset3", &[("output_type", "i32")], &[y]);
    let r = b.run_to(t);
    r.clean();
    assert_eq!(
        (r.shape("s"), r.value("s").unwrap()),
        ("[2]".into(), "[2, 3]".into())
    );
    assert_eq!(r.element_type("s"), "i64");
    assert_eq!(
        (r.shape("t"), r.value("t").unwrap()),
        ("[3]".into(), "[N, 3, H]".into())
    );
    assert_eq!(r.element_type("t"), "i32");
}

#[test]
fn shape_of_bad_output_type() {
    let mut b = Ir::new();
    let x = b.param("x", "2,3", "f32");
    let s = b.op("s", "ShapeOf", "opset3", &[("output_type", "f32")], &[x]);
    b.run_to(s).error("s", "shapeof-output-type", "got `f32`");
}
