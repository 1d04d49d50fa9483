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
