//! `ir-check --format text` is fit for snapshot tests (issue 19, item 5): on
//! every sample, two runs print the same bytes, with no absolute path and
//! no timing in them.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Everything `ir-check ARGS` prints, stdout then stderr, run from the
/// workspace root.
fn printed(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_ir-check"))
        .current_dir(workspace_root())
        .args(args)
        .output()
        .expect("ir-check runs");
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    text
}

/// Whether `text` shows a duration: a digit followed by `ms`, `µs`, `ns` or
/// `s` (alone or before a space or punctuation), or a `timings`/`latency` line.
fn shows_a_duration(text: &str) -> bool {
    if text.contains("timings_ms") || text.contains("latency_ms") {
        return true;
    }
    let chars: Vec<char> = text.chars().collect();
    chars.windows(4).any(|w| {
        let unit_end = |c: char| !c.is_alphanumeric();
        w[0].is_ascii_digit()
            && ((matches!(w[1], 'm' | 'µ' | 'n') && w[2] == 's' && unit_end(w[3]))
                || (w[1] == 's' && unit_end(w[2])))
    })
}

#[test]
fn text_reports_are_the_same_bytes_without_paths_or_timings() {
    let root = workspace_root()
        .canonicalize()
        .expect("the workspace root exists");
    let root = root.display().to_string();
    let mut checked = 0;
    for dir in ["ir-samples", "ir-samples/bodies", "ir-samples/broken"] {
        let mut models: Vec<PathBuf> = std::fs::read_dir(workspace_root().join(dir))
            .expect("a samples directory")
            .map(|entry| entry.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "xml"))
            .collect();
        models.sort();
        for model in models {
            let name = model.file_name().and_then(|n| n.to_str()).expect("utf-8");
            let relative = format!("{dir}/{name}");
            let args = [relative.as_str(), "--format", "text"];
            let first = printed(&args);
            assert_eq!(first, printed(&args), "{relative}: two runs differ");
            assert!(
                !first.contains(&root),
                "{relative}: an absolute path:\n{first}"
            );
            assert!(!shows_a_duration(&first), "{relative}: a timing:\n{first}");
            checked += 1;
        }
    }
    assert!(checked > 60, "only {checked} samples");
}

#[test]
fn durations_are_recognized() {
    assert!(shows_a_duration("read took 12ms."));
    assert!(shows_a_duration("took 3 s, 4s total"));
    assert!(shows_a_duration("timings_ms: read=1"));
    assert!(!shows_a_duration(
        "f32 [N, 3*S, 15*D] 2 errors (op-unknown: 2)"
    ));
    assert!(!shows_a_duration(
        "layer 4 `/encoder/block.2/norm` 1 errors"
    ));
    // What the test above would catch: --timings, and a path given absolute.
    assert!(shows_a_duration(&printed(&[
        "ir-samples/add_relu_static.xml",
        "--timings"
    ])));
    let absolute = workspace_root()
        .canonicalize()
        .expect("the workspace root exists")
        .join("ir-samples/broken/bad_dims.xml");
    let text = printed(&[absolute.to_str().expect("utf-8")]);
    assert!(text.contains(&absolute.display().to_string()), "{text}");
}
