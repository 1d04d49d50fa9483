//! Reshape-1: the ONNX Reshape examples, symbolic targets, errors, and a
//! property test against the static rule.

mod support;

use proptest::prelude::*;
use support::rule::*;
use support::single_op;
use symdim::Expr;

fn reshape(
    input: &str,
    target: &[i64],
    special_zero: bool,
) -> Result<String, (&'static str, String)> {
    let mut c = ctx(&[]);
    let sz = if special_zero { "true" } else { "false" };
    let inputs = [data(&mut c, input), ints(target)];
    match run(
        &mut c,
        "Reshape",
        "opset1",
        &[("special_zero", sz)],
        &inputs,
    ) {
        Ok(out) => Ok(shape0(&c, &out)),
        Err(e) => Err((e.rule_name(), e.to_string())),
    }
}

// The ONNX examples: data [2, 3, 4], allowzero=0 (special_zero=true).
#[test]
fn reordered_all_dims() {
    assert_eq!(reshape("2,3,4", &[4, 2, 3], true).unwrap(), "[4, 2, 3]");
}
#[test]
fn reordered_last_dims() {
    assert_eq!(reshape("2,3,4", &[2, 4, 3], true).unwrap(), "[2, 4, 3]");
}
#[test]
fn reduced_dims() {
    assert_eq!(reshape("2,3,4", &[2, 12], true).unwrap(), "[2, 12]");
}
#[test]
fn extended_dims() {
    assert_eq!(
        reshape("2,3,4", &[2, 3, 2, 2], true).unwrap(),
        "[2, 3, 2, 2]"
    );
}
#[test]
fn one_dim() {
    assert_eq!(reshape("2,3,4", &[24], true).unwrap(), "[24]");
}
#[test]
fn negative_dim() {
    assert_eq!(reshape("2,3,4", &[2, -1, 2], true).unwrap(), "[2, 6, 2]");
}
#[test]
fn negative_extended_dims() {
    assert_eq!(
        reshape("2,3,4", &[-1, 2, 3, 4], true).unwrap(),
        "[1, 2, 3, 4]"
    );
}
#[test]
fn zero_dim() {
    assert_eq!(
        reshape("2,3,4", &[2, 0, 4, 1], true).unwrap(),
        "[2, 3, 4, 1]"
    );
}
#[test]
fn zero_and_negative_dim() {
    assert_eq!(
        reshape("2,3,4", &[2, 0, 1, -1], true).unwrap(),
        "[2, 3, 1, 4]"
    );
}
#[test]
fn allowzero() {
    // allowzero=1 is special_zero=false: 0 is a zero-size dim.
    assert_eq!(reshape("0,3,4", &[3, 4, 0], false).unwrap(), "[3, 4, 0]");
    // and with special_zero the 0 copies input dim 2 (4): 12 elements vs 0.
    assert_eq!(
        reshape("0,3,4", &[3, 4, 0], true).unwrap_err().0,
        "reshape-element-count"
    );
}

#[test]
fn minus_one_with_zero_size_dims_follows_openvino() {
    // OpenVINO 2026.4: [0,3] -> [-1,0] is [1,0]; [2,0] -> [-1,5] is [0,5];
    // [0,3] -> [0,-1] with special zero is [0,3]; [2,3] -> [0,-1] plain is an error.
    assert_eq!(reshape("0,3", &[-1, 0], false).unwrap(), "[1, 0]");
    assert_eq!(reshape("2,0", &[-1, 5], false).unwrap(), "[0, 5]");
    assert_eq!(reshape("0,3", &[0, -1], true).unwrap(), "[0, 3]");
    assert_eq!(reshape("0,0", &[0, -1], true).unwrap(), "[0, 0]");
    let (rule, msg) = reshape("2,3", &[0, -1], false).unwrap_err();
    assert_eq!(rule, "reshape-element-count");
    assert!(msg.contains("zero-size"), "{msg}");
    // [?, 3] -> [0, -1] plain: OpenVINO needs a static zero among the input
    // dims and rejects it; no guessed 1 with an assumed empty input.
    let plain = [("special_zero", "false")];
    let mut c = ctx(&["N"]);
    let inputs = [data(&mut c, "N,3"), ints(&[0, -1])];
    let e = run(&mut c, "Reshape", "opset1", &plain, &inputs).unwrap_err();
    assert_eq!(e.rule_name(), "reshape-element-count");
    assert!(e.to_string().contains("provably empty"), "{e}");
    let inputs = [data(&mut c, "0,N"), ints(&[0, -1])];
    let out = run(&mut c, "Reshape", "opset1", &plain, &inputs).unwrap();
    assert_eq!(shape0(&c, &out), "[0, 1]");
}

