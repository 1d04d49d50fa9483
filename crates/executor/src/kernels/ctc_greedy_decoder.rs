//! CTCGreedyDecoder-1, after OpenVINO's reference: for each batch item, the
//! arg-max class (the first of equal maxima) of each step until the mask's
//! first 0; a class is written unless it is the blank `C - 1` or, under
//! `ctc_merge_repeated`, repeats the previous step's class. The output
//! `[N, T, 1, 1]` of the logits' type is padded with -1.

use super::{from_f64s, to_f64s, Call, KResult};
use crate::tensor::Tensor;

/// The index of the first maximum of `row` (`std::max_element`).
pub(crate) fn arg_max(row: &[f64]) -> usize {
    let mut best = 0;
    for (i, &v) in row.iter().enumerate() {
        if v > row[best] {
            best = i;
        }
    }
    best
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (logits, mask) = (call.input(0)?, call.input(1)?);
    let &[time, batch, classes] = logits.shape.as_slice() else {
        return Err("the logits must be 3-D".into());
    };
    if mask.shape != [time, batch] {
        return Err("the sequence mask must be [T, N]".into());
    }
    let merge = call.attr_bool("ctc_merge_repeated", true);
    let x = to_f64s(logits)?;
    let m = to_f64s(mask)?;
    let mut out = vec![-1.0; batch * time];
    for n in 0..batch {
        let mut written = 0;
        let mut previous = None;
        for t in 0..time {
            if m[t * batch + n] == 0.0 {
                break;
            }
            let start = (t * batch + n) * classes;
            let class = arg_max(&x[start..start + classes]);
            if !(merge && previous == Some(class)) && class + 1 < classes {
                out[n * time + written] = class as f64;
                written += 1;
            }
            previous = Some(class);
        }
    }
    Ok(vec![from_f64s(
        logits.element_type,
        call.out_shape(0)?,
        &out,
    )?])
}
