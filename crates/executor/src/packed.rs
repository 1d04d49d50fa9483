//! The storage-only element types OpenVINO writes for compressed weights:
//! packed integers (u1, u2, u4, i4), nf4, the 8-bit floats (f8e4m3,
//! f8e5m2, f8e8m0) and f4e2m1. Nothing computes on them; Convert decodes
//! them (and constant folding with it, at load time).
//!
//! Layouts, as OpenVINO stores them: 4-bit and 2-bit elements from the low
//! bits of each byte up (element 0 in the low nibble), u1 from the most
//! significant bit down. f8e4m3 is OCP's E4M3FN (no infinities, `S.1111.111`
//! is NaN); f8e5m2 is IEEE-like; f8e8m0 is a power of two `2^(e - 127)` with
//! `0xFF` NaN; nf4 indexes the NormalFloat4 code book.

use ir::ElementType;

use crate::error::ExecError;

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

/// E2M1 magnitudes by their three low bits.
const F4E2M1_MAGNITUDES: [f32; 8] = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];

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
