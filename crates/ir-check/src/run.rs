//! `--run`: execute a valid model on the CPU with `.npy` inputs and write each
//! Result as `.npy`.
//!
//! Problems with the inputs (an unreadable file, a missing or unknown input, a
//! wrong dtype, rank or dim) are usage errors (exit 2) reported before
//! anything runs; a failure while running is an invalid model (exit 1).

use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;

use ir::{Diagnostic, Graph, LayerRef, Op, ScopeRef};
use ovir::{Check, ExecError, Tensor};

use crate::{diagnostics, usage_error, Args, Format, Outcome, EXIT_INVALID};

/// Runs the model `check` found valid (`checked` is that check's outcome)
/// and appends what was written to the report; `source` is the model's
/// text, which diagnostics of a failed run quote.
pub fn execute(
    file_name: &str,
    source: &str,
    check: &Check<'_>,
    args: &Args,
    checked: Outcome,
) -> Outcome {
    let mut inputs = HashMap::new();
    for spec in &args.inputs {
        let Some((name, path)) = spec.split_once('=') else {
            return usage_error(format!("--input `{spec}` is not of the form NAME=FILE.npy"));
        };
        match ovir::read_npy(Path::new(path)) {
            Ok(tensor) => {
                inputs.insert(name.to_owned(), tensor);
            }
            Err(e) => return usage_error(format!("--input {name}: `{path}`: {e}")),
        }
    }
    let threads = args
        .threads
        .map(usize::from)
        .or_else(|| std::thread::available_parallelism().ok().map(usize::from))
        .unwrap_or(1);
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool,
        Err(e) => return usage_error(format!("--threads {threads}: {e}")),
    };
    let profile_layers = profile_layers(args);
    let runner = match check.runner_with_precision(args.precision) {
        Ok(runner) if profile_layers.is_some() => runner.with_profiling(),
        Ok(runner) => runner,
        Err(error) => return failure(file_name, source, check, error, checked),
    };
    // The repeats get the same inputs: keep a copy only when there are any.
    let repeat_inputs = (args.repeat > 0).then(|| inputs.clone());
    let outputs = match pool.install(|| runner.run(inputs)) {
        Ok(outputs) => outputs,
        Err(error) => return failure(file_name, source, check, error, checked),
    };
    let mut latency = None;
    if let Some(inputs) = repeat_inputs {
        let mut times = Vec::with_capacity(args.repeat);
        for _ in 0..args.repeat {
            let start = std::time::Instant::now();
            if let Err(error) = pool.install(|| runner.run(inputs.clone())) {
                return failure(file_name, source, check, error, checked);
            }
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
        latency = Some(latency_line(&mut times, threads));
    }
    if let Err(e) = std::fs::create_dir_all(&args.output_dir) {
        return usage_error(format!(
            "cannot create `{}`: {e}",
            args.output_dir.display()
        ));
    }
    // Results in file order, so the listing is stable.
    let mut written = Vec::new();
    for (_, node) in check.model().graph().results() {
        let Some(tensor) = outputs.get(&node.name) else {
            continue;
        };
        let path = args
            .output_dir
            .join(format!("{}.npy", file_stem(&node.name)));
        if let Err(e) = ovir::write_npy(&path, tensor) {
            return usage_error(format!("cannot write `{}`: {e}", path.display()));
        }
        written.push((node.name.clone(), path.display().to_string(), tensor));
    }
    let mut outcome = checked;
    if let Some(line) = latency {
        outcome.stderr.push_str(&line);
    }
    if let (Some(layers), Some(profile)) = (profile_layers, runner.profile()) {
        let _ = write!(outcome.stderr, "{}", profile.table(layers));
    }
    let variables = runner.variables();
    let state = (!variables.is_empty()).then(|| state_line(&variables, args.repeat));
    match args.format {
        // Quiet: the diagnostics and the verdict only (the files are written).
        Format::Text if args.quiet => {}
        Format::Text => {
            let _ = writeln!(outcome.stdout, "\nrun: wrote {} output(s)", written.len());
            for (name, path, tensor) in &written {
                let _ = writeln!(outcome.stdout, "  {name}  {}  -> {path}", describe(tensor));
            }
            if let Some(line) = &state {
                let _ = writeln!(outcome.stdout, "  {line}");
            }
        }
        Format::Json => {
            outcome.stdout = with_run_section(&outcome.stdout, &written, &variables, args.repeat)
        }
        // Both describe the check; the outputs are in the files.
        Format::Sarif | Format::Dot => {}
    }
    outcome
}

