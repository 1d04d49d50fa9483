//! The storage-only element types OpenVINO writes for compressed weights:
//! packed integers (u1, u2, u4, i4), nf4, the 8-bit floats (f8e4m3,
//! f8e5m2, f8e8m0) and f4e2m1. Nothing computes on them: Convert decodes
//! them (and constant folding with it, at load time) and encodes to them
//! ([`encode`], as OpenVINO's CPU plugin rounds), and the ops that only
//! move elements move their codes ([`codes`], [`from_codes`]).
//!
//! Layouts, as OpenVINO stores them: 4-bit and 2-bit elements from the low
//! bits of each byte up (element 0 in the low nibble), u1 from the most
//! significant bit down. f8e4m3 is OCP's E4M3FN (no infinities, `S.1111.111`
//! is NaN); f8e5m2 is IEEE-like; f8e8m0 is a power of two `2^(e - 127)` with
//! `0xFF` NaN; nf4 indexes the NormalFloat4 code book.

use ir::ElementType;

use crate::error::ExecError;
use crate::tensor::{Element, Tensor};

/// NormalFloat4's 16 values (QLoRA's code book, as OpenVINO's `nf4`).
const NF4_CODES: [f32; 16] = [
    -1.0,
    -0.696_192_8,
    -0.525_073_05,
    -0.394_917_5,
    -0.284_441_38,
    -0.184_773_43,
    -0.091_050_036,
    0.0,
    0.079_580_3,
    0.160_930_2,
    0.246_112_3,
    0.337_915_24,
    0.440_709_83,
    0.562_617,
    0.722_956_84,
    1.0,
];

/// Where the CPU plugin's Convert to nf4 passes from code `i` to `i + 1`:
/// an f32 above `NF4_BOUNDS[i]` takes a code above `i`. These are the
/// midpoints of OpenVINO's `ConvertNF4::quantize` (bitsandbytes' decision
/// tree), but at boundaries 0, 8, 12 and 14 one f32 ulp off them, as the
/// plugin converts (measured on each midpoint and the f32 values next to
/// it, `scripts/gen_lowprec_goldens.py`), as bits.
const NF4_BOUNDS: [u32; 15] = [
    0xbf59_1cd9,
    0xbf1c_5270,
    0xbeeb_8480,
    0xbead_ea76,
    0xbe70_3cec,
    0xbe0d_38bc,
    0xbd3a_7871,
    0x3d22_faff,
    0x3df6_4863,
    0x3e50_67e0,
    0x3e95_82d4,
    0x3ec7_53f9,
    0x3f00_6d03,
    0x3f24_8daf,
    0x3f5c_89d9,
];

/// E2M1 magnitudes by their three low bits.
const F4E2M1_MAGNITUDES: [f32; 8] = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];

/// A small binary float format (the 8-bit and 4-bit floats): its
/// mantissa bits, the exponent of its smallest normal value and its
/// largest finite value.
#[derive(Clone, Copy)]
pub(crate) struct SmallFloat {
    pub mantissa_bits: i32,
    pub min_exponent: i32,
    pub max: f64,
}

/// OCP's E4M3FN.
pub(crate) const E4M3: SmallFloat = SmallFloat {
    mantissa_bits: 3,
    min_exponent: -6,
    max: 448.0,
};

/// E5M2 (IEEE-like: infinities and NaNs).
pub(crate) const E5M2: SmallFloat = SmallFloat {
    mantissa_bits: 2,
    min_exponent: -14,
    max: 57344.0,
};

/// OCP's E2M1 (no infinity, no NaN).
pub(crate) const E2M1: SmallFloat = SmallFloat {
    mantissa_bits: 1,
    min_exponent: 0,
    max: 6.0,
};

impl SmallFloat {
    /// The nearest value of the format's grid to `v` (finite), ties to
    /// even, subnormals included, neither saturated nor overflowed: past
    /// `max` it is the next power of two's grid value, for the caller to
    /// saturate or turn into infinity or NaN. Zero keeps its sign.
    pub(crate) fn round_to_grid(self, v: f64) -> f64 {
        if v == 0.0 {
            return v;
        }
        // The binary exponent of a normal f64 (every f32 value is one).
        let exponent = ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023;
        let quantum = 2f64.powi(exponent.max(self.min_exponent) - self.mantissa_bits);
        (v / quantum).round_ties_even() * quantum
    }
}

