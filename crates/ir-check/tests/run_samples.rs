//! `ir-check --run` on every sample of `ir-samples/`, through the binary as a
//! user runs it, with the seeded inputs saved beside the sample's
//! conformance case (`crates/executor/tests/conformance/sample_<name>/`, by
//! `scripts/gen_exec_goldens.py`): every `.npy` it writes must match the
//! expected output saved there (OpenVINO's CPU plugin's, or numpy's for
//! the project's own ops; within 1e-5 relative for floats, exact
//! otherwise). The same for the models with bodies of `ir-samples/bodies/`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use executor::{first_difference, read_npy};
use serde_json::Value;

/// `(sample, output file)` where we knowingly differ from the expected
/// output; the reason is in `KNOWN_DIFFERENCES` of
/// `crates/executor/tests/conformance.rs`. (None since `--run` computes f16
/// as OpenVINO's CPU plugin does, `--precision plugin`.)
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

/// Every sample has expected outputs (a sample without prints why): at
/// least this many samples must be compared.
const MIN_COMPARED: usize = 13;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The conformance case of `ir-samples/<stem>.xml`.
fn case_dir(stem: &str) -> PathBuf {
    workspace_root().join(format!("crates/executor/tests/conformance/sample_{stem}"))
}

/// What `ir-check --run` writes for a Result layer name.
fn file_name(result: &str) -> String {
    let safe: String = result
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.npy")
}

/// Runs `ir-check MODEL --run` from the workspace root with the inputs of
/// the conformance case in `dir` (described by its `case.json`, `meta`),
/// writing into a fresh temporary directory named after `label`: that
/// directory (removed with its files when dropped), or why the run failed.
fn run_with_case_inputs(
    model: &str,
    label: &str,
    dir: &Path,
    meta: &Value,
) -> Result<tempfile::TempDir, String> {
    let out_dir = tempfile::Builder::new()
        .prefix(&format!("ir-check-run-{label}-"))
        .tempdir()
        .map_err(|e| format!("no temporary directory: {e}"))?;
    let mut args = vec![
        model.to_owned(),
        "--run".to_owned(),
        "--output-dir".to_owned(),
        out_dir.path().display().to_string(),
    ];
    for (file, name) in meta["inputs"].as_object().into_iter().flatten() {
        let name = name.as_str().expect("an input name");
        args.push("--input".to_owned());
        args.push(format!("{name}={}", dir.join(file).display()));
    }
    let output = Command::new(env!("CARGO_BIN_EXE_ir-check"))
        .current_dir(workspace_root())
        .args(&args)
        .output()
        .expect("ir-check runs");
    if !output.status.success() {
        return Err(format!(
            "ir-check {} exited {:?}\n{}",
            args.join(" "),
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(out_dir)
}

#[test]
fn every_sample_runs_and_matches_its_expected_outputs() {
    let root = workspace_root();
    let mut samples: Vec<String> = std::fs::read_dir(root.join("ir-samples"))
        .expect("ir-samples/")
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "xml").then(|| path.file_stem()?.to_str().map(str::to_owned))?
        })
        .collect();
    samples.sort();
    let mut compared = 0;
    let mut failures = Vec::new();
    let mut known_seen = BTreeSet::new();
    for stem in &samples {
        let dir = case_dir(stem);
        let meta: Value = match std::fs::read_to_string(dir.join("case.json")) {
            Ok(text) => serde_json::from_str(&text).expect("case.json is JSON"),
            Err(_) => {
                failures.push(format!("{stem}: no conformance case at {}", dir.display()));
                continue;
            }
        };
        let Some(outputs) = meta["outputs"].as_object() else {
            println!(
                "{stem}: not compared, no expected outputs ({})",
                meta["openvino_error"]["message"]
            );
            continue;
        };
        let out_dir =
            match run_with_case_inputs(&format!("ir-samples/{stem}.xml"), stem, &dir, &meta) {
                Ok(out_dir) => out_dir,
                Err(e) => {
                    failures.push(format!("{stem}: {e}"));
                    continue;
                }
            };
        for (expected_file, result) in outputs {
            // A Result name, or an object naming it with its reference.
            let result = result
                .as_str()
                .or_else(|| result["result"].as_str())
                .expect("a Result name");
            let written = file_name(result);
            let ours = read_npy(&out_dir.path().join(&written));
            let expected = read_npy(&dir.join(expected_file)).expect("the expected .npy");
            let difference = match ours {
                Ok(ours) => first_difference(&ours, &expected, 1e-5),
                Err(e) => Some(format!("not written: {e}")),
            };
            let known = KNOWN_DIFFERENCES.contains(&(stem.as_str(), written.as_str()));
            match (difference, known) {
                (Some(_), true) => {
                    known_seen.insert((stem.clone(), written));
                }
                (Some(d), false) => failures.push(format!("{stem}: {written}: {d}")),
                (None, true) => failures.push(format!(
                    "{stem}: {written} is listed in KNOWN_DIFFERENCES but matches"
                )),
                (None, false) => {}
            }
        }
        compared += 1;
    }
    for (stem, file) in KNOWN_DIFFERENCES {
        if !known_seen.contains(&(stem.to_string(), file.to_string())) && failures.is_empty() {
            failures.push(format!(
                "{stem}: {file} is listed in KNOWN_DIFFERENCES but was not compared"
            ));
        }
    }
    println!("{compared} of {} samples compared", samples.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        compared >= MIN_COMPARED,
        "only {compared} samples compared, expected at least {MIN_COMPARED}"
    );
}