/// How many layers the profile lists, when one is asked for: `--profile N`,
/// else the environment's `OVIR_PROFILE=N` (any other value:
/// [`ovir::PROFILE_LAYERS_SHOWN`]).
fn profile_layers(args: &Args) -> Option<usize> {
    args.profile.or_else(|| {
        let value = std::env::var("OVIR_PROFILE").ok()?;
        Some(value.trim().parse().unwrap_or(ovir::PROFILE_LAYERS_SHOWN))
    })
}

/// `latency_ms: min=X median=Y max=Z runs=N threads=T`, the line
/// `--repeat` prints (the median of an even count is the mean of the middle
/// two).
fn latency_line(times: &mut [f64], threads: usize) -> String {
    times.sort_by(f64::total_cmp);
    let n = times.len();
    let median = if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2.0
    };
    format!(
        "latency_ms: min={:.3} median={median:.3} max={:.3} runs={n} threads={threads}\n",
        times[0],
        times[n - 1]
    )
}

/// A run that failed for a reason no layer's diagnostic carries: the
/// check's report stands, the run's error follows it.
fn run_error(checked: Outcome, error: &dyn std::fmt::Display) -> Outcome {
    Outcome {
        stdout: checked.stdout,
        stderr: format!("ir-check: error: --run: {error}\n"),
        status: EXIT_INVALID,
        timings: checked.timings,
    }
}

/// A run that failed: diagnostics of re-inference, and failures inside a
/// body, are rendered like the checker's; input problems are usage errors;
/// the rest invalid.
fn failure(
    file_name: &str,
    source: &str,
    check: &Check<'_>,
    error: ovir::Error,
    checked: Outcome,
) -> Outcome {
    let error = match error {
        ovir::Error::Run(error) => error,
        other => return run_error(checked, &other),
    };
    let found = match error {
        ExecError::Inference(found) | ExecError::InvalidGraph(found) => found,
        ExecError::InBody { .. } => in_body(check.model().graph(), &error),
        ExecError::MissingInput { .. }
        | ExecError::UnknownInput { .. }
        | ExecError::DuplicateInput { .. }
        | ExecError::InputType { .. }
        | ExecError::InputRank { .. }
        | ExecError::InputDim { .. } => return usage_error(format!("--run: {error}")),
        other => return run_error(checked, &other),
    };
    Outcome {
        stdout: checked.stdout,
        stderr: format!(
            "{}INVALID when run with these inputs: {}\n",
            diagnostics::render_all(file_name, source, &found),
            diagnostics::counts(&found)
        ),
        status: EXIT_INVALID,
        timings: checked.timings,
    }
}

/// The rule of a failure inside a body at run time.
const BODY_RUN_FAILED: &str = "body-run-failed";

