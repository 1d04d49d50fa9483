//! Compress (project opset `ovir1`, ONNX Compress-11): the spec's examples,
//! data-dependent counts with symbolic bounds, errors, and property tests
//! against a reference implementation.

mod support;

use std::collections::HashMap;

use ir::Severity;
use proptest::prelude::*;
use shape_infer::overrides::apply_override;
use support::{Ir, Out, Run};
use symdim::Expr;

const F: bool = false;
const T: bool = true;

fn compress(net: &mut Ir, axis: Option<i64>, data: Out, cond: Out, rank: usize) -> Out {
    let axis_text = axis.map(|a| a.to_string());
    let attrs: Vec<(&str, &str)> = axis_text.iter().map(|a| ("axis", a.as_str())).collect();
    let rank = if axis.is_some() { rank } else { 1 };
    let out = net.op("compress", "Compress", "ovir1", &attrs, &[data, cond]);
    net.declare(out, &vec![-1; rank]);
    out
}

/// The spec's input `[[1, 2], [3, 4], [5, 6]]`, as a Parameter of its shape
/// (`as_const`: as an i64 Const whose values propagate).
fn spec_example(axis: Option<i64>, cond: &[bool], as_const: bool) -> (Ir, Out) {
    let mut net = Ir::new();
    let data = if as_const {
        net.const_i64("input", &[3, 2], &[1, 2, 3, 4, 5, 6])
    } else {
        net.param("input", "3,2", "f32")
    };
    let cond = net.mask("condition", cond);
    let out = compress(&mut net, axis, data, cond, 2);
    net.named_result("output", out);
    (net, out)
}

fn value_of(net: &Ir, name: &str) -> Option<Vec<i64>> {
    net.run_checked().ints(name)
}

fn check_example(axis: Option<i64>, cond: &[bool], expected_shape: &str, expected: &[i64]) {
    let (net, _) = spec_example(axis, cond, false);
    let r = net.run_checked();
    r.clean();
    assert_eq!(r.shape("compress"), expected_shape);
    assert_eq!(r.shape("output"), expected_shape);
    let out = &r.tensor("compress");
    assert_eq!(out.element_type, ir::ElementType::F32);
    // The same with known data: the selected values.
    let (net, _) = spec_example(axis, cond, true);
    assert_eq!(value_of(&net, "compress").as_deref(), Some(expected));
}

#[test]
fn compress_0() {
    check_example(Some(0), &[F, T, T], "[2, 2]", &[3, 4, 5, 6]);
}

#[test]
fn compress_1() {
    check_example(Some(1), &[F, T], "[3, 1]", &[2, 4, 6]);
}

#[test]
fn compress_default_axis() {
    check_example(None, &[F, T, F, F, T], "[2]", &[2, 5]);
}

#[test]
fn compress_negative_axis() {
    check_example(Some(-1), &[F, T], "[3, 1]", &[2, 4, 6]);
}

/// Data `x` of `shape`, a boolean Parameter condition `c` of `cond_shape`,
/// with the dims named by `overrides` (`x=N,S`).
fn dynamic_condition(
    shape_text: &str,
    cond_shape: &str,
    axis: Option<i64>,
    rank: usize,
    overrides: &[&str],
) -> Run {
    let mut net = Ir::new();
    let data = net.param("x", shape_text, "f32");
    let cond = net.param("c", cond_shape, "boolean");
    let out = compress(&mut net, axis, data, cond, rank);
    net.named_result("output", out);
    net.run_checked_with(overrides)
}

#[test]
fn dynamic_condition_gives_a_symbol_bounded_by_the_kept_length() {
    let r = dynamic_condition("?,?", "?", Some(1), 2, &["x=N,S", "c=L"]);
    r.clean();
    let out = r.shape("compress");
    assert!(out.starts_with("[N, ?"), "{out}");
    assert_eq!(r.shape("output"), out);
    let (upper, lo, hi) = r.bound_of("compress", 1);
    assert_eq!(upper, "min(S, L)");
    assert_eq!((lo, hi), (Some(0), None));
    // Its provenance names the layer.
    let dims = r.tensor("compress").shape.dims().unwrap().to_vec();
    let info = r.inference.symbols.info(dims[1].as_symbol().unwrap());
    let provenance = info.provenance.as_ref().unwrap();
    assert_eq!(provenance.layer, "compress");
    assert!(
        provenance.reason.contains("Compress"),
        "{}",
        provenance.reason
    );
}

