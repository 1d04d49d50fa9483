//! Canonical symbolic integer expressions.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, OnceLock};

use crate::DimError;

/// Maximum number of terms an expression may have.
pub(crate) const MAX_TERMS: usize = 4096;
/// Largest expression the algebra builds, in nodes (see [`Expr::size`]):
/// the term count alone does not bound the work, as one term can hold an
/// atom whose operand is itself large.
pub const MAX_SIZE: usize = 1 << 12;
/// Deepest nesting of atoms (`floor(min(a, b)/2)` nests 2) the algebra
/// builds. Every walk over an expression (comparison, evaluation, display,
/// drop) recurses over this nesting, so bounding it bounds the stack.
pub const MAX_NESTING: usize = 64;
/// Maximum number of nodes a single product may write before merging
/// (each term pair writes a monomial as large as the two it multiplies).
const MAX_PRODUCT_WORK: usize = 1 << 18;
/// Maximum number of steps of polynomial long division.
const MAX_DIVISION_STEPS: usize = 1024;

/// Identifies a symbol of a [`SymbolTable`](crate::SymbolTable); the number is
/// the symbol's index in the table (unnamed symbols display as `?<index>`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct SymbolId(pub u32);

impl SymbolId {
    /// The index of the symbol in its table.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An indivisible factor of a [`Monomial`]. Read-only view: expressions are
/// only built through [`Expr`]'s operations, which keep them canonical.
///
/// Atoms are ordered by variant (symbols first, by id), then by their
/// arguments.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Atom {
    /// A symbol.
    Sym(SymbolId),
    /// `floor(e / k)`, `k >= 2`; `e` has a positive leading coefficient and is
    /// not reducible by the simplification rules.
    FloorDiv(Expr, i64),
    /// `ceil(e / k)`, `k >= 2`; same invariants as `FloorDiv`.
    CeilDiv(Expr, i64),
    /// `e / k` where the division is assumed exact, `k >= 2`.
    ExactDiv(Expr, i64),
    /// `min(a, b)`; arguments sorted (non-constant before constant).
    Min(Expr, Expr),
    /// `max(a, b)`; arguments sorted (non-constant before constant).
    Max(Expr, Expr),
    /// `bcast(a, b)`: the numpy broadcast of two dims (`a` if `a == b` or
    /// `b == 1`, `b` if `a == 1`, undefined otherwise); arguments sorted by
    /// `Expr` order, never equal, neither the constant 1, not both constant.
    Bcast(Expr, Expr),
}

/// A product of atoms with positive exponents, kept sorted by atom. The empty
/// monomial is `1` (the monomial of the constant term).
///
/// Monomials are ordered graded-lexicographically, in *display order*: higher
/// total degree first; at equal degree, compare exponents atom by atom in
/// ascending atom order and the monomial with the larger exponent of the first
/// differing atom comes first (so `N*N` < `N*S` < `S*S`, and `N` < `S` when
/// `N`'s id is smaller). The constant monomial is last. This is a monomial
/// order, which makes polynomial long division well defined.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Monomial {
    /// Shared, as an [`Expr`]'s terms are: a sum built from another (`e +
    /// 1`, `a - b`, a term map) copies every monomial, and a copied list
    /// was an allocation per monomial plus one per nested operand (issue
    /// 18). `None` is the constant monomial, never `Some` of an empty list,
    /// so that equal monomials are equal values.
    factors: Option<Arc<[(Atom, u32)]>>,
}

impl std::fmt::Debug for Monomial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Monomial")
            .field("factors", &self.factors())
            .finish()
    }
}

impl Monomial {
    /// The factors `(atom, exponent)`, sorted by atom, exponents `>= 1`.
    #[inline]
    pub fn factors(&self) -> &[(Atom, u32)] {
        self.factors.as_deref().unwrap_or(&[])
    }

    /// Whether this is the constant monomial `1`.
    #[inline]
    pub fn is_one(&self) -> bool {
        self.factors.is_none()
    }

    /// Total degree (sum of exponents).
    pub fn degree(&self) -> u64 {
        self.factors().iter().map(|(_, e)| u64::from(*e)).sum()
    }

    /// The monomial of sorted factors (the empty list is `1`).
    fn from_factors(factors: Vec<(Atom, u32)>) -> Monomial {
        Monomial {
            factors: (!factors.is_empty()).then(|| factors.into()),
        }
    }

    fn atom(a: Atom) -> Monomial {
        Monomial {
            factors: Some(Arc::new([(a, 1)])),
        }
    }