/// Whether `t` is a storage-only type this module decodes.
pub(crate) fn is_decodable(t: ElementType) -> bool {
    use ElementType::*;
    matches!(
        t,
        U1 | U2 | U4 | I4 | NF4 | F8E4M3 | F8E5M2 | F8E8M0 | F4E2M1
    )
}

/// The `count` elements stored in `bytes` as `t`, as f64 (exact: every
/// value of these types is an f32).
pub(crate) fn decode(t: ElementType, bytes: &[u8], count: usize) -> Result<Vec<f64>, ExecError> {
    let mut out = vec![0f32; count];
    decode_f32(t, bytes, 0, &mut out)?;
    Ok(out.into_iter().map(f64::from).collect())
}

/// Elements `first..first + out.len()` of those stored in `bytes` as `t`,
/// into `out` (a block of compressed weights' rows, or all of them).
pub(crate) fn decode_f32(
    t: ElementType,
    bytes: &[u8],
    first: usize,
    out: &mut [f32],
) -> Result<(), ExecError> {
    use ElementType::*;
    let bits = match t {
        U1 => 1,
        U2 => 2,
        U4 | I4 | NF4 | F4E2M1 => 4,
        F8E4M3 | F8E5M2 | F8E8M0 => 8,
        _ => {
            return Err(ExecError::InvalidTensor(format!(
                "element type {t} cannot be decoded by the executor"
            )))
        }
    };
    let end = first.checked_add(out.len());
    if end.is_none_or(|end| bytes.len() < (end * bits).div_ceil(8)) {
        return Err(ExecError::InvalidTensor(format!(
            "elements {first}.. of {t} ({} of them) need more than the {} bytes given",
            out.len(),
            bytes.len()
        )));
    }
    let per_byte = 8 / bits;
    let mask = ((1u16 << bits) - 1) as u8;
    // Every code's value, once: at most 256 of them.
    let values: Vec<f32> = (0..=mask).map(|c| value(t, c)).collect();
    let code = |i: usize| -> u8 {
        let byte = bytes[i / per_byte];
        let slot = i % per_byte;
        // u1 runs from the most significant bit; the others from the least.
        let shift = if t == U1 { 7 - slot } else { slot * bits };
        (byte >> shift) & mask
    };
    // Whole bytes of 8-bit and 4-bit codes (compressed weights' rows), a
    // byte at a time: a loop the compiler keeps branch-free.
    if bits == 8 {
        for (v, &b) in out.iter_mut().zip(&bytes[first..]) {
            *v = values[usize::from(b)];
        }
        return Ok(());
    }
    if bits == 4 && first & 1 == 0 {
        let (pairs, rest) = out.split_at_mut(out.len() / 2 * 2);
        for (v, &b) in pairs.chunks_exact_mut(2).zip(&bytes[first / 2..]) {
            v[0] = values[usize::from(b & 15)];
            v[1] = values[usize::from(b >> 4)];
        }
        if let Some(v) = rest.first_mut() {
            *v = values[usize::from(code(first + pairs.len()))];
        }
        return Ok(());
    }
    for (i, v) in out.iter_mut().enumerate() {
        *v = values[usize::from(code(first + i))];
    }
    Ok(())
}

/// The bits of one element of storage type `t`.
fn bits_of(t: ElementType) -> Option<usize> {
    use ElementType::*;
    match t {
        U1 => Some(1),
        U2 => Some(2),
        U4 | I4 | NF4 | F4E2M1 => Some(4),
        F8E4M3 | F8E5M2 | F8E8M0 => Some(8),
        _ => None,
    }
}

/// The code of each element of `tensor` (a storage type), one a byte.
pub(crate) fn codes(tensor: &Tensor) -> Result<Vec<u8>, ExecError> {
    let t = tensor.element_type;
    let bits = bits_of(t).ok_or_else(|| not_storage(t))?;
    let count = tensor.len();
    let bytes = tensor.bytes();
    if bits == 8 {
        return Ok(bytes.to_vec());
    }
    let per_byte = 8 / bits;
    let mask = ((1u16 << bits) - 1) as u8;
    Ok((0..count)
        .map(|i| {
            let slot = i % per_byte;
            // u1 runs from the most significant bit; the others from the least.
            let shift = if t == ElementType::U1 {
                7 - slot
            } else {
                slot * bits
            };
            (bytes[i / per_byte] >> shift) & mask
        })
        .collect())
}

