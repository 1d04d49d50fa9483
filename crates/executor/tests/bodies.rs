//! Layers with bodies (If, Loop, TensorIterator) under the run's limits: a
//! trip count from the data cannot run without end nor allocate without
//! bound, and a failure inside a body names the layer, the body and the
//! iteration. (Their values against OpenVINO's CPU plugin are in the
//! conformance cases `bodies_*`.)

use std::collections::HashMap;
use std::path::Path;

use executor::{ExecError, Executor, Limits, Tensor, MAX_ITERATIONS};

fn sample(name: &str) -> Executor {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../ir-samples/bodies")
        .join(format!("{name}.xml"));
    let model = ir_xml::read_model(&path, None).expect("the sample reads");
    Executor::new(&model.graph).expect("the sample has kernels")
}

fn inputs(list: Vec<(&str, Tensor)>) -> HashMap<String, Tensor> {
    list.into_iter().map(|(n, t)| (n.to_owned(), t)).collect()
}

/// The layer of an error and the error inside its bodies, outermost first.
fn chain(mut e: &ExecError) -> Vec<String> {
    let mut layers = Vec::new();
    while let ExecError::InBody { layer, source, .. } = e {
        layers.push(layer.clone());
        e = source;
    }
    layers.push(e.to_string());
    layers
}

#[test]
fn a_loop_without_end_stops_at_the_iteration_limit() {
    // Halving until below 0.1 never ends on infinities; the trip count is -1.
    let exec = sample("loop_until_condition").with_limits(Limits {
        max_iterations: 50,
        ..Limits::default()
    });
    let x = Tensor::from_vec(vec![2, 3], vec![f32::INFINITY; 6]).unwrap();
    let err = exec
        .run(inputs(vec![("go", Tensor::scalar(true)), ("x", x)]))
        .unwrap_err();
    match &err {
        ExecError::IterationLimit { layer, op, limit } => {
            assert!(layer.starts_with("Loop_"), "{err}");
            assert_eq!((op.as_str(), *limit), ("Loop", 50));
        }
        other => panic!("{other}"),
    }
    assert_eq!(Limits::default().max_iterations, MAX_ITERATIONS);
    // Finite values stop on their own, well within the limit.
    let x = Tensor::from_vec(vec![2, 3], vec![100.0f32; 6]).unwrap();
    let out = exec
        .run(inputs(vec![("go", Tensor::scalar(true)), ("x", x)]))
        .unwrap();
    // 100 / 2^k <= 0.1 first at k = 10.
    let numbers = out.values().find(|t| t.shape.len() == 1).unwrap();
    assert_eq!(
        numbers.to_vec::<i64>().unwrap(),
        (0..10).collect::<Vec<_>>()
    );
}

#[test]
fn a_growing_loop_state_stops_at_the_memory_limit() {
    // The trip count comes from the data: i64::MAX iterations, each adding
    // a row to the state and a number to the concatenated output.
    let exec = sample("loop_growing").with_limits(Limits {
        max_tensor_bytes: 4096,
        max_live_bytes: 16384,
        max_iterations: MAX_ITERATIONS,
    });
    let rows = Tensor::from_vec(vec![1, 3], vec![1.0f32; 3]).unwrap();
    let err = exec
        .run(inputs(vec![
            ("trip", Tensor::scalar(i64::MAX)),
            ("rows", rows),
        ]))
        .unwrap_err();
    let layers = chain(&err);
    assert!(
        layers[0].starts_with("Loop_") || err.to_string().contains("Loop_"),
        "{err}"
    );
    let inner = layers.last().unwrap();
    assert!(inner.contains("over the limit of"), "{err}");
}

