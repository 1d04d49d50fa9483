//! CTCGreedyDecoderSeqLen-6, after OpenVINO's reference: for each batch item,
//! the arg-max class (the first of equal maxima) of each of its first
//! `sequence_length[n]` steps; a class is written unless it is the blank
//! (input 2, default `C - 1`) or, under `merge_repeated`, repeats the
//! previous step's class. Outputs the classes `[N, T]` padded with -1 and
//! the number written per item. A length outside `[0, T]` is an error (the
//! reference reads past the item).

use super::ctc_greedy_decoder::arg_max;
use super::{from_i128s, to_f64s, Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (logits, lengths) = (call.input(0)?, call.input(1)?);
    let &[batch, time, classes] = logits.shape.as_slice() else {
        return Err("the logits must be 3-D".into());
    };
    let lengths = lengths.to_i64s()?;
    if lengths.len() != batch {
        return Err("sequence_length must hold one length per batch item".into());
    }
    let blank = match call.inputs.get(2) {
        Some(b) => *b.to_i64s()?.first().ok_or("blank_index is empty")?,
        None => classes as i64 - 1,
    };
    let merge = call.attr_bool("merge_repeated", true);
    let x = to_f64s(logits)?;
    let mut decoded = vec![-1i128; batch * time];
    let mut counts = vec![0i128; batch];
    for n in 0..batch {
        let len = usize::try_from(lengths[n])
            .ok()
            .filter(|&l| l <= time)
            .ok_or_else(|| {
                format!(
                    "sequence_length {} of item {n} is outside [0, {time}]",
                    lengths[n]
                )
            })?;
        let mut written = 0;
        let mut previous = None;
        for t in 0..len {
            let start = (n * time + t) * classes;
            let class = arg_max(&x[start..start + classes]);
            if class as i64 != blank && !(merge && previous == Some(class)) {
                decoded[n * time + written] = class as i128;
                written += 1;
            }
            previous = Some(class);
        }
        counts[n] = written as i128;
    }
    Ok(vec![
        from_i128s(call.out_type(0)?, call.out_shape(0)?, &decoded)?,
        from_i128s(call.out_type(1)?, call.out_shape(1)?, &counts)?,
    ])
}
