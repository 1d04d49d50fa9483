//! RandomUniform-8, as OpenVINO's CPU plugin (its JIT kernels) computes
//! it, bit for bit on the seeded goldens; its reference implementation
//! differs for f16, bf16, f64 and i64. The output shape is the inferred
//! one (the shape input's values, checked here). Every float type is
//! generated in f32 and rounded once to the output type; bf16 takes fewer
//! random bits (below). i64 is generated as i32 is (one word per value),
//! as the CPU plugin, which computes it in i32; bounds beyond the i32
//! range, where the CPU plugin's i32 arithmetic breaks down (every value
//! -2^31 in OpenVINO 2026.4), are used in 64 bits here.
//!
//! `alignment` tensorflow (the default): Philox4x32-10 keyed by
//! `global_seed` with counter `op_seed`, one block of four 32-bit words per
//! step `n = 0, 1, ...`, one word per value. Floats put the word's low 23
//! bits (7 for bf16) in the mantissa of a number `x` in `[1, 2)` and compute
//! `fma(x - 1, max - min, min)`; integers `word % (max - min) + min` (i32
//! in unsigned wrapping arithmetic).
//!
//! `alignment` pytorch: the words of a Mersenne twister (mt19937) seeded by
//! `global_seed`, one per value (two for i64 when min or max exceeds
//! 2^32 - 1, the first high); floats take the low 24 bits (8 for bf16) as a fraction
//! `f` in `[0, 1)` and compute `f * (max - min) + min`.
//!
//! Seeds 0 and 0 make OpenVINO draw a new seed from the clock on every
//! run; here they are used as given (the results are then not comparable).
//! OpenVINO's CPU plugin also advances the Philox counter between runs of
//! one compiled model (a second inference draws new numbers); every run
//! here starts from the seeds, as OpenVINO's first inference.

use ir::ElementType;

use super::{from_f64s, from_i128s, Call, KResult};
use crate::tensor::{check_scratch, element_count, Tensor};

const PHILOX_W0: u32 = 0x9E37_79B9;
const PHILOX_W1: u32 = 0xBB67_AE85;
const PHILOX_M0: u64 = 0xD251_1F53;
const PHILOX_M1: u64 = 0xCD9E_8D57;

/// One Philox4x32-10 block: `key` the global seed, `counter` the op seed,
/// `n` the block index.
pub(crate) fn philox(key: u64, counter: u64, n: u64) -> [u32; 4] {
    let mut k = [key as u32, (key >> 32) as u32];
    let mut c = [counter as u32, (counter >> 32) as u32];
    let mut x = [n as u32, (n >> 32) as u32];
    for round in 0..10 {
        if round > 0 {
            k[0] = k[0].wrapping_add(PHILOX_W0);
            k[1] = k[1].wrapping_add(PHILOX_W1);
        }
        let p0 = PHILOX_M0 * u64::from(x[0]);
        let p1 = PHILOX_M1 * u64::from(c[0]);
        x = [(p1 >> 32) as u32 ^ x[1] ^ k[0], p1 as u32];
        c = [(p0 >> 32) as u32 ^ c[1] ^ k[1], p0 as u32];
    }
    [x[0], x[1], c[0], c[1]]
}

/// The 32-bit Mersenne twister mt19937 (as `std::mt19937`).
pub(crate) struct Mt19937 {
    state: [u32; 624],
    next: usize,
}

impl Mt19937 {
    /// Seeded as `std::mt19937(seed)`.
    pub(crate) fn new(seed: u32) -> Mt19937 {
        let mut state = [0u32; 624];
        state[0] = seed;
        for j in 1..624 {
            let prev = state[j - 1];
            state[j] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(j as u32);
        }
        Mt19937 { state, next: 624 }
    }

    /// Seeded as `std::mt19937` from `std::seed_seq{values...}` (each value
    /// taken modulo 2^32).
    pub(crate) fn from_seed_seq(values: &[u64]) -> Mt19937 {
        const N: usize = 624;
        let v: Vec<u32> = values.iter().map(|&x| x as u32).collect();
        let s = v.len();
        let mut b = [0x8b8b_8b8bu32; N];
        let (t, p) = (11usize, (N - 11) / 2);
        let q = p + t;
        let m = (s + 1).max(N);
        let mix = |x: u32| x ^ (x >> 27);
        for k in 0..m {
            let r1 = 1_664_525u32.wrapping_mul(mix(b[k % N] ^ b[(k + p) % N] ^ b[(k + N - 1) % N]));
            let extra = match k {
                0 => s as u32,
                k if k <= s => ((k % N) as u32).wrapping_add(v[k - 1]),
                k => (k % N) as u32,
            };
            let r2 = r1.wrapping_add(extra);
            b[(k + p) % N] = b[(k + p) % N].wrapping_add(r1);
            b[(k + q) % N] = b[(k + q) % N].wrapping_add(r2);
            b[k % N] = r2;
        }
        for k in m..m + N {
            let r3 = 1_566_083_941u32.wrapping_mul(mix(b[k % N]
                .wrapping_add(b[(k + p) % N])
                .wrapping_add(b[(k + N - 1) % N])));
            let r4 = r3.wrapping_sub((k % N) as u32);
            b[(k + p) % N] ^= r3;
            b[(k + q) % N] ^= r4;
            b[k % N] = r4;
        }
        // An all-zero state (but for the top bit) is replaced, as the standard says.
        if b[0] & 0x8000_0000 == 0 && b[1..].iter().all(|&w| w == 0) {
            b[0] = 0x8000_0000;
        }
        Mt19937 { state: b, next: N }
    }

