//! The symbol table: names, ranges and provenance of symbols, and the
//! range-aware operations (bounds, min/max, comparison).

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Mutex;

use crate::expr::{Atom, Monomial};
use crate::{DimError, Expr, Interval, SymbolId, MAX_NESTING, MAX_SIZE};

/// Who created a symbol: the layer and source line of the IR element, and why.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Provenance {
    /// Layer name (or id) that introduced the symbol.
    pub layer: String,
    /// 1-based line in the source file (0 if unknown).
    pub line: u32,
    /// Human-readable reason, e.g. `"dynamic input dimension"`.
    pub reason: String,
}

/// What the table knows about one symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolInfo {
    /// The name (`N`, `batch`), or `None` for invented symbols (shown `?<index>`).
    pub name: Option<String>,
    /// The range of values the symbol may take.
    pub range: Interval,
    /// Who created the symbol, if recorded.
    pub provenance: Option<Provenance>,
    /// A symbolic upper bound, for sizes known only at run time: the count
    /// kept by a Compress over `S` elements is `c ∈ [0, S]`. The numeric
    /// [`range`](SymbolInfo::range) already includes the bound's own bounds.
    pub upper: Option<Expr>,
}

/// The symbols of one graph: ids are indices into the table.
///
/// Names are unique: [`SymbolTable::named`] returns the existing symbol of a
/// name. A symbol's display name is its name if it is a valid, non-reserved
/// identifier owned by that symbol, else `?<index>`.
#[derive(Clone, Debug, Default)]
pub struct SymbolTable {
    symbols: Vec<SymbolInfo>,
    by_name: BTreeMap<String, SymbolId>,
    known_bounds: BoundsMemo,
}

/// The bounds [`SymbolTable::bounds`] has computed for expressions that are
/// neither a constant nor a lone symbol, forgotten whenever a symbol is
/// added or a range changes (the only things bounds depend on besides the
/// expression). The same bounds are asked for again and again: a window's
/// fit is decided, then assumed (decided again); the convolutions of a block
/// share their input's dims; the report bounds every output dim. Bounding a
/// nested rounding (`floor((floor((H - 1)/2) - 1)/2) + 1`) sees through up to
/// three levels of rounding, each doubling the work: it was a tenth of a
/// SqueezeNet's whole check.
///
/// Hashed by [`FxHasher`]: an expression hashes every term, factor and
/// nested operand, and the standard SipHash made each look-up of a nested
/// rounding cost about as much as a tenth of bounding it anew.
///
/// Keyed by the expression with its hash computed once ([`HashedExpr`]): a
/// miss looks up and then inserts, and a growing table moves every entry,
/// and each of these hashed the whole expression again (a Slice chain's
/// new dims made the memo a tenth of its inference).
#[derive(Default)]
struct BoundsMemo(Mutex<HashedExprMap<Interval>>);

/// A map keyed by expressions, each hashed once, when its [`HashedExpr`]
/// is made: the bounds memo's, and a report's memo of dim texts.
pub type HashedExprMap<V> = HashMap<HashedExpr, V, BuildHasherDefault<PassHasher>>;

/// An expression and its hash, computed once (by [`FxHasher`]): a miss
/// looks up and then inserts, and a growing table moves every entry; each
/// of these would otherwise hash the whole expression again.
#[derive(PartialEq, Eq)]
pub struct HashedExpr {
    hash: u64,
    expr: Expr,
}

impl HashedExpr {
    /// `expr` (a clone: the key owns it) with its hash.
    pub fn new(expr: &Expr) -> HashedExpr {
        let mut hasher = FxHasher::default();
        expr.hash(&mut hasher);
        HashedExpr {
            hash: hasher.finish(),
            expr: expr.clone(),
        }
    }
}

