//! StringTensorUnpack-15: each string's begin and end offset (i32, the
//! input's shape) into `symbols`, the strings' bytes back to back (u8); the
//! byte count is data-dependent (the executor checks it against the
//! inferred symbol).

use super::{Call, KResult};
use crate::tensor::{check_scratch, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let data = call.input(0)?;
    let strings = data.strings()?;
    let total: usize = strings.iter().map(|s| s.len()).sum();
    check_scratch(total, 1, "StringTensorUnpack symbols")?;
    if i32::try_from(total).is_err() {
        return Err(format!("the strings hold {total} bytes, beyond i32 offsets").into());
    }
    let mut begins = Vec::with_capacity(strings.len());
    let mut ends = Vec::with_capacity(strings.len());
    let mut symbols = Vec::with_capacity(total);
    for s in &strings {
        // Fits: the total fits in an i32.
        begins.push(symbols.len() as i32);
        symbols.extend_from_slice(s);
        ends.push(symbols.len() as i32);
    }
    Ok(vec![
        Tensor::from_vec(data.shape.clone(), begins)?,
        Tensor::from_vec(data.shape.clone(), ends)?,
        Tensor::from_vec(vec![total], symbols)?,
    ])
}
