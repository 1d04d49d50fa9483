//! The JSON report written by hand (`Report::write_json`) against serde_json's
//! own pretty output of the same report (`Report` is `Serialize`): the same
//! bytes on every model under `ir-samples/`, with and without
//! `--allow-unknown-ops`, and with names that need escaping (issue 18).

use std::path::{Path, PathBuf};

use ir_check::report::Report;
use ovir::{CheckOptions, Model};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.xml` under `ir-samples/` (samples, bodies, broken, models…), sorted.
fn every_sample() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("readable directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "xml") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&workspace_root().join("ir-samples"), &mut files);
    files.sort();
    files
}

/// The model at `path` as read (`None` when it cannot be read at all, as
/// some broken samples cannot).
fn read(path: &Path) -> Option<ir_xml::ReadOutcome> {
    ir_xml::read_model(path, None).ok()
}

/// Checks `model` and compares the two ways of writing its JSON report;
/// returns how many diagnostics the report lists.
fn assert_same_json(what: &str, model: &Model, options: &CheckOptions) -> usize {
    let check = model.check(options);
    let report = Report::new(
        check.model().graph(),
        check.inference(),
        check.diagnostics(),
    );
    let mut by_hand = Vec::new();
    report.write_json(&mut by_hand).expect("writes into memory");
    let by_serde = serde_json::to_string_pretty(&report).expect("serializes") + "\n";
    let by_hand = String::from_utf8(by_hand).expect("UTF-8");
    if by_hand != by_serde {
        let line = by_hand
            .lines()
            .zip(by_serde.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "{what}: the reports differ from line {}:\n{}\nserde_json:\n{}",
            line + 1,
            by_hand
                .lines()
                .skip(line)
                .take(5)
                .collect::<Vec<_>>()
                .join("\n"),
            by_serde
                .lines()
                .skip(line)
                .take(5)
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    // The chunked writer also gives the same bytes as writing into memory.
    assert_eq!(report.to_json(), by_hand, "{what}");
    check.diagnostics().len()
}

#[test]
fn every_sample_is_written_as_serde_json_writes_it() {
    let mut compared = 0;
    let mut diagnostics = 0;
    for path in every_sample() {
        let Some(outcome) = read(&path) else { continue };
        let model = Model::from_read(String::new(), outcome);
        for allow_unknown_ops in [false, true] {
            let options = CheckOptions {
                allow_unknown_ops,
                ..CheckOptions::default()
            };
            let what = format!("{} (allow_unknown_ops {allow_unknown_ops})", path.display());
            diagnostics += assert_same_json(&what, &model, &options);
            compared += 1;
        }
    }
    assert!(compared > 150, "only {compared} reports compared");
    assert!(diagnostics > 50, "only {diagnostics} diagnostics compared");
}

/// Names that JSON must escape, or that are not ASCII.
const AWKWARD: [&str; 6] = [
    "a \"quoted\" layer",
    "back\\slash\\",
    "line\nbreak\ttab\rcarriage",
    "control \u{1}\u{8}\u{c}\u{1f} and delete \u{7f}",
    "non-ASCII é ∑ 🦀",
    "",
];

/// Renames every layer (bodies included) after [`AWKWARD`], id and name.
fn rename(graph: &mut ir::Graph, counter: &mut usize) {
    graph.name = AWKWARD[*counter % AWKWARD.len()].to_owned();
    for node in graph.graph.node_weights_mut() {
        *counter += 1;
        node.name = format!("{}{}", AWKWARD[*counter % AWKWARD.len()], counter);
        node.id = format!("{}#{}", AWKWARD[(*counter + 1) % AWKWARD.len()], counter);
        if let ir::Op::SubGraph(sub) = &mut node.op {
            for body in &mut sub.bodies {
                rename(&mut body.graph, counter);
            }
        }
    }
}

#[test]
fn names_that_need_escaping_are_written_as_serde_json_writes_them() {
    let mut compared = 0;
    for path in every_sample() {
        let Some(mut outcome) = read(&path) else {
            continue;
        };
        let mut counter = 0;
        rename(&mut outcome.graph, &mut counter);
        let model = Model::from_read(String::new(), outcome);
        for allow_unknown_ops in [false, true] {
            let options = CheckOptions {
                allow_unknown_ops,
                ..CheckOptions::default()
            };
            let what = format!(
                "renamed {} (allow_unknown_ops {allow_unknown_ops})",
                path.display()
            );
            assert_same_json(&what, &model, &options);
            compared += 1;
        }
    }
    assert!(compared > 150, "only {compared} reports compared");
}

#[test]
fn a_large_report_is_written_in_chunks_as_serde_json_writes_it() {
    // A chain long enough for several 64 KiB chunks, written to a writer
    // that takes a few bytes at a time.
    struct Trickle(Vec<u8>);
    impl std::io::Write for Trickle {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let taken = bytes.len().min(7);
            self.0.extend_from_slice(&bytes[..taken]);
            Ok(taken)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let path = workspace_root().join("ir-samples/models/swin_narrow.xml");
    let model = Model::open(&path).expect("swin_narrow reads");
    let check = model.check(&CheckOptions::default());
    let report = Report::new(
        check.model().graph(),
        check.inference(),
        check.diagnostics(),
    );
    let mut trickle = Trickle(Vec::new());
    report.write_json(&mut trickle).expect("writes");
    let by_serde = serde_json::to_string_pretty(&report).expect("serializes") + "\n";
    assert!(by_serde.len() > 3 * 65536, "{} bytes", by_serde.len());
    assert_eq!(String::from_utf8(trickle.0).expect("UTF-8"), by_serde);
}
