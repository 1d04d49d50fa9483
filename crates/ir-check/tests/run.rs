//! `ir-check --run`: inputs from `.npy`, outputs written as `.npy`, errors
//! before anything runs.

use std::path::{Path, PathBuf};
use std::process::Command;

use executor::Tensor;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn ir_check(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_ir-check"))
        .current_dir(workspace_root())
        .args(args)
        .output()
        .expect("ir-check runs");
    (
        output.status.code().expect("exited"),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A fresh directory, removed with everything in it when the returned
/// guard drops (also when the test fails).
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("ir-check-run-{name}-"))
        .tempdir()
        .expect("temp dir")
}

fn f32_tensor(shape: &[usize]) -> Tensor {
    let count: usize = shape.iter().product();
    let values: Vec<f32> = (0..count).map(|i| i as f32 * 0.5 - 3.0).collect();
    Tensor::from_vec(shape.to_vec(), values).expect("a tensor")
}

#[test]
fn a_reshape_writes_the_input_elements_under_the_result_name() {
    let scratch = temp_dir("reshape");
    let dir = scratch.path();
    let input = dir.join("x.npy");
    let x = f32_tensor(&[2, 3, 8, 5]);
    executor::write_npy(&input, &x).expect("writes");
    let out_dir = dir.join("out");
    let (status, stdout, stderr) = ir_check(&[
        "ir-samples/dynamic_batch_reshape.xml",
        "--run",
        "--input",
        &format!("x={}", input.display()),
        "--output-dir",
        &out_dir.display().to_string(),
    ]);
    assert_eq!(status, 0, "{stderr}");
    assert!(stdout.contains("run: wrote 1 output(s)"), "{stdout}");
    // The Result layer is `y/sink_port_0`: `/` becomes `_`.
    let y = executor::read_npy(&out_dir.join("y_sink_port_0.npy")).expect("the output");
    assert_eq!(y.shape, [2, 120]);
    assert_eq!(
        y.to_vec::<f32>().expect("f32"),
        x.to_vec::<f32>().expect("f32")
    );
}

#[test]
fn a_missing_input_is_a_usage_error_before_anything_runs() {
    let scratch = temp_dir("missing");
    let dir = scratch.path();
    let (status, _, stderr) = ir_check(&[
        "ir-samples/dynamic_batch_reshape.xml",
        "--run",
        "--output-dir",
        &dir.display().to_string(),
    ]);
    assert_eq!(status, 2);
    assert!(stderr.contains("x"), "{stderr}");
    assert_eq!(
        std::fs::read_dir(dir).expect("dir").count(),
        0,
        "nothing was written"
    );
}

#[test]
fn a_wrong_dtype_or_a_contradicting_dim_is_a_usage_error() {
    let scratch = temp_dir("dtype");
    let dir = scratch.path();
    let wrong_type = dir.join("i32.npy");
    let ints = Tensor::from_vec(vec![2, 3, 8, 5], vec![0i32; 240]).expect("a tensor");
    executor::write_npy(&wrong_type, &ints).expect("writes");
    let wrong_dim = dir.join("dim.npy");
    executor::write_npy(&wrong_dim, &f32_tensor(&[2, 4, 8, 5])).expect("writes");
    for file in [wrong_type, wrong_dim] {
        let (status, _, stderr) = ir_check(&[
            "ir-samples/dynamic_batch_reshape.xml",
            "--run",
            "--input",
            &format!("x={}", file.display()),
            "--output-dir",
            &dir.join("out").display().to_string(),
        ]);
        assert_eq!(status, 2, "{stderr}");
        assert!(stderr.contains("--run"), "{stderr}");
    }
    let (status, _, stderr) = ir_check(&[
        "ir-samples/dynamic_batch_reshape.xml",
        "--run",
        "--input",
        "x=/no/such/file.npy",
    ]);
    assert_eq!(status, 2, "{stderr}");
}

