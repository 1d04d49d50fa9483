//! The machine-readable formats against their published schemas: the JSON
//! report of every model under `ir-samples/` against `docs/report.schema.json`,
//! its SARIF log against SARIF 2.1.0's schema (`docs/sarif-schema-2.1.0.json`);
//! the Graphviz graph's structure, and its rendering by the real `dot` when
//! Graphviz is installed.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.xml` under `ir-samples/` (samples, bodies, broken, models…), as
/// paths relative to the workspace root, sorted.
fn every_sample() -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("readable directory entry").path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "xml") {
                let relative = path.strip_prefix(root).expect("under the root");
                out.push(relative.to_str().expect("utf-8 path").to_owned());
            }
        }
    }
    let root = workspace_root();
    let mut files = Vec::new();
    walk(&root.join("ir-samples"), &root, &mut files);
    files.sort();
    files
}

/// Runs the binary from the workspace root; returns (exit status, stdout).
fn run(relative: &str, extra: &[&str]) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_ir-check"))
        .current_dir(workspace_root())
        .arg(relative)
        .args(extra)
        .output()
        .expect("ir-check runs");
    let status = output
        .status
        .code()
        .expect("exited, not killed by a signal");
    (status, String::from_utf8_lossy(&output.stdout).into_owned())
}

fn load_schema(relative: &str) -> jsonschema::Validator {
    let path = workspace_root().join(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{relative}: {e}"));
    let schema: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{relative}: {e}"));
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{relative} is no schema: {e}"))
}

/// The schema's complaints about `instance`, one per line (empty if valid).
fn violations(schema: &jsonschema::Validator, instance: &Value) -> String {
    schema
        .iter_errors(instance)
        .map(|e| format!("  at {}: {e}\n", e.instance_path()))
        .collect()
}

/// Every report `--format json` prints for the samples, with and without
/// `--allow-unknown-ops`, follows `docs/report.schema.json`.
#[test]
fn every_json_report_follows_the_schema() {
    let schema = load_schema("docs/report.schema.json");
    let mut checked = 0;
    let mut failures = String::new();
    for sample in every_sample() {
        for extra in [&[][..], &["--allow-unknown-ops"][..]] {
            let mut args = vec!["--format", "json"];
            args.extend_from_slice(extra);
            let (status, stdout) = run(&sample, &args);
            if status == 2 {
                // Unreadable input: nothing on stdout, the error on stderr.
                assert!(stdout.is_empty(), "{sample}: a report after a usage error");
                continue;
            }
            let report: Value = serde_json::from_str(&stdout)
                .unwrap_or_else(|e| panic!("{sample} {args:?}: not JSON: {e}"));
            let found = violations(&schema, &report);
            if !found.is_empty() {
                failures.push_str(&format!("{sample} {args:?}:\n{found}"));
            }
            assert_eq!(report["schema_version"], ir_check::report::SCHEMA_VERSION);
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "reports outside the schema:\n{failures}"
    );
    assert!(checked >= 120, "only {checked} reports were checked");
}

/// A change made to a valid report.
type Mutation = fn(&mut Value);

/// The schema is strict: it rejects a report with a field it does not
/// describe, a missing field, a wrong severity and a future schema version.
#[test]
fn the_report_schema_rejects_what_it_does_not_describe() {
    let schema = load_schema("docs/report.schema.json");
    let (status, stdout) = run(
        "ir-samples/broken/declared_shape_mismatch.xml",
        &["--format", "json"],
    );
    assert_eq!(status, 1);
    let report: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(violations(&schema, &report), "");
    let mutations: [(&str, Mutation); 5] = [
        ("extra field", |r| r["nodes"][0]["color"] = "red".into()),
        ("missing field", |r| {
            r.as_object_mut().expect("object").remove("valid");
        }),
        ("severity", |r| {
            r["diagnostics"][0]["severity"] = "fatal".into()
        }),
        ("version", |r| r["schema_version"] = "2.0".into()),
        ("element type", |r| {
            r["nodes"][0]["outputs"][0]["element_type"] = "float".into()
        }),
    ];
    for (what, mutate) in mutations {
        let mut changed = report.clone();
        mutate(&mut changed);
        assert!(
            !violations(&schema, &changed).is_empty(),
            "the schema accepts a report with a wrong {what}"
        );
    }
}

/// The schema's element types are exactly the ones the IR knows.
#[test]
fn the_report_schema_lists_every_element_type() {
    let path = workspace_root().join("docs/report.schema.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("schema")).expect("JSON");
    let listed: Vec<&str> = schema["$defs"]["element_type"]["enum"]
        .as_array()
        .expect("an enum")
        .iter()
        .map(|v| v.as_str().expect("a name"))
        .collect();
    let known: Vec<&str> = ir::ElementType::all().map(ir::ElementType::name).collect();
    assert_eq!(listed, known);
}

/// `--run` adds the arrays it wrote to the JSON report, also described by
/// the schema.
#[test]
fn a_json_report_with_a_run_follows_the_schema() {
    let schema = load_schema("docs/report.schema.json");
    let dir = std::env::temp_dir().join(format!("ir-check-formats-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let input = dir.join("x.npy");
    let x = executor::Tensor::from_vec(vec![1, 3, 4, 4], vec![0.5f32; 48]).expect("a tensor");
    executor::write_npy(&input, &x).expect("writes");
    let (status, stdout) = run(
        "ir-samples/add_relu_static.xml",
        &[
            "--format",
            "json",
            "--run",
            "--input",
            &format!("input={}", input.display()),
            "--output-dir",
            &dir.join("out").display().to_string(),
        ],
    );
    assert_eq!(status, 0, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).expect("JSON");
    assert!(report["run"]["outputs"].is_array(), "{stdout}");
    assert_eq!(violations(&schema, &report), "");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every SARIF log follows SARIF 2.1.0's schema and says what the JSON
/// report says: one result per diagnostic, with its rule (described in
/// `tool.driver.rules`), level, line and column, in the file as given.
#[test]
fn every_sarif_log_follows_the_sarif_schema_and_the_report() {
    let schema = load_schema("docs/sarif-schema-2.1.0.json");
    let shipped: Value = serde_json::from_str(
        &std::fs::read_to_string(workspace_root().join("docs/sarif-schema-2.1.0.json"))
            .expect("the schema"),
    )
    .expect("JSON");
    assert_eq!(
        shipped["id"],
        ir_check::sarif::SCHEMA_URI,
        "the log names the schema shipped"
    );
    let mut checked = 0;
    let mut results = 0;
    let mut failures = String::new();
    for sample in every_sample() {
        for extra in [&[][..], &["--allow-unknown-ops"][..]] {
            let mut args = vec!["--format", "sarif"];
            args.extend_from_slice(extra);
            let (status, stdout) = run(&sample, &args);
            let mut json_args = vec!["--format", "json"];
            json_args.extend_from_slice(extra);
            let (json_status, json) = run(&sample, &json_args);
            assert_eq!(status, json_status, "{sample} {args:?}: the exit status");
            if status == 2 {
                continue;
            }
            let log: Value = serde_json::from_str(&stdout)
                .unwrap_or_else(|e| panic!("{sample} {args:?}: not JSON: {e}"));
            let found = violations(&schema, &log);
            if !found.is_empty() {
                failures.push_str(&format!("{sample} {args:?}:\n{found}"));
            }
            let report: Value = serde_json::from_str(&json).expect("JSON");
            results += agrees_with_report(&sample, &log, &report);
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "logs outside the SARIF schema:\n{failures}"
    );
    assert!(checked >= 120, "only {checked} logs were checked");
    assert!(results >= 80, "only {results} results were compared");
}

/// Checks the SARIF `log` of `sample` against its JSON `report`; returns
/// the number of results.
fn agrees_with_report(sample: &str, log: &Value, report: &Value) -> usize {
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(log["$schema"], ir_check::sarif::SCHEMA_URI);
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "ir-check");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules: Vec<&str> = driver["rules"]
        .as_array()
        .map(|rules| {
            rules
                .iter()
                .map(|r| r["id"].as_str().expect("an id"))
                .collect()
        })
        .unwrap_or_default();
    for rule in driver["rules"].as_array().into_iter().flatten() {
        for field in ["shortDescription", "fullDescription", "help"] {
            let text = rule[field]["text"].as_str().unwrap_or_default();
            assert!(
                !text.is_empty(),
                "{sample}: rule {} has no {field}",
                rule["id"]
            );
        }
    }
    let results = run["results"].as_array().expect("results");
    let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(
        results.len(),
        diagnostics.len(),
        "{sample}: one result per diagnostic"
    );
    let mut used: Vec<&str> = Vec::new();
    for (result, diagnostic) in results.iter().zip(diagnostics) {
        let rule = result["ruleId"].as_str().expect("a rule id");
        assert_eq!(rule, diagnostic["rule"], "{sample}");
        assert_eq!(result["level"], diagnostic["severity"], "{sample}");
        let index = result["ruleIndex"].as_u64().expect("a rule index") as usize;
        assert_eq!(rules.get(index), Some(&rule), "{sample}: ruleIndex");
        let message = result["message"]["text"].as_str().expect("a message");
        let said = diagnostic["message"].as_str().expect("a message");
        assert!(message.contains(said), "{sample}: {message} lacks {said}");
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], sample);
        let region = &location["region"];
        match diagnostic["line"].as_u64() {
            Some(line) => {
                assert_eq!(region["startLine"].as_u64(), Some(line), "{sample}");
                assert_eq!(region["startColumn"], diagnostic["column"], "{sample}");
            }
            None => assert!(region.is_null(), "{sample}: a region without a line"),
        }
        used.push(rule);
    }
    used.sort_unstable();
    used.dedup();
    assert_eq!(used, rules, "{sample}: the rules are those the run reports");
    results.len()
}

/// The SARIF schema is enforced: a log with a level SARIF does not know,
/// or without its version, fails.
#[test]
fn the_sarif_schema_rejects_a_wrong_log() {
    let schema = load_schema("docs/sarif-schema-2.1.0.json");
    let (status, stdout) = run(
        "ir-samples/broken/declared_shape_mismatch.xml",
        &["--format", "sarif"],
    );
    assert_eq!(status, 1);
    let log: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(violations(&schema, &log), "");
    let mut wrong_level = log.clone();
    wrong_level["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!violations(&schema, &wrong_level).is_empty());
    let mut no_version = log;
    no_version
        .as_object_mut()
        .expect("object")
        .remove("version");
    assert!(!violations(&schema, &no_version).is_empty());
}

/// One statement of a DOT graph as `--format dot` writes it: a node or an
/// edge, with its attributes (values unquoted, escapes kept).
#[derive(Debug)]
struct Statement {
    /// The node id, or the edge's (source, target) ids joined by ` -> `.
    ids: String,
    attributes: Vec<(String, String)>,
}

impl Statement {
    fn get(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn is_edge(&self) -> bool {
        self.ids.contains(" -> ")
    }
}

/// The node and edge statements of `dot` (one per line; `graph`, `node`,
/// `edge` defaults and subgraph lines skipped).
fn statements(dot: &str) -> Vec<Statement> {
    dot.lines()
        .map(str::trim)
        .filter(|line| line.ends_with("];") && line.starts_with('n'))
        .filter(|line| !line.starts_with("node ["))
        .map(|line| {
            let (ids, rest) = line.split_once(" [").expect("attributes");
            let body = rest.strip_suffix("];").expect("closed");
            Statement {
                ids: ids.to_owned(),
                attributes: attributes(body),
            }
        })
        .collect()
}

/// `a="x, \"y\"", b=2` → [(a, x, \"y\"), (b, 2)].
fn attributes(body: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = body.trim_start();
    while !rest.is_empty() {
        let (name, after) = rest.split_once('=').expect("name=value");
        let (value, after) = if let Some(quoted) = after.strip_prefix('"') {
            let mut end = None;
            let mut escaped = false;
            for (i, c) in quoted.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => {
                        end = Some(i);
                        break;
                    }
                    _ => {}
                }
            }
            let end = end.expect("a closing quote");
            (&quoted[..end], &quoted[end + 1..])
        } else {
            after.split_once(',').map_or((after, ""), |(v, a)| (v, a))
        };
        out.push((name.trim().to_owned(), value.to_owned()));
        rest = after.trim_start().trim_start_matches(',').trim_start();
    }
    out
}

/// Renders `dot_text` with Graphviz's `dot -Tsvg`; `None` when `dot` is not
/// installed (`.ci/run` installs it).
fn render_svg(dot_text: &str) -> Option<String> {
    use std::io::Write as _;
    let mut child = match Command::new("dot")
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => panic!("dot: {e}"),
    };
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(dot_text.as_bytes())
        .expect("dot reads the graph");
    let output = child.wait_with_output().expect("dot runs");
    assert!(
        output.status.success(),
        "dot failed: {}\n{dot_text}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(String::from_utf8(output.stdout).expect("UTF-8 SVG"))
}

/// One node per layer and one edge per connection, labelled with the
/// inferred type and shape; failing layers and their out-edges red, the
/// rest not; Parameters and Results in shapes of their own.
#[test]
fn dot_draws_layers_connections_and_failures() {
    let sample = "ir-samples/transformer_block.xml";
    let (status, dot) = run(sample, &["--shape", "x=B,S,31", "--format", "dot"]);
    assert_eq!(status, 1, "{dot}");
    let (_, json) = run(sample, &["--shape", "x=B,S,31", "--format", "json"]);
    let report: Value = serde_json::from_str(&json).expect("JSON");
    let parsed = statements(&dot);
    let nodes: Vec<&Statement> = parsed.iter().filter(|s| !s.is_edge()).collect();
    let edges: Vec<&Statement> = parsed.iter().filter(|s| s.is_edge()).collect();
    let layers = report["nodes"].as_array().expect("nodes");
    assert_eq!(nodes.len(), layers.len());
    let xml = std::fs::read_to_string(workspace_root().join(sample)).expect("the sample");
    assert_eq!(edges.len(), xml.matches("<edge ").count());
    let failing: Vec<&str> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| d["node"].as_str().expect("a layer"))
        .collect();
    assert!(failing.len() >= 2, "{failing:?}");
    let mut red_ids = Vec::new();
    for (node, layer) in nodes.iter().zip(layers) {
        let label = node.get("label").expect("a label");
        let name = layer["name"].as_str().expect("a name");
        let kind = format!(
            "{}-{}",
            layer["type"].as_str().expect("a type"),
            layer["version"].as_str().expect("a version")
        );
        assert_eq!(label, format!("{name}\\n{kind}"));
        let red = node.get("color") == Some("#d62728");
        assert_eq!(red, failing.contains(&name), "{name}: {node:?}");
        if red {
            red_ids.push(node.ids.clone());
        }
        match layer["type"].as_str() {
            Some("Parameter") => assert_eq!(node.get("shape"), Some("invhouse")),
            Some("Result") => assert_eq!(node.get("shape"), Some("house")),
            _ => assert_ne!(node.get("shape"), Some("house")),
        }
    }
    for edge in &edges {
        let source = edge.ids.split(" -> ").next().expect("a source");
        let red = edge.get("color") == Some("#d62728");
        assert_eq!(red, red_ids.iter().any(|id| id == source), "{edge:?}");
    }
    // The attention scores: symbolic dims on the edges.
    assert!(
        edges
            .iter()
            .any(|e| e.get("label") == Some("f32 [B, 4, S, S]")),
        "{dot}"
    );
    if let Some(svg) = render_svg(&dot) {
        assert!(svg.contains("<svg") && svg.contains("f32 [B, 4, S, S]"));
    }
}

/// Labels longer than 40 characters are shortened with `…`, the whole text
/// in the tooltip.
#[test]
fn dot_shortens_long_labels_into_tooltips() {
    let (status, dot) = run(
        "ir-samples/models/squeezenet_narrow.xml",
        &["--format", "dot"],
    );
    assert_eq!(status, 0);
    let mut shortened = 0;
    for edge in statements(&dot).iter().filter(|s| s.is_edge()) {
        let label = edge.get("label").expect("a label");
        let tooltip = edge.get("tooltip").expect("a tooltip");
        assert!(label.chars().count() <= 40, "{label}");
        match label.strip_suffix('…') {
            Some(start) => {
                assert!(
                    tooltip.starts_with(start) && tooltip.len() > label.len(),
                    "{edge:?}"
                );
                shortened += 1;
            }
            None => assert_eq!(label, tooltip),
        }
    }
    assert!(shortened >= 10, "only {shortened} labels were shortened");
}

/// Names with quotes, backslashes, a line break and markup stay text: DOT
/// escapes them, and Graphviz draws them as written.
#[test]
fn dot_escapes_what_names_hold() {
    let dir = std::env::temp_dir().join(format!("ir-check-formats-dot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let model = dir.join("escapes.xml");
    let xml = r#"<?xml version="1.0"?>
<net name="say &quot;hi&quot;" version="11">
	<layers>
		<layer id="0" name="in &quot;x&quot; \d &lt;b&gt;&#10;two" type="Parameter" version="opset1">
			<data shape="2,3" element_type="f32" />
			<output>
				<port id="0" precision="FP32"><dim>2</dim><dim>3</dim></port>
			</output>
		</layer>
		<layer id="1" name="out\n" type="Result" version="opset1">
			<input>
				<port id="0" precision="FP32"><dim>2</dim><dim>3</dim></port>
			</input>
		</layer>
	</layers>
	<edges>
		<edge from-layer="0" from-port="0" to-layer="1" to-port="0" />
	</edges>
</net>
"#;
    std::fs::write(&model, xml).expect("writes");
    let (status, dot) = run(model.to_str().expect("utf-8"), &["--format", "dot"]);
    assert_eq!(status, 0, "{dot}");
    assert!(dot.starts_with("digraph \"say \\\"hi\\\"\" {"), "{dot}");
    let parsed = statements(&dot);
    assert_eq!(
        parsed[0].get("label"),
        Some(r#"in \"x\" \\d <b>\ntwo\nParameter-opset1"#)
    );
    // `\n` in a name is two characters, not a line break.
    assert_eq!(parsed[1].get("label"), Some(r#"out\\n\nResult-opset1"#));
    if let Some(svg) = render_svg(&dot) {
        assert!(svg.contains("in &quot;x&quot; \\d &lt;b&gt;"), "{svg}");
        assert!(svg.contains(">two<") && svg.contains(">out\\n<"), "{svg}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Graphviz draws the graph of every sample whose file can be read, bodies
/// as clusters (when `dot` is installed).
#[test]
fn dot_renders_every_sample() {
    let mut rendered = 0;
    for sample in every_sample() {
        // The real models are large: two stand for them.
        let small_model =
            sample.ends_with("squeezenet_narrow.xml") || sample.ends_with("tiny_resnet.xml");
        if sample.starts_with("ir-samples/models/") && !small_model {
            continue;
        }
        let (status, dot) = run(&sample, &["--format", "dot", "--allow-unknown-ops"]);
        if status == 2 {
            continue;
        }
        assert!(
            dot.starts_with("digraph ") && dot.ends_with("}\n"),
            "{sample}"
        );
        if sample.contains("/bodies/") {
            assert!(
                dot.contains("subgraph cluster_"),
                "{sample}: no body cluster"
            );
        }
        match render_svg(&dot) {
            Some(svg) => assert!(svg.contains("<svg"), "{sample}"),
            None => {
                eprintln!("`dot` is not installed: the graphs were not rendered");
                return;
            }
        }
        rendered += 1;
    }
    assert!(rendered >= 50, "only {rendered} samples were rendered");
}

/// A layer failing inside a body is red inside its body's cluster.
#[test]
fn dot_marks_a_failing_layer_inside_a_body() {
    let dir = std::env::temp_dir().join(format!("ir-check-formats-body-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let sample = workspace_root().join("ir-samples/bodies/if_relu_negative");
    let xml = std::fs::read_to_string(sample.with_extension("xml")).expect("the sample");
    // Relu_4 of the then-body declares its output [-1, 4]: it computes [-1, 3].
    let mut lines: Vec<String> = xml.lines().map(str::to_owned).collect();
    let relu = lines
        .iter()
        .position(|l| l.contains("<port id=\"1\"") && l.contains("names=\"Result_5\""))
        .expect("Relu_4's output port");
    assert_eq!(lines[relu + 2].trim(), "<dim>3</dim>");
    lines[relu + 2] = lines[relu + 2].replace('3', "4");
    let model = dir.join("if_relu_negative.xml");
    std::fs::write(&model, lines.join("\n")).expect("writes");
    std::fs::copy(
        sample.with_extension("bin"),
        dir.join("if_relu_negative.bin"),
    )
    .expect("copies");
    let (status, dot) = run(model.to_str().expect("utf-8"), &["--format", "dot"]);
    assert_eq!(status, 1, "{dot}");
    let parsed = statements(&dot);
    let node = |name: &str| {
        parsed
            .iter()
            .find(|s| {
                !s.is_edge()
                    && s.get("label")
                        .is_some_and(|l| l.starts_with(&format!("{name}\\n")))
            })
            .unwrap_or_else(|| panic!("no node {name}: {dot}"))
    };
    let relu = node("Relu_4");
    assert_eq!(relu.get("color"), Some("#d62728"), "{dot}");
    assert!(
        relu.ids.starts_with("n2_b0_"),
        "Relu_4 is not in If_9's first body: {dot}"
    );
    assert!(relu
        .get("tooltip")
        .is_some_and(|t| t.contains("declared-shape-mismatch")));
    // Layer 1 of the other body and of the model are not it.
    assert_eq!(node("Negative_7").get("color"), None, "{dot}");
    assert_eq!(node("x").get("color"), None, "{dot}");
    if let Some(svg) = render_svg(&dot) {
        assert!(svg.contains("If_9 &gt; then_body"), "{svg}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
