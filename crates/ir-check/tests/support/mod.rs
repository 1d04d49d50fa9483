//! What the model tests share: the workspace root and a checked JSON report.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The workspace root, where `ir-samples/` is.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The JSON report of `ir-check MODEL --format json --shape NAME=DIMS...`
/// (`shapes` as `NAME=DIMS`), run from the workspace root; the model must
/// be valid.
pub fn valid_report(model: &str, shapes: &[String]) -> Value {
    let mut args = vec![model.to_owned(), "--format".into(), "json".into()];
    for shape in shapes {
        args.extend(["--shape".into(), shape.clone()]);
    }
    let output = Command::new(env!("CARGO_BIN_EXE_ir-check"))
        .current_dir(workspace_root())
        .args(&args)
        .output()
        .expect("ir-check runs");
    let report: Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    assert_eq!(report["valid"], true, "{model}: {}", report["diagnostics"]);
    report
}
