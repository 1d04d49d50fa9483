//! Runs the `ir-check` binary on every sample in `ir-samples/` (good and broken)
//! and keeps its text and JSON reports as insta snapshots. Also checks the exit
//! status contract: 0 valid, 1 invalid, 2 unreadable, never anything else.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn samples(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(workspace_root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    files.sort();
    files
}

/// Runs the binary from the workspace root on `relative` and returns
/// (exit status, stdout, stderr).
fn run(relative: &str, extra: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_ir-check"))
        .current_dir(workspace_root())
        .arg(relative)
        .args(extra)
        .output()
        .expect("ir-check runs");
    let status = output
        .status
        .code()
        .expect("exited, not killed by a signal");
    (
        status,
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn snapshot_dir(dir: &str) {
    let files = samples(dir);
    assert!(!files.is_empty(), "no samples in {dir}");
    for path in files {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("utf-8 name");
        let relative = format!("{dir}/{stem}.xml");
        let (status, stdout, stderr) = run(&relative, &["--allow-unknown-ops"]);
        assert!(
            matches!(status, 0..=2),
            "{relative}: exit status {status} is outside the contract"
        );
        let prefix = dir.replace('/', "_");
        insta::assert_snapshot!(
            format!("{prefix}__{stem}__text"),
            format!("exit status: {status}\n--- stdout\n{stdout}--- stderr\n{stderr}")
        );
        let (json_status, json, _) = run(&relative, &["--format", "json", "--allow-unknown-ops"]);
        assert_eq!(
            status, json_status,
            "{relative}: formats disagree on the status"
        );
        if status != 2 {
            let value: serde_json::Value =
                serde_json::from_str(&json).unwrap_or_else(|e| panic!("{relative}: {e}"));
            assert_eq!(
                value["valid"],
                serde_json::Value::Bool(status == 0),
                "{relative}"
            );
            insta::assert_snapshot!(format!("{prefix}__{stem}__json"), json);
        }
    }
}

#[test]
fn good_samples() {
    snapshot_dir("ir-samples");
}

#[test]
fn body_samples() {
    // If, Loop and TensorIterator models: body layers under their layer.
    snapshot_dir("ir-samples/bodies");
}

#[test]
fn broken_samples() {
    snapshot_dir("ir-samples/broken");
}

/// The invalid graphs of the OpenVINO golden set (op errors OpenVINO also
/// rejects): each is invalid, with its diagnostic kept as a snapshot.
#[test]
fn invalid_golden_graphs() {
    let dir = "crates/shape-infer/tests/golden";
    let files: Vec<PathBuf> = samples(dir)
        .into_iter()
        .filter(|p| {
            p.file_stem()
                .and_then(|s| s.to_str())
                .is_some_and(|s| s.starts_with("invalid_"))
        })
        .collect();
    assert!(files.len() >= 5, "the invalid golden graphs are missing");
    for path in files {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("utf-8 name");
        let (status, _, stderr) = run(&format!("{dir}/{stem}.xml"), &[]);
        assert_eq!(status, 1, "{stem} is not reported invalid");
        insta::assert_snapshot!(format!("golden__{stem}"), stderr);
    }
}

#[test]
fn broken_samples_are_invalid_or_unreadable() {
    let broken = samples("ir-samples/broken");
    assert!(
        broken.len() >= 40,
        "the broken corpus shrank to {}",
        broken.len()
    );
    for path in broken {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("utf-8 name");
        let (status, _, stderr) = run(&format!("ir-samples/broken/{stem}.xml"), &[]);
        assert!(
            status == 1 || status == 2,
            "{stem}: broken sample passed (status {status})"
        );
        assert!(!stderr.is_empty(), "{stem}: no diagnostic printed");
    }
}

#[test]
fn missing_file_is_a_usage_error() {
    let (status, stdout, stderr) = run("ir-samples/no-such-model.xml", &[]);
    assert_eq!(status, 2);
    assert!(stdout.is_empty());
    assert!(stderr.contains("cannot read"), "{stderr}");
}

#[test]
fn bad_command_line_is_a_usage_error() {
    let (status, _, _) = run("ir-samples/add_relu_static.xml", &["--format", "yaml"]);
    assert_eq!(status, 2);
    let (status, _, stderr) = run("ir-samples/add_relu_static.xml", &["--shape", "nope=1,2"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("no Parameter is named `nope`"), "{stderr}");
}

/// Runs with `--shape` overrides: named symbols through a transformer block, a
/// static binding, an interval kept by a named symbol, and a binding that
/// breaks the model.
#[test]
fn samples_with_shape_overrides() {
    let runs: &[(&str, &str, &[&str])] = &[
        (
            "transformer_named",
            "transformer_block",
            &["--shape", "x=B,S,32"],
        ),
        (
            "transformer_bad_hidden",
            "transformer_block",
            &["--shape", "x=B,S,31"],
        ),
        (
            "reshape_static",
            "dynamic_batch_reshape",
            &["--shape", "x=2,3,8,5"],
        ),
        ("interval_named", "interval_dims", &["--shape", "x=N,3,D,5"]),
        (
            "compress_named",
            "compress_axis",
            &["--shape", "x=R,4", "--shape", "keep=L"],
        ),
    ];
    for (snapshot, sample, args) in runs {
        let (status, stdout, stderr) = run(&format!("ir-samples/{sample}.xml"), args);
        insta::assert_snapshot!(
            format!("override__{snapshot}"),
            format!(
                "args: {}\nexit status: {status}\n--- stdout\n{stdout}--- stderr\n{stderr}",
                args.join(" ")
            )
        );
    }
}

/// A model the runtime runs beyond the specification (Select's cond widening
/// then/else, as OpenVINO's ONNX frontend writes `Where`) is valid with a
/// warning, and invalid under `--strict-spec`.
#[test]
fn strict_spec_turns_runtime_leniencies_into_errors() {
    let model = "crates/shape-infer/tests/golden/select_numpy_cond_both_ways.xml";
    let (status, stdout, stderr) = run(model, &[]);
    assert_eq!(status, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains("warning[select-cond-broadcast]") && stdout.contains("[2, 1, 2, 3]"),
        "{stdout}{stderr}"
    );
    let (status, stdout, stderr) = run(model, &["--strict-spec"]);
    assert_eq!(status, 1, "{stdout}{stderr}");
    assert!(
        stderr.contains("error[select-cond-broadcast]") && stderr.contains("--strict-spec"),
        "{stderr}"
    );
}

/// Every dim expression a report prints parses back, with the parser
/// `--shape` uses, to the same expression (the README's promise), over every
/// sample and golden graph. Tool-invented symbols (`?3`) parse in the table
/// that printed them.
#[test]
fn every_printed_dim_parses_back() {
    let mut models = samples("ir-samples");
    models.extend(samples("crates/shape-infer/tests/golden"));
    let mut parsed = 0;
    for path in models {
        let Ok(read) = ir_xml::read_model(&path, None) else {
            continue;
        };
        let options = shape_infer::Options {
            allow_unknown_ops: true,
            ..shape_infer::Options::default()
        };
        let inference =
            shape_infer::infer(&read.graph, &shape_infer::Registry::standard(), &options);
        let mut table = inference.symbols.clone();
        for outcome in &inference.outcomes {
            for tensor in outcome.outputs() {
                for dim in tensor.shape.dims().into_iter().flatten() {
                    if dim.is_constant() {
                        continue;
                    }
                    let text = inference.symbols.display(dim).to_string();
                    let back = table
                        .parse_expr(&text)
                        .unwrap_or_else(|e| panic!("{}: `{text}`: {e}", path.display()));
                    assert_eq!(&back, dim, "{}: `{text}`", path.display());
                    parsed += 1;
                }
            }
        }
    }
    assert!(parsed > 100, "only {parsed} symbolic dims were printed");
}

#[test]
fn timings_are_one_line_after_the_report() {
    let (status, stdout, stderr) = run("ir-samples/add_relu_static.xml", &["--timings"]);
    let (plain_status, plain_stdout, plain_stderr) = run("ir-samples/add_relu_static.xml", &[]);
    assert_eq!((status, &stdout), (plain_status, &plain_stdout));
    let line = stderr
        .strip_prefix(plain_stderr.as_str())
        .expect("the diagnostics first");
    let fields: Vec<(&str, f64)> = line
        .strip_prefix("timings_ms: ")
        .and_then(|l| l.strip_suffix('\n'))
        .expect("one timings line")
        .split(' ')
        .map(|field| {
            let (name, value) = field.split_once('=').expect("name=value");
            (name, value.parse().expect("milliseconds"))
        })
        .collect();
    let names: Vec<&str> = fields.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["read", "validate", "infer", "report", "total"]);
    let steps: f64 = fields[..4].iter().map(|(_, v)| v).sum();
    assert!(fields.iter().all(|(_, v)| *v >= 0.0), "{line}");
    assert!(
        steps <= fields[4].1 + 1e-3,
        "the steps exceed the total: {line}"
    );
}
