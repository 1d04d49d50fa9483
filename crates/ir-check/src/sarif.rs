//! `--format sarif`: the diagnostics as a SARIF 2.1.0 log, the format CI
//! systems and editors show static-analysis findings in (GitHub code
//! scanning, GitLab, Azure DevOps).
//!
//! One result per diagnostic: its rule, level, message (with the layer and
//! the notes, as the text renderer prints them) and where it is in the XML.
//! `tool.driver.rules` describes every rule the run reports; the project has
//! no catalog of rule texts, so each rule's help is the text renderer's
//! rendering of its first finding (message, quoted line and notes).

use std::collections::BTreeMap;

use ir::{Diagnostic, Severity};
use serde_sarif::sarif;

/// The `id` of SARIF 2.1.0's schema (OASIS errata 01), which
/// `docs/sarif-schema-2.1.0.json` is a copy of; a test validates the
/// output against that copy.
pub const SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The SARIF log of one run on `file_name` (kept as given on the command
/// line, so results point into the repository the run started in), whose
/// text is `source`, with its `diagnostics` in the order to report them.
pub fn render(file_name: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    let rules = rules(file_name, source, diagnostics);
    let index: BTreeMap<&str, usize> = rules
        .iter()
        .enumerate()
        .map(|(i, rule)| (rule.id.as_str(), i))
        .collect();
    let artifact = artifact_uri(file_name);
    let results: Vec<sarif::Result> = diagnostics
        .iter()
        .map(|d| result(d, &artifact, index.get(d.rule).copied()))
        .collect();
    let mut driver = sarif::ToolComponent::builder()
        .name("ir-check")
        .version(env!("CARGO_PKG_VERSION"))
        .full_name(concat!("ir-check ", env!("CARGO_PKG_VERSION")))
        .short_description(text(env!("CARGO_PKG_DESCRIPTION")))
        .rules(rules)
        .build();
    // Only where the package names its home: a URI made up here would
    // send users nowhere.
    let home = option_env!("CARGO_PKG_HOMEPAGE")
        .into_iter()
        .chain(option_env!("CARGO_PKG_REPOSITORY"))
        .find(|uri| !uri.is_empty());
    driver.information_uri = home.map(str::to_owned);
    let run = sarif::Run::builder()
        .tool(sarif::Tool::builder().driver(driver).build())
        .artifacts(vec![sarif::Artifact::builder()
            .location(sarif::ArtifactLocation::builder().uri(artifact).build())
            .roles(vec![serde_json::json!("analysisTarget")])
            .mime_type("application/xml")
            .build()])
        // Columns count characters (`ir_xml::LineIndex`), not UTF-16 units.
        .column_kind(serde_json::json!("unicodeCodePoints"))
        .results(results)
        .build();
    let log = sarif::Sarif::builder()
        .schema(SCHEMA_URI)
        .version(serde_json::json!("2.1.0"))
        .runs(vec![run])
        .build();
    let mut out = serde_json::to_string_pretty(&log).unwrap_or_else(|e| {
        format!("{{\"error\": \"the SARIF log could not be serialized: {e}\"}}")
    });
    out.push('\n');
    out
}

/// One rule per rule id the diagnostics use, sorted by id.
fn rules(
    file_name: &str,
    source: &str,
    diagnostics: &[Diagnostic],
) -> Vec<sarif::ReportingDescriptor> {
    let mut first: BTreeMap<&str, &Diagnostic> = BTreeMap::new();
    for d in diagnostics {
        first.entry(d.rule).or_insert(d);
    }
    first
        .into_values()
        .map(|d| {
            let title = title(d.rule);
            let example =
                crate::diagnostics::render_all(file_name, source, std::slice::from_ref(d));
            sarif::ReportingDescriptor::builder()
                .id(d.rule)
                .name(pascal_case(d.rule))
                .short_description(text(&title))
                .full_description(text(&format!(
                    "{title} (`{}`), as in this run: {}",
                    d.rule, d.message
                )))
                .help(text(&format!("First finding of this run:\n{example}")))
                .default_configuration(
                    sarif::ReportingConfiguration::builder()
                        .level(serde_json::json!(level_name(d.severity)))
                        .build(),
                )
                .build()
        })
        .collect()
}

/// The result of one diagnostic.
fn result(d: &Diagnostic, artifact: &str, rule_index: Option<usize>) -> sarif::Result {
    let mut message = match &d.layer {
        Some(layer) => format!("{layer}: {}", d.message),
        None => d.message.clone(),
    };
    for note in &d.notes {
        message.push_str("\nnote: ");
        message.push_str(note);
    }
    let mut physical = sarif::PhysicalLocation::builder()
        .artifact_location(sarif::ArtifactLocation::builder().uri(artifact).build())
        .build();
    physical.region = d.location.filter(|l| l.line > 0).map(|l| {
        let mut region = sarif::Region::builder()
            .start_line(i64::from(l.line))
            .build();
        // SARIF columns start at 1: a column 0 would say nothing.
        region.start_column = (l.column > 0).then_some(i64::from(l.column));
        region
    });
    let mut location = sarif::Location::builder()
        .physical_location(physical)
        .build();
    location.logical_locations = d.layer.as_ref().map(|layer| {
        vec![sarif::LogicalLocation::builder()
            .name(layer.name.clone())
            .fully_qualified_name(layer.to_string())
            .kind("element")
            .build()]
    });
    let mut result = sarif::Result::builder()
        .rule_id(d.rule)
        .level(level(d.severity))
        .message(sarif::Message::builder().text(message).build())
        .locations(vec![location])
        .build();
    result.rule_index = rule_index.and_then(|i| i64::try_from(i).ok());
    result
}

fn level(severity: Severity) -> sarif::ResultLevel {
    match severity {
        Severity::Error => sarif::ResultLevel::Error,
        Severity::Warning => sarif::ResultLevel::Warning,
        Severity::Note => sarif::ResultLevel::Note,
    }
}

fn level_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn text(text: &str) -> sarif::MultiformatMessageString {
    sarif::MultiformatMessageString::builder()
        .text(text.to_owned())
        .build()
}

/// `declared-shape-mismatch` → `Declared shape mismatch`.
fn title(rule: &str) -> String {
    let words = rule.replace('-', " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `declared-shape-mismatch` → `DeclaredShapeMismatch` (SARIF's readable rule name).
fn pascal_case(rule: &str) -> String {
    rule.split('-')
        .flat_map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase())
                .into_iter()
                .chain(chars)
        })
        .collect()
}

/// The file name as a URI reference: `/` separators, and every byte outside
/// RFC 3986's unreserved set (and `/`) percent-encoded.
fn artifact_uri(file_name: &str) -> String {
    let file_name = if cfg!(windows) {
        file_name.replace('\\', "/")
    } else {
        file_name.to_owned()
    };
    let mut uri = String::with_capacity(file_name.len());
    for byte in file_name.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_uris() {
        assert_eq!(title("edge-dangling-port"), "Edge dangling port");
        assert_eq!(pascal_case("edge-dangling-port"), "EdgeDanglingPort");
        assert_eq!(
            artifact_uri("ir-samples/a b%é.xml"),
            "ir-samples/a%20b%25%C3%A9.xml"
        );
    }
}
