//! The precision policies (`executor::Precision`) on tiny f16 graphs whose
//! values differ between f32 compute with one rounding at the Result (the
//! CPU plugin's, `Plugin`) and rounding after every layer (`Exact`). What the
//! plugin does is measured by `scripts/probe_cpu_precision.py`
//! (docs/architecture.md, "f16 and bf16 models").

mod common;

use std::collections::HashMap;

use common::Net;
use executor::{Executor, Precision, Tensor};
use half::{bf16, f16};
use ir::ElementType;

fn halves(values: &[f32]) -> Tensor {
    let v: Vec<f16> = values.iter().map(|&x| f16::from_f32(x)).collect();
    Tensor::from_vec(vec![v.len()], v).unwrap()
}

fn run(net: &Net, precision: Precision, inputs: &[(&str, Tensor)]) -> HashMap<String, Tensor> {
    let exec = Executor::with_precision(&net.graph(), precision).unwrap();
    exec.run(
        inputs
            .iter()
            .map(|(n, t)| ((*n).to_owned(), t.clone()))
            .collect(),
    )
    .unwrap()
}

fn f16s(t: &Tensor) -> Vec<f32> {
    assert_eq!(t.element_type, ElementType::F16);
    t.to_vec::<f16>()
        .unwrap()
        .into_iter()
        .map(f32::from)
        .collect()
}

/// Inputs whose `x * y + c` rounds differently when `x * y` is rounded to
/// f16 first: products just past a half-ulp of f16.
const X: [f32; 4] = [1.0009766, 3.1, -2.7, 0.3337];
const Y: [f32; 4] = [1.0009766, 1.3, 1.9, 2.999];
const C: [f32; 4] = [-1.0, -4.0, 5.0, -1.0];

/// `x * y + c` on f16 Parameters `x`, `y` and an f16 Const `c`.
fn multiply_add() -> Net {
    let mut net = Net::new();
    let x = net.param("x", "f16", "4");
    let y = net.param("y", "f16", "4");
    let bytes: Vec<u8> = C
        .iter()
        .flat_map(|&v| f16::from_f32(v).to_le_bytes())
        .collect();
    let c = net.constant("c", "f16", &[4], &bytes);
    let m = net.op("m", "Multiply", "opset1", "", &[x, y], None);
    let a = net.op("a", "Add", "opset1", "", &[m, c], None);
    net.result("out", a);
    net
}

fn wide(values: &[f32]) -> Vec<f32> {
    values.iter().map(|&v| f16::from_f32(v).to_f32()).collect()
}

#[test]
fn plugin_computes_f16_in_f32_and_rounds_at_the_result() {
    let (x, y, c) = (wide(&X), wide(&Y), wide(&C));
    let plugin: Vec<f32> = (0..4)
        .map(|i| f16::from_f32(x[i] * y[i] + c[i]).to_f32())
        .collect();
    let exact: Vec<f32> = (0..4)
        .map(|i| f16::from_f32(f16::from_f32(x[i] * y[i]).to_f32() + c[i]).to_f32())
        .collect();
    assert_ne!(plugin, exact, "the inputs must tell the policies apart");
    let net = multiply_add();
    let inputs = [("x", halves(&X)), ("y", halves(&Y))];
    let ours = run(&net, Precision::Plugin, &inputs);
    assert_eq!(f16s(&ours["out"]), plugin);
    let ours = run(&net, Precision::Exact, &inputs);
    assert_eq!(f16s(&ours["out"]), exact);
    // The default is the plugin's.
    let ours = net
        .exec(inputs.iter().map(|(n, t)| (*n, t.clone())).collect())
        .unwrap();
    assert_eq!(f16s(&ours["out"]), plugin);
}

