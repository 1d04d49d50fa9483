//! MVN-1/-6: `(x - mean) / sqrt(var + eps)` (`inside_sqrt`) or
//! `(x - mean) / (sqrt(var) + eps)` (`outside_sqrt`), or `x - mean` without
//! `normalize_variance`, over the axes `shape_infer::ops::mvn` names. Means
//! and variances accumulate in f64; trailing axes (LayerNorm's last axis,
//! from dim 1 or 2 to the end) are contiguous groups, normalized in
//! parallel; other axes sets go through an index of each element's group.

use rayon::prelude::*;
use shape_infer::ops::mvn::normalized_axes;

use super::{from_f64s, to_f64s, Call, KResult};
use crate::broadcast::{row_major_strides, walk};
use crate::tensor::{byte_size, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let version = if call.inputs.len() > 1 { 6 } else { 1 };
    let axes_input = match call.inputs.get(1) {
        Some(axes) => Some(axes.to_i64s()?),
        None => None,
    };
    let rank = x.shape.len();
    let axes = normalized_axes(version, &call.node.attributes, axes_input.as_deref(), rank)
        .map_err(|e| e.to_string())?;
    let normalize_variance = call.attr_bool("normalize_variance", true);
    let eps = call.attr_f64("eps")?.unwrap_or(1e-9);
    let outside = version >= 6
        && call
            .node
            .attributes
            .get("eps_mode")
            .is_some_and(|m| m.trim().eq_ignore_ascii_case("outside_sqrt"));
    byte_size(x.element_type, &x.shape)?;
    let mut values = to_f64s(x)?;
    let scale = |mean: f64, var: f64| -> (f64, f64) {
        let inv = if !normalize_variance {
            1.0
        } else if outside {
            1.0 / (var.sqrt() + eps)
        } else {
            1.0 / (var + eps).sqrt()
        };
        (mean, inv)
    };
    let mut reduced = vec![false; rank];
    for &a in &axes {
        reduced[a] = true;
    }
    let first = reduced.iter().position(|&r| r).unwrap_or(rank);
    let trailing = reduced[first..].iter().all(|&r| r);
    if trailing {
        let group: usize = x.shape[first..].iter().product();
        if group > 0 {
            let normalize_group = |g: &mut [f64]| {
                let n = g.len() as f64;
                let mean = g.iter().sum::<f64>() / n;
                let var = g.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
                let (mean, inv) = scale(mean, var);
                for v in g.iter_mut() {
                    *v = (*v - mean) * inv;
                }
            };
            if values.len() >= 1 << 16 {
                values.par_chunks_mut(group).for_each(normalize_group);
            } else {
                values.chunks_mut(group).for_each(normalize_group);
            }
        }
    } else {
        // Each element's group: its index with the normalized axes zeroed.
        let kept: Vec<usize> = (0..rank)
            .map(|a| if reduced[a] { 1 } else { x.shape[a] })
            .collect();
        let groups: usize = kept.iter().product();
        let mut strides = row_major_strides(&kept);
        for a in 0..rank {
            if reduced[a] {
                strides[a] = 0;
            }
        }
        let mut targets = Vec::with_capacity(values.len());
        walk(&x.shape, &[0], &[strides], |o| targets.push(o[0]));
        let (mut sum, mut count) = (vec![0.0; groups], vec![0usize; groups]);
        for (&v, &g) in values.iter().zip(&targets) {
            sum[g] += v;
            count[g] += 1;
        }
        let mean: Vec<f64> = sum
            .iter()
            .zip(&count)
            .map(|(s, &c)| s / c.max(1) as f64)
            .collect();
        let mut var = vec![0.0; groups];
        for (&v, &g) in values.iter().zip(&targets) {
            var[g] += (v - mean[g]) * (v - mean[g]);
        }
        let params: Vec<(f64, f64)> = (0..groups)
            .map(|g| scale(mean[g], var[g] / count[g].max(1) as f64))
            .collect();
        for (v, &g) in values.iter_mut().zip(&targets) {
            *v = (*v - params[g].0) * params[g].1;
        }
    }
    Ok(vec![from_f64s(x.element_type, x.shape.clone(), &values)?])
}