impl Hash for HashedExpr {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// Passes on the one `u64` a [`HashedExpr`] writes ([`HashedExprMap`]'s
/// hasher).
#[derive(Default, Clone, Copy)]
pub struct PassHasher {
    hash: u64,
}

impl Hasher for PassHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used; anything else is folded in, still a hash.
        let mut fx = FxHasher { hash: self.hash };
        fx.write(bytes);
        self.hash = fx.hash;
    }

    fn write_u64(&mut self, i: u64) {
        self.hash = i;
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

/// The multiplicative hash of the Rust compiler's own tables (`FxHasher`):
/// a rotate, a xor and a multiply per word. Not resistant to chosen
/// collisions, which costs nothing here: the memo holds at most
/// [`BoundsMemo::REMEMBERED`] expressions that inference itself built.
#[derive(Default, Clone, Copy)]
struct FxHasher {
    hash: u64,
}

impl FxHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

impl BoundsMemo {
    /// How many expressions it holds before it starts again (a chain whose
    /// every layer has a new expression would otherwise keep them all).
    const REMEMBERED: usize = 1 << 12;

    fn get(&self, e: &HashedExpr) -> Option<Interval> {
        self.0.lock().ok()?.get(e).copied()
    }

    fn insert(&self, e: HashedExpr, bounds: Interval) {
        if let Ok(mut known) = self.0.lock() {
            if known.len() >= Self::REMEMBERED {
                known.clear();
            }
            known.insert(e, bounds);
        }
    }

    /// Forgets everything. A new, empty map rather than `clear`, which
    /// would sweep the whole allocated table: a model that adds a symbol
    /// at every layer (data-dependent sizes) forgets at every layer.
    fn forget(&mut self) {
        if let Ok(known) = self.0.get_mut() {
            if !known.is_empty() {
                *known = HashMap::default();
            }
        }
    }
}

/// A copy of a table starts with no bounds remembered.
impl Clone for BoundsMemo {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl std::fmt::Debug for BoundsMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BoundsMemo")
    }
}

/// How many levels of nested rounding [`SymbolTable::bounds`] sees through
/// (each level at most doubles the work: both the rounding's argument and the
/// remainder form are bounded one level down).
const REFINE_DEPTH: u32 = 3;

