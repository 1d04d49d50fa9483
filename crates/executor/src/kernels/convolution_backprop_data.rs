//! ConvolutionBackpropData-1 and GroupConvolutionBackpropData-1 (transposed
//! convolutions).
//!
//! Each (image, group) is one GEMM, the filters transposed `[C_out/G·K,
//! C_in/G]` times the input `[C_in/G, D]`, giving every kernel tap's
//! contribution at every input position; col2im then adds each into the
//! output position `i*s - pb + t*d` it lands on (positions outside the output
//! drop). Input positions are taken in tiles so the scratch stays a few MiB;
//! col2im runs in parallel over output channels, which write disjoint planes.
//! The pads come from `shape_infer::window`, the output shape from inference
//! (with `output_shape`, or `output_padding`, it fixes what `same_*` pads
//! are).

use rayon::prelude::*;
use symdim::{Expr, SymbolTable};

use super::convolution::{in_float_type, Geometry, Operands};
use super::{Call, KResult};
use crate::gemm::{self, Mat, Scalar};
use crate::tensor::{check_scratch, Element, Tensor};
use shape_infer::window::{self, WindowAttrs, WindowKind};

/// ConvolutionBackpropData-1: filters `[C_in, C_out, K…]`.
pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    backward(call, false)
}

/// GroupConvolutionBackpropData-1: filters `[G, C_in/G, C_out/G, K…]`.
pub(crate) fn run_group(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    backward(call, true)
}

fn backward(call: &Call<'_>, grouped: bool) -> KResult<Vec<Tensor>> {
    let Operands {
        x,
        w,
        out_shape,
        spatial,
        lead,
        groups,
        first: cin,
        second: cout,
    } = Operands::read(call, grouped, true)?;
    let attrs = WindowAttrs::read(call.node, spatial, WindowKind::Convolution)
        .map_err(|e| e.to_string())?;
    let output_padding = call
        .node
        .attributes
        .i64_list("output_padding")
        .map_err(|e| e.to_string())?
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| vec![0; spatial]);
    let kernel = &w.shape[lead..];
    let symbols = SymbolTable::new();
    let constant = |v: usize| Expr::constant(v as i64);
    let mut pad_begin = Vec::with_capacity(spatial);
    for axis in 0..spatial {
        let window_size = window::dilated(&constant(kernel[axis]), attrs.dilations[axis])
            .map_err(|e| e.to_string())?;
        // `same_*` pads follow from the output size when `output_shape` gave it.
        let given = (call.inputs.len() == 3).then(|| constant(out_shape[2 + axis]));
        let pads = window::backward_pads(
            &symbols,
            attrs.auto_pad,
            &constant(x.shape[2 + axis]),
            &window_size,
            attrs.strides[axis],
            output_padding.get(axis).copied().unwrap_or(0),
            given.as_ref(),
            (attrs.pads_begin[axis], attrs.pads_end[axis]),
        )
        .map_err(|e| e.to_string())?;
        let (begin, _) = pads
            .as_constants()
            .ok_or("internal: pads of constant dims")?;
        pad_begin.push(begin);
    }
    let geometry = Geometry::new(
        &x.shape,
        &out_shape,
        kernel,
        (groups, cin, cout),
        &attrs,
        &pad_begin,
    )?;
    let out = in_float_type(
        "ConvolutionBackpropData",
        x,
        w,
        out_shape,
        &geometry,
        compute::<f32>,
        compute::<f64>,
    )?;
    Ok(vec![out])
}

/// The largest column tile, in elements (4 MiB of f32).
const TILE_ELEMENTS: usize = 1 << 20;

