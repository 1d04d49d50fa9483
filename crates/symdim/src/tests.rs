//! Unit tests of the simplification rules, display, parsing and bounds.

use std::cmp::Ordering;

use crate::*;

fn c(v: i64) -> Expr {
    Expr::constant(v)
}

struct Ctx {
    t: SymbolTable,
}

impl Ctx {
    fn new() -> Self {
        Ctx {
            t: SymbolTable::new(),
        }
    }
    fn sym(&mut self, name: &str, lo: i64, hi: Option<i64>) -> Expr {
        Expr::symbol(self.t.named(name, Interval::new(Some(lo), hi)))
    }
    fn show(&self, e: &Expr) -> String {
        self.t.display(e).to_string()
    }
    fn p(&mut self, s: &str) -> Expr {
        self.t
            .parse_expr(s)
            .unwrap_or_else(|e| panic!("parse {s:?}: {e}"))
    }
    /// Display, and check the round trip.
    fn rt(&mut self, e: &Expr) -> String {
        let s = self.show(e);
        let back = self.p(&s);
        assert_eq!(&back, e, "round trip of {s}");
        s
    }
}

#[test]
fn constants_fold() {
    assert_eq!(c(2).add(&c(3)).unwrap(), c(5));
    assert_eq!(c(2).mul(&c(-3)).unwrap(), c(-6));
    assert_eq!(c(2).sub(&c(2)).unwrap(), Expr::zero());
    assert_eq!(c(7).as_constant(), Some(7));
    assert_eq!(Expr::zero().as_constant(), Some(0));
    assert!(c(0).is_zero());
}

#[test]
fn commutativity_and_cancellation() {
    let mut x = Ctx::new();
    let n = x.sym("N", 0, None);
    let s = x.sym("S", 0, None);
    let d = x.sym("D", 0, None);
    assert_eq!(c(3).mul(&n).unwrap(), n.mul(&c(3)).unwrap());
    assert_eq!(n.mul(&s).unwrap(), s.mul(&n).unwrap());
    assert_eq!(d.add_const(1).unwrap().add_const(-1).unwrap(), d);
    assert_eq!(n.sub(&n).unwrap(), Expr::zero());
    // (N+1)*(N-1) = N*N - 1
    let l = n
        .add_const(1)
        .unwrap()
        .mul(&n.add_const(-1).unwrap())
        .unwrap();
    assert_eq!(l, n.mul(&n).unwrap().add_const(-1).unwrap());
    assert_eq!(x.rt(&l), "N*N - 1");
    assert_eq!(n.as_symbol(), x.t.lookup("N"));
    assert_eq!(n.mul_const(2).unwrap().as_symbol(), None);
}

/// Numbers are written by hand, not through `format!`: the same digits.
#[test]
fn display_numbers_as_format_writes_them() {
    let mut x = Ctx::new();
    let d = x.sym("D", 0, None);
    for v in [
        0,
        1,
        -1,
        9,
        10,
        99,
        100,
        -4096,
        i64::MAX,
        i64::MIN,
        i64::MIN + 1,
    ] {
        assert_eq!(x.show(&c(v)), format!("{v}"));
        if let Ok(e) = d.mul_const(v) {
            let e = e.add_const(v).unwrap_or(e);
            x.rt(&e);
        }
    }
    for k in [2, 10, 12345, i64::MAX] {
        assert_eq!(x.show(&d.floor_div(k).unwrap()), format!("floor(D/{k})"));
        assert_eq!(x.show(&d.ceil_div(k).unwrap()), format!("ceil(D/{k})"));
        assert_eq!(x.show(&d.assumed_exact_div(k).unwrap()), format!("D/{k}"));
    }
    for _ in 0..25 {
        let s = x.t.fresh(Interval::nonnegative(), None);
        assert_eq!(x.show(&Expr::symbol(s)), format!("?{}", s.0));
    }
}

#[test]
fn display_examples() {
    let mut x = Ctx::new();
    let n = x.sym("N", 0, None);
    let s = x.sym("S", 0, None);
    let d = x.sym("D", 2, Some(10));
    assert_eq!(x.rt(&d.mul_const(15).unwrap()), "15*D");
    assert_eq!(x.rt(&c(15).mul(&d).unwrap()), "15*D");
    assert_eq!(x.rt(&d.add_const(-2).unwrap()), "D - 2");
    assert_eq!(x.rt(&n.add_const(1).unwrap()), "N + 1");
    assert_eq!(x.rt(&n.mul(&s).unwrap().mul_const(3).unwrap()), "3*N*S");
    assert_eq!(x.rt(&c(5).sub(&n).unwrap()), "-N + 5");
    assert_eq!(x.rt(&n.mul_const(2).unwrap().sub(&s).unwrap()), "2*N - S");
    assert_eq!(x.rt(&n.mul(&n).unwrap()), "N*N");
    let nsx4 = n.mul(&s).unwrap().mul_const(4).unwrap();
    assert_eq!(x.rt(&nsx4.assumed_exact_div(3).unwrap()), "4*N*S/3");
    assert_eq!(x.rt(&s.ceil_div(2).unwrap()), "ceil(S/2)");
    assert_eq!(
        x.rt(&n.add_const(1).unwrap().assumed_exact_div(2).unwrap()),
        "(N + 1)/2"
    );
    assert_eq!(
        x.rt(&n.add_const(1).unwrap().floor_div(2).unwrap()),
        "floor((N + 1)/2)"
    );
    assert_eq!(x.rt(&c(0)), "0");
    assert_eq!(x.rt(&c(-7)), "-7");
    // Higher degree first, constant last.
    let e = x.p("3 + N + N*S + 2*S*S*N");
    assert_eq!(x.rt(&e), "2*N*S*S + N*S + N + 3");
}

#[test]
fn max_with_ranges() {
    let mut x = Ctx::new();
    let s = x.sym("S", 2, None);
    let r = x.t.max(&s.add_const(-2).unwrap(), &c(0)).unwrap();
    assert_eq!(x.rt(&r), "S - 2");

    let mut y = Ctx::new();
    let s = y.sym("S", 0, None);
    let r = y.t.max(&s.add_const(-2).unwrap(), &c(0)).unwrap();
    assert_eq!(y.rt(&r), "max(S - 2, 0)");
    // argument order does not matter
    assert_eq!(r, y.t.max(&c(0), &s.add_const(-2).unwrap()).unwrap());
    let m = y.t.min(&s, &c(4)).unwrap();
    assert_eq!(y.rt(&m), "min(S, 4)");
    assert_eq!(y.t.min(&s, &c(0)).unwrap(), c(0));
    assert_eq!(y.t.max(&s, &c(0)).unwrap(), s);
}

