//! SegmentMax-16, after OpenVINO's reference: each segment's maximum of the
//! data rows whose id names it (`std::max` from the type's lowest value, so
//! a NaN never wins), 0 or the type's lowest value (`fill_mode`) for an
//! empty segment; the ids stop at the first one beyond `num_segments`. The
//! segment count is `num_segments` or the last id + 1 (a data-dependent
//! size, checked against inference). Unsorted or negative ids are errors.

use shape_infer::ops::segment_max::fill_lowest;

use super::batch_to_space::check_shape;
use super::scatter::Extra;
use super::{with_num, Call, KResult};
use crate::tensor::Tensor;

fn segment_max<T: Extra>(
    data: &[T],
    ids: &[usize],
    segments: usize,
    inner: usize,
    lowest: bool,
) -> Vec<T> {
    let mut out = vec![T::lowest(); segments * inner];
    let mut filled = vec![false; segments];
    for (row, &id) in ids.iter().enumerate() {
        if id >= segments {
            break;
        }
        filled[id] = true;
        for j in 0..inner {
            let (cur, v) = (&mut out[id * inner + j], data[row * inner + j]);
            if *cur < v {
                *cur = v;
            }
        }
    }
    if !lowest {
        for (id, _) in filled.iter().enumerate().filter(|(_, &f)| !f) {
            out[id * inner..(id + 1) * inner].fill(T::zero());
        }
    }
    out
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let lowest = fill_lowest(call.node).map_err(|e| e.to_string())?;
    let ids = call.input(1)?.to_i64s()?;
    let rows = *x.shape.first().ok_or("the data must not be a scalar")?;
    if ids.len() != rows {
        return Err(format!("segment-ids-length: {} ids for {rows} data rows", ids.len()).into());
    }
    if let Some(w) = ids.windows(2).find(|w| w[0] > w[1]) {
        return Err(format!("segment-ids-sorted: {} comes before {}", w[0], w[1]).into());
    }
    let ids: Vec<usize> = ids
        .iter()
        .map(|&id| usize::try_from(id).map_err(|_| format!("segment id {id} is negative")))
        .collect::<Result<_, _>>()?;
    let segments = match call.inputs.get(2) {
        Some(n) => match n.to_i64s()?.as_slice() {
            &[n] => usize::try_from(n).map_err(|_| format!("num_segments {n} is negative"))?,
            _ => return Err("num_segments must be a scalar".into()),
        },
        None => ids.last().map_or(0, |&m| m + 1),
    };
    let mut shape = x.shape.clone();
    shape[0] = segments;
    let shape = check_shape(call, shape)?;
    let inner: usize = x.shape[1..].iter().product();
    let et = x.element_type;
    let t = with_num!(et, T => Tensor::from_vec(shape, segment_max::<T>(&x.to_vec::<T>()?, &ids, segments, inner, lowest))?,
        else return Err(super::unsupported("SegmentMax", et)));
    Ok(vec![t])
}
