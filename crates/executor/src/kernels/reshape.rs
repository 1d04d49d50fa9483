//! Reshape-1 (and the views of Squeeze/Unsqueeze): the same bytes with the
//! inferred shape, no copy. (A target known only at run time is applied by
//! Reshape's shape rule, which the executor reruns on the run's values.)

use super::{Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    Ok(vec![call.input(0)?.reshaped(call.out_shape(0)?)?])
}
