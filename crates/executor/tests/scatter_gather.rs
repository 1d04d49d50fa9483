//! GatherElements, GatherND and the scatter ops: the examples of OpenVINO's
//! specifications (corrected where they are wrong), and indices out of
//! range at run time as errors.

mod common;

use common::{f32_out, Net};
use executor::{ExecError, Tensor};

fn f32s(shape: &[usize], values: &[f32]) -> Tensor {
    Tensor::from_vec(shape.to_vec(), values.to_vec()).unwrap()
}

fn i32s(shape: &[usize], values: &[i32]) -> Tensor {
    Tensor::from_vec(shape.to_vec(), values.to_vec()).unwrap()
}

/// ScatterNDUpdate-15's spec examples 1 to 4: data [1, 2, 3, 4], indices
/// [0, 2, -3, -3, 0], updates [10, 20, 30, 40, 50]. The spec prints
/// [50, 20, 20, 4] for `none` and [500, 3600, 40, 4] for `prod`; applying
/// its own definition (and OpenVINO's CPU plugin) gives [50, 40, 20, 4] and
/// [500, 2400, 60, 4].
#[test]
fn scatter_nd_update_spec_examples() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "4");
    let i = net.param("i", "i32", "5,1");
    let u = net.param("u", "f32", "5");
    for red in ["none", "sum", "sub", "prod", "min", "max"] {
        let attrs = format!(r#"reduction="{red}""#);
        let s = net.op(red, "ScatterNDUpdate", "opset15", &attrs, &[x, i, u], None);
        net.result(&format!("out_{red}"), s);
    }
    let out = net
        .exec(vec![
            ("x", f32s(&[4], &[1.0, 2.0, 3.0, 4.0])),
            ("i", i32s(&[5, 1], &[0, 2, -3, -3, 0])),
            ("u", f32s(&[5], &[10.0, 20.0, 30.0, 40.0, 50.0])),
        ])
        .unwrap();
    for (red, want) in [
        ("none", [50.0, 40.0, 20.0, 4.0]),
        ("sum", [61.0, 72.0, 23.0, 4.0]),
        ("sub", [-59.0, -68.0, -17.0, 4.0]),
        ("prod", [500.0, 2400.0, 60.0, 4.0]),
        ("min", [1.0, 2.0, 3.0, 4.0]),
        ("max", [50.0, 40.0, 20.0, 4.0]),
    ] {
        assert_eq!(f32_out(&out, &format!("out_{red}")).1, want, "{red}");
    }
}

