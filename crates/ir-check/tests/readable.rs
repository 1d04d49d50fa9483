//! Reports people can read on a real model (issue 19, item 7): repeated
//! diagnostics of one rule are grouped, the verdict comes last and counts
//! errors per rule, `-q` prints only the diagnostics and the verdict, and
//! `--format json` keeps every diagnostic.

use std::path::{Path, PathBuf};
use std::process::Command;

const REPEATED: &str = "ir-samples/broken/unknown_op_repeated.xml";

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `ir-check ARGS` from the workspace root: (exit status, stdout, stderr).
fn ir_check(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_ir-check"))
        .current_dir(workspace_root())
        .args(args)
        .output()
        .expect("ir-check runs");
    (
        output.status.code().expect("exited"),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn transcript(args: &[&str]) -> String {
    let (status, stdout, stderr) = ir_check(args);
    format!(
        "args: {}\nexit status: {status}\n--- stdout\n{stdout}--- stderr\n{stderr}",
        args.join(" ")
    )
}

#[test]
fn repeated_unknown_ops_are_grouped_and_counted() {
    insta::assert_snapshot!("repeated_text", transcript(&[REPEATED]));
    let (status, _, stderr) = ir_check(&[REPEATED]);
    assert_eq!(status, 1);
    // Three in full, the 21 others on one line, the Add's error after them.
    assert_eq!(stderr.matches("error[op-unknown]: layer").count(), 3);
    assert!(
        stderr.contains("… and 21 more error[op-unknown]: lines 41, 49,"),
        "{stderr}"
    );
    let last = stderr.lines().last().expect("a verdict");
    assert!(
        last.starts_with("INVALID: ")
            && last.contains("25 errors (op-unknown: 24, broadcast-incompatible: 1)"),
        "{last}"
    );
}

#[test]
fn quiet_prints_only_the_diagnostics_and_the_verdict() {
    insta::assert_snapshot!("repeated_quiet", transcript(&[REPEATED, "-q"]));
    let (status, stdout, quiet) = ir_check(&[REPEATED, "--quiet"]);
    let (full_status, _, full) = ir_check(&[REPEATED]);
    assert_eq!((status, stdout.as_str()), (full_status, ""));
    assert_eq!(quiet, full, "quiet changes only stdout");
    // A valid model: the verdict alone.
    let (status, stdout, stderr) = ir_check(&["ir-samples/add_relu_static.xml", "-q"]);
    assert_eq!((status, stdout.as_str()), (0, ""));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("valid: "), "{stderr}");
}

#[test]
fn json_keeps_every_diagnostic() {
    let (status, json, _) = ir_check(&[REPEATED, "--format", "json", "-q"]);
    assert_eq!(status, 1);
    let report: serde_json::Value = serde_json::from_str(&json).expect("one JSON object");
    let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
    let unknown = diagnostics
        .iter()
        .filter(|d| d["rule"] == "op-unknown")
        .count();
    assert_eq!((unknown, diagnostics.len()), (24, 25));
    assert_eq!(report["nodes"].as_array().map(Vec::len), Some(28));
}

/// A model valid for every size that fails for the sizes given to `--run`:
/// that run's diagnostics, then its own verdict, last.
#[test]
fn a_run_that_fails_on_its_inputs_ends_with_a_verdict() {
    let scratch = tempfile::Builder::new()
        .prefix("ir-check-readable-")
        .tempdir()
        .expect("temp dir");
    let dir = scratch.path();
    let dynamic = "<port id=\"0\" precision=\"FP32\"><dim>-1</dim></port>";
    let parameter = |id: usize, name: &str| {
        format!(
            "<layer id=\"{id}\" name=\"{name}\" type=\"Parameter\" version=\"opset1\">\
             <data shape=\"?\" element_type=\"f32\"/><output>{dynamic}</output></layer>\n"
        )
    };
    let xml = format!(
        "<?xml version=\"1.0\"?>\n<net name=\"dyn_add\" version=\"11\"><layers>\n{}{}\
         <layer id=\"2\" name=\"sum\" type=\"Add\" version=\"opset1\"><input>{dynamic}\
         <port id=\"1\"><dim>-1</dim></port></input>\
         <output><port id=\"2\" precision=\"FP32\"><dim>-1</dim></port></output></layer>\n\
         <layer id=\"3\" name=\"out\" type=\"Result\" version=\"opset1\"><input>{dynamic}</input></layer>\n\
         </layers><edges>\
         <edge from-layer=\"0\" from-port=\"0\" to-layer=\"2\" to-port=\"0\"/>\
         <edge from-layer=\"1\" from-port=\"0\" to-layer=\"2\" to-port=\"1\"/>\
         <edge from-layer=\"2\" from-port=\"2\" to-layer=\"3\" to-port=\"0\"/>\
         </edges></net>\n",
        parameter(0, "x"),
        parameter(1, "y"),
    );
    let model = dir.join("dyn_add.xml");
    std::fs::write(&model, xml).expect("written");
    let mut args = vec![model.display().to_string(), "--run".to_owned()];
    for (name, length) in [("x", 3), ("y", 5)] {
        let path = dir.join(format!("{name}.npy"));
        let tensor =
            executor::Tensor::from_vec(vec![length], vec![1.0f32; length]).expect("a tensor");
        executor::write_npy(&path, &tensor).expect("written");
        args.extend(["--input".to_owned(), format!("{name}={}", path.display())]);
    }
    args.extend([
        "--output-dir".to_owned(),
        dir.join("out").display().to_string(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (status, _, stderr) = ir_check(&args);
    assert_eq!(status, 1, "{stderr}");
    assert!(stderr.contains("error[broadcast-incompatible]"), "{stderr}");
    assert!(
        stderr.ends_with(
            "\nINVALID when run with these inputs: 1 errors (broadcast-incompatible: 1), 0 warnings\n"
        ),
        "{stderr}"
    );
}
