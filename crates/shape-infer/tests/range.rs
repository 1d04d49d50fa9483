//! Range-1/4.

mod support;
use support::Ir;

fn range(start: i64, stop: i64, step: i64) -> support::Run {
    let mut b = Ir::new();
    let a = b.scalar("a", start);
    let o = b.scalar("o", stop);
    let s = b.scalar("s", step);
    let r = b.op(
        "r",
        "Range",
        "opset4",
        &[("output_type", "i64")],
        &[a, o, s],
    );
    b.result(r);
    let r1 = b.op("r1", "Range", "opset1", &[], &[a, o, s]);
    b.run_to(r1)
}

#[test]
fn range_static_lengths_and_values() {
    // OpenVINO: Range(0, 5, 2) is [3]; Range(5, 0, 1) is [0].
    let r = range(0, 5, 2);
    r.clean();
    assert_eq!(r.shape("r"), "[3]");
    assert_eq!(r.value("r").as_deref(), Some("[0, 2, 4]"));
    assert_eq!(r.shape("r1"), "[3]");
    assert_eq!(r.element_type("r1"), "i64");
    let r = range(5, 0, 1);
    assert_eq!(r.shape("r"), "[0]");
    let r = range(5, -2, -3);
    assert_eq!(r.value("r").as_deref(), Some("[5, 2, -1]"));
}

#[test]
fn range_step_zero_is_an_error() {
    let r = range(0, 5, 0);
    let errors: Vec<_> = r.rules().into_iter().map(|(rule, _)| rule).collect();
    assert_eq!(errors, ["range-step-zero", "range-step-zero"]);
}

#[test]
fn range_huge_length_has_no_value_and_unknown_inputs_a_fresh_symbol() {
    let r = range(0, i64::MAX, 1);
    r.clean();
    assert_eq!(r.shape("r"), format!("[{}]", i64::MAX));
    assert_eq!(r.value("r"), None);

    let mut b = Ir::new();
    let a = b.scalar("a", 0);
    let o = b.param("o", "", "i64");
    let one = b.scalar("one", 1);
    let r = b.op(
        "r",
        "Range",
        "opset4",
        &[("output_type", "f32")],
        &[a, o, one],
    );
    let r = b.run_to(r);
    r.clean();
    assert_eq!(r.shape("r"), "[?0]");
    assert_eq!(r.element_type("r"), "f32");
}

#[test]
fn range_errors() {
    let mut b = Ir::new();
    let a = b.scalar("a", 0);
    let o = b.vec("o", &[4, 5]);
    let r = b.op(
        "r",
        "Range",
        "opset4",
        &[("output_type", "i64")],
        &[a, o, a],
    );
    b.run_to(r)
        .error("r", "range-input-not-scalar", "stop (input 1)");

    let mut b = Ir::new();
    let a = b.scalar("a", 0);
    let o = b.const_ints("o", "i32", &[], &[5]);
    let s = b.scalar("s", 1);
    let r = b.op("r", "Range", "opset1", &[], &[a, o, s]);
    b.run_to(r).error("r", "element-type", "got i32");

    let mut b = Ir::new();
    let a = b.scalar("a", 0);
    let one = b.scalar("one", 1);
    let r = b.op(
        "r",
        "Range",
        "opset4",
        &[("output_type", "banana")],
        &[a, a, one],
    );
    b.run_to(r).error("r", "range-output-type", "banana");
}