#[test]
fn a_failure_inside_a_body_names_the_layer_the_body_and_the_iteration() {
    // Four iterations over a sliced input of three parts: the fourth has no
    // part (OpenVINO's CPU plugin fails too).
    let exec = sample("loop_accumulate");
    let a = Tensor::from_vec(vec![2, 3], vec![0.0f32; 6]).unwrap();
    let xs = Tensor::from_vec(vec![3, 5, 3], vec![1.0f32; 45]).unwrap();
    let err = exec
        .run(inputs(vec![("a", a), ("xs", xs)]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("(Loop)"), "{err}");
    assert!(
        err.contains("iteration 3 needs part 3 of op input 3, which is sliced in 3 parts"),
        "{err}"
    );

    // Inside a body: the If in the TensorIterator's body would take the
    // live bytes past the limit (the body's inputs, 48 bytes, its
    // comparison, 1, and the If's output, 24); the error names the
    // TensorIterator, its body and iteration, then the If.
    let exec = sample("ti_nested_if").with_limits(Limits {
        max_tensor_bytes: 24,
        max_live_bytes: 70,
        max_iterations: MAX_ITERATIONS,
    });
    let x = Tensor::from_vec(vec![2, 1, 3], vec![1.0f32; 6]).unwrap();
    let h = Tensor::from_vec(vec![2, 3], vec![0.0f32; 6]).unwrap();
    let err = exec.run(inputs(vec![("x", x), ("h", h)])).unwrap_err();
    let layers = chain(&err);
    assert_eq!(layers.len(), 2, "{layers:?}");
    assert!(layers[0].starts_with("TensorIterator_"), "{layers:?}");
    let shown = err.to_string();
    assert!(
        shown.contains("(TensorIterator), body, iteration 0: layer `If_"),
        "{shown}"
    );
    assert!(
        shown.contains("(If): the live tensors would need 73 bytes, over the limit of 70 bytes"),
        "{shown}"
    );
}

#[test]
fn the_ops_with_bodies_run_on_empty_tensors() {
    let empty = |shape: Vec<usize>| {
        let n = shape.iter().product();
        Tensor::from_vec(shape, vec![0.0f32; n]).unwrap()
    };
    // If: both bodies on [0, 3].
    let exec = sample("if_relu_negative");
    for cond in [true, false] {
        let out = exec
            .run(inputs(vec![
                ("cond", Tensor::scalar(cond)),
                ("x", empty(vec![0, 3])),
            ]))
            .unwrap();
        assert_eq!(out.values().next().unwrap().shape, [0, 3]);
    }
    // TensorIterator over an empty axis: zero iterations, the state as
    // given and an empty concatenation.
    let exec = sample("ti_accumulate");
    let h = Tensor::from_vec(vec![2, 3], vec![1.0f32; 6]).unwrap();
    let out = exec
        .run(inputs(vec![("x", empty(vec![2, 0, 3])), ("h", h)]))
        .unwrap();
    let mut shapes: Vec<Vec<usize>> = out.values().map(|t| t.shape.clone()).collect();
    shapes.sort();
    assert_eq!(shapes, [vec![2, 0, 3], vec![2, 3]]);
    // Loop: an empty state grown twice by one row.
    let exec = sample("loop_growing");
    let out = exec
        .run(inputs(vec![
            ("trip", Tensor::scalar(2i64)),
            ("rows", empty(vec![0, 3])),
        ]))
        .unwrap();
    let mut shapes: Vec<Vec<usize>> = out.values().map(|t| t.shape.clone()).collect();
    shapes.sort();
    assert_eq!(shapes, [vec![2], vec![2, 3]]);
}

/// A Loop of 10,000 iterations (`loop_reverse_slices`: a state of [2, 3]
/// and a slice of `xs` per iteration, every state and iteration number
/// concatenated): the outputs are checked, and the time is printed, not
/// asserted. The body's shapes are the same in every iteration, so they
/// are inferred once. `docs/performance.md` quotes this, measured by
/// `cargo test --release -p executor --test bodies -- --ignored --nocapture`.
#[test]
#[ignore = "a timing: run in release with --ignored --nocapture"]
fn a_loop_of_ten_thousand_iterations_prints_its_time() {
    const STEPS: usize = 10_000;
    let exec = sample("loop_reverse_slices");
    let xs: Vec<f32> = (0..2 * STEPS * 3).map(|i| (i % 7) as f32 - 3.0).collect();
    let run = || {
        exec.run(inputs(vec![
            ("trip", Tensor::scalar(STEPS as i64)),
            (
                "xs",
                Tensor::from_vec(vec![2, STEPS, 3], xs.clone()).unwrap(),
            ),
            ("h", Tensor::from_vec(vec![2, 3], vec![0.0f32; 6]).unwrap()),
        ]))
        .unwrap()
    };
    run();
    let start = std::time::Instant::now();
    let out = run();
    let elapsed = start.elapsed();
    let numbers = out.values().find(|t| t.shape == [STEPS]).expect("numbers");
    assert_eq!(
        numbers.to_vec::<i64>().unwrap(),
        (0..STEPS as i64).collect::<Vec<_>>()
    );
    assert!(out.values().any(|t| t.shape == [2, STEPS, 3]));
    println!(
        "Loop of {STEPS} iterations: {:.1} ms ({:.1} µs per iteration)",
        elapsed.as_secs_f64() * 1e3,
        elapsed.as_secs_f64() * 1e6 / STEPS as f64
    );
}