#[test]
fn floor_ceil_rules() {
    let mut x = Ctx::new();
    let n = x.sym("N", 0, None);
    let _s = x.sym("S", 0, None);
    // constant folding with negative numbers
    assert_eq!(c(-3).floor_div(2).unwrap(), c(-2));
    assert_eq!(c(-3).ceil_div(2).unwrap(), c(-1));
    assert_eq!(c(7).floor_div(2).unwrap(), c(3));
    assert_eq!(c(7).ceil_div(2).unwrap(), c(4));
    assert_eq!(c(i64::MIN).floor_div(2).unwrap(), c(i64::MIN / 2));
    assert_eq!(c(i64::MAX).ceil_div(2).unwrap(), c(i64::MAX / 2 + 1));
    // identity
    assert_eq!(n.floor_div(1).unwrap(), n);
    assert_eq!(n.ceil_div(1).unwrap(), n);
    assert_eq!(n.assumed_exact_div(1).unwrap(), n);
    // bad divisors
    assert_eq!(n.floor_div(0), Err(DimError::DivisionByNonPositive(0)));
    assert_eq!(n.ceil_div(-2), Err(DimError::DivisionByNonPositive(-2)));
    assert_eq!(
        n.assumed_exact_div(-1),
        Err(DimError::DivisionByNonPositive(-1))
    );
    // pull out divisible terms
    let e = x.p("floor((4*N + S + 2)/2)");
    assert_eq!(x.rt(&e), "2*N + floor(S/2) + 1");
    let e = x.p("ceil((4*N + S + 1)/2)");
    assert_eq!(x.rt(&e), "2*N + ceil((S + 1)/2)");
    // gcd reduction
    assert_eq!(x.p("floor((2*N + 2)/4)"), x.p("floor((N + 1)/2)"));
    // nesting
    assert_eq!(x.p("floor(floor(N/2)/3)"), n.floor_div(6).unwrap());
    assert_eq!(x.p("ceil(ceil(N/2)/3)"), n.ceil_div(6).unwrap());
    // sign normalization
    let e = n.neg().unwrap().floor_div(2).unwrap();
    assert_eq!(e, n.ceil_div(2).unwrap().neg().unwrap());
    assert_eq!(x.rt(&e), "-ceil(N/2)");
    let e = x.p("floor((S - N)/2)");
    assert_eq!(x.rt(&e), "-ceil((N - S)/2)");
    // all multiples
    assert_eq!(x.p("floor(6*N/3)"), n.mul_const(2).unwrap());
}

#[test]
fn exact_div_rules() {
    let mut x = Ctx::new();
    let n = x.sym("N", 0, None);
    let d = x.sym("D", 0, None);
    let s = x.sym("S", 0, None);
    // structural quotient
    assert_eq!(x.p("(6*N + 3)/3"), x.p("2*N + 1"));
    assert_eq!(
        c(7).assumed_exact_div(2),
        Err(DimError::NotDivisible {
            dividend: 7,
            divisor: 2
        })
    );
    assert_eq!(c(8).assumed_exact_div(2).unwrap(), c(4));
    // pull out and gcd
    let e = x.p("(3*N + S)/3");
    assert_eq!(x.rt(&e), "N + S/3");
    assert_eq!(x.p("2*N/4"), x.p("N/2"));
    // coefficient times exact atom
    let h = n.assumed_exact_div(3).unwrap();
    assert_eq!(h.mul_const(3).unwrap(), n);
    assert_eq!(h.mul_const(6).unwrap(), n.mul_const(2).unwrap());
    let q = n.assumed_exact_div(4).unwrap().mul_const(2).unwrap();
    assert_eq!(q, n.assumed_exact_div(2).unwrap());
    assert_eq!(h.add(&h).unwrap().add(&h).unwrap(), n);
    // a multiple of the operand beside the division folds into it, so
    // equal sums have one form (found by the construction-order property)
    assert_eq!(x.p("N - 5*(N/2)"), x.p("-3*(N/2)"));
    let folded = x.p("N - 5*(N/2)");
    assert_eq!(x.rt(&folded), "-3*(N/2)");
    assert_eq!(x.p("D*N + D*(N/3)"), x.p("4*D*(N/3)"));
    assert_eq!(x.p("3*(N/2) - 5*(N/4)"), x.p("N/4"));
    // nested
    assert_eq!(x.p("N/3/5"), n.assumed_exact_div(15).unwrap());
    // in a product
    let m = d
        .mul(&n.assumed_exact_div(3).unwrap())
        .unwrap()
        .mul_const(2)
        .unwrap();
    assert_eq!(x.rt(&m), "2*D*(N/3)");
    let m = n
        .mul_const(4)
        .unwrap()
        .mul(&s)
        .unwrap()
        .assumed_exact_div(3)
        .unwrap()
        .neg()
        .unwrap();
    assert_eq!(x.rt(&m), "-4*N*S/3");

    // polynomial exact division
    let nd15 = x.p("N*15*D");
    assert_eq!(nd15.exact_div(&n), Some(x.p("15*D")));
    assert_eq!(x.p("6*N + 3").exact_div(&c(3)), Some(x.p("2*N + 1")));
    assert_eq!(nd15.exact_div(&c(1)), Some(nd15.clone()));
    assert_eq!(nd15.exact_div(&nd15), Some(c(1)));
    assert_eq!(nd15.exact_div(&s), None);
    assert_eq!(n.exact_div(&c(2)), None);
    assert_eq!(n.exact_div(&c(0)), None);
    let f = x.p("N*N - 1");
    assert_eq!(f.exact_div(&x.p("N + 1")), Some(x.p("N - 1")));
    assert_eq!(f.exact_div(&x.p("N + 2")), None);
    // divisor == c * common factor
    let e = x.p("6*N*D + 3*N*S");
    assert_eq!(e.exact_div(&x.p("3*N")), Some(x.p("2*D + S")));
    assert_eq!(e.exact_div(&x.p("2*D + S")), Some(x.p("3*N")));
    // parse: symbolic divisor must divide
    assert_eq!(x.p("N*D/N"), d);
    assert!(x.t.parse_expr("N/D").is_err());
    assert!(x.t.parse_expr("7/2").is_err());
    assert!(x.t.parse_expr("N/0").is_err());
    assert_eq!(x.p("6/-3"), c(-2));
    assert_eq!(x.p("N/-1"), n.neg().unwrap());
}

#[test]
fn min_max_rules() {
    let mut x = Ctx::new();
    let n = x.sym("N", 0, None);
    let s = x.sym("S", 0, None);
    assert_eq!(Expr::min(&n, &n).unwrap(), n);
    assert_eq!(Expr::min(&c(3), &c(5)).unwrap(), c(3));
    assert_eq!(Expr::max(&c(3), &c(5)).unwrap(), c(5));
    let a = n.add_const(1).unwrap();
    let b = n.add_const(3).unwrap();
    assert_eq!(Expr::min(&a, &b).unwrap(), a);
    assert_eq!(Expr::max(&a, &b).unwrap(), b);
    assert_eq!(Expr::min(&b, &a).unwrap(), a);
    // sorted args
    assert_eq!(Expr::min(&n, &s).unwrap(), Expr::min(&s, &n).unwrap());
    assert_eq!(x.rt(&Expr::min(&n, &s).unwrap()), "min(N, S)");
    assert_eq!(x.rt(&Expr::max(&c(1), &n).unwrap()), "max(N, 1)");
    // common offset
    let e = Expr::min(&n.add_const(2).unwrap(), &s.add_const(2).unwrap()).unwrap();
    assert_eq!(x.rt(&e), "min(N, S) + 2");
    // absorption
    let m = Expr::min(&n, &s).unwrap();
    assert_eq!(Expr::min(&m, &n).unwrap(), m);
    assert_eq!(Expr::max(&n, &m).unwrap(), n);
    // no range knowledge in Expr::min
    assert_eq!(x.rt(&Expr::min(&n, &c(0)).unwrap()), "min(N, 0)");
    // a constant bound of a shifted bound of the same kind merges into it
    let dropped = Expr::max(&n.add_const(-1).unwrap(), &c(0)).unwrap();
    let again = Expr::max(&dropped.add_const(-1).unwrap(), &c(0)).unwrap();
    assert_eq!(x.rt(&again), "max(N - 2, 0)");
    let capped = Expr::min(&Expr::min(&n, &c(8)).unwrap().add_const(3).unwrap(), &c(9)).unwrap();
    assert_eq!(x.rt(&capped), "min(N + 3, 9)");
    let raised = Expr::max(&c(5), &Expr::max(&n, &c(2)).unwrap().add_const(4).unwrap()).unwrap();
    assert_eq!(x.rt(&raised), "max(N + 4, 6)");
    // bounds of different kinds do not merge
    let mixed = Expr::max(&Expr::min(&n, &c(8)).unwrap().add_const(-1).unwrap(), &c(0)).unwrap();
    assert_eq!(x.rt(&mixed), "max(min(N, 8) - 1, 0)");
}

