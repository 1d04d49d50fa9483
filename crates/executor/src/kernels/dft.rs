//! DFT-7 and IDFT-7 over complex data `[..., 2]`, and the transforms the
//! whole family (RDFT, IRDFT) shares: each transformed axis is trimmed or
//! zero-padded to its signal size, then transformed with `rustfft` in f64
//! (f16/bf16/f32 data converted, the result rounded once to the type);
//! inverse transforms divide by each axis's length, as OpenVINO's
//! reference (`reference/src/op/fft.cpp`).

use rustfft::num_complex::Complex;
use rustfft::{FftDirection, FftPlanner};

use super::{from_f64s, norm_axis, to_f64s, unsupported, Call, KResult};
use crate::tensor::{check_scratch, element_count, Tensor};

/// A complex value.
pub(crate) type C64 = Complex<f64>;

/// A complex tensor in row-major order.
pub(crate) struct ComplexArray {
    pub shape: Vec<usize>,
    pub values: Vec<C64>,
}

impl ComplexArray {
    /// A zero array of `shape`, within the scratch limit.
    pub(crate) fn zeros(shape: Vec<usize>) -> KResult<ComplexArray> {
        let count = element_count(&shape)?;
        check_scratch(
            count,
            std::mem::size_of::<C64>(),
            "a Fourier transform's buffer",
        )?;
        Ok(ComplexArray {
            shape,
            values: vec![C64::new(0.0, 0.0); count],
        })
    }

    /// Complex data `[..., 2]` (real and imaginary parts in the last dim).
    pub(crate) fn from_pairs(t: &Tensor) -> KResult<ComplexArray> {
        let (&last, shape) = t
            .shape
            .split_last()
            .ok_or("complex data cannot be a scalar")?;
        if last != 2 {
            return Err(format!("the last dim of complex data must be 2, not {last}").into());
        }
        let flat = to_f64s(t)?;
        Ok(ComplexArray {
            shape: shape.to_vec(),
            values: flat.chunks_exact(2).map(|p| C64::new(p[0], p[1])).collect(),
        })
    }

    /// Real data as complex values.
    pub(crate) fn from_real(t: &Tensor) -> KResult<ComplexArray> {
        Ok(ComplexArray {
            shape: t.shape.clone(),
            values: to_f64s(t)?.into_iter().map(|v| C64::new(v, 0.0)).collect(),
        })
    }

    /// The values as `[..., 2]` pairs in a tensor of `et`.
    pub(crate) fn into_pairs(self, et: ir::ElementType) -> KResult<Tensor> {
        let flat: Vec<f64> = self.values.iter().flat_map(|c| [c.re, c.im]).collect();
        let mut shape = self.shape;
        shape.push(2);
        from_f64s(et, shape, &flat)
    }

    /// A copy whose `axes` have the lengths `sizes`: each trimmed, or padded
    /// with zeros at its end.
    pub(crate) fn resized(&self, axes: &[usize], sizes: &[usize]) -> KResult<ComplexArray> {
        let mut shape = self.shape.clone();
        for (&a, &s) in axes.iter().zip(sizes) {
            shape[a] = s;
        }
        if shape == self.shape {
            return Ok(ComplexArray {
                shape,
                values: self.values.clone(),
            });
        }
        let mut out = ComplexArray::zeros(shape)?;
        // Copy the region both shapes share, row by row of the last axis.
        let common: Vec<usize> = self
            .shape
            .iter()
            .zip(&out.shape)
            .map(|(&a, &b)| a.min(b))
            .collect();
        let Some((&row, outer)) = common.split_last() else {
            out.values.clone_from(&self.values);
            return Ok(out);
        };
        if row == 0 || outer.contains(&0) {
            return Ok(out);
        }
        let src_strides = strides(&self.shape);
        let dst_strides = strides(&out.shape);
        super::for_each_index(outer, |idx| {
            let offset = |st: &[usize]| idx.iter().zip(st).map(|(i, s)| i * s).sum::<usize>();
            let (src, dst) = (offset(&src_strides), offset(&dst_strides));
            out.values[dst..dst + row].copy_from_slice(&self.values[src..src + row]);
        });
        Ok(out)
    }

