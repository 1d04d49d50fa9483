//! Shapes: a rank and a symbolic dim per axis, or an unknown rank.

use std::fmt;

use smallvec::SmallVec;
use symdim::{Expr, SymbolTable};

/// One dimension: a symbolic integer expression (see the `symdim` crate).
/// A static dim is a constant expression.
pub type Dim = Expr;

/// The dims of a ranked shape. Most tensors have at most six axes.
pub type Dims = SmallVec<[Dim; 6]>;

/// A tensor shape. Unknown rank is its own case, not a shape of some magic length.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Shape {
    /// The rank is not known.
    DynamicRank,
    /// A known rank; the empty list is a scalar.
    Ranked(Dims),
}

impl Shape {
    /// A shape of the given dims.
    pub fn ranked(dims: impl IntoIterator<Item = Dim>) -> Shape {
        Shape::Ranked(dims.into_iter().collect())
    }

    /// A static shape.
    pub fn from_static(dims: &[i64]) -> Shape {
        Shape::ranked(dims.iter().map(|&d| Expr::constant(d)))
    }

    /// The scalar shape `[]`.
    pub fn scalar() -> Shape {
        Shape::Ranked(Dims::new())
    }

    /// The rank, when known.
    pub fn rank(&self) -> Option<usize> {
        self.dims().map(<[Dim]>::len)
    }

    /// The dims, when the rank is known.
    pub fn dims(&self) -> Option<&[Dim]> {
        match self {
            Shape::DynamicRank => None,
            Shape::Ranked(dims) => Some(dims),
        }
    }

    /// The dims as integers, when every dim is static.
    pub fn to_static(&self) -> Option<Vec<i64>> {
        self.dims()?.iter().map(Expr::as_constant).collect()
    }

    /// Displays the shape with the symbol names of `symbols`: `[N, 3, D - 2]`, or `[...]`.
    pub fn display<'a>(&'a self, symbols: &'a SymbolTable) -> impl fmt::Display + 'a {
        ShapeDisplay {
            shape: self,
            symbols,
        }
    }
}

struct ShapeDisplay<'a> {
    shape: &'a Shape,
    symbols: &'a SymbolTable,
}

impl fmt::Display for ShapeDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.shape {
            Shape::DynamicRank => f.write_str("[...]"),
            Shape::Ranked(dims) => {
                f.write_str("[")?;
                for (i, dim) in dims.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", self.symbols.display(dim))?;
                }
                f.write_str("]")
            }
        }
    }
}

/// A dim as a port declares it in the XML: `<dim>3</dim>` or `<dim>-1</dim>`.
/// OpenVINO writes every non-static dim (unknown or interval) as `-1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeclaredDim {
    Static(u64),
    Dynamic,
}

impl fmt::Display for DeclaredDim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeclaredDim::Static(d) => write!(f, "{d}"),
            DeclaredDim::Dynamic => f.write_str("?"),
        }
    }
}