#[test]
fn bounds_examples() {
    let mut x = Ctx::new();
    let d = x.sym("D", 2, Some(10));
    let n = x.sym("N", 0, None);
    let z = Expr::symbol(x.t.fresh(Interval::new(Some(-3), Some(2)), None));
    let b = |x: &Ctx, s: &str| {
        let mut t = x.t.clone();
        let e = t.parse_expr(s).unwrap();
        x.t.bounds(&e).unwrap()
    };
    assert_eq!(
        x.t.bounds(&d.add_const(-2).unwrap()).unwrap(),
        Interval::new(Some(0), Some(8))
    );
    // A lone symbol and a constant, which skip the arithmetic.
    assert_eq!(x.t.bounds(&d).unwrap(), Interval::new(Some(2), Some(10)));
    assert_eq!(x.t.bounds(&n).unwrap(), Interval::new(Some(0), None));
    assert_eq!(x.t.bounds(&c(-4)).unwrap(), Interval::point(-4));
    assert_eq!(b(&x, "D*D"), Interval::new(Some(4), Some(100)));
    assert_eq!(b(&x, "2*D"), Interval::new(Some(4), Some(20)));
    assert_eq!(b(&x, "15*D"), Interval::new(Some(30), Some(150)));
    assert_eq!(b(&x, "-D + 5"), Interval::new(Some(-5), Some(3)));
    assert_eq!(b(&x, "N - 1"), Interval::new(Some(-1), None));
    assert_eq!(b(&x, "-N"), Interval::new(None, Some(0)));
    assert_eq!(b(&x, "?2*?2"), Interval::new(Some(0), Some(9)));
    assert_eq!(b(&x, "?2*?2*?2"), Interval::new(Some(-27), Some(8)));
    assert_eq!(b(&x, "floor(D/3)"), Interval::new(Some(0), Some(3)));
    assert_eq!(b(&x, "ceil(D/3)"), Interval::new(Some(1), Some(4)));
    assert_eq!(b(&x, "D/3"), Interval::new(Some(1), Some(3)));
    assert_eq!(b(&x, "min(D, 5)"), Interval::new(Some(2), Some(5)));
    assert_eq!(b(&x, "max(N, 5)"), Interval::new(Some(5), None));
    assert_eq!(b(&x, "N*0 + 4"), Interval::point(4));
    assert_eq!(b(&x, "D*N"), Interval::new(Some(0), None));
    let _ = (n, z);
    // overflowing finite bound
    let big = Expr::symbol(x.t.fresh(Interval::new(Some(0), Some(i64::MAX)), None));
    let sq = big.mul(&big).unwrap();
    assert_eq!(x.t.bounds(&sq), Err(DimError::Overflow));
}

/// The shortcuts of `bounds` (`t + c` from `t`'s bounds, a lone `min` or
/// `max` from its arguments') give what interval arithmetic on the whole
/// expression gives, overflow included.
#[test]
fn bounds_shortcuts_agree_with_whole_arithmetic() {
    let mut x = Ctx::new();
    let mut leaves = vec![
        x.sym("D", 2, Some(10)),
        x.sym("N", 0, None),
        x.sym("W", 1, Some(7)),
        Expr::symbol(x.t.fresh(Interval::new(Some(-3), Some(2)), None)),
        Expr::symbol(x.t.fresh(Interval::new(None, Some(5)), None)),
        Expr::symbol(x.t.fresh(Interval::new(Some(0), Some(i64::MAX)), None)),
        Expr::symbol(x.t.fresh(Interval::new(Some(i64::MIN), Some(0)), None)),
        c(0),
        c(3),
        c(-1),
    ];
    let constants = [1, -1, -2, 5, i64::MAX, i64::MIN, -(1 << 40)];
    let mut exprs = leaves.clone();
    for _ in 0..2 {
        let mut next = Vec::new();
        for (i, a) in exprs.iter().enumerate() {
            for &k in &constants {
                if let Ok(e) = a.add_const(k) {
                    next.push(e);
                }
            }
            for b in leaves.iter().chain(exprs.iter().skip(i % 3).step_by(5)) {
                next.extend(
                    [a.min(b), a.max(b), a.mul(b), a.sub(b)]
                        .into_iter()
                        .flatten(),
                );
            }
            for k in [2, 3] {
                for e in [a.floor_div(k), a.ceil_div(k), a.mul_const(k)]
                    .into_iter()
                    .flatten()
                {
                    next.push(e.add_const(-1).unwrap_or(e));
                }
            }
        }
        next.truncate(4000);
        leaves.extend(next.iter().take(8).cloned());
        exprs.extend(next);
    }
    let mut shortcut_forms = 0;
    for e in &exprs {
        let fresh = x.t.clone();
        assert_eq!(
            fresh.bounds(e),
            fresh.bounds_whole(e),
            "bounds of {}",
            x.show(e)
        );
        // Asked again: from the memo or the shortcuts alike.
        assert_eq!(
            x.t.bounds(e),
            x.t.bounds_whole(e),
            "bounds of {}",
            x.show(e)
        );
        if matches!(e.as_atom(), Some(Atom::Min(..) | Atom::Max(..)))
            || (e.num_terms() == 2 && e.constant_term() != 0)
        {
            shortcut_forms += 1;
        }
    }
    assert!(shortcut_forms > 100, "{shortcut_forms} shortcut forms");
}

