//! GridSample-9, after OpenVINO's reference implementation: each output
//! position `(n, c, y, x)` reads the grid's `(x_n, y_n)` at `(n, y, x)`,
//! maps it from `[-1, 1]` onto the data's width and height
//! (`align_corners`: `(v + 1) * (size - 1) / 2`, else
//! `((v + 1) * size - 1) / 2`) and interpolates there: bilinear over the
//! 2x2 neighbours, bicubic over the 4x4 (`A = -0.75`), nearest with halves
//! to even. Samples outside the data are 0 (`zeros`), the nearest border
//! sample (`border`) or the data mirrored at its borders (`reflection`:
//! about the outer edges of the border pixels, or about their centers with
//! `align_corners`); data without rows or columns reads 0. Computed in f64,
//! written in the data's type.

use shape_infer::ops::grid_sample::{modes, Mode, Padding};

use super::{from_f64s, to_f64s, Call, KResult};
use crate::tensor::{byte_size, Tensor};

/// One channel of the data and how it reads outside.
struct Plane<'a> {
    values: &'a [f64],
    height: i64,
    width: i64,
    padding: Padding,
    align_corners: bool,
}

impl Plane<'_> {
    /// The sample at integer position `(y, x)`, padded.
    fn at(&self, y: i64, x: i64) -> f64 {
        let (h, w) = (self.height, self.width);
        let (y, x) = match self.padding {
            Padding::Zeros => {
                if y < 0 || x < 0 || y >= h || x >= w {
                    return 0.0;
                }
                (y, x)
            }
            Padding::Border => (y.clamp(0, h - 1), x.clamp(0, w - 1)),
            Padding::Reflection if self.align_corners => {
                (reflect_centers(y, h), reflect_centers(x, w))
            }
            Padding::Reflection => (reflect_edges(y, h), reflect_edges(x, w)),
        };
        self.values[(y * w + x) as usize]
    }
}

/// Index `i` mirrored about the outer edges of `0` and `size - 1`.
fn reflect_edges(i: i64, size: i64) -> i64 {
    let period = size * 2;
    let i = i.rem_euclid(period);
    if i >= size {
        period - 1 - i
    } else {
        i
    }
}

/// Index `i` mirrored about `0` and `size - 1` themselves.
fn reflect_centers(i: i64, size: i64) -> i64 {
    let period = if size == 1 { 1 } else { 2 * (size - 1) };
    let i = (i.unsigned_abs() % period.unsigned_abs()) as i64;
    if i >= size {
        period - i
    } else {
        i
    }
}

/// The weights of the 4 neighbours at distance `r` from the second one.
fn cubic_weights(r: f64) -> [f64; 4] {
    const A: f64 = -0.75;
    let (r1, r2) = (r + 1.0, 2.0 - r);
    [
        ((A * r1 - 5.0 * A) * r1 + 8.0 * A) * r1 - 4.0 * A,
        ((A + 2.0) * r - (A + 3.0)) * r * r + 1.0,
        ((A + 2.0) * (1.0 - r) - (A + 3.0)) * (1.0 - r) * (1.0 - r) + 1.0,
        ((A * r2 - 5.0 * A) * r2 + 8.0 * A) * r2 - 4.0 * A,
    ]
}

/// Round half to even (C's `lrint` in the default rounding mode).
fn round_half_even(v: f64) -> i64 {
    let r = v.round();
    let r = if (v - v.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - v.signum()
    } else {
        r
    };
    r as i64
}

/// Interpolates `plane` at the denormalized position `(y, x)`.
fn sample(plane: &Plane<'_>, mode: Mode, y: f64, x: f64) -> f64 {
    match mode {
        Mode::Nearest => plane.at(round_half_even(y), round_half_even(x)),
        Mode::Bilinear => {
            let (y0, x0) = (y.floor(), x.floor());
            let (dy, dx) = (y - y0, x - x0);
            let (y0, x0) = (y0 as i64, x0 as i64);
            // Saturating: an infinite grid value must not overflow.
            let (y1, x1) = (y0.saturating_add(1), x0.saturating_add(1));
            let q0 = (1.0 - dx) * plane.at(y0, x0) + dx * plane.at(y0, x1);
            let q1 = (1.0 - dx) * plane.at(y1, x0) + dx * plane.at(y1, x1);
            dy * q1 + (1.0 - dy) * q0
        }
        Mode::Bicubic => {
            let (y0, x0) = (y.floor(), x.floor());
            let (wy, wx) = (cubic_weights(y - y0), cubic_weights(x - x0));
            let (y0, x0) = ((y0 as i64).saturating_sub(1), (x0 as i64).saturating_sub(1));
            let mut sum = 0.0;
            for (j, wy) in (0i64..).zip(wy) {
                let row: f64 = (0i64..)
                    .zip(wx)
                    .map(|(i, wx)| wx * plane.at(y0.saturating_add(j), x0.saturating_add(i)))
                    .sum();
                sum += wy * row;
            }
            sum
        }
    }
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let data = call.input(0)?;
    let grid = call.input(1)?;
    let (&[n, c, h, w], &[gn, h_out, w_out, two]) = (data.shape.as_slice(), grid.shape.as_slice())
    else {
        return Err(format!(
            "data {:?} and grid {:?} must both be 4-D",
            data.shape, grid.shape
        )
        .into());
    };
    if gn != n || two != 2 {
        return Err(format!(
            "grid {:?} does not fit [N, H_out, W_out, 2] for data {:?}",
            grid.shape, data.shape
        )
        .into());
    }
    let (mode, padding) = modes(&call.node.attributes).map_err(|e| e.to_string())?;
    let align_corners = call.attr_bool("align_corners", false);
    let values = to_f64s(data)?;
    let points = to_f64s(grid)?;
    let denormalize = |v: f64, size: usize| {
        let size = size as f64;
        if align_corners {
            (v + 1.0) * (size - 1.0) / 2.0
        } else {
            ((v + 1.0) * size - 1.0) / 2.0
        }
    };
    let shape = vec![n, c, h_out, w_out];
    byte_size(data.element_type, &shape)?;
    let mut out = Vec::with_capacity(n * c * h_out * w_out);
    for b in 0..n {
        for ch in 0..c {
            let start = (b * c + ch) * h * w;
            let plane = Plane {
                values: &values[start..start + h * w],
                height: h as i64,
                width: w as i64,
                padding,
                align_corners,
            };
            for p in 0..h_out * w_out {
                let at = (b * h_out * w_out + p) * 2;
                let x = denormalize(points[at], w);
                let y = denormalize(points[at + 1], h);
                out.push(if h == 0 || w == 0 {
                    0.0
                } else {
                    sample(&plane, mode, y, x)
                });
            }
        }
    }
    Ok(vec![from_f64s(data.element_type, shape, &out)?])
}