impl SymbolTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    fn push(&mut self, info: SymbolInfo) -> SymbolId {
        let id = SymbolId(u32::try_from(self.symbols.len()).expect("too many symbols"));
        self.symbols.push(info);
        // An expression bounded before could name this id (unbounded then).
        self.known_bounds.forget();
        id
    }

    /// Creates a fresh, unnamed ("invented") symbol, displayed `?<index>`.
    pub fn fresh(&mut self, range: Interval, provenance: Option<Provenance>) -> SymbolId {
        self.push(SymbolInfo {
            name: None,
            range,
            provenance,
            upper: None,
        })
    }

    /// Creates an invented symbol in `[0, upper]` for a size only known at run
    /// time (`c ∈ [0, S]`). Its numeric range is `[0, hi]` with `hi` the upper
    /// bound of `upper`; the expression itself is kept as
    /// [`SymbolInfo::upper`] for reports and comparisons.
    pub fn fresh_bounded(
        &mut self,
        upper: &Expr,
        provenance: Option<Provenance>,
    ) -> Result<SymbolId, DimError> {
        let hi = self.bounds(upper)?.hi;
        let s = self.fresh(Interval::new(Some(0), hi), provenance);
        self.symbols[s.index()].upper = Some(upper.clone());
        Ok(s)
    }

    /// Gets or creates the symbol called `name`. If it exists its range is
    /// intersected with `range` (left unchanged if the intersection is empty;
    /// [`restrict`](SymbolTable::restrict) reports that case).
    pub fn named(&mut self, name: &str, range: Interval) -> SymbolId {
        if let Some(&s) = self.by_name.get(name) {
            let info = &mut self.symbols[s.index()];
            if let Some(r) = info.range.intersect(&range) {
                if r != info.range {
                    info.range = r;
                    self.known_bounds.forget();
                }
            }
            return s;
        }
        let s = self.push(SymbolInfo {
            name: Some(name.to_string()),
            range,
            provenance: None,
            upper: None,
        });
        self.by_name.insert(name.to_string(), s);
        s
    }

    /// Intersects the range of `s` with `range`; [`DimError::EmptyRange`] (and
    /// no change) if the result is empty.
    pub fn restrict(&mut self, s: SymbolId, range: Interval) -> Result<(), DimError> {
        let info = self
            .symbols
            .get_mut(s.index())
            .ok_or(DimError::Unbound(s))?;
        match info.range.intersect(&range) {
            Some(r) => {
                if r != info.range {
                    info.range = r;
                    self.known_bounds.forget();
                }
                Ok(())
            }
            None => Err(DimError::EmptyRange(s)),
        }
    }

    /// The symbol called `name`, if any.
    pub fn lookup(&self, name: &str) -> Option<SymbolId> {
        self.by_name.get(name).copied()
    }

    /// Information about `s`. Panics if `s` is not from this table.
    pub fn info(&self, s: SymbolId) -> &SymbolInfo {
        &self.symbols[s.index()]
    }

    /// Information about `s`, or `None` if `s` is not from this table.
    pub fn get(&self, s: SymbolId) -> Option<&SymbolInfo> {
        self.symbols.get(s.index())
    }

    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// Whether the table has no symbols.
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// All symbols in id order.
    pub fn iter(&self) -> impl Iterator<Item = (SymbolId, &SymbolInfo)> {
        self.symbols
            .iter()
            .enumerate()
            .map(|(i, info)| (SymbolId(i as u32), info))
    }

    /// Names (or renames) `s`. If another symbol already owns `name`, that
    /// symbol keeps it for [`lookup`](SymbolTable::lookup) and `s` still
    /// displays as `?<index>`. Panics if `s` is not from this table.
    pub fn set_name(&mut self, s: SymbolId, name: &str) {
        let info = &mut self.symbols[s.index()];
        if let Some(old) = info.name.take() {
            if self.by_name.get(&old) == Some(&s) {
                self.by_name.remove(&old);
            }
        }
        info.name = Some(name.to_string());
        self.by_name.entry(name.to_string()).or_insert(s);
    }

    /// The name under which `s` is displayed (and parsed back), or `None`
    /// when it displays as `?<index>`.
    pub fn display_name(&self, s: SymbolId) -> Option<&str> {
        let name = self.get(s)?.name.as_deref()?;
        (crate::parse::is_plain_identifier(name) && self.lookup(name) == Some(s)).then_some(name)
    }

    /// The range of `s` (unbounded for ids not in the table).
    pub fn range(&self, s: SymbolId) -> Interval {
        self.get(s).map_or(Interval::unbounded(), |i| i.range)
    }

    /// An interval containing every value `e` takes when each symbol ranges
    /// over its range (interval arithmetic, computed in `i128` with infinite
    /// ends). [`DimError::Overflow`] if a finite bound does not fit in `i64`.
    pub fn bounds(&self, e: &Expr) -> Result<Interval, DimError> {
        // Most dims are a constant or a lone symbol (every dim of a report,
        // every output of a chain): their bounds need no arithmetic.
        if let Some(c) = e.as_constant() {
            return Ok(Interval::point(c));
        }
        if let Some(s) = e.as_symbol() {
            return Ok(self.range(s));
        }
        // Interval arithmetic bounds `t + c`, `t` one term without rounding,
        // as `t` shifted by `c` (`remainder_bounds` refines only roundings).
        // `S + c`, the commonest sum: the symbol's range shifted.
        if let Some((s, c)) = e.symbol_plus_constant() {
            return shift_interval(self.range(s), c);
        }
        // A lone `min` or `max`, or one plus a constant (each Slice of a
        // chain bounds its `max(D - k, 0)` and `max(D - k, 0) - 1`): from
        // the arguments' bounds, mostly of leaves or `S + c`, without
        // hashing the whole (a new expression at every Slice).
        if let Some((atom, c)) = e.atom_plus_constant() {
            if let Some(b) = self.min_max_bounds(atom) {
                return shift_interval(b, c);
            }
        }
        let key = HashedExpr::new(e);
        if let Some(known) = self.known_bounds.get(&key) {
            return Ok(known);
        }
        let x = self.xbounds(e, REFINE_DEPTH)?;
        let conv = |v: Ext| -> Result<Option<i64>, DimError> {
            match v {
                Ext::Fin(v) => i64::try_from(v).map(Some).map_err(|_| DimError::Overflow),
                _ => Ok(None),
            }
        };
        let bounds = Interval::new(conv(x.lo)?, conv(x.hi)?);
        self.known_bounds.insert(key, bounds);
        Ok(bounds)
    }

    /// The bounds of a `min(x, y)` or `max(x, y)` atom from those of its
    /// arguments: what interval arithmetic gives the atom (a single term
    /// with no rounding, which [`remainder_bounds`](Self::remainder_bounds)
    /// leaves alone, also beside a constant, whose bounds then shift by
    /// it). `None` for other atoms, where an argument's bounds do not fit
    /// in `i64` (the whole is bounded in `i128` then) or the two make an
    /// empty interval.
    #[inline]
    fn min_max_bounds(&self, atom: &Atom) -> Option<Interval> {
        let (Atom::Min(x, y) | Atom::Max(x, y)) = atom else {
            return None;
        };
        let (bx, by) = (self.bounds(x).ok()?, self.bounds(y).ok()?);
        // `None` is −∞ for a low end and +∞ for a high end.
        let both = |a: Option<i64>, b: Option<i64>, pick: fn(i64, i64) -> i64| {
            a.zip(b).map(|(a, b)| pick(a, b))
        };
        let either = |a: Option<i64>, b: Option<i64>, pick: fn(i64, i64) -> i64| match (a, b) {
            (Some(a), Some(b)) => Some(pick(a, b)),
            (a, None) => a,
            (None, b) => b,
        };
        let b = if matches!(atom, Atom::Min(..)) {
            Interval::new(both(bx.lo, by.lo, i64::min), either(bx.hi, by.hi, i64::min))
        } else {
            Interval::new(either(bx.lo, by.lo, i64::max), both(bx.hi, by.hi, i64::max))
        };
        (!b.is_empty()).then_some(b)
    }

    /// [`bounds`](Self::bounds) by interval arithmetic on the whole
    /// expression, without the memo or the shortcuts for `t + c` and lone
    /// `min`/`max` atoms (the tests check that those agree with it).
    #[cfg(test)]
    pub(crate) fn bounds_whole(&self, e: &Expr) -> Result<Interval, DimError> {
        let x = self.xbounds(e, REFINE_DEPTH)?;
        let conv = |v: Ext| -> Result<Option<i64>, DimError> {
            match v {
                Ext::Fin(v) => i64::try_from(v).map(Some).map_err(|_| DimError::Overflow),
                _ => Ok(None),
            }
        };
        Ok(Interval::new(conv(x.lo)?, conv(x.hi)?))
    }

    /// Bounds that see through rounding: `k*floor(x/k)` is `x` minus a
    /// remainder in `[0, k - 1]` and `k*ceil(x/k)` is `x` plus one, so
    /// `4*ceil(x/4) - x` lies in `[0, 3]` and `2*floor(H/4) - 2*floor(H/8)`
    /// is never negative, where interval arithmetic alone, treating the
    /// roundings as unrelated to `x`, gives nothing. (A Swin window pads `x`
    /// up to `4*ceil(x/4)` and slices back to `min(x, 4*ceil(x/4))`, which
    /// is then `x`.) Computed on `L*e`, `L` the least common multiple of the
    /// divisors, with each `c*floor(x/k)` term written `(c*L/k)*(x - r)`.
    /// `None` when `e` has no such term.
    fn remainder_bounds(&self, e: &Expr, depth: u32) -> Result<Option<XI>, DimError> {
        // Largest common multiple worth the work (and far from overflow).
        const MAX_LCM: i64 = 1 << 16;
        // One term alone has no other term to cancel against: its interval
        // bounds are already as tight (and chains of nested roundings, one
        // term each, would pay for rewriting them at every level).
        if e.terms().nth(1).is_none() {
            return Ok(None);
        }
        // The linear rounding terms: (coefficient, atom, argument, divisor, floor).
        let linear: Vec<(i64, &Atom, &Expr, i64, bool)> = e
            .terms()
            .filter_map(|(c, m)| match m.factors() {
                [(atom @ Atom::FloorDiv(x, k), 1)] => Some((c, atom, x, *k, true)),
                [(atom @ Atom::CeilDiv(x, k), 1)] => Some((c, atom, x, *k, false)),
                _ => None,
            })
            .collect();
        // A rounding that another one rounds again (`floor(H/4)` inside
        // `4*ceil(floor(H/4)/4)`) is kept whole: written out it would no
        // longer cancel against the outer one's argument.
        let nested = |atom: &Atom| {
            linear.iter().any(|(_, _, x, _, _)| {
                x.terms()
                    .any(|(_, m)| m.factors().iter().any(|(a, _)| a == atom))
            })
        };
        let mut lcm = 1i64;
        let mut roundings = Vec::new();
        for &(c, atom, x, k, floor) in &linear {
            let next = lcm / gcd(lcm, k) * k;
            if nested(atom) || next > MAX_LCM {
                continue;
            }
            lcm = next;
            roundings.push((c, atom, x, k, floor));
        }
        if roundings.is_empty() {
            return Ok(None);
        }
        let mut scaled = e.mul_const(lcm)?;
        let mut slack = XI::point(0);
        for (c, atom, x, k, floor) in roundings {
            let m = c.checked_mul(lcm / k).ok_or(DimError::Overflow)?;
            let whole = c.checked_mul(lcm).ok_or(DimError::Overflow)?;
            scaled = scaled
                .sub(&Expr::from_atom(atom.clone())?.mul_const(whole)?)?
                .add(&x.mul_const(m)?)?;
            let (lo, hi) = if floor {
                (1 - i128::from(k), 0)
            } else {
                (0, i128::from(k) - 1)
            };
            let r = XI {
                lo: Ext::Fin(lo),
                hi: Ext::Fin(hi),
            };
            slack = slack.add(&XI::point(i128::from(m)).mul(&r)?)?;
        }
        let b = self.xbounds(&scaled, depth)?.add(&slack)?;
        // `e` is an integer: round the bounds of `L*e` inward.
        let l = i128::from(lcm);
        Ok(Some(XI {
            lo: b.lo.map(|v| ceil_i128(v, l))?,
            hi: b.hi.map(|v| Ok(v.div_euclid(l)))?,
        }))
    }

    /// Interval arithmetic over the terms, refined by
    /// [`remainder_bounds`](Self::remainder_bounds) up to `depth` levels of
    /// rounding deep.
    fn xbounds(&self, e: &Expr, depth: u32) -> Result<XI, DimError> {
        let mut acc = XI::point(0);
        for (c, m) in e.terms() {
            let t = self.mono_bounds(m, depth)?.scale(i128::from(c))?;
            acc = acc.add(&t)?;
        }
        if depth > 0 {
            if let Some(r) = self.remainder_bounds(e, depth - 1)? {
                // Both enclose every value: their intersection does too.
                acc = XI {
                    lo: acc.lo.max(r.lo),
                    hi: acc.hi.min(r.hi),
                };
            }
        }
        Ok(acc)
    }

    fn mono_bounds(&self, m: &Monomial, depth: u32) -> Result<XI, DimError> {
        let mut factors = m.factors().iter();
        let Some((a, e)) = factors.next() else {
            return Ok(XI::point(1));
        };
        // `1 * x`, as a product by a point: two end products, not four.
        let mut acc = self.atom_bounds(a, depth)?.pow(*e)?.scale(1)?;
        for (a, e) in factors {
            acc = acc.mul(&self.atom_bounds(a, depth)?.pow(*e)?)?;
        }
        Ok(acc)
    }

    fn atom_bounds(&self, a: &Atom, depth: u32) -> Result<XI, DimError> {
        // A division is a level of rounding: inside it, one level less is
        // refined. Refining the argument of each of `n` nested roundings at
        // full depth again would cost `n^depth` (a chain of Slices nests
        // `ceil((d - 1)/2)` thousands of times); this way it is `2^depth * n`.
        let inner = depth.saturating_sub(1);
        Ok(match a {
            Atom::Sym(s) => {
                let r = self.range(*s);
                XI {
                    lo: r.lo.map_or(Ext::NegInf, |v| Ext::Fin(v.into())),
                    hi: r.hi.map_or(Ext::PosInf, |v| Ext::Fin(v.into())),
                }
            }
            Atom::FloorDiv(e, k) => {
                let x = self.xbounds(e, inner)?;
                let k = i128::from(*k);
                XI {
                    lo: x.lo.map(|v| Ok(v.div_euclid(k)))?,
                    hi: x.hi.map(|v| Ok(v.div_euclid(k)))?,
                }
            }
            Atom::CeilDiv(e, k) => {
                let x = self.xbounds(e, inner)?;
                let k = i128::from(*k);
                XI {
                    lo: x.lo.map(|v| ceil_i128(v, k))?,
                    hi: x.hi.map(|v| ceil_i128(v, k))?,
                }
            }
            Atom::ExactDiv(e, k) => {
                // The quotient is an integer: [ceil(lo/k), floor(hi/k)].
                let x = self.xbounds(e, inner)?;
                let k = i128::from(*k);
                XI {
                    lo: x.lo.map(|v| ceil_i128(v, k))?,
                    hi: x.hi.map(|v| Ok(v.div_euclid(k)))?,
                }
            }
            Atom::Min(x, y) => {
                let (x, y) = (self.xbounds(x, depth)?, self.xbounds(y, depth)?);
                XI {
                    lo: x.lo.min(y.lo),
                    hi: x.hi.min(y.hi),
                }
            }
            Atom::Max(x, y) => {
                let (x, y) = (self.xbounds(x, depth)?, self.xbounds(y, depth)?);
                XI {
                    lo: x.lo.max(y.lo),
                    hi: x.hi.max(y.hi),
                }
            }
            Atom::Bcast(x, y) => {
                // The value is `y` when `x == 1`, `x` when `y == 1`, else
                // the common value of equal arguments: the hull of `y`'s
                // range (if `x` can be 1), `x`'s (if `y` can be 1) and
                // their intersection.
                let (x, y) = (self.xbounds(x, depth)?, self.xbounds(y, depth)?);
                let can_be_one = |i: &XI| i.lo <= Ext::Fin(1) && Ext::Fin(1) <= i.hi;
                let common = XI {
                    lo: x.lo.max(y.lo),
                    hi: x.hi.min(y.hi),
                };
                let parts = [
                    can_be_one(&x).then_some(y),
                    can_be_one(&y).then_some(x),
                    (common.lo <= common.hi).then_some(common),
                ];
                let mut parts = parts.into_iter().flatten();
                // No part: the arguments cannot broadcast; keep the hull.
                match parts.next() {
                    None => XI {
                        lo: x.lo.min(y.lo),
                        hi: x.hi.max(y.hi),
                    },
                    Some(first) => parts.fold(first, |acc, p| XI {
                        lo: acc.lo.min(p.lo),
                        hi: acc.hi.max(p.hi),
                    }),
                }
            }
        })
    }

    /// Bounds of `a - b`, or `None` if they cannot be computed.
    fn diff_bounds(&self, a: &Expr, b: &Expr) -> Option<Interval> {
        if a == b {
            return Some(Interval::point(0));
        }
        if let (Some(x), Some(y)) = (self.leaf_range(a), self.leaf_range(b)) {
            return difference_of_ranges(x, y);
        }
        self.bounds(&a.sub(b).ok()?).ok()
    }

    /// The range of a constant or a lone symbol, whose difference with
    /// another such needs no `a - b` built: interval arithmetic on `s - t`,
    /// `s - c` or `c - s` is exactly the difference of the two ranges (and
    /// most comparisons are between such dims).
    fn leaf_range(&self, e: &Expr) -> Option<Interval> {
        if let Some(c) = e.as_constant() {
            return Some(Interval::point(c));
        }
        e.as_symbol().map(|s| self.range(s))
    }

    /// `min(a, b)` using ranges: `a` if `a - b <= 0` for all values, `b` if
    /// `a - b >= 0`, else [`Expr::min`]. If `a - b` is always 0 the result is
    /// the constant one, else the smaller in `Expr` order, so the result does
    /// not depend on the argument order.
    pub fn min(&self, a: &Expr, b: &Expr) -> Result<Expr, DimError> {
        if let Some(d) = self.diff_bounds(a, b) {
            if d.as_point() == Some(0) {
                return Ok(equal_valued(a, b));
            }
            if d.hi.is_some_and(|h| h <= 0) {
                return Ok(a.clone());
            }
            if d.lo.is_some_and(|l| l >= 0) {
                return Ok(b.clone());
            }
        }
        a.min(b)
    }

    /// `max(a, b)` using ranges: `a` if `a - b >= 0` for all values, `b` if
    /// `a - b <= 0`, else [`Expr::max`]. With `S ∈ [2, ∞)`,
    /// `max(S - 2, 0) = S - 2`.
    pub fn max(&self, a: &Expr, b: &Expr) -> Result<Expr, DimError> {
        if let Some(d) = self.diff_bounds(a, b) {
            if d.as_point() == Some(0) {
                return Ok(equal_valued(a, b));
            }
            if d.lo.is_some_and(|l| l >= 0) {
                return Ok(a.clone());
            }
            if d.hi.is_some_and(|h| h <= 0) {
                return Ok(b.clone());
            }
        }
        a.max(b)
    }

    /// `max(u - l, 0)` for a constant `l`: exactly what
    /// `self.max(&u.sub(&Expr::constant(l))?, &Expr::zero())` gives
    /// (a sliced length, `max(D - k, 0)`), without building `u - l` when
    /// `u` is a `max` of an expression and a constant, plus a constant: a
    /// Slice of a chain's `max(D - k, 0)` then gives `max(D - k - 1, 0)`
    /// directly. That path follows [`SymbolTable::max`] and [`Expr::max`]
    /// step by step on `t = u - l` (the bounds of `t` are those of the
    /// atom shifted, as [`SymbolTable::bounds`] finds them; `max(max(x,
    /// k1) + c, 0) = max(x + c, max(k1 + c, 0))`); anything else, overflow
    /// and the algebra's limits included, goes the general way.
    pub fn max_of_difference(&self, u: &Expr, l: i64) -> Result<Expr, DimError> {
        let general = || self.max(&u.sub(&Expr::constant(l))?, &Expr::zero());
        let Some((atom @ Atom::Max(p, q), c0)) = u.atom_plus_constant() else {
            return general();
        };
        let (inner, k1) = match (p.as_constant(), q.as_constant()) {
            (Some(k1), None) => (q, k1),
            (None, Some(k1)) => (p, k1),
            _ => return general(),
        };
        // `u - l` is `u + c`; its constant term `tc`. With no constant term
        // in `u`, the sum is checked against the algebra's limits.
        let Some(c) = (if l == 0 { Some(0) } else { l.checked_neg() }) else {
            return general();
        };
        let Some(tc) = c0.checked_add(c) else {
            return general();
        };
        if c0 == 0 && c != 0 {
            let (size, nesting) = u.size_and_nesting();
            if size >= MAX_SIZE || nesting > MAX_NESTING {
                return general();
            }
        }
        let Some(atom_bounds) = self.min_max_bounds(atom) else {
            return general();
        };
        // `SymbolTable::max(t, 0)`: decided by the bounds of `t - 0`.
        if let Ok(d) = shift_interval(atom_bounds, tc) {
            if d.as_point() == Some(0) {
                return Ok(Expr::zero());
            }
            if d.lo.is_some_and(|lo| lo >= 0) {
                return u.add_const(c);
            }
            if d.hi.is_some_and(|hi| hi <= 0) {
                return Ok(Expr::zero());
            }
        }
        // `Expr::max(t, 0)`: `t` is not constant and has no exact division
        // at its top; absorbed when `t` is the atom itself and `k1` is 0;
        // else the constant bound merges into the atom's.
        if tc == 0 && k1 == 0 {
            return u.add_const(c);
        }
        tc.checked_neg().ok_or(DimError::Overflow)?;
        let k1 = k1.checked_add(tc).ok_or(DimError::Overflow)?;
        Expr::max(&inner.add_const(tc)?, &Expr::constant(k1.max(0)))
    }

    /// `bcast(a, b)` using ranges: an argument whose range is exactly `[1, 1]`
    /// yields to the other; arguments provably equal give one of them; else
    /// [`Expr::bcast`] (which fails with
    /// [`DimError::NotBroadcastable`] for two distinct constants, neither 1).
    pub fn bcast(&self, a: &Expr, b: &Expr) -> Result<Expr, DimError> {
        let is_one = |e: &Expr| self.bounds(e).ok().and_then(|i| i.as_point()) == Some(1);
        if is_one(a) && is_one(b) {
            // Both are 1: the same answer whichever comes first.
            return Ok(equal_valued(a, b));
        }
        if is_one(b) {
            return Ok(a.clone());
        }
        if is_one(a) {
            return Ok(b.clone());
        }
        if a != b && self.diff_bounds(a, b).and_then(|d| d.as_point()) == Some(0) {
            return Ok(equal_valued(a, b));
        }
        a.bcast(b)
    }

    /// Compares `a` and `b` when provable: `Equal` if structurally equal or
    /// `a - b` is bounded to `[0, 0]`; `Less` if `a - b < 0` everywhere;
    /// `Greater` if `a - b > 0` everywhere; else `None`.
    pub fn compare(&self, a: &Expr, b: &Expr) -> Option<Ordering> {
        if a == b {
            return Some(Ordering::Equal);
        }
        let d = self.diff_bounds(a, b)?;
        if d.as_point() == Some(0) {
            Some(Ordering::Equal)
        } else if d.hi.is_some_and(|h| h < 0) {
            Some(Ordering::Less)
        } else if d.lo.is_some_and(|l| l > 0) {
            Some(Ordering::Greater)
        } else {
            None
        }
    }

    /// Displays `e` in the stable text format (see the crate docs), e.g.
    /// `15*D`, `D - 2`, `4*N*S/3`, `ceil(S/2)`, `max(S - 2, 0)`.
    pub fn display<'a>(&'a self, e: &'a Expr) -> impl std::fmt::Display + 'a {
        crate::display::ExprDisplay {
            table: self,
            expr: e,
        }
    }

    /// Appends the text of `e` (as [`display`](Self::display) writes it)
    /// to `out`, without going through `fmt::Formatter`: the report writes
    /// every new symbolic dim's text this way.
    pub fn write_expr(&self, e: &Expr, out: &mut String) {
        // Writing into a `String` cannot fail.
        let _ = crate::display::fmt_expr(self, e, out);
    }
}

