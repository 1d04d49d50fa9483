//! BatchNormInference-1/-5: per channel (dim 1), `gamma * (x - mean) /
//! sqrt(variance + epsilon) + beta`, as one scale and shift per channel,
//! computed in f64.

use shape_infer::ops::batch_norm_inference::data_index;
use shape_infer::registry::OpsetFamily;

use super::{from_f64s, to_f64s, Call, KResult};
use crate::tensor::{byte_size, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    // The layer's opset decides the input order (v5, from opset5, has its
    // data first).
    let opset = OpsetFamily::parse(&call.node.op_type.version).map_or(1, |(_, n)| n);
    let version = if opset >= 5 { 5 } else { 1 };
    let data_at = data_index(version);
    let x = call.input(data_at)?;
    let rest: Vec<usize> = (0..5).filter(|&i| i != data_at).collect();
    let (gamma, beta, mean, variance) = (
        to_f64s(call.input(rest[0])?)?,
        to_f64s(call.input(rest[1])?)?,
        to_f64s(call.input(rest[2])?)?,
        to_f64s(call.input(rest[3])?)?,
    );
    let epsilon = call.attr_f64("epsilon")?.unwrap_or(0.0);
    if x.shape.len() < 2 {
        return Err("internal: BatchNormInference data of rank below 2".into());
    }
    let channels = x.shape[1];
    if [&gamma, &beta, &mean, &variance]
        .iter()
        .any(|v| v.len() != channels)
    {
        return Err("internal: the per-channel inputs do not have one value per channel".into());
    }
    byte_size(x.element_type, &x.shape)?;
    let inner: usize = x.shape[2..].iter().product();
    let scale: Vec<f64> = (0..channels)
        .map(|c| gamma[c] / (variance[c] + epsilon).sqrt())
        .collect();
    let shift: Vec<f64> = (0..channels)
        .map(|c| beta[c] - mean[c] * scale[c])
        .collect();
    let mut values = to_f64s(x)?;
    for (k, v) in values.iter_mut().enumerate() {
        let c = (k / inner.max(1)) % channels;
        *v = *v * scale[c] + shift[c];
    }
    Ok(vec![from_f64s(x.element_type, x.shape.clone(), &values)?])
}
