//! ONNX's own backend node tests for Compress, Slice, Reshape, Where,
//! NonMaxSuppression, GridSample, RoiAlign, AveragePool, TopK, Tile, If,
//! Loop and QuantizeLinear (to u8, u16, i16, i4, u4, f8e4m3, f8e5m2), and
//! the low-precision ones of Cast, CastLike and DequantizeLinear
//! (inputs and outputs of f8, f4, i4, u4, e8m0 as their codes): every
//! case folder of `tests/onnx_node/` (written by
//! `scripts/gen_onnx_node_cases.py`) holds the case's ONNX model converted to
//! OpenVINO IR by `openvino.convert_model`, the case's inputs and the outputs
//! **ONNX** expects. Our executor runs the IR on those inputs; every output
//! must have the expected element type and shape, and equal values: exactly
//! for integers and booleans, within `1e-5 * max(1, |expected|)` for floats
//! (NaN matches NaN).
//!
//! Cases are never skipped silently: cases OpenVINO could not convert and
//! cases whose graph has an op without a kernel are printed, and the number
//! of cases actually compared must stay at least [`MIN_COMPARED`]. Known
//! disagreements are listed in [`KNOWN_DIFFERENCES`]; the set of mismatches
//! must equal that list exactly.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use executor::{
    convert, first_difference, parse_npy, read_npy, to_npy_bytes, ExecError, Executor, Tensor,
};
use ir::{ElementType, TensorBytes};

/// The number of cases compared: the generator collects 217 cases from onnx
/// 1.23.2 (it skips the If and Loop cases over sequences and optionals), of
/// which OpenVINO cannot convert the 4 volumetric (5-D) GridSample ones,
/// the 46 Casts from or to f8 FNUZ types and 2-bit integers, and 4
/// QuantizeLinear ones (to 2-bit integers and f4e2m1, and a blocked scale
/// it refuses).
/// Raise it if a newer onnx adds cases.
const MIN_COMPARED: usize = 163;

