//! CTCLoss-4, as OpenVINO's CPU plugin computes it (`ctc_loss.cpp`).
//!
//! Each sequence's target is decoded first: with `unique`, each label's
//! first occurrence only; else with `preprocess_collapse_repeated`, runs of
//! a label merged; then a blank goes before every label and after the last.
//! The log-softmax of the logits over the classes (the sum of exponentials
//! in f64) gives each frame's log-probabilities; the backward variables of
//! Graves et al. (2006, eq. 10) over the decoded target give the loss
//! `-ln p(labels | logits)`. With `ctc_merge_repeated` false a label state
//! may not stay on itself from one frame to the next, and may skip the
//! blank to an equal label (the plugin's recursion). Computed in f32 (the
//! plugin's type). A label length of 0 with `preprocess_collapse_repeated`
//! gives the empty target here, where the plugin reads one label anyway.

use super::convolution::{narrow, widen};
use super::{to_i128s, Call, KResult};
use crate::error::KernelError;
use crate::tensor::Tensor;

/// The attributes of one CTCLoss layer.
#[derive(Clone, Copy)]
struct Options {
    collapse_repeated: bool,
    merge_repeated: bool,
    unique: bool,
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let logits = call.input(0)?;
    let &[batch, max_time, classes] = logits.shape.as_slice() else {
        return Err("internal: the logits are not 3-D".into());
    };
    let logit_length = to_i128s(call.input(1)?)?;
    let labels = to_i128s(call.input(2)?)?;
    let label_length = to_i128s(call.input(3)?)?;
    if logit_length.len() != batch
        || label_length.len() != batch
        || labels.len() != batch * max_time
    {
        return Err(format!(
            "internal: lengths of {} and {} and labels of {} for logits {:?}",
            logit_length.len(),
            label_length.len(),
            labels.len(),
            logits.shape
        )
        .into());
    }
    let blank = match call.inputs.get(4) {
        Some(t) => *to_i128s(t)?
            .first()
            .ok_or_else(|| KernelError::from("blank_index is empty"))?,
        None => classes as i128 - 1,
    };
    let class_index = |value: i128, what: &str| -> KResult<usize> {
        usize::try_from(value)
            .ok()
            .filter(|&v| v < classes)
            .ok_or_else(|| format!("{what} {value} is not a class in [0, {classes})").into())
    };
    let blank = class_index(blank, "blank_index")?;
    let options = Options {
        collapse_repeated: call.attr_bool("preprocess_collapse_repeated", false),
        merge_repeated: call.attr_bool("ctc_merge_repeated", true),
        unique: call.attr_bool("unique", false),
    };
    let values = widen(logits)?;
    let mut loss = Vec::with_capacity(batch);
    for b in 0..batch {
        let (frames, length) = (logit_length[b], label_length[b]);
        if frames < 0 || length < 0 || frames > max_time as i128 || length > frames {
            return Err(format!(
                "sequence {b}: a logit length of {frames} and a label length of {length} \
                 (each in [0, {max_time}], the label's no longer than the logits')"
            )
            .into());
        }
        let (frames, length) = (frames as usize, length as usize);
        let target = labels[b * max_time..][..length]
            .iter()
            .map(|&l| class_index(l, "a label"))
            .collect::<KResult<Vec<_>>>()?;
        let decoded = decode(&target, blank, options);
        let sequence = &values[b * max_time * classes..][..frames * classes];
        loss.push(sequence_loss(sequence, classes, &decoded, blank, options));
    }
    Ok(vec![narrow(logits.element_type, vec![batch], &loss)?])
}

/// The target with a blank before each label and after the last, after
/// `unique` or `preprocess_collapse_repeated`.
fn decode(target: &[usize], blank: usize, options: Options) -> Vec<usize> {
    let mut kept: Vec<usize> = Vec::with_capacity(target.len());
    for (t, &label) in target.iter().enumerate() {
        let skip = if options.unique {
            target[..t].contains(&label)
        } else {
            options.collapse_repeated && kept.last() == Some(&label)
        };
        if !skip {
            kept.push(label);
        }
    }
    let mut decoded = Vec::with_capacity(2 * kept.len() + 1);
    for label in kept {
        decoded.extend([blank, label]);
    }
    decoded.push(blank);
    decoded
}

/// `ln(e^a + e^b)` of two log values (either may be −∞).
fn sum_logs(a: f32, b: f32) -> f32 {
    if a == f32::NEG_INFINITY {
        b
    } else if b == f32::NEG_INFINITY {
        a
    } else if a > b {
        a + (b - a).exp().ln_1p()
    } else {
        b + (a - b).exp().ln_1p()
    }
}

/// The loss of one sequence: `frames × classes` logits, the decoded target.
fn sequence_loss(
    logits: &[f32],
    classes: usize,
    decoded: &[usize],
    blank: usize,
    options: Options,
) -> f32 {
    let frames = logits.len() / classes.max(1);
    let states = decoded.len();
    if frames == 0 {
        // No frames: only the empty labelling has probability 1.
        return if states == 1 { 0.0 } else { f32::INFINITY };
    }
    // log p(decoded[s] at frame t).
    let log_prob: Vec<Vec<f32>> = logits
        .chunks_exact(classes)
        .map(|frame| {
            let exp_sum: f64 = frame.iter().map(|&v| f64::from(v.exp())).sum();
            let log_sum = exp_sum.ln();
            decoded
                .iter()
                .map(|&c| (f64::from(frame[c]) - log_sum) as f32)
                .collect()
        })
        .collect();
    let mut backward = vec![vec![f32::NEG_INFINITY; frames]; states];
    for row in backward.iter_mut().skip(states.saturating_sub(2)) {
        row[frames - 1] = 0.0;
    }
    for t in (0..frames - 1).rev() {
        let next = t + 1;
        let first = states.saturating_sub(2 * (frames - t));
        for s in first..states.min(2 * next) {
            let mut value = backward[s][t];
            if options.merge_repeated || decoded[s] == blank {
                value = sum_logs(value, backward[s][next] + log_prob[next][s]);
            }
            if s + 1 < states {
                value = sum_logs(value, backward[s + 1][next] + log_prob[next][s + 1]);
            }
            if s + 2 < states
                && decoded[s] != blank
                && (!options.merge_repeated || decoded[s] != decoded[s + 2])
            {
                value = sum_logs(value, backward[s + 2][next] + log_prob[next][s + 2]);
            }
            backward[s][t] = value;
        }
    }
    let start_blank = backward[0][0] + log_prob[0][0];
    if states < 2 {
        return -start_blank;
    }
    let start_label = backward[1][0] + log_prob[0][1];
    -sum_logs(start_blank, start_label)
}
