//! IRDFT-9, as OpenVINO's reference (`irdft.cpp`): an inverse transform over
//! every axis but the last (each trimmed or zero-padded to its signal size);
//! then along the last axis, whose output length `L` is its signal size or
//! `2*(n - 1)`, the Hermitian-symmetric spectrum is rebuilt from its first
//! `floor(L/2) + 1` values (missing ones zero, position `L - j` the
//! conjugate of `j`) and inverse-transformed; the output is the real part.

use rustfft::FftDirection;

use super::dft::{expect_real, expect_shape, read_axes, signal_sizes, ComplexArray, C64};
use super::{Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    expect_real("IRDFT", x)?;
    let data = ComplexArray::from_pairs(x)?;
    let axes = read_axes(call, data.shape.len())?;
    let Some((&last, outer_axes)) = axes.split_last() else {
        return Err("IRDFT needs at least one axis".into());
    };
    let sizes = signal_sizes(call, &axes, |a| {
        if a == last {
            2 * data.shape[a].saturating_sub(1)
        } else {
            data.shape[a]
        }
    })?;
    let (&length, outer_sizes) = sizes.split_last().unwrap_or((&0, &[]));
    let mut outer = data.resized(outer_axes, outer_sizes)?;
    outer.transform(outer_axes, FftDirection::Inverse);

    let mut shape = outer.shape.clone();
    shape[last] = length;
    expect_shape(call, &shape)?;
    let mut full = ComplexArray::zeros(shape)?;
    let have = outer.shape[last];
    let inner: usize = outer.shape[last + 1..].iter().product();
    let count = full.values.len();
    if count > 0 {
        let bound = length / 2 + 1;
        let lines = count / (length * inner);
        for o in 0..lines {
            for i in 0..inner {
                let src = |j: usize| (o * have + j) * inner + i;
                let dst = |j: usize| (o * length + j) * inner + i;
                for j in 0..bound.min(length) {
                    let v = if j < have {
                        outer.values[src(j)]
                    } else {
                        C64::new(0.0, 0.0)
                    };
                    full.values[dst(j)] = v;
                    if j > 0 && j < length + 1 - bound {
                        full.values[dst(length - j)] = v.conj();
                    }
                }
            }
        }
    }
    full.transform(&[last], FftDirection::Inverse);
    let real: Vec<f64> = full.values.iter().map(|c| c.re).collect();
    Ok(vec![super::from_f64s(x.element_type, full.shape, &real)?])
}