/// f32 → Convert(f16) → Convert(f32) → Multiply: the plugin retypes the
/// Convert to f16 to f32, so nothing rounds; exactly, the values round.
#[test]
fn a_convert_to_f16_mid_graph_does_not_round_under_the_plugin() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "3");
    let to_half = net.op(
        "to_half",
        "Convert",
        "opset1",
        r#"destination_type="f16""#,
        &[x],
        None,
    );
    let back = net.op(
        "back",
        "Convert",
        "opset1",
        r#"destination_type="f32""#,
        &[to_half],
        None,
    );
    let k = net.f32s("k", &[], &[3.0]);
    let m = net.op("m", "Multiply", "opset1", "", &[back, k], None);
    net.result("out", m);
    let values = [0.1f32, 1.0 / 3.0, 1234.567];
    let input = Tensor::from_vec(vec![3], values.to_vec()).unwrap();
    let ours = run(&net, Precision::Plugin, &[("x", input.clone())]);
    let want: Vec<f32> = values.iter().map(|v| v * 3.0).collect();
    assert_eq!(ours["out"].to_vec::<f32>().unwrap(), want);
    let ours = run(&net, Precision::Exact, &[("x", input)]);
    let rounded: Vec<f32> = values
        .iter()
        .map(|&v| f16::from_f32(v).to_f32() * 3.0)
        .collect();
    assert_ne!(rounded, want);
    assert_eq!(ours["out"].to_vec::<f32>().unwrap(), rounded);
}

/// A Convert to f16 in front of a Result still rounds (to nearest even),
/// and the Result keeps its f16 type.
#[test]
fn an_f16_result_is_rounded_once() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "2");
    let h = net.op(
        "h",
        "Convert",
        "opset1",
        r#"destination_type="f16""#,
        &[x],
        None,
    );
    net.result("out", h);
    // 1 + 2^-11 is halfway between two f16 values: to even gives 1.
    let values = [1.0 + f32::powi(2.0, -11), 1.0 + 3.0 * f32::powi(2.0, -11)];
    let input = Tensor::from_vec(vec![2], values.to_vec()).unwrap();
    let ours = run(&net, Precision::Plugin, &[("x", input)]);
    assert_eq!(
        f16s(&ours["out"]),
        vec![1.0, 1.0 + 2.0 * f32::powi(2.0, -10)]
    );
}

