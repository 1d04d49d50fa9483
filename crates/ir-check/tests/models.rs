//! Real vision, transformer and recurrent models (`ir-samples/models/`,
//! written by `scripts/gen_vision_models.py`, `scripts/gen_transformer_models.py`
//! and `scripts/gen_rnn_models.py` with OpenVINO's own converter, dynamic
//! dims): the symbolic answers `ir-check` gives where OpenVINO answers `?`.
//! Every layer's shape is also checked against OpenVINO at static bindings
//! (`crates/shape-infer/tests/golden.rs`) and the outputs against its CPU
//! plugin (`crates/executor/tests/conformance.rs`).

mod support;

use serde_json::Value;
use support::{valid_report, workspace_root};

/// The JSON report of `ir-check MODEL --shape x=DIMS`.
fn report(model: &str, dims: &str) -> Value {
    report_with(model, &[("x", dims)])
}

/// The JSON report of `ir-check MODEL --shape NAME=DIMS...`.
fn report_with(model: &str, shapes: &[(&str, &str)]) -> Value {
    let shapes: Vec<String> = shapes.iter().map(|(n, d)| format!("{n}={d}")).collect();
    valid_report(&format!("ir-samples/models/{model}.xml"), &shapes)
}

/// The shape of the model's (only) Result, as the report prints it.
fn output_shape(report: &Value) -> Vec<Value> {
    let node = report["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .rfind(|n| n["type"] == "Result")
        .expect("a Result");
    node["outputs"][0]["shape"]
        .as_array()
        .expect("ranked")
        .clone()
}

/// OpenVINO's own dynamic answer for the model's output (its golden file).
fn openvino_output(model: &str) -> String {
    let path = workspace_root().join(format!("ir-samples/models/golden/{model}.json"));
    let golden: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("golden")).expect("json");
    golden["outputs"][0]["shape"]
        .as_str()
        .expect("shape")
        .to_owned()
}

/// `text` evaluated with the named symbols bound.
fn eval(text: &str, binding: &[(&str, i64)]) -> i64 {
    let mut table = symdim::SymbolTable::new();
    for (name, _) in binding {
        table.named(name, symdim::Interval::nonnegative());
    }
    let e = table.parse_expr(text).expect("parses");
    e.eval(&|s| {
        binding
            .iter()
            .find(|(n, _)| table.lookup(n) == Some(s))
            .map(|b| b.1)
    })
    .expect("evaluates")
}

fn constraints(report: &Value) -> Vec<String> {
    report["constraints"]
        .as_array()
        .expect("constraints")
        .iter()
        .map(|c| c["expr"].as_str().expect("expr").to_owned())
        .collect()
}

#[test]
fn classifiers_keep_the_batch_symbol_where_openvino_answers_a_question_mark() {
    for (model, classes) in [
        ("tiny_resnet", 10),
        ("mobilenet_v2_narrow", 10),
        ("squeezenet_narrow", 4),
        ("tiny_resnet_int8", 10),
    ] {
        assert_eq!(openvino_output(model), format!("[?,{classes}]"), "{model}");
        let r = report(model, "N,3,H,W");
        assert_eq!(
            output_shape(&r),
            [Value::from("N"), Value::from(classes)],
            "{model}"
        );
    }
    // The only assumptions of a ResNet are that the image is not empty and
    // (its MaxPool, as OpenVINO's, rejects an empty batch) neither is the
    // batch.
    assert_eq!(
        constraints(&report("tiny_resnet", "N,3,H,W")),
        ["H >= 1", "W >= 1", "N >= 1"]
    );
}

