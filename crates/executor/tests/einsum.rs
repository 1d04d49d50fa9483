//! Einsum-7's kernel against a brute-force evaluation of the equation (every
//! assignment of every label), and its element types: f16/bf16 rounded once
//! after an f32 computation, integers exact and wrapping.

mod common;

use std::collections::HashMap;

use common::Net;
use executor::Tensor;
use half::{bf16, f16};

/// Runs `equation` on f64 inputs of the given shapes.
fn run(equation: &str, inputs: &[(&[usize], Vec<f64>)]) -> (Vec<usize>, Vec<f64>) {
    let mut net = Net::new();
    let mut ports = Vec::new();
    let mut feeds = Vec::new();
    for (i, (shape, values)) in inputs.iter().enumerate() {
        let name = format!("x{i}");
        let dims: Vec<String> = shape.iter().map(|_| "?".to_owned()).collect();
        ports.push(net.param(&name, "f64", &dims.join(",")));
        let t = Tensor::from_vec(shape.to_vec(), values.clone()).unwrap();
        feeds.push((name, t));
    }
    let attrs = format!(r#"equation="{equation}""#);
    let o = net.op("e", "Einsum", "opset7", &attrs, &ports, None);
    net.result("out", o);
    let out = net
        .exec(feeds.iter().map(|(n, t)| (n.as_str(), t.clone())).collect())
        .unwrap_or_else(|e| panic!("{equation}: {e}"));
    let t = &out["out"];
    (t.shape.clone(), t.to_vec::<f64>().unwrap())
}

/// The equation evaluated by definition: the sum, over every assignment of
/// the labels, of the product of the inputs' elements (explicit equations
/// of letters; a label's size is its largest dim, a dim 1 broadcasting).
fn brute_force(equation: &str, inputs: &[(&[usize], Vec<f64>)]) -> (Vec<usize>, Vec<f64>) {
    let (left, right) = equation.split_once("->").unwrap();
    let subs: Vec<&[u8]> = left.split(',').map(str::as_bytes).collect();
    let mut sizes: HashMap<u8, usize> = HashMap::new();
    for (s, (shape, _)) in subs.iter().zip(inputs) {
        for (&c, &d) in s.iter().zip(shape.iter()) {
            let e = sizes.entry(c).or_insert(d);
            *e = (*e).max(d);
        }
    }
    let out: Vec<u8> = right.bytes().collect();
    let out_dims: Vec<usize> = out.iter().map(|c| sizes[c]).collect();
    let all: Vec<u8> = {
        let mut v: Vec<u8> = sizes.keys().copied().collect();
        v.sort_unstable();
        v
    };
    let total: usize = out_dims.iter().product();
    let mut res = vec![0.0; total];
    let mut idx = vec![0usize; all.len()];
    let count: usize = all.iter().map(|c| sizes[c]).product();
    for _ in 0..count {
        let at = |c: u8| idx[all.iter().position(|&a| a == c).unwrap()];
        let mut p = 1.0;
        for (s, (shape, values)) in subs.iter().zip(inputs) {
            let mut off = 0;
            for (&c, &d) in s.iter().zip(shape.iter()) {
                off = off * d + if d == 1 { 0 } else { at(c) };
            }
            p *= values[off];
        }
        let mut o = 0;
        for (&c, &d) in out.iter().zip(&out_dims) {
            o = o * d + at(c);
        }
        res[o] += p;
        for k in (0..all.len()).rev() {
            idx[k] += 1;
            if idx[k] < sizes[&all[k]] {
                break;
            }
            idx[k] = 0;
        }
    }
    (out_dims, res)
}

fn values(shape: &[usize], seed: usize) -> Vec<f64> {
    let n: usize = shape.iter().product();
    (0..n)
        .map(|i| (((i + seed) * 37 + 11) % 19) as f64 / 4.0 - 2.0)
        .collect()
}

#[test]
fn contractions_match_a_brute_force_evaluation() {
    let cases: &[(&str, &[&[usize]])] = &[
        ("ab,bc->ac", &[&[3, 4], &[4, 5]]),
        ("ab,bc->ca", &[&[3, 4], &[4, 5]]),
        ("ij->ji", &[&[3, 4]]),
        ("ij->", &[&[3, 4]]),
        ("ii->", &[&[4, 4]]),
        ("ii->i", &[&[4, 4]]),
        ("iij->ji", &[&[3, 3, 2]]),
        ("iji->ij", &[&[3, 2, 3]]),
        ("i,j->ij", &[&[3], &[4]]),
        ("i,i->", &[&[5], &[5]]),
        ("ab,bc,cd->ad", &[&[2, 3], &[3, 4], &[4, 5]]),
        ("ab,bcd,bc->ca", &[&[2, 5], &[5, 3, 6], &[5, 3]]),
        ("abc,cd,dbe->ea", &[&[2, 3, 4], &[4, 5], &[5, 3, 2]]),
        ("aab,bcc,ca->b", &[&[3, 3, 2], &[2, 4, 4], &[4, 3]]),
        ("bij,bjk->bik", &[&[2, 3, 4], &[2, 4, 5]]),
        ("bij,bjk->kb", &[&[2, 3, 4], &[2, 4, 5]]),
        // Label dims 1 against n, first, last and mid-chain.
        ("ab,bc->ac", &[&[2, 1], &[3, 4]]),
        ("ij,ij->ij", &[&[3, 1], &[1, 4]]),
        ("abc,xd,cd->xb", &[&[2, 3, 4], &[2, 1], &[4, 5]]),
        ("ab,b,b->a", &[&[2, 3], &[1], &[3]]),
        // A label in one operand only, kept or summed, with a scalar.
        ("ab,,c->ca", &[&[2, 3], &[], &[4]]),
        ("abc,c->", &[&[2, 3, 4], &[4]]),
        // Capitals are labels of their own.
        ("aA,Ab->Aab", &[&[2, 3], &[3, 2]]),
    ];
    for (equation, shapes) in cases {
        let inputs: Vec<(&[usize], Vec<f64>)> = shapes
            .iter()
            .enumerate()
            .map(|(k, s)| (*s, values(s, k * 7)))
            .collect();
        let (shape, got) = run(equation, &inputs);
        let (want_shape, want) = brute_force(equation, &inputs);
        assert_eq!(shape, want_shape, "{equation}");
        for (g, w) in got.iter().zip(&want) {
            assert!(
                (g - w).abs() <= 1e-9 * w.abs().max(1.0),
                "{equation}: {got:?} vs {want:?}"
            );
        }
    }
}

#[test]
fn implicit_mode_and_ellipsis() {
    let a = values(&[2, 3], 1);
    // Implicit ba is ab: a transpose.
    let (s, t) = run("ba", &[(&[2, 3], a.clone())]);
    assert_eq!(s, [3, 2]);
    assert_eq!(t, [a[0], a[3], a[1], a[4], a[2], a[5]]);
    // Ellipsis dims [2, 1] and [3] broadcast to [2, 3].
    let x = values(&[2, 1, 2, 2], 2);
    let y = values(&[3, 2, 2], 3);
    let (s, t) = run(
        "...ij,...jk->...ik",
        &[(&[2, 1, 2, 2], x.clone()), (&[3, 2, 2], y.clone())],
    );
    assert_eq!(s, [2, 3, 2, 2]);
    for b0 in 0..2 {
        for b1 in 0..3 {
            for i in 0..2 {
                for k in 0..2 {
                    let want: f64 = (0..2)
                        .map(|j| x[b0 * 4 + i * 2 + j] * y[b1 * 4 + j * 2 + k])
                        .sum();
                    assert_eq!(t[((b0 * 3 + b1) * 2 + i) * 2 + k], want);
                }
            }
        }
    }
    // An ellipsis absent from the output is summed, as OpenVINO's runtime.
    let (s, t) = run("...ab->ab", &[(&[2, 1, 2], vec![1.0, 2.0, 3.0, 4.0])]);
    assert_eq!((s, t), (vec![1, 2], vec![4.0, 6.0]));
}

#[test]
fn half_precision_rounds_once_and_integers_wrap() {
    // 1 + 2^-11 + 2^-11 in f16: rounded after each step it stays 1; in f32
    // and rounded once it is 1 + 2^-10.
    let h = |v: &[f32]| v.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>();
    let e = 2f32.powi(-11);
    let mut net = Net::new();
    let x = net.param("x", "f16", "3");
    let o = net.op("e", "Einsum", "opset7", r#"equation="i->""#, &[x], None);
    net.result("out", o);
    let out = net
        .exec(vec![(
            "x",
            Tensor::from_vec(vec![3], h(&[1.0, e, e])).unwrap(),
        )])
        .unwrap();
    assert_eq!(out["out"].to_vec::<f16>().unwrap(), h(&[1.0 + 2.0 * e]));

    let mut net = Net::new();
    let x = net.param("x", "bf16", "2,2");
    let o = net.op("e", "Einsum", "opset7", r#"equation="ii->i""#, &[x], None);
    net.result("out", o);
    let b = [1.5f32, 7.0, 9.0, -2.25].map(bf16::from_f32).to_vec();
    let out = net
        .exec(vec![("x", Tensor::from_vec(vec![2, 2], b).unwrap())])
        .unwrap();
    assert_eq!(
        out["out"].to_vec::<bf16>().unwrap(),
        [1.5f32, -2.25].map(bf16::from_f32)
    );

    // i32: 2^30 · 4 wraps to 0, plus 3; exact beyond f32's 24 bits.
    let mut net = Net::new();
    let a = net.param("a", "i32", "1,2");
    let b = net.param("b", "i32", "2,1");
    let o = net.op(
        "e",
        "Einsum",
        "opset7",
        r#"equation="ab,bc->ac""#,
        &[a, b],
        None,
    );
    net.result("out", o);
    let out = net
        .exec(vec![
            (
                "a",
                Tensor::from_vec(vec![1, 2], vec![1i32 << 30, 16_777_217]).unwrap(),
            ),
            ("b", Tensor::from_vec(vec![2, 1], vec![4i32, 1]).unwrap()),
        ])
        .unwrap();
    assert_eq!(out["out"].to_vec::<i32>().unwrap(), [16_777_217]);
}

#[test]
fn bad_inputs_are_errors_not_panics() {
    let mut net = Net::new();
    let a = net.param("a", "f32", "?,?");
    let o = net.op("e", "Einsum", "opset7", r#"equation="ii->i""#, &[a], None);
    net.result("out", o);
    let r = net.exec(vec![(
        "a",
        Tensor::from_vec(vec![2, 3], vec![0f32; 6]).unwrap(),
    )]);
    assert!(r.is_err());
}
