//! Property tests for Select-1 (numpy mode): the two-step broadcast of the
//! spec — `then` and `else` to each other, then `cond` one way into that —
//! against a reference on static shapes, and the symbolic result evaluated at
//! the binding against the same reference.

mod support;

use std::collections::HashMap;

use ir::Op;
use proptest::prelude::*;
use support::{Ir, Run};
use symdim::SymbolId;

/// The spec's rule on static shapes, or `None` when the shapes are invalid.
fn reference(cond: &[i64], then: &[i64], els: &[i64]) -> Option<Vec<i64>> {
    let rank = then.len().max(els.len());
    let at = |s: &[i64], i: usize| {
        let pad = rank - s.len();
        if i < pad {
            1
        } else {
            s[i - pad]
        }
    };
    let merged: Option<Vec<i64>> = (0..rank)
        .map(|i| match (at(then, i), at(els, i)) {
            (a, b) if a == b => Some(a),
            (1, b) => Some(b),
            (a, 1) => Some(a),
            _ => None,
        })
        .collect();
    let merged = merged?;
    if cond.len() > merged.len() {
        return None;
    }
    let pad = merged.len() - cond.len();
    cond.iter()
        .enumerate()
        .all(|(i, &c)| c == merged[pad + i] || c == 1)
        .then_some(merged)
}

/// Select's output shape for a Select over three Parameters of `dims` (with
/// `?` where the mask bit is set), with the Parameter symbols bound to the
/// dims: the evaluated dims, or the error rules.
fn run(shapes: [(&[i64], u8); 3]) -> Result<Vec<i64>, Vec<&'static str>> {
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
    Ok(shape
        .dims()
        .expect("ranked")
        .iter()
        .map(|d| d.eval(&bind).expect("evaluates"))
        .collect())
}

/// Shapes valid under the spec: then/else suffixes of a base shape with some
/// dims 1; cond a suffix of their broadcast result with some dims 1.
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
                let (t, e) = (pick(kt, |d| d.2), pick(ke, |d| d.3));
                let merged = reference(&[], &t, &e).unwrap_or_default();
                let kc = kc.min(merged.len());
                let c = merged[merged.len() - kc..]
                    .iter()
                    .zip(&dims[n - kc..])
                    .map(|(&m, d)| if d.1 { 1 } else { m })
                    .collect();
                (c, t, e)
            })
        })
}

proptest! {
    /// On valid shapes, with any dims made symbolic, the symbolic result at
    /// the binding is the spec's static result.
    #[test]
    fn symbolic_select_agrees_with_the_spec(
        (c, t, e) in valid(),
        masks in any::<(u8, u8, u8)>(),
    ) {
        let expected = reference(&c, &t, &e).expect("generated valid");
        let got = run([(&c, masks.0), (&t, masks.1), (&e, masks.2)]);
        prop_assert_eq!(got, Ok(expected));
    }

    /// On arbitrary static shapes, Select accepts exactly what the spec
    /// accepts, with the spec's result.
    #[test]
    fn static_select_follows_the_spec(
        c in prop::collection::vec(1i64..4, 0..4),
        t in prop::collection::vec(1i64..4, 0..4),
        e in prop::collection::vec(1i64..4, 0..4),
    ) {
        match (reference(&c, &t, &e), run([(&c, 0), (&t, 0), (&e, 0)])) {
            (Some(expected), Ok(got)) => prop_assert_eq!(got, expected),
            (None, Err(rules)) => prop_assert_eq!(rules, vec!["broadcast-incompatible"]),
            (expected, got) => prop_assert!(false, "spec {:?}, ours {:?}", expected, got),
        }
    }
}