fn compute<T: Scalar + Element + bytemuck::Pod>(
    x: &[T],
    w: &[T],
    g: &Geometry,
    out: &mut [T],
) -> KResult<()> {
    let (p_in, p_out, k_size) = (g.input_size(), g.output_size(), g.kernel_size());
    let rows = g.cout * k_size;
    if x.len() != g.batch * g.groups * g.cin * p_in
        || w.len() != g.groups * g.cin * rows
        || out.len() != g.batch * g.groups * g.cout * p_out
    {
        return Err("internal: the tensors do not hold the convolution's geometry".into());
    }
    // The columns are added into the output.
    out.fill(T::ZERO);
    if out.is_empty() || p_in == 0 || rows == 0 {
        return Ok(());
    }
    let tile = (TILE_ELEMENTS / rows).clamp(1, p_in);
    check_scratch(
        rows * tile,
        T::SIZE,
        "the columns of a ConvolutionBackpropData",
    )?;
    // The run's kept scratch buffer: no fresh tile per call.
    crate::pool::with_scratch(rows * tile, |cols| by_tiles(x, w, g, out, cols, tile))
}

/// The products and col2im of [`compute`], by tiles of `tile` input
/// positions through `cols` (`cout·K` rows of a tile).
fn by_tiles<T: Scalar>(
    x: &[T],
    w: &[T],
    g: &Geometry,
    out: &mut [T],
    cols: &mut [T],
    tile: usize,
) -> KResult<()> {
    let (p_in, p_out, k_size) = (g.input_size(), g.output_size(), g.kernel_size());
    let rows = g.cout * k_size;
    for image in 0..g.batch {
        for group in 0..g.groups {
            let x_g = &x[(image * g.groups + group) * g.cin * p_in..][..g.cin * p_in];
            let w_g = &w[group * g.cin * rows..][..g.cin * rows];
            let out_g = &mut out[(image * g.groups + group) * g.cout * p_out..][..g.cout * p_out];
            for first in (0..p_in).step_by(tile) {
                let len = tile.min(p_in - first);
                let cols = &mut cols[..rows * len];
                // cols (rows × len) = w_gᵀ (rows × cin) · x_g[:, first..first+len].
                gemm::matmul(
                    cols,
                    len,
                    (rows, g.cin, len),
                    Mat::transposed(w_g, rows),
                    Mat::rows(&x_g[first..], p_in),
                    false,
                )?;
                col2im(cols, g, first, len, out_g);
            }
        }
    }
    Ok(())
}

/// Adds each column value (row `(c, kd, kh, kw)`, input position `first +
/// q`) into the output position it lands on.
fn col2im<T: Scalar>(cols: &[T], g: &Geometry, first: usize, len: usize, out: &mut [T]) {
    let p_out = g.output_size();
    let k_size = g.kernel_size();
    let [_, ih, iw] = g.input;
    let [od, oh, ow] = g.output;
    let [_, kh, kw] = g.kernel;
    let channel = |c: usize, plane: &mut [T]| {
        for tap in 0..k_size {
            let (tz, ty, tx) = (tap / (kh * kw), (tap / kw) % kh, tap % kw);
            let row = &cols[(c * k_size + tap) * len..][..len];
            let at = |i: usize, axis: usize, t: usize| {
                (i * g.stride[axis] + t * g.dilation[axis]) as i64 - g.pad_begin[axis]
            };
            let (mut z, mut y, mut xi) = (first / (ih * iw), (first / iw) % ih, first % iw);
            for &v in row {
                let (oz, oy, ox) = (at(z, 0, tz), at(y, 1, ty), at(xi, 2, tx));
                if (0..od as i64).contains(&oz)
                    && (0..oh as i64).contains(&oy)
                    && (0..ow as i64).contains(&ox)
                {
                    let o = &mut plane[(oz as usize * oh + oy as usize) * ow + ox as usize];
                    *o = *o + v;
                }
                xi += 1;
                if xi == iw {
                    xi = 0;
                    y += 1;
                    if y == ih {
                        y = 0;
                        z += 1;
                    }
                }
            }
        }
    };
    if std::mem::size_of_val(out) >= crate::parallel::PARALLEL_MIN_BYTES {
        out.par_chunks_mut(p_out)
            .enumerate()
            .for_each(|(c, plane)| channel(c, plane));
    } else {
        for (c, plane) in out.chunks_mut(p_out).enumerate() {
            channel(c, plane);
        }
    }
}
