//! TopK-1/-3/-11: per run along the axis, the `k` elements first in the
//! order of `mode` (ties to the lower index: ONNX's order, and OpenVINO's
//! when `stable` is true; when it is false OpenVINO's spec leaves the order
//! of equal values undefined, and the CPU plugin's depends on the sort it
//! picks for the shape and `k`: docs/architecture.md), ordered by value, or
//! by index for `sort` index; `sort` none runs as value, as there. Values are copied as they are (any
//! numeric type); NaNs order by `total_cmp`.

use ir::ElementType;
use shape_infer::ops::topk::{mode_is_max, sorts_by_index};

use super::{from_i128s, gather_elements, norm_axis, to_f64s, Call, KResult};
use crate::tensor::{element_count, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out = call.out_shape(0)?;
    let max = mode_is_max(&call.node.attributes).map_err(|e| e.to_string())?;
    let by_index = sorts_by_index(&call.node.attributes).map_err(|e| e.to_string())?;
    let rank = x.shape.len();
    let axis = norm_axis(call.attr_i64("axis")?.unwrap_or(0), rank)?;
    let k = call
        .input(1)?
        .to_i64s()?
        .first()
        .copied()
        .ok_or("k is empty")?;
    let d = x.shape[axis];
    let k = usize::try_from(k)
        .ok()
        .filter(|&k| k >= 1 && k <= d && out.get(axis) == Some(&k))
        .ok_or_else(|| format!("k is {k}, outside [1, {d}] (axis {axis})"))?;
    let outer: usize = x.shape[..axis].iter().product();
    let inner: usize = x.shape[axis + 1..].iter().product();
    let values = to_f64s(x)?;
    let mut picks = Vec::with_capacity(element_count(&out)?);
    let mut positions: Vec<usize> = Vec::with_capacity(d);
    for o in 0..outer {
        for i in 0..inner {
            let at = |j: usize| (o * d + j) * inner + i;
            positions.clear();
            positions.extend(0..d);
            // Stable: equal values keep the lower index first.
            positions.sort_by(|&a, &b| {
                let ord = values[at(a)].total_cmp(&values[at(b)]);
                if max {
                    ord.reverse()
                } else {
                    ord
                }
            });
            positions.truncate(k);
            if by_index {
                positions.sort_unstable();
            }
            picks.push(positions.clone());
        }
    }
    // Output element (o, j, i) is row (o, i)'s j-th pick.
    let index = |o: usize, j: usize, i: usize| picks[o * inner + i][j];
    let mut order = Vec::with_capacity(outer * k * inner);
    for o in 0..outer {
        for j in 0..k {
            for i in 0..inner {
                order.push((o, j, i));
            }
        }
    }
    let taken = gather_elements(x, out.clone(), |push| {
        for &(o, j, i) in &order {
            push((o * d + index(o, j, i)) * inner + i);
        }
    })?;
    let index_type = call.out_type(1)?;
    if !matches!(index_type, ElementType::I32 | ElementType::I64) {
        return Err(format!("index type {index_type} is not i32 or i64").into());
    }
    let indices: Vec<i128> = order
        .iter()
        .map(|&(o, j, i)| index(o, j, i) as i128)
        .collect();
    Ok(vec![taken, from_i128s(index_type, out, &indices)?])
}
