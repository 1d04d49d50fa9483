//! # symdim — symbolic dimension algebra
//!
//! A *dimension* is an integer expression ([`Expr`]) over *symbols*
//! ([`SymbolId`]). Every symbol lives in a [`SymbolTable`] that records its
//! optional name, its range ([`Interval`] `[lo, hi]`, either end possibly
//! unbounded) and its [`Provenance`] (which layer invented it and why).
//!
//! ```
//! use symdim::{Expr, Interval, SymbolTable};
//!
//! let mut t = SymbolTable::new();
//! let d = Expr::symbol(t.named("D", Interval::new(Some(2), Some(10))));
//! let n = Expr::symbol(t.named("N", Interval::nonnegative()));
//! let e = d.add_const(-2)?;
//! assert_eq!(t.display(&e).to_string(), "D - 2");
//! assert_eq!(t.bounds(&e)?, Interval::new(Some(0), Some(8)));
//! assert_eq!(n.mul_const(3)?, Expr::constant(3).mul(&n)?);
//! let p = t.parse_expr("N*15*D").unwrap();
//! assert_eq!(p.exact_div(&n), Some(t.parse_expr("15*D").unwrap()));
//! assert_eq!(t.display(&n.ceil_div(2)?).to_string(), "ceil(N/2)");
//! assert_eq!(t.display(&t.max(&n.add_const(-2)?, &Expr::zero())?).to_string(), "max(N - 2, 0)");
//! assert_eq!(e.eval(&|_| Some(7))?, 5);
//! # Ok::<(), symdim::DimError>(())
//! ```
//!
//! ## Expressions
//!
//! Expressions are built from integer constants and symbols with
//! [`add`](Expr::add), [`sub`](Expr::sub), [`mul`](Expr::mul),
//! [`neg`](Expr::neg), [`floor_div`](Expr::floor_div) and
//! [`ceil_div`](Expr::ceil_div) by a positive constant, [`min`](Expr::min) /
//! [`max`](Expr::max), and [`assumed_exact_div`](Expr::assumed_exact_div) by
//! a positive constant (the caller records that the division is exact; shown
//! as `4*N*S/3`). Every operation uses checked `i64` arithmetic and returns
//! [`DimError::Overflow`] rather than wrapping.
//!
//! ## Canonical form
//!
//! An `Expr` is kept as a sum of terms `c × m` where `c` is a nonzero `i64`
//! and `m` a [`Monomial`]: a sorted multiset of [`Atom`]s with positive
//! exponents (the constant term has the empty monomial). Atoms are symbols,
//! `floor(e/k)`, `ceil(e/k)`, exact `e/k`, `min(a, b)`, `max(a, b)` and
//! `bcast(a, b)` (the numpy broadcast of two dims), whose arguments are
//! themselves canonical. Because the representation is sorted
//! and fully simplified, the derived `Eq`/`Ord`/`Hash` are semantic for
//! everything the rules normalize: `3*N == N*3`, `(D+1)-1 == D`,
//! `N*S == S*N`, `(N+1)*(N-1) == N*N - 1`.
//!
//! Simplification rules applied at construction:
//!
//! * constants fold, zero terms vanish, products are fully expanded;
//! * `floor(e/1) = ceil(e/1) = e/1 = e`;
//! * `floor((k*q + r)/k) = q + floor(r/k)`: terms whose coefficient is a
//!   multiple of `k` are pulled out (valid because every atom is an integer);
//!   `ceil` likewise, and exact division likewise;
//! * constant numerators fold (`floor(-3/2) = -2`, `ceil(-3/2) = -1`); a
//!   constant exact division that does not divide is
//!   [`DimError::NotDivisible`];
//! * the remainder and the divisor are divided by their gcd
//!   (`floor((2*N + 2)/4) = floor((N + 1)/2)`);
//! * sign normalization: the numerator of a division atom has a positive
//!   leading coefficient (`floor(-N/2) = -ceil(N/2)`,
//!   `ceil(-N/2) = -floor(N/2)`, `(-N)/2 = -(N/2)`);
//! * nesting: `floor(floor(e/a)/b) = floor(e/(a*b))`, the same for `ceil` and
//!   exact division;
//! * exact division under a coefficient: `c * (e/k) = (c/g) * (e/(k/g))`
//!   with `g = gcd(c, k)`, so `3 * (N/3) = N` and `2 * (N/4) = N/2`;
//! * `min`/`max`: equal arguments collapse; a constant difference picks the
//!   smaller/larger (so `min(e + 1, e + 3) = e + 1` and constants fold);
//!   absorption (`min(a, min(a, b)) = min(a, b)`, `min(a, max(a, b)) = a`);
//!   a common constant offset is pulled out
//!   (`min(a + c, b + c) = min(a, b) + c`); otherwise the atom keeps its two
//!   arguments sorted (non-constant before constant, then by `Expr` order).
//!   [`SymbolTable::min`] / [`SymbolTable::max`] additionally use the symbol
//!   ranges: with `S ∈ [2, ∞)`, `max(S - 2, 0) = S - 2`;
//! * `bcast(a, b)` ([`Expr::bcast`]): `bcast(a, a) = bcast(a, 1) = a`; two
//!   distinct constants neither 1 are [`DimError::NotBroadcastable`];
//!   absorption `bcast(a, bcast(a, b)) = bcast(a, b)`; otherwise a sorted
//!   atom. Its value is `a` if `a == b` or `b == 1`, `b` if `a == 1`, and an
//!   evaluation error otherwise; its bounds are the hull of both arguments'.
//!
//! Equality is structural: two expressions equal for all values but not
//! reduced to the same form by these rules (e.g. `floor((N + 5)/2)` and
//! `floor((N + 1)/2) + 2`) compare unequal; use [`SymbolTable::compare`] or
//! [`SymbolTable::decide`] for range-based reasoning.
//!
//! ## Bounds, evaluation, division
//!
//! [`SymbolTable::bounds`] computes an interval containing every value of an
//! expression when each symbol ranges over its interval (interval arithmetic
//! in `i128` with infinite ends; even powers are non-negative; `D ∈ [2, 10]
//! ⇒ D - 2 ∈ [0, 8]`). [`Expr::eval`] evaluates under a binding.
//! [`Expr::exact_div`] is exact polynomial division (`(N*15*D)/N = 15*D`),
//! treating atoms as independent variables.
//!
//! ## Text format
//!
//! [`SymbolTable::display`] prints the stable format that
//! [`SymbolTable::parse_expr`] reads back to an equal `Expr`:
//!
//! * integers in decimal; named symbols by name; other symbols as
//!   `?<index>` (also symbols whose name is not a plain identifier, is
//!   reserved — `floor`, `ceil`, `min`, `max`, `bcast` — or is owned by another symbol);
//! * terms in canonical order: **higher total degree first; at equal degree,
//!   graded-lexicographic by atoms** (symbols before other atoms, symbols by
//!   id; the monomial with the larger exponent of the first differing atom
//!   first); the constant last. Signs join the terms: `D - 2`, `-N + 5`,
//!   `2*N - S`;
//! * a term is its absolute coefficient (omitted when 1) and its atoms
//!   joined by `*`, powers as repeated factors: `15*D`, `3*N*S`, `N*N`;
//! * `floor(<num>/<k>)`, `ceil(<num>/<k>)`, `min(a, b)`, `max(a, b)`,
//!   `bcast(a, b)`;
//!   exact division as `<num>/<k>`, parenthesized as a whole when it is a
//!   factor of a larger product (`2*M*(N/3)`); the numerator is bare when it
//!   is a single product and parenthesized otherwise: `4*N*S/3`,
//!   `(N + 1)/2`, `floor((H - 3)/2) + 1`.
//!
//! The parser also accepts whitespace anywhere, unary `+`/`-`, parentheses
//! and arbitrary products/quotients; `/` is exact division. Shapes are parsed
//! by [`SymbolTable::parse_dims`] (`[1,3,224,224]`, `?,3,2..10`, `N,3,H,W`,
//! `...`). Inputs are limited to [`MAX_INPUT_LEN`](parse::MAX_INPUT_LEN)
//! bytes and [`MAX_DEPTH`](parse::MAX_DEPTH) nesting levels; the parser never
//! panics.
//!
//! ## Limits
//!
//! No operation builds an expression larger than [`MAX_SIZE`] nodes
//! ([`Expr::size`]) or nesting atoms deeper than [`MAX_NESTING`]
//! ([`Expr::nesting`]); it returns [`DimError::TooComplex`] instead. The
//! size bounds the time of every operation, the nesting bounds the stack of
//! every walk over an expression. Shape inference stays far below both: it
//! replaces a dim that grows past a much smaller budget by a fresh symbol
//! (see `shape_infer`'s engine).
//!
//! ## Predicates
//!
//! [`Predicate`]s (`==`, `!=`, `<`, `<=`, `>`, `>=`, `% k == 0`, `and`,
//! `or`) record constraints; they can be evaluated under a binding or
//! decided from ranges with [`SymbolTable::decide`].

#![warn(missing_docs)]

mod display;
mod error;
mod expr;
mod interval;
pub mod parse;
mod predicate;
mod table;

pub use error::{DimError, ParseError};
pub use expr::{Atom, Expr, Monomial, SymbolId, MAX_NESTING, MAX_SIZE};
pub use interval::Interval;
pub use parse::ParsedShape;
pub use predicate::Predicate;
pub use table::{HashedExpr, HashedExprMap, PassHasher, Provenance, SymbolInfo, SymbolTable};

#[cfg(test)]
mod tests;
