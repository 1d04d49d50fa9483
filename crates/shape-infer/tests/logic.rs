//! The index and logic ops of issue 17: shapes read from values stay
//! symbolic, and the errors OpenVINO's type_prop tests name.

mod support;
use support::rule::{self, ctx, failure, shape0};

use ir::{ElementType, Shape};
use shape_infer::TensorInfo;

fn ints(t: ElementType, shape: &[i64], values: Option<&[i64]>) -> TensorInfo {
    let info = TensorInfo::new(t, Shape::from_static(shape));
    info.with_value(values.map(|v| {
        v.iter()
            .map(|&x| symdim::Expr::constant(x))
            .collect::<Vec<_>>()
    }))
}

#[test]
fn eye_reads_rows_columns_and_batch_from_values() {
    let mut c = ctx(&["N", "M"]);
    let n = rule::values(&mut c, "N");
    let m = rule::values(&mut c, "M");
    let k = ints(ElementType::I64, &[], Some(&[0]));
    let batch = rule::values(&mut c, "2, N");
    let attrs = [("output_type", "f32")];
    let r = rule::run(
        &mut c,
        "Eye",
        "opset9",
        &attrs,
        &[n.clone(), m.clone(), k.clone()],
    );
    assert_eq!(shape0(&c, &r.unwrap()), "[N, M]");
    let r = rule::run(
        &mut c,
        "Eye",
        "opset9",
        &attrs,
        &[n.clone(), m, k.clone(), batch],
    );
    assert_eq!(shape0(&c, &r.unwrap()), "[2, N, N, M]");
    // Unknown values: fresh dims; an unknown batch length: unknown rank.
    let unknown = ints(ElementType::I32, &[], None);
    let r = rule::run(
        &mut c,
        "Eye",
        "opset9",
        &attrs,
        &[unknown.clone(), unknown.clone(), k.clone()],
    )
    .unwrap();
    assert_eq!(r[0].shape.rank(), Some(2));
    let dyn_batch = TensorInfo::new(ElementType::I64, Shape::DynamicRank);
    let r = rule::run(
        &mut c,
        "Eye",
        "opset9",
        &attrs,
        &[unknown.clone(), unknown.clone(), k.clone(), dyn_batch],
    )
    .unwrap();
    assert!(r[0].shape.dims().is_none());
    // Errors.
    let neg = ints(ElementType::I64, &[1], Some(&[-4]));
    let e = failure(rule::run(
        &mut c,
        "Eye",
        "opset9",
        &attrs,
        &[neg, n.clone(), k.clone()],
    ));
    assert_eq!(e.0, "eye-negative");
    let three = ints(ElementType::I32, &[3], Some(&[1, 1, 1]));
    let e = failure(rule::run(
        &mut c,
        "Eye",
        "opset9",
        &attrs,
        &[n.clone(), three, k.clone()],
    ));
    assert_eq!(e.0, "eye-input");
    let two_d = ints(ElementType::I32, &[1, 1], Some(&[6]));
    let e = failure(rule::run(
        &mut c,
        "Eye",
        "opset9",
        &attrs,
        &[two_d, n.clone(), k.clone()],
    ));
    assert_eq!(e.0, "eye-input");
    let float = TensorInfo::new(ElementType::BF16, Shape::from_static(&[]));
    let e = failure(rule::run(
        &mut c,
        "Eye",
        "opset9",
        &attrs,
        &[float, n.clone(), k.clone()],
    ));
    assert_eq!(e.0, "element-type");
    let bad_batch = ints(ElementType::I64, &[2, 1], None);
    let e = failure(rule::run(
        &mut c,
        "Eye",
        "opset9",
        &attrs,
        &[n.clone(), n.clone(), k.clone(), bad_batch],
    ));
    assert_eq!(e.0, "eye-input");
    let e = failure(rule::run(
        &mut c,
        "Eye",
        "opset9",
        &[("output_type", "x9")],
        &[n.clone(), n, k],
    ));
    assert_eq!(e.0, "attribute-invalid");
}
