//! Col2Im-15, after OpenVINO's reference: column `(c, kh, kw)` of block
//! `(bh, bw)` adds to image element `(c, bh*s0 - pb0 + kh*d0,
//! bw*s1 - pb1 + kw*d1)` when that lies inside the image; the image starts
//! at zero. The blocks per axis are the shape rule's window count (the
//! data's block dim has been checked against their product). Numeric types.

use shape_infer::window::{self, WindowAttrs, WindowKind};

use super::batch_to_space::check_shape;
use super::{with_num, Call, KResult, Num};
use crate::tensor::Tensor;

/// The geometry of one Col2Im layer on concrete dims.
struct Geometry {
    batches: usize,
    channels: usize,
    image: [usize; 2],
    kernel: [usize; 2],
    blocks: [usize; 2],
    attrs: WindowAttrs,
}

impl Geometry {
    /// The image element column `column` of block `block` adds to, if any.
    fn target(&self, column: usize, block: usize) -> Option<(usize, usize)> {
        let (kh, kw) = (
            (column / self.kernel[1]) % self.kernel[0],
            column % self.kernel[1],
        );
        let (bh, bw) = (block / self.blocks[1], block % self.blocks[1]);
        let place = |axis: usize, b: usize, k: usize| -> Option<usize> {
            let at = (b as i64) * self.attrs.strides[axis] - self.attrs.pads_begin[axis]
                + (k as i64) * self.attrs.dilations[axis];
            usize::try_from(at).ok().filter(|&p| p < self.image[axis])
        };
        Some((place(0, bh, kh)?, place(1, bw, kw)?))
    }
}

fn fold<T: Num>(data: &[T], g: &Geometry) -> Vec<T> {
    let [oh, ow] = g.image;
    let columns = g.channels * g.kernel[0] * g.kernel[1];
    let blocks = g.blocks[0] * g.blocks[1];
    let mut out = vec![T::zero(); g.batches * g.channels * oh * ow];
    for n in 0..g.batches {
        for column in 0..columns {
            let c = column / (g.kernel[0] * g.kernel[1]);
            for block in 0..blocks {
                if let Some((y, x)) = g.target(column, block) {
                    let to = ((n * g.channels + c) * oh + y) * ow + x;
                    let from = (n * columns + column) * blocks + block;
                    out[to] = out[to].add(data[from]);
                }
            }
        }
    }
    out
}

/// The two positive values of input `i` (output_size, kernel_size).
fn pair(call: &Call<'_>, i: usize, what: &str) -> KResult<[usize; 2]> {
    match call.input(i)?.to_i64s()?.as_slice() {
        &[a, b] if a > 0 && b > 0 => Ok([a as usize, b as usize]),
        other => Err(format!("{what} must hold two positive values, got {other:?}").into()),
    }
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let image = pair(call, 1, "output_size")?;
    let kernel = pair(call, 2, "kernel_size")?;
    let attrs =
        WindowAttrs::read(call.node, 2, WindowKind::DilatedPool).map_err(|e| e.to_string())?;
    let (batches, columns, count) = match *x.shape.as_slice() {
        [c, l] => (1, c, l),
        [n, c, l] => (n, c, l),
        _ => {
            return Err(format!(
                "Col2Im takes [N, C*k0*k1, L] or [C*k0*k1, L], not {:?}",
                x.shape
            )
            .into())
        }
    };
    let mut blocks = [0; 2];
    for axis in 0..2 {
        let pads = (attrs.pads_begin[axis], attrs.pads_end[axis]);
        blocks[axis] = window::concrete_positions(
            image[axis],
            kernel[axis] as i64,
            attrs.dilations[axis],
            attrs.strides[axis],
            pads,
        )
        .ok_or_else(|| format!("the kernel does not fit the padded image on axis {axis}"))?;
    }
    if blocks[0] * blocks[1] != count || columns % (kernel[0] * kernel[1]) != 0 {
        return Err(format!(
            "col2im-block-count: data {:?} is not {} blocks of {} columns per channel",
            x.shape,
            blocks[0] * blocks[1],
            kernel[0] * kernel[1]
        )
        .into());
    }
    let channels = columns / (kernel[0] * kernel[1]);
    // output_size may be run-time data: the shape is computed here and
    // checked against inference's where that is known.
    let mut out = if x.shape.len() == 3 {
        vec![batches]
    } else {
        vec![]
    };
    out.extend([channels, image[0], image[1]]);
    let out = check_shape(call, out)?;
    let g = Geometry {
        batches,
        channels,
        image,
        kernel,
        blocks,
        attrs,
    };
    let et = x.element_type;
    let t = with_num!(et, T => Tensor::from_vec(out, fold::<T>(&x.to_vec::<T>()?, &g))?,
        else return Err(super::unsupported("Col2Im", et)));
    Ok(vec![t])
}
