//! The machine-readable formats against their published schemas: the JSON
//! report of every model under `ir-samples/` against `docs/report.schema.json`,
//! its SARIF log against SARIF 2.1.0's schema (`docs/sarif-schema-2.1.0.json`).

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

/// The `language` pattern of SARIF 2.1.0's schema ends in a stray `]`, a
/// literal in the ECMA-262 regexes JSON Schema specifies but an error for
/// Rust's regex engines.
const SARIF_LANGUAGE_PATTERN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";

fn load_schema(relative: &str) -> jsonschema::Validator {
    let path = workspace_root().join(relative);
    let mut text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{relative}: {e}"));
    if relative.contains("sarif") {
        // The same pattern with the bracket escaped, as ECMA-262 reads it.
        // (ir-check writes no `language`, so this cannot hide a failure.)
        assert!(text.contains(SARIF_LANGUAGE_PATTERN), "the schema changed");
        text = text.replace(
            SARIF_LANGUAGE_PATTERN,
            r"^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$",
        );
    }
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

/// Every SARIF log follows SARIF 2.1.0's schema and says what the JSON
/// report says: one result per diagnostic, with its rule (described in
/// `tool.driver.rules`), level, line and column, in the file as given.
#[test]
fn every_sarif_log_follows_the_sarif_schema_and_the_report() {
    let schema = load_schema("docs/sarif-schema-2.1.0.json");
    let mut checked = 0;
    let mut results = 0;
    let mut failures = String::new();
    for sample in every_sample() {
        for extra in [&[][..], &["--allow-unknown-ops"][..]] {
            let mut args = vec!["--format", "sarif"];
            args.extend_from_slice(extra);
            let (status, stdout) = run(&sample, &args);
            let mut json_args = vec!["--format", "json"];
            json_args.extend_from_slice(extra);
            let (json_status, json) = run(&sample, &json_args);
            assert_eq!(status, json_status, "{sample} {args:?}: the exit status");
            if status == 2 {
                continue;
            }
            let log: Value = serde_json::from_str(&stdout)
                .unwrap_or_else(|e| panic!("{sample} {args:?}: not JSON: {e}"));
            let found = violations(&schema, &log);
            if !found.is_empty() {
                failures.push_str(&format!("{sample} {args:?}:\n{found}"));
            }
            let report: Value = serde_json::from_str(&json).expect("JSON");
            results += agrees_with_report(&sample, &log, &report);
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "logs outside the SARIF schema:\n{failures}"
    );
    assert!(checked >= 120, "only {checked} logs were checked");
    assert!(results >= 80, "only {results} results were compared");
}

/// Checks the SARIF `log` of `sample` against its JSON `report`; returns
/// the number of results.
fn agrees_with_report(sample: &str, log: &Value, report: &Value) -> usize {
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "ir-check");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules: Vec<&str> = driver["rules"]
        .as_array()
        .map(|rules| {
            rules
                .iter()
                .map(|r| r["id"].as_str().expect("an id"))
                .collect()
        })
        .unwrap_or_default();
    for rule in driver["rules"].as_array().into_iter().flatten() {
        for field in ["shortDescription", "fullDescription", "help"] {
            let text = rule[field]["text"].as_str().unwrap_or_default();
            assert!(
                !text.is_empty(),
                "{sample}: rule {} has no {field}",
                rule["id"]
            );
        }
    }
    let results = run["results"].as_array().expect("results");
    let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(
        results.len(),
        diagnostics.len(),
        "{sample}: one result per diagnostic"
    );
    let mut used: Vec<&str> = Vec::new();
    for (result, diagnostic) in results.iter().zip(diagnostics) {
        let rule = result["ruleId"].as_str().expect("a rule id");
        assert_eq!(rule, diagnostic["rule"], "{sample}");
        assert_eq!(result["level"], diagnostic["severity"], "{sample}");
        let index = result["ruleIndex"].as_u64().expect("a rule index") as usize;
        assert_eq!(rules.get(index), Some(&rule), "{sample}: ruleIndex");
        let message = result["message"]["text"].as_str().expect("a message");
        let said = diagnostic["message"].as_str().expect("a message");
        assert!(message.contains(said), "{sample}: {message} lacks {said}");
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], sample);
        let region = &location["region"];
        match diagnostic["line"].as_u64() {
            Some(line) => {
                assert_eq!(region["startLine"].as_u64(), Some(line), "{sample}");
                assert_eq!(region["startColumn"], diagnostic["column"], "{sample}");
            }
            None => assert!(region.is_null(), "{sample}: a region without a line"),
        }
        used.push(rule);
    }
    used.sort_unstable();
    used.dedup();
    assert_eq!(used, rules, "{sample}: the rules are those the run reports");
    results.len()
}

/// The SARIF schema is enforced: a log with a level SARIF does not know,
/// or without its version, fails.
#[test]
fn the_sarif_schema_rejects_a_wrong_log() {
    let schema = load_schema("docs/sarif-schema-2.1.0.json");
    let (status, stdout) = run(
        "ir-samples/broken/declared_shape_mismatch.xml",
        &["--format", "sarif"],
    );
    assert_eq!(status, 1);
    let log: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(violations(&schema, &log), "");
    let mut wrong_level = log.clone();
    wrong_level["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!violations(&schema, &wrong_level).is_empty());
    let mut no_version = log;
    no_version
        .as_object_mut()
        .expect("object")
        .remove("version");
    assert!(!violations(&schema, &no_version).is_empty());
}