    fn twist(&mut self) {
        const N: usize = 624;
        const M: usize = 397;
        for i in 0..N {
            let y = (self.state[i] & 0x8000_0000) | (self.state[(i + 1) % N] & 0x7fff_ffff);
            let mut v = self.state[(i + M) % N] ^ (y >> 1);
            if y & 1 != 0 {
                v ^= 0x9908_b0df;
            }
            self.state[i] = v;
        }
        self.next = 0;
    }

    /// The next tempered word.
    pub(crate) fn next_u32(&mut self) -> u32 {
        if self.next >= 624 {
            self.twist();
        }
        let mut y = self.state[self.next];
        self.next += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let out = call.out_shape(0)?;
    let et = call.out_type(0)?;
    let want = call.input(0)?.to_i64s()?;
    if want.len() != out.len() || want.iter().zip(&out).any(|(&w, &o)| w != o as i64) {
        return Err(
            format!("the shape input asks for {want:?}, the inferred shape is {out:?}").into(),
        );
    }
    let count = element_count(&out)?;
    crate::tensor::byte_size(et, &out)?;
    check_scratch(count, 16, "RandomUniform")?;
    let global = call.attr_i64("global_seed")?.unwrap_or(0) as u64;
    let op = call.attr_i64("op_seed")?.unwrap_or(0) as u64;
    let pytorch = call
        .node
        .attributes
        .get("alignment")
        .is_some_and(|a| a.trim().eq_ignore_ascii_case("pytorch"));
    match et {
        ElementType::I32 | ElementType::I64 => {
            let (lo, hi) = (call.input_i64(1, "min")?, call.input_i64(2, "max")?);
            let values = if pytorch {
                mersenne_ints(et, global, lo, hi, count)
            } else {
                philox_ints(et, global, op, lo, hi, count)
            };
            Ok(vec![from_i128s(et, out, &values)?])
        }
        ElementType::F32 | ElementType::F16 | ElementType::BF16 | ElementType::F64 => {
            let lo = call.input_f64(1, "min")? as f32;
            let range = call.input_f64(2, "max")? as f32 - lo;
            let values: Vec<f64> = if pytorch {
                // bf16 keeps 8 bits, every other type 24.
                let bits = if et == ElementType::BF16 { 8 } else { 24 };
                let mut mt = Mt19937::new(global as u32);
                (0..count)
                    .map(|_| {
                        let word = mt.next_u32() & ((1u32 << bits) - 1);
                        let fraction = word as f32 * (1.0 / (1u32 << bits) as f32);
                        f64::from(fraction * range + lo)
                    })
                    .collect()
            } else {
                (0..count)
                    .map(|k| {
                        let w = philox(global, op, (k / 4) as u64)[k % 4];
                        // bf16 keeps 7 bits (its mantissa), every other type 23.
                        let mantissa = if et == ElementType::BF16 {
                            (w & 0x7f) << 16
                        } else {
                            w & 0x7f_ffff
                        };
                        let unit = f32::from_bits(0x3f80_0000 | mantissa) - 1.0;
                        f64::from(unit.mul_add(range, lo))
                    })
                    .collect()
            };
            Ok(vec![from_f64s(et, out, &values)?])
        }
        other => Err(super::unsupported("RandomUniform", other)),
    }
}

/// Philox integers, one word each: `word % range + min` (i32: in unsigned
/// wrapping arithmetic).
fn philox_ints(
    et: ElementType,
    key: u64,
    counter: u64,
    lo: i64,
    hi: i64,
    count: usize,
) -> Vec<i128> {
    if et == ElementType::I32 {
        let (lo, range) = (lo as i32 as u32, (hi as i32).wrapping_sub(lo as i32) as u32);
        (0..count)
            .map(|k| {
                let w = philox(key, counter, (k / 4) as u64)[k % 4];
                i128::from(w.checked_rem(range).unwrap_or(w).wrapping_add(lo) as i32)
            })
            .collect()
    } else {
        let range = hi.wrapping_sub(lo);
        (0..count)
            .map(|k| {
                let w = i64::from(philox(key, counter, (k / 4) as u64)[k % 4]);
                i128::from(w.checked_rem(range).unwrap_or(w).wrapping_add(lo))
            })
            .collect()
    }
}

/// Mersenne-twister integers: one word each (`word % range + min`), or for
/// i64 beyond 32-bit bounds a pair of words (first high).
fn mersenne_ints(et: ElementType, seed: u64, lo: i64, hi: i64, count: usize) -> Vec<i128> {
    let mut mt = Mt19937::new(seed as u32);
    if et == ElementType::I32 {
        let (lo, range) = (lo as i32 as u32, (hi as i32).wrapping_sub(lo as i32) as u32);
        return (0..count)
            .map(|_| {
                let w = mt.next_u32();
                i128::from(w.checked_rem(range).unwrap_or(w).wrapping_add(lo) as i32)
            })
            .collect();
    }
    let range = hi.wrapping_sub(lo);
    let one_word = lo <= i64::from(u32::MAX) && hi <= i64::from(u32::MAX);
    (0..count)
        .map(|_| {
            if one_word {
                let w = i64::from(mt.next_u32());
                i128::from(w.checked_rem(range).unwrap_or(w).wrapping_add(lo))
            } else {
                let w = (u64::from(mt.next_u32()) << 32) + u64::from(mt.next_u32());
                i128::from(
                    w.checked_rem(range as u64)
                        .unwrap_or(w)
                        .wrapping_add(lo as u64) as i64,
                )
            }
        })
        .collect()
}
