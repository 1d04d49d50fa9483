//! Hostile scale: very long chains, thousands of inputs, long cycles. The
//! pipeline must answer (correctly, or with a clear error) without recursion
//! over graph depth and without a panic. No timing is asserted here; speed is
//! for benchmarks.

use clap::Parser;
use ir_check::{analyze, Args, EXIT_INVALID, EXIT_VALID};

fn args() -> Args {
    // Parsed, not built field by field, so a new flag does not touch this.
    Args::parse_from([
        "ir-check",
        "hostile.xml",
        "--format",
        "json",
        "--allow-unknown-ops",
    ])
}

fn layer(id: usize, type_name: &str, inputs: usize, outputs: usize, data: &str) -> String {
    let port = |id: usize| {
        format!("<port id=\"{id}\" precision=\"FP32\"><dim>-1</dim><dim>4</dim></port>")
    };
    let ins: String = (0..inputs).map(port).collect();
    let outs: String = (inputs..inputs + outputs).map(port).collect();
    let mut text =
        format!("<layer id=\"{id}\" name=\"l{id}\" type=\"{type_name}\" version=\"opset1\">{data}");
    if inputs > 0 {
        text += &format!("<input>{ins}</input>");
    }
    if outputs > 0 {
        text += &format!("<output>{outs}</output>");
    }
    text + "</layer>\n"
}

const PARAM_DATA: &str = "<data shape=\"?,4\" element_type=\"f32\"/>";

fn model(layers: &str, edges: &str) -> String {
    format!("<?xml version=\"1.0\"?>\n<net name=\"hostile\" version=\"11\"><layers>\n{layers}</layers><edges>\n{edges}</edges></net>\n")
}

fn edge(from: usize, from_port: usize, to: usize, to_port: usize) -> String {
    format!(
        "<edge from-layer=\"{from}\" from-port=\"{from_port}\" to-layer=\"{to}\" to-port=\"{to_port}\"/>\n"
    )
}

/// `ir-check` on `xml` (with `weights` as its `.bin`): the exit status,
/// the JSON report, and the report's length in bytes.
fn check_with(xml: &str, weights: Option<Vec<u8>>) -> (u8, serde_json::Value, usize) {
    let weights = weights.map(ir::TensorBytes::from_vec);
    let read = ir_xml::read_model_from_str(xml, weights).expect("well-formed");
    let outcome = analyze("hostile.xml", xml, read, &args());
    let json = serde_json::from_str(&outcome.stdout).expect("one JSON object");
    (outcome.status, json, outcome.stdout.len())
}

fn check(xml: &str) -> (u8, serde_json::Value) {
    let (status, json, _) = check_with(xml, None);
    (status, json)
}

#[test]
fn a_chain_of_100_000_layers() {
    const N: usize = 100_000;
    let mut layers = layer(0, "Parameter", 0, 1, PARAM_DATA);
    let mut edges = String::new();
    for i in 1..N {
        layers += &layer(i, "ReLU", 1, 1, "");
        edges += &edge(i - 1, if i == 1 { 0 } else { 1 }, i, 0);
    }
    layers += &layer(N, "Result", 1, 0, "");
    edges += &edge(N - 1, 1, N, 0);
    let (status, json) = check(&model(&layers, &edges));
    assert_eq!(status, EXIT_VALID, "{:?}", json["diagnostics"]);
    let nodes = json["nodes"].as_array().expect("nodes");
    assert_eq!(nodes.len(), N + 1);
    assert_eq!(nodes[N]["name"], "l100000");
    assert_eq!(nodes[N]["outputs"][0]["shape"][1], 4);
}

#[test]
fn five_thousand_inputs() {
    const N: usize = 5_000;
    let mut layers = String::new();
    let mut edges = String::new();
    for i in 0..N {
        layers += &layer(2 * i, "Parameter", 0, 1, PARAM_DATA);
        layers += &layer(2 * i + 1, "Result", 1, 0, "");
        edges += &edge(2 * i, 0, 2 * i + 1, 0);
    }
    let (status, json) = check(&model(&layers, &edges));
    assert_eq!(status, EXIT_VALID, "{:?}", json["diagnostics"]);
    assert_eq!(json["symbols"].as_object().expect("symbols").len(), N);
}