/// `b + c` end by end, as `bounds` gives the bounds of `t + c` from those
/// of `t`: [`DimError::Overflow`] where a finite end leaves `i64`.
fn shift_interval(b: Interval, c: i64) -> Result<Interval, DimError> {
    let shift = |v: Option<i64>| -> Result<Option<i64>, DimError> {
        v.map(|v| i64::try_from(i128::from(v) + i128::from(c)).map_err(|_| DimError::Overflow))
            .transpose()
    };
    Ok(Interval::new(shift(b.lo)?, shift(b.hi)?))
}

/// Of two expressions known to take equal values, the canonical choice
/// (independent of argument order): a constant if there is one, else the
/// smaller in `Expr` order.
fn equal_valued(a: &Expr, b: &Expr) -> Expr {
    let key = |e: &Expr| (!e.is_constant(), e.clone());
    if key(a) <= key(b) {
        a.clone()
    } else {
        b.clone()
    }
}

/// `[x.lo - y.hi, x.hi - y.lo]`, as [`SymbolTable::bounds`] gives it for the
/// difference of two distinct leaves: `None` where a finite end does not fit
/// in `i64` (there `bounds` fails with [`DimError::Overflow`]).
fn difference_of_ranges(x: Interval, y: Interval) -> Option<Interval> {
    let end = |a: Option<i64>, b: Option<i64>| -> Result<Option<i64>, ()> {
        match (a, b) {
            (Some(a), Some(b)) => i64::try_from(i128::from(a) - i128::from(b))
                .map(Some)
                .map_err(|_| ()),
            _ => Ok(None),
        }
    };
    Some(Interval::new(end(x.lo, y.hi).ok()?, end(x.hi, y.lo).ok()?))
}

