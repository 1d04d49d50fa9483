//! Error types of the dimension algebra and of the parser.

use crate::SymbolId;

/// An error produced by an arithmetic operation, an evaluation, or a
/// symbol-table update.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DimError {
    /// A checked 64-bit integer operation (or a bound that does not fit in
    /// `i64`) overflowed. Arithmetic never wraps.
    #[error("integer overflow in dimension arithmetic")]
    Overflow,
    /// `floor_div`, `ceil_div`, `assumed_exact_div` (or a `%` predicate) got a
    /// divisor that is zero or negative.
    #[error("division by non-positive constant {0}")]
    DivisionByNonPositive(i64),
    /// An exact division whose dividend is not a multiple of the divisor
    /// (at evaluation time, or a constant dividend at construction time).
    #[error("{dividend} is not divisible by {divisor}")]
    NotDivisible {
        /// The value that was divided.
        dividend: i64,
        /// The divisor.
        divisor: i64,
    },
    /// `bcast(a, b)` of two values that differ and are neither 1 (at
    /// evaluation time, or two constants at construction time).
    #[error("dims {a} and {b} do not broadcast")]
    NotBroadcastable {
        /// The first dim.
        a: i64,
        /// The second dim.
        b: i64,
    },
    /// Evaluation met a symbol that the binding gives no value.
    #[error("symbol ?{} has no value", .0 .0)]
    Unbound(SymbolId),
    /// Restricting a symbol's range made it empty.
    #[error("range of symbol ?{} became empty", .0 .0)]
    EmptyRange(SymbolId),
    /// An expression grew beyond the size limits of the algebra (too many
    /// terms after expanding a product).
    #[error("expression too complex")]
    TooComplex,
}

/// A parse error of [`SymbolTable::parse_expr`](crate::SymbolTable::parse_expr)
/// or [`SymbolTable::parse_dims`](crate::SymbolTable::parse_dims).
///
/// `offset` is the 0-based byte offset in the input; the `Display` form shows
/// the 1-based column `offset + 1`: `at column 3: unexpected character '$'`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at column {}: {}", .offset + 1, .message)]
pub struct ParseError {
    /// What went wrong.
    pub message: String,
    /// 0-based byte offset of the offending input.
    pub offset: usize,
}

impl ParseError {
    /// Builds a parse error.
    pub fn new(message: impl Into<String>, offset: usize) -> Self {
        ParseError {
            message: message.into(),
            offset,
        }
    }
}
