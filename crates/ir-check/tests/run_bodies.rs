//! `ir-check --run` on the models with bodies of `ir-samples/bodies/` (If,
//! Loop, TensorIterator, nested), through the binary as a user runs it, on
//! the inputs of their conformance cases
//! (`crates/executor/tests/conformance/bodies_*/`, by
//! `scripts/gen_exec_goldens.py`): every output it writes must equal
//! OpenVINO's CPU plugin's (within 1e-5 relative for floats, exact
//! otherwise), and every sample must be run by at least one case.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use executor::{first_difference, read_npy};
use serde_json::Value;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
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
        let out_dir =
            std::env::temp_dir().join(format!("ir-check-bodies-{case}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out_dir);
        let mut args = vec![
            model.clone(),
            "--run".to_owned(),
            "--output-dir".to_owned(),
            out_dir.display().to_string(),
        ];
        for (file, name) in meta["inputs"].as_object().into_iter().flatten() {
            let name = name.as_str().expect("an input name");
            args.push("--input".to_owned());
            args.push(format!("{name}={}", dir.join(file).display()));
        }
        let output = Command::new(env!("CARGO_BIN_EXE_ir-check"))
            .current_dir(&root)
            .args(&args)
            .output()
            .expect("ir-check runs");
        if !output.status.success() {
            failures.push(format!(
                "{case}: ir-check {} exited {:?}\n{}",
                args.join(" "),
                output.status.code(),
                String::from_utf8_lossy(&output.stderr)
            ));
            continue;
        }
        for (expected_file, result) in outputs {
            let result = result
                .as_str()
                .or_else(|| result["result"].as_str())
                .expect("a Result name");
            let expected = read_npy(&dir.join(expected_file)).expect("the expected .npy");
            let difference = match read_npy(&out_dir.join(file_name(result))) {
                Ok(ours) => first_difference(&ours, &expected, 1e-5),
                Err(e) => Some(format!("not written: {e}")),
            };
            match difference {
                Some(d) => failures.push(format!("{case}: {result}: {d}")),
                None => compared_outputs += 1,
            }
        }
        let _ = std::fs::remove_dir_all(&out_dir);
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
