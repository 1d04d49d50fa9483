//! RDFT-9: real data made complex, trimmed or zero-padded to the signal
//! sizes and transformed forward over `axes` (the shared transform of
//! [`super::dft`]); the last transformed axis keeps its first
//! `floor(n/2) + 1` values, as OpenVINO's reference (`rdft.cpp`).

use rustfft::FftDirection;

use super::dft::{expect_real, expect_shape, read_axes, signal_sizes, ComplexArray};
use super::{Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    expect_real("RDFT", x)?;
    let data = ComplexArray::from_real(x)?;
    let axes = read_axes(call, data.shape.len())?;
    let sizes = signal_sizes(call, &axes, |a| data.shape[a])?;
    let mut full = data.resized(&axes, &sizes)?;
    full.transform(&axes, FftDirection::Forward);
    let (Some(&last), Some(&n)) = (axes.last(), sizes.last()) else {
        return Err("RDFT needs at least one axis".into());
    };
    let half = if n == 0 { 0 } else { n / 2 + 1 };
    let out = full.resized(&[last], &[half])?;
    let mut shape = out.shape.clone();
    shape.push(2);
    expect_shape(call, &shape)?;
    Ok(vec![out.into_pairs(x.element_type)?])
}