/// `(case, Result name or "(all)" when the run fails, text the mismatch
/// must contain, reason)` of every output where our executor does not
/// produce what ONNX expects. Fixing one makes the test fail until its entry
/// is removed; failing differently makes it fail too.
const KNOWN_DIFFERENCES: &[(&str, &str, &str, &str)] = &[
    (
        "test_quantizelinear_uint16",
        "y/sink_port_0",
        "index 2: 32768 vs expected 32769",
        "not an executor bug: OpenVINO's frontend makes QuantizeLinear a FakeQuantize over the zero-point-shifted range, which rounds x / scale + zero point half to even (1.5 + 32767 = 32768.5 to 32768); ONNX rounds x / scale first (1.5 to 2) and adds the zero point after (32769). OpenVINO's CPU plugin (openvino_cpu in case.json) gives 32768, as ours",
    ),
    (
        "test_cast_FLOAT16_to_FLOAT4E2M1",
        "output/sink_port_0",
        "index 8: 7 vs expected 8",
        "not an executor bug: a NaN cast to f4e2m1 (no NaN in the type) is -0 for ONNX (ml_dtypes) and 6 for OpenVINO's Convert on its CPU plugin (case.json's openvino_cpu records the same difference), as ours",
    ),
    (
        "test_cast_FLOAT16_to_FLOAT8E4M3FN",
        "output/sink_port_0",
        "index 6: 127 vs expected 126",
        "not an executor bug: ONNX's Cast saturates (saturate=1) values past 448 to 448; OpenVINO's frontend makes it a Convert, which the CPU plugin (openvino_cpu in case.json) and ours turn into NaN",
    ),
    (
        "test_cast_FLOAT16_to_FLOAT8E5M2",
        "output/sink_port_0",
        "index 6: 124 vs expected 123",
        "not an executor bug: ONNX's Cast saturates (saturate=1) values past 57344 to 57344; OpenVINO's frontend makes it a Convert, which the CPU plugin (openvino_cpu in case.json) and ours turn into infinity",
    ),
    (
        "test_cast_FLOAT_to_FLOAT4E2M1",
        "output/sink_port_0",
        "index 8: 7 vs expected 8",
        "not an executor bug: a NaN cast to f4e2m1 (no NaN in the type) is -0 for ONNX (ml_dtypes) and 6 for OpenVINO's Convert on its CPU plugin (case.json's openvino_cpu records the same difference), as ours",
    ),
    (
        "test_cast_FLOAT_to_FLOAT8E4M3FN",
        "output/sink_port_0",
        "index 6: 127 vs expected 126",
        "not an executor bug: ONNX's Cast saturates (saturate=1) values past 448 to 448; OpenVINO's frontend makes it a Convert, which the CPU plugin (openvino_cpu in case.json) and ours turn into NaN",
    ),
    (
        "test_cast_FLOAT_to_FLOAT8E5M2",
        "output/sink_port_0",
        "index 6: 124 vs expected 123",
        "not an executor bug: ONNX's Cast saturates (saturate=1) values past 57344 to 57344; OpenVINO's frontend makes it a Convert, which the CPU plugin (openvino_cpu in case.json) and ours turn into infinity",
    ),
    (
        "test_cast_e8m0_FLOAT16_to_FLOAT8E8M0",
        "output/sink_port_0",
        "index 4: 127 vs expected 128",
        "not an executor bug: ONNX's Cast to e8m0 rounds up (round_mode=\"up\"); OpenVINO's Convert rounds to the nearest power of two on its CPU plugin (openvino_cpu in case.json), as ours",
    ),
    (
        "test_cast_e8m0_FLOAT_to_FLOAT8E8M0",
        "output/sink_port_0",
        "index 4: 127 vs expected 128",
        "not an executor bug: ONNX's Cast to e8m0 rounds up (round_mode=\"up\"); OpenVINO's Convert rounds to the nearest power of two on its CPU plugin (openvino_cpu in case.json), as ours",
    ),
    (
        "test_castlike_FLOAT16_to_FLOAT4E2M1",
        "output/sink_port_0",
        "index 8: 7 vs expected 8",
        "not an executor bug: a NaN cast to f4e2m1 (no NaN in the type) is -0 for ONNX (ml_dtypes) and 6 for OpenVINO's Convert on its CPU plugin (case.json's openvino_cpu records the same difference), as ours",
    ),
    (
        "test_castlike_FLOAT16_to_FLOAT8E4M3FN",
        "output/sink_port_0",
        "index 6: 127 vs expected 126",
        "not an executor bug: ONNX's Cast saturates (saturate=1) values past 448 to 448; OpenVINO's frontend makes it a Convert, which the CPU plugin (openvino_cpu in case.json) and ours turn into NaN",
    ),
    (
        "test_castlike_FLOAT16_to_FLOAT8E5M2",
        "output/sink_port_0",
        "index 6: 124 vs expected 123",
        "not an executor bug: ONNX's Cast saturates (saturate=1) values past 57344 to 57344; OpenVINO's frontend makes it a Convert, which the CPU plugin (openvino_cpu in case.json) and ours turn into infinity",
    ),
    (
        "test_castlike_FLOAT_to_FLOAT4E2M1",
        "output/sink_port_0",
        "index 8: 7 vs expected 8",
        "not an executor bug: a NaN cast to f4e2m1 (no NaN in the type) is -0 for ONNX (ml_dtypes) and 6 for OpenVINO's Convert on its CPU plugin (case.json's openvino_cpu records the same difference), as ours",
    ),
    (
        "test_castlike_FLOAT_to_FLOAT8E4M3FN",
        "output/sink_port_0",
        "index 6: 127 vs expected 126",
        "not an executor bug: ONNX's Cast saturates (saturate=1) values past 448 to 448; OpenVINO's frontend makes it a Convert, which the CPU plugin (openvino_cpu in case.json) and ours turn into NaN",
    ),
    (
        "test_castlike_FLOAT_to_FLOAT8E5M2",
        "output/sink_port_0",
        "index 6: 124 vs expected 123",
        "not an executor bug: ONNX's Cast saturates (saturate=1) values past 57344 to 57344; OpenVINO's frontend makes it a Convert, which the CPU plugin (openvino_cpu in case.json) and ours turn into infinity",
    ),
    // (The 8 Slice cases, whose starts and ends convert_model makes
    // Parameters, once failed: the executor now reruns Slice's shape rule on
    // the run's values.)
    (
        "test_gridsample_bicubic",
        "Y/sink_port_0",
        "index 0: -0.140625 vs expected -0.14059999585151672",
        "not an executor bug: ONNX writes this case's expected output by hand \
         to 4 decimals (-0.1406, 0.3828, ...); the exact bicubic values are \
         -0.140625, 0.3828125, ..., which ours and OpenVINO's CPU plugin give",
    ),
    (
        "test_averagepool_2d_ceil_last_window_starts_on_pad",
        "y/sink_port_0",
        "index 0: 0.15105554461479187 vs expected 0.15109999477863312",
        "not an executor bug: ONNX writes this case's expected output rounded \
         to 4 decimals; ours equals OpenVINO's CPU plugin",
    ),
    (
        "test_nonmaxsuppression_iou_threshold_boundary",
        "selected_indices/sink_port_0",
        "shape: [1, 3] vs expected [2, 3]",
        "not an executor bug: two boxes whose IoU equals the threshold. ONNX \
         suppresses above the threshold and keeps both; OpenVINO's CPU plugin \
         suppresses at or above it and keeps one, as ours (the conformance \
         goldens' reference)",
    ),
    (
        "test_roialign_aligned_false",
        "Y/sink_port_0",
        "index 0: 0.4664214253425598 vs expected 0.46639999747276306",
        "not an executor bug: ONNX writes this case's expected output by hand \
         to 4 decimals (0.4664, ...); OpenVINO's CPU plugin gives 0.46642143 \
         as ours",
    ),
    (
        "test_roialign_aligned_true",
        "Y/sink_port_0",
        "index 0: 0.517782986164093 vs expected 0.517799973487854",
        "not an executor bug: ONNX writes this case's expected output by hand \
         to 4 decimals (0.5178, ...); OpenVINO's CPU plugin gives 0.51778305 \
         as ours",
    ),
    (
        "test_roialign_mode_max",
        "Y/sink_port_0",
        "index 0: 0.567097008228302 vs expected 0.3445228040218353",
        "not an executor bug: ONNX's max mode takes the maximum of the four \
         weighted corners of each sample, OpenVINO's the maximum of the \
         bilinear samples; OpenVINO's CPU plugin gives 0.567097 as ours",
    ),
];

