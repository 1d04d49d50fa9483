//! Comparing a run's outputs with expected ones (OpenVINO's, a reference
//! implementation's): exact for integers and booleans, within a relative
//! tolerance for floating-point types, NaN matching NaN.

use crate::kernels::{to_f64s, to_i128s};
use crate::tensor::Tensor;

/// The first difference between `actual` and `expected`, described for a
/// person, or `None` when they match: the element type, then the shape,
/// then the elements. Integers and booleans must be equal; floats (f16,
/// bf16, f32, f64) may differ by `relative * max(1, |expected|)`.
pub fn first_difference(actual: &Tensor, expected: &Tensor, relative: f64) -> Option<String> {
    if actual.element_type != expected.element_type {
        return Some(format!(
            "element type: {} vs expected {}",
            actual.element_type, expected.element_type
        ));
    }
    if actual.shape != expected.shape {
        return Some(format!(
            "shape: {:?} vs expected {:?}",
            actual.shape, expected.shape
        ));
    }
    let real = actual.element_type.is_real();
    if real {
        let far = |a: f64, e: f64| {
            !((a.is_nan() && e.is_nan()) || a == e || (a - e).abs() <= relative * e.abs().max(1.0))
        };
        if let (Ok(a), Ok(e)) = (to_f64s(actual), to_f64s(expected)) {
            return describe(&a, &e, far);
        }
    } else if let (Ok(a), Ok(e)) = (to_i128s(actual), to_i128s(expected)) {
        return describe(&a, &e, |a, e| a != e);
    }
    // Booleans and other types: their bytes.
    describe(actual.bytes(), expected.bytes(), |a, e| a != e)
}

/// The first index where `differ`, with how many elements do.
fn describe<T: Copy + std::fmt::Debug>(
    actual: &[T],
    expected: &[T],
    differ: impl Fn(T, T) -> bool,
) -> Option<String> {
    let pairs = || actual.iter().zip(expected).map(|(&a, &e)| (a, e));
    let i = pairs().position(|(a, e)| differ(a, e))?;
    Some(format!(
        "index {i}: {:?} vs expected {:?} ({} of {} elements differ)",
        actual[i],
        expected[i],
        pairs().filter(|&(a, e)| differ(a, e)).count(),
        actual.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_for_integers_close_for_floats() {
        let f = |v: Vec<f32>| Tensor::from_vec(vec![v.len()], v).unwrap();
        let tol = 1e-5;
        assert_eq!(
            first_difference(&f(vec![1.0, f32::NAN]), &f(vec![1.000001, f32::NAN]), tol),
            None
        );
        let d = first_difference(&f(vec![1.0, 2.0]), &f(vec![1.0, 2.1]), tol).unwrap();
        assert!(d.starts_with("index 1: 2.0 vs expected 2.09"), "{d}");
        let i = |v: Vec<i64>| Tensor::from_vec(vec![v.len()], v).unwrap();
        assert!(first_difference(&i(vec![1, 2]), &i(vec![1, 3]), 1.0).is_some());
        let b = |v: Vec<bool>| Tensor::from_vec(vec![v.len()], v).unwrap();
        assert!(first_difference(&b(vec![true]), &b(vec![false]), 1.0).is_some());
        assert!(first_difference(&i(vec![1]), &f(vec![1.0]), 1.0)
            .unwrap()
            .starts_with("element type"));
        assert!(first_difference(&i(vec![1]), &i(vec![1, 1]), 1.0)
            .unwrap()
            .starts_with("shape"));
    }
}
