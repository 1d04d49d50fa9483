//! The stable text format of expressions and predicates.

use std::fmt::{self, Display, Formatter, Write};

use crate::expr::{Atom, Monomial};
use crate::{Expr, Predicate, SymbolId, SymbolTable};

/// Display adapter returned by [`SymbolTable::display`].
pub(crate) struct ExprDisplay<'a> {
    pub(crate) table: &'a SymbolTable,
    pub(crate) expr: &'a Expr,
}

impl Display for ExprDisplay<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        fmt_expr(self.table, self.expr, f)
    }
}

/// Display adapter returned by [`SymbolTable::display_predicate`].
pub(crate) struct PredicateDisplay<'a> {
    pub(crate) table: &'a SymbolTable,
    pub(crate) pred: &'a Predicate,
}

impl Display for PredicateDisplay<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        fmt_pred(self.table, self.pred, f)
    }
}

fn fmt_symbol(t: &SymbolTable, s: SymbolId, f: &mut impl Write) -> fmt::Result {
    match t.display_name(s) {
        Some(name) => f.write_str(name),
        None => {
            f.write_str("?")?;
            fmt_integer(s.0, f)
        }
    }
}

/// An integer as `write!(f, "{v}")` writes it, without the formatting
/// machinery (a report writes every symbolic dim's text: the `?1` and
/// `500` of a Slice chain's `max(?1 - 500, 0)`).
fn fmt_integer(v: impl itoa::Integer, f: &mut impl Write) -> fmt::Result {
    f.write_str(itoa::Buffer::new().format(v))
}

/// The text of `e`, written into `f`: a [`Formatter`] for `Display`, or
/// straight into a `String` ([`SymbolTable::write_expr`]), where each piece
/// is a `push_str` and not a call through the formatter's `dyn Write`.
pub(crate) fn fmt_expr(t: &SymbolTable, e: &Expr, f: &mut impl Write) -> fmt::Result {
    if e.is_zero() {
        return f.write_str("0");
    }
    for (i, (c, m)) in e.terms().enumerate() {
        if i == 0 {
            if c < 0 {
                f.write_str("-")?;
            }
        } else if c == i64::MIN {
            // ` - 9223372036854775808` would not parse back; the unary minus
            // on the literal does.
            f.write_str(" + -")?;
        } else if c < 0 {
            f.write_str(" - ")?;
        } else {
            f.write_str(" + ")?;
        }
        fmt_term(t, c.unsigned_abs(), m, f)?;
    }
    Ok(())
}

fn fmt_term(t: &SymbolTable, abs: u64, m: &Monomial, f: &mut impl Write) -> fmt::Result {
    if m.is_one() {
        return fmt_integer(abs, f);
    }
    let mut first = true;
    if abs != 1 {
        fmt_integer(abs, f)?;
        first = false;
    }
    let alone = abs == 1 && m.factors().len() == 1 && m.factors()[0].1 == 1;
    for (a, e) in m.factors() {
        for _ in 0..*e {
            if !first {
                f.write_str("*")?;
            }
            first = false;
            fmt_atom(t, a, !alone, f)?;
        }
    }
    Ok(())
}

/// A division numerator: bare if it is a single product with positive
/// coefficient, else parenthesized.
fn fmt_numerator(t: &SymbolTable, e: &Expr, f: &mut impl Write) -> fmt::Result {
    let single = e.num_terms() == 1 && e.terms().all(|(c, _)| c > 0);
    if single {
        fmt_expr(t, e, f)
    } else {
        f.write_str("(")?;
        fmt_expr(t, e, f)?;
        f.write_str(")")
    }
}

fn fmt_atom(t: &SymbolTable, a: &Atom, in_product: bool, f: &mut impl Write) -> fmt::Result {
    match a {
        Atom::Sym(s) => fmt_symbol(t, *s, f),
        Atom::FloorDiv(e, k) | Atom::CeilDiv(e, k) => {
            f.write_str(if matches!(a, Atom::FloorDiv(..)) {
                "floor("
            } else {
                "ceil("
            })?;
            fmt_numerator(t, e, f)?;
            f.write_str("/")?;
            fmt_integer(*k, f)?;
            f.write_str(")")
        }
        Atom::ExactDiv(e, k) => {
            if in_product {
                f.write_str("(")?;
            }
            fmt_numerator(t, e, f)?;
            f.write_str("/")?;
            fmt_integer(*k, f)?;
            if in_product {
                f.write_str(")")?;
            }
            Ok(())
        }
        Atom::Min(x, y) | Atom::Max(x, y) | Atom::Bcast(x, y) => {
            f.write_str(match a {
                Atom::Min(..) => "min(",
                Atom::Max(..) => "max(",
                _ => "bcast(",
            })?;
            fmt_expr(t, x, f)?;
            f.write_str(", ")?;
            fmt_expr(t, y, f)?;
            f.write_str(")")
        }
    }
}

fn fmt_pred(t: &SymbolTable, p: &Predicate, f: &mut Formatter<'_>) -> fmt::Result {
    let cmp = |f: &mut Formatter<'_>, a: &Expr, op: &str, b: &Expr| -> fmt::Result {
        fmt_expr(t, a, f)?;
        write!(f, " {op} ")?;
        fmt_expr(t, b, f)
    };
    match p {
        Predicate::Eq(a, b) => cmp(f, a, "==", b),
        Predicate::Ne(a, b) => cmp(f, a, "!=", b),
        Predicate::Lt(a, b) => cmp(f, a, "<", b),
        Predicate::Le(a, b) => cmp(f, a, "<=", b),
        Predicate::Gt(a, b) => cmp(f, a, ">", b),
        Predicate::Ge(a, b) => cmp(f, a, ">=", b),
        Predicate::Divides { divisor, expr } => {
            let bare = match expr.as_atom() {
                Some(Atom::ExactDiv(..)) => false,
                Some(_) => true,
                None => expr.as_constant().is_some_and(|c| c >= 0),
            };
            if bare {
                fmt_expr(t, expr, f)?;
            } else {
                f.write_str("(")?;
                fmt_expr(t, expr, f)?;
                f.write_str(")")?;
            }
            write!(f, " % {divisor} == 0")
        }
        Predicate::And(ps) | Predicate::Or(ps) => {
            let (sep, empty) = if matches!(p, Predicate::And(_)) {
                (" and ", "true")
            } else {
                (" or ", "false")
            };
            if ps.is_empty() {
                return f.write_str(empty);
            }
            for (i, q) in ps.iter().enumerate() {
                if i > 0 {
                    f.write_str(sep)?;
                }
                if matches!(q, Predicate::And(_) | Predicate::Or(_)) {
                    f.write_str("(")?;
                    fmt_pred(t, q, f)?;
                    f.write_str(")")?;
                } else {
                    fmt_pred(t, q, f)?;
                }
            }
            Ok(())
        }
    }
}