fn ceil_i128(v: i128, k: i128) -> Result<i128, DimError> {
    let q = v.div_euclid(k);
    if v.rem_euclid(k) != 0 {
        q.checked_add(1).ok_or(DimError::Overflow)
    } else {
        Ok(q)
    }
}

/// An extended integer: −∞, a finite `i128`, or +∞.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Ext {
    NegInf,
    Fin(i128),
    PosInf,
}

impl Ext {
    fn map(self, f: impl Fn(i128) -> Result<i128, DimError>) -> Result<Ext, DimError> {
        Ok(match self {
            Ext::Fin(v) => Ext::Fin(f(v)?),
            other => other,
        })
    }

    fn signum(self) -> i32 {
        match self {
            Ext::NegInf => -1,
            Ext::PosInf => 1,
            Ext::Fin(v) => v.signum() as i32,
        }
    }

    /// Product of interval end points; `0 * ∞ = 0` (values are finite).
    fn mul(self, o: Ext) -> Result<Ext, DimError> {
        match (self, o) {
            (Ext::Fin(a), Ext::Fin(b)) => a.checked_mul(b).map(Ext::Fin).ok_or(DimError::Overflow),
            (Ext::Fin(0), _) | (_, Ext::Fin(0)) => Ok(Ext::Fin(0)),
            (a, b) => Ok(if a.signum() * b.signum() > 0 {
                Ext::PosInf
            } else {
                Ext::NegInf
            }),
        }
    }

