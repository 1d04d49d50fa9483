//! Models with bodies converted from PyTorch by OpenVINO's own converter
//! (`ir-samples/bodies/torch_*`, from `scripts/gen_torch_body_models.py`),
//! and the Loops stopped by their body's condition that
//! `scripts/gen_body_models.py` builds with a golden (`loop_*_until`):
//! every layer, body layers included, has OpenVINO's shape at each static
//! binding of its golden (`ir-samples/bodies/golden/<name>.json`, which
//! holds OpenVINO's view of each body under its layer), and the outputs
//! are exact in the input symbols where OpenVINO answers `?`. (Their run
//! equals OpenVINO's CPU plugin: `run_samples.rs`, cases `bodies_torch_*`.)

mod support;

use std::path::PathBuf;

use serde_json::Value;
use support::{valid_report as report, workspace_root};

/// Per layer path (`Loop > body > Add`), its output shapes as OpenVINO
/// prints them, from a golden's op list (bodies under `bodies`).
fn openvino_layers(ops: &Value, path: &str, out: &mut Vec<(String, String, Vec<String>)>) {
    for op in ops.as_array().expect("ops") {
        let name = op["name"].as_str().expect("name");
        let shapes = op["outputs"]
            .as_array()
            .expect("outputs")
            .iter()
            .map(|o| o["shape"].as_str().expect("shape").replace(' ', ""))
            .collect();
        let kind = op["type"].as_str().expect("type").to_owned();
        out.push((format!("{path}{name}"), kind, shapes));
        for body in op["bodies"].as_array().into_iter().flatten() {
            let role = body["role"].as_str().expect("role");
            openvino_layers(&body["ops"], &format!("{path}{name} > {role} > "), out);
        }
    }
}

/// Per layer path, our output shapes written as OpenVINO would: a bare
/// symbol as its range (`3..6`, `?`), an expression as `expr`.
fn our_layers(report: &Value) -> Vec<(String, Vec<String>)> {
    fn dim(d: &Value, symbols: &Value) -> String {
        match d {
            Value::Number(n) => n.to_string(),
            Value::String(s) => match symbols.get(s) {
                Some(range) => {
                    let lo = range["min"].as_i64().unwrap_or(0);
                    match range["max"].as_i64().filter(|&hi| hi < i64::MAX) {
                        Some(hi) if hi == lo => lo.to_string(),
                        Some(hi) if lo == 0 => format!("..{hi}"),
                        Some(hi) => format!("{lo}..{hi}"),
                        None if lo == 0 => "?".to_owned(),
                        None => format!("{lo}.."),
                    }
                }
                None => format!("expr({s})"),
            },
            other => panic!("dim {other}"),
        }
    }
    fn walk(nodes: &Value, path: &str, symbols: &Value, out: &mut Vec<(String, Vec<String>)>) {
        for node in nodes.as_array().expect("nodes") {
            let name = node["name"].as_str().expect("name");
            let shapes = node["outputs"]
                .as_array()
                .expect("outputs")
                .iter()
                .map(|o| match o["shape"].as_array() {
                    Some(dims) => format!(
                        "[{}]",
                        dims.iter()
                            .map(|d| dim(d, symbols))
                            .collect::<Vec<_>>()
                            .join(",")
                    ),
                    None => "[...]".to_owned(),
                })
                .collect();
            out.push((format!("{path}{name}"), shapes));
            for body in node["body"].as_array().into_iter().flatten() {
                let role = body["role"].as_str().expect("role");
                walk(
                    &body["nodes"],
                    &format!("{path}{name} > {role} > "),
                    symbols,
                    out,
                );
            }
        }
    }
    let mut out = Vec::new();
    walk(&report["nodes"], "", &report["symbols"], &mut out);
    out
}

/// `--shape` arguments of a golden binding (a scalar as `name=`).
fn shape_args(inputs: &Value) -> Vec<String> {
    inputs
        .as_object()
        .expect("binding inputs")
        .iter()
        .map(|(name, dims)| {
            let dims: Vec<String> = dims
                .as_array()
                .expect("dims")
                .iter()
                .map(|d| d.as_i64().expect("a static dim").to_string())
                .collect();
            format!("{name}={}", dims.join(","))
        })
        .collect()
}

fn goldens() -> Vec<(String, Value)> {
    let dir = workspace_root().join("ir-samples/bodies/golden");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("ir-samples/bodies/golden")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("name")
                .to_owned();
            let text = std::fs::read_to_string(&path).expect("golden");
            (stem, serde_json::from_str(&text).expect("json"))
        })
        .collect()
}