/// `max_of_difference(u, l)` is `max(u - l, 0)` as `SymbolTable::max`
/// gives it, its shortcut for `max(x, k) + c` included: every shape of the
/// answer (`u - l` itself, `0`, the merged `max(x + c, k')`), overflow and
/// the size limit.
#[test]
fn max_of_difference_is_the_max_of_the_difference() {
    let mut x = Ctx::new();
    let leaves = vec![
        x.sym("D", 2, Some(10)),
        x.sym("N", 0, None),
        Expr::symbol(x.t.fresh(Interval::new(Some(-3), Some(2)), None)),
        Expr::symbol(x.t.fresh(Interval::new(None, Some(5)), None)),
        Expr::symbol(x.t.fresh(Interval::new(Some(0), Some(i64::MAX)), None)),
        Expr::symbol(x.t.fresh(Interval::new(Some(i64::MIN), Some(0)), None)),
        c(0),
        c(4),
    ];
    let constants = [
        0,
        1,
        -1,
        2,
        7,
        -9,
        1 << 40,
        i64::MAX,
        i64::MIN,
        i64::MIN + 1,
    ];
    let mut inners = leaves.clone();
    for a in &leaves {
        for &k in &constants {
            inners.extend(a.add_const(k));
        }
        inners.extend(a.floor_div(3));
        inners.extend(a.mul(&leaves[1]));
    }
    let mut us = inners.clone();
    for inner in &inners {
        for &k in &constants {
            // Structural maxima (kept whatever the ranges say) and the
            // range-aware ones, each shifted.
            for m in [inner.max_with(&c(k)), x.t.max(inner, &c(k))]
                .into_iter()
                .flatten()
            {
                for &shift in &constants {
                    us.extend(m.add_const(shift));
                }
                us.push(m);
            }
        }
        us.extend(inner.min_with(&leaves[0]));
    }
    // At the algebra's size limit, and one node below it: bounded, so
    // that `max(u - l, 0)` is decided for a large `l` (`u - l` is too
    // large to build at the limit).
    let small: Vec<Expr> = (0..2047)
        .map(|_| Expr::symbol(x.t.fresh(Interval::new(Some(0), Some(3)), None)))
        .collect();
    for n in [2046, 2047] {
        let sum = small[..n]
            .iter()
            .try_fold(Expr::zero(), |acc, s| acc.add(s));
        let m = sum.and_then(|sum| sum.max_with(&Expr::zero())).unwrap();
        assert_eq!(m.size(), 2 * n + 2);
        us.push(m);
    }
    let (mut shortcut, mut merged, mut too_complex) = (0, 0, 0);
    for u in &us {
        if matches!(u.atom_plus_constant(), Some((Atom::Max(_, k), _)) if k.is_constant()) {
            shortcut += 1;
        }
        for &l in &constants {
            let general = u.sub(&c(l)).and_then(|t| x.t.max(&t, &Expr::zero()));
            let got = x.t.max_of_difference(u, l);
            assert_eq!(got, general, "max({} - {l}, 0)", x.show(u));
            match &got {
                Ok(e) if matches!(e.as_atom(), Some(Atom::Max(..))) => merged += 1,
                Err(DimError::TooComplex) => too_complex += 1,
                _ => {}
            }
        }
    }
    assert!(shortcut > 500, "{shortcut} maxima plus a constant");
    assert!(merged > 500, "{merged} merged maxima");
    assert!(too_complex > 0);
}

#[test]
fn compare_and_decide() {
    let mut x = Ctx::new();
    let d = x.sym("D", 2, Some(10));
    let n = x.sym("N", 0, None);
    assert_eq!(x.t.compare(&d, &d), Some(Ordering::Equal));
    assert_eq!(x.t.compare(&d, &c(1)), Some(Ordering::Greater));
    assert_eq!(x.t.compare(&d, &c(11)), Some(Ordering::Less));
    assert_eq!(x.t.compare(&d, &c(5)), None);
    assert_eq!(
        x.t.compare(&n.add_const(1).unwrap(), &n),
        Some(Ordering::Greater)
    );

    // Constants on both sides, as the sub-and-bound path decides them, an
    // overflowing difference included.
    for (a, b) in [
        (3, 5),
        (5, 3),
        (4, 4),
        (-7, 2),
        (i64::MIN, 1),
        (i64::MAX, -1),
    ] {
        let slow = c(a).sub(&c(b)).ok().map(|diff| x.t.bounds(&diff));
        let expected = slow.and_then(Result::ok).and_then(|i| i.as_point());
        assert_eq!(
            expected.map(|v| v <= 0),
            x.t.decide(&Predicate::Le(c(a), c(b)))
        );
        assert_eq!(
            expected.map(|v| v < 0),
            x.t.decide(&Predicate::Lt(c(a), c(b)))
        );
        assert_eq!(
            expected.map(|v| v == 0),
            x.t.decide(&Predicate::Eq(c(a), c(b)))
        );
        assert_eq!(
            a <= b,
            x.t.decide(&Predicate::Le(c(a), c(b))).unwrap_or(a <= b)
        );
    }
    assert_eq!(x.t.decide(&Predicate::Le(c(i64::MIN), c(1))), None);

    let le = Predicate::Le(d.clone(), c(10));
    assert_eq!(x.t.decide(&le), Some(true));
    assert_eq!(x.t.decide(&Predicate::Lt(d.clone(), c(10))), None);
    assert_eq!(x.t.decide(&Predicate::Gt(d.clone(), c(1))), Some(true));
    assert_eq!(x.t.decide(&Predicate::Ge(c(1), d.clone())), Some(false));
    assert_eq!(x.t.decide(&Predicate::Eq(d.clone(), c(0))), Some(false));
    assert_eq!(x.t.decide(&Predicate::Ne(d.clone(), c(0))), Some(true));
    assert_eq!(x.t.decide(&Predicate::Eq(n.clone(), n.clone())), Some(true));
    assert_eq!(x.t.decide(&Predicate::Eq(n.clone(), c(3))), None);
    let div = Predicate::Divides {
        divisor: 3,
        expr: x.p("6*N + 3"),
    };
    assert_eq!(x.t.decide(&div), Some(true));
    let div = Predicate::Divides {
        divisor: 3,
        expr: x.p("N + 1"),
    };
    assert_eq!(x.t.decide(&div), None);
    let div = Predicate::Divides {
        divisor: 3,
        expr: c(7),
    };
    assert_eq!(x.t.decide(&div), Some(false));
    let or = Predicate::Or(vec![Predicate::Eq(n.clone(), c(1)), le.clone()]);
    assert_eq!(x.t.decide(&or), Some(true));
    let and = Predicate::And(vec![Predicate::Eq(n.clone(), c(1)), le.clone()]);
    assert_eq!(x.t.decide(&and), None);
    assert_eq!(x.t.decide(&Predicate::And(vec![])), Some(true));
    assert_eq!(x.t.decide(&Predicate::Or(vec![])), Some(false));
}

#[test]
fn predicate_display_and_eval() {
    let mut x = Ctx::new();
    let n = x.sym("N", 0, None);
    let s = x.sym("S", 0, None);
    let or = Predicate::Or(vec![
        Predicate::Eq(n.clone(), c(1)),
        Predicate::Eq(n.clone(), c(5)),
    ]);
    assert_eq!(x.t.display_predicate(&or).to_string(), "N == 1 or N == 5");
    let div = Predicate::Divides {
        divisor: 3,
        expr: x.p("4*N*S"),
    };
    assert_eq!(x.t.display_predicate(&div).to_string(), "(4*N*S) % 3 == 0");
    let div1 = Predicate::Divides {
        divisor: 3,
        expr: n.clone(),
    };
    assert_eq!(x.t.display_predicate(&div1).to_string(), "N % 3 == 0");
    let le = Predicate::Le(n.clone(), c(8));
    assert_eq!(x.t.display_predicate(&le).to_string(), "N <= 8");
    let all = Predicate::And(vec![le.clone(), or.clone(), Predicate::Ne(s.clone(), c(0))]);
    assert_eq!(
        x.t.display_predicate(&all).to_string(),
        "N <= 8 and (N == 1 or N == 5) and S != 0"
    );
    let nid = n.as_symbol().unwrap();
    let bind = |v: i64| move |q: SymbolId| (q == nid).then_some(v);
    assert_eq!(or.eval(&bind(5)), Ok(true));
    assert_eq!(or.eval(&bind(4)), Ok(false));
    assert_eq!(div1.eval(&bind(6)), Ok(true));
    assert!(matches!(all.eval(&bind(5)), Err(DimError::Unbound(_))));
    assert_eq!(
        Predicate::Divides {
            divisor: 0,
            expr: n.clone()
        }
        .eval(&bind(1)),
        Err(DimError::DivisionByNonPositive(0))
    );
    assert_eq!(
        Predicate::Gt(n.clone(), c(3)).negate(),
        Some(Predicate::Le(n.clone(), c(3)))
    );
}