/// A tensor of storage type `t` from one code a byte (each must fit in
/// the type's bits), packed as OpenVINO packs it.
pub(crate) fn from_codes(
    t: ElementType,
    shape: Vec<usize>,
    codes: &[u8],
) -> Result<Tensor, ExecError> {
    let bits = bits_of(t).ok_or_else(|| not_storage(t))?;
    let size = crate::tensor::byte_size(t, &shape)?;
    if codes.len() != crate::tensor::element_count(&shape)? {
        return Err(ExecError::InvalidTensor(format!(
            "{t} {shape:?}: {} codes given",
            codes.len()
        )));
    }
    let mask = ((1u16 << bits) - 1) as u8;
    if let Some((i, c)) = codes.iter().enumerate().find(|(_, &c)| c & !mask != 0) {
        return Err(ExecError::InvalidTensor(format!(
            "element {i}: {c:#04x} is not a {bits}-bit {t} code"
        )));
    }
    let mut bytes = vec![0u8; size];
    let per_byte = 8 / bits;
    for (i, &c) in codes.iter().enumerate() {
        let slot = i % per_byte;
        let shift = if t == ElementType::U1 {
            7 - slot
        } else {
            slot * bits
        };
        bytes[i / per_byte] |= c << shift;
    }
    Tensor::from_bytes(t, shape, bytes)
}

fn not_storage(t: ElementType) -> ExecError {
    ExecError::InvalidTensor(format!("{t} is not a packed storage type"))
}

/// `source` (any type the executor holds) converted to storage type `to`,
/// as OpenVINO's CPU plugin's Convert (measured on edge values):
///
/// - f8e4m3: the value is rounded to f16, then to the nearest E4M3FN (ties
///   to even); past ±448, and infinities and NaN, it is NaN (the sign kept);
/// - f8e5m2: rounded to f16, then to the nearest E5M2 (ties to even), past
///   ±57344 infinity; a NaN keeps the top two bits of its f32 payload (so
///   some become infinities, as on the CPU). One quirk of the CPU plugin is
///   kept: an f32 whose rounding to f16 carries up to 2^-17, 2^-16 or 2^-15
///   (f16 subnormals) gives twice that power of two;
/// - f8e8m0: the nearest power of two (ties to an even exponent), from
///   2^-127 (`0x00`) to 2^127 (`0xFE`, also +infinity); negatives and zeros
///   are `0x00`, as are an f32 source's subnormals (a bf16 source's round);
///   NaN is `0xFF`;
/// - f4e2m1: the nearest E2M1 (ties to even), saturated at ±6; NaN is ±6;
/// - nf4: the nearest NormalFloat4 code, by the CPU plugin's boundaries
///   between codes (`NF4_BOUNDS`: near the midpoints of the code book; a
///   value on a boundary takes the lower code); NaN is code 0.
/// - i4, u4, u2: integers keep their low bits (two's complement); floats
///   are truncated toward zero, then keep their low bits, infinities and NaN
///   giving 0; but from f64, i4 first saturates at i8's range and u4 at
///   u8's, and u2 truncates to i32 (out of range and NaN: `i32::MIN`).
///
/// Floats other than f32 and integers are read as f32 first (f64
/// saturating at f32's range), except where f64 is said above. u1 is
/// refused, as OpenVINO's CPU plugin refuses it.
pub(crate) fn encode(source: &Tensor, to: ElementType) -> Result<Tensor, ExecError> {
    use ElementType::*;
    let refuse = |why: &str| {
        Err(ExecError::InvalidTensor(format!(
            "cannot convert {} to {to}: {why}",
            source.element_type
        )))
    };
    if to == U1 {
        return refuse("OpenVINO's CPU plugin does not convert to u1 either");
    }
    let Some(bits) = bits_of(to) else {
        return refuse("not a storage type");
    };
    let count = crate::tensor::element_count(&source.shape)?;
    let bytes = source.bytes();
    let integer_target = matches!(to, I4 | U4 | U2);
    let low_bits = |v: i128| (v & ((1 << bits) - 1)) as u8;
    let codes: Vec<u8> = match source.element_type {
        F64 => {
            let values = bytes.chunks_exact(8).map(f64::read);
            match to {
                I4 => values
                    .map(|v| low_bits(saturating_trunc(v, -128.0, 127.0)))
                    .collect(),
                U4 => values
                    .map(|v| low_bits(saturating_trunc(v, 0.0, 255.0)))
                    .collect(),
                U2 => values
                    .map(|v| {
                        let t = v.trunc();
                        let inside = (-2147483648.0..2147483648.0).contains(&t);
                        low_bits(if inside {
                            t as i128
                        } else {
                            i128::from(i32::MIN)
                        })
                    })
                    .collect(),
                _ => {
                    let limit = f64::from(f32::MAX);
                    let float = FloatEncoder::new(to);
                    values
                        .map(|v| float.code(v.clamp(-limit, limit) as f32))
                        .collect()
                }
            }
        }
        F32 | F16 | BF16 | U1 | U2 | U4 | I4 | NF4 | F8E4M3 | F8E5M2 | F8E8M0 | F4E2M1 => {
            let values = f32_values(source, count)?;
            let mut float = FloatEncoder::new(to);
            // The CPU plugin reads f32 subnormals as zeros (f8e8m0 shows it).
            float.flush_subnormals = source.element_type == F32;
            values.into_iter().map(|v| float.code(v)).collect()
        }
        Boolean => bytes.iter().map(|&b| u8::from(b != 0)).collect(),
        t if t.is_integral() => {
            let values = integers(source)?;
            if integer_target {
                values.into_iter().map(low_bits).collect()
            } else {
                let float = FloatEncoder::new(to);
                values.into_iter().map(|v| float.code(v as f32)).collect()
            }
        }
        _ => return refuse("no conversion is defined"),
    };
    from_codes(to, source.shape.clone(), &codes)
}

