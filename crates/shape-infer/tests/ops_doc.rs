//! `docs/ops.md` is generated from the op registry (each op's `OpDoc` lives
//! beside its rule). This test fails when the page and the registry disagree;
//! `UPDATE_OPS_DOC=1 cargo test -p shape-infer --test ops_doc` rewrites it.

use std::path::Path;

use shape_infer::ops::BODY_OPS;
use shape_infer::registry::OpDoc;
use shape_infer::Registry;

fn render() -> String {
    let mut out = String::from(
        "# Ops\n\n\
         Generated from the op registry by `crates/shape-infer/tests/ops_doc.rs`; do not edit by\n\
         hand (`UPDATE_OPS_DOC=1 cargo test -p shape-infer --test ops_doc`).\n\n\
         A layer's `version` names an opset; the op version used is the newest one whose\n\
         first opset is not newer than the layer's (`Reshape` in `opset13` is Reshape-1).\n\n\
         Every op of OpenVINO 2026.4's opset tables (opset1 to opset17) is here, as\n\
         `crates/shape-infer/tests/opset_coverage.rs` checks; OpenVINO's MOE is an internal\n\
         op (`ov::op::internal::MOE`), in no opset, which its IR reader refuses.\n\n\
         | op | versions (first opset) | summary |\n| --- | --- | --- |\n",
    );
    // The registry's ops and the ops with bodies (inferred through them),
    // by name.
    let mut ops: Vec<(&str, String, OpDoc)> = Registry::standard()
        .ops()
        .into_iter()
        .map(|def| {
            let versions: Vec<String> = def
                .versions
                .iter()
                .map(|v| format!("v{} ({})", v.version, v.opset_name()))
                .collect();
            (def.type_name, versions.join(", "), def.doc)
        })
        .chain(
            BODY_OPS
                .iter()
                .map(|(name, versions, doc)| (*name, versions.to_string(), *doc)),
        )
        .collect();
    ops.sort_by_key(|(name, _, _)| *name);
    for (name, versions, doc) in &ops {
        out.push_str(&format!(
            "| [{name}](#{}) | {versions} | {} |\n",
            name.to_lowercase(),
            doc.summary
        ));
    }
    for (name, _, doc) in &ops {
        out.push_str(&format!(
            "\n## {name}\n\n{}\n\n- **Attributes:** {}\n- **Symbolic:** {}\n- **Errors:** {}\n",
            doc.summary, doc.attributes, doc.symbolic, doc.errors
        ));
    }
    out
}

#[test]
fn ops_md_matches_the_registry() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/ops.md");
    let expected = render();
    if std::env::var_os("UPDATE_OPS_DOC").is_some() {
        std::fs::write(&path, &expected).expect("docs/ops.md is writable");
        return;
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/ops.md is out of date with the op registry; run \
         `UPDATE_OPS_DOC=1 cargo test -p shape-infer --test ops_doc` and commit it"
    );
}
