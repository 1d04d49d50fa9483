//! ErfInv-17: the inverse error function, as OpenVINO 2026.4's CPU plugin
//! computes it (its JIT emitter, in f32, whatever the data type).
//!
//! Both OpenVINO's reference implementation and the CPU plugin use Giles's
//! rational approximation ("Approximating the erfinv function", 2011) of
//! `w = -ln((1 - x)(1 + x))`, with one difference from the paper: the
//! seventh coefficient of the tail branch (`w >= 5`, `|x| > 0.9966`) is
//! negated, so there the result is below the true value by up to about
//! 0.2% (erfinv(0.999) = 2.3218 for 2.3268). The CPU plugin's logarithm is
//! its own: `e·ln 2 + log(1 + u)` for `t = m·2^e`, `m` in [0.5, 1),
//! `u = m - 1`, with `log(1 + u)` summed to the eighth power of `u`; so for
//! `0.5 < |x| < 0.7071` (where `m` nears 0.5) the result is off by up to
//! 8e-5 relative, which this kernel reproduces (measured against the CPU
//! plugin over [-1, 1]: within 4e-6 relative everywhere).
//!
//! Special values: ±0 stays ±0, ±1 gives ±inf, NaN and `|x| > 1` give NaN.

use super::elementwise_unary::floats;
use super::{Call, KResult};
use crate::tensor::Tensor;

/// Giles's central branch (`w < 5`), highest power first, in `s = w - 2.5`.
const CENTRAL: [f32; 9] = [
    2.810_226_4e-8,
    3.432_739_4e-7,
    -3.523_387_7e-6,
    -4.391_506_5e-6,
    2.185_808_7e-4,
    -1.253_725e-3,
    -4.177_681_6e-3,
    0.246_640_73,
    1.501_409_4,
];

/// Giles's tail branch (`w >= 5`), in `s = sqrt(w) - 3`; the seventh
/// coefficient negated as in OpenVINO (the paper has +0.00943887047).
const TAIL: [f32; 9] = [
    -2.002_142_6e-4,
    1.009_505_6e-4,
    1.349_343_2e-3,
    -3.673_428_4e-3,
    5.739_507_7e-3,
    -7.622_461_3e-3,
    -9.438_870_5e-3,
    1.001_674,
    2.832_976_8,
];

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    floats(call, "ErfInv", |v| f64::from(erf_inv(v as f32)))
}

/// `ln(t)` for `t` in (0, 1] as the CPU plugin's emitter computes it:
/// the exponent times ln 2 plus a degree-8 Taylor sum of `ln(m)` around 1.
fn cpu_ln(t: f32) -> f32 {
    let bits = t.to_bits();
    // `t` is normal here: (1 - x)(1 + x) >= 2^-24 for |x| < 1 in f32.
    let exponent = ((bits >> 23) & 0xff) as i32 - 126;
    let mantissa = f32::from_bits((bits & 0x007f_ffff) | (126 << 23));
    let u = mantissa - 1.0;
    let mut sum = 0.0f32;
    for k in (1..=8).rev() {
        let term = if k % 2 == 1 { 1.0 } else { -1.0 } / k as f32;
        sum = term + sum * u;
    }
    exponent as f32 * std::f32::consts::LN_2 + sum * u
}

/// Horner's rule over `coefficients` (highest power first) at `s`.
fn horner(coefficients: &[f32], s: f32) -> f32 {
    coefficients.iter().fold(0.0, |acc, &c| acc * s + c)
}

/// The inverse error function of one value.
fn erf_inv(x: f32) -> f32 {
    if x == 0.0 || x.is_nan() {
        return x;
    }
    let magnitude = x.abs();
    if magnitude > 1.0 {
        return f32::NAN;
    }
    if magnitude == 1.0 {
        return f32::INFINITY.copysign(x);
    }
    let w = -cpu_ln((1.0 - x) * (1.0 + x));
    let r = if w < 5.0 {
        horner(&CENTRAL, w - 2.5)
    } else {
        horner(&TAIL, w.sqrt() - 3.0)
    };
    r * x
}

#[cfg(test)]
mod tests {
    use super::erf_inv;

    #[test]
    fn special_values() {
        assert_eq!(erf_inv(0.0).to_bits(), 0.0f32.to_bits());
        assert_eq!(erf_inv(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(erf_inv(1.0), f32::INFINITY);
        assert_eq!(erf_inv(-1.0), f32::NEG_INFINITY);
        assert!(erf_inv(1.5).is_nan());
        assert!(erf_inv(f32::NAN).is_nan());
    }

    #[test]
    fn near_the_true_inverse_in_the_central_range() {
        // erfinv(0.5) = 0.4769362762, erfinv(-0.3) = -0.2724627147.
        assert!((erf_inv(0.5) - 0.476_936_28).abs() < 1e-6);
        assert!((erf_inv(-0.3) + 0.272_462_7).abs() < 1e-6);
    }

    #[test]
    fn the_cpu_plugin_values() {
        // OpenVINO 2026.4's CPU plugin: 0.7 -> 0.7328133 (true 0.7328691,
        // its logarithm's error) and 0.999 -> 2.3218474 (true 2.3267538,
        // the negated tail coefficient).
        assert!((erf_inv(0.7) - 0.732_813_3).abs() < 1e-6);
        assert!((erf_inv(0.999) - 2.321_847_4).abs() < 1e-5);
    }
}
