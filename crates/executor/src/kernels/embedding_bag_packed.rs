//! EmbeddingBagPackedSum-3 and EmbeddingBagPacked-15, after OpenVINO's
//! reference: bag `b` adds the table rows named by row `b` of the 2-D
//! indices, each scaled by its per-sample weight when given;
//! `reduction="mean"` divides every bag by the bag length (a length of 0
//! gives NaN, as the reference's 0/0). An index that is not a row of the
//! table is an error.

use super::embedding_bag_offsets::{averages, Bags};
use super::{to_f64s, Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (table, indices_t) = (call.input(0)?, call.input(1)?);
    let out = call.out_shape(0)?;
    let &[count, length] = indices_t.shape.as_slice() else {
        return Err("the indices must be 2-D".into());
    };
    let indices = indices_t.to_i64s()?;
    let weights = call.inputs.get(2).map(to_f64s).transpose()?;
    if weights.as_ref().is_some_and(|w| w.len() != indices.len()) {
        return Err("per_sample_weights and indices differ in shape".into());
    }
    let mut bags = Bags::new(table, count)?;
    for b in 0..count {
        for i in b * length..(b + 1) * length {
            bags.add(b, indices[i], weights.as_ref().map_or(1.0, |w| w[i]))?;
        }
        if averages(call) {
            bags.divide(b, length as f64);
        }
    }
    Ok(vec![bags.finish(table, out)?])
}