// ---------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------

enum Outcome {
    /// Compared; the mismatches as `(Result name, description)`.
    Compared(Vec<(String, String)>),
    /// The graph has an op without a kernel.
    NoKernel(String),
    /// OpenVINO could not convert the ONNX model.
    NotConverted(String),
}

/// A case's array: bf16 arrays are stored as `<f4` (exact) and listed in
/// `bf16`.
fn read_array(dir: &Path, file: &str, meta: &Value) -> Tensor {
    let t = read_npy(&dir.join(file)).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let bf16 = meta
        .get("bf16")
        .and_then(Value::as_array)
        .is_some_and(|files| files.iter().any(|f| f.as_str() == Some(file)));
    if bf16 {
        assert_eq!(t.element_type, ElementType::F32, "{file} stores a bf16");
        let b = convert(&t, ElementType::BF16).unwrap();
        // The conversion must be exact, or the file was not a bf16.
        assert_eq!(convert(&b, ElementType::F32).unwrap().bytes(), t.bytes());
        b
    } else {
        t
    }
}

/// Whether `file` is in the `case.json` list `key` (absent: no).
fn listed(meta: &Value, key: &str, file: &str) -> bool {
    meta.get(key)
        .and_then(Value::as_array)
        .is_some_and(|files| files.iter().any(|f| f.as_str() == Some(file)))
}

/// `file -> name` pairs of a `case.json` map.
fn files<'a>(meta: &'a Value, key: &str) -> Vec<(&'a str, &'a str)> {
    let map = meta
        .get(key)
        .and_then(Value::as_object)
        .unwrap_or_else(|| panic!("case.json has no `{key}`"));
    let pairs: Vec<_> = map
        .iter()
        .map(|(f, n)| (f.as_str(), n.as_str().expect("a name")))
        .collect();
    assert!(!pairs.is_empty(), "case.json: `{key}` is empty");
    pairs
}