/// The diagnostics of `error`, a failure inside a body (nested bodies, an
/// [`ExecError::InBody`] each): the failing body layer with the layers and
/// bodies around it and its XML line, the iterations in a note. A failure
/// of the body's re-inference gives its own diagnostics, seen from outside
/// the bodies.
fn in_body(graph: &Graph, error: &ExecError) -> Vec<Diagnostic> {
    let mut scopes: Vec<ScopeRef> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut graph = Some(graph);
    let mut error = error;
    while let ExecError::InBody {
        layer,
        op,
        body,
        iteration,
        source,
    } = error
    {
        let owner = graph.and_then(|g| g.nodes().find(|(_, n)| &n.name == layer));
        let id = owner.map_or_else(|| "?".to_owned(), |(_, n)| n.id.clone());
        notes.push(match iteration {
            Some(i) => format!("in iteration {i} of the {body} of {op} `{layer}`"),
            None => format!("in the {body} of {op} `{layer}`"),
        });
        scopes.push(ScopeRef {
            id,
            name: layer.clone(),
            type_name: op.clone(),
            body: body.clone(),
        });
        graph = owner.and_then(|(_, n)| match &n.op {
            Op::SubGraph(sub) => sub
                .bodies
                .iter()
                .find(|b| b.role.name() == body.as_str())
                .map(|b| &b.graph),
            _ => None,
        });
        error = source;
    }
    // Innermost first reads as a stack: the failing body's iteration, then
    // the ones around it.
    notes.reverse();
    let outside = |mut layer: LayerRef| {
        let mut parents = scopes.clone();
        parents.append(&mut layer.parents);
        layer.parents = parents;
        layer
    };
    if let ExecError::Inference(found) | ExecError::InvalidGraph(found) = error {
        return found
            .iter()
            .cloned()
            .map(|mut d| {
                d.layer = d.layer.take().map(&outside);
                d.notes.extend(notes.iter().cloned());
                d
            })
            .collect();
    }
    let (name, message) = failed_layer(error);
    let mut diagnostic = Diagnostic::error(BODY_RUN_FAILED, message);
    if let Some((_, node)) =
        name.and_then(|name| graph.and_then(|g| g.nodes().find(|(_, n)| n.name == name)))
    {
        diagnostic = diagnostic.at_layer(outside(node.layer_ref()), node.location);
    } else if let Some((last, around)) = scopes.split_last() {
        // No layer of the body to name: the layer that owns the body.
        diagnostic.layer = Some(LayerRef {
            id: last.id.clone(),
            name: last.name.clone(),
            type_name: last.type_name.clone(),
            version: String::new(),
            parents: around.to_vec(),
        });
    }
    for note in notes {
        diagnostic = diagnostic.with_note(note);
    }
    vec![diagnostic]
}

/// The body layer a run error names, if any, and what went wrong (without
/// the layer, which the diagnostic shows).
fn failed_layer(error: &ExecError) -> (Option<&str>, String) {
    match error {
        ExecError::Kernel { layer, message, .. } => (Some(layer), message.clone()),
        ExecError::NoKernel { layer, .. }
        | ExecError::DataDependentRange { layer, .. }
        | ExecError::ShapeMismatch { layer, .. }
        | ExecError::MemoryLimit { layer, .. }
        | ExecError::IterationLimit { layer, .. } => (Some(layer), error.to_string()),
        other => (None, other.to_string()),
    }
}

/// A Result's layer name as a file stem: letters, digits, `.`, `-` and `_`
/// stay; everything else (such as `/`) becomes `_`.
pub fn file_stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn describe(tensor: &Tensor) -> String {
    let dims: Vec<String> = tensor.shape.iter().map(ToString::to_string).collect();
    format!("{} [{}]", tensor.element_type, dims.join(", "))
}

/// What a run of a stateful model says of its variables: `--repeat` runs
/// keep them from one run to the next, as an OpenVINO infer request does,
/// and the outputs written are the first run's.
fn state_line(variables: &[String], repeat: usize) -> String {
    let names: Vec<String> = variables.iter().map(|v| format!("`{v}`")).collect();
    let names = names.join(", ");
    if repeat == 0 {
        format!("state: variable(s) {names} read their initial values (one run)")
    } else {
        format!(
            "state: variable(s) {names} kept from each run to the next over {} runs (--repeat {repeat}); the outputs are the first run's",
            repeat + 1
        )
    }
}