#[test]
fn json_reports_what_the_run_wrote() {
    let scratch = temp_dir("json");
    let dir = scratch.path();
    let input = dir.join("x.npy");
    executor::write_npy(&input, &f32_tensor(&[1, 3, 4, 4])).expect("writes");
    let (status, stdout, stderr) = ir_check(&[
        "ir-samples/add_relu_static.xml",
        "--format",
        "json",
        "--run",
        "--input",
        &format!("input={}", input.display()),
        "--output-dir",
        &dir.join("out").display().to_string(),
    ]);
    assert_eq!(status, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    let outputs = report["run"]["outputs"].as_array().expect("run outputs");
    assert_eq!(outputs.len(), 1);
    assert_eq!(outputs[0]["element_type"], "f32");
    assert_eq!(outputs[0]["shape"], serde_json::json!([1, 3, 4, 4]));
    let written =
        executor::read_npy(Path::new(outputs[0]["file"].as_str().expect("path"))).expect("reads");
    assert!(
        written
            .to_vec::<f32>()
            .expect("f32")
            .iter()
            .all(|v| *v >= 0.0),
        "ReLU output"
    );
}

/// A model written to `dir` as `name.xml` (+ `name.bin` holding `bin`).
fn write_model(dir: &Path, name: &str, xml: &str, bin: &[u8]) -> String {
    std::fs::write(dir.join(format!("{name}.bin")), bin).expect("writes");
    let path = dir.join(format!("{name}.xml"));
    std::fs::write(&path, xml).expect("writes");
    path.display().to_string()
}

fn dims(dims: &[u64]) -> String {
    dims.iter().map(|d| format!("<dim>{d}</dim>")).collect()
}

#[test]
fn a_size_written_in_the_file_is_refused_before_it_is_allocated() {
    // Broadcast of one f32 to [2^20, 2^20, 2^10]: 2^52 bytes, a valid model.
    let scratch = temp_dir("huge-broadcast");
    let dir = scratch.path();
    let target: [u64; 3] = [1 << 20, 1 << 20, 1 << 10];
    let mut bin = 1.0f32.to_le_bytes().to_vec();
    for d in target {
        bin.extend_from_slice(&(d as i64).to_le_bytes());
    }
    let xml = format!(
        r#"<?xml version="1.0"?>
<net name="huge" version="11">
  <layers>
    <layer id="0" name="x" type="Const" version="opset1">
      <data element_type="f32" shape="1" offset="0" size="4"/>
      <output><port id="0" precision="FP32">{one}</port></output>
    </layer>
    <layer id="1" name="t" type="Const" version="opset1">
      <data element_type="i64" shape="3" offset="4" size="24"/>
      <output><port id="0" precision="I64">{three}</port></output>
    </layer>
    <layer id="2" name="b" type="Broadcast" version="opset3">
      <input><port id="0">{one}</port><port id="1">{three}</port></input>
      <output><port id="2" precision="FP32">{big}</port></output>
    </layer>
    <layer id="3" name="out" type="Result" version="opset1">
      <input><port id="0">{big}</port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
  </edges>
</net>
"#,
        one = dims(&[1]),
        three = dims(&[3]),
        big = dims(&target),
    );
    let model = write_model(dir, "huge", &xml, &bin);
    let (status, _, stderr) = ir_check(&[&model]);
    assert_eq!(status, 0, "the model itself is valid: {stderr}");
    let out_dir = dir.join("out").display().to_string();
    let (status, _, stderr) = ir_check(&[&model, "--run", "--output-dir", &out_dir]);
    assert_eq!(status, 1, "{stderr}");
    assert!(
        stderr.contains("layer `b` (Broadcast): output 0 would need 4503599627370496 bytes"),
        "{stderr}"
    );
}

#[test]
fn an_empty_input_with_a_vast_dim_runs_at_once() {
    // A SoftMax over [2^40, 0]: nothing to compute, and nothing walks 2^40 rows.
    let scratch = temp_dir("vast-empty");
    let dir = scratch.path();
    let xml = r#"<?xml version="1.0"?>
<net name="vast" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="?,?"/>
      <output><port id="0" precision="FP32"><dim>-1</dim><dim>-1</dim></port></output>
    </layer>
    <layer id="1" name="s" type="SoftMax" version="opset8">
      <data axis="1"/>
      <input><port id="0"><dim>-1</dim><dim>-1</dim></port></input>
      <output><port id="1" precision="FP32"><dim>-1</dim><dim>-1</dim></port></output>
    </layer>
    <layer id="2" name="out" type="Result" version="opset1">
      <input><port id="0"><dim>-1</dim><dim>-1</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
    <edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
  </edges>
</net>
"#;
    let model = write_model(dir, "vast", xml, &[]);
    let input = dir.join("x.npy");
    let x = Tensor::from_vec(vec![1 << 40, 0], Vec::<f32>::new()).expect("empty");
    executor::write_npy(&input, &x).expect("writes");
    let out_dir = dir.join("out");
    let (status, _, stderr) = ir_check(&[
        &model,
        "--run",
        "--input",
        &format!("x={}", input.display()),
        "--output-dir",
        &out_dir.display().to_string(),
    ]);
    assert_eq!(status, 0, "{stderr}");
    let y = executor::read_npy(&out_dir.join("out.npy")).expect("the output");
    assert_eq!(y.shape, [1 << 40, 0]);
}

#[test]
fn repeat_prints_one_latency_line_and_writes_the_outputs_once() {
    let scratch = temp_dir("repeat");
    let dir = scratch.path();
    let input = dir.join("x.npy");
    executor::write_npy(&input, &f32_tensor(&[2, 3, 8, 5])).expect("writes");
    let out_dir = dir.join("out");
    let (status, stdout, stderr) = ir_check(&[
        "ir-samples/dynamic_batch_reshape.xml",
        "--run",
        "--input",
        &format!("x={}", input.display()),
        "--output-dir",
        &out_dir.display().to_string(),
        "--repeat",
        "3",
        "--threads",
        "1",
    ]);
    assert_eq!(status, 0, "{stderr}");
    assert!(stdout.contains("run: wrote 1 output(s)"), "{stdout}");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("latency_ms:"))
        .collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    let fields: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(fields[0], "latency_ms:");
    let value = |key: &str| -> f64 {
        let field = fields.iter().find(|f| f.starts_with(key)).expect(key);
        field[key.len()..].parse().expect("a number")
    };
    assert!(value("min=") <= value("median=") && value("median=") <= value("max="));
    assert!(lines[0].ends_with("runs=3 threads=1"), "{}", lines[0]);
}

