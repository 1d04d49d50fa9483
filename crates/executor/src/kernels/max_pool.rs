//! MaxPool-1/-8/-14: the maximum over each window (padding never wins), and
//! for v8/v14 the index of the first maximum in the input flattened from
//! `axis`. Planes (image × channel) run in parallel when large. The pads
//! come from `shape_infer::window`, the output shape from inference.

use rayon::prelude::*;
use shape_infer::window::{self, WindowAttrs, WindowKind};

use super::convolution::{pad3, sizes, Axes3};
use super::{from_f64s, from_i128s, norm_axis, to_f64s, Call, KResult};
use crate::tensor::{byte_size, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out_shape = call.out_shape(0)?;
    let kind = if call.outputs.len() > 1 {
        WindowKind::DilatedPool
    } else {
        WindowKind::Pool
    };
    let pool = Pool::new(call, &x.shape, &out_shape, kind)?;
    byte_size(x.element_type, &out_shape)?;
    let values = to_f64s(x)?;
    let results = pool.map(|plane, taps| {
        let src = &values[plane * pool.plane_in..][..pool.plane_in];
        let mut best: Option<(f64, usize)> = None;
        taps(&mut |offset| {
            let v = src[offset];
            if best.is_none_or(|(b, _)| v > b || (v.is_nan() && !b.is_nan())) {
                best = Some((v, offset));
            }
        });
        // A window wholly in the padding: OpenVINO's CPU plugin gives the
        // lowest finite f32 (its accumulator's start).
        best.unwrap_or((f64::from(f32::MIN), 0))
    });
    let maxima: Vec<f64> = results.iter().map(|r| r.0).collect();
    let mut outputs = vec![from_f64s(x.element_type, out_shape.clone(), &maxima)?];
    if call.outputs.len() > 1 {
        let axis = norm_axis(call.attr_i64("axis")?.unwrap_or(0), x.shape.len())?;
        // The index in the input flattened from `axis`: the flat index in
        // the whole input, modulo the size of the dims from `axis` on.
        let span: usize = x.shape[axis..].iter().product();
        let indices: Vec<i128> = results
            .iter()
            .enumerate()
            .map(|(k, &(_, offset))| {
                let plane = k / pool.plane_out.max(1);
                ((plane * pool.plane_in + offset) % span.max(1)) as i128
            })
            .collect();
        outputs.push(from_i128s(call.out_type(1)?, out_shape, &indices)?);
    }
    Ok(outputs)
}

/// The window geometry of a pooling op over planes of `[N, C, D…]`.
pub(crate) struct Pool {
    input: Axes3,
    output: Axes3,
    kernel: Axes3,
    stride: Axes3,
    dilation: Axes3,
    pad_begin: [i64; 3],
    pad_end: [i64; 3],
    pub plane_in: usize,
    pub plane_out: usize,
    planes: usize,
}

impl Pool {
    pub fn new(
        call: &Call<'_>,
        input: &[usize],
        output: &[usize],
        kind: WindowKind,
    ) -> KResult<Pool> {
        let spatial = input.len().saturating_sub(2);
        if output.len() != input.len() || spatial == 0 {
            return Err(
                format!("internal: input {input:?} and output {output:?} do not agree").into(),
            );
        }
        let attrs = WindowAttrs::read(call.node, spatial, kind).map_err(|e| e.to_string())?;
        let kernel = sizes(
            &call
                .node
                .attributes
                .i64_list("kernel")
                .map_err(|e| e.to_string())?
                .unwrap_or_default(),
        )?;
        let pads = window::concrete_forward_pads(&attrs, &input[2..], &kernel)
            .map_err(|e| e.to_string())?;
        let begin: Vec<i64> = pads.iter().map(|p| p.0).collect();
        let end: Vec<i64> = pads.iter().map(|p| p.1).collect();
        Ok(Pool {
            input: pad3(&input[2..], 1)?,
            output: pad3(&output[2..], 1)?,
            kernel: pad3(&kernel, 1)?,
            stride: pad3(&sizes(&attrs.strides)?, 1)?,
            dilation: pad3(&sizes(&attrs.dilations)?, 1)?,
            pad_begin: pad3(&begin, 0)?,
            pad_end: pad3(&end, 0)?,
            plane_in: input[2..].iter().product(),
            plane_out: output[2..].iter().product(),
            planes: input[..2].iter().product(),
        })
    }

    /// For each output element (plane by plane, in order), `f(plane, taps)`
    /// where `taps(visit)` calls `visit` with the in-plane offset of each
    /// window element inside the input; in parallel over planes when large.
    pub fn map<R: Send>(
        &self,
        f: impl Fn(usize, &mut dyn FnMut(&mut dyn FnMut(usize))) -> R + Sync,
    ) -> Vec<R> {
        let plane = |p: usize| -> Vec<R> {
            let mut out = Vec::with_capacity(self.plane_out);
            let [od, oh, ow] = self.output;
            for z in 0..od {
                for y in 0..oh {
                    for x in 0..ow {
                        out.push(f(p, &mut |visit| self.taps([z, y, x], visit)));
                    }
                }
            }
            out
        };
        if self.planes * self.plane_out >= 1 << 16 {
            (0..self.planes)
                .into_par_iter()
                .flat_map_iter(plane)
                .collect()
        } else {
            (0..self.planes).flat_map(plane).collect()
        }
    }

    /// Calls `visit` with the offset of each element of the window at
    /// output position `at` that lies inside the input.
    fn taps(&self, at: Axes3, visit: &mut dyn FnMut(usize)) {
        let [id, ih, iw] = self.input;
        let start = |axis: usize| (at[axis] * self.stride[axis]) as i64 - self.pad_begin[axis];
        let (sz, sy, sx) = (start(0), start(1), start(2));
        for tz in 0..self.kernel[0] {
            let z = sz + (tz * self.dilation[0]) as i64;
            if !(0..id as i64).contains(&z) {
                continue;
            }
            for ty in 0..self.kernel[1] {
                let y = sy + (ty * self.dilation[1]) as i64;
                if !(0..ih as i64).contains(&y) {
                    continue;
                }
                for tx in 0..self.kernel[2] {
                    let x = sx + (tx * self.dilation[2]) as i64;
                    if (0..iw as i64).contains(&x) {
                        visit((z as usize * ih + y as usize) * iw + x as usize);
                    }
                }
            }
        }
    }

    /// How many elements of the window at `at` lie inside the padded input
    /// (the divisor of an average that counts the padding); with
    /// `past_end`, also those past the end padding (OpenVINO's CPU plugin
    /// counts a ceil_torch window's overhang, where PyTorch does not).
    pub fn padded_count(&self, at: Axes3, past_end: bool) -> usize {
        (0..3)
            .map(|axis| {
                let lo = -self.pad_begin[axis];
                let hi = if past_end {
                    i64::MAX
                } else {
                    self.input[axis] as i64 + self.pad_end[axis]
                };
                let start = (at[axis] * self.stride[axis]) as i64 - self.pad_begin[axis];
                (0..self.kernel[axis])
                    .filter(|&t| (lo..hi).contains(&(start + (t * self.dilation[axis]) as i64)))
                    .count()
            })
            .product()
    }

    /// The output position of element `k` of a plane.
    pub fn position(&self, k: usize) -> Axes3 {
        let [_, oh, ow] = self.output;
        [k / (oh * ow), (k / ow) % oh, k % ow]
    }
}