#[test]
fn eval_and_substitute() {
    let mut x = Ctx::new();
    let n = x.sym("N", 0, None);
    let s = x.sym("S", 0, None);
    let (nid, sid) = (n.as_symbol().unwrap(), s.as_symbol().unwrap());
    let e = x.p("floor((N - 7)/2) + ceil(S/3)*N + min(N, S) - max(N, 2) + 4*N*S/3");
    let bind = |q: SymbolId| {
        if q == nid {
            Some(3)
        } else if q == sid {
            Some(6)
        } else {
            None
        }
    };
    // floor(-4/2) + 2*3 + 3 - 3 + 24 = -2 + 6 + 24 = 28
    assert_eq!(e.eval(&bind), Ok(28));
    assert_eq!(n.eval(&|_| None), Err(DimError::Unbound(nid)));
    let ex = x.p("N/3");
    assert_eq!(
        ex.eval(&|_| Some(4)),
        Err(DimError::NotDivisible {
            dividend: 4,
            divisor: 3
        })
    );
    assert_eq!(
        x.p("N*N").eval(&|_| Some(i64::MAX)),
        Err(DimError::Overflow)
    );
    // substitute
    let e = x.p("N*S + floor(N/2)");
    let r = e.substitute(&|q| (q == nid).then(|| c(4))).unwrap();
    assert_eq!(r, x.p("4*S + 2"));
    let r = e
        .substitute(&|q| (q == nid).then(|| x.t.clone().parse_expr("2*S").unwrap()))
        .unwrap();
    assert_eq!(r, x.p("2*S*S + S"));
    assert_eq!(
        x.p("N/3").substitute(&|_| Some(c(4))),
        Err(DimError::NotDivisible {
            dividend: 4,
            divisor: 3
        })
    );
    assert_eq!(e.symbols().into_iter().collect::<Vec<_>>(), vec![nid, sid]);
}

#[test]
fn overflow_is_reported() {
    let big = c(i64::MAX);
    assert_eq!(big.add_const(1), Err(DimError::Overflow));
    assert_eq!(big.mul_const(2), Err(DimError::Overflow));
    assert_eq!(c(i64::MIN).neg(), Err(DimError::Overflow));
    assert_eq!(c(i64::MIN).sub(&c(1)), Err(DimError::Overflow));
    assert_eq!(c(-1).sub(&c(i64::MIN)).unwrap(), c(i64::MAX));
    let mut t = SymbolTable::new();
    let n = t.parse_expr("N").unwrap();
    assert_eq!(
        n.mul_const(i64::MAX).unwrap().add(&n.mul_const(1).unwrap()),
        Err(DimError::Overflow)
    );
    // i64::MIN round trips
    let e = n.mul_const(i64::MIN).unwrap().add_const(i64::MIN).unwrap();
    let s = t.display(&e).to_string();
    assert_eq!(t.parse_expr(&s).unwrap(), e, "{s}");
    let e = n
        .mul(&n)
        .unwrap()
        .add(&n.mul_const(i64::MIN).unwrap())
        .unwrap();
    let s = t.display(&e).to_string();
    assert_eq!(t.parse_expr(&s).unwrap(), e, "{s}");
}

#[test]
fn symbol_table() {
    let mut t = SymbolTable::new();
    let n = t.named("N", Interval::new(Some(0), Some(100)));
    assert_eq!(t.named("N", Interval::new(Some(10), None)), n);
    assert_eq!(t.info(n).range, Interval::new(Some(10), Some(100)));
    // empty intersection keeps the range
    assert_eq!(t.named("N", Interval::new(Some(200), None)), n);
    assert_eq!(t.info(n).range, Interval::new(Some(10), Some(100)));
    assert_eq!(
        t.restrict(n, Interval::new(Some(200), None)),
        Err(DimError::EmptyRange(n))
    );
    assert_eq!(t.restrict(n, Interval::new(None, Some(50))), Ok(()));
    assert_eq!(t.info(n).range, Interval::new(Some(10), Some(50)));
    let prov = Provenance {
        layer: "conv1".into(),
        line: 12,
        reason: "dynamic".into(),
    };
    let f = t.fresh(Interval::nonnegative(), Some(prov.clone()));
    assert_eq!(f, SymbolId(1));
    assert_eq!(t.info(f).provenance, Some(prov));
    assert_eq!(t.display(&Expr::symbol(f)).to_string(), "?1");
    assert_eq!(t.len(), 2);
    assert_eq!(t.iter().map(|(s, _)| s).collect::<Vec<_>>(), vec![n, f]);
    assert_eq!(t.lookup("N"), Some(n));
    assert_eq!(t.lookup("M"), None);
    t.set_name(f, "batch");
    assert_eq!(t.lookup("batch"), Some(f));
    assert_eq!(t.display(&Expr::symbol(f)).to_string(), "batch");
    // reserved / invalid names display by index
    t.set_name(f, "min");
    assert_eq!(t.lookup("batch"), None);
    assert_eq!(t.display(&Expr::symbol(f)).to_string(), "?1");
    t.set_name(f, "N");
    assert_eq!(t.lookup("N"), Some(n));
    assert_eq!(t.display(&Expr::symbol(f)).to_string(), "?1");
    t.set_name(f, "a b");
    assert_eq!(t.display(&Expr::symbol(f)).to_string(), "?1");
}

#[test]
fn interval_basics() {
    let i = Interval::new(Some(2), Some(10));
    assert!(i.contains(2) && i.contains(10) && !i.contains(11));
    assert!(Interval::nonnegative().contains(i64::MAX));
    assert!(!Interval::nonnegative().contains(-1));
    assert_eq!(
        i.intersect(&Interval::new(Some(5), None)),
        Some(Interval::new(Some(5), Some(10)))
    );
    assert_eq!(i.intersect(&Interval::point(11)), None);
    assert_eq!(Interval::point(3).as_point(), Some(3));
    assert_eq!(i.as_point(), None);
    assert_eq!(Interval::nonnegative().to_string(), "[0, inf)");
    assert_eq!(Interval::new(None, Some(5)).to_string(), "(-inf, 5]");
}

fn no_prov() -> Option<Provenance> {
    None
}

