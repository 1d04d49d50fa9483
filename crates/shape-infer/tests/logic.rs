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

#[test]
fn one_hot_inserts_depth_at_the_axis() {
    let mut c = ctx(&["N", "D"]);
    let i = rule::data(&mut c, "N, 3");
    let i = TensorInfo::new(ElementType::I32, i.shape);
    let d = rule::values(&mut c, "D");
    let d = TensorInfo::new(ElementType::I64, Shape::from_static(&[])).with_value(d.value);
    let on = TensorInfo::new(ElementType::F32, Shape::from_static(&[]));
    let run =
        |c: &mut shape_infer::InferContext,
         opset: &str,
         attrs: &[(&str, &str)],
         inputs: &[TensorInfo]| { rule::run(c, "OneHot", opset, attrs, inputs) };
    let all = [i.clone(), d.clone(), on.clone(), on.clone()];
    let r = run(&mut c, "opset1", &[("axis", "-1")], &all).unwrap();
    assert_eq!(shape0(&c, &r), "[N, 3, D]");
    let r = run(&mut c, "opset1", &[("axis", "1")], &all).unwrap();
    assert_eq!(shape0(&c, &r), "[N, D, 3]");
    assert_eq!(
        failure(run(&mut c, "opset1", &[("axis", "3")], &all)).0,
        "axis-out-of-range"
    );
    assert_eq!(
        failure(run(&mut c, "opset1", &[("axis", "-4")], &all)).0,
        "axis-out-of-range"
    );
    let mode = [("axis", "0"), ("negative_indices_mode", "wrap")];
    assert_eq!(
        failure(run(&mut c, "opset16", &mode, &all)).0,
        "attribute-invalid"
    );
    let mode = [("axis", "0"), ("negative_indices_mode", "normalize")];
    assert!(run(&mut c, "opset16", &mode, &all).is_ok());
    let neg = ints(ElementType::I64, &[], Some(&[-4]));
    let e = failure(run(
        &mut c,
        "opset1",
        &[("axis", "0")],
        &[i.clone(), neg, on.clone(), on.clone()],
    ));
    assert_eq!(e.0, "one-hot-depth");
    let vec1 = ints(ElementType::I64, &[1], Some(&[4]));
    let e = failure(run(
        &mut c,
        "opset1",
        &[("axis", "0")],
        &[i.clone(), vec1, on.clone(), on.clone()],
    ));
    assert_eq!(e.0, "one-hot-scalar");
    let f16 = TensorInfo::new(ElementType::F16, Shape::from_static(&[]));
    let e = failure(run(
        &mut c,
        "opset1",
        &[("axis", "0")],
        &[i.clone(), d.clone(), on.clone(), f16],
    ));
    assert_eq!(e.0, "element-type");
    let fi = TensorInfo::new(ElementType::F32, i.shape.clone());
    let e = failure(run(
        &mut c,
        "opset1",
        &[("axis", "0")],
        &[fi, d, on.clone(), on],
    ));
    assert_eq!(e.0, "element-type");
}

#[test]
fn bucketize_and_search_sorted_shapes() {
    let mut c = ctx(&["N", "M", "K"]);
    let x = rule::data(&mut c, "N, 4");
    let b = rule::data(&mut c, "5");
    let r = rule::run(
        &mut c,
        "Bucketize",
        "opset3",
        &[("output_type", "i32")],
        &[x.clone(), b.clone()],
    )
    .unwrap();
    assert_eq!(shape0(&c, &r), "[N, 4]");
    assert_eq!(r[0].element_type, ElementType::I32);
    let b2 = rule::data(&mut c, "5, 1");
    let e = failure(rule::run(
        &mut c,
        "Bucketize",
        "opset3",
        &[],
        &[x.clone(), b2],
    ));
    assert_eq!(e.0, "bucketize-buckets");
    let e = failure(rule::run(
        &mut c,
        "Bucketize",
        "opset3",
        &[("output_type", "f32")],
        &[x.clone(), b.clone()],
    ));
    assert_eq!(e.0, "attribute-invalid");
    // SearchSorted: a 1-D sequence serves any values; above 1-D the leading
    // dims merge.
    let r = rule::run(
        &mut c,
        "SearchSorted",
        "opset15",
        &[],
        &[b.clone(), x.clone()],
    )
    .unwrap();
    assert_eq!(shape0(&c, &r), "[N, 4]");
    assert_eq!(r[0].element_type, ElementType::I64);
    let seq = rule::data(&mut c, "M, 6");
    let vals = rule::data(&mut c, "N, K");
    let r = rule::run(&mut c, "SearchSorted", "opset15", &[], &[seq.clone(), vals]).unwrap();
    assert_eq!(shape0(&c, &r), "[N, K]");
    assert_eq!(rule::constraints(&c), ["N == M"]);
    let three = rule::data(&mut c, "2, 2, 4");
    let e = failure(rule::run(
        &mut c,
        "SearchSorted",
        "opset15",
        &[],
        &[seq.clone(), three],
    ));
    assert_eq!(e.0, "search-sorted-shape");
    let scalar = rule::data(&mut c, "");
    let e = failure(rule::run(
        &mut c,
        "SearchSorted",
        "opset15",
        &[],
        &[scalar, x.clone()],
    ));
    assert_eq!(e.0, "search-sorted-shape");
    let wrong = rule::data(&mut c, "3, 6");
    let other = rule::data(&mut c, "2, 4");
    let e = failure(rule::run(
        &mut c,
        "SearchSorted",
        "opset15",
        &[],
        &[wrong, other],
    ));
    assert_eq!(e.0, "search-sorted-shape");
}