/// `ir-check --run` on the models with bodies of `ir-samples/bodies/` (If,
/// Loop, TensorIterator, nested), on the inputs of their conformance cases
/// (`crates/executor/tests/conformance/bodies_*/`): every output it writes
/// must equal OpenVINO's CPU plugin's, and every sample must be run by at
/// least one case.
#[test]
fn every_bodies_sample_runs_and_equals_openvino() {
    let root = workspace_root();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root.join("crates/executor/tests/conformance"))
        .expect("the conformance cases")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("bodies_"))
        })
        .collect();
    cases.sort();
    let mut failures = Vec::new();
    let mut run_models = BTreeSet::new();
    let mut compared_outputs = 0;
    for dir in &cases {
        let case = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let meta: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("case.json")).expect("case.json"),
        )
        .expect("case.json is JSON");
        let model = meta["model"].as_str().expect("a model path").to_owned();
        let Some(outputs) = meta["outputs"].as_object() else {
            failures.push(format!("{case}: no expected outputs"));
            continue;
        };
        let out_dir = match run_with_case_inputs(&model, case, dir, &meta) {
            Ok(out_dir) => out_dir,
            Err(e) => {
                failures.push(format!("{case}: {e}"));
                continue;
            }
        };
        for (expected_file, result) in outputs {
            let result = result
                .as_str()
                .or_else(|| result["result"].as_str())
                .expect("a Result name");
            let expected = read_npy(&dir.join(expected_file)).expect("the expected .npy");
            let difference = match read_npy(&out_dir.path().join(file_name(result))) {
                Ok(ours) => first_difference(&ours, &expected, 1e-5),
                Err(e) => Some(format!("not written: {e}")),
            };
            match difference {
                Some(d) => failures.push(format!("{case}: {result}: {d}")),
                None => compared_outputs += 1,
            }
        }
        run_models.insert(model);
    }
    let samples: BTreeSet<String> = std::fs::read_dir(root.join("ir-samples/bodies"))
        .expect("ir-samples/bodies/")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.ends_with(".xml")
                .then(|| format!("ir-samples/bodies/{name}"))
        })
        .collect();
    for missing in samples.difference(&run_models) {
        failures.push(format!("{missing}: no conformance case runs it"));
    }
    println!(
        "{} cases, {compared_outputs} outputs equal to OpenVINO's",
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
