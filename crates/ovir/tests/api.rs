//! The library's front door, on the shipped samples.

use std::collections::HashMap;
use std::path::PathBuf;

use ovir::{CheckOptions, Error, Model, Tensor};

fn sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../ir-samples")
        .join(name)
}

#[test]
fn in_memory_model_equals_the_file() {
    let path = sample("transformer_block.xml");
    let xml = std::fs::read_to_string(&path).unwrap();
    let bin = std::fs::read(path.with_extension("bin")).unwrap();
    let from_memory = Model::from_memory(xml, Some(bin)).unwrap();
    let from_file = Model::open(&path).unwrap();
    let options = CheckOptions::default();
    assert_eq!(
        from_memory.check(&options).shape_report(),
        from_file.check(&options).shape_report()
    );
}

#[test]
fn symbols_replace_input_dims() {
    let mut model = Model::open(sample("transformer_block.xml")).unwrap();
    model.set_input_shape("x", "B,S,32").unwrap();
    let check = model.check(&CheckOptions::default());
    assert!(check.is_valid(), "{}", check.shape_report());
    let out = &check.outputs()[0];
    assert_eq!(out.dims_text().unwrap(), ["B", "S", "32"]);
    assert_eq!(out.static_dims(), None);
    assert_eq!(out.bounds().unwrap()[2], (Some(32), Some(32)));
    assert!(!out.is_declared());
    // Every layer is listed once, Parameters first in topological order.
    let layers: Vec<_> = check.layers().collect();
    assert_eq!(layers.len(), model.graph().node_count());
    assert_eq!(layers[0].type_name(), "Parameter");
    assert_eq!(
        check.layer("x").unwrap().outputs()[0].shape_text(),
        "[B, S, 32]"
    );
}

#[test]
fn an_unknown_input_is_an_error() {
    let mut model = Model::open(sample("transformer_block.xml")).unwrap();
    let error = model.set_input_shape("nope", "1,2,3").unwrap_err();
    assert!(matches!(error, Error::InputShape { .. }), "{error}");
    assert!(error.to_string().contains("nope"), "{error}");
}

#[test]
fn malformed_xml_is_a_read_error() {
    let error = Model::open(sample("broken/malformed.xml")).unwrap_err();
    assert!(matches!(error, Error::Read(_)), "{error}");
    let error = Model::open(sample("no_such_model.xml")).unwrap_err();
    assert!(matches!(error, Error::Read(_)), "{error}");
}

#[test]
fn an_invalid_model_does_not_run() {
    let model = Model::open(sample("broken/declared_shape_mismatch.xml")).unwrap();
    let check = model.check(&CheckOptions::default());
    assert!(!check.is_valid());
    let error = check.run(HashMap::new()).unwrap_err();
    assert!(
        matches!(error, Error::Invalid { errors } if errors > 0),
        "{error}"
    );
}

#[test]
fn run_errors_name_the_input() {
    let model = Model::open(sample("add_relu_static.xml")).unwrap();
    let check = model.check(&CheckOptions::default());
    let wrong = Tensor::from_vec(vec![2, 3], vec![0.0f32; 6]).unwrap();
    let error = check
        .run(HashMap::from([("input".to_string(), wrong)]))
        .unwrap_err();
    assert!(matches!(error, Error::Run(_)), "{error}");
    assert!(error.to_string().contains("input"), "{error}");
}

#[test]
fn unknown_ops_go_on_only_when_allowed() {
    let xml = std::fs::read_to_string(sample("add_relu_static.xml"))
        .unwrap()
        .replace("type=\"ReLU\"", "type=\"NoSuchOp\"");
    let bin = std::fs::read(sample("add_relu_static.bin")).unwrap();
    let model = Model::from_memory(xml, Some(bin)).unwrap();
    let strict = model.check(&CheckOptions::default());
    assert!(!strict.is_valid());
    assert!(strict.errors().any(|d| d.rule == "op-unknown"));
    let lenient = model.check(&CheckOptions {
        allow_unknown_ops: true,
        ..CheckOptions::default()
    });
    assert!(lenient.is_valid(), "{}", lenient.shape_report());
    let layer = lenient.layer("/stem/Relu").unwrap();
    assert!(layer.outputs()[0].is_declared());
    assert_eq!(layer.location().line, 54);
}

#[test]
fn one_spec_string_is_the_same_override() {
    let mut by_parts = Model::open(sample("transformer_block.xml")).unwrap();
    by_parts.set_input_shape("x", "B,S,32").unwrap();
    let mut by_spec = Model::open(sample("transformer_block.xml")).unwrap();
    by_spec.set_input_shape_spec("x=B,S,32").unwrap();
    let options = CheckOptions::default();
    assert_eq!(
        by_parts.check(&options).shape_report(),
        by_spec.check(&options).shape_report()
    );
    let error = by_spec.set_input_shape_spec("no equals sign").unwrap_err();
    assert!(
        matches!(&error, Error::InputShape { spec, .. } if spec == "no equals sign"),
        "{error}"
    );
}

#[test]
fn a_runner_runs_again_with_new_inputs() {
    let model = Model::open(sample("add_relu_static.xml")).unwrap();
    let check = model.check(&CheckOptions::default());
    let runner = check.runner().unwrap();
    for value in [-2.0f32, 3.0] {
        let x = Tensor::from_vec(vec![1, 3, 4, 4], vec![value; 48]).unwrap();
        let outputs = runner
            .run(HashMap::from([("input".to_string(), x)]))
            .unwrap();
        let y = outputs["output/sink_port_0"].to_vec::<f32>().unwrap();
        let once = check
            .run(HashMap::from([(
                "input".to_string(),
                Tensor::from_vec(vec![1, 3, 4, 4], vec![value; 48]).unwrap(),
            )]))
            .unwrap();
        assert_eq!(y, once["output/sink_port_0"].to_vec::<f32>().unwrap());
        assert!(y.iter().all(|&v| v >= 0.0));
    }
    let broken = Model::open(sample("broken/declared_shape_mismatch.xml")).unwrap();
    let error = broken.check(&CheckOptions::default()).runner().unwrap_err();
    assert!(matches!(error, Error::Invalid { .. }), "{error}");
}

#[test]
fn a_profiled_runner_returns_where_the_time_went() {
    let model = Model::open(sample("add_relu_static.xml")).unwrap();
    let check = model.check(&CheckOptions::default());
    assert!(check.runner().unwrap().profile().is_none());
    let runner = check.runner().unwrap().with_profiling();
    for _ in 0..2 {
        let x = Tensor::from_vec(vec![1, 3, 4, 4], vec![1.0f32; 48]).unwrap();
        runner
            .run(HashMap::from([("input".to_string(), x)]))
            .unwrap();
    }
    let profile = runner.profile().expect("profiled");
    // Every layer of the model, each called once a run.
    assert_eq!(profile.layers.len(), model.graph().node_count());
    assert!(profile.layers.iter().all(|l| l.calls == 2));
    assert!(profile.ops.iter().any(|o| o.op == "ReLU"));
    assert!(profile.to_string().starts_with("profile: "));
}
