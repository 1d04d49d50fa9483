//! Shapes: a rank and a symbolic dim per axis, or an unknown rank.

use std::fmt;

use smallvec::SmallVec;
use symdim::{Expr, ParsedShape, Provenance, SymbolTable};

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
    #[inline]
    pub fn rank(&self) -> Option<usize> {
        self.dims().map(<[Dim]>::len)
    }

    /// The dims, when the rank is known.
    #[inline]
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

/// Parses a shape in OpenVINO's partial-shape syntax (a Parameter's `shape`,
/// a ReadValue's `variable_shape`): `...` (dynamic rank), the empty text (a
/// scalar), or comma-separated dims, each an integer `>= 0`, `-1` or `?`
/// (unknown), or an interval `LO..HI`, `LO..`, `..HI`. Unknown and interval
/// dims become fresh symbols with that range; `provenance` says, for a dim's
/// index, where its symbol comes from.
pub fn parse_openvino_shape(
    symbols: &mut SymbolTable,
    text: &str,
    provenance: &dyn Fn(usize) -> Provenance,
) -> Result<Shape, String> {
    let trimmed = text.trim();
    if trimmed == "..." {
        return Ok(Shape::DynamicRank);
    }
    if trimmed.is_empty() {
        return Ok(Shape::scalar());
    }
    let pieces: Vec<&str> = text.split(',').collect();
    for (index, piece) in pieces.iter().enumerate() {
        if !is_openvino_dim(piece.trim()) {
            return Err(format!(
                "dim {index} \"{}\" is not an integer >= 0, `-1`, `?` or an interval `LO..HI`",
                piece.trim()
            ));
        }
    }
    let mut dims = Vec::with_capacity(pieces.len());
    for (index, piece) in pieces.iter().enumerate() {
        match symbols.parse_dims(piece, &|| Some(provenance(index))) {
            Ok(ParsedShape::Ranked(parsed)) if parsed.len() == 1 => dims.extend(parsed),
            Ok(_) => return Err(format!("dim {index} \"{}\" is not one dim", piece.trim())),
            Err(error) => return Err(format!("dim {index} \"{}\": {error}", piece.trim())),
        }
    }
    Ok(Shape::ranked(dims))
}

/// Whether `dim` is one dim in OpenVINO's partial-shape syntax.
fn is_openvino_dim(dim: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if dim == "?" || dim == "-1" || digits(dim) {
        return true;
    }
    match dim.split_once("..") {
        Some((lo, hi)) => {
            (lo.is_empty() || digits(lo))
                && (hi.is_empty() || digits(hi))
                && !(lo.is_empty() && hi.is_empty())
        }
        None => false,
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

#[cfg(test)]
mod parse_tests {
    use super::*;

    #[test]
    fn openvino_dims() {
        for ok in ["0", "12", "-1", "?", "1..8", "1..", "..8"] {
            assert!(is_openvino_dim(ok), "{ok}");
        }
        for bad in ["", "..", "-2", "N", "1.5", "8..1a", "?1"] {
            assert!(!is_openvino_dim(bad), "{bad}");
        }
    }

    #[test]
    fn openvino_shapes() {
        let mut symbols = SymbolTable::new();
        let provenance = |index| Provenance {
            layer: "v".into(),
            line: 1,
            reason: format!("dim {index}"),
        };
        let shape = parse_openvino_shape(&mut symbols, "?,3,2..5", &provenance).unwrap();
        let dims = shape.dims().unwrap();
        assert_eq!(dims[1].as_constant(), Some(3));
        let range = symbols.range(dims[2].as_symbol().unwrap());
        assert_eq!((range.lo, range.hi), (Some(2), Some(5)));
        assert_eq!(
            parse_openvino_shape(&mut symbols, "...", &provenance),
            Ok(Shape::DynamicRank)
        );
        assert_eq!(
            parse_openvino_shape(&mut symbols, "", &provenance),
            Ok(Shape::scalar())
        );
        assert!(parse_openvino_shape(&mut symbols, "2,N", &provenance).is_err());
    }
}
