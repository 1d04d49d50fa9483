//! Multinomial-13, as OpenVINO's CPU plugin computes it (bit for bit on the
//! seeded goldens). In f32: each batch row's cumulative sum of the
//! probabilities (of their exponentials with `log_probs`) divided by its
//! last element; one uniform sample per output element, drawn in
//! row-major order from a Mersenne twister (mt19937) seeded by
//! `std::seed_seq{global_seed, op_seed}` as `f32(word) / f32(2^32 - 1)`;
//! the class drawn is the first whose cumulative probability reaches the
//! sample. Without replacement the drawn class's probability is removed
//! and the row renormalized after each draw. (OpenVINO's reference uses
//! the Philox generator instead; the CPU plugin, whose results the goldens
//! hold, does not. Seeds 0 and 0 make OpenVINO seed from the clock; here
//! they are used as given.)

use super::random_uniform::Mt19937;
use super::{from_i128s, to_f64s, Call, KResult};
use crate::tensor::{check_scratch, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let probs = call.input(0)?;
    let et = call.out_type(0)?;
    let [batch, classes] = probs.shape[..] else {
        return Err(format!("the probabilities must be 2-D, got {:?}", probs.shape).into());
    };
    let samples = match call.input(1)?.to_i64s()?.as_slice() {
        [n] => usize::try_from(*n)
            .map_err(|_| format!("num_samples is {n}; it must not be negative"))?,
        _ => return Err("num_samples (input 1) must hold one value".into()),
    };
    let out = call.out_shape(0)?;
    if out != [batch, samples] {
        return Err(format!(
            "the inputs ask for [{batch}, {samples}], the inferred shape is {out:?}"
        )
        .into());
    }
    let count = batch.saturating_mul(samples);
    check_scratch(count, 16 + 4, "Multinomial")?;
    let log_probs = call.attr_bool("log_probs", false);
    let replace = call.attr_bool("with_replacement", false);
    let global = call.attr_i64("global_seed")?.unwrap_or(0) as u64;
    let op = call.attr_i64("op_seed")?.unwrap_or(0) as u64;

    let mut cdf: Vec<f32> = to_f64s(probs)?.into_iter().map(|p| p as f32).collect();
    for row in cdf.chunks_exact_mut(classes.max(1)) {
        let mut acc = 0f32;
        for p in row.iter_mut() {
            acc += if log_probs { p.exp() } else { *p };
            *p = acc;
        }
        let max = row.last().copied().unwrap_or(0.0).max(f32::MIN_POSITIVE);
        row.iter_mut().for_each(|c| *c /= max);
    }
    let mut mt = Mt19937::from_seed_seq(&[global, op]);
    let draws: Vec<f32> = (0..count)
        .map(|_| mt.next_u32() as f32 / u32::MAX as f32)
        .collect();
    let mut values = vec![0i128; count];
    for b in 0..batch {
        let row = &mut cdf[b * classes..(b + 1) * classes];
        for s in 0..samples {
            let draw = draws[b * samples + s];
            let Some(class) = row.iter().position(|&c| draw <= c) else {
                continue;
            };
            values[b * samples + s] = class as i128;
            if !replace {
                let p = if class > 0 {
                    row[class] - row[class - 1]
                } else {
                    row[0]
                };
                let divisor = 1.0 - p;
                for (k, c) in row.iter_mut().enumerate() {
                    if k >= class {
                        *c -= p;
                    }
                    *c /= divisor;
                }
            }
        }
    }
    Ok(vec![from_i128s(et, out, &values)?])
}
