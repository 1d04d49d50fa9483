//! Closed integer intervals with optionally unbounded ends.

use std::fmt;

/// A closed integer interval `[lo, hi]`; `None` means unbounded
/// (`lo = None` is −∞, `hi = None` is +∞).
///
/// An interval with `lo > hi` is empty; [`Interval::intersect`] never returns
/// one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Interval {
    /// Lower bound (inclusive); `None` = −∞.
    pub lo: Option<i64>,
    /// Upper bound (inclusive); `None` = +∞.
    pub hi: Option<i64>,
}

impl Interval {
    /// `[lo, hi]`.
    pub fn new(lo: Option<i64>, hi: Option<i64>) -> Self {
        Interval { lo, hi }
    }

    /// The single point `[v, v]`.
    pub fn point(v: i64) -> Self {
        Interval {
            lo: Some(v),
            hi: Some(v),
        }
    }

    /// `[0, +∞)`, the default range of a dimension.
    pub fn nonnegative() -> Self {
        Interval {
            lo: Some(0),
            hi: None,
        }
    }

    /// `(−∞, +∞)`.
    pub fn unbounded() -> Self {
        Interval { lo: None, hi: None }
    }

    /// Whether `v` lies in the interval.
    pub fn contains(&self, v: i64) -> bool {
        !matches!(self.lo, Some(lo) if lo > v) && !matches!(self.hi, Some(hi) if v > hi)
    }

    /// Whether the interval contains no integer (`lo > hi`).
    pub fn is_empty(&self) -> bool {
        matches!((self.lo, self.hi), (Some(lo), Some(hi)) if lo > hi)
    }

    /// The intersection, or `None` if it is empty.
    pub fn intersect(&self, o: &Interval) -> Option<Interval> {
        let lo = match (self.lo, o.lo) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, None) => a,
            (None, b) => b,
        };
        let hi = match (self.hi, o.hi) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, None) => a,
            (None, b) => b,
        };
        let r = Interval { lo, hi };
        if r.is_empty() {
            None
        } else {
            Some(r)
        }
    }

    /// `Some(v)` if the interval is exactly `[v, v]`.
    pub fn as_point(&self) -> Option<i64> {
        match (self.lo, self.hi) {
            (Some(a), Some(b)) if a == b => Some(a),
            _ => None,
        }
    }
}

impl fmt::Display for Interval {
    /// `[2, 10]`, `[0, inf)`, `(-inf, 5]`, `(-inf, inf)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.lo {
            Some(v) => write!(f, "[{v}, ")?,
            None => write!(f, "(-inf, ")?,
        }
        match self.hi {
            Some(v) => write!(f, "{v}]"),
            None => write!(f, "inf)"),
        }
    }
}