/// ScatterElementsUpdate-12's spec examples 1 and 2, and a mean.
#[test]
fn scatter_elements_update_spec_examples() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "4");
    let i = net.param("i", "i32", "6");
    let u = net.param("u", "f32", "6");
    let axis = net.i64s("axis", &[1], &[0]);
    for (name, attrs) in [
        ("sum", r#"reduction="sum" use_init_val="true""#),
        ("sum_noinit", r#"reduction="sum" use_init_val="false""#),
        ("mean", r#"reduction="mean" use_init_val="true""#),
    ] {
        let s = net.op(
            name,
            "ScatterElementsUpdate",
            "opset12",
            attrs,
            &[x, i, u, axis],
            None,
        );
        net.result(&format!("out_{name}"), s);
    }
    let out = net
        .exec(vec![
            ("x", f32s(&[4], &[2.0, 3.0, 4.0, 6.0])),
            ("i", i32s(&[6], &[1, 0, 0, -2, -1, 2])),
            ("u", f32s(&[6], &[10.0, 20.0, 30.0, 40.0, 70.0, 60.0])),
        ])
        .unwrap();
    assert_eq!(f32_out(&out, "out_sum").1, [52.0, 13.0, 104.0, 76.0]);
    // Example 2's indices differ ([1, 0, 0, 2, 3, 2]); here -2 and -1 are 2
    // and 3, the same.
    assert_eq!(f32_out(&out, "out_sum_noinit").1, [50.0, 10.0, 100.0, 70.0]);
    assert_eq!(
        f32_out(&out, "out_mean").1,
        [52.0 / 3.0, 6.5, 104.0 / 3.0, 38.0]
    );
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

/// ScatterUpdate-3's spec example 2 and GatherElements with negative
/// indices.
#[test]
fn scatter_update_and_gather_elements_values() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "3,5");
    let i = net.i64s("i", &[2], &[0, 2]);
    let u = net.param("u", "f32", "3,2");
    let axis = net.i64s("axis", &[1], &[1]);
    let s = net.op("s", "ScatterUpdate", "opset3", "", &[x, i, u, axis], None);
    net.result("out_s", s);
    let gi = net.i64s("gi", &[3, 1], &[-1, 0, 4]);
    let g = net.op(
        "g",
        "GatherElements",
        "opset6",
        r#"axis="-1""#,
        &[x, gi],
        None,
    );
    net.result("out_g", g);
    let data: Vec<f32> = (0..15).map(|v| v as f32).collect();
    let out = net
        .exec(vec![
            ("x", f32s(&[3, 5], &data)),
            ("u", f32s(&[3, 2], &[1.0, 1.0, 1.0, 1.0, 1.0, 2.0])),
        ])
        .unwrap();
    assert_eq!(
        f32_out(&out, "out_s").1,
        [1.0, 1.0, 1.0, 3.0, 4.0, 1.0, 6.0, 1.0, 8.0, 9.0, 1.0, 11.0, 2.0, 13.0, 14.0]
    );
    assert_eq!(f32_out(&out, "out_g"), (vec![3, 1], vec![4.0, 5.0, 14.0]));
}

fn kernel_error(e: &ExecError, needle: &str) {
    match e {
        ExecError::Kernel { message, .. } => {
            assert!(message.contains(needle), "`{message}` lacks `{needle}`")
        }
        other => panic!("expected a kernel error, got {other}"),
    }
}

/// Indices out of range (or negative where the op takes none) at run time.
#[test]
fn indices_out_of_range_are_errors() {
    let run = |op: &str, version: &str, attrs: &str, idx: Tensor, idx_shape: &str| {
        let mut net = Net::new();
        let x = net.param("x", "f32", "3,4");
        let i = net.param("i", "i32", idx_shape);
        let out = match op {
            "GatherElements" | "GatherND" => net.op("op", op, version, attrs, &[x, i], None),
            "ScatterNDUpdate" => {
                let u = net.f32s("u", &[1], &[1.0]);
                net.op("op", op, version, attrs, &[x, i, u], None)
            }
            _ => {
                let axis = net.i64s("axis", &[], &[1]);
                let u = net.f32s("u", &[3, 1], &[1.0; 3]);
                net.op("op", op, version, attrs, &[x, i, u, axis], None)
            }
        };
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
    let e = run(
        "ScatterNDUpdate",
        "opset15",
        "",
        i32s(&[1, 2], &[0, -5]),
        "1,2",
    );
    kernel_error(&e, "index -5 is out of range");
    // ScatterUpdate takes no negative indices (as OpenVINO).
    let e = run("ScatterUpdate", "opset3", "", i32s(&[1], &[-1]), "1");
    kernel_error(&e, "index -1 is out of range");
    let e = run(
        "ScatterElementsUpdate",
        "opset12",
        r#"reduction="sum""#,
        i32s(&[3, 1], &[0, 1, 9]),
        "3,1",
    );
    kernel_error(&e, "index 9 is out of range");
}

/// ScatterElementsUpdate's indices may be smaller than the data, not larger
/// (OpenVINO's shape inference does not check).
#[test]
fn scatter_elements_indices_larger_than_data_are_an_error() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "2,4");
    let i = net.param("i", "i32", "3,1");
    let u = net.param("u", "f32", "3,1");
    let axis = net.i64s("axis", &[], &[1]);
    let s = net.op(
        "s",
        "ScatterElementsUpdate",
        "opset3",
        "",
        &[x, i, u, axis],
        None,
    );
    net.result("out", s);
    let e = net
        .exec(vec![
            ("x", f32s(&[2, 4], &[0.0; 8])),
            ("i", i32s(&[3, 1], &[0, 0, 0])),
            ("u", f32s(&[3, 1], &[1.0; 3])),
        ])
        .unwrap_err();
    kernel_error(&e, "dim 0 of indices [3, 1] exceeds the data's [2, 4]");
}
