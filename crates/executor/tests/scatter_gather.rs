//! GatherElements and GatherND: an example of OpenVINO's specification,
//! and indices out of range at run time as errors.

mod common;

use common::{f32_out, Net};
use executor::{ExecError, Tensor};

fn f32s(shape: &[usize], values: &[f32]) -> Tensor {
    Tensor::from_vec(shape.to_vec(), values.to_vec()).unwrap()
}

fn i32s(shape: &[usize], values: &[i32]) -> Tensor {
    Tensor::from_vec(shape.to_vec(), values.to_vec()).unwrap()
}

/// GatherND-8's spec example 6 (batch_dims 2), and GatherND-5's folded
/// output of the same.
#[test]
fn gather_nd_spec_example() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "2,3,4");
    let i = net.param("i", "i32", "2,3,1,1");
    let g8 = net.op(
        "g8",
        "GatherND",
        "opset8",
        r#"batch_dims="2""#,
        &[x, i],
        None,
    );
    let g5 = net.op(
        "g5",
        "GatherND",
        "opset5",
        r#"batch_dims="2""#,
        &[x, i],
        None,
    );
    net.result("out8", g8);
    net.result("out5", g5);
    let data: Vec<f32> = (1..=24).map(|v| v as f32).collect();
    let out = net
        .exec(vec![
            ("x", f32s(&[2, 3, 4], &data)),
            ("i", i32s(&[2, 3, 1, 1], &[1, 0, 2, 0, 2, 2])),
        ])
        .unwrap();
    let want = vec![2.0, 5.0, 11.0, 13.0, 19.0, 23.0];
    assert_eq!(f32_out(&out, "out8"), (vec![2, 3, 1], want.clone()));
    assert_eq!(f32_out(&out, "out5"), (vec![6, 1], want));
}

fn kernel_error(e: &ExecError, needle: &str) {
    match e {
        ExecError::Kernel { message, .. } => {
            assert!(message.contains(needle), "`{message}` lacks `{needle}`")
        }
        other => panic!("expected a kernel error, got {other}"),
    }
}

/// Indices out of range at run time.
#[test]
fn gather_indices_out_of_range_are_errors() {
    let run = |op: &str, version: &str, attrs: &str, idx: Tensor, idx_shape: &str| {
        let mut net = Net::new();
        let x = net.param("x", "f32", "3,4");
        let i = net.param("i", "i32", idx_shape);
        let out = net.op("op", op, version, attrs, &[x, i], None);
        net.result("out", out);
        let x = f32s(&[3, 4], &[0.0; 12]);
        net.exec(vec![("x", x), ("i", idx)]).unwrap_err()
    };
    let e = run(
        "GatherElements",
        "opset6",
        r#"axis="1""#,
        i32s(&[3, 1], &[0, 4, 1]),
        "3,1",
    );
    kernel_error(&e, "index 4 is out of range for a dim of 4");
    let e = run(
        "GatherElements",
        "opset6",
        r#"axis="1""#,
        i32s(&[3, 1], &[0, -5, 1]),
        "3,1",
    );
    kernel_error(&e, "index -5 is out of range");
    let e = run("GatherND", "opset8", "", i32s(&[1, 2], &[3, 0]), "1,2");
    kernel_error(&e, "index 3 is out of range for a dim of 3");
}
