//! FakeQuantize-1 with `auto_broadcast` (numpy default, pdpd, none): each
//! range (inputs 1 to 4) is placed in the data's shape (numpy: aligned
//! right, extra leading 1s dropped) and read per element.
//!
//! OpenVINO's reference decides the regions: `x <= min(il, ih)` gives
//! `ol`, `x > max(il, ih)` gives `oh` (so `il > ih` has a quantized ramp
//! between `ih` and `il`). Between them the arithmetic is the CPU plugin's
//! (so that values next to a rounding tie land on the same level):
//! `q = round_half_even(x * isc + ish)` by one fused multiply-add, with
//! `isc = (levels - 1) / (ih - il)` and `ish = -il * (levels - 1) / (ih -
//! il)`, then `q * osc + ol` (fused) with `osc = (oh - ol) / (levels - 1)`.
//! f32, f16 and bf16 compute in f32 (as the CPU plugin), f64 in f64; the
//! ranges are read as numbers of any type.

use std::sync::atomic::{AtomicBool, Ordering};

use half::{bf16, f16};
use ir::ElementType;
use shape_infer::broadcast::Mode;
use shape_infer::ops::fake_quantize::levels;

use super::{to_f64s, unsupported, Call, KResult};
use crate::broadcast::{placed_strides, row_major_strides, run_in_bounds, Rows};
use crate::tensor::{byte_size, Element, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out = call.out_shape(0)?;
    if x.shape != out {
        return Err(format!(
            "internal: the output {out:?} is not the data's shape {:?}",
            x.shape
        )
        .into());
    }
    let levels = levels(&call.node.attributes).map_err(|e| e.to_string())?;
    let mode = Mode::from_attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    let start = match mode {
        Mode::Pdpd { axis } if axis >= 0 => Some(axis as usize),
        _ => None,
    };
    let numpy = mode == Mode::Numpy;
    let mut strides = vec![row_major_strides(&out)];
    let mut ranges = Vec::with_capacity(4);
    for i in 1..5 {
        let r = call.input(i)?;
        if mode == Mode::None && r.shape != out {
            return Err("auto_broadcast none needs equal shapes".into());
        }
        // Numpy: a range may have more dims than the data when the extra
        // leading ones are 1.
        let extra = r.shape.len().saturating_sub(out.len());
        let shape = match r.shape.split_at(extra) {
            (lead, rest) if numpy && lead.iter().all(|&d| d == 1) => rest,
            _ => &r.shape[..],
        };
        strides.push(placed_strides(shape, &out, start)?);
        ranges.push(to_f64s(r)?);
    }
    let levels_minus_one = (levels - 1) as f64;
    let tensor = match x.element_type {
        ElementType::F32 => {
            quantize::<f32, f32>(x, &out, &strides, &ranges, levels_minus_one, |v| v, |v| v)
        }
        ElementType::F16 => quantize::<f16, f32>(
            x,
            &out,
            &strides,
            &ranges,
            levels_minus_one,
            f16::to_f32,
            f16::from_f32,
        ),
        ElementType::BF16 => quantize::<bf16, f32>(
            x,
            &out,
            &strides,
            &ranges,
            levels_minus_one,
            bf16::to_f32,
            bf16::from_f32,
        ),
        ElementType::F64 => {
            quantize::<f64, f64>(x, &out, &strides, &ranges, levels_minus_one, |v| v, |v| v)
        }
        t => Err(unsupported("FakeQuantize", t)),
    }?;
    Ok(vec![tensor])
}

/// The type a FakeQuantize computes in (f32, or f64 for f64 data).
trait Calc: Copy + Send + Sync {
    fn from_f64(v: f64) -> Self;
    /// The quantization of `x` by the ranges (`l` = `levels - 1`).
    fn quantize(self, il: Self, ih: Self, ol: Self, oh: Self, l: Self) -> Self;
}

macro_rules! calc {
    ($t:ty) => {
        impl Calc for $t {
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            fn quantize(self, il: Self, ih: Self, ol: Self, oh: Self, l: Self) -> Self {
                // `std::min` and `std::max` as OpenVINO's reference.
                let (lo, hi) = if ih < il { (ih, il) } else { (il, ih) };
                if self <= lo {
                    return ol;
                }
                if self > hi {
                    return oh;
                }
                let (isc, ish) = (l / (ih - il), (-il * l) / (ih - il));
                let q = self.mul_add(isc, ish).round_ties_even();
                q.mul_add((oh - ol) / l, ol)
            }
        }
    };
}
calc!(f32);
calc!(f64);

/// Every element of `x` (stored as `T`, computed as `C`) quantized by the
/// four ranges, placed by `strides` (the data's first, then the ranges'),
/// a row at a time.
fn quantize<T: Element, C: Calc>(
    x: &Tensor,
    out: &[usize],
    strides: &[Vec<isize>],
    ranges: &[Vec<f64>],
    levels_minus_one: f64,
    to: fn(T) -> C,
    from: fn(C) -> T,
) -> KResult<Tensor> {
    byte_size(T::TYPE, out)?;
    let ranges: Vec<Vec<C>> = ranges
        .iter()
        .map(|r| r.iter().map(|&v| C::from_f64(v)).collect())
        .collect();
    let l = C::from_f64(levels_minus_one);
    let rows = Rows::new(out, &[0; 5], strides);
    let xb = x.bytes();
    let sizes = [
        x.len(),
        ranges[0].len(),
        ranges[1].len(),
        ranges[2].len(),
        ranges[3].len(),
    ];
    let outside = AtomicBool::new(false);
    let bytes = rows.fill(rows.len * T::SIZE, |offs, row| {
        let in_bounds = (0..5).all(|k| run_in_bounds(offs[k], rows.steps[k], rows.len, sizes[k]));
        if !in_bounds {
            outside.store(true, Ordering::Relaxed);
            return;
        }
        // In bounds: checked above for the whole row.
        let at = |k: usize, i: usize| (offs[k] + i as isize * rows.steps[k]) as usize;
        for (i, o) in row.chunks_exact_mut(T::SIZE).enumerate() {
            let v = to(T::read(&xb[at(0, i) * T::SIZE..][..T::SIZE]));
            let r = |k: usize| ranges[k][at(k + 1, i)];
            from(v.quantize(r(0), r(1), r(2), r(3), l)).write(o);
        }
    });
    if outside.into_inner() {
        return Err("internal: a range does not cover the output".into());
    }
    Ok(Tensor::from_bytes(T::TYPE, out.to_vec(), bytes)?)
}
