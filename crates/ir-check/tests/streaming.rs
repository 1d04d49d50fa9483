//! The report written as it is produced (`run_streaming`, what the binary
//! does) is byte for byte the report built in memory (`run`), on every
//! sample, bodies and broken ones included, in every format.

use std::path::{Path, PathBuf};

use clap::Parser;
use ir_check::{run, run_streaming, Args};

fn samples(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("readable directory entry").path();
        if path.is_dir() {
            samples(&path, out);
        } else if path.extension().is_some_and(|e| e == "xml") {
            out.push(path);
        }
    }
}

#[test]
fn streamed_reports_equal_the_reports_built_in_memory() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ir-samples");
    let mut files = Vec::new();
    samples(&root, &mut files);
    files.sort();
    assert!(files.len() > 50, "only {} samples", files.len());
    for file in &files {
        let model = file.to_str().expect("UTF-8 path");
        for extra in [
            &["--format", "json"][..],
            &["--format", "text"],
            &["--format", "text", "-q"],
            &["--format", "sarif"],
            &["--format", "dot"],
        ] {
            let args = Args::parse_from(
                ["ir-check", model, "--allow-unknown-ops"]
                    .iter()
                    .chain(extra)
                    .copied(),
            );
            let whole = run(&args);
            let mut streamed = Vec::new();
            let rest = run_streaming(&args, &mut streamed);
            streamed.extend_from_slice(rest.stdout.as_bytes());
            let streamed = String::from_utf8(streamed).expect("a UTF-8 report");
            assert_eq!(streamed, whole.stdout, "{model} {extra:?}: stdout");
            assert_eq!(rest.stderr, whole.stderr, "{model} {extra:?}: stderr");
            assert_eq!(rest.status, whole.status, "{model} {extra:?}: status");
        }
    }
}