/// `v` truncated toward zero after saturating at `[lo, hi]`; NaN is 0.
fn saturating_trunc(v: f64, lo: f64, hi: f64) -> i128 {
    if v.is_nan() {
        0
    } else {
        v.clamp(lo, hi).trunc() as i128
    }
}

/// The elements of a float or storage-type tensor as f32 (exact).
fn f32_values(t: &Tensor, count: usize) -> Result<Vec<f32>, ExecError> {
    use half::f16;
    let b = t.bytes();
    Ok(match t.element_type {
        ElementType::F32 => b.chunks_exact(4).map(f32::read).collect(),
        ElementType::F16 => b.chunks_exact(2).map(|c| f16::read(c).to_f32()).collect(),
        // The bits, NaN payloads included (as the CPU plugin widens them).
        ElementType::BF16 => b
            .chunks_exact(2)
            .map(|c| f32::from_bits(u32::from(u16::from_le_bytes([c[0], c[1]])) << 16))
            .collect(),
        other => {
            let mut out = vec![0f32; count];
            decode_f32(other, b, 0, &mut out)?;
            out
        }
    })
}

/// The elements of an integer tensor as i128.
fn integers(t: &Tensor) -> Result<Vec<i128>, ExecError> {
    let b = t.bytes();
    macro_rules! read {
        ($ty:ty) => {
            b.chunks_exact(std::mem::size_of::<$ty>())
                .map(|c| i128::from(<$ty>::read(c)))
                .collect()
        };
    }
    Ok(match t.element_type {
        ElementType::I8 => read!(i8),
        ElementType::I16 => read!(i16),
        ElementType::I32 => read!(i32),
        ElementType::I64 => read!(i64),
        ElementType::U8 => read!(u8),
        ElementType::U16 => read!(u16),
        ElementType::U32 => read!(u32),
        ElementType::U64 => read!(u64),
        other => {
            return Err(ExecError::InvalidTensor(format!(
                "{other} is not an integer type the executor reads"
            )))
        }
    })
}

/// Encodes f32 values to one storage type (see [`encode`]).
struct FloatEncoder {
    to: ElementType,
    /// The values of the non-negative finite codes, ascending (the small
    /// floats), to find a rounded value's code.
    grid: Vec<f32>,
    /// Whether subnormal inputs read as zeros.
    flush_subnormals: bool,
}