    fn pow(self, n: u32) -> Result<Ext, DimError> {
        Ok(match self {
            Ext::Fin(v) => Ext::Fin(v.checked_pow(n).ok_or(DimError::Overflow)?),
            _ if n == 0 => Ext::Fin(1),
            Ext::PosInf => Ext::PosInf,
            Ext::NegInf if n & 1 == 0 => Ext::PosInf,
            Ext::NegInf => Ext::NegInf,
        })
    }
}

/// An interval of extended integers.
#[derive(Clone, Copy, Debug)]
struct XI {
    lo: Ext,
    hi: Ext,
}

impl XI {
    fn point(v: i128) -> XI {
        XI {
            lo: Ext::Fin(v),
            hi: Ext::Fin(v),
        }
    }

    fn add(&self, o: &XI) -> Result<XI, DimError> {
        let add = |a: Ext, b: Ext, toward: Ext| -> Result<Ext, DimError> {
            match (a, b) {
                (Ext::Fin(x), Ext::Fin(y)) => {
                    x.checked_add(y).map(Ext::Fin).ok_or(DimError::Overflow)
                }
                (x, y) if x == toward || y == toward => Ok(toward),
                (Ext::Fin(_), inf) | (inf, _) => Ok(inf),
            }
        };
        Ok(XI {
            lo: add(self.lo, o.lo, Ext::NegInf)?,
            hi: add(self.hi, o.hi, Ext::PosInf)?,
        })
    }