/// `ir-check --run` of dynamic_batch_reshape.xml with `extra` arguments and
/// `OVIR_PROFILE` set to `env` (or removed): the status and stderr.
fn run_profiled(name: &str, extra: &[&str], env: Option<&str>) -> (i32, String) {
    let scratch = temp_dir(name);
    let dir = scratch.path();
    let input = dir.join("x.npy");
    executor::write_npy(&input, &f32_tensor(&[2, 3, 8, 5])).expect("writes");
    let input = format!("x={}", input.display());
    let out_dir = dir.join("out").display().to_string();
    let mut args = vec![
        "ir-samples/dynamic_batch_reshape.xml",
        "--run",
        "--input",
        &input,
        "--output-dir",
        &out_dir,
    ];
    args.extend_from_slice(extra);
    let mut command = Command::new(env!("CARGO_BIN_EXE_ir-check"));
    command.current_dir(workspace_root()).args(&args);
    match env {
        Some(value) => command.env("OVIR_PROFILE", value),
        None => command.env_remove("OVIR_PROFILE"),
    };
    let output = command.output().expect("ir-check runs");
    (
        output.status.code().expect("exited"),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The `profile layer` lines of a stderr.
fn profile_layers(stderr: &str) -> usize {
    stderr
        .lines()
        .filter(|l| l.starts_with("profile layer "))
        .count()
}

#[test]
fn profile_prints_the_op_types_and_the_slowest_layers_when_asked() {
    // `--profile 1`: the total, one line per op type, one layer.
    let (status, stderr) = run_profiled("profile-flag", &["--profile", "1", "--repeat", "2"], None);
    assert_eq!(status, 0, "{stderr}");
    assert!(
        stderr.lines().any(|l| l.starts_with("profile: ")),
        "{stderr}"
    );
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("profile op Reshape: ")),
        "{stderr}"
    );
    assert_eq!(profile_layers(&stderr), 1, "{stderr}");
    // Each layer ran three times (the run and two repeats).
    assert!(stderr.contains(", 3 calls"), "{stderr}");
    // The variable asks the same; the flag wins over it.
    let (status, stderr) = run_profiled("profile-env", &[], Some("2"));
    assert_eq!(status, 0, "{stderr}");
    assert_eq!(profile_layers(&stderr), 2, "{stderr}");
    let (_, stderr) = run_profiled("profile-both", &["--profile", "1"], Some("2"));
    assert_eq!(profile_layers(&stderr), 1, "{stderr}");
    // Neither: no profile.
    let (status, stderr) = run_profiled("profile-none", &[], None);
    assert_eq!(status, 0, "{stderr}");
    assert!(!stderr.contains("profile"), "{stderr}");
}

#[test]
fn repeat_threads_and_profile_need_run_and_threads_is_positive() {
    let (status, _, stderr) = ir_check(&["ir-samples/dynamic_batch_reshape.xml", "--repeat", "2"]);
    assert_eq!(status, 2, "{stderr}");
    let (status, _, stderr) = ir_check(&["ir-samples/dynamic_batch_reshape.xml", "--profile", "2"]);
    assert_eq!(status, 2, "{stderr}");
    let (status, _, stderr) = ir_check(&[
        "ir-samples/dynamic_batch_reshape.xml",
        "--run",
        "--threads",
        "0",
    ]);
    assert_eq!(status, 2, "{stderr}");
}

