//! StridedSlice-1: masks (checked against OpenVINO 2026.4.1), symbolic
//! lengths, and values through `ShapeOf -> StridedSlice`.

mod support;

use support::rule::*;

fn ss(
    input: &str,
    b: &[i64],
    e: &[i64],
    s: &[i64],
    masks: [&str; 5],
) -> Result<String, (&'static str, String)> {
    let mut c = ctx(&["S"]);
    let inputs = [data(&mut c, input), ints(b), ints(e), ints(s)];
    let keys = [
        "begin_mask",
        "end_mask",
        "new_axis_mask",
        "shrink_axis_mask",
        "ellipsis_mask",
    ];
    let attrs: Vec<(&str, &str)> = keys.iter().copied().zip(masks).collect();
    match run(&mut c, "StridedSlice", "opset1", &attrs, &inputs) {
        Ok(out) => Ok(shape0(&c, &out)),
        Err(e) => Err((e.rule_name(), e.to_string())),
    }
}

const X: &str = "10,20,30";

#[test]
fn masks_agree_with_openvino() {
    assert_eq!(
        ss(X, &[1, 2], &[5, -1], &[1, 1], ["0,0", "0,0", "", "", ""]).unwrap(),
        "[4, 17, 30]"
    );
    assert_eq!(
        ss(X, &[1, 2], &[5, -1], &[1, 1], ["1,0", "0,1", "", "", ""]).unwrap(),
        "[5, 18, 30]"
    );
    assert_eq!(
        ss(X, &[1, 2], &[5, -1], &[1, 1], ["0,0", "0,0", "1,0", "", ""]).unwrap(),
        "[1, 7, 20, 30]"
    );
    assert_eq!(
        ss(
            X,
            &[1, 2],
            &[5, -1],
            &[1, 1],
            ["0,0", "0,0", "0,0", "1,0", ""]
        )
        .unwrap(),
        "[17, 30]"
    );
    assert_eq!(
        ss(X, &[0, 1], &[0, 5], &[1, 1], ["", "", "", "", "1,0"]).unwrap(),
        "[10, 20, 4]"
    );
    assert_eq!(
        ss(
            X,
            &[1, 0, 1],
            &[2, 0, 5],
            &[1, 1, 1],
            ["", "", "", "", "0,1,0"]
        )
        .unwrap(),
        "[1, 20, 4]"
    );
    assert_eq!(
        ss(
            X,
            &[1, 0, 1],
            &[2, 0, 5],
            &[1, 1, -1],
            ["0,0,0", "0,0,0", "0,1,0", "1,0,1", ""]
        )
        .unwrap(),
        "[1, 30]"
    );
    assert_eq!(
        ss(X, &[1, 0], &[2, 0], &[1, 1], ["", "", "1,1", "1,0", ""]).unwrap(),
        "[1, 1, 10, 20, 30]"
    );
    assert_eq!(
        ss(X, &[-1], &[0], &[-2], ["0", "1", "", "", ""]).unwrap(),
        "[5, 20, 30]"
    );
    assert_eq!(
        ss(X, &[100], &[0], &[1], ["", "", "", "1", ""]).unwrap(),
        "[20, 30]"
    );
    assert_eq!(
        ss(
            "10,20",
            &[0, 0],
            &[1, 1],
            &[1, 1],
            ["0,0,1", "0,0,1", "", "", ""]
        )
        .unwrap(),
        "[1, 1]"
    );
}

#[test]
fn symbolic_lengths() {
    assert_eq!(
        ss("S", &[1], &[-1], &[1], ["", "", "", "", ""]).unwrap(),
        "[max(S - 2, 0)]"
    );
    assert_eq!(
        ss("S", &[0], &[0], &[2], ["1", "1", "", "", ""]).unwrap(),
        "[ceil(S/2)]"
    );
    assert_eq!(
        ss("S", &[0], &[0], &[-2], ["1", "1", "", "", ""]).unwrap(),
        "[ceil(S/2)]"
    );
}

#[test]
fn errors() {
    assert_eq!(
        ss(X, &[0], &[1], &[0], ["", "", "", "", ""]).unwrap_err().0,
        "strided-slice-stride-zero"
    );
    assert_eq!(
        ss(X, &[0], &[1], &[1], ["0", "0,0", "", "", ""])
            .unwrap_err()
            .0,
        "strided-slice-length-mismatch"
    );
    assert_eq!(
        ss(X, &[0, 0], &[1, 1], &[1, 1], ["", "", "", "", "1,1"])
            .unwrap_err()
            .0,
        "strided-slice-ellipsis"
    );
    assert_eq!(
        ss("4", &[0, 0], &[1, 1], &[1, 1], ["", "", "", "", ""])
            .unwrap_err()
            .0,
        "strided-slice-too-many-axes"
    );
}

#[test]
fn values_of_a_shape_are_selected() {
    let mut c = ctx(&["N", "H"]);
    let shape = values(&mut c, "N, 3, H, 5");
    let out = run(
        &mut c,
        "StridedSlice",
        "opset1",
        &[("begin_mask", "0"), ("end_mask", "0")],
        &[shape.clone(), ints(&[2]), ints(&[3]), ints(&[1])],
    )
    .unwrap();
    assert_eq!(values0(&c, &out).as_deref(), Some("[H]"));
    let out = run(
        &mut c,
        "StridedSlice",
        "opset1",
        &[("shrink_axis_mask", "1")],
        &[shape.clone(), ints(&[0]), ints(&[1]), ints(&[1])],
    )
    .unwrap();
    assert_eq!(shape0(&c, &out), "[]");
    assert_eq!(values0(&c, &out).as_deref(), Some("[N]"));
    let out = run(
        &mut c,
        "StridedSlice",
        "opset1",
        &[("begin_mask", "1"), ("end_mask", "1")],
        &[shape, ints(&[0]), ints(&[0]), ints(&[-1])],
    )
    .unwrap();
    assert_eq!(values0(&c, &out).as_deref(), Some("[5, H, 3, N]"));
}

#[test]
fn unknown_begin_gives_bounded_dims() {
    let mut c = ctx(&[]);
    let inputs = [data(&mut c, "7,3"), unknown(&[1]), ints(&[5]), ints(&[1])];
    let out = run(&mut c, "StridedSlice", "opset1", &[], &inputs).unwrap();
    let d = &out[0].shape.dims().unwrap()[0];
    let b = c.symbols.bounds(d).unwrap();
    // At most 7 (the input dim) and at most 5 (the end, counted from 0).
    assert_eq!((b.lo, b.hi), (Some(0), Some(5)));
}
