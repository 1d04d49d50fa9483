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
    /// The floating-point knowledge of the elements, which few tensors have:
    /// boxed, so that the many tensors without it stay small to move and
    /// copy (issue 18).
    reals: Option<Box<RealKnowledge>>,
    pub origin: ShapeOrigin,
}

/// What is known of a tensor's elements as floating-point numbers.
#[derive(Debug, Clone, PartialEq, Default)]
struct RealKnowledge {
    /// The elements of a small floating-point constant, when known (a Range
    /// over float scalars has a static length OpenVINO folds).
    value: Option<Vec<f64>>,
    /// Each element's lowest and highest value, for a small float tensor
    /// whose elements are not known exactly (`ShapeOf` values divided as
    /// floats): OpenVINO's lower/upper value propagation, which a Convert
    /// back to integers turns into bounded fresh symbols.
    bounds: Option<Vec<(f64, f64)>>,
}

impl RealKnowledge {
    fn is_empty(&self) -> bool {
        self.value.is_none() && self.bounds.is_none()
    }
}

impl TensorInfo {
    /// An inferred tensor with no known value.
    pub fn new(element_type: ElementType, shape: Shape) -> Self {
        TensorInfo {
            element_type,
            shape,
            value: None,
            reals: None,
            origin: ShapeOrigin::Inferred,
        }
    }

    /// A tensor declared on a port: no value known.
    pub fn declared(element_type: ElementType, shape: Shape) -> Self {
        TensorInfo {
            origin: ShapeOrigin::Declared,
            ..TensorInfo::new(element_type, shape)
        }
    }

    /// The elements of a small floating-point constant, when known.
    pub fn real_value(&self) -> Option<&[f64]> {
        self.reals.as_deref()?.value.as_deref()
    }

    /// Each element's lowest and highest value, when known for a small float
    /// tensor whose elements are not known exactly.
    pub fn value_bounds(&self) -> Option<&[(f64, f64)]> {
        self.reals.as_deref()?.bounds.as_deref()
    }

    /// Replaces the floating-point element values (`None`: not known).
    pub fn set_real_value(&mut self, value: Option<Vec<f64>>) {
        self.update_reals(|reals| reals.value = value);
    }

    /// Replaces the bounds of the elements (`None`: not known).
    pub fn set_value_bounds(&mut self, bounds: Option<Vec<(f64, f64)>>) {
        self.update_reals(|reals| reals.bounds = bounds);
    }

    /// Changes the floating-point knowledge; none left frees its box, so
    /// that equal knowledge stays an equal value.
    fn update_reals(&mut self, change: impl FnOnce(&mut RealKnowledge)) {
        match &mut self.reals {
            Some(reals) => {
                change(reals);
                if reals.is_empty() {
                    self.reals = None;
                }
            }
            None => {
                let mut reals = RealKnowledge::default();
                change(&mut reals);
                if !reals.is_empty() {
                    self.reals = Some(Box::new(reals));
                }
            }
        }
    }

    /// Attaches known element values (`None`: they are not known).
    pub fn with_value(mut self, value: impl Into<Option<Vec<Dim>>>) -> Self {
        self.value = value.into();
        self
    }

    /// Attaches the bounds of the elements (`None`: not known).
    pub fn with_value_bounds(mut self, bounds: Option<Vec<(f64, f64)>>) -> Self {
        self.set_value_bounds(bounds);
        self
    }

    /// Attaches known floating-point element values.
    pub fn with_real_value(mut self, value: Vec<f64>) -> Self {
        self.set_real_value(Some(value));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every node's outputs are moved and copied through inference: the rare
    /// float knowledge must stay out of line (issue 18).
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn tensor_info_stays_small() {
        let size = std::mem::size_of::<TensorInfo>();
        println!("size_of::<TensorInfo>() = {size}");
        assert!(size <= 152, "TensorInfo is {size} bytes");
    }

    #[test]
    fn float_knowledge_cleared_leaves_no_box() {
        let t = TensorInfo::new(ElementType::F32, Shape::ranked([]))
            .with_real_value(vec![1.5])
            .with_value_bounds(Some(vec![(0.0, 1.0)]));
        assert_eq!(t.real_value(), Some(&[1.5][..]));
        assert_eq!(t.value_bounds(), Some(&[(0.0, 1.0)][..]));
        let mut cleared = t.clone();
        cleared.set_real_value(None);
        cleared.set_value_bounds(None);
        assert_eq!(
            cleared,
            TensorInfo::new(ElementType::F32, Shape::ranked([]))
        );
    }
}
