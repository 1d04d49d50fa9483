//! Inverse-14, FakeConvert-13, Unique-10, RandomUniform-8 and
//! Multinomial-13: symbolic shapes and the checks of their specifications
//! (OpenVINO's goldens are in `golden/numerics2_*`).

mod support;
use support::Ir;

#[test]
fn inverse_merges_the_square_dims() {
    let mut n = Ir::new();
    let x = n.param("x", "B,N,M", "f32");
    let inv = n.op("inv", "Inverse", "opset14", &[("adjoint", "true")], &[x]);
    let r = n.run_to(inv);
    r.clean();
    let shape = r.shape("inv");
    assert!(shape == "[B, N, N]" || shape == "[B, M, M]", "{shape}");
}

#[test]
fn inverse_of_a_non_square_matrix_or_a_vector_is_an_error() {
    let mut n = Ir::new();
    let x = n.param("x", "2,3", "f32");
    let inv = n.op("inv", "Inverse", "opset14", &[], &[x]);
    n.run_to(inv).error("inv", "inverse-square", "square");
    let mut n = Ir::new();
    let x = n.param("x", "3", "f32");
    let inv = n.op("inv", "Inverse", "opset14", &[], &[x]);
    n.run_to(inv).error("inv", "inverse-rank", "rank 1");
    let mut n = Ir::new();
    let x = n.param("x", "3,3", "i32");
    let inv = n.op("inv", "Inverse", "opset14", &[], &[x]);
    n.run_to(inv).error("inv", "element-type", "floating-point");
}

#[test]
fn fake_convert_keeps_the_data_shape_and_checks_its_inputs() {
    let mut n = Ir::new();
    let x = n.param("x", "N,C,8", "f32");
    let scale = n.const_f32("scale", &[3, 1], &[1.0, 2.0, 3.0]);
    let shift = n.const_f32("shift", &[3, 1], &[0.0, 0.5, 1.0]);
    let fc = n.op(
        "fc",
        "FakeConvert",
        "opset13",
        &[("destination_type", "f8e4m3")],
        &[x, scale, shift],
    );
    let r = n.run_to(fc);
    r.clean();
    assert_eq!(r.shape("fc"), "[N, 3, 8]");

    let mut n = Ir::new();
    let x = n.param("x", "2,3", "f32");
    let scale = n.const_f32("scale", &[3], &[1.0, 2.0, 3.0]);
    let shift = n.const_f32("shift", &[1], &[0.0]);
    let fc = n.op(
        "fc",
        "FakeConvert",
        "opset13",
        &[("destination_type", "f8e5m2")],
        &[x, scale, shift],
    );
    n.run_to(fc)
        .error("fc", "fake-convert-shift", "shape of scale");

    let mut n = Ir::new();
    let x = n.param("x", "2,3", "f32");
    let scale = n.const_f32("scale", &[3], &[1.0, 2.0, 3.0]);
    let fc = n.op(
        "fc",
        "FakeConvert",
        "opset13",
        &[("destination_type", "f16")],
        &[x, scale],
    );
    n.run_to(fc)
        .error("fc", "attribute-invalid", "f8e4m3 or f8e5m2");
}

#[test]
fn unique_count_is_a_symbol_bounded_by_the_input() {
    let mut n = Ir::new();
    let x = n.param("x", "N,4", "f32");
    let u = n.layer("u", "Unique", "opset10", &[], &[x], 4);
    n.result(u[0]);
    n.result(u[1]);
    n.result(u[2]);
    n.result(u[3]);
    let r = n.run();
    r.clean();
    let (upper, lo, _) = r.bound_of("u", 0);
    assert_eq!(upper, "4*N");
    assert_eq!(lo, Some(0));
    let values = r.shape_of("u", 0);
    assert_eq!(r.shape_of("u", 1), values);
    assert_eq!(r.shape_of("u", 3), values);
    assert_eq!(r.shape_of("u", 2), "[4*N]");

    let mut n = Ir::new();
    let x = n.param("x", "N,4", "f32");
    let axis = n.scalar("axis", 1);
    let u = n.layer(
        "u",
        "Unique",
        "opset10",
        &[("index_element_type", "i32")],
        &[x, axis],
        4,
    );
    n.result(u[0]);
    n.result(u[2]);
    let r = n.run();
    r.clean();
    assert!(r.shape_of("u", 0).starts_with("[N, "));
    assert_eq!(r.shape_of("u", 2), "[4]");
    assert_eq!(r.tensor_of("u", 2).element_type.to_string(), "i32");
}

#[test]
fn unique_of_known_values_is_exact_and_an_unknown_axis_is_an_error() {
    let mut n = Ir::new();
    let x = n.const_ints("x", "i32", &[5], &[3, 1, 3, 2, 1]);
    let u = n.layer("u", "Unique", "opset10", &[], &[x], 4);
    n.result(u[0]);
    let r = n.run();
    r.clean();
    assert_eq!(r.shape_of("u", 0), "[3]");

    let mut n = Ir::new();
    let x = n.param("x", "2,3", "f32");
    let axis = n.param("axis", "", "i64");
    let u = n.layer("u", "Unique", "opset10", &[], &[x, axis], 4);
    n.result(u[0]);
    n.run().error("u", "unique-axis", "must be known");
}

#[test]
fn random_uniform_takes_its_shape_from_a_shape_of() {
    let mut n = Ir::new();
    let x = n.param("x", "N,S", "f32");
    let s = n.op("s", "ShapeOf", "opset3", &[], &[x]);
    let lo = n.const_f32("lo", &[], &[0.0]);
    let hi = n.const_f32("hi", &[], &[1.0]);
    let ru = n.op(
        "ru",
        "RandomUniform",
        "opset8",
        &[
            ("output_type", "f32"),
            ("global_seed", "1"),
            ("op_seed", "2"),
        ],
        &[s, lo, hi],
    );
    let r = n.run_to(ru);
    r.clean();
    assert_eq!(r.shape("ru"), "[N, S]");

    let mut n = Ir::new();
    let shape = n.vec("shape", &[2, 3]);
    let lo = n.const_f32("lo", &[], &[1.0]);
    let hi = n.const_f32("hi", &[], &[1.0]);
    let ru = n.op(
        "ru",
        "RandomUniform",
        "opset8",
        &[
            ("output_type", "f32"),
            ("global_seed", "1"),
            ("op_seed", "2"),
        ],
        &[shape, lo, hi],
    );
    n.run_to(ru)
        .error("ru", "random-uniform-input", "less than max");
}

#[test]
fn multinomial_gives_batch_by_samples() {
    let mut n = Ir::new();
    let p = n.param("p", "B,C", "f32");
    let k = n.param("k", "K", "f32");
    let s = n.op("s", "ShapeOf", "opset3", &[], &[k]);
    let m = n.op(
        "m",
        "Multinomial",
        "opset13",
        &[
            ("convert_type", "i32"),
            ("with_replacement", "false"),
            ("log_probs", "false"),
            ("global_seed", "1"),
            ("op_seed", "2"),
        ],
        &[p, s],
    );
    let r = n.run_to(m);
    r.clean();
    assert_eq!(r.shape("m"), "[B, K]");

    let mut n = Ir::new();
    let p = n.param("p", "5", "f32");
    let c = n.scalar("c", 2);
    let m = n.op(
        "m",
        "Multinomial",
        "opset13",
        &[
            ("convert_type", "i32"),
            ("global_seed", "1"),
            ("op_seed", "2"),
        ],
        &[p, c],
    );
    n.run_to(m).error("m", "multinomial-input", "2-D");
}
