//! Unique-10: the unique elements of the flattened data, or its unique
//! slices along `axis` (input 1), as OpenVINO's CPU plugin orders them:
//! `sorted` ascending (slices lexicographically, element by element in
//! row-major order), else in order of first occurrence. Outputs: the
//! unique values, the index of each one's first occurrence, each input
//! element's (slice's) index among the unique ones, and each one's count.
//! The unique count is data-dependent: the executor checks it against the
//! inferred range.

use std::cmp::Ordering;

use super::{from_i128s, gather_elements, norm_axis, Call, KResult};
use crate::tensor::{check_scratch, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let sorted = call.attr_bool("sorted", true);
    let axis = match call.inputs.get(1) {
        None => None,
        Some(a) => match a.to_i64s()?.as_slice() {
            [v] => Some(norm_axis(*v, x.shape.len())?),
            _ => return Err("the axis (input 1) must hold one value".into()),
        },
    };
    let numel = x.len();
    let (outer, len, inner) = match axis {
        Some(a) => (
            x.shape[..a].iter().product::<usize>(),
            x.shape[a],
            x.shape[a + 1..].iter().product::<usize>(),
        ),
        None => (1, numel, 1),
    };
    check_scratch(numel, 16 + 8, "Unique")?;
    let groups = if x.element_type.is_real() {
        let keys: Vec<f64> = super::to_f64s(x)?;
        group_slices(&keys, outer, len, inner, |a, b| {
            a.partial_cmp(b).unwrap_or(Ordering::Equal)
        })
    } else if x.element_type == ir::ElementType::Boolean {
        let keys = x.nonzero_mask()?;
        group_slices(&keys, outer, len, inner, |a, b| a.cmp(b))
    } else {
        let keys = super::to_i128s(x)?;
        group_slices(&keys, outer, len, inner, |a, b| a.cmp(b))
    };
    // Groups come in sorted order; otherwise by first occurrence.
    let mut groups = groups;
    if !sorted {
        groups.sort_by_key(|g| g[0]);
    }
    let unique = groups.len();
    let mut values_shape = x.shape.clone();
    match axis {
        Some(a) => values_shape[a] = unique,
        None => values_shape = vec![unique],
    }
    let values = gather_elements(x, values_shape, |emit| {
        for o in 0..outer {
            for g in &groups {
                for i in 0..inner {
                    emit((o * len + g[0]) * inner + i);
                }
            }
        }
    })?;
    let first: Vec<i128> = groups.iter().map(|g| g[0] as i128).collect();
    let counts: Vec<i128> = groups.iter().map(|g| g.len() as i128).collect();
    let mut inverse = vec![0i128; len];
    for (u, g) in groups.iter().enumerate() {
        for &k in g {
            inverse[k] = u as i128;
        }
    }
    let index_type = call.out_type(1)?;
    Ok(vec![
        values,
        from_i128s(index_type, vec![unique], &first)?,
        from_i128s(call.out_type(2)?, vec![len], &inverse)?,
        from_i128s(call.out_type(3)?, vec![unique], &counts)?,
    ])
}

/// The slices `0..len` (slice `k`: elements `(o * len + k) * inner + i` in
/// `(o, i)` order) grouped by equal content: groups in ascending
/// lexicographic order, members in increasing order.
fn group_slices<K>(
    keys: &[K],
    outer: usize,
    len: usize,
    inner: usize,
    cmp: impl Fn(&K, &K) -> Ordering,
) -> Vec<Vec<usize>> {
    let compare = |a: usize, b: usize| {
        for o in 0..outer {
            for i in 0..inner {
                let ord = cmp(
                    &keys[(o * len + a) * inner + i],
                    &keys[(o * len + b) * inner + i],
                );
                if ord != Ordering::Equal {
                    return ord;
                }
            }
        }
        Ordering::Equal
    };
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for k in order {
        match groups.last_mut() {
            Some(g) if compare(g[0], k) == Ordering::Equal => g.push(k),
            _ => groups.push(vec![k]),
        }
    }
    groups
}
