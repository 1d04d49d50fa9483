//! The machine-readable formats against their published schemas: the JSON
//! report of every model under `ir-samples/` against `docs/report.schema.json`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.xml` under `ir-samples/` (samples, bodies, broken, models…), as
/// paths relative to the workspace root, sorted.
fn every_sample() -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("readable directory entry").path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "xml") {
                let relative = path.strip_prefix(root).expect("under the root");
                out.push(relative.to_str().expect("utf-8 path").to_owned());
            }
        }
    }
    let root = workspace_root();
    let mut files = Vec::new();
    walk(&root.join("ir-samples"), &root, &mut files);
    files.sort();
    files
}

/// Runs the binary from the workspace root; returns (exit status, stdout).
fn run(relative: &str, extra: &[&str]) -> (i32, String) {
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
    (status, String::from_utf8_lossy(&output.stdout).into_owned())
}

fn load_schema(relative: &str) -> jsonschema::Validator {
    let path = workspace_root().join(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{relative}: {e}"));
    let schema: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{relative}: {e}"));
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{relative} is no schema: {e}"))
}

/// The schema's complaints about `instance`, one per line (empty if valid).
fn violations(schema: &jsonschema::Validator, instance: &Value) -> String {
    schema
        .iter_errors(instance)
        .map(|e| format!("  at {}: {e}\n", e.instance_path()))
        .collect()
}

/// Every report `--format json` prints for the samples, with and without
/// `--allow-unknown-ops`, follows `docs/report.schema.json`.
#[test]
fn every_json_report_follows_the_schema() {
    let schema = load_schema("docs/report.schema.json");
    let mut checked = 0;
    let mut failures = String::new();
    for sample in every_sample() {
        for extra in [&[][..], &["--allow-unknown-ops"][..]] {
            let mut args = vec!["--format", "json"];
            args.extend_from_slice(extra);
            let (status, stdout) = run(&sample, &args);
            if status == 2 {
                // Unreadable input: nothing on stdout, the error on stderr.
                assert!(stdout.is_empty(), "{sample}: a report after a usage error");
                continue;
            }
            let report: Value = serde_json::from_str(&stdout)
                .unwrap_or_else(|e| panic!("{sample} {args:?}: not JSON: {e}"));
            let found = violations(&schema, &report);
            if !found.is_empty() {
                failures.push_str(&format!("{sample} {args:?}:\n{found}"));
            }
            assert_eq!(report["schema_version"], ir_check::report::SCHEMA_VERSION);
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "reports outside the schema:\n{failures}"
    );
    assert!(checked >= 120, "only {checked} reports were checked");
}

/// A change made to a valid report.
type Mutation = fn(&mut Value);

/// The schema is strict: it rejects a report with a field it does not
/// describe, a missing field, a wrong severity and a future schema version.
#[test]
fn the_report_schema_rejects_what_it_does_not_describe() {
    let schema = load_schema("docs/report.schema.json");
    let (status, stdout) = run(
        "ir-samples/broken/declared_shape_mismatch.xml",
        &["--format", "json"],
    );
    assert_eq!(status, 1);
    let report: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(violations(&schema, &report), "");
    let mutations: [(&str, Mutation); 5] = [
        ("extra field", |r| r["nodes"][0]["color"] = "red".into()),
        ("missing field", |r| {
            r.as_object_mut().expect("object").remove("valid");
        }),
        ("severity", |r| {
            r["diagnostics"][0]["severity"] = "fatal".into()
        }),
        ("version", |r| r["schema_version"] = "2.0".into()),
        ("element type", |r| {
            r["nodes"][0]["outputs"][0]["element_type"] = "float".into()
        }),
    ];
    for (what, mutate) in mutations {
        let mut changed = report.clone();
        mutate(&mut changed);
        assert!(
            !violations(&schema, &changed).is_empty(),
            "the schema accepts a report with a wrong {what}"
        );
    }
}

/// The schema's element types are exactly the ones the IR knows.
#[test]
fn the_report_schema_lists_every_element_type() {
    let path = workspace_root().join("docs/report.schema.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("schema")).expect("JSON");
    let listed: Vec<&str> = schema["$defs"]["element_type"]["enum"]
        .as_array()
        .expect("an enum")
        .iter()
        .map(|v| v.as_str().expect("a name"))
        .collect();
    let known: Vec<&str> = ir::ElementType::all().map(ir::ElementType::name).collect();
    assert_eq!(listed, known);
}

/// `--run` adds the arrays it wrote to the JSON report, also described by
/// the schema.
#[test]
fn a_json_report_with_a_run_follows_the_schema() {
    let schema = load_schema("docs/report.schema.json");
    let dir = std::env::temp_dir().join(format!("ir-check-formats-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let input = dir.join("x.npy");
    let x = executor::Tensor::from_vec(vec![1, 3, 4, 4], vec![0.5f32; 48]).expect("a tensor");
    executor::write_npy(&input, &x).expect("writes");
    let (status, stdout) = run(
        "ir-samples/add_relu_static.xml",
        &[
            "--format",
            "json",
            "--run",
            "--input",
            &format!("input={}", input.display()),
            "--output-dir",
            &dir.join("out").display().to_string(),
        ],
    );
    assert_eq!(status, 0, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).expect("JSON");
    assert!(report["run"]["outputs"].is_array(), "{stdout}");
    assert_eq!(violations(&schema, &report), "");
    let _ = std::fs::remove_dir_all(&dir);
}