fn run_case(dir: &Path) -> Outcome {
    let text = std::fs::read_to_string(dir.join("case.json")).unwrap();
    let meta =
        serde_json::from_str::<Value>(&text).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    if let Some(e) = meta.get("openvino_error") {
        let stage = e.get("stage").and_then(Value::as_str).unwrap_or("?");
        let msg = e.get("message").and_then(Value::as_str).unwrap_or("?");
        return Outcome::NotConverted(format!("OpenVINO failed at {stage}: {msg}"));
    }
    let model_path = dir.join("model.xml");
    let model = ir_xml::read_model(&model_path, None)
        .unwrap_or_else(|e| panic!("{}: {e}", model_path.display()));
    let exec = match Executor::new(&model.graph) {
        Ok(e) => e,
        Err(ExecError::NoKernel { op, .. }) => return Outcome::NoKernel(op),
        Err(e) => {
            return Outcome::Compared(vec![("(all)".into(), format!("Executor::new: {e}"))]);
        }
    };
    let inputs: HashMap<String, Tensor> = files(&meta, "inputs")
        .into_iter()
        .map(|(file, name)| (name.to_owned(), read_array(dir, file, &meta)))
        .collect();
    let mut ours = match exec.run(inputs) {
        Ok(o) => o,
        Err(ExecError::NoKernel { op, .. }) => return Outcome::NoKernel(op),
        Err(e) => return Outcome::Compared(vec![("(all)".into(), format!("run: {e}"))]),
    };
    let mut mismatches = Vec::new();
    for (file, name) in files(&meta, "outputs") {
        let expected = read_array(dir, file, &meta);
        match ours.remove(name) {
            None => mismatches.push((name.to_owned(), "no such output in ours".to_owned())),
            Some(t) => {
                // A type numpy has no dtype for: compared code for code, as
                // `ir-check --run` writes it.
                let t = if listed(&meta, "codes", file) {
                    parse_npy(TensorBytes::from_vec(to_npy_bytes(&t).unwrap())).unwrap()
                } else {
                    t
                };
                if let Some(d) = first_difference(&t, &expected, 1e-5) {
                    mismatches.push((name.to_owned(), d));
                }
            }
        }
    }
    for name in ours.keys() {
        mismatches.push((name.clone(), "an output the case does not expect".into()));
    }
    Outcome::Compared(mismatches)
}

#[test]
fn executor_matches_onnx_node_tests() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/onnx_node");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&base)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in &dirs {
        assert!(
            dir.join("case.json").is_file(),
            "{} has no case.json",
            dir.display()
        );
    }

    let mut compared = Vec::new();
    let mut no_kernel: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut not_converted = Vec::new();
    let mut mismatches: BTreeMap<(String, String), String> = BTreeMap::new();
    for dir in &dirs {
        let case = dir.file_name().unwrap().to_string_lossy().to_string();
        match run_case(dir) {
            Outcome::Compared(m) => {
                compared.push(case.clone());
                for (output, what) in m {
                    mismatches.insert((case.clone(), output), what);
                }
            }
            Outcome::NoKernel(op) => no_kernel.entry(op).or_default().push(case),
            Outcome::NotConverted(why) => not_converted.push(format!("{case}: {why}")),
        }
    }

    let differing: BTreeSet<&String> = mismatches.keys().map(|(case, _)| case).collect();
    println!(
        "{} cases, {} compared, {} match ONNX's expected outputs",
        dirs.len(),
        compared.len(),
        compared.len() - differing.len()
    );
    println!("not compared, op without a kernel:");
    for (op, cases) in &no_kernel {
        println!("  {op}: {}", cases.join(", "));
    }
    println!("not compared, OpenVINO could not convert:");
    for line in &not_converted {
        println!("  {line}");
    }

    let known: BTreeMap<(String, String), (&str, &str)> = KNOWN_DIFFERENCES
        .iter()
        .map(|(c, o, text, why)| ((c.to_string(), o.to_string()), (*text, *why)))
        .collect();
    assert_eq!(known.len(), KNOWN_DIFFERENCES.len(), "a repeated entry");
    let mut report = String::new();
    for ((case, output), what) in &mismatches {
        match known.get(&(case.clone(), output.clone())) {
            None => report.push_str(&format!("  new mismatch: {case} / {output}: {what}\n")),
            Some((text, _)) if !what.contains(text) => report.push_str(&format!(
                "  known mismatch changed: {case} / {output}: {what} (expected it to contain {text:?})\n"
            )),
            Some(_) => println!("known difference: {case} / {output}: {what}"),
        }
    }
    let found: BTreeSet<_> = mismatches.keys().cloned().collect();
    for ((case, output), (_, why)) in &known {
        if !found.contains(&(case.clone(), output.clone())) {
            report.push_str(&format!(
                "  listed in KNOWN_DIFFERENCES but now matches (or was not compared): {case} / {output} ({why})\n"
            ));
        }
    }
    assert!(
        report.is_empty(),
        "executor vs ONNX's expected outputs:\n{report}"
    );
    assert!(
        compared.len() >= MIN_COMPARED,
        "only {} cases compared, the floor is {MIN_COMPARED}",
        compared.len()
    );
}