#[test]
fn the_text_detector_map_is_the_input_size_rounded_up_to_its_stride() {
    assert_eq!(openvino_output("text_detector"), "[?,1,4..,4..]");
    let r = report("text_detector", "N,3,H,W");
    let shape = output_shape(&r);
    assert_eq!(shape[..2], [Value::from("N"), Value::from(1)]);
    for (axis, name) in [(2, "H"), (3, "W")] {
        let text = shape[axis].as_str().expect("symbolic");
        for v in 1..=64 {
            // 4*ceil(v/4): exactly the input size when it is a multiple of 4.
            assert_eq!(
                eval(text, &[(name, v)]),
                4 * ((v + 3) / 4),
                "{text} at {name}={v}"
            );
        }
    }
}

#[test]
fn the_text_recognizer_says_which_heights_it_accepts() {
    // OpenVINO: [?,1..,12]; the squeeze of the pooled height needs it to be 1.
    assert_eq!(openvino_output("text_recognizer"), "[?,1..,12]");
    let r = report("text_recognizer", "N,3,H,W");
    assert_eq!(
        output_shape(&r),
        [Value::from("N"), Value::from("floor(W/2)"), Value::from(12)]
    );
    assert!(
        constraints(&r).contains(&"floor(H/48) == 1".to_owned()),
        "{:?}",
        constraints(&r)
    );
    // At the height it was built for, the width stays symbolic and nothing
    // about the height is assumed.
    let r = report("text_recognizer", "N,3,48,W");
    assert_eq!(
        output_shape(&r),
        [Value::from("N"), Value::from("floor(W/2)"), Value::from(12)]
    );
    assert!(
        constraints(&r).iter().all(|c| !c.contains('H')),
        "{:?}",
        constraints(&r)
    );
}

#[test]
fn the_audio_front_end_sequence_length_is_an_expression_of_the_samples() {
    assert_eq!(openvino_output("audio_frontend"), "[?,1..,8]");
    let r = report("audio_frontend", "N,1,T");
    let shape = output_shape(&r);
    assert_eq!((&shape[0], &shape[2]), (&Value::from("N"), &Value::from(8)));
    let frames = shape[1].as_str().expect("symbolic");
    // Three strided convolutions (10/5, 3/2, 2/2), as OpenVINO computes them
    // for static lengths (its goldens: 400 samples give 19 frames).
    for t in [400, 401, 1000, 1234] {
        let c1 = (t - 10) / 5 + 1;
        let c2 = (c1 - 3) / 2 + 1;
        let c3 = (c2 - 2) / 2 + 1;
        assert_eq!(eval(frames, &[("T", t)]), c3, "{frames} at T={t}");
    }
}

#[test]
fn the_segmenter_map_is_exactly_the_input_size() {
    // OpenVINO: [?,3,?,?]; the resizes take their sizes from ShapeOf
    // subgraphs, converted to i32 on the way.
    assert_eq!(openvino_output("segmenter_tiny"), "[?,3,?,?]");
    let r = report("segmenter_tiny", "N,3,H,W");
    assert_eq!(
        output_shape(&r),
        [
            Value::from("N"),
            Value::from(3),
            Value::from("H"),
            Value::from("W")
        ]
    );
    // The i32 conversions hold the sizes only if they fit.
    assert!(
        constraints(&r).contains(&"H <= 2147483647".to_owned()),
        "{:?}",
        constraints(&r)
    );
}

#[test]
fn the_detector_box_count_is_a_sum_over_its_three_strides() {
    // OpenVINO: [?,42..,8]; ours is the count of boxes at strides 8, 16 and
    // 32 (2 anchors each), with the concatenations of the upsampled maps
    // stating that H and W must be multiples of 32.
    assert_eq!(openvino_output("yolo_tiny"), "[?,42..,8]");
    let r = report("yolo_tiny", "N,3,H,W");
    let shape = output_shape(&r);
    assert_eq!((&shape[0], &shape[2]), (&Value::from("N"), &Value::from(8)));
    let boxes = shape[1].as_str().expect("symbolic");
    for (h, w) in [(32, 32), (64, 96), (320, 640)] {
        let per_anchor = (h / 8) * (w / 8) + (h / 16) * (w / 16) + (h / 32) * (w / 32);
        assert_eq!(
            eval(boxes, &[("H", h), ("W", w)]),
            2 * per_anchor,
            "{boxes}"
        );
    }
    let c = constraints(&r);
    assert!(
        c.contains(&"2*floor((H - 1)/32) + 2 == floor((H - 1)/16) + 1".to_owned()),
        "{c:?}"
    );
}