#[test]
fn repeat_keeps_a_stateful_models_variables_and_says_so() {
    let scratch = temp_dir("state");
    let dir = scratch.path();
    let x = dir.join("x.npy");
    let y = dir.join("y.npy");
    executor::write_npy(&x, &f32_tensor(&[2, 3])).expect("writes");
    executor::write_npy(&y, &f32_tensor(&[2, 3])).expect("writes");
    let out_dir = dir.join("out");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "crates/shape-infer/tests/golden/state_variables.xml".to_owned(),
            "--run".into(),
            "--input".into(),
            format!("x={}", x.display()),
            "--input".into(),
            format!("y={}", y.display()),
            "--output-dir".into(),
            out_dir.display().to_string(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ir_check(&args)
    };
    let (status, stdout, stderr) = run(&["--repeat", "2", "--threads", "1"]);
    assert_eq!(status, 0, "{stderr}");
    assert!(
        stdout.contains(
            "state: variable(s) `acc`, `count`, `hist`, `steps`, `v3` kept from each run \
             to the next over 3 runs (--repeat 2); the outputs are the first run's"
        ),
        "{stdout}"
    );
    // The history grows by x's 2 rows a run: the first run's output is written.
    let hist = executor::read_npy(&out_dir.join("hist.npy")).expect("the output");
    assert_eq!(hist.shape, [2, 3]);
    let (status, stdout, stderr) = run(&["--format", "json"]);
    assert_eq!(status, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(report["run"]["state"]["runs"], 1, "{stdout}");
    assert_eq!(report["run"]["state"]["variables"][2], "hist", "{stdout}");
}

/// A failure inside a body at run time is a diagnostic like the checker's:
/// the body layer under the Loop that owns it, its XML line, the iteration.
/// (`loop_gather_rows` gathers row `it` of a three-row table: the fourth
/// iteration of five reads past its end.)
#[test]
fn a_failure_inside_a_body_names_the_body_layer_its_line_and_the_iteration() {
    let scratch = temp_dir("in-body");
    let dir = scratch.path();
    let trip = dir.join("trip.npy");
    let table = dir.join("table.npy");
    executor::write_npy(&trip, &Tensor::scalar(5i64)).expect("writes");
    executor::write_npy(&table, &f32_tensor(&[3, 2])).expect("writes");
    let (status, stdout, stderr) = ir_check(&[
        "ir-samples/bodies/loop_gather_rows.xml",
        "--run",
        "--input",
        &format!("trip={}", trip.display()),
        "--input",
        &format!("table={}", table.display()),
        "--output-dir",
        &dir.display().to_string(),
    ]);
    assert_eq!(status, 1, "{stdout}{stderr}");
    insta::assert_snapshot!("run_failure_in_body", stderr);
    // Three iterations read the three rows.
    executor::write_npy(&trip, &Tensor::scalar(3i64)).expect("writes");
    let (status, stdout, stderr) = ir_check(&[
        "ir-samples/bodies/loop_gather_rows.xml",
        "--run",
        "--input",
        &format!("trip={}", trip.display()),
        "--input",
        &format!("table={}", table.display()),
        "--output-dir",
        &dir.display().to_string(),
    ]);
    assert_eq!(status, 0, "{stdout}{stderr}");
}

#[test]
fn low_precision_inputs_and_outputs_travel_as_codes() {
    // x: f8e4m3 [5] -> Convert to i4 -> `q`; x -> Concat(x, x) -> `twice`.
    let scratch = temp_dir("low-precision");
    let dir = scratch.path();
    let five = dims(&[5]);
    let ten = dims(&[10]);
    let xml = format!(
        r#"<?xml version="1.0"?>
<net name="low" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data element_type="f8e4m3" shape="5"/>
      <output><port id="0" precision="F8E4M3">{five}</port></output>
    </layer>
    <layer id="1" name="c" type="Convert" version="opset1">
      <data destination_type="i4"/>
      <input><port id="0">{five}</port></input>
      <output><port id="1" precision="I4">{five}</port></output>
    </layer>
    <layer id="2" name="q" type="Result" version="opset1">
      <input><port id="0">{five}</port></input>
    </layer>
    <layer id="3" name="cat" type="Concat" version="opset1">
      <data axis="0"/>
      <input><port id="0">{five}</port><port id="1">{five}</port></input>
      <output><port id="2" precision="F8E4M3">{ten}</port></output>
    </layer>
    <layer id="4" name="twice" type="Result" version="opset1">
      <input><port id="0">{ten}</port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
    <edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
    <edge from-layer="0" from-port="0" to-layer="3" to-port="0"/>
    <edge from-layer="0" from-port="0" to-layer="3" to-port="1"/>
    <edge from-layer="3" from-port="2" to-layer="4" to-port="0"/>
  </edges>
</net>
"#
    );
    let model = write_model(dir, "low", &xml, &[]);
    // f8e4m3 codes: 1.0, -2.0, 448, 7.5 (0x4F), -0.5; as `np.save` writes
    // `arr.view(np.uint8)` of an ml_dtypes.float8_e4m3fn array.
    let codes = vec![0x38u8, 0xC0, 0x7E, 0x4F, 0xB0];
    let input = dir.join("x.npy");
    let x = Tensor::from_vec(vec![5], codes.clone()).expect("u8 codes");
    executor::write_npy(&input, &x).expect("writes");
    let out_dir = dir.join("out");
    let (status, stdout, stderr) = ir_check(&[
        &model,
        "--format",
        "json",
        "--run",
        "--input",
        &format!("x={}", input.display()),
        "--output-dir",
        &out_dir.display().to_string(),
    ]);
    assert_eq!(status, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    let outputs = report["run"]["outputs"].as_array().expect("run outputs");
    let types: Vec<&str> = outputs
        .iter()
        .map(|o| o["element_type"].as_str().expect("a type"))
        .collect();
    assert_eq!(types, ["i4", "f8e4m3"]);
    // i4 codes one a byte: 1, -2 (14), 448 (low bits 0), 7, 0.
    let q = executor::read_npy(&out_dir.join("q.npy")).expect("q");
    assert_eq!(
        (q.shape.as_slice(), q.bytes()),
        (&[5][..], &[1u8, 14, 0, 7, 0][..])
    );
    let twice = executor::read_npy(&out_dir.join("twice.npy")).expect("twice");
    assert_eq!(twice.bytes(), [codes.clone(), codes].concat());
    // An f32 array for the f8e4m3 Parameter is a usage error.
    executor::write_npy(&input, &f32_tensor(&[5])).expect("writes");
    let (status, _, stderr) = ir_check(&[
        &model,
        "--run",
        "--input",
        &format!("x={}", input.display()),
        "--output-dir",
        &out_dir.display().to_string(),
    ]);
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains("f8e4m3"), "{stderr}");
}

/// `--precision`: the sample's f16 `Add` of a Parameter and a Const, then
/// a Convert to f32. `plugin` (the default) computes the Add in f32 as
/// OpenVINO's CPU plugin does (its output is the conformance golden);
/// `exact` rounds the Add to f16 first.
#[test]
fn precision_plugin_computes_f16_in_f32_and_exact_rounds_each_layer() {
    let case = workspace_root().join("crates/executor/tests/conformance/sample_scalar_and_types");
    let golden = executor::read_npy(&case.join("out_half_as_f32_sink_port_0.npy")).expect("golden");
    let golden = golden.to_vec::<f32>().expect("f32");
    let inputs: Vec<String> = ["flags", "half", "indices", "pixels", "scale"]
        .iter()
        .map(|n| format!("{n}={}", case.join(format!("in_{n}.npy")).display()))
        .collect();
    let run = |precision: Option<&str>| {
        let scratch = temp_dir(&format!("precision-{}", precision.unwrap_or("default")));
        let dir = scratch.path();
        let out = dir.display().to_string();
        let mut args = vec![
            "ir-samples/scalar_and_types.xml",
            "--run",
            "--output-dir",
            &out,
        ];
        for i in &inputs {
            args.extend(["--input", i]);
        }
        if let Some(p) = precision {
            args.extend(["--precision", p]);
        }
        let (status, _, stderr) = ir_check(&args);
        assert_eq!(status, 0, "{stderr}");
        let t = executor::read_npy(&dir.join("half_as_f32_sink_port_0.npy")).expect("output");
        t.to_vec::<f32>().expect("f32")
    };
    assert_eq!(run(None), golden);
    assert_eq!(run(Some("plugin")), golden);
    let exact = run(Some("exact"));
    let rounded: Vec<f32> = golden
        .iter()
        .map(|&v| half::f16::from_f32(v).to_f32())
        .collect();
    assert_ne!(rounded, golden, "the golden must tell the policies apart");
    assert_eq!(exact, rounded);
    let (status, _, stderr) = ir_check(&[
        "ir-samples/scalar_and_types.xml",
        "--run",
        "--precision",
        "f8",
    ]);
    assert_eq!(status, 2, "{stderr}");
}
