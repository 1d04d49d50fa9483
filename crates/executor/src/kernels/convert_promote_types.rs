//! ConvertPromoteTypes-14: each input converted (as Convert does) to the
//! common type shape inference chose, as OpenVINO decomposes the op into
//! two Converts.

use super::convert::convert;
use super::{Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    Ok(vec![
        convert(call.input(0)?, call.out_type(0)?)?,
        convert(call.input(1)?, call.out_type(1)?)?,
    ])
}
