//! StringTensorPack and StringTensorUnpack: shapes and the checks of their
//! specifications (OpenVINO's goldens are in `golden/strings_*`).

mod support;
use support::Ir;

#[test]
fn unpack_gives_offsets_of_the_input_shape_and_a_data_dependent_byte_count() {
    let mut n = Ir::new();
    let s = n.param("s", "N,3", "string");
    let parts = n.layer("u", "StringTensorUnpack", "opset15", &[], &[s], 3);
    n.named_result("begins", parts[0]);
    n.named_result("ends", parts[1]);
    n.named_result("symbols", parts[2]);
    let r = n.run();
    r.clean();
    assert_eq!(r.shape_of("u", 0), "[N, 3]");
    assert_eq!(r.shape_of("u", 1), "[N, 3]");
    assert_eq!(r.tensor_of("u", 0).element_type.name(), "i32");
    assert_eq!(r.tensor_of("u", 2).element_type.name(), "u8");
    let count = &r.tensor_of("u", 2).shape.dims().expect("ranked")[0];
    let symbol = count.as_symbol().expect("a fresh symbol");
    let range = r.inference.symbols.info(symbol).range;
    assert_eq!((range.lo, range.hi), (Some(0), None));
}

#[test]
fn unpack_needs_strings() {
    let mut n = Ir::new();
    let s = n.param("s", "3", "u8");
    let parts = n.layer("u", "StringTensorUnpack", "opset15", &[], &[s], 3);
    n.result(parts[0]);
    n.run()
        .error("u", "element-type", "must be a string tensor");
}

#[test]
fn pack_gives_the_shape_of_begins() {
    let mut n = Ir::new();
    let b = n.param("b", "N,2", "i64");
    let e = n.param("e", "M,2", "i64");
    let sym = n.param("sym", "K", "u8");
    let p = n.op("p", "StringTensorPack", "opset15", &[], &[b, e, sym]);
    let r = n.run_to(p);
    assert_eq!(r.element_type("p"), "string");
    assert_eq!(r.shape("p"), "[N, 2]");
    assert_eq!(r.constraints(), vec!["N == M"]);
}

#[test]
fn pack_checks_its_inputs() {
    let pack = |b: (&str, &str), e: (&str, &str), sym: (&str, &str)| {
        let mut n = Ir::new();
        let b = n.param("b", b.0, b.1);
        let e = n.param("e", e.0, e.1);
        let sym = n.param("sym", sym.0, sym.1);
        let p = n.op("p", "StringTensorPack", "opset15", &[], &[b, e, sym]);
        n.run_to(p)
    };
    pack(("2", "i32"), ("3", "i32"), ("5", "u8")).error("p", "string-tensor-pack", "dim 0");
    pack(("2", "i32"), ("2", "i64"), ("5", "u8")).error("p", "element-type", "same type");
    pack(("2", "f32"), ("2", "f32"), ("5", "u8")).error("p", "element-type", "i32 or i64");
    pack(("2", "i32"), ("2", "i32"), ("5", "i32")).error("p", "element-type", "must be u8");
    pack(("2", "i32"), ("2", "i32"), ("5,1", "u8")).error("p", "string-tensor-pack", "1-D");
    pack(("2,2", "i32"), ("2", "i32"), ("5", "u8")).error("p", "string-tensor-pack", "rank");
}
