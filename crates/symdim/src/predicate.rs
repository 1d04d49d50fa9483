//! Predicates over dimension expressions (constraints recorded during shape
//! inference), their evaluation and their static decision from ranges.

use std::cmp::Ordering;

use crate::{Atom, DimError, Expr, SymbolId, SymbolTable};

/// A boolean condition on dimension expressions.
///
/// Displayed (by [`SymbolTable::display_predicate`]) as `N == 1 or N == 5`,
/// `(4*N*S) % 3 == 0`, `N <= 8`; nested `and`/`or` groups are parenthesized;
/// an empty `And` is `true`, an empty `Or` is `false`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Predicate {
    /// `a == b`
    Eq(Expr, Expr),
    /// `a != b`
    Ne(Expr, Expr),
    /// `a < b`
    Lt(Expr, Expr),
    /// `a <= b`
    Le(Expr, Expr),
    /// `a > b`
    Gt(Expr, Expr),
    /// `a >= b`
    Ge(Expr, Expr),
    /// `expr % divisor == 0` (`divisor > 0`).
    Divides {
        /// The (positive) divisor.
        divisor: i64,
        /// The expression that must be a multiple of `divisor`.
        expr: Expr,
    },
    /// At least one holds (`false` when empty).
    Or(Vec<Predicate>),
    /// All hold (`true` when empty).
    And(Vec<Predicate>),
}

impl Predicate {
    /// `a == b`, written in its simplest form where one side is `min` or
    /// `max` of the other: `min(x, y) == x` is `x <= y`, `max(x, y) == x` is
    /// `x >= y` (a slice clamped to a buffer's length equals the length
    /// exactly when the length fits).
    pub fn equal(a: &Expr, b: &Expr) -> Predicate {
        let one_sided = |m: &Expr, x: &Expr| -> Option<Predicate> {
            let (p, q, is_min) = match m.as_atom()? {
                Atom::Min(p, q) => (p, q, true),
                Atom::Max(p, q) => (p, q, false),
                _ => return None,
            };
            let other = if *p == *x {
                q
            } else if *q == *x {
                p
            } else {
                return None;
            };
            let other = other.clone();
            Some(if is_min {
                Predicate::Le(x.clone(), other)
            } else {
                Predicate::Ge(x.clone(), other)
            })
        };
        one_sided(a, b)
            .or_else(|| one_sided(b, a))
            .unwrap_or_else(|| Predicate::Eq(a.clone(), b.clone()))
    }

    /// Evaluates under `binding`. A `Divides` with a non-positive divisor is
    /// [`DimError::DivisionByNonPositive`].
    pub fn eval(&self, binding: &dyn Fn(SymbolId) -> Option<i64>) -> Result<bool, DimError> {
        let both = |a: &Expr, b: &Expr| -> Result<(i64, i64), DimError> {
            Ok((a.eval(binding)?, b.eval(binding)?))
        };
        Ok(match self {
            Predicate::Eq(a, b) => {
                let (x, y) = both(a, b)?;
                x == y
            }
            Predicate::Ne(a, b) => {
                let (x, y) = both(a, b)?;
                x != y
            }
            Predicate::Lt(a, b) => {
                let (x, y) = both(a, b)?;
                x < y
            }
            Predicate::Le(a, b) => {
                let (x, y) = both(a, b)?;
                x <= y
            }
            Predicate::Gt(a, b) => {
                let (x, y) = both(a, b)?;
                x > y
            }
            Predicate::Ge(a, b) => {
                let (x, y) = both(a, b)?;
                x >= y
            }
            Predicate::Divides { divisor, expr } => {
                if *divisor <= 0 {
                    return Err(DimError::DivisionByNonPositive(*divisor));
                }
                expr.eval(binding)?.rem_euclid(*divisor) == 0
            }
            Predicate::Or(ps) => {
                for p in ps {
                    if p.eval(binding)? {
                        return Ok(true);
                    }
                }
                false
            }
            Predicate::And(ps) => {
                for p in ps {
                    if !p.eval(binding)? {
                        return Ok(false);
                    }
                }
                true
            }
        })
    }

    /// The logical negation (`Eq` ↔ `Ne`, `Lt` ↔ `Ge`, De Morgan for
    /// `And`/`Or`); `Divides` has no negation in this language and yields `None`.
    pub fn negate(&self) -> Option<Predicate> {
        Some(match self {
            Predicate::Eq(a, b) => Predicate::Ne(a.clone(), b.clone()),
            Predicate::Ne(a, b) => Predicate::Eq(a.clone(), b.clone()),
            Predicate::Lt(a, b) => Predicate::Ge(a.clone(), b.clone()),
            Predicate::Le(a, b) => Predicate::Gt(a.clone(), b.clone()),
            Predicate::Gt(a, b) => Predicate::Le(a.clone(), b.clone()),
            Predicate::Ge(a, b) => Predicate::Lt(a.clone(), b.clone()),
            Predicate::Divides { .. } => return None,
            Predicate::Or(ps) => {
                Predicate::And(ps.iter().map(Predicate::negate).collect::<Option<_>>()?)
            }
            Predicate::And(ps) => {
                Predicate::Or(ps.iter().map(Predicate::negate).collect::<Option<_>>()?)
            }
        })
    }
}

