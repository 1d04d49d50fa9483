//! Result and Identity-16: pass their input through (no copy).

use super::{Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    Ok(vec![call.input(0)?.clone()])
}
