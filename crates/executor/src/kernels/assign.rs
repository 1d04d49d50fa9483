//! Assign-3 and -6: its output is its input (a view); the executor keeps
//! the input as the variable's value for the next run ([`crate::State`]).

use super::{Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    Ok(vec![call.input(0)?.clone()])
}