#[test]
fn a_scalar_target_is_an_error_as_in_openvino() {
    // OpenVINO 2026.4: "Check 'pattern_shape_rank.compatible(1)' failed".
    let mut n = support::Ir::new();
    let x = n.param("x", "1", "f32");
    let t = n.scalar("t", 1);
    let r = n.op(
        "r",
        "Reshape",
        "opset1",
        &[("special_zero", "false")],
        &[x, t],
    );
    let run = n.run_to(r);
    assert_eq!(
        run.errors()[0].0,
        "reshape-target-rank",
        "{:?}",
        run.errors()
    );
}

#[test]
fn flatten_of_symbolic_dims_is_a_polynomial_quotient() {
    let mut c = ctx(&["N", "D"]);
    let inputs = [data(&mut c, "N,3,D,5"), values(&mut c, "N,-1")];
    let out = run(
        &mut c,
        "Reshape",
        "opset1",
        &[("special_zero", "false")],
        &inputs,
    )
    .unwrap();
    assert_eq!(shape0(&c, &out), "[N, 15*D]");
    assert!(constraints(&c).is_empty(), "{:?}", constraints(&c));
}

#[test]
fn special_zeros_copy_symbolic_dims() {
    let mut c = ctx(&["N", "S"]);
    let inputs = [data(&mut c, "N,S,64"), ints(&[0, 0, 4, 16])];
    let out = run(
        &mut c,
        "Reshape",
        "opset1",
        &[("special_zero", "true")],
        &inputs,
    )
    .unwrap();
    assert_eq!(shape0(&c, &out), "[N, S, 4, 16]");
    // A symbolic target from a shape subgraph.
    let inputs = [data(&mut c, "N,S,64"), values(&mut c, "N,S,4,16")];
    let out = run(
        &mut c,
        "Reshape",
        "opset1",
        &[("special_zero", "true")],
        &inputs,
    )
    .unwrap();
    assert_eq!(shape0(&c, &out), "[N, S, 4, 16]");
    assert!(constraints(&c).is_empty());
}

#[test]
fn inexact_symbolic_quotient_records_divisibility() {
    let mut c = ctx(&["N", "S"]);
    let inputs = [data(&mut c, "N,S,4"), ints(&[3, -1])];
    let out = run(
        &mut c,
        "Reshape",
        "opset1",
        &[("special_zero", "true")],
        &inputs,
    )
    .unwrap();
    assert_eq!(shape0(&c, &out), "[3, 4*N*S/3]");
    assert_eq!(constraints(&c), ["(4*N*S) % 3 == 0"]);
}

#[test]
fn provably_different_counts_are_errors_naming_both() {
    let (rule, msg) = reshape("2,3,4,5", &[7, -1], true).unwrap_err();
    assert_eq!(rule, "reshape-element-count");
    assert!(
        msg.contains("120 elements") && msg.contains("[7, -1]"),
        "{msg}"
    );
    let (rule, msg) = reshape("2,3", &[4, 2], true).unwrap_err();
    assert_eq!(rule, "reshape-element-count");
    assert!(
        msg.contains("has 6 elements") && msg.contains("has 8"),
        "{msg}"
    );
}

