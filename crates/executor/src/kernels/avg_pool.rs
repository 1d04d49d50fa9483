//! AvgPool-1/-14/-16: the mean over each window (v16's windows dilated). With `exclude-pad` the divisor
//! counts the window's elements inside the input; without, those inside the
//! padded input, and with `ceil_torch` rounding also a last window's
//! overhang past the end padding, as OpenVINO's CPU plugin counts it
//! (PyTorch does not). The window geometry and its runs are MaxPool's.

use ir::ElementType;
use rayon::prelude::*;
use shape_infer::ops::avg_pool::window_kind;
use shape_infer::registry::OpsetFamily;

use super::convolution::{elements, narrow, widen};
use super::max_pool::Pool;
use super::{from_f64s, to_f64s, Call, KResult};
use crate::gemm::Scalar;
use crate::tensor::{byte_size, Element, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out_shape = call.out_shape(0)?;
    let opset = OpsetFamily::parse(&call.node.op_type.version).map_or(1, |(_, n)| n);
    let pool = Pool::new(call, &x.shape, &out_shape, window_kind(opset))?;
    let exclude_pad = call.attr_bool("exclude-pad", false);
    let torch = call
        .node
        .attributes
        .get("rounding_type")
        .is_some_and(|r| r.trim().eq_ignore_ascii_case("ceil_torch"));
    // OpenVINO's CPU plugin counts the padding only when the layer has
    // some: without pads, a window past the input's end (ceil rounding)
    // divides by its taps inside the input, whatever `exclude-pad` says.
    let padded = !exclude_pad && pool.has_padding();
    let counts = pool.tap_counts(padded, torch);
    byte_size(x.element_type, &out_shape)?;
    let et = x.element_type;
    Ok(vec![match et {
        ElementType::F32 => {
            Tensor::from_vec(out_shape, means(&elements::<f32>(x)?, &pool, &counts))?
        }
        ElementType::F64 => {
            Tensor::from_vec(out_shape, means(&elements::<f64>(x)?, &pool, &counts))?
        }
        ElementType::F16 | ElementType::BF16 => {
            narrow(et, out_shape, &means(&widen(x)?, &pool, &counts))?
        }
        _ => from_f64s(et, out_shape, &means(&to_f64s(x)?, &pool, &counts))?,
    }])
}

fn means<T: Scalar + Element>(x: &[T], pool: &Pool, counts: &[Vec<usize>; 3]) -> Vec<T> {
    let g = &pool.geometry;
    let (p_in, p_out) = (g.input_size(), g.output_size());
    let [_, oh, ow] = g.output;
    let mut out = vec![T::ZERO; g.batch * g.cin * p_out];
    let plane = |index: usize, dst: &mut [T]| {
        let src = &x[index * p_in..(index + 1) * p_in];
        pool.for_each_run(|o, input, stride, run| {
            let reads = src[input..].iter().step_by(stride);
            for (d, &v) in dst[o..o + run].iter_mut().zip(reads) {
                *d = *d + v;
            }
        });
        for (k, v) in dst.iter_mut().enumerate() {
            let (z, y, xo) = (k / (oh * ow), (k / ow) % oh, k % ow);
            let divisor = counts[0][z] * counts[1][y] * counts[2][xo];
            *v = if divisor == 0 {
                T::ZERO
            } else {
                *v / T::from_count(divisor)
            };
        }
    };
    if p_out > 0 {
        if std::mem::size_of_val(x) >= 1 << 16 && rayon::current_num_threads() > 1 {
            out.par_chunks_mut(p_out)
                .enumerate()
                .for_each(|(i, c)| plane(i, c));
        } else {
            for (i, c) in out.chunks_mut(p_out).enumerate() {
                plane(i, c);
            }
        }
    }
    out
}
