//! The shared broadcasting module: symbolic rules and property tests
//! against numpy's static rule.

use ir::Shape;
use proptest::prelude::*;
use shape_infer::broadcast::{self, Operand};
use shape_infer::InferContext;
use symdim::{Expr, Interval, SymbolTable};

fn ctx() -> InferContext<'static> {
    InferContext::new(SymbolTable::new())
}

fn shape(ctx: &mut InferContext, text: &str) -> Shape {
    match ctx.symbols.parse_dims(text, &|| None).expect("parses") {
        symdim::ParsedShape::DynamicRank => Shape::DynamicRank,
        symdim::ParsedShape::Ranked(d) => Shape::ranked(d),
    }
}

fn numpy(ctx: &mut InferContext, a: &str, b: &str) -> Result<String, String> {
    let (a, b) = (shape(ctx, a), shape(ctx, b));
    broadcast::numpy(
        ctx,
        Operand::new("input 0", &a),
        Operand::new("input 1", &b),
    )
    .map(|s| s.display(&ctx.symbols).to_string())
    .map_err(|e| e.to_string())
}

fn constraints(ctx: &InferContext) -> Vec<String> {
    ctx.constraints()
        .iter()
        .map(|c| ctx.symbols.display_predicate(&c.predicate).to_string())
        .collect()
}

#[test]
fn equal_and_one_dims_merge_without_assumptions() {
    let mut c = ctx();
    assert_eq!(numpy(&mut c, "N,3,1", "N,1,W").unwrap(), "[N, 3, W]");
    assert_eq!(numpy(&mut c, "5", "2,1,1").unwrap(), "[2, 1, 5]");
    assert_eq!(numpy(&mut c, "", "").unwrap(), "[]");
    assert!(constraints(&c).is_empty());
}

#[test]
fn static_against_symbolic_gives_the_static_dim_and_an_assumption() {
    let mut c = ctx();
    assert_eq!(numpy(&mut c, "N,3", "5,1").unwrap(), "[5, 3]");
    assert_eq!(constraints(&c), ["N == 1 or N == 5"]);
}

#[test]
fn two_symbols_give_a_bcast_expression() {
    let mut c = ctx();
    assert_eq!(numpy(&mut c, "N", "M").unwrap(), "[bcast(N, M)]");
    assert_eq!(constraints(&c), ["N == M or N == 1 or M == 1"]);
}

#[test]
fn symbols_that_cannot_be_one_are_assumed_equal() {
    let mut c = ctx();
    c.symbols.named("N", Interval::new(Some(2), None));
    c.symbols.named("M", Interval::new(Some(2), None));
    assert_eq!(numpy(&mut c, "N", "M").unwrap(), "[N]");
    assert_eq!(constraints(&c), ["N == M"]);
}

#[test]
fn a_side_that_cannot_be_one_is_the_result() {
    let mut c = ctx();
    c.symbols.named("N", Interval::new(Some(2), None));
    assert_eq!(numpy(&mut c, "N", "M").unwrap(), "[N]");
    assert_eq!(constraints(&c), ["N == M or M == 1"]);
}

#[test]
fn a_table_sliced_to_the_sequence_broadcasts_to_the_sequence() {
    // BERT's position embeddings: a [1, 64] table sliced to min(S, 64) and
    // added to [B, S]. min(S, 64) is 1 only where S is, so the answer is S
    // under the one condition that matters, S <= 64.
    let mut c = ctx();
    assert_eq!(
        numpy(&mut c, "B,S,32", "1,min(S, 64),32").unwrap(),
        "[B, S, 32]"
    );
    assert_eq!(constraints(&c), ["S <= 64"]);
    let mut c = ctx();
    let (table, seq) = (shape(&mut c, "1,min(S, 64)"), shape(&mut c, "B,S"));
    let out = broadcast::one_way(
        &mut c,
        Operand::new("input 0", &table),
        Operand::new("target", &seq),
    )
    .unwrap();
    assert_eq!(out.display(&c.symbols).to_string(), "[B, S]");
    assert_eq!(constraints(&c), ["S <= 64"]);
}

#[test]
fn assumption_decided_by_ranges_is_dropped() {
    let mut c = ctx();
    c.symbols.named("N", Interval::new(Some(1), Some(1)));
    assert_eq!(numpy(&mut c, "N,7", "4,7").unwrap(), "[4, 7]");
    assert!(constraints(&c).is_empty());
}

#[test]
fn provable_mismatch_names_dims_axes_and_shapes() {
    let mut c = ctx();
    let e = numpy(&mut c, "2,3", "4,1,4").unwrap_err();
    assert!(
        e.contains("dim 3 (axis 1) of input 0 [2, 3] and dim 4 (axis 2) of input 1 [4, 1, 4]"),
        "{e}"
    );
    // expressions differing by a constant, neither possibly 1
    c.symbols.named("D", Interval::new(Some(2), None));
    let e = numpy(&mut c, "D", "D + 1").unwrap_err();
    assert!(
        e.contains("dim D (axis 0)") && e.contains("dim D + 1 (axis 0)"),
        "{e}"
    );
    // a static dim against a symbol whose range excludes both 1 and it
    c.symbols.named("S", Interval::new(Some(6), Some(9)));
    assert!(numpy(&mut c, "S", "5").is_err());
}

