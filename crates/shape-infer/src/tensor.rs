//! What inference knows about one tensor.

use ir::{Dim, ElementType, Shape};

/// Where a tensor's shape came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeOrigin {
    /// Computed by the op's rule.
    Inferred,
    /// Taken from the port declaration in the file, because the op is unknown
    /// or its rule failed.
    Declared,
}

/// The element type and shape of a tensor, and its element values when they are
/// known as dim expressions (constants, and later the small integer tensors of
/// shape subgraphs: `ShapeOf` of `[N, 3]` has the value `[N, 3]`).
#[derive(Debug, Clone, PartialEq)]
pub struct TensorInfo {
    pub element_type: ElementType,
    pub shape: Shape,
    /// The elements in row-major order, when known.
    pub value: Option<Vec<Dim>>,
    /// The elements of a small floating-point constant, when known (a Range
    /// over float scalars has a static length OpenVINO folds).
    pub real_value: Option<Vec<f64>>,
    /// Each element's lowest and highest value, for a small float tensor
    /// whose elements are not known exactly (`ShapeOf` values divided as
    /// floats): OpenVINO's lower/upper value propagation, which a Convert
    /// back to integers turns into bounded fresh symbols.
    pub value_bounds: Option<Vec<(f64, f64)>>,
    pub origin: ShapeOrigin,
}

impl TensorInfo {
    /// An inferred tensor with no known value.
    pub fn new(element_type: ElementType, shape: Shape) -> Self {
        TensorInfo {
            element_type,
            shape,
            value: None,
            real_value: None,
            value_bounds: None,
            origin: ShapeOrigin::Inferred,
        }
    }

    /// Attaches known element values (`None`: they are not known).
    pub fn with_value(mut self, value: impl Into<Option<Vec<Dim>>>) -> Self {
        self.value = value.into();
        self
    }

    /// Attaches the bounds of the elements (`None`: not known).
    pub fn with_value_bounds(mut self, bounds: Option<Vec<(f64, f64)>>) -> Self {
        self.value_bounds = bounds;
        self
    }

    /// Attaches known floating-point element values.
    pub fn with_real_value(mut self, value: Vec<f64>) -> Self {
        self.real_value = Some(value);
        self
    }
}
