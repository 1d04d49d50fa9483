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

#[test]
fn promoted_types_follow_openvino_rules() {
    use ir::ElementType as E;
    let promote = |a: E, sa: &[i64], b: E, sb: &[i64], attrs: &[(&str, &str)]| {
        let mut c = ctx(&[]);
        let x = shape_infer::TensorInfo::new(a, ir::Shape::from_static(sa));
        let y = shape_infer::TensorInfo::new(b, ir::Shape::from_static(sb));
        rule::run(&mut c, "ConvertPromoteTypes", "opset14", attrs, &[x, y])
            .map(|o| (o[0].element_type, o[1].element_type))
            .map_err(|e| e.rule_name())
    };
    let unsafe_ = [("promote_unsafe", "true")];
    let t = |r: Result<(E, E), &'static str>| {
        r.map(|(a, b)| {
            assert_eq!(a, b);
            a
        })
    };
    assert_eq!(t(promote(E::F32, &[2], E::I8, &[3], &[])), Ok(E::F32));
    assert_eq!(
        t(promote(E::F32, &[2], E::I32, &[3], &[])),
        Err("promote-types")
    );
    assert_eq!(t(promote(E::F32, &[2], E::I32, &[3], &unsafe_)), Ok(E::F32));
    assert_eq!(
        t(promote(E::I8, &[2], E::U8, &[3], &[])),
        Err("promote-types")
    );
    assert_eq!(t(promote(E::I8, &[2], E::U8, &[3], &unsafe_)), Ok(E::I16));
    assert_eq!(t(promote(E::U8, &[2], E::I32, &[3], &[])), Ok(E::I32));
    assert_eq!(t(promote(E::U64, &[2], E::I8, &[3], &unsafe_)), Ok(E::F32));
    assert_eq!(
        t(promote(E::U64, &[2], E::I8, &[3], &[])),
        Err("promote-types")
    );
    assert_eq!(
        t(promote(E::F16, &[2], E::BF16, &[3], &[])),
        Err("promote-types")
    );
    assert_eq!(
        t(promote(E::F16, &[2], E::BF16, &[3], &unsafe_)),
        Ok(E::F32)
    );
    assert_eq!(t(promote(E::Boolean, &[2], E::U16, &[3], &[])), Ok(E::U16));
    let pytorch = [("pytorch_scalar_promotion", "true")];
    assert_eq!(t(promote(E::I64, &[2], E::I32, &[], &pytorch)), Ok(E::I64));
    assert_eq!(
        t(promote(E::I8, &[2], E::I32, &[], &pytorch)),
        Err("promote-types")
    );
    assert_eq!(t(promote(E::I16, &[2], E::U8, &[], &pytorch)), Ok(E::I16));
    // Not scalars: the wider type.
    assert_eq!(t(promote(E::I8, &[2], E::I32, &[1], &pytorch)), Ok(E::I32));
    assert_eq!(
        t(promote(E::F16, &[2], E::String, &[3], &[])),
        Err("promote-types")
    );
}
