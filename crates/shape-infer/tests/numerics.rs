//! The numerics and logic ops of issue 17: shapes kept symbolic and the
//! errors OpenVINO's type_prop tests name.

mod support;
use support::rule::{self, ctx, data, failure, shape0};

fn run1(
    type_name: &str,
    opset: &str,
    attrs: &[(&str, &str)],
    names: &[&str],
    shapes: &[&str],
) -> Result<String, (&'static str, String)> {
    let mut c = ctx(names);
    let inputs: Vec<_> = shapes.iter().map(|s| data(&mut c, s)).collect();
    let r = rule::run(&mut c, type_name, opset, attrs, &inputs);
    match r {
        Ok(out) => Ok(shape0(&c, &out)),
        Err(e) => Err(failure(Err(e))),
    }
}

#[test]
fn log_softmax_keeps_the_shape_and_checks_the_axis() {
    let ls = |axis: &str, shape: &str| {
        run1(
            "LogSoftmax",
            "opset5",
            &[("axis", axis)],
            &["N", "C"],
            &[shape],
        )
    };
    assert_eq!(ls("1", "N, C, 6").unwrap(), "[N, C, 6]");
    assert_eq!(ls("-3", "N, C, 6").unwrap(), "[N, C, 6]");
    assert_eq!(ls("3", "N, C, 6").unwrap_err().0, "axis-out-of-range");
    assert_eq!(ls("-4", "N, C, 6").unwrap_err().0, "axis-out-of-range");
    // A scalar takes 0 or -1, as OpenVINO.
    assert_eq!(ls("-1", "").unwrap(), "[]");
    assert_eq!(ls("1", "").unwrap_err().0, "axis-out-of-range");
    let mut c = ctx(&[]);
    let b = shape_infer::TensorInfo::new(ir::ElementType::Boolean, ir::Shape::from_static(&[2]));
    let r = rule::run(&mut c, "LogSoftmax", "opset5", &[("axis", "0")], &[b]);
    assert_eq!(failure(r).0, "element-type");
}

#[test]
fn predicates_give_booleans_of_floats_only() {
    for (op, opset) in [
        ("IsNaN", "opset10"),
        ("IsInf", "opset10"),
        ("IsFinite", "opset10"),
    ] {
        let mut c = ctx(&["N"]);
        let x = data(&mut c, "N, 3");
        let out = rule::run(&mut c, op, opset, &[], &[x]).unwrap();
        assert_eq!(shape0(&c, &out), "[N, 3]");
        assert_eq!(out[0].element_type, ir::ElementType::Boolean);
        let i = shape_infer::TensorInfo::new(ir::ElementType::I32, ir::Shape::from_static(&[2]));
        assert_eq!(
            failure(rule::run(&mut c, op, opset, &[], &[i])).0,
            "element-type"
        );
    }
}

#[test]
fn selu_checks_its_parameters() {
    let selu = |alpha: &str, t: ir::ElementType| {
        let mut c = ctx(&["N"]);
        let x = data(&mut c, "N, 3");
        let a = shape_infer::TensorInfo::new(t, ir::Shape::ranked(rule::dims(&mut c, alpha)));
        let l = data(&mut c, "1");
        let r = rule::run(&mut c, "Selu", "opset1", &[], &[x, a, l]);
        (c, r)
    };
    let (c, r) = selu("", ir::ElementType::F32);
    assert_eq!(shape0(&c, &r.unwrap()), "[N, 3]");
    assert_eq!(failure(selu("1", ir::ElementType::F16).1).0, "element-type");
    // More than one element: OpenVINO's shape inference takes it.
    let mut ir = support::Ir::new();
    let x = ir.param("x", "2,3", "f32");
    let a = ir.param("a", "2", "f32");
    let l = ir.param("l", "1", "f32");
    let s = ir.op("s", "Selu", "opset1", &[], &[x, a, l]);
    let r = ir.run_to(s);
    assert_eq!(r.shape("s"), "[2, 3]");
    assert_eq!(r.messages("selu-parameter-shape").len(), 1);
    assert_eq!(
        run1("SoftSign", "opset9", &[], &["N"], &["N, 2"]).unwrap(),
        "[N, 2]"
    );
}

#[test]
fn grn_takes_ranks_two_to_four() {
    let grn = |shape: &str| run1("GRN", "opset1", &[("bias", "0.5")], &["N", "C"], &[shape]);
    assert_eq!(grn("N, C").unwrap(), "[N, C]");
    assert_eq!(grn("N, C, 2, 3").unwrap(), "[N, C, 2, 3]");
    assert_eq!(grn("N").unwrap_err().0, "grn-rank");
    assert_eq!(grn("N, C, 1, 2, 3").unwrap_err().0, "grn-rank");
    assert_eq!(
        run1("GRN", "opset1", &[], &["N"], &["N, 2"]).unwrap_err().0,
        "attribute-invalid"
    );
}
