//! Squeeze-1/15 and Unsqueeze-1, checked against OpenVINO 2026.4.1.

mod support;

use support::rule::*;
use support::single_op;

fn sq(
    opset: &str,
    input: &str,
    axes: Option<&[i64]>,
    attrs: &[(&str, &str)],
) -> (String, Vec<String>) {
    let mut c = ctx(&["N", "M:2"]);
    let mut inputs = vec![data(&mut c, input)];
    if let Some(a) = axes {
        inputs.push(ints(a));
    }
    let out = run(&mut c, "Squeeze", opset, attrs, &inputs).unwrap();
    (shape0(&c, &out), constraints(&c))
}

#[test]
fn squeeze_without_axes_removes_ones() {
    assert_eq!(sq("opset1", "1,2,3,1", None, &[]).0, "[2, 3]");
    assert_eq!(sq("opset1", "1,2,1", Some(&[]), &[]).0, "[2]");
    // A dim whose range excludes 1 stays; an undecidable one: unknown rank.
    assert_eq!(sq("opset1", "1,M,3", None, &[]).0, "[M, 3]");
    assert_eq!(sq("opset1", "1,N,3", None, &[]).0, "[...]");
}

#[test]
fn squeeze_with_axes() {
    assert_eq!(sq("opset1", "1,2,1", Some(&[-1]), &[]).0, "[1, 2]");
    assert_eq!(sq("opset1", "1,2,1", Some(&[0, 0]), &[]).0, "[2, 1]");
    let (shape, cons) = sq("opset1", "1,N,3", Some(&[1]), &[]);
    assert_eq!(shape, "[1, 3]");
    assert_eq!(cons, ["N == 1"]);
}

#[test]
fn squeeze_of_a_non_one_axis_keeps_it_with_a_warning() {
    // OpenVINO 2026.4: Squeeze([1,2,3], [1]) is [1,2,3].
    assert_eq!(sq("opset1", "1,2,3", Some(&[1]), &[]).0, "[1, 2, 3]");
}

#[test]
fn squeeze15_allow_axis_skip() {
    let skip = [("allow_axis_skip", "true")];
    assert_eq!(sq("opset15", "1,2,3", Some(&[0, 1]), &skip).0, "[2, 3]");
    assert_eq!(sq("opset15", "1,N,3", Some(&[0, 1]), &skip).0, "[...]");
    assert_eq!(
        sq(
            "opset15",
            "1,N,3",
            Some(&[0, 1]),
            &[("allow_axis_skip", "false")]
        )
        .0,
        "[3]"
    );
}

#[test]
fn squeeze_errors_and_values() {
    let mut c = ctx(&[]);
    let inputs = [data(&mut c, "1,2,1"), ints(&[3])];
    assert_eq!(
        failure(run(&mut c, "Squeeze", "opset1", &[], &inputs)).0,
        "axis-out-of-range"
    );
    let mut c = ctx(&["N"]);
    let v = values(&mut c, "N");
    let out = run(&mut c, "Squeeze", "opset1", &[], &[v, ints(&[0])]).unwrap();
    assert_eq!(shape0(&c, &out), "[]");
    assert_eq!(values0(&c, &out).as_deref(), Some("[N]"));
}

#[test]
fn unsqueeze() {
    let mut c = ctx(&["N"]);
    let x = data(&mut c, "N,3");
    let out = run(
        &mut c,
        "Unsqueeze",
        "opset1",
        &[],
        &[x.clone(), ints(&[0, -1])],
    )
    .unwrap();
    assert_eq!(shape0(&c, &out), "[1, N, 3, 1]");
    let out = run(
        &mut c,
        "Unsqueeze",
        "opset1",
        &[],
        &[x.clone(), ints(&[0, 0])],
    )
    .unwrap();
    assert_eq!(shape0(&c, &out), "[1, N, 3]");
    assert_eq!(
        failure(run(
            &mut c,
            "Unsqueeze",
            "opset1",
            &[],
            &[x.clone(), ints(&[4])]
        ))
        .0,
        "axis-out-of-range"
    );
    assert_eq!(
        failure(run(&mut c, "Unsqueeze", "opset1", &[], &[x, ints(&[])])).0,
        "unsqueeze-empty-axes"
    );
    let v = values(&mut c, "N, 3");
    let out = run(&mut c, "Unsqueeze", "opset1", &[], &[v, ints(&[0])]).unwrap();
    assert_eq!(shape0(&c, &out), "[1, 2]");
    assert_eq!(values0(&c, &out).as_deref(), Some("[N, 3]"));
}

#[test]
fn end_to_end() {
    assert_eq!(
        single_op("1,?,1", "Squeeze", "opset1", &[], &[&[0, 2]]).0,
        "[?0]"
    );
    assert_eq!(
        single_op("2,3", "Unsqueeze", "opset1", &[], &[&[1]]).0,
        "[2, 1, 3]"
    );
}

#[test]
fn squeeze_of_a_non_one_axis_warns_and_is_an_error_only_when_strict() {
    let build = || {
        let mut n = support::Ir::new();
        let x = n.param("x", "1,2,3", "f32");
        let axes = n.vec("axes", &[1]);
        let s = n.op("sq", "Squeeze", "opset1", &[], &[x, axes]);
        n.result(s);
        n.graph()
    };
    let r = support::Run::new(build(), &support::unchecked());
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    assert_eq!(r.shape("sq"), "[1, 2, 3]");
    let warnings = r.messages("squeeze-non-one");
    assert_eq!(warnings.len(), 1, "{:?}", r.rules());
    assert!(warnings[0].contains("axis 1 has dim 2"), "{}", warnings[0]);
    let strict = shape_infer::Options {
        strict_spec: true,
        ..support::unchecked()
    };
    let r = support::Run::new(build(), &strict);
    assert_eq!(r.errors().len(), 1, "{:?}", r.errors());
    assert_eq!(r.errors()[0].0, "squeeze-non-one");
}