#[test]
fn counts_that_may_differ_record_an_equality() {
    let mut c = ctx(&["N", "M"]);
    let inputs = [data(&mut c, "N,4"), values(&mut c, "M,4")];
    let out = run(
        &mut c,
        "Reshape",
        "opset1",
        &[("special_zero", "true")],
        &inputs,
    )
    .unwrap();
    assert_eq!(shape0(&c, &out), "[M, 4]");
    // With special_zero, M = 0 would copy N instead, which is the same
    // answer only where N is 0 too.
    assert_eq!(constraints(&c), ["M >= 1 or N == 0", "4*N == 4*M"]);
}

#[test]
fn malformed_targets_are_errors() {
    assert_eq!(
        reshape("2,3", &[-1, -1], true).unwrap_err().0,
        "reshape-minus-one"
    );
    let (rule, msg) = reshape("2,3", &[-2, 3], true).unwrap_err();
    assert_eq!(rule, "reshape-negative-dim");
    assert!(msg.contains("-2 at position 0"), "{msg}");
    let (rule, msg) = reshape("6", &[1, 0, -1], true).unwrap_err();
    assert_eq!(rule, "reshape-zero-out-of-range");
    assert!(msg.contains("position 1"), "{msg}");
}

#[test]
fn empty_target_gives_a_scalar_of_one_element() {
    assert_eq!(reshape("1,1", &[], true).unwrap(), "[]");
    assert_eq!(reshape("", &[], true).unwrap(), "[]");
    assert_eq!(
        reshape("2", &[], true).unwrap_err().0,
        "reshape-element-count"
    );
}

#[test]
fn unknown_target_values_of_known_length_give_fresh_dims() {
    let mut c = ctx(&["N"]);
    let inputs = [data(&mut c, "N,3"), unknown(&[3])];
    let out = run(
        &mut c,
        "Reshape",
        "opset1",
        &[("special_zero", "true")],
        &inputs,
    )
    .unwrap();
    assert_eq!(out[0].shape.rank(), Some(3));
    assert!(out[0]
        .shape
        .dims()
        .unwrap()
        .iter()
        .all(|d| d.as_constant().is_none()));
}

#[test]
fn unknown_input_rank_keeps_the_known_target_dims() {
    let mut c = ctx(&[]);
    let inputs = [
        shape_infer::TensorInfo::new(ir::ElementType::F32, ir::Shape::DynamicRank),
        ints(&[0, 4, -1]),
    ];
    let out = run(
        &mut c,
        "Reshape",
        "opset1",
        &[("special_zero", "true")],
        &inputs,
    )
    .unwrap();
    let dims = out[0].shape.dims().unwrap();
    assert_eq!(dims.len(), 3);
    assert_eq!(dims[1].as_constant(), Some(4));
    assert!(dims[0].as_constant().is_none() && dims[2].as_constant().is_none());
}

#[test]
fn values_pass_through() {
    let mut c = ctx(&["N"]);
    let shape_like = values(&mut c, "N,3");
    let out = run(
        &mut c,
        "Reshape",
        "opset1",
        &[("special_zero", "false")],
        &[shape_like, ints(&[1, 2])],
    )
    .unwrap();
    assert_eq!(shape0(&c, &out), "[1, 2]");
    assert_eq!(values0(&c, &out).as_deref(), Some("[N, 3]"));
}

#[test]
fn end_to_end_with_a_constant_target() {
    let (shape, rules) = single_op(
        "2,3,4",
        "Reshape",
        "opset1",
        &[("special_zero", "true")],
        &[&[0, -1]],
    );
    assert_eq!(shape, "[2, 12]");
    assert!(rules.is_empty(), "{rules:?}");
    let (_, rules) = single_op(
        "2,3,4",
        "Reshape",
        "opset1",
        &[("special_zero", "true")],
        &[&[5, -1]],
    );
    assert_eq!(rules, ["reshape-element-count"]);
}