impl FloatEncoder {
    fn new(to: ElementType) -> FloatEncoder {
        use ElementType::*;
        let top: u8 = match to {
            F8E4M3 => 0x7E,
            F8E5M2 => 0x7B,
            F4E2M1 => 7,
            _ => 0,
        };
        let grid = match to {
            F8E4M3 | F8E5M2 | F4E2M1 => (0..=top).map(|c| value(to, c)).collect(),
            _ => Vec::new(),
        };
        FloatEncoder {
            to,
            grid,
            flush_subnormals: false,
        }
    }

    /// The code of `v` rounded to the grid, with `sign` set (`v` finite, on
    /// the grid, not past its largest value).
    fn grid_code(&self, v: f64, sign: u8) -> u8 {
        let magnitude = v.abs() as f32;
        let index = self.grid.partition_point(|&g| g < magnitude);
        let code = u8::try_from(index).unwrap_or(u8::MAX);
        if v.is_sign_negative() {
            code | sign
        } else {
            code
        }
    }

    fn code(&self, x: f32) -> u8 {
        use half::f16;
        use ElementType::*;
        let negative = x.is_sign_negative();
        match self.to {
            F8E4M3 => {
                let nan = if negative { 0xFF } else { 0x7F };
                if !x.is_finite() {
                    return nan;
                }
                let h = f16::from_f32(x).to_f64();
                if !h.is_finite() {
                    return nan;
                }
                let r = E4M3.round_to_grid(h);
                if r.abs() > E4M3.max {
                    nan
                } else {
                    self.grid_code(r, 0x80)
                }
            }
            F8E5M2 => {
                let sign = if negative { 0x80 } else { 0 };
                if x.is_nan() {
                    // The top two bits of the payload, as the f16 the
                    // value passes through keeps its top ten.
                    return sign | 0x7C | ((x.to_bits() >> 21) & 3) as u8;
                }
                let h = f16::from_f32(x);
                let mut v = h.to_f64();
                if !v.is_finite() {
                    return sign | 0x7C;
                }
                // The CPU plugin's quirk: a rounding to f16 that carries up
                // to one of these subnormal powers of two gives twice it.
                let carried = f64::from(x.abs()) < v.abs();
                if carried && matches!(h.to_bits() & 0x7FFF, 0x0080 | 0x0100 | 0x0200) {
                    v *= 2.0;
                }
                let r = E5M2.round_to_grid(v);
                if r.abs() > E5M2.max {
                    sign | 0x7C
                } else {
                    self.grid_code(r, 0x80)
                }
            }
            F8E8M0 => {
                let bits = x.to_bits();
                let exponent = ((bits >> 23) & 0xFF) as u8;
                let mantissa = bits & 0x7F_FFFF;
                if negative || (exponent == 0 && (mantissa == 0 || self.flush_subnormals)) {
                    // Negatives, zeros and flushed subnormals.
                    0
                } else if exponent >= 0xFE {
                    // No rounding up past 2^127; infinity is 2^127 too.
                    if x.is_nan() {
                        0xFF
                    } else {
                        0xFE
                    }
                } else {
                    // Between 2^(e-127) and 2^(e-126) the midpoint is at
                    // mantissa 1.5 for a normal value, 0.75 for a subnormal.
                    let half = if exponent == 0 { 0x60_0000 } else { 0x40_0000 };
                    let up = mantissa > half || (mantissa == half && exponent & 1 == 1);
                    exponent.saturating_add(u8::from(up))
                }
            }
            F4E2M1 => {
                let sign = if negative { 8 } else { 0 };
                if x.is_nan() {
                    return sign | 7;
                }
                let r = E2M1.round_to_grid(f64::from(x).clamp(-E2M1.max, E2M1.max));
                self.grid_code(r.clamp(-E2M1.max, E2M1.max), 8)
            }
            NF4 => {
                if x.is_nan() {
                    return 0;
                }
                // Past the boundary of two codes, the upper one.
                let above = NF4_BOUNDS
                    .iter()
                    .filter(|&&b| x > f32::from_bits(b))
                    .count();
                above as u8
            }
            I4 | U4 | U2 => {
                if !x.is_finite() {
                    return 0;
                }
                let modulus = if self.to == U2 { 4.0 } else { 16.0 };
                f64::from(x).trunc().rem_euclid(modulus) as u8
            }
            // `encode` refuses the rest before making an encoder.
            _ => 0,
        }
    }
}

