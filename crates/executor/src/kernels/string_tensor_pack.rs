//! StringTensorPack-15: the string tensor of `begins`' shape whose element
//! `i` is `symbols[begins[i]..ends[i]]`. A range outside `symbols` or with
//! its end before its begin is an error (OpenVINO's reference reads out of
//! bounds there).

use super::{Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let begins = call.input(0)?.to_i64s()?;
    let ends = call.input(1)?.to_i64s()?;
    let symbols = call.input(2)?.to_vec::<u8>()?;
    let shape = call.out_shape(0)?;
    if begins.len() != ends.len() {
        return Err(format!("{} begins but {} ends", begins.len(), ends.len()).into());
    }
    let mut strings = Vec::with_capacity(begins.len());
    for (i, (&b, &e)) in begins.iter().zip(&ends).enumerate() {
        let range = usize::try_from(b)
            .ok()
            .zip(usize::try_from(e).ok())
            .filter(|&(b, e)| b <= e && e <= symbols.len());
        let Some((b, e)) = range else {
            return Err(format!(
                "string {i}: [{b}, {e}) is not a range of the {} symbols",
                symbols.len()
            )
            .into());
        };
        strings.push(&symbols[b..e]);
    }
    Ok(vec![Tensor::from_strings(shape, &strings)?])
}