#[test]
fn text_transformers_keep_batch_and_sequence() {
    let ids = [("input_ids", "B,S"), ("attention_mask", "B,S")];
    for model in [
        "bert",
        "distilbert",
        "gpt2",
        "llama",
        "llama_int4",
        "t5_encoder",
    ] {
        assert_eq!(openvino_output(model), "[?,?,32]", "{model}");
        let r = report_with(model, &ids);
        assert_eq!(
            output_shape(&r),
            [Value::from("B"), Value::from("S"), Value::from(32)],
            "{model}"
        );
        // The mask's flattening Reshape ([B*S, 1], special_zero) is the one
        // assumption of the causal and padding masks; a learned position
        // table (BERT's, DistilBERT's, 64 rows) bounds the sequence.
        let mut expected = vec!["B*S >= 1 or B == 0"];
        if model.contains("bert") {
            expected.insert(0, "S <= 64");
        }
        assert_eq!(constraints(&r), expected, "{model}");
    }
}

#[test]
fn a_vision_transformer_counts_its_patches_and_class_token() {
    assert_eq!(openvino_output("vit"), "[?,2..,32]");
    let r = report("vit", "N,3,H,W");
    let shape = output_shape(&r);
    assert_eq!(
        (&shape[0], &shape[2]),
        (&Value::from("N"), &Value::from(32))
    );
    assert_eq!(shape[1], Value::from("floor(H/8)*floor(W/8) + 1"));
    assert_eq!(constraints(&r)[..2], ["H >= 8", "W >= 8"]);
}

#[test]
fn a_shifted_window_transformer_pads_its_windows_and_assumes_nothing_more() {
    // Swin pads each stage to a multiple of the window (4) and slices back:
    // min(floor(H/4), 4*ceil(floor(H/4)/4)) is floor(H/4), and the batch of
    // windows divided by the window count is the batch.
    assert_eq!(openvino_output("swin_narrow"), "[?,10]");
    let r = report("swin_narrow", "N,3,H,W");
    assert_eq!(output_shape(&r), [Value::from("N"), Value::from(10)]);
    assert_eq!(constraints(&r), ["H >= 4", "W >= 4"]);
}

/// The shapes of every Result, as the report prints them, sorted.
fn result_shapes(report: &Value) -> Vec<String> {
    let mut shapes: Vec<String> = report["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .filter(|n| n["type"] == "Result")
        .map(|n| n["outputs"][0]["shape"].to_string())
        .collect();
    shapes.sort();
    shapes
}

#[test]
fn recurrent_models_keep_the_batch_and_sequence_symbols() {
    // PyTorch's LSTM (2 layers, bidirectional), GRU and RNN with
    // batch_first, hidden size 8: Y `[N, S, directions*8]` and the last
    // states `[layers*directions, N, 8]`.
    for (model, y, states) in [
        ("lstm_bidirectional", 16, [4, 4].as_slice()),
        ("gru_sequence", 8, &[1]),
        ("rnn_relu_sequence", 8, &[1]),
    ] {
        let r = report(model, "N,S,5");
        let mut want = vec![format!(r#"["N","S",{y}]"#)];
        want.extend(states.iter().map(|s| format!(r#"[{s},"N",8]"#)));
        want.sort();
        assert_eq!(result_shapes(&r), want, "{model}");
        // The only assumptions: the dims the converter casts to i32 fit.
        assert_eq!(
            constraints(&r),
            ["N <= 2147483647", "S <= 2147483647"],
            "{model}"
        );
    }
    assert_eq!(openvino_output("lstm_bidirectional"), "[?,?,16]");
}
