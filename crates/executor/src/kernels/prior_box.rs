//! PriorBox-1/-8 after OpenVINO's reference: for each feature-map cell
//! (row-major) the fixed-size boxes (with their densities and ratios), then
//! per `min_size` its square box, its `max_size` box and the aspect-ratio
//! boxes (v8's `min_max_aspect_ratios_order` false puts the max box last);
//! corners normalised by the image size, then the variances. Computed in
//! f32 as the reference, including its integer truncations.

use shape_infer::ops::prior_box::{attributes, number_of_priors, Attrs};
use shape_infer::registry::OpsetFamily;

use super::prior_box_clustered::{size_pair, variances};
use super::{from_f64s, Call, KResult};
use crate::tensor::Tensor;

/// Box corners written in order, normalised by the image size.
struct Boxes {
    values: Vec<f32>,
    inv_w: f32,
    inv_h: f32,
}

impl Boxes {
    /// One box of half-sizes `bw`, `bh` around (cx, cy); `clip` clamps the
    /// low corner at 0 and the high one at 1.
    fn push(&mut self, cx: f32, cy: f32, bw: f32, bh: f32, clip: bool) {
        let corners = [
            (cx - bw) * self.inv_w,
            (cy - bh) * self.inv_h,
            (cx + bw) * self.inv_w,
            (cy + bh) * self.inv_h,
        ];
        if clip {
            self.values.extend([
                corners[0].max(0.0),
                corners[1].max(0.0),
                corners[2].min(1.0),
                corners[3].min(1.0),
            ]);
        } else {
            self.values.extend(corners);
        }
    }

    /// The `density²` boxes of a fixed size spread over its square.
    fn dense(&mut self, cx: f32, cy: f32, fixed: f32, density: f32, half: (f32, f32)) {
        let fixed_int = fixed as u64;
        let density = density as i64;
        if density <= 0 {
            return;
        }
        let shift = (fixed / density as f32) as i64;
        for r in 0..density {
            for c in 0..density {
                // The integer halving of the size, as the reference.
                let x = cx - (fixed_int / 2) as f32 + shift as f32 / 2.0 + (c * shift) as f32;
                let y = cy - (fixed_int / 2) as f32 + shift as f32 / 2.0 + (r * shift) as f32;
                self.push(x, y, half.0, half.1, true);
            }
        }
    }
}

/// The aspect ratios in the reference's order: 1, then each new ratio and
/// (under `flip`) its reciprocal.
fn aspect_ratios(a: &Attrs) -> Vec<f32> {
    let mut ratios = vec![1.0f32];
    for &r in &a.aspect_ratio {
        if !ratios.iter().any(|&e| (r - e).abs() < 1e-6) {
            ratios.push(r);
            if a.flip {
                ratios.push(1.0 / r);
            }
        }
    }
    ratios
}

fn is_one(r: f32) -> bool {
    (r - 1.0).abs() < 1e-6
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let version = OpsetFamily::parse(&call.node.op_type.version).map_or(1, |(_, n)| n);
    let a = attributes(&call.node.attributes, version).map_err(|e| e.to_string())?;
    let (layer_h, layer_w) = size_pair(call, 0, "output_size")?;
    let (img_h, img_w) = size_pair(call, 1, "image_size")?;
    let shape = call.out_shape(0)?;
    let channel = shape.get(1).copied().unwrap_or(0);
    let var = variances(&a.variance)?;
    let priors = usize::try_from(number_of_priors(&a)).map_err(|_| "negative prior count")?;
    let cells = usize::try_from(layer_h.max(0) * layer_w.max(0)).map_err(|_| "output_size")?;
    if cells * priors * 4 != channel {
        return Err(
            format!("{cells} cells of {priors} priors do not fill {channel} values").into(),
        );
    }
    let ratios = aspect_ratios(&a);
    let (ih, iw) = (img_h as f32, img_w as f32);
    let mut step = a.step;
    let mut min_size = a.min_size.clone();
    if !a.scale_all_sizes {
        // MXNet-like PriorBox: step and sizes relative to the image height.
        step = if step == -1.0 {
            ih / layer_h as f32
        } else {
            step * ih
        };
        min_size.iter_mut().for_each(|s| *s *= ih);
    }
    let (step_x, step_y) = if step == 0.0 {
        (iw / layer_w as f32, ih / layer_h as f32)
    } else {
        (step, step)
    };
    let mut boxes = Boxes {
        values: Vec::with_capacity(channel),
        inv_w: 1.0 / iw,
        inv_h: 1.0 / ih,
    };
    for h in 0..layer_h {
        for w in 0..layer_w {
            let (cx, cy) = if step == 0.0 {
                ((w as f32 + 0.5) * step_x, (h as f32 + 0.5) * step_y)
            } else {
                ((a.offset + w as f32) * step, (a.offset + h as f32) * step)
            };
            for (s, &fixed) in a.fixed_size.iter().enumerate() {
                let density = a
                    .density
                    .get(s)
                    .copied()
                    .ok_or("fewer densities than fixed sizes")?;
                let half = (fixed as u64) as f32 * 0.5;
                let ratio_half = |ar: f32| {
                    let ar = ar.sqrt();
                    (fixed * 0.5 * ar, fixed * 0.5 / ar)
                };
                if !a.fixed_ratio.is_empty() {
                    for &ar in &a.fixed_ratio {
                        boxes.dense(cx, cy, fixed, density, ratio_half(ar));
                    }
                } else {
                    boxes.dense(cx, cy, fixed, density, (half, half));
                    for &ar in ratios.iter().filter(|&&r| !is_one(r)) {
                        boxes.dense(cx, cy, fixed, density, ratio_half(ar));
                    }
                }
            }
            for (k, &size) in min_size.iter().enumerate() {
                boxes.push(cx, cy, size * 0.5, size * 0.5, false);
                let max_box = |boxes: &mut Boxes| {
                    if let Some(&max) = a.max_size.get(k) {
                        let half = (size * max).sqrt() * 0.5;
                        boxes.push(cx, cy, half, half, false);
                    }
                };
                let ratio_boxes = |boxes: &mut Boxes| {
                    if a.scale_all_sizes || k + 1 == min_size.len() {
                        let base = min_size[if a.scale_all_sizes { k } else { 0 }];
                        for &ar in ratios.iter().filter(|&&r| !is_one(r)) {
                            let ar = ar.sqrt();
                            boxes.push(cx, cy, base * 0.5 * ar, base * 0.5 / ar, false);
                        }
                    }
                };
                if a.min_max_aspect_ratios_order {
                    max_box(&mut boxes);
                    ratio_boxes(&mut boxes);
                } else {
                    ratio_boxes(&mut boxes);
                    max_box(&mut boxes);
                }
            }
        }
    }
    let mut out = boxes.values;
    // With fixed ratios and densities the reference writes more boxes than
    // its prior count (ratios*(d²-1) counted, ratios*d² written): the excess
    // runs into the variance half, which is then overwritten. Same result.
    out.truncate(channel);
    if out.len() != channel {
        return Err(format!(
            "the attributes give {} box values where the prior count says {channel}",
            out.len()
        )
        .into());
    }
    if a.clip {
        out.iter_mut().for_each(|v| *v = v.clamp(0.0, 1.0));
    }
    out.extend((0..channel).map(|i| if var.len() == 1 { var[0] } else { var[i % 4] }));
    let values: Vec<f64> = out.iter().map(|&v| f64::from(v)).collect();
    Ok(vec![from_f64s(call.out_type(0)?, shape, &values)?])
}
