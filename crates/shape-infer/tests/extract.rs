//! Extract (project opset `ovir1`, `jax.numpy.extract(condition, arr, *,
//! size=None, fill_value=0)`): the jax examples, data-dependent counts,
//! `size`/`fill_value`, errors, and a property test against a reference.

mod support;

use ir::{ElementType, Severity};
use proptest::prelude::*;
use shape_infer::overrides::apply_override;
use support::{Ir, Out, Run};

const F: bool = false;
const T: bool = true;

fn extract(net: &mut Ir, attrs: &[(&str, &str)], cond: Out, arr: Out) -> Out {
    let out = net.op("extract", "Extract", "ovir1", attrs, &[cond, arr]);
    net.declare(out, &[-1]);
    out
}

/// `x = [1, 2, 3, 4, 5, 6]` as an i64 Const, and the mask Const.
/// What inference says of the Extract layer: shape, value, diagnostics.
type Outcome = (String, Option<Vec<i64>>, Vec<(&'static str, Severity)>);

fn jax_example(mask: &[bool], attrs: &[(&str, &str)]) -> Outcome {
    let mut net = Ir::new();
    let x = net.const_i64("x", &[6], &[1, 2, 3, 4, 5, 6]);
    let m = net.mask("mask", mask);
    let out = extract(&mut net, attrs, m, x);
    net.named_result("output", out);
    let r = net.run_checked();
    assert_eq!(r.tensor("extract").element_type, ElementType::I64);
    (r.shape("extract"), r.ints("extract"), r.rules())
}

const EVEN: [bool; 6] = [F, T, F, T, F, T];

#[test]
fn extract_values_from_a_1d_array() {
    let (s, v, r) = jax_example(&EVEN, &[]);
    assert_eq!((s.as_str(), v, r), ("[3]", Some(vec![2, 4, 6]), vec![]));
}

#[test]
fn extract_with_size_pads_with_fill_value() {
    let (s, v, r) = jax_example(&EVEN, &[("size", "6"), ("fill_value", "0")]);
    assert_eq!(
        (s.as_str(), v, r),
        ("[6]", Some(vec![2, 4, 6, 0, 0, 0]), vec![])
    );
    let (s, v, _) = jax_example(&EVEN, &[("size", "5"), ("fill_value", "-7")]);
    assert_eq!((s.as_str(), v), ("[5]", Some(vec![2, 4, 6, -7, -7])));
    // A size below the count truncates.
    let (s, v, _) = jax_example(&EVEN, &[("size", "2")]);
    assert_eq!((s.as_str(), v), ("[2]", Some(vec![2, 4])));
}

#[test]
fn extract_short_mask_truncates_arr() {
    let (s, v, r) = jax_example(&[F, T], &[]);
    assert_eq!((s.as_str(), v, r), ("[1]", Some(vec![2]), vec![]));
}

#[test]
fn extract_long_mask_is_truncated() {
    let (s, v, r) = jax_example(&[T, F, T, F, F, F, F, F], &[]);
    assert_eq!((s.as_str(), v, r), ("[2]", Some(vec![1, 3]), vec![]));
    // A true past arr's end does not count.
    let (s, v, _) = jax_example(&[T, F, F, F, F, F, T, T], &[]);
    assert_eq!((s.as_str(), v), ("[1]", Some(vec![1])));
}

fn dynamic(cond_shape: &str, arr_shape: &str, attrs: &[(&str, &str)], overrides: &[&str]) -> Run {
    let mut net = Ir::new();
    let c = net.param("c", cond_shape, "boolean");
    let x = net.param("x", arr_shape, "f32");
    let out = extract(&mut net, attrs, c, x);
    net.named_result("output", out);
    net.run_checked_with(overrides)
}

#[test]
fn dynamic_condition_is_bounded_by_the_shorter_flattened_length() {
    let r = dynamic("?,?", "?", &[], &["c=A,B", "x=N"]);
    r.clean();
    let (upper, lo, hi) = r.bound_of("extract", 0);
    assert_eq!((upper.as_str(), lo, hi), ("min(A*B, N)", Some(0), None));
    let t = &r.tensor("extract");
    assert_eq!(t.element_type, ElementType::F32);
    let provenance = r
        .inference
        .symbols
        .info(t.shape.dims().unwrap()[0].as_symbol().unwrap())
        .provenance
        .clone()
        .unwrap();
    assert_eq!(provenance.layer, "extract");

    let r = dynamic("2,3", "4", &[], &[]);
    assert_eq!(r.bound_of("extract", 0), ("4".into(), Some(0), Some(4)));
    let r = dynamic("2,0", "4", &[], &[]);
    assert_eq!(r.shape("extract"), "[0]");
    let r = dynamic("...", "...", &[], &[]);
    r.clean();
    assert_eq!(r.bound_of("extract", 0), ("none".into(), Some(0), None));
    let r = dynamic("...", "?,3", &[], &["x=N,3"]);
    assert_eq!(r.bound_of("extract", 0).0, "3*N");
}

#[test]
fn size_gives_a_static_shape() {
    let r = dynamic("?,?", "...", &[("size", "7"), ("fill_value", "2.5")], &[]);
    r.clean();
    assert_eq!(r.shape("extract"), "[7]");
    let r = dynamic("?", "?", &[("size", "0")], &[]);
    assert_eq!(r.shape("extract"), "[0]");
}

#[test]
fn condition_of_any_type_counts_nonzero_values() {
    let mut net = Ir::new();
    let c = net.const_i64("c", &[2, 2], &[0, 5, -1, 0]);
    let x = net.param("x", "?", "f32");
    let out = extract(&mut net, &[], c, x);
    net.named_result("output", out);
    let r = net.run_checked_with(&["x=N"]);
    // Positions 1 and 2 are true; arr may be shorter: bounded by 2 and N.
    let (upper, _, hi) = r.bound_of("extract", 0);
    assert_eq!((upper.as_str(), hi), ("min(N, 2)", Some(2)));
}

#[test]
fn errors_and_warnings() {
    let r = dynamic("3", "3", &[("size", "-1")], &[]);
    assert_eq!(r.rules(), [("extract-size", Severity::Error)]);
    assert_eq!(
        r.messages("extract-size"),
        ["`size` must be 0 or more, got -1"]
    );

    let r = dynamic("3", "3", &[("size", "2"), ("fill_value", "abc")], &[]);
    assert_eq!(r.rules(), [("extract-fill-value", Severity::Error)]);
    assert_eq!(
        r.messages("extract-fill-value"),
        ["`fill_value` \"abc\" is not a value of arr's element type f32"]
    );

    let mut net = Ir::new();
    let c = net.param("c", "3", "boolean");
    let x = net.param("x", "3", "i32");
    let out = extract(&mut net, &[("size", "2"), ("fill_value", "1.5")], c, x);
    net.named_result("output", out);
    let r = net.run_checked();
    assert_eq!(r.rules(), [("extract-fill-value", Severity::Error)]);

    let r = dynamic("3", "3", &[("fill_value", "1")], &[]);
    assert_eq!(
        r.rules(),
        [("extract-fill-value-unused", Severity::Warning)]
    );

    let r = dynamic("3", "3", &[("size", "two")], &[]);
    assert_eq!(r.rules(), [("attribute-invalid", Severity::Error)]);
}

fn reference(cond: &[i64], arr: &[i64], size: Option<usize>, fill: i64) -> Vec<i64> {
    let mut out: Vec<i64> = cond
        .iter()
        .zip(arr)
        .filter(|(&c, _)| c != 0)
        .map(|(_, &a)| a)
        .collect();
    if let Some(size) = size {
        out.truncate(size);
        out.resize(size, fill);
    }
    out
}

fn shape_strategy() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0usize..4, 0..3)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn constant_inputs_match_the_reference(
        cond_shape in shape_strategy(),
        arr_shape in shape_strategy(),
        seed in prop::collection::vec(-1i64..2, 27),
        size in prop::option::of(0usize..8),
        fill in -3i64..3,
    ) {
        let cn: usize = cond_shape.iter().product();
        let an: usize = arr_shape.iter().product();
        let cond: Vec<i64> = seed[..cn].to_vec();
        let arr: Vec<i64> = (0..an as i64).map(|v| v * 3 + 1).collect();
        let mut net = Ir::new();
        let c = net.const_i64("c", &cond_shape, &cond);
        let x = net.const_i64("x", &arr_shape, &arr);
        let (size_text, fill_text) = (size.map(|s| s.to_string()), fill.to_string());
        let attrs: Vec<(&str, &str)> = size_text
            .iter()
            .flat_map(|s| [("size", s.as_str()), ("fill_value", fill_text.as_str())])
            .collect();
        let out = extract(&mut net, &attrs, c, x);
        net.named_result("output", out);
        let r = net.run_checked();
        prop_assert!(r.rules().is_empty(), "{:?}", r.inference.diagnostics);
        let expected = reference(&cond, &arr, size, fill);
        prop_assert_eq!(r.shape("extract"), format!("[{}]", expected.len()));
        let value: Option<Vec<i64>> = r.ints("extract");
        prop_assert_eq!(value, Some(expected));
    }

    #[test]
    fn dynamic_condition_bound_contains_the_count(
        cond in prop::collection::vec(any::<bool>(), 0..8),
        arr_len in 0i64..8,
    ) {
        let r = dynamic("?", "?", &[], &["c=C", "x=A"]);
        let count = cond.iter().take(arr_len as usize).filter(|&&b| b).count() as i64;
        let dim = r.tensor("extract").shape.dims().unwrap()[0].clone();
        let s = dim.as_symbol().unwrap();
        let info = r.inference.symbols.info(s);
        let (c, a) = (r.inference.symbols.lookup("C").unwrap(), r.inference.symbols.lookup("A").unwrap());
        let binding = |s| if s == c { Some(cond.len() as i64) } else if s == a { Some(arr_len) } else { None };
        let bound = info.upper.as_ref().unwrap().eval(&binding).unwrap();
        prop_assert!(count <= bound && info.range.contains(count));
    }
}

#[test]
fn sample_extract_size_infers_and_round_trips() {
    let mut graph = support::read_sample("extract_size");
    support::assert_round_trips(&graph);
    apply_override(&mut graph, "mask=A,B").unwrap();
    apply_override(&mut graph, "values=N").unwrap();
    let r = Run::checked(graph);
    r.clean();
    assert_eq!(r.bound_of("/picked/Extract", 0).0, "min(A*B, N)");
    assert_eq!(r.shape("/padded/Extract"), "[8]");
    let padded = &r.tensor("/padded/Extract");
    assert_eq!(padded.element_type, ElementType::I32);
}