/// A seeded f16 RandomUniform gives its f32 values rounded, as the plugin
/// does (it retypes the `output_type`; the kernel draws f16 that way too).
#[test]
fn random_uniform_of_f16_draws_f32_values_under_the_plugin() {
    let build = |output_type: &str| {
        let mut net = Net::new();
        let shape = net.i64s("shape", &[1], &[16]);
        let lo = net.f32s("lo", &[], &[0.0]);
        let hi = net.f32s("hi", &[], &[1.0]);
        let cast = |net: &mut Net, name: &str, input| {
            net.op(
                name,
                "Convert",
                "opset1",
                &format!(r#"destination_type="{output_type}""#),
                &[input],
                None,
            )
        };
        let (lo, hi) = (cast(&mut net, "lo_t", lo), cast(&mut net, "hi_t", hi));
        let r = net.op(
            "r",
            "RandomUniform",
            "opset8",
            &format!(r#"output_type="{output_type}" global_seed="150" op_seed="10""#),
            &[shape, lo, hi],
            None,
        );
        net.result("out", r);
        net
    };
    let wide = run(&build("f32"), Precision::Plugin, &[]);
    let rounded: Vec<f32> = wide["out"]
        .to_vec::<f32>()
        .unwrap()
        .into_iter()
        .map(|v| f16::from_f32(v).to_f32())
        .collect();
    let plugin = run(&build("f16"), Precision::Plugin, &[]);
    assert_eq!(f16s(&plugin["out"]), rounded);
    let exact = run(&build("f16"), Precision::Exact, &[]);
    assert_eq!(f16s(&exact["out"]), rounded);
}

/// bf16 keeps its per-layer rounding under both policies (the plugin
/// computes bf16 layers in bf16 on AVX-512 CPUs).
#[test]
fn bf16_rounds_after_every_layer_under_both_policies() {
    let mut net = Net::new();
    let x = net.param("x", "bf16", "4");
    let y = net.param("y", "bf16", "4");
    let m = net.op("m", "Multiply", "opset1", "", &[x, y], None);
    let a = net.op("a", "Add", "opset1", "", &[m, x], None);
    net.result("out", a);
    let b = |v: &[f32]| {
        let v: Vec<bf16> = v.iter().map(|&x| bf16::from_f32(x)).collect();
        Tensor::from_vec(vec![v.len()], v).unwrap()
    };
    let inputs = [("x", b(&X)), ("y", b(&Y))];
    let plugin = run(&net, Precision::Plugin, &inputs);
    let exact = run(&net, Precision::Exact, &inputs);
    assert_eq!(plugin["out"].element_type, ElementType::BF16);
    assert_eq!(plugin["out"].bytes(), exact["out"].bytes());
}

/// The policy's Converts are the executor's own: the graph the caller
/// gave keeps its layers, and the Parameters still take f16 inputs.
#[test]
fn the_plugin_policy_takes_and_gives_the_models_types() {
    let net = multiply_add();
    let graph = net.graph();
    let exec = Executor::with_precision(&graph, Precision::Plugin).unwrap();
    assert_eq!(exec.graph().node_count(), graph.node_count() + 4);
    let wrong = Tensor::from_vec(vec![4], X.to_vec()).unwrap();
    let err = exec
        .run(HashMap::from([
            ("x".to_owned(), wrong),
            ("y".to_owned(), halves(&Y)),
        ]))
        .unwrap_err();
    assert!(err.to_string().contains("f16"), "{err}");
    assert_eq!(Precision::parse("exact"), Some(Precision::Exact));
    assert_eq!(Precision::parse("plugin"), Some(Precision::Plugin));
    assert_eq!(Precision::parse("f32"), None);
}

/// The conformance goldens of f16 graphs (`scripts/goldens/precision.py`,
/// OpenVINO's CPU plugin): `tests/conformance.rs` checks the default policy
/// against them; here, that rounding after every layer would not give them
/// (each case of several layers has an output the exact policy misses), so
/// they do test the policy. (The static attention case is one layer, which
/// both policies round once: it checks the f16 default scale of the kernel;
/// with the query's last dim dynamic the plugin's scale is f32, which the
/// exact policy misses.) The bodies' cases: f32 through the back edges,
/// body Results and slices, and a body's compile-time constant in f16. The
/// bf16 attention: a compile-time scale folded into the key (the plugin
/// policy's rewrite; the kernel's bf16 roundings serve both policies); the
/// bf16 products: a constant scale of a product read by it alone folded
/// into the second operand, not that of a product an identical MatMul
/// shares. The bf16 attention chains: the mask added in f32 where the
/// plugin fuses the chain. The integer Divides: truncated at run time, floored when
/// folded; the reductions: a run-time ReduceMin of +inf starts from the
/// highest finite value, a folded one gives +inf; the integer Powers:
/// computed in f32 and truncated back through i32 (`2^34` is i32::MIN,
/// not 0). (`precision_bit_shifts` is not here: the exact policy's Divide
/// by zero fails, as `tests/errors_and_values.rs` checks.)
#[test]
fn the_f16_conformance_goldens_tell_the_policies_apart() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for case in [
        "precision_f16_chain",
        "precision_f16_constant_scale",
        "precision_f16_attention",
        "precision_f16_attention_dynamic",
        "precision_f16_loop",
        "precision_f16_tensor_iterator",
        "precision_f16_if",
        "precision_bf16_attention",
        "precision_bf16_scaled_products",
        "precision_bf16_attention_chains",
        "precision_integer_divide",
        "precision_reduce_extremes",
        "precision_integer_power",
    ] {
        let dir = root.join("tests/conformance").join(case);
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("case.json")).unwrap()).unwrap();
        let model = ir_xml::read_model(
            &root.join("../..").join(meta["model"].as_str().unwrap()),
            None,
        )
        .unwrap();
        let inputs: HashMap<String, Tensor> = meta["inputs"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(file, name)| {
                let t = executor::read_npy(&dir.join(file)).unwrap();
                (name.as_str().unwrap().to_owned(), t)
            })
            .collect();
        let run = |precision| {
            Executor::with_precision(&model.graph, precision)
                .unwrap()
                .run(inputs.clone())
                .unwrap()
        };
        let (plugin, exact) = (run(Precision::Plugin), run(Precision::Exact));
        let mut missed = 0;
        for (file, result) in meta["outputs"].as_object().unwrap() {
            let want = executor::read_npy(&dir.join(file)).unwrap();
            let result = result.as_str().unwrap();
            assert_eq!(
                executor::first_difference(&plugin[result], &want, 1e-5),
                None,
                "{case} {result}"
            );
            missed +=
                usize::from(executor::first_difference(&exact[result], &want, 1e-5).is_some());
        }
        if case != "precision_f16_attention" {
            assert!(missed > 0, "{case}: the exact policy gives the goldens too");
        }
    }
}