#[test]
fn unknown_rank_gives_unknown_rank() {
    let mut c = ctx();
    assert_eq!(numpy(&mut c, "...", "3").unwrap(), "[...]");
}

#[test]
fn one_way_keeps_the_target() {
    let mut c = ctx();
    let (s, t) = (shape(&mut c, "3,1"), shape(&mut c, "2,3,N"));
    let r =
        broadcast::one_way(&mut c, Operand::new("data", &s), Operand::new("target", &t)).unwrap();
    assert_eq!(r.display(&c.symbols).to_string(), "[2, 3, N]");
    let (s, t) = (shape(&mut c, "2,3,4"), shape(&mut c, "3,4"));
    assert!(
        broadcast::one_way(&mut c, Operand::new("data", &s), Operand::new("target", &t)).is_err()
    );
}

#[test]
fn pdpd_places_b_at_the_axis() {
    let mut c = ctx();
    let (a, b) = (shape(&mut c, "2,3,4,5"), shape(&mut c, "3,4"));
    let r = broadcast::pdpd(&mut c, Operand::new("a", &a), Operand::new("b", &b), 1).unwrap();
    assert_eq!(r.display(&c.symbols).to_string(), "[2, 3, 4, 5]");
    // axis -1 aligns right: [3, 4] against [4, 5] fails
    assert!(broadcast::pdpd(&mut c, Operand::new("a", &a), Operand::new("b", &b), -1).is_err());
    // a symbolic dim of A takes B's static dim
    let (a, b) = (shape(&mut c, "?,3"), shape(&mut c, "5"));
    let r = broadcast::pdpd(&mut c, Operand::new("a", &a), Operand::new("b", &b), 0).unwrap();
    assert_eq!(r.display(&c.symbols).to_string(), "[5, 3]");
}

fn numpy_static(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    let rank = a.len().max(b.len());
    (0..rank)
        .map(|i| {
            let x = if i + a.len() < rank {
                1
            } else {
                a[i + a.len() - rank]
            };
            let y = if i + b.len() < rank {
                1
            } else {
                b[i + b.len() - rank]
            };
            match (x, y) {
                _ if x == y => Some(x),
                (1, _) => Some(y),
                (_, 1) => Some(x),
                _ => None,
            }
        })
        .collect()
}

/// Two compatible static shapes: a common result shape, each operand a
/// suffix of it with some dims replaced by 1.
fn compatible() -> impl Strategy<Value = (Vec<i64>, Vec<i64>)> {
    prop::collection::vec((1i64..6, any::<bool>(), any::<bool>()), 0..5).prop_flat_map(|dims| {
        let n = dims.len();
        (Just(dims), 0..=n, 0..=n).prop_map(move |(dims, ka, kb)| {
            let a = dims[n - ka..]
                .iter()
                .map(|&(d, o, _)| if o { 1 } else { d })
                .collect();
            let b = dims[n - kb..]
                .iter()
                .map(|&(d, _, o)| if o { 1 } else { d })
                .collect();
            (a, b)
        })
    })
}

proptest! {
    /// Symbols standing for the dims of compatible static shapes: the
    /// symbolic result, with the symbols bound, is numpy's result, and every
    /// recorded constraint holds.
    #[test]
    fn symbolic_result_matches_numpy((a, b) in compatible(), sym_a in any::<u8>(), sym_b in any::<u8>()) {
        let mut c = ctx();
        let mut values = Vec::new();
        let mut to_dims = |c: &mut InferContext, dims: &[i64], mask: u8| -> Vec<Expr> {
            dims.iter().enumerate().map(|(i, &d)| {
                if mask >> i & 1 == 1 {
                    let s = c.symbols.fresh(Interval::nonnegative(), None);
                    values.push((s, d));
                    Expr::symbol(s)
                } else {
                    Expr::constant(d)
                }
            }).collect()
        };
        let sa = Shape::ranked(to_dims(&mut c, &a, sym_a));
        let sb = Shape::ranked(to_dims(&mut c, &b, sym_b));
        let r = broadcast::numpy(&mut c, Operand::new("a", &sa), Operand::new("b", &sb)).unwrap();
        let bind = |s: symdim::SymbolId| values.iter().find(|(x, _)| *x == s).map(|(_, v)| *v);
        let got: Vec<i64> = r.dims().unwrap().iter().map(|d| d.eval(&bind).unwrap()).collect();
        prop_assert_eq!(Some(got), numpy_static(&a, &b));
        for k in c.constraints() {
            prop_assert_eq!(k.predicate.eval(&bind), Ok(true));
        }
    }

    /// Static shapes that do not broadcast are an error; those that do give
    /// numpy's result.
    #[test]
    fn static_shapes_follow_numpy(a in prop::collection::vec(1i64..4, 0..4), b in prop::collection::vec(1i64..4, 0..4)) {
        let mut c = ctx();
        let (sa, sb) = (Shape::from_static(&a), Shape::from_static(&b));
        let r = broadcast::numpy(&mut c, Operand::new("a", &sa), Operand::new("b", &sb));
        match numpy_static(&a, &b) {
            Some(expected) => prop_assert_eq!(r.unwrap().to_static(), Some(expected)),
            None => prop_assert_eq!(r.unwrap_err().rule_name(), "broadcast-incompatible"),
        }
    }
}