#[test]
fn a_cycle_through_10_000_layers_is_named_briefly() {
    const N: usize = 10_000;
    let mut layers = layer(0, "Parameter", 0, 1, PARAM_DATA) + &layer(1, "Result", 1, 0, "");
    let mut edges = edge(0, 0, 1, 0);
    for i in 2..N + 2 {
        layers += &layer(i, "ReLU", 1, 1, "");
        let next = if i == N + 1 { 2 } else { i + 1 };
        edges += &edge(i, 1, next, 0);
    }
    let (status, json) = check(&model(&layers, &edges));
    assert_eq!(status, EXIT_INVALID);
    let cycle = json["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .find(|d| d["rule"] == "graph-cycle")
        .expect("the cycle is reported");
    let message = cycle["message"].as_str().expect("message");
    assert!(message.contains("(10000 layers in all)"), "{message}");
    assert!(message.len() < 400, "{message}");
}

/// A chain of Slices (start 1, step 2) over a dynamic dim: each one nests
/// `ceil((d - 1)/2)` a level deeper. Kept exact, the time and the report grow
/// with the square of the chain (5,000 layers took a minute and wrote 500 MB)
/// and the nesting would reach the stack; the engine replaces a dim past its
/// tracking budget by a symbol that says where it came from.
#[test]
fn a_chain_of_20_000_slices_that_nest_their_dim() {
    const N: usize = 20_000;
    let constant = |id: usize, name: &str, offset: usize| {
        format!(
            "<layer id=\"{id}\" name=\"{name}\" type=\"Const\" version=\"opset1\">\
             <data element_type=\"i64\" shape=\"1\" offset=\"{offset}\" size=\"8\"/>\
             <output><port id=\"0\" precision=\"I64\"><dim>1</dim></port></output></layer>\n"
        )
    };
    let mut layers = layer(0, "Parameter", 0, 1, PARAM_DATA);
    for (i, name) in ["start", "stop", "step", "axes"].iter().enumerate() {
        layers += &constant(i + 1, name, 8 * i);
    }
    // stop = i64::MAX: to the end, no assumption on the dim (a finite stop
    // would bound it, and the chain would reach 0 after some 40 halvings).
    let weights: Vec<u8> = [1i64, i64::MAX, 2, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let mut edges = String::new();
    let mut previous = (0, 0);
    for k in 0..N {
        let id = 5 + k;
        layers += &format!(
            "<layer id=\"{id}\" name=\"s{k}\" type=\"Slice\" version=\"opset8\"><input>\
             <port id=\"0\"><dim>-1</dim><dim>4</dim></port><port id=\"1\"><dim>1</dim></port>\
             <port id=\"2\"><dim>1</dim></port><port id=\"3\"><dim>1</dim></port>\
             <port id=\"4\"><dim>1</dim></port></input><output>\
             <port id=\"5\" precision=\"FP32\"><dim>-1</dim><dim>4</dim></port></output></layer>\n"
        );
        edges += &edge(previous.0, previous.1, id, 0);
        for input in 1..5 {
            edges += &edge(input, 0, id, input);
        }
        previous = (id, 5);
    }
    layers += &layer(5 + N, "Result", 1, 0, "");
    edges += &edge(previous.0, previous.1, 5 + N, 0);
    let (status, json, report_bytes) = check_with(&model(&layers, &edges), Some(weights));
    assert_eq!(status, EXIT_VALID, "{:?}", json["diagnostics"][0]);
    // Every dim stays small: the report grows linearly with the chain.
    assert!(report_bytes < 1_000 * N, "{report_bytes} bytes");
    let symbols = json["symbols"].as_object().expect("symbols");
    let stand_ins: Vec<&str> = symbols
        .values()
        .filter_map(|s| s["origin"].as_str())
        .filter(|origin| origin.starts_with("stands for a dim of `s"))
        .collect();
    assert!(stand_ins.len() > N / 20, "{} stand-ins", stand_ins.len());
    assert!(
        stand_ins[0].contains("too large to track"),
        "{}",
        stand_ins[0]
    );
    let last = &json["nodes"][N + 5]["outputs"][0];
    assert_eq!(last["shape"][1], 4);
    assert_eq!(last["bounds"][0][0], 0);
}

/// A Concat of 3,000 dynamic dims sums 3,000 symbols, past the algebra's
/// size limit: a limit of ours, not a fault of the model, so a warning and
/// the declared shape, as OpenVINO answers `?`.
#[test]
fn a_concat_of_3_000_dynamic_inputs() {
    const N: usize = 3_000;
    let mut layers = String::new();
    let mut edges = String::new();
    for i in 0..N {
        layers += &layer(i, "Parameter", 0, 1, PARAM_DATA);
        edges += &edge(i, 0, N, i);
    }
    layers += &layer(N, "Concat", N, 1, "<data axis=\"0\"/>");
    layers += &layer(N + 1, "Result", 1, 0, "");
    edges += &edge(N, N, N + 1, 0);
    let (status, json) = check(&model(&layers, &edges));
    assert_eq!(status, EXIT_VALID, "{:?}", json["diagnostics"][0]);
    let diagnostics = json["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["rule"], "dim-too-complex");
    assert_eq!(diagnostics[0]["severity"], "warning");
    assert_eq!(diagnostics[0]["node"], format!("l{N}"));
    let output = &json["nodes"][N]["outputs"][0];
    assert_eq!(output["shape"][1], 4);
}