#[test]
fn parse_dims_examples() {
    let mut t = SymbolTable::new();
    let prov = || {
        Some(Provenance {
            layer: "in".into(),
            line: 3,
            reason: "dyn".into(),
        })
    };
    let ParsedShape::Ranked(d) = t.parse_dims("?,3,2..10", &prov).unwrap() else {
        panic!()
    };
    assert_eq!(d.len(), 3);
    let s0 = d[0].as_symbol().unwrap();
    assert_eq!(t.info(s0).range, Interval::nonnegative());
    assert_eq!(t.info(s0).provenance.as_ref().unwrap().line, 3);
    assert_eq!(d[1], Expr::constant(3));
    let s2 = d[2].as_symbol().unwrap();
    assert_eq!(t.info(s2).range, Interval::new(Some(2), Some(10)));

    let r = t.parse_dims("[1,3,224,224]", &no_prov).unwrap();
    assert_eq!(
        r,
        ParsedShape::Ranked([1, 3, 224, 224].map(Expr::constant).to_vec())
    );
    assert_eq!(
        t.parse_dims("[]", &no_prov).unwrap(),
        ParsedShape::Ranked(vec![])
    );
    assert_eq!(
        t.parse_dims("  ", &no_prov).unwrap(),
        ParsedShape::Ranked(vec![])
    );
    assert_eq!(
        t.parse_dims("...", &no_prov).unwrap(),
        ParsedShape::DynamicRank
    );
    assert_eq!(
        t.parse_dims("[...]", &no_prov).unwrap(),
        ParsedShape::DynamicRank
    );
    assert_eq!(
        t.parse_dims(" [ ... ] ", &no_prov).unwrap(),
        ParsedShape::DynamicRank
    );
    let ParsedShape::Ranked(d) = t.parse_dims("N,3,H,W", &no_prov).unwrap() else {
        panic!()
    };
    assert_eq!(d[0].as_symbol(), t.lookup("N"));
    assert_eq!(d[2].as_symbol(), t.lookup("H"));
    assert_eq!(
        t.info(t.lookup("W").unwrap()).range,
        Interval::nonnegative()
    );
    let ParsedShape::Ranked(d) = t.parse_dims("1..", &no_prov).unwrap() else {
        panic!()
    };
    assert_eq!(
        t.info(d[0].as_symbol().unwrap()).range,
        Interval::new(Some(1), None)
    );
    let ParsedShape::Ranked(d) = t.parse_dims("..8", &no_prov).unwrap() else {
        panic!()
    };
    assert_eq!(
        t.info(d[0].as_symbol().unwrap()).range,
        Interval::new(Some(0), Some(8))
    );
    let ParsedShape::Ranked(d) = t
        .parse_dims("[-1, 4..4, 2*N + 1, min(N, 3)]", &no_prov)
        .unwrap()
    else {
        panic!()
    };
    assert_eq!(
        t.info(d[0].as_symbol().unwrap()).range,
        Interval::nonnegative()
    );
    assert_eq!(d[1], Expr::constant(4));
    assert_eq!(t.display(&d[2]).to_string(), "2*N + 1");
    assert_eq!(t.display(&d[3]).to_string(), "min(N, 3)");
    let n_before = t.len();
    let ParsedShape::Ranked(d) = t.parse_dims("?0, ?1", &no_prov).unwrap() else {
        panic!()
    };
    assert_eq!(d[0].as_symbol(), Some(SymbolId(0)));
    assert_eq!(t.len(), n_before);
}

#[test]
fn parse_errors() {
    let mut t = SymbolTable::new();
    let bad = [
        "[1,2",
        "1,2]",
        "[1,,2]",
        "[1,2,]",
        ",",
        "-2",
        "[-5]",
        "5..2",
        "1..2..3",
        "..",
        "..x",
        "?99",
        "[...,1]",
        "1,...",
        "foo(3)",
        "floor",
        "floor(N)",
        "floor(N/M)",
        "floor(N/2 + 1)",
        "min(N)",
        "min(N,)",
        "(N",
        "N)",
        "N +",
        "* N",
        "N $ 2",
        "1.5",
        "99999999999999999999",
        "9223372036854775808",
        "N/0",
        "7/2",
        "??",
        "[?",
        "a b",
        "N..3",
        "2-3",
        "é",
    ];
    for s in bad {
        let r = t.parse_dims(s, &no_prov);
        assert!(r.is_err(), "{s:?} should fail, got {r:?}");
        let msg = r.unwrap_err().to_string();
        assert!(msg.starts_with("at column "), "{msg}");
    }
    let e = t.parse_expr("N + $").unwrap_err();
    assert_eq!(e.offset, 4);
    assert_eq!(e.to_string(), "at column 5: unexpected character '$'");
    assert!(t.parse_expr("").is_err());
    assert!(t.parse_expr("?").is_err());
    assert!(t.parse_expr("[1]").is_err());
    // nesting limit
    let deep = format!("{}N{}", "(".repeat(1000), ")".repeat(1000));
    assert!(t.parse_expr(&deep).is_err());
    let deep = format!("{}N", "-".repeat(10000));
    assert!(t.parse_expr(&deep).is_err());
    let ok = format!("{}N{}", "(".repeat(30), ")".repeat(30));
    assert!(t.parse_expr(&ok).is_ok());
    // long flat expression is fine
    let long = vec!["N"; 5000].join(" + ");
    assert_eq!(
        t.parse_expr(&long).unwrap(),
        t.parse_expr("5000*N").unwrap()
    );
    // too long input
    assert!(t.parse_expr(&"1+".repeat(40000)).is_err());
    // term explosion is reported, not hung
    let many = (0..14)
        .map(|i| format!("(a{i} + b{i})"))
        .collect::<Vec<_>>()
        .join("*");
    assert!(t.parse_expr(&many).is_err());
}

#[test]
fn bcast_atom() {
    let mut t = SymbolTable::new();
    let n = Expr::symbol(t.named("N", Interval::nonnegative()));
    let m = Expr::symbol(t.named("M", Interval::nonnegative()));
    let one = Expr::one();
    assert_eq!(n.bcast(&n).unwrap(), n);
    assert_eq!(n.bcast(&one).unwrap(), n);
    assert_eq!(one.bcast(&m).unwrap(), m);
    assert_eq!(
        Expr::constant(3).bcast(&Expr::constant(4)),
        Err(DimError::NotBroadcastable { a: 3, b: 4 })
    );
    let b = n.bcast(&m).unwrap();
    assert_eq!(b, m.bcast(&n).unwrap());
    assert_eq!(t.display(&b).to_string(), "bcast(N, M)");
    assert_eq!(t.parse_expr("bcast(M, N)").unwrap(), b);
    assert_eq!(n.bcast(&b).unwrap(), b);
    let at = |nv: i64, mv: i64| b.eval(&|s| Some(if s.0 == 0 { nv } else { mv }));
    assert_eq!(at(5, 5), Ok(5));
    assert_eq!(at(1, 7), Ok(7));
    assert_eq!(at(7, 1), Ok(7));
    assert_eq!(at(2, 3), Err(DimError::NotBroadcastable { a: 2, b: 3 }));
    let s = Expr::symbol(t.named("S", Interval::new(Some(2), Some(6))));
    let r = Expr::symbol(t.named("R", Interval::new(Some(1), Some(9))));
    // R == 1 gives S, S == R gives a value in both ranges: [2, 6], not the
    // hull [1, 9].
    assert_eq!(
        t.bounds(&s.bcast(&r).unwrap()).unwrap(),
        Interval::new(Some(2), Some(6))
    );
    let p = Expr::symbol(t.named("P", Interval::new(Some(1), Some(1))));
    assert_eq!(t.bcast(&s, &p).unwrap(), s);
    assert!(t.parse_expr("bcast").is_err());
}