/// A dim as OpenVINO prints it (`4`, `?`, `..6`, `2..`, `2..6`) as its
/// bounds; `None` for an expression of ours.
fn dim_bounds(dim: &str) -> Option<(i64, Option<i64>)> {
    if dim == "?" {
        return Some((0, None));
    }
    match dim.split_once("..") {
        None => dim.parse().ok().map(|v| (v, Some(v))),
        Some((lo, hi)) => {
            let lo = if lo.is_empty() { 0 } else { lo.parse().ok()? };
            let hi = if hi.is_empty() {
                None
            } else {
                Some(hi.parse().ok()?)
            };
            Some((lo, hi))
        }
    }
}

/// Whether our shapes agree with OpenVINO's: the same text, or per dim
/// the same, or ours an interval inside OpenVINO's interval (a Loop's
/// iteration count bounded by its trip count, where OpenVINO answers `?`).
fn shapes_agree(ours: &[String], theirs: &[String]) -> bool {
    let dims = |s: &str| -> Vec<String> {
        s.trim_matches(['[', ']'])
            .split(',')
            .map(str::to_owned)
            .collect()
    };
    let dim_agrees = |ours: &str, theirs: &str| {
        ours == theirs
            || match (dim_bounds(ours), dim_bounds(theirs)) {
                (Some((lo, hi)), Some((their_lo, their_hi))) => {
                    their_hi != Some(their_lo)
                        && lo >= their_lo
                        && their_hi.is_none_or(|t| hi.is_some_and(|h| h <= t))
                }
                _ => false,
            }
    };
    ours.len() == theirs.len()
        && ours.iter().zip(theirs).all(|(o, t)| {
            o == t || {
                let (o, t) = (dims(o), dims(t));
                o.len() == t.len() && o.iter().zip(&t).all(|(a, b)| dim_agrees(a, b))
            }
        })
}

#[test]
fn a_tighter_interval_agrees_and_a_looser_or_different_one_does_not() {
    let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
    assert!(shapes_agree(&s(&["[..5,3]"]), &s(&["[?,3]"])));
    assert!(shapes_agree(&s(&["[2..5]"]), &s(&["[1..6]"])));
    assert!(!shapes_agree(&s(&["[..5,3]"]), &s(&["[5,3]"])));
    assert!(!shapes_agree(&s(&["[?,3]"]), &s(&["[..5,3]"])));
    assert!(!shapes_agree(&s(&["[..5,4]"]), &s(&["[?,3]"])));
    assert!(!shapes_agree(&s(&["[..5]"]), &s(&["[?,3]"])));
}