#[test]
fn flattening_bounds_by_the_element_count() {
    let r = dynamic_condition("?,?", "?", None, 2, &["x=N,S", "c=L"]);
    r.clean();
    let (upper, _, _) = r.bound_of("compress", 0);
    assert_eq!(upper, "min(N*S, L)");
}

#[test]
fn static_lengths_give_a_numeric_bound() {
    // The condition is shorter than the dim: at most 2 kept.
    let r = dynamic_condition("3,4", "2", Some(0), 2, &[]);
    r.clean();
    assert_eq!(r.bound_of("compress", 0), ("2".into(), Some(0), Some(2)));
    // An empty condition keeps nothing: a static 0.
    let r = dynamic_condition("3,4", "0", Some(1), 2, &[]);
    assert_eq!(r.shape("compress"), "[3, 0]");
    // Condition of unknown length over a dim of 3.
    let r = dynamic_condition("3,4", "?", Some(0), 2, &["c=L"]);
    assert_eq!(
        r.bound_of("compress", 0),
        ("min(L, 3)".into(), Some(0), Some(3))
    );
}

#[test]
fn the_count_symbol_is_kept_by_later_ops() {
    let mut net = Ir::new();
    let data = net.param("x", "?,?", "f32");
    let cond = net.param("c", "?", "boolean");
    let kept = compress(&mut net, Some(0), data, cond, 2);
    let nz = net.op(
        "nz",
        "NonZero",
        "opset3",
        &[("output_type", "i32")],
        &[kept],
    );
    net.declare(nz, &[2, -1]);
    net.named_result("output", nz);
    let r = net.run_checked_with(&["x=N,S", "c=L"]);
    r.clean();
    let kept = r.shape("compress");
    let count = kept
        .trim_start_matches('[')
        .split(',')
        .next()
        .unwrap()
        .to_owned();
    assert_eq!(kept, format!("[{count}, S]"));
    let (upper, _, _) = r.bound_of("nz", 1);
    assert_eq!(upper, format!("S*{count}"));
}

#[test]
fn constant_condition_with_symbolic_dims() {
    // Every true position (0) is within a dim of at least 1: static.
    let mut net = Ir::new();
    let data = net.param("x", "1..8,4", "f32");
    let cond = net.mask("c", &[T, F, F]);
    let out = compress(&mut net, Some(0), data, cond, 2);
    net.named_result("output", out);
    let r = net.run_checked();
    r.clean();
    assert_eq!(r.shape("compress"), "[1, 4]");

    // Position 2 is true but the dim may be 1 or 2: a bounded symbol, at
    // most the 2 true values.
    let mut net = Ir::new();
    let data = net.param("x", "1..8,4", "f32");
    let cond = net.mask("c", &[F, T, T]);
    let out = compress(&mut net, Some(0), data, cond, 2);
    net.named_result("output", out);
    let r = net.run_checked();
    r.clean();
    let (_, lo, hi) = r.bound_of("compress", 0);
    assert_eq!((lo, hi), (Some(0), Some(2)));
}

#[test]
fn unknown_rank_data() {
    let r = dynamic_condition("...", "4", Some(0), 0, &[]);
    r.clean();
    assert_eq!(r.shape("compress"), "[...]");
    let r = dynamic_condition("...", "4", None, 1, &[]);
    r.clean();
    assert_eq!(r.bound_of("compress", 0), ("4".into(), Some(0), Some(4)));
    // Nothing known at all: an unbounded count.
    let r = dynamic_condition("...", "...", None, 1, &[]);
    r.clean();
    let (upper, lo, hi) = r.bound_of("compress", 0);
    assert_eq!((upper.as_str(), lo, hi), ("none", Some(0), None));
}

fn single_error(r: &Run, rule: &str) -> String {
    assert_eq!(
        r.rules(),
        [(rule, Severity::Error)],
        "{:?}",
        r.inference.diagnostics
    );
    r.messages(rule).remove(0)
}