    fn mul(&self, o: &Monomial) -> Result<Monomial, DimError> {
        if o.is_one() {
            return Ok(self.clone());
        }
        if self.is_one() {
            return Ok(o.clone());
        }
        let (f, g) = (self.factors(), o.factors());
        if let ([(a, ea)], [(b, eb)]) = (f, g) {
            // Two single factors (`N*S`, `N*max(...)`): one allocation.
            let factors: Arc<[(Atom, u32)]> = match a.cmp(b) {
                Ordering::Less => Arc::new([(a.clone(), *ea), (b.clone(), *eb)]),
                Ordering::Greater => Arc::new([(b.clone(), *eb), (a.clone(), *ea)]),
                Ordering::Equal => {
                    Arc::new([(a.clone(), ea.checked_add(*eb).ok_or(DimError::Overflow)?)])
                }
            };
            return Ok(Monomial {
                factors: Some(factors),
            });
        }
        let mut out = Vec::with_capacity(f.len() + g.len());
        let (mut i, mut j) = (0, 0);
        while i < f.len() && j < g.len() {
            let (a, ea) = &f[i];
            let (b, eb) = &g[j];
            match a.cmp(b) {
                Ordering::Less => {
                    out.push((a.clone(), *ea));
                    i += 1;
                }
                Ordering::Greater => {
                    out.push((b.clone(), *eb));
                    j += 1;
                }
                Ordering::Equal => {
                    out.push((a.clone(), ea.checked_add(*eb).ok_or(DimError::Overflow)?));
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend_from_slice(&f[i..]);
        out.extend_from_slice(&g[j..]);
        Ok(Monomial::from_factors(out))
    }

    /// `self / o` if `o` divides `self`.
    fn divide(&self, o: &Monomial) -> Option<Monomial> {
        let g = o.factors();
        let mut out = Vec::with_capacity(self.factors().len());
        let mut j = 0;
        for (a, ea) in self.factors() {
            if j < g.len() && g[j].0 == *a {
                let eb = g[j].1;
                j += 1;
                match ea.cmp(&eb) {
                    Ordering::Less => return None,
                    Ordering::Equal => {}
                    Ordering::Greater => out.push((a.clone(), ea - eb)),
                }
            } else {
                if j < g.len() && g[j].0 < *a {
                    return None;
                }
                out.push((a.clone(), *ea));
            }
        }
        if j < g.len() {
            return None;
        }
        Some(Monomial::from_factors(out))
    }

    /// The monomial with the exponent of factor `idx` lowered by one.
    fn decrement(&self, idx: usize) -> Monomial {
        let mut factors = self.factors().to_vec();
        if factors[idx].1 == 1 {
            factors.remove(idx);
        } else {
            factors[idx].1 -= 1;
        }
        Monomial::from_factors(factors)
    }
}

impl Ord for Monomial {
    fn cmp(&self, o: &Self) -> Ordering {
        match o.degree().cmp(&self.degree()) {
            Ordering::Equal => {}
            ord => return ord,
        }
        for ((a, ea), (b, eb)) in self.factors().iter().zip(o.factors().iter()) {
            match a.cmp(b) {
                Ordering::Equal => match eb.cmp(ea) {
                    Ordering::Equal => {}
                    ord => return ord,
                },
                // `self` has atom `a` which `o` lacks (o's next atom is larger).
                ord => return ord,
            }
        }
        // Equal degree and equal common prefix: the factor lists are equal.
        self.factors().len().cmp(&o.factors().len())
    }
}

impl PartialOrd for Monomial {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// A symbolic integer expression in canonical form.
///
/// An `Expr` is a sum of terms `coefficient × monomial` with nonzero `i64`
/// coefficients, sorted by [`Monomial`] order (display order: highest degree
/// first, constant last). Two expressions that the simplification rules
/// reduce to the same form compare equal with `==`, so `3*N == N*3`,
/// `(D+1)-1 == D` and `N*S == S*N`.
///
/// All arithmetic is checked and returns [`DimError::Overflow`] instead of
/// wrapping.
///
/// Note: `Expr` implements [`Ord`] (a canonical total order, not numeric), so
/// on an *owned* receiver `a.min(&b)` resolves to [`Ord::min`] and fails to
/// compile; write `Expr::min(&a, &b)`, `(&a).min(&b)` or
/// [`a.min_with(&b)`](Expr::min_with).
#[derive(Clone, Eq, PartialOrd, Ord, Debug, Default)]
pub struct Expr {
    /// Shared: an expression is never changed once built, and shapes are
    /// copied far more than they are computed (every elementwise op's
    /// output repeats its input's dims), so a clone is a count, not an
    /// allocation per term list (issue 18: 800,000 copies held for a
    /// 100,000-layer chain).
    terms: Arc<[(Monomial, i64)]>,
}

/// Equal terms, as derived, but a copy of the same expression (most
/// comparisons: a Reshape's dims against its input's, a report's shape
/// against the last one) is equal without walking its terms.
impl PartialEq for Expr {
    #[inline]
    fn eq(&self, o: &Expr) -> bool {
        Arc::ptr_eq(&self.terms, &o.terms) || self.terms[..] == o.terms[..]
    }
}

/// As derived (the terms), written out beside the hand-written `eq`.
impl std::hash::Hash for Expr {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.terms.hash(state);
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// `Some((index, g))` if the term `c * m` contains an exact-division atom
/// `e/k` with `g = gcd(c, k) > 1`, which can be simplified.
fn exact_reducible(m: &Monomial, c: i64) -> Option<(usize, i64)> {
    for (i, (a, _)) in m.factors().iter().enumerate() {
        if let Atom::ExactDiv(_, k) = a {
            let g = gcd(c.unsigned_abs(), k.unsigned_abs());
            if g > 1 {
                return Some((i, g as i64));
            }
        }
    }
    None
}

impl Expr {
    /// Builds an expression from a map of terms: drops zero terms,
    /// simplifies `c * (e/k) * rest` when `gcd(c, k) > 1` and folds
    /// multiples of exact divisions ([`Expr::fold_exact_multiple`]).
    fn from_map(mut map: BTreeMap<Monomial, i64>) -> Result<Expr, DimError> {
        // Each fold merges two terms into one, so a loop (not recursion:
        // the stack stays flat) of at most `MAX_TERMS` rounds ends.
        for _ in 0..=MAX_TERMS {
            let e = Expr::reduce_exact_coefficients(map)?;
            match e.fold_exact_multiple()? {
                Some(folded) => map = folded,
                None => return Ok(e),
            }
        }
        Err(DimError::TooComplex)
    }

    /// Drops zero terms and simplifies `c * (e/k) * rest` when
    /// `gcd(c, k) > 1`.
    fn reduce_exact_coefficients(map: BTreeMap<Monomial, i64>) -> Result<Expr, DimError> {
        let mut terms = Vec::with_capacity(map.len());
        let mut pending = Vec::new();
        for (m, c) in map {
            if c == 0 {
                continue;
            }
            match exact_reducible(&m, c) {
                Some((idx, g)) => pending.push((m, c, idx, g)),
                None => terms.push((m, c)),
            }
        }
        if terms.len() > MAX_TERMS {
            return Err(DimError::TooComplex);
        }
        let mut e = Expr {
            terms: terms.into(),
        }
        .within_limits()?;
        for (m, c, idx, g) in pending {
            let Atom::ExactDiv(inner, k) = &m.factors()[idx].0 else {
                unreachable!("exact_reducible returns an ExactDiv factor")
            };
            // c * (inner/k) = (c/g) * (inner/(k/g))
            let rest = Expr::term(m.decrement(idx), c / g)?;
            let part = rest.mul(&inner.assumed_exact_div(k / g)?)?;
            e = e.add(&part)?;
        }
        Ok(e)
    }

    /// Folds a term that is a multiple of what an exact division divides
    /// into that division's term: with `A/2` present, `A - 5*(A/2)` is
    /// `-3*(A/2)` (as `2*(A/2) = A`), so that equal sums have one form
    /// whichever way they were built. Applies where the division's operand
    /// is a single term `e*t` and the sum holds `a*R*t` with `e | a` beside
    /// `c*R*(e*t/k)`. Returns the terms after one fold, or `None` when
    /// nothing folds.
    fn fold_exact_multiple(&self) -> Result<Option<BTreeMap<Monomial, i64>>, DimError> {
        /// An exact-division factor `E/k` (to the power `exponent`) of term
        /// `term`, and that term's monomial with one power of it removed.
        struct Division<'a> {
            term: usize,
            operand: &'a Expr,
            k: i64,
            exponent: u32,
            rest: Monomial,
        }
        // Computed once: the searches below compare these, never clone.
        let divisions: Vec<Division> = self
            .terms
            .iter()
            .enumerate()
            .flat_map(|(term, (m, _))| {
                m.factors()
                    .iter()
                    .enumerate()
                    .filter_map(move |(i, (a, exponent))| match a {
                        Atom::ExactDiv(operand, k) => Some(Division {
                            term,
                            operand,
                            k: *k,
                            exponent: *exponent,
                            rest: m.decrement(i),
                        }),
                        _ => None,
                    })
            })
            .collect();
        // The divisions of each operand, in term order.
        let mut by_operand: HashMap<&Expr, Vec<&Division>> = HashMap::new();
        for d in &divisions {
            by_operand.entry(d.operand).or_default().push(d);
        }
        let rebuilt = |remove: &Monomial, insert: &Monomial, coefficient: i64| {
            let mut map: BTreeMap<Monomial, i64> = self.terms.iter().cloned().collect();
            map.remove(remove);
            map.insert(insert.clone(), coefficient);
            Some(map)
        };
        for d in &divisions {
            let (m, c) = &self.terms[d.term];
            // `c*R*(E/k)` beside `b*R*(E/(j*k))`: `E/k = j*(E/(j*k))`.
            if d.exponent == 1 {
                let finer = by_operand[d.operand]
                    .iter()
                    .find(|f| f.exponent == 1 && f.k > d.k && f.k % d.k == 0 && f.rest == d.rest);
                if let Some(f) = finer {
                    let (other, b) = &self.terms[f.term];
                    let folded = c
                        .checked_mul(f.k / d.k)
                        .and_then(|x| x.checked_add(*b))
                        .ok_or(DimError::Overflow)?;
                    return Ok(rebuilt(m, other, folded));
                }
            }
            // `a*R*t` beside `c*R*(e*t/k)` with `e | a`: `a*R*t =
            // (a/e)*k*R*(e*t/k)`.
            let [(t, e)] = &d.operand.terms[..] else {
                continue;
            };
            let Ok(target) = d.rest.mul(t) else {
                continue;
            };
            // Terms are sorted by monomial.
            let Ok(at) = self.terms.binary_search_by(|(tm, _)| tm.cmp(&target)) else {
                continue;
            };
            let a = self.terms[at].1;
            if *e == 0 || a % e != 0 {
                continue;
            }
            let folded = (a / e)
                .checked_mul(d.k)
                .and_then(|x| x.checked_add(*c))
                .ok_or(DimError::Overflow)?;
            return Ok(rebuilt(&target, m, folded));
        }
        Ok(None)
    }

    fn term(m: Monomial, c: i64) -> Result<Expr, DimError> {
        let mut map = BTreeMap::new();
        map.insert(m, c);
        Expr::from_map(map)
    }

    /// The expression of one atom whose operands are given; fails when the
    /// atom would nest deeper than [`MAX_NESTING`] or grow beyond
    /// [`MAX_SIZE`].
    pub(crate) fn from_atom(a: Atom) -> Result<Expr, DimError> {
        Expr {
            terms: Arc::new([(Monomial::atom(a), 1)]),
        }
        .within_limits()
    }

    /// `self`, or [`DimError::TooComplex`] when it is larger than
    /// [`MAX_SIZE`] nodes or nests atoms deeper than [`MAX_NESTING`].
    fn within_limits(self) -> Result<Expr, DimError> {
        let (size, nesting) = self.size_and_nesting();
        if size > MAX_SIZE || nesting > MAX_NESTING {
            return Err(DimError::TooComplex);
        }
        Ok(self)
    }

    /// `(size, nesting)` in one walk; see [`Expr::size`] and
    /// [`Expr::nesting`].
    pub fn size_and_nesting(&self) -> (usize, usize) {
        let mut size = 0;
        let mut nesting = 0;
        for (m, _) in self.terms.iter() {
            size += 1;
            for (atom, _) in m.factors() {
                let (s, n) = match atom {
                    Atom::Sym(_) => (0, 0),
                    Atom::FloorDiv(e, _) | Atom::CeilDiv(e, _) | Atom::ExactDiv(e, _) => {
                        let (s, n) = e.size_and_nesting();
                        (s, n + 1)
                    }
                    Atom::Min(x, y) | Atom::Max(x, y) | Atom::Bcast(x, y) => {
                        let ((sx, nx), (sy, ny)) = (x.size_and_nesting(), y.size_and_nesting());
                        (sx + sy, nx.max(ny) + 1)
                    }
                };
                size += 1 + s;
                nesting = nesting.max(n);
            }
        }
        (size, nesting)
    }

    /// The number of nodes: one per term, one per factor, plus the nodes of
    /// every atom's operands: `0` for zero, `1` for a constant, `2` for a
    /// symbol, `3` for `2*N + 1` (two terms, one factor).
    pub fn size(&self) -> usize {
        self.size_and_nesting().0
    }

    /// How deeply atoms nest: `0` for a polynomial in symbols, `1` for
    /// `floor(N/2) + 1`, `2` for `min(floor(N/2), M)`.
    pub fn nesting(&self) -> usize {
        self.size_and_nesting().1
    }

    /// The constant `v`.
    pub fn constant(v: i64) -> Expr {
        // Every i8 and u8 value, each allocated once and then shared: a
        // quantized model's weights (up to 1,024 of them per
        // Constant, carried as values through their Convert and Subtract)
        // and shape tensors are made of these, and each element was an
        // allocation.
        const SHARED_FROM: i64 = -128;
        static SHARED: [OnceLock<Expr>; 384] = [const { OnceLock::new() }; 384];
        let slot = v
            .checked_sub(SHARED_FROM)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| SHARED.get(i));
        match slot {
            Some(slot) => slot.get_or_init(|| Expr::new_constant(v)).clone(),
            None => Expr::new_constant(v),
        }
    }

    /// The constant `v`, newly allocated.
    fn new_constant(v: i64) -> Expr {
        if v == 0 {
            Expr {
                terms: Arc::new([]),
            }
        } else {
            Expr {
                terms: Arc::new([(Monomial::default(), v)]),
            }
        }
    }

    /// The constant 0.
    pub fn zero() -> Expr {
        Expr::constant(0)
    }

    /// The constant 1.
    pub fn one() -> Expr {
        Expr::constant(1)
    }

    /// The symbol `s`.
    pub fn symbol(s: SymbolId) -> Expr {
        Expr {
            terms: Arc::new([(Monomial::atom(Atom::Sym(s)), 1)]),
        }
    }

    /// The terms `(coefficient, monomial)` in canonical (display) order.
    pub fn terms(&self) -> impl Iterator<Item = (i64, &Monomial)> + '_ {
        self.terms.iter().map(|(m, c)| (*c, m))
    }

    /// Number of terms (the constant counts as one term if nonzero).
    pub fn num_terms(&self) -> usize {
        self.terms.len()
    }

    /// `Some(v)` if the expression is the constant `v`.
    #[inline]
    pub fn as_constant(&self) -> Option<i64> {
        match &self.terms[..] {
            [] => Some(0),
            [(m, c)] if m.is_one() => Some(*c),
            _ => None,
        }
    }

    /// `Some(s)` if the expression is exactly the symbol `s`.
    #[inline]
    pub fn as_symbol(&self) -> Option<SymbolId> {
        match self.as_atom() {
            Some(Atom::Sym(s)) => Some(*s),
            _ => None,
        }
    }

    /// `Some(atom)` if the expression is exactly one atom (coefficient 1,
    /// exponent 1).
    #[inline]
    pub fn as_atom(&self) -> Option<&Atom> {
        match &self.terms[..] {
            [(m, 1)] if m.factors().len() == 1 && m.factors()[0].1 == 1 => Some(&m.factors()[0].0),
            _ => None,
        }
    }

    /// Whether `o` is a copy of this very expression (the same shared
    /// terms): `true` implies `self == o`, `false` says nothing. For caches
    /// keyed by a dim handed on unchanged (a Reshape's output dim is its
    /// input's), without walking the terms.
    #[inline]
    pub fn is_same(&self, o: &Expr) -> bool {
        Arc::ptr_eq(&self.terms, &o.terms)
    }

    /// Whether the expression is a constant.
    #[inline]
    pub fn is_constant(&self) -> bool {
        self.as_constant().is_some()
    }

    /// Whether the expression is the constant 0.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// The constant term (0 if there is none).
    pub fn constant_term(&self) -> i64 {
        match self.terms.last() {
            Some((m, c)) if m.is_one() => *c,
            _ => 0,
        }
    }

    /// Coefficient of the first term in canonical order (0 for the zero
    /// expression).
    fn leading_coef(&self) -> i64 {
        self.terms.first().map_or(0, |(_, c)| *c)
    }

    /// gcd of the absolute values of all coefficients (0 for zero).
    fn content(&self) -> u64 {
        self.terms
            .iter()
            .fold(0, |g, (_, c)| gcd(g, c.unsigned_abs()))
    }

    fn combine(&self, o: &Expr, negate: bool) -> Result<Expr, DimError> {
        if o.is_zero() {
            return Ok(self.clone());
        }
        if self.is_zero() && !negate {
            return Ok(o.clone());
        }
        if let (Some(a), Some(b)) = (self.as_constant(), o.as_constant()) {
            // Folding constants (a weight minus its zero point) needs no map.
            let c = if negate {
                a.checked_sub(b)
            } else {
                a.checked_add(b)
            };
            return c.map(Expr::constant).ok_or(DimError::Overflow);
        }
        if let Some(b) = o.as_constant() {
            let c = if negate { b.checked_neg() } else { Some(b) };
            return self.plus_constant(c.ok_or(DimError::Overflow)?);
        }
        if let Some(a) = self.as_constant() {
            // `a - o` is `-o + a`: negating keeps every term's monomial, so
            // the canonical order and every simplification stay.
            let o = if negate { o.neg()? } else { o.clone() };
            return if a == 0 { Ok(o) } else { o.plus_constant(a) };
        }
        if !self.has_exact_division() && !o.has_exact_division() {
            return self.merge(o, negate);
        }
        self.combine_by_map(o, negate)
    }

    /// `self ± o` through a term map and [`Expr::from_map`]'s
    /// simplifications.
    pub(crate) fn combine_by_map(&self, o: &Expr, negate: bool) -> Result<Expr, DimError> {
        let mut map: BTreeMap<Monomial, i64> = self.terms.iter().cloned().collect();
        for (m, c) in o.terms.iter() {
            let slot = map.entry(m.clone()).or_insert(0);
            *slot = if negate {
                slot.checked_sub(*c)
            } else {
                slot.checked_add(*c)
            }
            .ok_or(DimError::Overflow)?;
        }
        Expr::from_map(map)
    }

    /// Whether a term has an exact-division factor: the only factor
    /// [`Expr::from_map`] simplifies (a coefficient sharing a divisor with
    /// it, a multiple of its operand beside it).
    pub(crate) fn has_exact_division(&self) -> bool {
        self.terms.iter().any(|(m, _)| {
            m.factors()
                .iter()
                .any(|(a, _)| matches!(a, Atom::ExactDiv(..)))
        })
    }

    /// `self ± o` for sums without exact divisions, by merging the two
    /// sorted term lists: the terms are the map's, in the map's order
    /// (both lists are sorted by `Monomial` order, and equal monomials add
    /// up), and with no exact division among them `from_map` would only
    /// drop the zero terms and check the limits, which this does too.
    pub(crate) fn merge(&self, o: &Expr, negate: bool) -> Result<Expr, DimError> {
        let (f, g) = (&self.terms[..], &o.terms[..]);
        let mut terms = Vec::with_capacity(f.len() + g.len());
        let (mut i, mut j) = (0, 0);
        let signed = |c: i64| {
            if negate {
                c.checked_neg().ok_or(DimError::Overflow)
            } else {
                Ok(c)
            }
        };
        while i < f.len() || j < g.len() {
            let order = match (f.get(i), g.get(j)) {
                (Some((a, _)), Some((b, _))) => a.cmp(b),
                (Some(_), None) => Ordering::Less,
                _ => Ordering::Greater,
            };
            match order {
                Ordering::Less => {
                    terms.push(f[i].clone());
                    i += 1;
                }
                Ordering::Greater => {
                    let (m, c) = &g[j];
                    terms.push((m.clone(), signed(*c)?));
                    j += 1;
                }
                Ordering::Equal => {
                    let (m, a) = &f[i];
                    let b = g[j].1;
                    let c = if negate {
                        a.checked_sub(b)
                    } else {
                        a.checked_add(b)
                    }
                    .ok_or(DimError::Overflow)?;
                    if c != 0 {
                        terms.push((m.clone(), c));
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        if terms.len() > MAX_TERMS {
            return Err(DimError::TooComplex);
        }
        Expr {
            terms: terms.into(),
        }
        .within_limits()
    }

    /// `self + c` without a term map (a convolution's `H + 2 - 3`, a
    /// slice's `D - 2`: most sums in a model): the constant is the last
    /// term in canonical order, and no simplification involves it (an exact
    /// division folds with a multiple of its operand's monomial, never `1`:
    /// a division of a constant is itself a constant).
    fn plus_constant(&self, c: i64) -> Result<Expr, DimError> {
        // The new list is collected straight into its shared allocation.
        match self.terms.split_last() {
            Some(((m, k), rest)) if m.is_one() => {
                let k = k.checked_add(c).ok_or(DimError::Overflow)?;
                let rest = rest.iter().cloned();
                let terms: Arc<[(Monomial, i64)]> = if k == 0 {
                    rest.collect()
                } else {
                    rest.chain(std::iter::once((Monomial::default(), k)))
                        .collect()
                };
                Ok(Expr { terms })
            }
            _ => Expr {
                terms: self
                    .terms
                    .iter()
                    .cloned()
                    .chain(std::iter::once((Monomial::default(), c)))
                    .collect(),
            }
            .within_limits(),
        }
    }

    /// `self + o`.
    pub fn add(&self, o: &Expr) -> Result<Expr, DimError> {
        self.combine(o, false)
    }

    /// `self - o`.
    pub fn sub(&self, o: &Expr) -> Result<Expr, DimError> {
        self.combine(o, true)
    }

    /// `-self`.
    pub fn neg(&self) -> Result<Expr, DimError> {
        let terms = self
            .terms
            .iter()
            .map(|(m, c)| Ok((m.clone(), c.checked_neg().ok_or(DimError::Overflow)?)))
            .collect::<Result<Vec<_>, DimError>>()?;
        Ok(Expr {
            terms: terms.into(),
        })
    }

    /// `self * o` (fully expanded).
    pub fn mul(&self, o: &Expr) -> Result<Expr, DimError> {
        if let Some(c) = o.as_constant() {
            return self.mul_const(c);
        }
        if let Some(c) = self.as_constant() {
            return o.mul_const(c);
        }
        if self.terms.len() < o.terms.len() {
            return o.mul(self);
        }
        if let ([(m1, c1)], [(m2, c2)]) = (&self.terms[..], &o.terms[..]) {
            // One term by one (a Reshape's element count): no list to grow.
            let m = m1.mul(m2)?;
            let c = c1.checked_mul(*c2).ok_or(DimError::Overflow)?;
            return if exact_reducible(&m, c).is_some() {
                Expr::from_map(std::iter::once((m, c)).collect())
            } else {
                Expr {
                    terms: Arc::new([(m, c)]),
                }
                .within_limits()
            };
        }
        if let [(m2, c2)] = &o.terms[..] {
            // Multiplying by one term preserves the (monomial) order, so no
            // merging is needed.
            let mut terms = Vec::with_capacity(self.terms.len());
            let mut reducible = false;
            for (m1, c1) in self.terms.iter() {
                let m = m1.mul(m2)?;
                let c = c1.checked_mul(*c2).ok_or(DimError::Overflow)?;
                reducible |= exact_reducible(&m, c).is_some();
                terms.push((m, c));
            }
            return if reducible {
                Expr::from_map(terms.into_iter().collect())
            } else {
                Expr {
                    terms: terms.into(),
                }
                .within_limits()
            };
        }
        let written = (self.size().saturating_mul(o.terms.len()))
            .saturating_add(o.size().saturating_mul(self.terms.len()));
        if written > MAX_PRODUCT_WORK {
            return Err(DimError::TooComplex);
        }
        let mut map: BTreeMap<Monomial, i64> = BTreeMap::new();
        for (m1, c1) in self.terms.iter() {
            for (m2, c2) in o.terms.iter() {
                let m = m1.mul(m2)?;
                let c = c1.checked_mul(*c2).ok_or(DimError::Overflow)?;
                let slot = map.entry(m).or_insert(0);
                *slot = slot.checked_add(c).ok_or(DimError::Overflow)?;
            }
            // Cancellation cannot shrink the final result below the number
            // of distinct monomials seen by much; bail out early.
            if map.len() > 4 * MAX_TERMS {
                return Err(DimError::TooComplex);
            }
        }
        Expr::from_map(map)
    }

    /// `0 + self + self + ...` with `n` terms, as that many
    /// [`add`](Expr::add)s give it (a Concat of `n` inputs of one dim).
    /// Without exact divisions the sums are `k*self`, every coefficient
    /// moving monotonically from `c` to `n*c`, so `n*self` overflows
    /// exactly when one of them does, and has the same terms (so the same
    /// size) as each; with them, the sums are built one by one.
    pub fn repeated_sum(&self, n: usize) -> Result<Expr, DimError> {
        if self.has_exact_division() {
            let mut sum = Expr::zero();
            for _ in 0..n {
                sum = sum.add(self)?;
            }
            return Ok(sum);
        }
        match n {
            0 => Ok(Expr::zero()),
            1 => Ok(self.clone()),
            _ => self.mul_const(i64::try_from(n).map_err(|_| DimError::Overflow)?),
        }
    }

    /// `self + c`.
    pub fn add_const(&self, c: i64) -> Result<Expr, DimError> {
        self.add(&Expr::constant(c))
    }

    /// `self * c`.
    pub fn mul_const(&self, c: i64) -> Result<Expr, DimError> {
        match c {
            0 => return Ok(Expr::zero()),
            1 => return Ok(self.clone()),
            -1 => return self.neg(),
            _ => {}
        }
        if !self.has_exact_division() {
            // A nonzero factor keeps every term nonzero and in its place,
            // and without exact divisions `from_map` changes nothing else.
            let terms = self
                .terms
                .iter()
                .map(|(m, k)| Ok((m.clone(), k.checked_mul(c).ok_or(DimError::Overflow)?)))
                .collect::<Result<Arc<[_]>, DimError>>()?;
            return Expr { terms }.within_limits();
        }
        self.mul_const_by_map(c)
    }

    /// `self * c` through a term map, which folds exact divisions again: what
    /// [`Expr::mul_const`] does with them, and what the tests compare its
    /// shortcut with.
    pub(crate) fn mul_const_by_map(&self, c: i64) -> Result<Expr, DimError> {
        if c == 0 {
            return Ok(Expr::zero());
        }
        let mut map = BTreeMap::new();
        for (m, k) in self.terms.iter() {
            map.insert(m.clone(), k.checked_mul(c).ok_or(DimError::Overflow)?);
        }
        Expr::from_map(map)
    }

    /// `self^n` by repeated squaring.
    pub fn pow(&self, mut n: u32) -> Result<Expr, DimError> {
        let mut base = self.clone();
        let mut acc = Expr::one();
        while n > 0 {
            if n & 1 == 1 {
                acc = acc.mul(&base)?;
            }
            n >>= 1;
            if n > 0 {
                base = base.mul(&base)?;
            }
        }
        Ok(acc)
    }

    /// Splits into `(q, r)` with `self = k*q + r`, where `q` collects the
    /// terms whose coefficient is divisible by `k` (divided by `k`) and `r`
    /// the others.
    fn split_divisible(&self, k: i64) -> Result<(Expr, Expr), DimError> {
        let mut q = BTreeMap::new();
        let mut r = Vec::new();
        for (m, c) in self.terms.iter() {
            if c % k == 0 {
                q.insert(m.clone(), c / k);
            } else {
                r.push((m.clone(), *c));
            }
        }
        Ok((Expr::from_map(q)?, Expr { terms: r.into() }))
    }

    /// Divides every coefficient by `g` (which must divide them all).
    fn div_coefs(&self, g: i64) -> Result<Expr, DimError> {
        let map = self.terms.iter().map(|(m, c)| (m.clone(), c / g)).collect();
        Expr::from_map(map)
    }

    /// Shared prologue of the three divisions: returns `Ok(Err(result))` when
    /// the division is fully resolved, else `Ok(Ok((q, r, k)))` with
    /// `self = k_orig*q + (k_orig/k)*r` and `r` non-constant, content-reduced,
    /// `k >= 2`.
    #[allow(clippy::type_complexity)]
    fn div_prologue(
        &self,
        k: i64,
        constant: impl Fn(i64) -> Result<i64, DimError>,
    ) -> Result<Result<(Expr, Expr, i64), Expr>, DimError> {
        if k <= 0 {
            return Err(DimError::DivisionByNonPositive(k));
        }
        if k == 1 {
            return Ok(Err(self.clone()));
        }
        let (q, r) = self.split_divisible(k)?;
        if r.is_zero() {
            return Ok(Err(q));
        }
        if let Some(c) = r.as_constant() {
            return Ok(Err(q.add_const(constant(c)?)?));
        }
        let g = gcd(r.content(), k as u64) as i64;
        let (r, k) = if g > 1 {
            (r.div_coefs(g)?, k / g)
        } else {
            (r, k)
        };
        if k == 1 {
            return Ok(Err(q.add(&r)?));
        }
        Ok(Ok((q, r, k)))
    }

    /// `floor(self / k)` for `k > 0`.
    ///
    /// Simplifications: `k = 1` is the identity; terms whose coefficient is
    /// divisible by `k` are pulled out (`floor((k*q + r)/k) = q +
    /// floor(r/k)`); a constant remainder folds (rounding toward −∞); the
    /// remainder is reduced by `gcd(content, k)`; a negative leading
    /// coefficient becomes `-ceil(-r/k)`; `floor(floor(e/a)/b) =
    /// floor(e/(a*b))`.
    pub fn floor_div(&self, k: i64) -> Result<Expr, DimError> {
        let (q, r, k) = match self.div_prologue(k, |c| Ok(c.div_euclid(k)))? {
            Ok(x) => x,
            Err(done) => return Ok(done),
        };
        if r.leading_coef() < 0 {
            return q.sub(&r.neg()?.ceil_div(k)?);
        }
        if let Some(Atom::FloorDiv(inner, a)) = r.as_atom() {
            if let Some(ak) = a.checked_mul(k) {
                return q.add(&inner.floor_div(ak)?);
            }
        }
        q.add(&Expr::from_atom(Atom::FloorDiv(r, k))?)
    }

    /// `ceil(self / k)` for `k > 0`; the mirror image of
    /// [`floor_div`](Expr::floor_div) (`ceil((k*q + r)/k) = q + ceil(r/k)`,
    /// `ceil(ceil(e/a)/b) = ceil(e/(a*b))`, negative leading coefficient
    /// becomes `-floor(-r/k)`).
    pub fn ceil_div(&self, k: i64) -> Result<Expr, DimError> {
        let (q, r, k) = match self.div_prologue(k, |c| Ok(ceil_div_i64(c, k)))? {
            Ok(x) => x,
            Err(done) => return Ok(done),
        };
        if r.leading_coef() < 0 {
            return q.sub(&r.neg()?.floor_div(k)?);
        }
        if let Some(Atom::CeilDiv(inner, a)) = r.as_atom() {
            if let Some(ak) = a.checked_mul(k) {
                return q.add(&inner.ceil_div(ak)?);
            }
        }
        q.add(&Expr::from_atom(Atom::CeilDiv(r, k))?)
    }

    /// `self / k` where the caller asserts the division is exact (`k > 0`).
    ///
    /// Returns the quotient itself when every coefficient is divisible by
    /// `k`; otherwise pulls out the divisible terms, reduces by
    /// `gcd(content, k)` and builds an exact-division atom displayed `e/k`
    /// (`(e/a)/b = e/(a*b)`; a negative leading coefficient is moved outside).
    /// A constant dividend that is not a multiple of `k` is
    /// [`DimError::NotDivisible`].
    pub fn assumed_exact_div(&self, k: i64) -> Result<Expr, DimError> {
        let (q, r, k) = match self.div_prologue(k, |c| {
            Err(DimError::NotDivisible {
                dividend: c,
                divisor: k,
            })
        })? {
            Ok(x) => x,
            Err(done) => return Ok(done),
        };
        if r.leading_coef() < 0 {
            return q.sub(&r.neg()?.assumed_exact_div(k)?);
        }
        if let Some(Atom::ExactDiv(inner, a)) = r.as_atom() {
            if let Some(ak) = a.checked_mul(k) {
                return q.add(&inner.assumed_exact_div(ak)?);
            }
        }
        q.add(&Expr::from_atom(Atom::ExactDiv(r, k))?)
    }

    /// Exact polynomial division `self / divisor`, or `None` when the
    /// quotient is not a polynomial with integer coefficients (or cannot be
    /// found). Atoms are treated as independent variables.
    ///
    /// `(N*15*D)/N = 15*D`, `(6*N + 3)/3 = 2*N + 1`, `e/1 = e`, `e/e = 1`,
    /// `(N*N - 1)/(N + 1) = N - 1`. Division by zero is `None`.
    pub fn exact_div(&self, divisor: &Expr) -> Option<Expr> {
        if divisor.is_zero() {
            return None;
        }
        if self.is_zero() {
            return Some(Expr::zero());
        }
        if self == divisor {
            return Some(Expr::one());
        }
        if let Some(k) = divisor.as_constant() {
            if k == 1 {
                // Every Reshape to `[0, -1]` divides by the empty product.
                return Some(self.clone());
            }
            let mut map = BTreeMap::new();
            for (m, c) in self.terms.iter() {
                if c.checked_rem(k)? != 0 {
                    return None;
                }
                map.insert(m.clone(), c.checked_div(k)?);
            }
            return Expr::from_map(map).ok();
        }
        let (lm, lc) = &divisor.terms[0];
        let mut r = self.clone();
        let mut q = Expr::zero();
        for _ in 0..MAX_DIVISION_STEPS {
            let Some((rm, rc)) = r.terms.first() else {
                return Some(q);
            };
            let m = rm.divide(lm)?;
            if rc.checked_rem(*lc)? != 0 {
                return None;
            }
            let t = Expr::term(m, rc.checked_div(*lc)?).ok()?;
            let rm = rm.clone();
            q = q.add(&t).ok()?;
            r = r.sub(&t.mul(divisor).ok()?).ok()?;
            // Guarantee progress: the leading monomial must strictly decrease.
            if let Some((nm, _)) = r.terms.first() {
                if *nm <= rm {
                    return None;
                }
            }
        }
        None
    }

    fn min_max(a: &Expr, b: &Expr, is_min: bool) -> Result<Expr, DimError> {
        if a == b {
            return Ok(a.clone());
        }
        if let Some(d) = a.constant_difference(b) {
            return Ok(if (d < 0) == is_min {
                a.clone()
            } else {
                b.clone()
            });
        }
        // Absorption: min(a, min(a, y)) = min(a, y); min(a, max(a, y)) = a.
        for (x, y) in [(a, b), (b, a)] {
            match (y.as_atom(), is_min) {
                (Some(Atom::Min(p, q)), true) | (Some(Atom::Max(p, q)), false)
                    if *p == *x || *q == *x =>
                {
                    return Ok(y.clone());
                }
                (Some(Atom::Max(p, q)), true) | (Some(Atom::Min(p, q)), false)
                    if *p == *x || *q == *x =>
                {
                    return Ok(x.clone());
                }
                _ => {}
            }
        }
        // A constant bound of a shifted bound of the same kind merges into
        // it: `max(max(x, k1) + c, k2) = max(x + c, max(k1 + c, k2))`, and
        // `min` alike. Each Slice of a chain that drops the first element
        // then leaves `max(D - k, 0)`, not one more level of nesting.
        for (x, k) in [(a, b), (b, a)] {
            let Some(k) = k.as_constant() else { continue };
            let c = x.constant_term();
            c.checked_neg().ok_or(DimError::Overflow)?;
            // `x - c` is `x` without its constant term: its atom, if it is
            // one, read off the terms rather than built.
            let (p, q) = match (x.without_constant_term_as_atom(), is_min) {
                (Some(Atom::Min(p, q)), true) | (Some(Atom::Max(p, q)), false) => (p, q),
                _ => continue,
            };
            let (inner, k1) = match (p.as_constant(), q.as_constant()) {
                (Some(k1), None) => (q, k1),
                (None, Some(k1)) => (p, k1),
                _ => continue,
            };
            let k1 = k1.checked_add(c).ok_or(DimError::Overflow)?;
            let bound = if is_min { k1.min(k) } else { k1.max(k) };
            return Expr::min_max(&inner.add_const(c)?, &Expr::constant(bound), is_min);
        }
        let (ca, cb) = (a.constant_term(), b.constant_term());
        if ca == cb && ca != 0 {
            // `-ca` overflows only for `i64::MIN` (where the sums below
            // would overflow anyway; a release build answered that).
            let minus = ca.checked_neg().ok_or(DimError::Overflow)?;
            let inner = Expr::min_max(&a.add_const(minus)?, &b.add_const(minus)?, is_min)?;
            return inner.add_const(ca);
        }
        let key = |e: &Expr| e.is_constant();
        let (x, y) = if (key(a), a) <= (key(b), b) {
            (a, b)
        } else {
            (b, a)
        };
        let (x, y) = (x.clone(), y.clone());
        Expr::from_atom(if is_min {
            Atom::Min(x, y)
        } else {
            Atom::Max(x, y)
        })
    }

    /// `Some(d)` when `self - o` is the constant `d`, as `self.sub(o)`
    /// would find it. Without exact divisions that sum is the merge of the
    /// two term lists ([`Expr::merge`]), constant exactly when the terms
    /// other than the constant are the same, and `d` is then the
    /// difference of the constant terms (`None` on overflow, where the sum
    /// fails); with them, the sum is built.
    pub(crate) fn constant_difference(&self, o: &Expr) -> Option<i64> {
        if self.has_exact_division() || o.has_exact_division() {
            return self.sub(o).ok()?.as_constant();
        }
        (self.non_constant_terms() == o.non_constant_terms())
            .then(|| self.constant_term().checked_sub(o.constant_term()))
            .flatten()
    }

    /// The terms other than the constant term.
    fn non_constant_terms(&self) -> &[(Monomial, i64)] {
        match self.terms.split_last() {
            Some(((m, _), rest)) if m.is_one() => rest,
            _ => &self.terms,
        }
    }

    /// `Some((s, c))` when the expression is `s + c`, a symbol plus a
    /// constant `c != 0`.
    pub(crate) fn symbol_plus_constant(&self) -> Option<(SymbolId, i64)> {
        match &self.terms[..] {
            [(m, 1), (one, c)] if one.is_one() => match m.factors() {
                [(Atom::Sym(s), 1)] => Some((*s, *c)),
                _ => None,
            },
            _ => None,
        }
    }

    /// `Some((a, c))` when the expression is the atom `a` (coefficient and
    /// exponent 1) plus a constant `c`, 0 included.
    pub(crate) fn atom_plus_constant(&self) -> Option<(&Atom, i64)> {
        let (m, c) = match &self.terms[..] {
            [(m, 1)] => (m, 0),
            [(m, 1), (one, c)] if one.is_one() => (m, *c),
            _ => return None,
        };
        match m.factors() {
            [(a, 1)] => Some((a, c)),
            _ => None,
        }
    }

    /// The atom `self - c` is, `c` the constant term (what
    /// `self.add_const(-c)?.as_atom()` gives, without building the sum).
    pub(crate) fn without_constant_term_as_atom(&self) -> Option<&Atom> {
        match self.non_constant_terms() {
            [(m, 1)] => match m.factors() {
                [(a, 1)] => Some(a),
                _ => None,
            },
            _ => None,
        }
    }

    /// `min(self, o)` with structural simplification only: equal arguments
    /// give `self`; a constant difference picks the smaller; absorption
    /// (`min(a, min(a, b)) = min(a, b)`, `min(a, max(a, b)) = a`); a common
    /// constant offset is pulled out (`min(a + c, b + c) = min(a, b) + c`);
    /// otherwise a `Min` atom with sorted arguments. See
    /// [`SymbolTable::min`](crate::SymbolTable::min) for range-aware
    /// simplification.
    pub fn min(&self, o: &Expr) -> Result<Expr, DimError> {
        Expr::min_max(self, o, true)
    }

    /// `max(self, o)`; mirror image of [`Expr::min`].
    pub fn max(&self, o: &Expr) -> Result<Expr, DimError> {
        Expr::min_max(self, o, false)
    }

    /// Alias of [`Expr::min`] that cannot be confused with [`Ord::min`]
    /// (which method-call syntax picks for an owned receiver).
    pub fn min_with(&self, o: &Expr) -> Result<Expr, DimError> {
        Expr::min_max(self, o, true)
    }

    /// Alias of [`Expr::max`] that cannot be confused with [`Ord::max`].
    pub fn max_with(&self, o: &Expr) -> Result<Expr, DimError> {
        Expr::min_max(self, o, false)
    }

    /// `bcast(self, o)`: the numpy broadcast of two dims. `bcast(a, a) = a`,
    /// `bcast(a, 1) = bcast(1, a) = a`; two constants that differ and are
    /// neither 1 are [`DimError::NotBroadcastable`]; absorption
    /// (`bcast(a, bcast(a, b)) = bcast(a, b)`); otherwise a `Bcast` atom with
    /// sorted arguments (so `bcast(a, b) == bcast(b, a)`). See
    /// [`SymbolTable::bcast`](crate::SymbolTable::bcast) for range-aware
    /// simplification.
    pub fn bcast(&self, o: &Expr) -> Result<Expr, DimError> {
        if self == o || o.as_constant() == Some(1) {
            return Ok(self.clone());
        }
        if self.as_constant() == Some(1) {
            return Ok(o.clone());
        }
        if let (Some(a), Some(b)) = (self.as_constant(), o.as_constant()) {
            return Err(DimError::NotBroadcastable { a, b });
        }
        for (x, y) in [(self, o), (o, self)] {
            if let Some(Atom::Bcast(p, q)) = y.as_atom() {
                if *p == *x || *q == *x {
                    return Ok(y.clone());
                }
            }
        }
        let (x, y) = if self <= o { (self, o) } else { (o, self) };
        Expr::from_atom(Atom::Bcast(x.clone(), y.clone()))
    }

    /// All symbols occurring in the expression (including inside atoms).
    pub fn symbols(&self) -> BTreeSet<SymbolId> {
        let mut out = BTreeSet::new();
        self.collect_symbols(&mut out);
        out
    }

    fn collect_symbols(&self, out: &mut BTreeSet<SymbolId>) {
        self.for_each_symbol(&mut |s| {
            out.insert(s);
        });
    }

    /// Calls `f` with each occurrence of a symbol (inside atoms too), in
    /// term order, repeats included: [`Expr::symbols`] without building
    /// the set (a report marks the symbols of every dim it lists).
    pub fn for_each_symbol(&self, f: &mut impl FnMut(SymbolId)) {
        for (m, _) in self.terms.iter() {
            for (a, _) in m.factors() {
                match a {
                    Atom::Sym(s) => f(*s),
                    Atom::FloorDiv(e, _) | Atom::CeilDiv(e, _) | Atom::ExactDiv(e, _) => {
                        e.for_each_symbol(f)
                    }
                    Atom::Min(x, y) | Atom::Max(x, y) | Atom::Bcast(x, y) => {
                        x.for_each_symbol(f);
                        y.for_each_symbol(f);
                    }
                }
            }
        }
    }

    /// Evaluates under `binding`. Errors: [`DimError::Unbound`] for a symbol
    /// without a value, [`DimError::NotDivisible`] for an exact division that
    /// does not divide, [`DimError::Overflow`].
    pub fn eval(&self, binding: &dyn Fn(SymbolId) -> Option<i64>) -> Result<i64, DimError> {
        let mut acc: i64 = 0;
        for (m, c) in self.terms.iter() {
            let mut t = *c;
            for (a, e) in m.factors() {
                let v = eval_atom(a, binding)?;
                let p = v.checked_pow(*e).ok_or(DimError::Overflow)?;
                t = t.checked_mul(p).ok_or(DimError::Overflow)?;
            }
            acc = acc.checked_add(t).ok_or(DimError::Overflow)?;
        }
        Ok(acc)
    }

    /// Replaces every symbol `s` for which `f(s)` is `Some(e)` by `e` and
    /// re-canonicalizes (symbols mapped to `None` are kept).
    pub fn substitute(&self, f: &dyn Fn(SymbolId) -> Option<Expr>) -> Result<Expr, DimError> {
        let mut acc = Expr::zero();
        for (m, c) in self.terms.iter() {
            let mut t = Expr::constant(*c);
            for (a, e) in m.factors() {
                let v = match a {
                    Atom::Sym(s) => f(*s).unwrap_or_else(|| Expr::symbol(*s)),
                    Atom::FloorDiv(x, k) => x.substitute(f)?.floor_div(*k)?,
                    Atom::CeilDiv(x, k) => x.substitute(f)?.ceil_div(*k)?,
                    Atom::ExactDiv(x, k) => x.substitute(f)?.assumed_exact_div(*k)?,
                    Atom::Min(x, y) => Expr::min(&x.substitute(f)?, &y.substitute(f)?)?,
                    Atom::Max(x, y) => Expr::max(&x.substitute(f)?, &y.substitute(f)?)?,
                    Atom::Bcast(x, y) => x.substitute(f)?.bcast(&y.substitute(f)?)?,
                };
                t = t.mul(&v.pow(*e)?)?;
            }
            acc = acc.add(&t)?;
        }
        Ok(acc)
    }
}

impl From<i64> for Expr {
    fn from(v: i64) -> Expr {
        Expr::constant(v)
    }
}

impl From<SymbolId> for Expr {
    fn from(s: SymbolId) -> Expr {
        Expr::symbol(s)
    }
}

/// `ceil(c / k)` for `k > 0` (cannot overflow for `k >= 1`).
pub(crate) fn ceil_div_i64(c: i64, k: i64) -> i64 {
    let q = c.div_euclid(k);
    if c.rem_euclid(k) != 0 {
        q + 1
    } else {
        q
    }
}

fn eval_atom(a: &Atom, binding: &dyn Fn(SymbolId) -> Option<i64>) -> Result<i64, DimError> {
    Ok(match a {
        Atom::Sym(s) => binding(*s).ok_or(DimError::Unbound(*s))?,
        Atom::FloorDiv(e, k) => e.eval(binding)?.div_euclid(*k),
        Atom::CeilDiv(e, k) => ceil_div_i64(e.eval(binding)?, *k),
        Atom::ExactDiv(e, k) => {
            let v = e.eval(binding)?;
            if v % k != 0 {
                return Err(DimError::NotDivisible {
                    dividend: v,
                    divisor: *k,
                });
            }
            v / k
        }
        Atom::Min(x, y) => x.eval(binding)?.min(y.eval(binding)?),
        Atom::Max(x, y) => x.eval(binding)?.max(y.eval(binding)?),
        Atom::Bcast(x, y) => {
            let (a, b) = (x.eval(binding)?, y.eval(binding)?);
            if a == b || b == 1 {
                a
            } else if a == 1 {
                b
            } else {
                return Err(DimError::NotBroadcastable { a, b });
            }
        }
    })
}
