//! AdaptiveAvgPool-8 and AdaptiveMaxPool-8: output `i` of an axis of input
//! size `D` and output size `O` covers the inputs `floor(i*D/O) ..
//! ceil((i+1)*D/O)` (PyTorch's and OpenVINO's bins); the max variant also
//! gives the index of the first maximum within the spatial plane. The
//! output shape is inference's.

use super::{from_f64s, from_i128s, to_f64s, Call, KResult};
use crate::tensor::{byte_size, Tensor};

pub(crate) fn run_avg(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out = call.out_shape(0)?;
    let values = pool(x, &out, |bin| {
        bin.iter().map(|&(v, _)| v).sum::<f64>() / bin.len().max(1) as f64
    })?;
    Ok(vec![from_f64s(
        x.element_type,
        out,
        &values.iter().map(|r| r.0).collect::<Vec<_>>(),
    )?])
}

pub(crate) fn run_max(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out = call.out_shape(0)?;
    let results = pool(x, &out, |bin| {
        bin.iter().map(|&(v, _)| v).fold(f64::NEG_INFINITY, |b, v| {
            if v > b || (v.is_nan() && !b.is_nan()) {
                v
            } else {
                b
            }
        })
    })?;
    let maxima: Vec<f64> = results.iter().map(|r| r.0).collect();
    let indices: Vec<i128> = results.iter().map(|r| r.1 as i128).collect();
    Ok(vec![
        from_f64s(x.element_type, out.clone(), &maxima)?,
        from_i128s(call.out_type(1)?, out, &indices)?,
    ])
}

/// For every output element, `f` of its bin's (value, in-plane index)
/// pairs, with the in-plane index of the bin's first maximum.
fn pool(
    x: &Tensor,
    out: &[usize],
    f: impl Fn(&[(f64, usize)]) -> f64,
) -> KResult<Vec<(f64, usize)>> {
    if out.len() != x.shape.len() || out.len() < 3 || out[..2] != x.shape[..2] {
        return Err(format!(
            "internal: input {:?} and output {out:?} do not agree",
            x.shape
        )
        .into());
    }
    byte_size(x.element_type, out)?;
    let values = to_f64s(x)?;
    let spatial = &x.shape[2..];
    let plane_in: usize = spatial.iter().product();
    let planes: usize = x.shape[..2].iter().product();
    let bins: Vec<Vec<(usize, usize)>> = spatial
        .iter()
        .zip(&out[2..])
        .map(|(&d, &o)| {
            (0..o)
                .map(|i| ((i * d) / o, ((i + 1) * d).div_ceil(o)))
                .collect()
        })
        .collect();
    let out_spatial = &out[2..];
    let mut result = Vec::new();
    let mut bin = Vec::new();
    for p in 0..planes {
        let src = &values[p * plane_in..(p + 1) * plane_in];
        super::for_each_index(out_spatial, |idx| {
            bin.clear();
            // Every input position inside the bin of each axis, row-major.
            let ranges: Vec<(usize, usize)> =
                idx.iter().enumerate().map(|(a, &i)| bins[a][i]).collect();
            let extents: Vec<usize> = ranges.iter().map(|&(lo, hi)| hi - lo).collect();
            super::for_each_index(&extents, |offset| {
                let mut flat = 0;
                for (a, (&o, &(lo, _))) in offset.iter().zip(&ranges).enumerate() {
                    flat = flat * spatial[a] + lo + o;
                }
                bin.push((src[flat], flat));
            });
            let first_max =
                bin.iter()
                    .copied()
                    .fold((f64::NEG_INFINITY, usize::MAX), |(b, a), (v, i)| {
                        if a == usize::MAX || v > b || (v.is_nan() && !b.is_nan()) {
                            (v, i)
                        } else {
                            (b, a)
                        }
                    });
            result.push((f(&bin), first_max.1));
        });
    }
    Ok(result)
}
