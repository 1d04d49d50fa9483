//! Outputs whose shape waits on values only the run knows (a Slice's starts,
//! a Reshape's target, a Split's lengths fed by Parameters): the executor
//! reruns the op's shape rule on the concrete inputs, the kernel produces
//! that shape, and the symbols inference gave those dims are bound for the
//! ops after it. A value the rule refuses is an error naming the layer and
//! the rule.

mod common;

use common::{arange, f32_out, Net};
use executor::{ExecError, Tensor};

fn i64s(shape: &[usize], v: &[i64]) -> Tensor {
    Tensor::from_vec(shape.to_vec(), v.to_vec()).unwrap()
}

/// `x[starts:stops:steps]` with every bound a Parameter, then `+ x2` where
/// `x2` is a separate input: the Add needs the slice's symbols bound to
/// check its broadcast.
fn run_time_slice() -> Net {
    let mut net = Net::new();
    let x = net.param("x", "f32", "?,?");
    let start = net.param("start", "i64", "2");
    let stop = net.param("stop", "i64", "2");
    let step = net.param("step", "i64", "2");
    let s = net.op("s", "Slice", "opset8", "", &[x, start, stop, step], None);
    let y = net.param("y", "f32", "?,?");
    let sum = net.op("sum", "Add", "opset1", "", &[s, y], None);
    net.result("out", sum);
    net
}

#[test]
fn a_slice_by_run_time_bounds_takes_the_rules_shape() {
    let net = run_time_slice();
    let out = net
        .exec(vec![
            ("x", arange(&[4, 6])),
            ("start", i64s(&[2], &[-1, 1])),
            ("stop", i64s(&[2], &[i64::MIN, 100])),
            ("step", i64s(&[2], &[-2, 2])),
            ("y", Tensor::from_vec(vec![1, 1], vec![0.5f32]).unwrap()),
        ])
        .unwrap();
    // Rows 3, 1; columns 1, 3, 5.
    assert_eq!(
        f32_out(&out, "out"),
        (vec![2, 3], vec![19.5, 21.5, 23.5, 7.5, 9.5, 11.5])
    );
}

#[test]
fn a_later_op_checks_against_the_bound_symbols() {
    // The slice gives [2, 3]; `y` of [2, 2] does not broadcast with it.
    let err = run_time_slice()
        .exec(vec![
            ("x", arange(&[4, 6])),
            ("start", i64s(&[2], &[0, 0])),
            ("stop", i64s(&[2], &[2, 3])),
            ("step", i64s(&[2], &[1, 1])),
            ("y", arange(&[2, 2])),
        ])
        .unwrap_err();
    let ExecError::Kernel { layer, message, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(layer, "sum");
    assert!(message.contains("[2, 3]"), "{message}");
}

#[test]
fn a_step_of_zero_at_run_time_names_the_layer_and_rule() {
    let err = run_time_slice()
        .exec(vec![
            ("x", arange(&[4, 6])),
            ("start", i64s(&[2], &[0, 0])),
            ("stop", i64s(&[2], &[2, 3])),
            ("step", i64s(&[2], &[1, 0])),
            ("y", arange(&[1, 1])),
        ])
        .unwrap_err();
    let ExecError::Inference(diagnostics) = &err else {
        panic!("{err:?}")
    };
    let d = &diagnostics[0];
    assert_eq!(d.rule, "slice-step-zero", "{d:?}");
    assert_eq!(
        d.layer.as_ref().map(|l| l.name.as_str()),
        Some("s"),
        "{d:?}"
    );
}

#[test]
fn a_reshape_by_a_run_time_target_is_a_view_of_the_rules_shape() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "?,?,?");
    let target = net.param("target", "i64", "3");
    let r = net.op(
        "r",
        "Reshape",
        "opset1",
        r#"special_zero="true""#,
        &[x, target],
        None,
    );
    net.result("out", r);
    let run = |t: &[i64]| net.exec(vec![("x", arange(&[2, 3, 4])), ("target", i64s(&[3], t))]);
    let (shape, values) = f32_out(&run(&[0, -1, 2]).unwrap(), "out");
    assert_eq!(shape, [2, 6, 2]);
    assert_eq!(values, arange(&[24]).to_vec::<f32>().unwrap());
    let err = run(&[5, -1, 2]).unwrap_err();
    let ExecError::Inference(diagnostics) = &err else {
        panic!("{err:?}")
    };
    assert!(diagnostics[0].message.contains('5'), "{diagnostics:?}");
}

#[test]
fn split_lengths_at_run_time() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "?,?");
    let axis = net.i64s("axis", &[], &[1]);
    let lengths = net.param("lengths", "i64", "3");
    let parts = net.op_multi(
        "split",
        "VariadicSplit",
        "opset1",
        "",
        &[x, axis, lengths],
        vec![Some(vec![-1, -1]); 3],
    );
    for (k, p) in parts.into_iter().enumerate() {
        net.result(&format!("p{k}"), p);
    }
    let out = net
        .exec(vec![
            ("x", arange(&[2, 5])),
            ("lengths", i64s(&[3], &[1, -1, 0])),
        ])
        .unwrap();
    assert_eq!(f32_out(&out, "p0"), (vec![2, 1], vec![0., 5.]));
    assert_eq!(
        f32_out(&out, "p1"),
        (vec![2, 4], vec![1., 2., 3., 4., 6., 7., 8., 9.])
    );
    assert_eq!(f32_out(&out, "p2").0, vec![2, 0]);
}

#[test]
fn a_reduction_over_run_time_axes_takes_the_rules_shape() {
    // Inference knows only the rank ([?, ?] from [2, 3, 4] and one axis);
    // the run gives the shape.
    let mut net = Net::new();
    let x = net.param("x", "f32", "2,3,4");
    let axes = net.param("axes", "i64", "1");
    let r = net.op("r", "ReduceSum", "opset1", "", &[x, axes], None);
    net.result("out", r);
    let out = net
        .exec(vec![("x", arange(&[2, 3, 4])), ("axes", i64s(&[1], &[1]))])
        .unwrap();
    let (shape, values) = f32_out(&out, "out");
    assert_eq!(shape, vec![2, 4]);
    assert_eq!(values[..2], [12.0, 15.0]);
}
