//! Shape inference through If-8, Loop-5 and TensorIterator-1 bodies, on the
//! OpenVINO-written samples of `ir-samples/bodies/`
//! (`scripts/gen_body_models.py`). OpenVINO answers `?` on every iteration
//! axis and merged If dim below; these answers are exact in the inputs'
//! symbols (or fresh symbols named after the layer), and agree with
//! OpenVINO's where its are static (the printed comments).

use std::path::{Path, PathBuf};

use ir::{Graph, Shape};
use shape_infer::{infer, Inference, NodeOutcome, Options, Registry};

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../ir-samples/bodies")
        .join(name)
        .with_extension("xml")
}

fn run(name: &str) -> (Graph, Inference) {
    let outcome = ir_xml::read_model(&sample(name), None).unwrap_or_else(|e| panic!("{e}"));
    assert!(outcome.diagnostics.is_empty(), "{:#?}", outcome.diagnostics);
    let inference = infer(&outcome.graph, &Registry::standard(), &Options::default());
    assert!(
        inference.diagnostics.is_empty(),
        "{name}: {:#?}",
        inference.diagnostics
    );
    (outcome.graph, inference)
}

/// The shapes of the op with bodies, as text over the inference's symbols.
fn op_shapes(graph: &Graph, inference: &Inference) -> Vec<String> {
    let (id, _) = graph
        .nodes()
        .find(|(_, n)| matches!(n.op, ir::Op::SubGraph(_)))
        .expect("an op with bodies");
    let NodeOutcome::Inferred(outputs) = inference.outcome(id) else {
        panic!("declared, not inferred");
    };
    outputs
        .iter()
        .map(|t| shape_text(inference, &t.shape))
        .collect()
}

