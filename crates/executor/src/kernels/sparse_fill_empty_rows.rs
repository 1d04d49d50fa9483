//! SparseFillEmptyRows-16, after OpenVINO's reference: the entries of the
//! sparse tensor plus one `(row, 0)` entry holding `default_value` for every
//! row no index names, sorted by row then column (ties in input order), and
//! a flag per row telling whether it was empty. The entry count is
//! data-dependent (checked against inference). Values are raw bytes (any
//! type); an index outside the dense shape is an error.

use std::collections::BTreeSet;

use ir::ElementType;

use super::{Call, KResult};
use crate::tensor::{element_width, Tensor};

/// The index tensor of `rows` `(row, column)` pairs, in the element type
/// of the indices input.
fn index_tensor(et: ElementType, pairs: &[(i64, i64)]) -> KResult<Tensor> {
    let shape = vec![pairs.len(), 2];
    let flat = pairs.iter().flat_map(|&(r, c)| [r, c]);
    Ok(match et {
        ElementType::I32 => Tensor::from_vec(shape, flat.map(|v| v as i32).collect())?,
        ElementType::I64 => Tensor::from_vec(shape, flat.collect())?,
        other => return Err(super::unsupported("SparseFillEmptyRows indices", other)),
    })
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let values = call.input(0)?;
    let dense = call.input(1)?.to_i64s()?;
    let indices_input = call.input(2)?;
    let indices = indices_input.to_i64s()?;
    let default = call.input(3)?;
    let &[rows, cols] = dense.as_slice() else {
        return Err("dense_shape must hold 2 values".into());
    };
    let row_count =
        usize::try_from(rows).map_err(|_| format!("dense_shape {dense:?} is negative"))?;
    // The row flags are an output: their size is checked before it is made.
    crate::tensor::byte_size(ElementType::Boolean, &[row_count])?;
    let count = values.len();
    if indices.len() != 2 * count {
        return Err(format!("{count} values but {} index values", indices.len()).into());
    }
    if default.element_type != values.element_type || default.len() != 1 {
        return Err("default_value must be one value of the values' type".into());
    }
    let mut entries: Vec<((i64, i64), usize)> = Vec::with_capacity(count);
    for (i, pair) in indices.chunks_exact(2).enumerate() {
        let (r, c) = (pair[0], pair[1]);
        if !(0..rows).contains(&r) || !(0..cols).contains(&c) {
            return Err(format!(
                "sparse-index-range: index ({r}, {c}) is outside the dense shape [{rows}, {cols}]"
            )
            .into());
        }
        entries.push(((r, c), i));
    }
    let used: BTreeSet<i64> = entries.iter().map(|&((r, _), _)| r).collect();
    let empty: Vec<bool> = (0..rows).map(|r| !used.contains(&r)).collect();
    for (r, _) in empty.iter().enumerate().filter(|(_, &e)| e) {
        entries.push(((r as i64, 0), count + r));
    }
    // Stable: equal positions keep the input order, defaults after values.
    entries.sort_by_key(|&(at, _)| at);
    let width = element_width(values.element_type)?;
    let (src, fill) = (values.bytes(), default.bytes());
    let mut out_values = Vec::with_capacity(entries.len() * width);
    for &(_, from) in &entries {
        out_values.extend_from_slice(if from < count {
            &src[from * width..(from + 1) * width]
        } else {
            fill
        });
    }
    let pairs: Vec<(i64, i64)> = entries.iter().map(|&(at, _)| at).collect();
    let filled = Tensor::from_bytes(values.element_type, vec![entries.len()], out_values)?;
    Ok(vec![
        index_tensor(indices_input.element_type, &pairs)?,
        filled,
        Tensor::from_vec(vec![empty.len()], empty)?,
    ])
}