#[test]
fn errors() {
    let r = dynamic_condition("3,4", "2,2", Some(0), 2, &[]);
    let m = single_error(&r, "compress-condition-rank");
    assert_eq!(
        m,
        "the condition (input 1) must be 1-D, got rank 2 ([2, 2])"
    );

    let mut net = Ir::new();
    let data = net.param("x", "3,4", "f32");
    let cond = net.param("c", "3", "f32");
    let out = compress(&mut net, Some(0), data, cond, 2);
    net.named_result("output", out);
    let m = single_error(&net.run_checked(), "element-type");
    assert_eq!(m, "input 1 (condition): must be a boolean tensor, got f32");

    let r = dynamic_condition("3,4", "3", Some(2), 2, &[]);
    let m = single_error(&r, "axis-out-of-range");
    assert_eq!(m, "axis 2 is out of range for rank 2 (valid: -2 to 1)");
    let r = dynamic_condition("3,4", "3", Some(-3), 2, &[]);
    single_error(&r, "axis-out-of-range");

    let r = dynamic_condition("", "3", None, 1, &[]);
    let m = single_error(&r, "compress-data-rank");
    assert!(m.contains("got a scalar"), "{m}");

    let mut net = Ir::new();
    let data = net.param("x", "3,4", "f32");
    let cond = net.mask("c", &[T, F]);
    let out = net.op(
        "compress",
        "Compress",
        "ovir1",
        &[("axis", "one")],
        &[data, cond],
    );
    net.declare(out, &[-1, 4]);
    net.named_result("output", out);
    single_error(&net.run_checked(), "attribute-invalid");
}

#[test]
fn a_longer_condition_is_truncated_with_a_warning() {
    let mut net = Ir::new();
    let data = net.param("x", "3,4", "f32");
    let cond = net.mask("c", &[T, F, T, T, T]);
    let out = compress(&mut net, Some(0), data, cond, 2);
    net.named_result("output", out);
    let r = net.run_checked();
    assert_eq!(
        r.rules(),
        [("compress-condition-too-long", Severity::Warning)]
    );
    assert_eq!(
        r.messages("compress-condition-too-long"),
        ["the condition has 5 elements but the compressed axis has 3; only the first 3 are used (ONNX only allows a shorter condition)"]
    );
    assert_eq!(r.shape("compress"), "[2, 4]");
}

#[test]
fn compress_is_not_an_openvino_op() {
    let mut net = Ir::new();
    let data = net.param("x", "3,4", "f32");
    let cond = net.mask("c", &[T, F]);
    let out = net.op(
        "compress",
        "Compress",
        "opset13",
        &[("axis", "0")],
        &[data, cond],
    );
    net.declare(out, &[-1, 4]);
    net.named_result("output", out);
    let r = net.run_checked();
    assert_eq!(r.rules(), [("op-unknown", Severity::Error)]);
}

/// The reference: numpy.compress with ONNX's truncation of the condition.
fn reference(
    dims: &[usize],
    axis: Option<usize>,
    cond: &[bool],
    data: &[i64],
) -> (Vec<usize>, Vec<i64>) {
    match axis {
        None => {
            let kept: Vec<i64> = data
                .iter()
                .zip(cond)
                .filter(|(_, &c)| c)
                .map(|(&v, _)| v)
                .collect();
            (vec![kept.len()], kept)
        }
        Some(a) => {
            let outer: usize = dims[..a].iter().product();
            let inner: usize = dims[a + 1..].iter().product();
            let sel: Vec<usize> = (0..dims[a].min(cond.len())).filter(|&i| cond[i]).collect();
            let mut out = Vec::new();
            for o in 0..outer {
                for &i in &sel {
                    let start = (o * dims[a] + i) * inner;
                    out.extend_from_slice(&data[start..start + inner]);
                }
            }
            let mut shape = dims.to_vec();
            shape[a] = sel.len();
            (shape, out)
        }
    }
}

fn case() -> impl Strategy<Value = (Vec<usize>, Option<i64>, Vec<bool>)> {
    prop::collection::vec(0usize..4, 1..4).prop_flat_map(|dims| {
        let rank = dims.len() as i64;
        (
            Just(dims),
            prop::option::of(-rank..rank),
            prop::collection::vec(any::<bool>(), 0..8),
        )
    })
}

