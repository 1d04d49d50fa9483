//! ReverseSequence-1: in slice `b` along `batch_axis`, output element `i`
//! along `seq_axis` is input element `len[b] - 1 - i` for `i < len[b]`, else
//! element `i`. Lengths of any numeric type (floats truncated, as OpenVINO's
//! CPU plugin); a length outside `0..=dim` is an error, as there. Raw
//! bytes, any data type.

use shape_infer::ops::reverse_sequence::axes;

use super::{gather_indexed, to_f64s, Call, KResult};
use crate::broadcast::row_major_strides;
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out = call.out_shape(0)?;
    if out != x.shape {
        return Err(format!("internal: the inferred shape {out:?} is not the data's").into());
    }
    let (batch, seq) = axes(&call.node.attributes, x.shape.len()).map_err(|e| e.to_string())?;
    let lengths = to_f64s(call.input(1)?)?;
    if lengths.len() != x.shape[batch] {
        return Err(format!(
            "reverse-sequence-lengths: {} lengths for a batch of {}",
            lengths.len(),
            x.shape[batch]
        )
        .into());
    }
    let dim = x.shape[seq];
    let lengths = lengths
        .iter()
        .map(|&l| {
            let t = l.trunc();
            if (0.0..=dim as f64).contains(&t) {
                Ok(t as usize)
            } else {
                Err(format!(
                    "reverse-sequence-lengths: length {l} is outside 0..={dim} of the sequence axis"
                ))
            }
        })
        .collect::<Result<Vec<usize>, String>>()?;
    let strides = row_major_strides(&x.shape);
    let t = gather_indexed(x, out, None, |idx| {
        let len = lengths[idx[batch]];
        let mut k = 0;
        for (a, &i) in idx.iter().enumerate() {
            let i = if a == seq && i < len { len - 1 - i } else { i };
            k += i * strides[a] as usize;
        }
        Some(k)
    })?;
    Ok(vec![t])
}