#[test]
fn every_layer_and_body_layer_has_openvinos_shape_at_static_bindings() {
    let goldens = goldens();
    assert!(goldens.len() >= 5, "{} goldens", goldens.len());
    let mut problems = Vec::new();
    let mut compared = 0;
    for (name, golden) in &goldens {
        let model = format!("ir-samples/bodies/{name}.xml");
        for binding in golden["static_bindings"].as_array().expect("bindings") {
            let Some(ops) = binding.get("ops") else {
                continue;
            };
            let shapes = shape_args(&binding["inputs"]);
            let ours = our_layers(&report(&model, &shapes));
            let mut theirs = Vec::new();
            openvino_layers(ops, "", &mut theirs);
            let mut in_bodies = 0;
            for (path, kind, expected) in &theirs {
                match ours.iter().find(|(p, _)| p == path) {
                    Some((_, got)) if shapes_agree(got, expected) => {
                        compared += 1;
                        in_bodies += usize::from(path.contains(" > "));
                    }
                    Some((_, got)) => problems.push(format!(
                        "{name} at {shapes:?}: {path}: ours {got:?}, OpenVINO {expected:?}"
                    )),
                    // After a reshape OpenVINO folds some subgraphs into
                    // Constants of its own naming.
                    None if kind == "Constant" => {}
                    None => problems.push(format!(
                        "{name} at {shapes:?}: OpenVINO's {kind} `{path}` is not among our layers"
                    )),
                }
            }
            assert!(in_bodies > 0, "{name}: no body layer compared");
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(compared > 300, "only {compared} layers compared");
}

/// The shape of the top-level Result `result` in a report.
fn result_shape(report: &Value, result: &str) -> Vec<Value> {
    report["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .find(|n| n["name"] == result)
        .unwrap_or_else(|| panic!("no Result `{result}`"))["outputs"][0]["shape"]
        .as_array()
        .expect("ranked")
        .clone()
}

/// OpenVINO's dynamic answer for Result `result` (its golden).
fn openvino_result(name: &str, result: &str) -> String {
    let (_, golden) = goldens()
        .into_iter()
        .find(|(n, _)| n == name)
        .expect("golden");
    let outputs = golden["outputs"].as_array().expect("outputs");
    let output = outputs
        .iter()
        .find(|o| o["name"] == result)
        .expect("output");
    output["shape"].as_str().expect("shape").to_owned()
}

#[test]
fn loop_outputs_stay_exact_in_the_input_symbols_where_openvino_answers_question_marks() {
    let v = |s: &str| Value::from(s);
    // `for t in range(x.shape[1])`: the trip count is the ShapeOf's dim, so
    // every step stacked is `[B, T, 4]`.
    let r = report(
        "ir-samples/bodies/torch_for_steps.xml",
        &["x=B,T,3".to_owned()],
    );
    assert_eq!(openvino_result("torch_for_steps", "Result_6573"), "[?,?,4]");
    assert_eq!(
        result_shape(&r, "Result_6573"),
        [v("B"), v("T"), Value::from(4)]
    );
    assert_eq!(result_shape(&r, "Result_6572"), [v("B"), Value::from(4)]);
    // The LSTM's gates split by `chunk`: a Broadcast of the split length
    // keeps its value, so the states stay `[B, 4]` with no assumption.
    let r = report(
        "ir-samples/bodies/torch_lstm_loop.xml",
        &["x=B,T,3".to_owned()],
    );
    assert_eq!(openvino_result("torch_lstm_loop", "Result_10243"), "[?,4]");
    for result in ["Result_10243", "Result_10244"] {
        assert_eq!(result_shape(&r, result), [v("B"), Value::from(4)]);
    }
    assert_eq!(r["constraints"], Value::Array(Vec::new()));
    // `for i in range(n)`: the state keeps the input's shape.
    let r = report(
        "ir-samples/bodies/torch_for_n.xml",
        &["x=N,M".to_owned(), "n=".to_owned()],
    );
    assert_eq!(openvino_result("torch_for_n", "Result_3303"), "[?,?]");
    assert_eq!(result_shape(&r, "Result_3303"), [v("N"), v("M")]);
    // A greedy decoder's `while` with a `break`: the batch stays, the steps
    // are the Loop's own symbol.
    let r = report(
        "ir-samples/bodies/torch_greedy_decoder.xml",
        &["start=B".to_owned(), "max_len=".to_owned()],
    );
    assert_eq!(
        openvino_result("torch_greedy_decoder", "Result_16931"),
        "[?,?]"
    );
    let shape = result_shape(&r, "Result_16931");
    assert_eq!(shape[0], v("B"));
    let steps = shape[1].as_str().expect("symbolic");
    let origin = r["symbols"][steps]["origin"].as_str().expect("origin");
    assert!(origin.starts_with("iterations of Loop"), "{origin}");
}

#[test]
fn a_loop_stopped_by_its_condition_runs_at_most_its_trip_count() {
    let v = |s: &str| Value::from(s);
    // The trip count is the ShapeOf's `N` (the rows, also sliced): OpenVINO
    // answers `[?,3]`; the iterations are a symbol bounded by `N`.
    let r = report(
        "ir-samples/bodies/loop_rows_until.xml",
        &["x=N,3".to_owned()],
    );
    assert_eq!(openvino_result("loop_rows_until", "Result_272"), "[?,3]");
    let shape = result_shape(&r, "Result_272");
    assert_eq!(shape[1], Value::from(3));
    let steps = shape[0].as_str().expect("symbolic");
    assert_eq!(result_shape(&r, "Result_273"), [v(steps)]);
    let symbol = &r["symbols"][steps];
    assert_eq!(symbol["upper"], "N", "{symbol}");
    assert_eq!(symbol["min"], 0, "{symbol}");
    // `T` steps at most of a state `[B, 3]`, every state stacked.
    let r = report(
        "ir-samples/bodies/loop_steps_until.xml",
        &["tokens=B,T".to_owned(), "h=B,3".to_owned()],
    );
    assert_eq!(openvino_result("loop_steps_until", "Result_307"), "[?,?,3]");
    let shape = result_shape(&r, "Result_307");
    assert_eq!(shape[1..], [v("B"), Value::from(3)]);
    let steps = shape[0].as_str().expect("symbolic");
    assert_eq!(r["symbols"][steps]["upper"], "T", "{}", r["symbols"]);
    // A constant trip count of 6: the range, no symbolic bound.
    let r = report(
        "ir-samples/bodies/loop_capped_until.xml",
        &["tokens=B,T".to_owned(), "h=B,3".to_owned()],
    );
    let shape = result_shape(&r, "Result_337");
    let symbol = &r["symbols"][shape[0].as_str().expect("symbolic")];
    assert_eq!(
        (&symbol["min"], &symbol["max"]),
        (&Value::from(0), &Value::from(6)),
        "{symbol}"
    );
    assert!(symbol.get("upper").is_none(), "{symbol}");
}
