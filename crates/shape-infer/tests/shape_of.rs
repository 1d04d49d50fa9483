//! ShapeOf-1/3.

mod opc;
use opc::Builder;

#[test]
fn shape_of_static_and_symbolic() {
    let mut b = Builder::new();
    let x = b.param("x", "2,3", "f32");
    let s = b.op("ShapeOf", "opset1", "s", &[], &[x]);
    b.result(s);
    let y = b.param("y", "N,3,H", "f16");
    let t = b.op("ShapeOf", "opset3", "t", &[("output_type", "i32")], &[y]);
    b.result(t);
    let r = b.run();
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
    let mut b = Builder::new();
    let x = b.param("x", "2,3", "f32");
    let s = b.op("ShapeOf", "opset3", "s", &[("output_type", "f32")], &[x]);
    b.result(s);
    b.run().error("s", "shapeof-output-type", "got `f32`");
}