    /// `[c, c] * self` (what [`XI::mul`] gives, from two end products, not
    /// four: most products are a term's coefficient times its monomial).
    fn scale(&self, c: i128) -> Result<XI, DimError> {
        let (x, y) = (Ext::Fin(c).mul(self.lo)?, Ext::Fin(c).mul(self.hi)?);
        Ok(XI {
            lo: x.min(y),
            hi: x.max(y),
        })
    }

    fn mul(&self, o: &XI) -> Result<XI, DimError> {
        let ps = [
            self.lo.mul(o.lo)?,
            self.lo.mul(o.hi)?,
            self.hi.mul(o.lo)?,
            self.hi.mul(o.hi)?,
        ];
        Ok(XI {
            lo: *ps.iter().min().expect("nonempty"),
            hi: *ps.iter().max().expect("nonempty"),
        })
    }

    fn pow(&self, n: u32) -> Result<XI, DimError> {
        if n == 1 {
            return Ok(*self);
        }
        if n == 0 {
            return Ok(XI::point(1));
        }
        let (lo, hi) = (self.lo.pow(n)?, self.hi.pow(n)?);
        if n & 1 == 1 || self.lo >= Ext::Fin(0) {
            Ok(XI { lo, hi })
        } else if self.hi <= Ext::Fin(0) {
            Ok(XI { lo: hi, hi: lo })
        } else {
            Ok(XI {
                lo: Ext::Fin(0),
                hi: lo.max(hi),
            })
        }
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}