/// The bounds of `bcast(a, b)` contain every value it takes, and are the
/// tightest interval that does, for every pair of small ranges.
#[test]
fn bcast_bounds_are_tight_and_sound() {
    let ranges: Vec<(i64, i64)> = (0..5)
        .flat_map(|lo| (lo..6).map(move |hi| (lo, hi)))
        .collect();
    for &(alo, ahi) in &ranges {
        for &(blo, bhi) in &ranges {
            let mut t = SymbolTable::new();
            let a = Expr::symbol(t.named("A", Interval::new(Some(alo), Some(ahi))));
            let b = Expr::symbol(t.named("B", Interval::new(Some(blo), Some(bhi))));
            let e = a.bcast(&b).unwrap();
            let values: Vec<i64> = (alo..=ahi)
                .flat_map(|x| (blo..=bhi).map(move |y| (x, y)))
                .filter_map(|(x, y)| e.eval(&|s| Some(if s.0 == 0 { x } else { y })).ok())
                .collect();
            let Some((&lo, &hi)) = values.iter().min().zip(values.iter().max()) else {
                continue;
            };
            assert_eq!(
                t.bounds(&e).unwrap(),
                Interval::new(Some(lo), Some(hi)),
                "A in [{alo}, {ahi}], B in [{blo}, {bhi}]"
            );
        }
    }
}

#[test]
fn size_and_nesting_are_bounded() {
    let mut t = SymbolTable::new();
    let n = Expr::symbol(t.named("N", Interval::nonnegative()));
    assert_eq!((n.size(), n.nesting()), (2, 0));
    let e = t.parse_expr("min(floor(N/2), M) + 1").unwrap();
    assert_eq!((e.size(), e.nesting()), (9, 2));
    // `ceil((x - 1)/2)` does not flatten: each step nests one level deeper
    // (a chain of Slices with start 1, step 2 builds it).
    let mut x = n.clone();
    let mut steps = 0;
    let error = loop {
        match x.add_const(-1).and_then(|d| d.ceil_div(2)) {
            Ok(next) => {
                assert!(next.nesting() <= MAX_NESTING && next.size() <= MAX_SIZE);
                x = next;
                steps += 1;
            }
            Err(e) => break e,
        }
    };
    assert_eq!(error, DimError::TooComplex);
    assert_eq!(steps, MAX_NESTING);
    // Size: a product of sums whose every term holds a large atom.
    let wide = (0..40)
        .map(|i| format!("a{i}"))
        .collect::<Vec<_>>()
        .join(" + ");
    let big = t.parse_expr(&format!("floor(({wide})/2)")).unwrap();
    let sum = t.parse_expr(&wide).unwrap();
    let grown = (0..4).try_fold(big, |acc, _| acc.mul(&sum));
    assert_eq!(grown, Err(DimError::TooComplex));
}

/// Found by the dims_parser fuzz target: 424 bytes whose canonical form
/// grew to 53 KB of text (10,853 nodes in 1,192 terms of exact divisions)
/// and took 0.4 s in release, 13 s instrumented. Now rejected early.
#[test]
fn fuzz_short_input_with_a_huge_canonical_form() {
    let input = "g*5/g, 22/lSgoo*((3-rJ-J+4*NJ3-(rJ-J+4*NJ+JJ+JJJ4+4+?4*lSgoo*(?0-rJ-J+4*NJ+JJ+J+JJ+JJJ-4*g/4*g/g*4*g/4*g/g*g/4*J-JJJ*NJ+JJ+JJJ4+4+J+JJJH4*4-JJJ*NJ+JJ+JJJ4+4+J+JJJH4*4+5) /4+4)*NJo*(?0-rJ-J+4*NJ+JJ+J+JJ+JJgoo*(-rJ-JJ4+4*+45*NJJ+J+5) /4+4)*NJgoo*(-rJ-JJ4+4*+45*NJJ+JJJ404+J+4+4+4*lSgoo*(?0-rJ-J+4*NJ+JJ+JJj4+4+J+JJJ*NJ+JJ+JJJ4+4+?4*lSgoo*(?0-rJ-J+4*NJ+JJ+J+JJ+JJJ-4*g/4*H4*4+5) /4+4)*NJ+JJ+JJJ /2 -J4*444)+JJ+JJJ /1 -J4*444)*,";
    let mut t = SymbolTable::new();
    let dims = t.parse_dims(input, &no_prov);
    assert!(dims.is_err(), "{dims:?}");
    let open = input.find("((").expect("the product's operand") + 1;
    let operand = &input[open..input.len() - 2];
    let error = t.parse_expr(operand).unwrap_err();
    assert!(error.message.contains("too complex"), "{error}");
}

#[test]
fn equal_of_a_min_or_max_and_its_argument_is_a_bound() {
    let mut x = Ctx::new();
    let s = x.sym("S", 0, None);
    let t = x.sym("T", 0, None);
    let show = |x: &Ctx, p: &Predicate| x.t.display_predicate(p).to_string();
    let min = x.p("min(S, 64)");
    assert_eq!(show(&x, &Predicate::equal(&min, &s)), "S <= 64");
    assert_eq!(show(&x, &Predicate::equal(&s, &min)), "S <= 64");
    let max = x.p("max(S, T)");
    assert_eq!(show(&x, &Predicate::equal(&t, &max)), "T >= S");
    assert_eq!(show(&x, &Predicate::equal(&s, &t)), "S == T");
    // The bound holds exactly where the equality does.
    for v in 0..130 {
        let at = |_: SymbolId| Some(v);
        let p = Predicate::equal(&min, &s);
        assert_eq!(p.eval(&at).unwrap(), min.eval(&at).unwrap() == v);
    }
}

#[test]
fn bounds_see_through_rounding_to_a_multiple() {
    let mut x = Ctx::new();
    let h = x.sym("H", 0, None);
    let up = x.p("4*ceil(H/4)");
    let down = x.p("8*floor(H/8)");
    let d = up.sub(&h).unwrap();
    assert_eq!(x.t.bounds(&d).unwrap(), Interval::new(Some(0), Some(3)));
    let d = h.sub(&down).unwrap();
    assert_eq!(x.t.bounds(&d).unwrap(), Interval::new(Some(0), Some(7)));
    // Roundings by different divisors: floor(G/4) >= floor(G/8) (the
    // remainders are taken as independent, so this needs G >= 4).
    x.sym("G", 4, None);
    let e = x.p("2*floor(G/4) - 2*floor(G/8)");
    assert_eq!(x.t.bounds(&e).unwrap().lo, Some(0));
    // A window partition pads H up to a multiple of 4 and slices back.
    assert_eq!(x.t.min(&h, &up).unwrap(), h);
    assert_eq!(x.t.max(&h, &up).unwrap(), up);
    let patches = x.p("floor(H/4)");
    let padded = x.p("4*ceil(floor(H/4)/4)");
    assert_eq!(x.t.min(&patches, &padded).unwrap(), patches);
    // Every value lies in the bounds.
    let e = x.p("2*ceil(H/4) - floor(H/2) + 12*floor(H/3)");
    let four_h = x.p("4*H");
    let b = x.t.bounds(&e.sub(&four_h).unwrap()).unwrap();
    for v in 0..200 {
        let at = |_: SymbolId| Some(v);
        let value = e.eval(&at).unwrap() - 4 * v;
        assert!(b.contains(value), "{value} at H={v} outside {b:?}");
    }
}