fn render(dims: &[usize]) -> String {
    let items: Vec<String> = dims.iter().map(ToString::to_string).collect();
    format!("[{}]", items.join(", "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn constant_condition_matches_the_reference((dims, axis, cond) in case()) {
        let rank = dims.len();
        let numel: usize = dims.iter().product();
        let data: Vec<i64> = (0..numel as i64).map(|v| v * 10 + 1).collect();
        let mut net = Ir::new();
        let x = net.const_i64("x", &dims, &data);
        let c = net.mask("c", &cond);
        let out = compress(&mut net, axis, x, c, rank);
        net.named_result("output", out);
        let r = net.run_checked();
        let normalized = axis.map(|a| if a < 0 { (a + rank as i64) as usize } else { a as usize });
        let (ref_shape, ref_values) = reference(&dims, normalized, &cond, &data);
        let length = normalized.map_or(numel, |a| dims[a]);
        let expected_rules: Vec<_> = if cond.len() > length {
            vec![("compress-condition-too-long", Severity::Warning)]
        } else {
            vec![]
        };
        prop_assert_eq!(r.rules(), expected_rules);
        prop_assert_eq!(r.shape("compress"), render(&ref_shape));
        let value: Option<Vec<i64>> = r.ints("compress");
        prop_assert_eq!(value, Some(ref_values));
    }

    #[test]
    fn dynamic_condition_bound_contains_the_count(
        (dims, axis, cond) in case(),
        symbolic in prop::collection::vec(any::<bool>(), 3),
    ) {
        let rank = dims.len();
        // Some dims (and the condition length) are `?`, bound to the case.
        let text: Vec<String> = dims
            .iter()
            .enumerate()
            .map(|(i, d)| if symbolic[i] { "?".to_owned() } else { d.to_string() })
            .collect();
        let mut net = Ir::new();
        let x = net.param("x", &text.join(","), "f32");
        let c = net.param("c", "?", "boolean");
        let out = compress(&mut net, axis, x, c, rank);
        net.named_result("output", out);
        let r = net.run_checked();
        prop_assert!(r.rules().is_empty(), "{:?}", r.inference.diagnostics);
        let mut binding = HashMap::new();
        let x_dims = r.tensor("x").shape.dims().unwrap().to_vec();
        for (d, &v) in x_dims.iter().zip(&dims) {
            if let Some(s) = d.as_symbol() {
                binding.insert(s, v as i64);
            }
        }
        let c_dim = r.tensor("c").shape.dims().unwrap()[0].clone();
        binding.insert(c_dim.as_symbol().unwrap(), cond.len() as i64);

        let normalized = axis.map(|a| if a < 0 { (a + rank as i64) as usize } else { a as usize });
        let data: Vec<i64> = vec![0; dims.iter().product()];
        let (ref_shape, _) = reference(&dims, normalized, &cond, &data);
        let out_dims = r.tensor("compress").shape.dims().unwrap().to_vec();
        prop_assert_eq!(out_dims.len(), ref_shape.len());
        let at = normalized.unwrap_or(0);
        for (i, d) in out_dims.iter().enumerate() {
            if i == at {
                let count = ref_shape[i] as i64;
                match d.as_symbol() {
                    Some(s) => {
                        let info = r.inference.symbols.info(s);
                        let upper: &Expr = info.upper.as_ref().unwrap();
                        let bound = upper.eval(&|s| binding.get(&s).copied()).unwrap();
                        prop_assert!(count <= bound, "count {} bound {}", count, bound);
                        prop_assert!(info.range.contains(count));
                    }
                    // Provably nothing kept.
                    None => prop_assert_eq!(d.as_constant(), Some(0)),
                }
            } else {
                let v = d.eval(&|s| binding.get(&s).copied()).unwrap();
                prop_assert_eq!(v, ref_shape[i] as i64);
            }
        }
    }
}

#[test]
fn sample_compress_axis_infers_and_round_trips() {
    let mut graph = support::read_sample("compress_axis");
    support::assert_round_trips(&graph);
    let r = Run::checked(graph.clone());
    r.clean();
    let rows = r.shape("/rows/Compress");
    let c = rows
        .trim_start_matches('[')
        .split(',')
        .next()
        .unwrap()
        .to_owned();
    assert_eq!(rows, format!("[{c}, 4]"));
    // [T, F, T, T] keeps 3 columns.
    assert_eq!(r.shape("/cols/Compress"), format!("[{c}, 3]"));
    let (upper, _, _) = r.bound_of("/flat/Compress", 0);
    assert_eq!(upper, format!("min(?1, 3*{c})"));

    apply_override(&mut graph, "x=N,4").unwrap();
    apply_override(&mut graph, "keep=L").unwrap();
    let r = Run::checked(graph);
    assert_eq!(r.bound_of("/rows/Compress", 0).0, "min(N, L)");
}
