//! ReadValue and Assign: the variable's declared type and shape, the
//! initial value's checks, and the pairing of each Assign with a ReadValue
//! (OpenVINO's goldens are in `golden/state_*`).

mod support;
use support::Ir;

#[test]
fn read_value_6_gives_the_declared_variable() {
    let mut n = Ir::new();
    let x = n.param("x", "N,3", "f32");
    let declared = n.op(
        "declared",
        "ReadValue",
        "opset6",
        &[
            ("variable_id", "v"),
            ("variable_type", "f32"),
            ("variable_shape", "?,3"),
        ],
        &[x],
    );
    n.result(declared);
    let bounded = n.op(
        "bounded",
        "ReadValue",
        "opset6",
        &[
            ("variable_id", "w"),
            ("variable_type", "i32"),
            ("variable_shape", "2..5,4"),
        ],
        &[],
    );
    n.result(bounded);
    let r = n.run();
    r.clean();
    // The state decides the dynamic dim at run time: not the initial N.
    assert_eq!(r.element_type("declared"), "f32");
    let (upper, lo, hi) = r.bound_of("declared", 0);
    assert_eq!((upper.as_str(), lo, hi), ("none", Some(0), None));
    assert_eq!(r.element_type("bounded"), "i32");
    let (_, lo, hi) = r.bound_of("bounded", 0);
    assert_eq!((lo, hi), (Some(2), Some(5)));
    assert!(r.shape("bounded").ends_with(", 4]"));
}

#[test]
fn read_value_3_takes_its_initial_value() {
    let mut n = Ir::new();
    let x = n.param("x", "N,3", "i64");
    let v = n.op("v", "ReadValue", "opset3", &[("variable_id", "v")], &[x]);
    let r = n.run_to(v);
    r.clean();
    assert_eq!(r.shape("v"), "[N, 3]");
    assert_eq!(r.element_type("v"), "i64");
}

#[test]
fn dynamic_rank_and_type_take_the_initial_value() {
    let mut n = Ir::new();
    let x = n.param("x", "N,3", "f32");
    let v = n.op(
        "v",
        "ReadValue",
        "opset6",
        &[
            ("variable_id", "v"),
            ("variable_type", "dynamic"),
            ("variable_shape", "..."),
        ],
        &[x],
    );
    let r = n.run_to(v);
    r.clean();
    assert_eq!(r.shape("v"), "[N, 3]");
}

#[test]
fn the_initial_value_must_fit_the_variable() {
    let read = |shape: &str, ty: &str| {
        let mut n = Ir::new();
        let x = n.param("x", "2,3", "f32");
        let v = n.op(
            "v",
            "ReadValue",
            "opset6",
            &[
                ("variable_id", "v"),
                ("variable_type", ty),
                ("variable_shape", shape),
            ],
            &[x],
        );
        n.run_to(v)
    };
    read("2,4", "f32").error("v", "read-value-shape", "dim 1");
    read("?,3,1", "f32").error("v", "read-value-shape", "rank 2");
    read("3..5,3", "f32").error("v", "read-value-shape", "outside the declared range [3, 5]");
    read("2,3", "i32").error("v", "read-value-type", "declared i32");
    read("2,N", "f32").error("v", "read-value-variable", "`variable_shape`");
    read("1..4,3", "dynamic").clean();
}

#[test]
fn a_symbolic_initial_dim_is_assumed_to_fit() {
    let mut n = Ir::new();
    let x = n.param("x", "N,3", "f32");
    let v = n.op(
        "v",
        "ReadValue",
        "opset6",
        &[
            ("variable_id", "v"),
            ("variable_type", "f32"),
            ("variable_shape", "4,3"),
        ],
        &[x],
    );
    let r = n.run_to(v);
    assert_eq!(r.constraints(), vec!["N == 4"]);
    assert_eq!(r.shape("v"), "[4, 3]");
}

#[test]
fn read_value_needs_a_variable_id() {
    let mut n = Ir::new();
    let x = n.param("x", "2", "f32");
    let v = n.op("v", "ReadValue", "opset3", &[], &[x]);
    n.run_to(v)
        .error("v", "read-value-variable-id", "`variable_id`");
}

/// `ReadValue(v) + x -> Assign(w)` with `x` of `x_shape` and `x_type`.
fn pair(
    read: &[(&str, &str)],
    version: &str,
    x_shape: &str,
    x_type: &str,
    assigned: &str,
) -> support::Run {
    let mut n = Ir::new();
    let x = n.param("x", x_shape, x_type);
    let init = n.param("init", "2,3", "f32");
    let inputs: &[support::Out] = if version == "opset3" { &[init] } else { &[] };
    let v = n.op("read", "ReadValue", version, read, inputs);
    n.result(v);
    n.op(
        "assign",
        "Assign",
        version,
        &[("variable_id", assigned)],
        &[x],
    );
    n.run()
}

#[test]
fn an_assign_agrees_with_its_read_value() {
    let v6 = [
        ("variable_id", "v"),
        ("variable_type", "f32"),
        ("variable_shape", "?,3"),
    ];
    pair(&v6, "opset6", "5,3", "f32", "v").clean();
    pair(&v6, "opset6", "N,3", "f32", "v").clean();
    let errors = pair(&v6, "opset6", "5,4", "f32", "v").errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].0, "assign-variable");
    assert!(
        errors[0].1.contains("does not fit the variable `v`"),
        "{}",
        errors[0].1
    );
    let errors = pair(&v6, "opset6", "5,3", "i64", "v").errors();
    assert!(errors[0].1.contains("is f32"), "{errors:?}");
    let errors = pair(&v6, "opset6", "5,3", "f32", "other").errors();
    assert!(
        errors[0]
            .1
            .contains("no ReadValue in the model reads the variable `other`"),
        "{errors:?}"
    );
}

#[test]
fn an_assign_3_needs_its_read_value_upstream() {
    let v3 = [("variable_id", "v")];
    // The Assign-3 of `pair` is fed by `x`, not by the ReadValue.
    let errors = pair(&v3, "opset3", "2,3", "f32", "v").errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].1.contains("upstream"), "{errors:?}");
    let mut n = Ir::new();
    let init = n.param("init", "2,3", "f32");
    let v = n.op(
        "read",
        "ReadValue",
        "opset3",
        &[("variable_id", "v")],
        &[init],
    );
    let sum = n.op("sum", "Add", "opset1", &[], &[v, init]);
    n.result(sum);
    n.op(
        "assign",
        "Assign",
        "opset3",
        &[("variable_id", "v")],
        &[sum],
    );
    n.run().clean();
    let mut n = Ir::new();
    let init = n.param("init", "2,3", "f32");
    let v = n.op(
        "read",
        "ReadValue",
        "opset3",
        &[("variable_id", "v")],
        &[init],
    );
    let wider = n.op("wider", "Concat", "opset1", &[("axis", "0")], &[v, init]);
    n.result(wider);
    n.op(
        "assign",
        "Assign",
        "opset3",
        &[("variable_id", "v")],
        &[wider],
    );
    let errors = n.run().errors();
    assert!(errors[0].1.contains("[4, 3] does not fit"), "{errors:?}");
}
