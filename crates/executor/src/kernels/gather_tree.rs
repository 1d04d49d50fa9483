//! GatherTree-1, after OpenVINO's reference (TensorFlow 1.5's algorithm):
//! every output starts as the end token; for each batch item and beam, the
//! path is traced back from step `min(T, max_seq_len[b]) - 1` through the
//! parent indices, then every step after the first end token becomes the end
//! token. Values are compared as indices (truncated, as the reference casts
//! them); a parent index outside the beam width, or a negative length, is an
//! error (the reference reads out of bounds).

use super::{from_f64s, to_f64s, Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (ids, parents) = (call.input(0)?, call.input(1)?);
    let &[time, batch, width] = ids.shape.as_slice() else {
        return Err("step_ids must be 3-D".into());
    };
    if parents.shape != ids.shape {
        return Err("step_ids and parent_idx differ in shape".into());
    }
    let ids_v = to_f64s(ids)?;
    let parents_v = to_f64s(parents)?;
    let lengths = to_f64s(call.input(2)?)?;
    let end = *to_f64s(call.input(3)?)?
        .first()
        .ok_or("end_token is empty")?;
    if lengths.len() != batch {
        return Err("max_seq_len must hold one length per batch item".into());
    }
    let at = |t: usize, b: usize, w: usize| (t * batch + b) * width + w;
    let mut out = vec![end; ids_v.len()];
    for b in 0..batch {
        if lengths[b] < 0.0 || lengths[b].is_nan() {
            return Err(format!("max_seq_len {} of item {b} is negative", lengths[b]).into());
        }
        let steps = time.min(lengths[b] as usize);
        for w in 0..width {
            if steps == 0 {
                continue;
            }
            let last = at(steps - 1, b, w);
            out[last] = ids_v[last];
            let mut parent = parents_v[last];
            for level in (0..steps - 1).rev() {
                let p = (parent >= 0.0 && parent < width as f64)
                    .then_some(parent as usize)
                    .ok_or_else(|| format!("parent index {parent} is outside [0, {width})"))?;
                out[at(level, b, w)] = ids_v[at(level, b, p)];
                parent = parents_v[at(level, b, p)];
            }
            let mut finished = false;
            for t in 0..steps {
                let i = at(t, b, w);
                if finished {
                    out[i] = end;
                } else if out[i].trunc() == end.trunc() {
                    finished = true;
                }
            }
        }
    }
    Ok(vec![from_f64s(ids.element_type, ids.shape.clone(), &out)?])
}