/// f32 → Convert(f64) → Result, as ONNX's `test_cast_FLOAT_to_DOUBLE`
/// converts: the plugin computes f64 in f32 and clamps the f32 values to
/// f32's finite range where it writes the f64 output, NaN kept (measured:
/// `scripts/probe_cpu_precision.py`, `f64_models`); exactly, infinities
/// stay infinite.
#[test]
fn an_f64_result_is_clamped_to_the_finite_f32_range_under_the_plugin() {
    let mut net = Net::new();
    let x = net.param("x", "f32", "6");
    let wide = net.op(
        "wide",
        "Convert",
        "opset1",
        r#"destination_type="f64""#,
        &[x],
        None,
    );
    net.result("out", wide);
    let values = [f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 3e38, 1.5, 0.1];
    let input = Tensor::from_vec(vec![6], values.to_vec()).unwrap();
    let limit = f64::from(f32::MAX);
    let plugin = run(&net, Precision::Plugin, &[("x", input.clone())]);
    let got = plugin["out"].to_vec::<f64>().unwrap();
    assert_eq!(got[..2], [limit, -limit]);
    assert!(got[2].is_nan());
    assert_eq!(got[3..], [f64::from(3e38f32), 1.5, f64::from(0.1f32)]);
    let exact = run(&net, Precision::Exact, &[("x", input)]);
    let got = exact["out"].to_vec::<f64>().unwrap();
    assert_eq!(got[..2], [f64::INFINITY, f64::NEG_INFINITY]);
}

/// An f64 Parameter → Add(0) → f64 Result, → IsInf, and → Result: the
/// plugin converts the f64 input to f32 (saturating at f32's finite range,
/// underflowing to 0, rounding), computes in f32 and clamps at the f64
/// Result; an infinite f64 input is finite by the time IsInf reads it, and
/// the input read straight by a Result is passed through (measured,
/// `f64_models`). Exactly, f64 is computed as f64.
#[test]
fn f64_layers_compute_in_f32_under_the_plugin() {
    let mut net = Net::new();
    let x = net.param("x", "f64", "8");
    let zero = net.constant("zero", "f64", &[], &0f64.to_le_bytes());
    let sum = net.op("sum", "Add", "opset1", "", &[x, zero], None);
    let inf = net.op(
        "inf",
        "IsInf",
        "opset10",
        r#"detect_negative="true" detect_positive="true""#,
        &[x],
        None,
    );
    net.result("sum_out", sum);
    net.result("inf_out", inf);
    net.result("same_out", x);
    let values = [
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1e300,
        -1e300,
        1e-300,
        0.1,
        1.0 / 3.0,
    ];
    let input = Tensor::from_vec(vec![8], values.to_vec()).unwrap();
    let limit = f64::from(f32::MAX);
    let plugin = run(&net, Precision::Plugin, &[("x", input.clone())]);
    let got = plugin["sum_out"].to_vec::<f64>().unwrap();
    assert_eq!(got[..2], [limit, -limit]);
    assert!(got[2].is_nan());
    assert_eq!(
        got[3..],
        [
            limit,
            -limit,
            0.0,
            f64::from(0.1f32),
            f64::from(1.0f32 / 3.0)
        ]
    );
    assert_eq!(plugin["inf_out"].to_vec::<bool>().unwrap(), vec![false; 8]);
    // Read straight by a Result, the input passes through.
    let same = plugin["same_out"].to_vec::<f64>().unwrap();
    assert_eq!(same[..2], values[..2]);
    assert_eq!(same[3..], values[3..]);
    let exact = run(&net, Precision::Exact, &[("x", input)]);
    let got = exact["sum_out"].to_vec::<f64>().unwrap();
    assert_eq!(got[..2], [f64::INFINITY, f64::NEG_INFINITY]);
    assert_eq!(got[3..], values[3..]);
    let infinite = exact["inf_out"].to_vec::<bool>().unwrap();
    assert_eq!(infinite[..3], [true, true, false]);
}
