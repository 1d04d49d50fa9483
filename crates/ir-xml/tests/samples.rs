//! Round trips over every sample in `ir-samples/` (top level), and the
//! expected diagnostics of the deliberately broken ones in `ir-samples/broken/`.
//!
//! The round-tripped samples are written to `$CARGO_TARGET_TMPDIR/roundtrip`
//! (or `$IR_XML_ROUNDTRIP_DIR`) so that they can be checked with OpenVINO:
//! `python3 scripts/verify_roundtrip.py --all ir-samples <that dir>`.

mod common;

use std::path::{Path, PathBuf};

use ir_xml::{read_model, save_model, ReadError};

fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ir-samples")
}

fn xml_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "xml"))
        .collect();
    files.sort();
    files
}

fn out_dir() -> PathBuf {
    std::env::var_os("IR_XML_ROUNDTRIP_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("roundtrip"))
}

#[test]
fn every_sample_round_trips() {
    let files = xml_files(&samples_dir());
    let out = out_dir();
    std::fs::create_dir_all(&out).expect("create the output dir");
    eprintln!(
        "{} samples; round trips written to {}",
        files.len(),
        out.display()
    );
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let result = std::panic::catch_unwind(|| {
            let outcome = read_model(path, None).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                outcome.diagnostics.is_empty(),
                "diagnostics: {:#?}",
                outcome.diagnostics
            );
            assert!(outcome.graph.node_count() > 0);
            common::round_trip(&outcome.graph);
            let stem = path.file_stem().unwrap_or_default();
            let xml = out.join(stem).with_extension("xml");
            let bin = out.join(stem).with_extension("bin");
            save_model(&outcome.graph, &xml, &bin).unwrap_or_else(|e| panic!("{e}"));

            // The same with every Parameter symbol named: the names survive.
            let mut named = outcome.graph.clone();
            let params: Vec<_> = named.parameters().map(|(_, n)| n.op.clone()).collect();
            for (p, op) in params.iter().enumerate() {
                if let ir::Op::Parameter { shape, .. } = op {
                    let ir::Shape::Ranked(dims) = shape.as_ref() else {
                        continue;
                    };
                    for (d, dim) in dims.iter().enumerate() {
                        if let Some(s) = dim.as_symbol() {
                            named.symbols.set_name(s, &format!("P{p}_{d}"));
                        }
                    }
                }
            }
            common::round_trip(&named);
            let named_dir = out.with_file_name("roundtrip-named");
            std::fs::create_dir_all(&named_dir).expect("create the output dir");
            let xml = named_dir.join(stem).with_extension("xml");
            let bin = named_dir.join(stem).with_extension("bin");
            save_model(&named, &xml, &bin).unwrap_or_else(|e| panic!("{e}"));
        });
        match result {
            Ok(()) => eprintln!("round trip ok: {name}"),
            Err(_) => failures.push(name),
        }
    }
    assert!(failures.is_empty(), "samples that failed: {failures:?}");
}

/// The reader's rules each broken sample must trigger (`None`: the XML itself
/// must be rejected). Files not listed are problems for later stages (cycles,
/// unconnected inputs, unknown ops…): they must read without a reader error.
fn expected_rules(stem: &str) -> Option<&'static [&'static str]> {
    Some(match stem {
        "malformed" | "empty_document" | "two_roots" | "bad_entity" => return None,
        "net_version_unsupported" => &["net-version-unsupported"],
        "layer_missing_type" => &["layer-attribute-missing"],
        "edge_attribute_invalid" => &["edge-attribute-invalid"],
        "edge_from_input_port" => &["edge-dangling-port"],
        "port_id_duplicate" => &["port-id-invalid"],
        "port_dim_negative" | "parameter_huge_dim" => &["port-dim-invalid"],
        "parameter_interval_reversed" => &["parameter-shape-invalid"],
        "parameter_element_type_missing" => &["parameter-element-type-invalid"],
        "const_no_weights" => &["const-no-weights"],
        "const_offset_invalid" | "const_shape_negative" => &["const-attribute-invalid"],
        "const_element_type_unknown" => &["element-type-unknown"],
        "dangling_edge" => &["edge-dangling-layer"],
        "dangling_port" => &["edge-dangling-port"],
        "duplicate_layer_id" => &["layer-id-duplicate"],
        "truncated_bin" => &["const-out-of-bounds"],
        "const_size_mismatch" => &["const-size-mismatch"],
        "bad_dims" => &["parameter-shape-invalid", "port-dim-invalid"],
        "huge_const" => &["const-size-mismatch", "const-out-of-bounds"],
        "bad_element_type" => &["element-type-unknown", "port-precision-unknown"],
        _ => &[],
    })
}

#[test]
fn broken_samples_give_their_diagnostics() {
    let files = xml_files(&samples_dir().join("broken"));
    eprintln!("{} broken samples", files.len());
    for path in &files {
        let stem = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let outcome = read_model(path, None);
        if stem == "not_net_root" {
            assert!(
                matches!(outcome, Err(ReadError::NotNet { .. })),
                "{stem}: {outcome:?}"
            );
            continue;
        }
        if stem == "not_utf8" {
            assert!(
                matches!(outcome, Err(ReadError::Io { .. })),
                "{stem}: {outcome:?}"
            );
            continue;
        }
        match (expected_rules(&stem), outcome) {
            (None, Err(ReadError::Xml { line, .. })) => {
                assert!(line > 0);
                eprintln!("{stem}: rejected as expected");
            }
            (None, other) => panic!("{stem}: expected an XML error, got {other:?}"),
            (Some(_), Err(error)) => panic!("{stem}: {error}"),
            (Some(expected), Ok(outcome)) => {
                let rules = common::rules(&outcome.diagnostics);
                eprintln!("{stem}: {rules:?}");
                let errors: Vec<_> = outcome
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| d.rule)
                    .collect();
                let mut sorted_expected = expected.to_vec();
                sorted_expected.sort_unstable();
                let mut sorted_errors = errors.clone();
                sorted_errors.sort_unstable();
                sorted_errors.dedup();
                assert_eq!(
                    sorted_errors, sorted_expected,
                    "{stem}: {:#?}",
                    outcome.diagnostics
                );
                for d in &outcome.diagnostics {
                    assert!(d.location.is_some(), "{stem}: {d:?} has no location");
                }
            }
        }
    }
}