/// The value of code `c` of storage type `t` (one of those [`decode_f32`]
/// takes).
fn value(t: ElementType, c: u8) -> f32 {
    use ElementType::*;
    match t {
        U1 | U2 | U4 => f32::from(c),
        I4 => f32::from(((c << 4) as i8) >> 4),
        NF4 => NF4_CODES[usize::from(c & 15)],
        F4E2M1 => {
            let m = F4E2M1_MAGNITUDES[usize::from(c & 7)];
            if c & 8 != 0 {
                -m
            } else {
                m
            }
        }
        F8E4M3 => f8(c, 4, 3, false),
        F8E5M2 => f8(c, 5, 2, true),
        _ => {
            if c == 0xFF {
                f32::NAN
            } else {
                (2.0f64).powi(i32::from(c) - 127) as f32
            }
        }
    }
}

/// An 8-bit float with `e` exponent and `m` mantissa bits (bias
/// `2^(e-1) - 1`); `ieee`: an all-ones exponent is infinity or NaN, else
/// (E4M3FN) only all-ones exponent and mantissa is NaN.
fn f8(c: u8, e: u32, m: u32, ieee: bool) -> f32 {
    let sign = if c & 0x80 != 0 { -1.0 } else { 1.0 };
    let exponent = u32::from(c >> m) & ((1 << e) - 1);
    let mantissa = u32::from(c) & ((1 << m) - 1);
    let all_ones = (1 << e) - 1;
    if ieee && exponent == all_ones {
        return if mantissa == 0 {
            sign * f32::INFINITY
        } else {
            f32::NAN
        };
    }
    if !ieee && exponent == all_ones && mantissa == (1 << m) - 1 {
        return f32::NAN;
    }
    let bias = (1i32 << (e - 1)) - 1;
    let fraction = mantissa as f32 / (1 << m) as f32;
    let value = if exponent == 0 {
        fraction * (2.0f32).powi(1 - bias)
    } else {
        (1.0 + fraction) * (2.0f32).powi(exponent as i32 - bias)
    };
    sign * value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts() {
        assert_eq!(decode(ElementType::U4, &[0x21], 2).unwrap(), [1.0, 2.0]);
        assert_eq!(decode(ElementType::I4, &[0xF8], 2).unwrap(), [-8.0, -1.0]);
        assert_eq!(
            decode(ElementType::U1, &[0b1000_0001], 8).unwrap(),
            [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            decode(ElementType::U2, &[0b1110_0100], 4).unwrap(),
            [0.0, 1.0, 2.0, 3.0]
        );
        assert_eq!(
            decode(ElementType::F8E4M3, &[0x38, 0x7E, 0xB8], 3).unwrap(),
            [1.0, 448.0, -1.0]
        );
        assert!(decode(ElementType::F8E4M3, &[0x7F], 1).unwrap()[0].is_nan());
        assert_eq!(
            decode(ElementType::F8E5M2, &[0x3C, 0x7C], 2).unwrap(),
            [1.0, f64::INFINITY]
        );
        assert!(decode(ElementType::U4, &[0x21], 3).is_err());
    }

    /// f32 values through `encode` to `t`, one code each.
    fn encoded(t: ElementType, values: &[f32]) -> Vec<u8> {
        let source = Tensor::from_vec(vec![values.len()], values.to_vec()).unwrap();
        codes(&encode(&source, t).unwrap()).unwrap()
    }

    #[test]
    fn encodes_as_the_cpu_plugin() {
        use ElementType::*;
        let nan = f32::NAN;
        let inf = f32::INFINITY;
        let p = |e: i32| 2f32.powi(e);
        // OpenVINO 2026.4's CPU plugin on these values.
        let x = [
            0.0,
            1.0,
            -1.0,
            0.5,
            447.0,
            448.0,
            449.0,
            464.0,
            465.0,
            480.0,
            1000.0,
            inf,
            -inf,
            nan,
            -nan,
            p(-9),
            p(-10),
            3.0 * p(-10),
            1e-30,
            -0.0,
            57344.0,
            61439.0,
            61440.0,
            1e6,
            p(-16),
            p(-17),
            3.0 * p(-17),
        ];
        assert_eq!(
            encoded(F8E4M3, &x[..20]),
            [
                0x00, 0x38, 0xb8, 0x30, 0x7e, 0x7e, 0x7e, 0x7e, 0x7f, 0x7f, 0x7f, 0x7f, 0xff, 0x7f,
                0xff, 0x01, 0x00, 0x02, 0x00, 0x80
            ]
        );
        assert_eq!(
            encoded(F8E5M2, &x),
            [
                0x00, 0x3c, 0xbc, 0x38, 0x5f, 0x5f, 0x5f, 0x5f, 0x5f, 0x60, 0x64, 0x7c, 0xfc, 0x7e,
                0xfe, 0x18, 0x14, 0x1a, 0x00, 0x80, 0x7b, 0x7c, 0x7c, 0x7c, 0x01, 0x00, 0x02
            ]
        );
        assert_eq!(
            encoded(F8E8M0, &x),
            [
                0x00, 0x7f, 0x00, 0x7e, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x89, 0xfe, 0x00, 0xff,
                0x00, 0x76, 0x75, 0x76, 0x1b, 0x00, 0x8f, 0x8f, 0x8f, 0x93, 0x6f, 0x6e, 0x70
            ]
        );
        // The CPU plugin's f8e5m2 quirk: just below 2^-16, the f16 rounding
        // carries to 2^-16, which becomes 2^-15.
        assert_eq!(encoded(F8E5M2, &[f32::from_bits(0x377f_ffff)]), [0x02]);
        // f4e2m1: ties to even, saturated, NaN is ±6.
        assert_eq!(
            encoded(
                F4E2M1,
                &[0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 5.5, 100.0, -0.1, nan, -nan]
            ),
            [0, 2, 2, 4, 4, 6, 6, 7, 7, 8, 7, 15]
        );
        // i4, u4: truncated, low bits kept; infinities and NaN are 0.
        let ints = [7.5, 8.0, -8.5, -9.0, 100.0, -100.0, 254.5, -2.5, inf, nan];
        assert_eq!(encoded(I4, &ints), [7, 8, 8, 7, 4, 12, 14, 14, 0, 0]);
        assert_eq!(encoded(U4, &ints), encoded(I4, &ints));
        // nf4: the nearest code.
        assert_eq!(
            encoded(NF4, &[-2.0, -0.7, 0.0, 0.05, 0.9, 7.0, nan]),
            [0, 1, 7, 8, 15, 15, 0]
        );
        let f64s = Tensor::from_vec(vec![4], vec![-20.0f64, 17.0, 256.0, f64::INFINITY]).unwrap();
        assert_eq!(codes(&encode(&f64s, I4).unwrap()).unwrap(), [12, 1, 15, 15]);
        assert_eq!(codes(&encode(&f64s, U4).unwrap()).unwrap(), [0, 1, 15, 15]);
        assert_eq!(codes(&encode(&f64s, U2).unwrap()).unwrap(), [0, 1, 0, 0]);
        let i32s = Tensor::from_vec(vec![2], vec![1_835_644_866i32, -3]).unwrap();
        assert_eq!(codes(&encode(&i32s, U4).unwrap()).unwrap(), [2, 13]);
        assert!(encode(&i32s, U1).is_err());
    }

    #[test]
    fn any_range_decodes_as_its_elements_one_by_one() {
        use ElementType::*;
        let bytes: Vec<u8> = (0..=255u8).map(|b| b.wrapping_mul(37)).collect();
        for (t, bits) in [(U1, 1), (U2, 2), (U4, 4), (I4, 4), (NF4, 4), (F8E4M3, 8)] {
            let total = 256 * 8 / bits;
            // Element i alone: the slow path on a single element.
            let one = |i: usize| {
                let mut v = [0f32];
                decode_f32(t, &bytes, i, &mut v).unwrap();
                v[0]
            };
            let each: Vec<f32> = (0..total).map(one).collect();
            for (first, len) in [(0, total), (1, 7), (2, 9), (6, 0), (total - 3, 3)] {
                let mut out = vec![0f32; len];
                decode_f32(t, &bytes, first, &mut out).unwrap();
                let want = &each[first..first + len];
                // Bitwise, so NaNs compare too.
                let bits_of = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits_of(&out), bits_of(want), "{t} {first}+{len}");
            }
            let mut past = vec![0f32; 2];
            assert!(decode_f32(t, &bytes, total - 1, &mut past).is_err(), "{t}");
        }
    }
}
