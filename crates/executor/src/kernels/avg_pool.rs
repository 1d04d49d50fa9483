//! AvgPool-1/-14: the mean over each window. With `exclude-pad` the divisor
//! counts the window's elements inside the input; without, those inside the
//! padded input, and with `ceil_torch` rounding also a last window's
//! overhang past the end padding, as OpenVINO's CPU plugin counts it
//! (PyTorch does not). The window geometry is MaxPool's.

use shape_infer::window::WindowKind;

use super::max_pool::Pool;
use super::{from_f64s, to_f64s, Call, KResult};
use crate::tensor::{byte_size, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out_shape = call.out_shape(0)?;
    let pool = Pool::new(call, &x.shape, &out_shape, WindowKind::Pool)?;
    let exclude_pad = call.attr_bool("exclude-pad", false);
    let torch = call
        .node
        .attributes
        .get("rounding_type")
        .is_some_and(|r| r.trim().eq_ignore_ascii_case("ceil_torch"));
    byte_size(x.element_type, &out_shape)?;
    let values = to_f64s(x)?;
    let means = pool.map(|plane, taps| {
        let src = &values[plane * pool.plane_in..][..pool.plane_in];
        let (mut sum, mut inside) = (0.0, 0usize);
        taps(&mut |offset| {
            sum += src[offset];
            inside += 1;
        });
        (sum, inside)
    });
    let averaged: Vec<f64> = means
        .iter()
        .enumerate()
        .map(|(i, &(sum, inside))| {
            let divisor = if exclude_pad {
                inside
            } else {
                pool.padded_count(pool.position(i % pool.plane_out.max(1)), torch)
            };
            if divisor == 0 {
                0.0
            } else {
                sum / divisor as f64
            }
        })
        .collect();
    Ok(vec![from_f64s(x.element_type, out_shape, &averaged)?])
}
