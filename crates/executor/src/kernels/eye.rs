//! Eye-9: ones at `(i, i + diagonal_index)` of every matrix of the batch
//! (where that column exists), zeros elsewhere, in `output_type`. The
//! output shape is the inferred one (rows and columns from the inputs'
//! values, checked against them here).

use ir::ElementType;

use super::{from_f64s, Call, KResult};
use crate::tensor::{check_scratch, element_count, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let out = call.out_shape(0)?;
    let et = call.out_type(0)?;
    let rows = call.input_i64(0, "num_rows")?;
    let cols = call.input_i64(1, "num_columns")?;
    let k = call.input_i64(2, "diagonal_index")?;
    let n = out.len();
    let matrix = out.get(n.saturating_sub(2)..).unwrap_or(&[]);
    let batch = call
        .inputs
        .get(3)
        .map(|b| b.to_i64s())
        .transpose()?
        .unwrap_or_default();
    let want: Vec<i64> = batch.iter().copied().chain([rows, cols]).collect();
    if want.len() != n || want.iter().zip(&out).any(|(&w, &o)| w != o as i64) {
        return Err(format!("the inputs ask for {want:?}, the inferred shape is {out:?}").into());
    }
    let (r, c) = (matrix[0], matrix[1]);
    let count = element_count(&out)?;
    let per = r * c;
    // The ones' offsets within one matrix.
    let ones: Vec<usize> = (0..r)
        .filter_map(|i| {
            let j = i as i64 + k;
            (0..c as i64).contains(&j).then(|| i * c + j as usize)
        })
        .collect();
    if et == ElementType::Boolean {
        let mut v = vec![false; count];
        for m in (0..count).step_by(per.max(1)) {
            for &o in &ones {
                v[m + o] = true;
            }
        }
        return Ok(vec![Tensor::from_vec(out, v)?]);
    }
    crate::tensor::byte_size(et, &out)?;
    check_scratch(count, std::mem::size_of::<f64>(), "Eye")?;
    let mut v = vec![0.0; count];
    for m in (0..count).step_by(per.max(1)) {
        for &o in &ones {
            v[m + o] = 1.0;
        }
    }
    Ok(vec![from_f64s(et, out, &v)?])
}