/// Bounds are remembered per expression, and forgotten when a range they
/// depend on narrows (`restrict`, `named` again) or a symbol is added.
#[test]
fn remembered_bounds_follow_narrowed_ranges() {
    let mut x = Ctx::new();
    let h = x.sym("H", 1, None);
    let e = x.p("floor((H - 1)/2) + 1");
    assert_eq!(x.t.bounds(&e).unwrap(), Interval::new(Some(1), None));
    // Asked again: the same answer.
    assert_eq!(x.t.bounds(&e).unwrap(), Interval::new(Some(1), None));
    let s = h.as_symbol().unwrap();
    x.t.restrict(s, Interval::new(Some(3), Some(9))).unwrap();
    assert_eq!(x.t.bounds(&e).unwrap(), Interval::new(Some(2), Some(5)));
    x.t.named("H", Interval::new(Some(5), Some(7)));
    assert_eq!(x.t.bounds(&e).unwrap(), Interval::new(Some(3), Some(4)));
    // A copy of the table answers from its own ranges.
    let mut copy = x.t.clone();
    copy.restrict(s, Interval::new(Some(7), Some(7))).unwrap();
    assert_eq!(copy.bounds(&e).unwrap(), Interval::point(4));
    assert_eq!(x.t.bounds(&e).unwrap(), Interval::new(Some(3), Some(4)));
}

mod merged_sums {
    //! Sums of term lists merged in order give exactly what the term map
    //! gives (issue 18).
    use proptest::prelude::*;

    use crate::*;

    /// A small expression over three symbols, by a recipe of operations.
    #[derive(Clone, Debug)]
    enum Recipe {
        Const(i64),
        Sym(u32),
        Add(Box<Recipe>, Box<Recipe>),
        Sub(Box<Recipe>, Box<Recipe>),
        Mul(Box<Recipe>, Box<Recipe>),
        Floor(Box<Recipe>, i64),
        Exact(Box<Recipe>, i64),
        Max(Box<Recipe>, Box<Recipe>),
    }

    fn recipe() -> impl Strategy<Value = Recipe> {
        let leaf = prop_oneof![
            prop_oneof![
                -5i64..=5,
                Just(i64::MAX),
                Just(i64::MIN),
                Just(i64::MAX / 2 + 1)
            ]
            .prop_map(Recipe::Const),
            (0u32..3).prop_map(Recipe::Sym),
        ];
        leaf.prop_recursive(4, 20, 2, |inner| {
            let b = |r: Recipe| Box::new(r);
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(move |(x, y)| Recipe::Add(b(x), b(y))),
                (inner.clone(), inner.clone()).prop_map(move |(x, y)| Recipe::Sub(b(x), b(y))),
                (inner.clone(), inner.clone()).prop_map(move |(x, y)| Recipe::Mul(b(x), b(y))),
                (inner.clone(), 2i64..=4).prop_map(move |(x, k)| Recipe::Floor(b(x), k)),
                (inner.clone(), 2i64..=4).prop_map(move |(x, k)| Recipe::Exact(b(x), k)),
                (inner.clone(), inner.clone()).prop_map(move |(x, y)| Recipe::Max(b(x), b(y))),
            ]
        })
    }

    fn build(r: &Recipe) -> Result<Expr, DimError> {
        Ok(match r {
            Recipe::Const(c) => Expr::constant(*c),
            Recipe::Sym(s) => Expr::symbol(SymbolId(*s)),
            Recipe::Add(x, y) => build(x)?.add(&build(y)?)?,
            Recipe::Sub(x, y) => build(x)?.sub(&build(y)?)?,
            Recipe::Mul(x, y) => build(x)?.mul(&build(y)?)?,
            Recipe::Floor(x, k) => build(x)?.floor_div(*k)?,
            Recipe::Exact(x, k) => build(x)?.assumed_exact_div(*k)?,
            Recipe::Max(x, y) => build(x)?.max_with(&build(y)?)?,
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

        #[test]
        fn merged_sums_equal_the_term_map(a in recipe(), b in recipe(), k in -3i64..=3) {
            let (Ok(a), Ok(b)) = (build(&a), build(&b)) else { return Ok(()) };
            // Scaled, so that terms cancel and coefficients overflow too.
            let Ok(scaled) = b.mul_const(k) else { return Ok(()) };
            // A canonical sum is its own term map's form (what dividing by
            // the constant 1 gave through the map).
            prop_assert_eq!(a.combine_by_map(&Expr::zero(), false), Ok(a.clone()));
            prop_assert_eq!(a.exact_div(&Expr::one()), Some(a.clone()));
            let mut sum = Expr::zero();
            for n in 0..6 {
                prop_assert_eq!(a.repeated_sum(n).ok(), Some(sum.clone()));
                let Ok(next) = sum.add(&a) else {
                    prop_assert!(a.repeated_sum(n + 1).is_err());
                    break;
                };
                sum = next;
            }
            for o in [&b, &scaled, &a] {
                // `min_max`'s shortcuts read what these sums would build.
                let shifted = o.add_const(k);
                for (x, y) in [(&a, o), (o, &a)] {
                    prop_assert_eq!(
                        x.constant_difference(y),
                        x.sub(y).ok().and_then(|d| d.as_constant())
                    );
                }
                for x in [Ok(a.clone()), Ok(o.clone()), shifted].iter().flatten() {
                    let c = x.constant_term();
                    if let Some(minus) = c.checked_neg() {
                        let built = x.add_const(minus);
                        let built = built.as_ref().ok().and_then(Expr::as_atom);
                        prop_assert_eq!(x.without_constant_term_as_atom(), built);
                    }
                }
                if a.has_exact_division() || o.has_exact_division() {
                    continue;
                }
                prop_assert_eq!(o.mul_const(k), o.mul_const_by_map(k));
                prop_assert_eq!(a.merge(o, false), a.combine_by_map(o, false));
                prop_assert_eq!(a.merge(o, true), a.combine_by_map(o, true));
                prop_assert_eq!(o.merge(&a, true), o.combine_by_map(&a, true));
                // What `add` and `sub` answer for two sums (constants take
                // their own shortcuts).
                if !a.is_constant() && !o.is_constant() {
                    prop_assert_eq!(a.add(o), a.combine_by_map(o, false));
                    prop_assert_eq!(a.sub(o), a.combine_by_map(o, true));
                }
            }
        }

        #[test]
        fn write_expr_writes_what_display_writes(a in recipe(), named in any::<bool>()) {
            let Ok(a) = build(&a) else { return Ok(()) };
            let mut t = SymbolTable::new();
            for i in 0..3 {
                t.fresh(Interval::new(Some(0), None), None);
                if named && i == 1 {
                    t.set_name(SymbolId(i), "batch");
                }
            }
            let mut written = String::from("[");
            t.write_expr(&a, &mut written);
            prop_assert_eq!(written, format!("[{}", t.display(&a)));
        }
    }
}