impl SymbolTable {
    /// Decides `p` for all values of the symbols within their ranges, when
    /// provable from structure and [`bounds`](SymbolTable::bounds):
    /// `Some(true)` if it always holds, `Some(false)` if it never holds,
    /// `None` if unknown.
    pub fn decide(&self, p: &Predicate) -> Option<bool> {
        // (lo, hi) of a - b, each None when unbounded or unknown.
        let diff = |a: &Expr, b: &Expr| -> (Option<i64>, Option<i64>) {
            if a == b {
                return (Some(0), Some(0));
            }
            // Two constants (a quantized model's weights converted, element
            // by element) need no expression built and bounded.
            if let Some(d) = a
                .as_constant()
                .zip(b.as_constant())
                .and_then(|(x, y)| x.checked_sub(y))
            {
                return (Some(d), Some(d));
            }
            // Against a constant, the other side's bounds shifted: no
            // difference built (a window rule's `H >= k - pb - pe`).
            let against_constant = match (a.as_constant(), b.as_constant()) {
                (Some(c), _) => Some((b, c, true)),
                (_, Some(c)) => Some((a, c, false)),
                _ => None,
            };
            if let Some((e, c, negated)) = against_constant {
                // e - c lies in [lo(e) - c, hi(e) - c]; c - e is its negation.
                let Ok(r) = self.bounds(e) else {
                    return (None, None);
                };
                let lo = r.lo.and_then(|l| l.checked_sub(c));
                let hi = r.hi.and_then(|h| h.checked_sub(c));
                return if negated {
                    (hi.and_then(i64::checked_neg), lo.and_then(i64::checked_neg))
                } else {
                    (lo, hi)
                };
            }
            match a.sub(b).ok().and_then(|d| self.bounds(&d).ok()) {
                Some(i) => (i.lo, i.hi),
                None => (None, None),
            }
        };
        // decide `d < 0`, or `d <= 0` when `strict` is false.
        let below = |(lo, hi): (Option<i64>, Option<i64>), strict: bool| -> Option<bool> {
            let (t, f) = if strict {
                (hi.is_some_and(|h| h < 0), lo.is_some_and(|l| l >= 0))
            } else {
                (hi.is_some_and(|h| h <= 0), lo.is_some_and(|l| l > 0))
            };
            if t {
                Some(true)
            } else if f {
                Some(false)
            } else {
                None
            }
        };
        match p {
            Predicate::Eq(a, b) | Predicate::Ne(a, b) => {
                let (lo, hi) = diff(a, b);
                let eq = if lo == Some(0) && hi == Some(0) {
                    Some(true)
                } else if lo.is_some_and(|l| l > 0) || hi.is_some_and(|h| h < 0) {
                    Some(false)
                } else if self.compare(a, b) == Some(Ordering::Equal) {
                    Some(true)
                } else {
                    None
                };
                eq.map(|v| v == matches!(p, Predicate::Eq(..)))
            }
            Predicate::Lt(a, b) => below(diff(a, b), true),
            Predicate::Le(a, b) => below(diff(a, b), false),
            Predicate::Gt(a, b) => below(diff(b, a), true),
            Predicate::Ge(a, b) => below(diff(b, a), false),
            Predicate::Divides { divisor, expr } => {
                if *divisor <= 0 {
                    return None;
                }
                if *divisor == 1 || expr.terms().all(|(c, _)| c % divisor == 0) {
                    return Some(true);
                }
                let v = expr
                    .as_constant()
                    .or_else(|| self.bounds(expr).ok()?.as_point())?;
                Some(v.rem_euclid(*divisor) == 0)
            }
            Predicate::Or(ps) => {
                let mut all_false = true;
                for q in ps {
                    match self.decide(q) {
                        Some(true) => return Some(true),
                        Some(false) => {}
                        None => all_false = false,
                    }
                }
                all_false.then_some(false)
            }
            Predicate::And(ps) => {
                let mut all_true = true;
                for q in ps {
                    match self.decide(q) {
                        Some(false) => return Some(false),
                        Some(true) => {}
                        None => all_true = false,
                    }
                }
                all_true.then_some(true)
            }
        }
    }

    /// Displays a predicate: `N == 1 or N == 5`, `(4*N*S) % 3 == 0`,
    /// `N <= 8`, `N > 0 and (S == 1 or S == 3)`.
    pub fn display_predicate<'a>(&'a self, p: &'a Predicate) -> impl std::fmt::Display + 'a {
        crate::display::PredicateDisplay {
            table: self,
            pred: p,
        }
    }
}
