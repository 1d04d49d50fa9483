//! FakeConvert-13, as OpenVINO's CPU plugin computes it (measured bit for
//! bit on its goldens; its reference differs in the f8e4m3 subnormals and
//! the last bit of the division): `y = x * scale - shift` (in f32, rounded
//! to bf16 for bf16 data) is rounded to f16 (to nearest even), then to the
//! 8-bit float `destination_type` (to nearest even, subnormals included,
//! saturated at ±448 for f8e4m3 and ±57344 for f8e5m2, NaN becoming the
//! negative limit), and brought back as
//! `(y + shift) * (1 / scale)` (for bf16 data the reciprocal rounded to
//! bf16), rounded to the data's type. `scale` and `shift` (default 0) broadcast
//! numpy-style into the data.

use half::{bf16, f16};
use ir::ElementType;

use super::{from_f64s, to_f64s, unsupported, Call, KResult};
use crate::broadcast::{placed_strides, walk};
use crate::packed::{SmallFloat, E4M3, E5M2};
use crate::tensor::Tensor;

/// The value of `format` nearest to `v` (ties to even, subnormals
/// included), saturated at ±max (infinities too); NaN gives -max (as the
/// CPU plugin).
fn saturate(format: SmallFloat, v: f64) -> f64 {
    if v.is_nan() {
        return -format.max;
    }
    format.round_to_grid(v.clamp(-format.max, format.max))
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let t = x.element_type;
    // The rounding of an intermediate result: bf16 data is computed in bf16,
    // f16 data in f32 (the CPU plugin converts it under an f32 inference
    // precision) and rounded once at the end.
    let round: fn(f32) -> f32 = match t {
        ElementType::F32 | ElementType::F16 => |v| v,
        ElementType::BF16 => |v| bf16::from_f32(v).to_f32(),
        _ => return Err(unsupported("FakeConvert", t)),
    };
    let format = match call.node.attributes.get("destination_type").map(str::trim) {
        Some("f8e4m3") => E4M3,
        Some("f8e5m2") => E5M2,
        other => return Err(format!("destination_type {other:?} is not f8e4m3 or f8e5m2").into()),
    };
    let scale = call.input(1)?;
    let shift = call.inputs.get(2);
    let reals = |t: &Tensor| -> KResult<Vec<f32>> {
        Ok(to_f64s(t)?.into_iter().map(|v| v as f32).collect())
    };
    let data = reals(x)?;
    let scales = reals(scale)?;
    let shifts = match shift {
        Some(s) => reals(s)?,
        None => vec![0.0; scales.len()],
    };
    let shift_shape = shift.map_or(&scale.shape, |s| &s.shape);
    let strides = [
        placed_strides(&x.shape, &x.shape, None)?,
        placed_strides(&scale.shape, &x.shape, None)?,
        placed_strides(shift_shape, &x.shape, None)?,
    ];
    let mut out = Vec::with_capacity(data.len());
    walk(&x.shape, &[0, 0, 0], &strides, |at| {
        let (v, s, o) = (data[at[0]], scales[at[1]], shifts[at[2]]);
        let scaled = f16::from_f32(round(v * s - o)).to_f64();
        let f8 = saturate(format, scaled) as f32;
        out.push(f64::from(round((f8 + o) * round(1.0 / s))));
    });
    Ok(vec![from_f64s(t, x.shape.clone(), &out)?])
}
