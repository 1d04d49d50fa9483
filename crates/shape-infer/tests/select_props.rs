//! Property tests for Select-1 (numpy mode) as OpenVINO's runtime does it —
//! `then` and `else` broadcast to each other, then `cond` with that result,
//! both ways — against a reference on static shapes, and the symbolic result
//! evaluated at the binding against the same reference. Where `cond` widens
//! the result (beyond the specification's one-way step 2) there is exactly
//! one `select-cond-broadcast` warning, and none elsewhere.

mod support;

use std::collections::HashMap;

use ir::Op;
use proptest::prelude::*;
use support::{Ir, Run};
use symdim::SymbolId;

/// Numpy broadcast of two static shapes, or `None` when they clash.
fn numpy(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    let rank = a.len().max(b.len());
    let at = |s: &[i64], i: usize| {
        let pad = rank - s.len();
        if i < pad {
            1
        } else {
            s[i - pad]
        }
    };
    (0..rank)
        .map(|i| match (at(a, i), at(b, i)) {
            (x, y) if x == y => Some(x),
            (1, y) => Some(y),
            (x, 1) => Some(x),
            _ => None,
        })
        .collect()
}

/// The runtime's rule on static shapes, or `None` when the shapes are invalid.
fn reference(cond: &[i64], then: &[i64], els: &[i64]) -> Option<Vec<i64>> {
    numpy(cond, &numpy(then, els)?)
}

/// Whether `cond` widens the broadcast of `then` and `else` (valid shapes).
fn widens(cond: &[i64], then: &[i64], els: &[i64]) -> bool {
    numpy(then, els).is_some_and(|branches| reference(cond, then, els) != Some(branches))
}

/// Select's output shape for a Select over three Parameters of `dims` (with
/// `?` where the mask bit is set), with the Parameter symbols bound to the
/// dims: the evaluated dims, or the error rules.
fn run(shapes: [(&[i64], u8); 3]) -> Result<(Vec<i64>, usize), Vec<&'static str>> {
    let mut ir = Ir::new();
    let mut inputs = Vec::new();
    for ((dims, mask), (name, et)) in
        shapes
            .iter()
            .zip([("cond", "boolean"), ("then", "f32"), ("else", "f32")])
    {
        let shape: Vec<String> = dims
            .iter()
            .enumerate()
            .map(|(k, d)| {
                if mask >> k & 1 == 1 {
                    "?".into()
                } else {
                    d.to_string()
                }
            })
            .collect();
        inputs.push(ir.param(name, &shape.join(","), et));
    }
    let sel = ir.op(
        "sel",
        "Select",
        "opset1",
        &[("auto_broadcast", "numpy")],
        &inputs,
    );
    let Run { graph, inference } = ir.run_to(sel);
    let errors: Vec<_> = inference
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.rule)
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    // Bind each Parameter symbol to the static dim it stands for.
    let mut binding: HashMap<SymbolId, i64> = HashMap::new();
    for ((_, node), (dims, _)) in graph.parameters().zip(shapes) {
        let Op::Parameter { shape, .. } = &node.op else {
            unreachable!("a Parameter");
        };
        for (dim, &value) in shape.dims().expect("ranked").iter().zip(dims) {
            if let Some(s) = dim.as_symbol() {
                binding.insert(s, value);
            }
        }
    }
    let bind = |s: SymbolId| binding.get(&s).copied();
    for constraint in &inference.constraints {
        assert_eq!(
            constraint.predicate.eval(&bind),
            Ok(true),
            "a recorded constraint is false at a valid binding"
        );
    }
    let (sel, _) = graph.nodes().find(|(_, n)| n.name == "sel").expect("sel");
    let shape = &inference.outcome(sel).outputs()[0].shape;
    let warnings = inference
        .diagnostics
        .iter()
        .filter(|d| d.rule == "select-cond-broadcast")
        .count();
    let dims = shape
        .dims()
        .expect("ranked")
        .iter()
        .map(|d| d.eval(&bind).expect("evaluates"))
        .collect();
    Ok((dims, warnings))
}

/// Shapes the runtime accepts: cond, then and else each a suffix of a base
/// shape with some dims 1.
fn valid() -> impl Strategy<Value = (Vec<i64>, Vec<i64>, Vec<i64>)> {
    prop::collection::vec((1i64..5, any::<bool>(), any::<bool>(), any::<bool>()), 0..4)
        .prop_flat_map(|dims| {
            let n = dims.len();
            (Just(dims), 0..=n, 0..=n, 0..=n).prop_map(move |(dims, kc, kt, ke)| {
                let pick = |k: usize, f: fn(&(i64, bool, bool, bool)) -> bool| -> Vec<i64> {
                    dims[n - k..]
                        .iter()
                        .map(|d| if f(d) { 1 } else { d.0 })
                        .collect()
                };
                (pick(kc, |d| d.1), pick(kt, |d| d.2), pick(ke, |d| d.3))
            })
        })
}

proptest! {
    /// On valid shapes, with any dims made symbolic, the symbolic result at
    /// the binding is the runtime's static result; fully static shapes warn
    /// exactly when cond widens the result.
    #[test]
    fn symbolic_select_agrees_with_the_runtime(
        (c, t, e) in valid(),
        masks in any::<(u8, u8, u8)>(),
    ) {
        let expected = reference(&c, &t, &e).expect("generated valid");
        let got = run([(&c, masks.0), (&t, masks.1), (&e, masks.2)]);
        prop_assert_eq!(got.as_ref().map(|g| &g.0), Ok(&expected));
        let (dims, warnings) = run([(&c, 0), (&t, 0), (&e, 0)]).expect("static valid");
        prop_assert_eq!(dims, expected);
        prop_assert_eq!(warnings, usize::from(widens(&c, &t, &e)));
    }

    /// On arbitrary static shapes, Select accepts exactly what the runtime
    /// accepts, with the runtime's result.
    #[test]
    fn static_select_follows_the_runtime(
        c in prop::collection::vec(1i64..4, 0..4),
        t in prop::collection::vec(1i64..4, 0..4),
        e in prop::collection::vec(1i64..4, 0..4),
    ) {
        match (reference(&c, &t, &e), run([(&c, 0), (&t, 0), (&e, 0)])) {
            (Some(expected), Ok((got, warnings))) => {
                prop_assert_eq!(got, expected);
                prop_assert_eq!(warnings, usize::from(widens(&c, &t, &e)));
            }
            (None, Err(rules)) => prop_assert_eq!(rules, vec!["broadcast-incompatible"]),
            (expected, got) => prop_assert!(false, "runtime {:?}, ours {:?}", expected, got),
        }
    }
}
