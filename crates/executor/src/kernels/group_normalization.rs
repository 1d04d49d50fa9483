//! GroupNormalization-12: each image's channels split into `num_groups`
//! contiguous groups; each group (its channels and every dim after C) is
//! normalized, `(x - mean) / sqrt(var + epsilon)`, then scaled and shifted
//! per channel. Means and variances accumulate in f64.

use rayon::prelude::*;

use super::{from_f64s, to_f64s, Call, KResult};
use crate::tensor::{byte_size, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (x, scale, bias) = (call.input(0)?, call.input(1)?, call.input(2)?);
    let groups =
        usize::try_from(call.attr_i64("num_groups")?.unwrap_or(1)).map_err(|_| "num_groups")?;
    let epsilon = call.attr_f64("epsilon")?.unwrap_or(1e-5);
    if x.shape.len() < 2 || groups == 0 || x.shape[1] % groups != 0 {
        return Err(format!("internal: {groups} groups for data {:?}", x.shape).into());
    }
    byte_size(x.element_type, &x.shape)?;
    let channels = x.shape[1];
    let inner: usize = x.shape[2..].iter().product();
    let (scale, bias) = (to_f64s(scale)?, to_f64s(bias)?);
    if scale.len() != channels || bias.len() != channels {
        return Err("internal: scale and bias must have one value per channel".into());
    }
    let mut values = to_f64s(x)?;
    let per_group = channels / groups * inner;
    if per_group > 0 {
        values
            .par_chunks_mut(per_group)
            .enumerate()
            .for_each(|(k, group)| {
                let n = group.len() as f64;
                let mean = group.iter().sum::<f64>() / n;
                let var = group.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
                let inv = 1.0 / (var + epsilon).sqrt();
                let first_channel = (k % groups) * (channels / groups);
                for (i, v) in group.iter_mut().enumerate() {
                    let c = first_channel + i / inner.max(1);
                    *v = (*v - mean) * inv * scale[c] + bias[c];
                }
            });
    }
    Ok(vec![from_f64s(x.element_type, x.shape.clone(), &values)?])
}