    /// Transforms along each of `axes` in place; an inverse transform divides
    /// by the axis's length.
    pub(crate) fn transform(&mut self, axes: &[usize], direction: FftDirection) {
        let mut planner = FftPlanner::<f64>::new();
        for &axis in axes {
            let n = self.shape[axis];
            if n == 0 || self.values.is_empty() {
                continue;
            }
            let fft = planner.plan_fft(n, direction);
            let inner: usize = self.shape[axis + 1..].iter().product();
            let outer = self.values.len() / (n * inner);
            let scale = match direction {
                FftDirection::Forward => 1.0,
                FftDirection::Inverse => 1.0 / n as f64,
            };
            let mut line = vec![C64::new(0.0, 0.0); n];
            for o in 0..outer {
                for i in 0..inner {
                    let base = o * n * inner + i;
                    for (k, v) in line.iter_mut().enumerate() {
                        *v = self.values[base + k * inner];
                    }
                    fft.process(&mut line);
                    for (k, v) in line.iter().enumerate() {
                        self.values[base + k * inner] = v * scale;
                    }
                }
            }
        }
    }
}

/// Row-major strides of `shape`, in elements.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// Checks that the data are of a floating-point type.
pub(crate) fn expect_real(op: &str, t: &Tensor) -> KResult<()> {
    if t.element_type.is_real() {
        Ok(())
    } else {
        Err(unsupported(op, t.element_type))
    }
}

/// The axes (input 1) normalized into `0..rank` (the complex rank for
/// complex data, the rank for real data), none repeated.
pub(crate) fn read_axes(call: &Call<'_>, rank: usize) -> KResult<Vec<usize>> {
    let mut axes = Vec::new();
    for a in call.input(1)?.to_i64s()? {
        let axis = norm_axis(a, rank)?;
        if axes.contains(&axis) {
            return Err(format!("axis {a} is repeated").into());
        }
        axes.push(axis);
    }
    Ok(axes)
}

/// The signal size of each axis (input 2, `-1` or absent: `own(axis)`).
pub(crate) fn signal_sizes(
    call: &Call<'_>,
    axes: &[usize],
    own: impl Fn(usize) -> usize,
) -> KResult<Vec<usize>> {
    let Some(input) = call.inputs.get(2) else {
        return Ok(axes.iter().map(|&a| own(a)).collect());
    };
    let sizes = input.to_i64s()?;
    if sizes.len() != axes.len() {
        return Err(format!("{} signal sizes for {} axes", sizes.len(), axes.len()).into());
    }
    axes.iter()
        .zip(sizes)
        .map(|(&a, s)| match s {
            -1 => Ok(own(a)),
            s => usize::try_from(s).map_err(|_| format!("signal size {s} is negative").into()),
        })
        .collect()
}

/// Checks a result's shape against the inferred one. A shape inference
/// could not know (signal sizes or frame sizes read at run time) is the
/// kernel's, which the executor checks against the inferred symbols.
pub(crate) fn expect_shape(call: &Call<'_>, shape: &[usize]) -> KResult<()> {
    let Some(inferred) = call.outputs.first().and_then(|o| o.shape.clone()) else {
        return Ok(());
    };
    if inferred != shape {
        return Err(format!(
            "the signal sizes give the shape {shape:?}, inference gave {inferred:?}"
        )
        .into());
    }
    Ok(())
}

/// DFT-7.
pub(crate) fn run_dft(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    run(call, FftDirection::Forward)
}

/// IDFT-7.
pub(crate) fn run_idft(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    run(call, FftDirection::Inverse)
}

fn run(call: &Call<'_>, direction: FftDirection) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    expect_real("DFT", x)?;
    let data = ComplexArray::from_pairs(x)?;
    let axes = read_axes(call, data.shape.len())?;
    let sizes = signal_sizes(call, &axes, |a| data.shape[a])?;
    let mut out = data.resized(&axes, &sizes)?;
    let mut shape = out.shape.clone();
    shape.push(2);
    expect_shape(call, &shape)?;
    out.transform(&axes, direction);
    Ok(vec![out.into_pairs(x.element_type)?])
}
