//! EmbeddingSegmentsSum-3, after OpenVINO's reference: index `i` adds table
//! row `indices[i]` (scaled by `per_sample_weights[i]` when given) to
//! segment `segment_ids[i]`; with `default_index`, every segment no index
//! names is set to that row. A segment id outside `[0, num_segments)`, ids
//! out of order (the specification requires them sorted, and OpenVINO's CPU
//! plugin answers otherwise for unsorted ones) or an index that is not a
//! row of the table is an error; a negative default index means no default
//! (the segment stays zero).

use super::embedding_bag_offsets::Bags;
use super::{to_f64s, Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (table, indices, ids) = (call.input(0)?, call.input(1)?, call.input(2)?);
    let out = call.out_shape(0)?;
    let segments = *out.first().ok_or("the output must not be a scalar")?;
    let indices = indices.to_i64s()?;
    let ids = ids.to_i64s()?;
    if ids.len() != indices.len() {
        return Err("indices and segment_ids differ in length".into());
    }
    if let Some(w) = ids.windows(2).find(|w| w[0] > w[1]) {
        return Err(format!("segment_ids must be sorted; {} comes after {}", w[1], w[0]).into());
    }
    let default = match call.inputs.get(4) {
        Some(t) => t.to_i64s()?.first().copied(),
        None => None,
    };
    let weights = call.inputs.get(5).map(to_f64s).transpose()?;
    if weights.as_ref().is_some_and(|w| w.len() != indices.len()) {
        return Err("per_sample_weights and indices differ in length".into());
    }
    let mut bags = Bags::new(table, segments)?;
    let mut named = vec![false; segments];
    for (i, (&index, &id)) in indices.iter().zip(&ids).enumerate() {
        let seg = usize::try_from(id)
            .ok()
            .filter(|&s| s < segments)
            .ok_or_else(|| format!("segment id {id} is outside [0, {segments})"))?;
        named[seg] = true;
        bags.add(seg, index, weights.as_ref().map_or(1.0, |w| w[i]))?;
    }
    if let Some(d) = default.filter(|&d| d >= 0) {
        for (seg, _) in named.iter().enumerate().filter(|(_, &n)| !n) {
            bags.set(seg, d)?;
        }
    }
    Ok(vec![bags.finish(table, out)?])
}