fn shape_text(inference: &Inference, shape: &Shape) -> String {
    match shape {
        Shape::DynamicRank => "[...]".to_owned(),
        Shape::Ranked(dims) => format!(
            "[{}]",
            dims.iter()
                .map(|d| inference.symbols.display(d).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[test]
fn if_with_equal_bodies_keeps_the_input_symbol() {
    // OpenVINO: [?,3].
    let (graph, inference) = run("if_relu_negative");
    assert_eq!(op_shapes(&graph, &inference), ["[?0, 3]"]);
    // Both bodies were inferred, their Results too.
    let (id, _) = graph
        .nodes()
        .find(|(_, n)| n.op_type.name == "If")
        .expect("If");
    let bodies = &inference.bodies[&id];
    assert_eq!(bodies.len(), 2);
    assert!(bodies.iter().all(|b| b
        .outcomes
        .iter()
        .all(|o| matches!(o, NodeOutcome::Inferred(_)))));
}

#[test]
fn if_with_different_bodies_gives_a_fresh_dim_named_after_the_layer() {
    // then: [2*N, 3], else: [N, 3]; OpenVINO: [?,3].
    let (graph, inference) = run("if_branches_differ");
    let shapes = op_shapes(&graph, &inference);
    assert_eq!(shapes.len(), 1);
    assert!(
        shapes[0].ends_with(", 3]") && !shapes[0].starts_with("[?0,"),
        "{shapes:?}"
    );
    let fresh = inference
        .symbols
        .iter()
        .find(|(_, info)| {
            info.provenance
                .as_ref()
                .is_some_and(|p| p.reason.contains("of If `If_"))
        })
        .expect("a symbol for the merged dim");
    assert_eq!(fresh.1.range, ir::Interval::new(Some(0), None));
}

#[test]
fn loop_with_a_constant_trip_count_is_exact() {
    // OpenVINO: [2,3] and [4,5,3].
    let (graph, inference) = run("loop_accumulate");
    assert_eq!(op_shapes(&graph, &inference), ["[2, 3]", "[4, 5, 3]"]);
}

#[test]
fn loop_with_a_trip_count_input_gets_an_iteration_symbol_and_a_loop_carried_dim() {
    // OpenVINO: [1..,3] and [?].
    let (graph, inference) = run("loop_growing");
    let shapes = op_shapes(&graph, &inference);
    let reasons: Vec<String> = inference
        .symbols
        .iter()
        .filter_map(|(_, info)| info.provenance.as_ref().map(|p| p.reason.clone()))
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.starts_with("iterations of Loop `Loop_")),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(|r| r.starts_with("loop-carried `acc`")),
        "{reasons:?}"
    );
    // The state is the loop-carried rows plus the one this iteration adds.
    assert!(shapes[0].ends_with(" + 1, 3]"), "{shapes:?}");
    assert_eq!(shapes[1].matches(", ").count(), 0, "{shapes:?}");
}

#[test]
fn tensor_iterator_iterates_over_the_input_symbol() {
    // x [2, S, 3] sliced on axis 1: S iterations; OpenVINO: [2,3], [2,?,3].
    for name in ["ti_accumulate", "ti_nested_if"] {
        let (graph, inference) = run(name);
        assert_eq!(
            op_shapes(&graph, &inference),
            ["[2, 3]", "[2, ?0, 3]"],
            "{name}"
        );
    }
}

#[test]
fn slice_iteration_counts_follow_openvino() {
    use ir::SliceSpec;
    let spec = |start, end, stride, part_size| SliceSpec {
        axis: 0,
        start,
        end,
        stride,
        part_size,
    };
    // (dim, slice, OpenVINO's count (|end' - start'| + 1) / part_size).
    for (dim, slice, expected) in [
        (10, spec(0, -1, 1, 1), 10),
        (10, spec(0, -1, 1, 2), 5),
        (10, spec(-1, 0, -1, 1), 10),
        (10, spec(2, -1, 1, 2), 4),
        (10, spec(0, 3, 1, 1), 4),
        (7, spec(0, -1, 1, 3), 2),
    ] {
        let count = shape_infer::ops::slice_iterations(&symdim::Expr::constant(dim), &slice)
            .expect("count");
        assert_eq!(count.as_constant(), Some(expected), "{slice:?} of {dim}");
    }
}

#[test]
fn a_loop_over_a_dim_of_its_input_runs_that_many_iterations() {
    // PyTorch's `for t in range(x.shape[1])` (scripts/gen_torch_body_models.py):
    // the trip count is Gather(ShapeOf(x), 1), whose value is the dim, and
    // the body's condition is constantly true. OpenVINO: [?,4] and [?,?,4].
    let (graph, inference) = run("torch_for_steps");
    assert_eq!(op_shapes(&graph, &inference), ["[?0, 4]", "[?0, ?1, 4]"]);
}

#[test]
fn chunked_gates_in_a_loop_body_keep_their_static_width() {
    // PyTorch's `chunk(4, 1)` of the LSTM gates [B, 16] converts to a
    // VariadicSplit whose lengths come from a ShapeOf subgraph ending in a
    // Broadcast of the chunk size: the Broadcast keeps the value, so every
    // gate is [B, 4] and nothing is assumed. OpenVINO: [?,4] twice.
    let (graph, inference) = run("torch_lstm_loop");
    assert_eq!(op_shapes(&graph, &inference), ["[?0, 4]", "[?0, 4]"]);
    assert!(
        inference.constraints.is_empty(),
        "{:?}",
        inference.constraints
    );
    let (id, _) = graph
        .nodes()
        .find(|(_, n)| n.op_type.name == "Loop")
        .expect("Loop");
    let body = &inference.bodies[&id][0];
    let Some(ir::Op::SubGraph(sub)) = Some(&graph.node(id).op) else {
        panic!("no bodies");
    };
    let split = sub.bodies[0]
        .graph
        .nodes()
        .find(|(_, n)| n.op_type.name == "VariadicSplit")
        .expect("VariadicSplit")
        .0;
    let NodeOutcome::Inferred(gates) = &body.outcomes[split.index()] else {
        panic!("not inferred");
    };
    let shapes: Vec<String> = gates
        .iter()
        .map(|t| shape_text(&inference, &t.shape))
        .collect();
    assert_eq!(shapes, ["[?0, 4]"; 4]);
}

/// The symbol of the iterations of the Loop of a sample, and what the
/// table knows of it.
fn loop_iterations(inference: &Inference) -> (symdim::SymbolId, symdim::SymbolInfo) {
    let (id, info) = inference
        .symbols
        .iter()
        .find(|(_, info)| {
            info.provenance
                .as_ref()
                .is_some_and(|p| p.reason.starts_with("iterations of Loop"))
        })
        .expect("an iteration symbol");
    (id, info.clone())
}

/// The symbol of dim `axis` of Parameter `name`.
fn parameter_dim(graph: &Graph, inference: &Inference, name: &str, axis: usize) -> symdim::Expr {
    let (id, _) = graph
        .nodes()
        .find(|(_, n)| n.name == name)
        .expect("the Parameter");
    let NodeOutcome::Inferred(outputs) = inference.outcome(id) else {
        panic!("declared, not inferred");
    };
    outputs[0].shape.dims().expect("ranked")[axis].clone()
}

#[test]
fn a_loop_stopped_by_its_condition_runs_at_most_its_symbolic_trip_count() {
    // The trip count is a dim of a ShapeOf and the body's condition depends
    // on the data: OpenVINO answers `?`; ours is `k ∈ [0, N]` with `N` kept
    // as the bound (rows: also the sliced input's part count).
    for (name, parameter, axis) in [
        ("loop_rows_until", "x", 0),
        ("loop_steps_until", "tokens", 1),
    ] {
        let (graph, inference) = run(name);
        let (k, info) = loop_iterations(&inference);
        let trips = parameter_dim(&graph, &inference, parameter, axis);
        assert_eq!(info.upper.as_ref(), Some(&trips), "{name}");
        assert_eq!(info.range, ir::Interval::new(Some(0), None), "{name}");
        let shapes = op_shapes(&graph, &inference);
        let k = inference
            .symbols
            .display(&symdim::Expr::symbol(k))
            .to_string();
        assert!(
            shapes
                .last()
                .is_some_and(|s| s.starts_with(&format!("[{k}"))),
            "{name}: {shapes:?}"
        );
    }
}

#[test]
fn a_constant_trip_count_bounds_the_range_and_minus_one_leaves_it_open() {
    // OpenVINO: [?,?,3] and [?,2,3].
    let (_, inference) = run("loop_capped_until");
    let (_, info) = loop_iterations(&inference);
    assert_eq!(info.range, ir::Interval::new(Some(0), Some(6)));
    assert_eq!(info.upper, None);
    let (_, inference) = run("loop_until_condition");
    let (_, info) = loop_iterations(&inference);
    assert_eq!(info.range, ir::Interval::new(Some(0), None));
    assert_eq!(info.upper, None);
}

#[test]
fn a_loop_with_an_unknown_trip_count_runs_at_most_its_sliced_parts() {
    // `xs [2, S, 3]` sliced along axis 1 and a trip count from an input:
    // past the last part OpenVINO's CPU plugin (and the executor) fail, so
    // the iterations are at most `S`. OpenVINO: [2,?,3].
    let (graph, inference) = run("loop_reverse_slices");
    let (_, info) = loop_iterations(&inference);
    let parts = parameter_dim(&graph, &inference, "xs", 1);
    assert_eq!(info.upper, Some(parts));
}

#[test]
fn a_constantly_false_condition_with_a_trip_count_of_at_least_one_runs_once() {
    // A do-while stopped after its first iteration, its trip count `N + 1`:
    // exactly one iteration. OpenVINO: [1,?,3].
    let (graph, inference) = run("loop_do_once");
    assert_eq!(op_shapes(&graph, &inference), ["[1, ?0, 3]"]);
    assert!(inference.symbols.iter().all(|(_, info)| info
        .provenance
        .as_ref()
        .is_none_or(|p| !p.reason.starts_with("iterations of Loop"))));
}