fn with_run_section(
    report: &str,
    written: &[(String, String, &Tensor)],
    variables: &[String],
    repeat: usize,
) -> String {
    let Ok(serde_json::Value::Object(mut object)) = serde_json::from_str(report) else {
        return report.to_owned();
    };
    let outputs: Vec<serde_json::Value> = written
        .iter()
        .map(|(name, path, tensor)| {
            serde_json::json!({
                "name": name,
                "file": path,
                "element_type": tensor.element_type.name(),
                "shape": tensor.shape,
            })
        })
        .collect();
    let mut run = serde_json::json!({ "outputs": outputs });
    if !variables.is_empty() {
        // The runs the variables were kept over (the first and the repeats).
        run["state"] = serde_json::json!({ "variables": variables, "runs": repeat + 1 });
    }
    object.insert("run".into(), run);
    let mut text = serde_json::to_string_pretty(&serde_json::Value::Object(object))
        .unwrap_or_else(|_| report.to_owned());
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::{file_stem, in_body, latency_line, ExecError};

    #[test]
    fn the_latency_line_has_min_median_max() {
        let line = latency_line(&mut [3.0, 1.0, 2.0, 10.0], 2);
        assert_eq!(
            line,
            "latency_ms: min=1.000 median=2.500 max=10.000 runs=4 threads=2\n"
        );
        assert!(latency_line(&mut [4.0], 1).contains("median=4.000 max=4.000 runs=1"));
    }

    #[test]
    fn result_names_become_file_stems() {
        assert_eq!(file_stem("/encoder/layer.0/Add"), "_encoder_layer.0_Add");
        assert_eq!(file_stem("out-1_x"), "out-1_x");
        assert_eq!(file_stem("a b:c"), "a_b_c");
    }

    /// A failure two bodies deep (the If in a TensorIterator's body) names
    /// the innermost layer under both, at its own line, the iterations
    /// innermost first; a failed re-inference inside a body keeps its own
    /// diagnostics, seen from outside.
    #[test]
    fn failures_in_nested_bodies_name_every_layer_around_them() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../ir-samples/bodies/ti_nested_if.xml");
        let graph = ir_xml::read_model(&path, None).expect("reads").graph;
        let nested = |inner: ExecError| ExecError::InBody {
            layer: "TensorIterator_76".into(),
            op: "TensorIterator".into(),
            body: "body".into(),
            iteration: Some(2),
            source: Box::new(ExecError::InBody {
                layer: "If_69".into(),
                op: "If".into(),
                body: "then_body".into(),
                iteration: None,
                source: Box::new(inner),
            }),
        };
        let found = in_body(
            &graph,
            &nested(ExecError::Kernel {
                layer: "Multiply_65".into(),
                op: "Multiply".into(),
                message: "it failed".into(),
            }),
        );
        assert_eq!(found.len(), 1);
        let d = &found[0];
        assert_eq!(
            d.layer.as_ref().map(ToString::to_string).as_deref(),
            Some(
                "layer 2 `TensorIterator_76` (TensorIterator) > body > layer 8 `If_69` (If) > \
                 then_body > layer 2 `Multiply_65` (Multiply-opset1)"
            )
        );
        assert_eq!(
            (d.message.as_str(), d.location.map(|l| l.line)),
            ("it failed", Some(186))
        );
        assert_eq!(
            d.notes,
            [
                "in the then_body of If `If_69`",
                "in iteration 2 of the body of TensorIterator `TensorIterator_76`"
            ]
        );
        // A re-inference that failed inside the If's body.
        let inferred = ir::Diagnostic::error("some-rule", "bad shape").at_layer(
            graph_layer(&graph),
            ir::SourceLocation {
                line: 229,
                column: 9,
            },
        );
        let found = in_body(&graph, &nested(ExecError::Inference(vec![inferred])));
        assert_eq!(found.len(), 1);
        let layer = found[0].layer.as_ref().expect("a layer");
        assert_eq!(layer.parents.len(), 2);
        assert_eq!(
            (layer.name.as_str(), found[0].rule),
            ("Relu_67", "some-rule")
        );
        assert_eq!(found[0].notes.len(), 2);
    }

    /// The layer reference of `Relu_67` as the If's else body names it.
    fn graph_layer(graph: &ir::Graph) -> ir::LayerRef {
        let ti = body(node_named(graph, "TensorIterator_76"), 0);
        let branch = body(node_named(ti, "If_69"), 1);
        node_named(branch, "Relu_67").layer_ref()
    }

    fn node_named<'g>(graph: &'g ir::Graph, name: &str) -> &'g ir::Node {
        graph
            .nodes()
            .find(|(_, n)| n.name == name)
            .map(|(_, n)| n)
            .unwrap_or_else(|| panic!("no layer {name}"))
    }

    /// Body `index` of a layer with bodies.
    fn body(node: &ir::Node, index: usize) -> &ir::Graph {
        let ir::Op::SubGraph(sub) = &node.op else {
            panic!("{} has no bodies", node.name)
        };
        &sub.bodies[index].graph
    }
}