/// The rule on static shapes, written independently: the reference.
fn static_reshape(input: &[i64], target: &[i64], special_zero: bool) -> Vec<i64> {
    let count: i64 = input.iter().product();
    let mut out: Vec<i64> = target
        .iter()
        .enumerate()
        .map(|(i, &t)| if t == 0 && special_zero { input[i] } else { t })
        .collect();
    if let Some(p) = out.iter().position(|&d| d == -1) {
        let rest: i64 = out.iter().filter(|&&d| d != -1).product();
        out[p] = count / rest;
    }
    out
}

proptest! {
    #[test]
    fn symbolic_reshape_evaluates_to_the_static_result(
        input in prop::collection::vec(1i64..6, 1..5),
        cuts in prop::collection::vec(any::<bool>(), 4),
        symbolic in prop::collection::vec(any::<bool>(), 4),
        minus_one in any::<prop::sample::Index>(),
        zeros in prop::collection::vec(any::<bool>(), 4),
        special_zero in any::<bool>(),
    ) {
        // Target: consecutive groups of input dims, as products.
        let names = ["A", "B", "C", "D"];
        let mut c = ctx(&names);
        let sym: Vec<bool> = (0..input.len()).map(|i| symbolic[i]).collect();
        let in_dims: Vec<Expr> = input.iter().enumerate().map(|(i, &d)| {
            if sym[i] { Expr::symbol(c.symbols.lookup(names[i]).unwrap()) } else { Expr::constant(d) }
        }).collect();
        let mut groups: Vec<Vec<usize>> = vec![vec![0]];
        for (i, &cut) in cuts.iter().enumerate().take(input.len()).skip(1) {
            if cut { groups.push(vec![i]); } else { groups.last_mut().unwrap().push(i); }
        }
        let mut target: Vec<i64> = groups.iter().map(|g| g.iter().map(|&i| input[i]).product()).collect();
        let mut target_sym: Vec<Expr> = groups.iter().map(|g| {
            g.iter().fold(Expr::one(), |acc, &i| acc.mul(&in_dims[i]).unwrap())
        }).collect();
        let m = minus_one.index(target.len() + 1);
        if m < target.len() {
            target[m] = -1;
            target_sym[m] = Expr::constant(-1);
        }
        for i in 0..target.len() {
            // A special zero where the group is one input dim at the same position.
            if special_zero && zeros[i] && target[i] != -1 && groups[i] == [i] {
                target[i] = 0;
                target_sym[i] = Expr::zero();
            }
        }
        let expected = static_reshape(&input, &target, special_zero);
        let sz = if special_zero { "true" } else { "false" };
        let data_t = shape_infer::TensorInfo::new(ir::ElementType::F32, ir::Shape::ranked(in_dims.clone()));
        let target_t = shape_infer::TensorInfo::new(ir::ElementType::I64, ir::Shape::from_static(&[target.len() as i64]))
            .with_value(target_sym);
        let out = run(&mut c, "Reshape", "opset1", &[("special_zero", sz)], &[data_t, target_t]).unwrap();
        let binding = |s: symdim::SymbolId| names.iter().position(|n| c.symbols.lookup(n) == Some(s)).map(|i| input[i]);
        let got: Vec<i64> = out[0].shape.dims().unwrap().iter().map(|d| d.eval(&binding).unwrap()).collect();
        prop_assert_eq!(got, expected);
        // Every recorded constraint holds at the binding.
        for k in c.constraints() {
            prop_assert!(k.predicate.eval(&binding).unwrap());
        }
    }
}

#[test]
fn computed_targets_that_may_be_negative_are_assumed_dims() {
    // A target value computed as M - 7 is -1 (infer) or worse for M < 7: the
    // rule assumes it is a dim (M >= 7) rather than guessing.
    let mut c = ctx(&["N", "M"]);
    let inputs = [data(&mut c, "N,4"), values(&mut c, "M - 7,4")];
    let out = run(
        &mut c,
        "Reshape",
        "opset1",
        &[("special_zero", "false")],
        &inputs,
    )
    .unwrap();
    assert_eq!(shape0(&c, &out), "[M - 7, 4]");
    assert_eq!(constraints(&c), ["M - 7 >= 0", "4*N == 4*M - 28"]);
}
