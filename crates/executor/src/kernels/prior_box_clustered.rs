//! PriorBoxClustered-1 after OpenVINO's reference: for each feature-map cell
//! (row-major) and each (width, height) pair, the box corners normalised by
//! the image size (clipped to [0, 1] under `clip`), then the variances;
//! computed in f32 as the reference.

use shape_infer::ops::prior_box_clustered::attributes;

use super::{from_f64s, Call, KResult};
use crate::tensor::Tensor;

/// The two values `[height, width]` of a size input.
pub(super) fn size_pair(call: &Call<'_>, i: usize, what: &str) -> KResult<(i64, i64)> {
    let values = super::to_f64s(call.input(i)?)?;
    match values.as_slice() {
        // Integral inputs: the f64 holds the value exactly.
        &[h, w] => Ok((h as i64, w as i64)),
        _ => Err(format!("{what} must have two values, got {}", values.len()).into()),
    }
}

/// The variances to write: none means 0.1, else one or four values.
pub(super) fn variances(v: &[f32]) -> KResult<Vec<f32>> {
    match v.len() {
        0 => Ok(vec![0.1]),
        1 | 4 => Ok(v.to_vec()),
        n => Err(format!("variance must have 0, 1 or 4 values, got {n}").into()),
    }
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let a = attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    let (layer_h, layer_w) = size_pair(call, 0, "output_size")?;
    let (img_h, img_w) = size_pair(call, 1, "image_size")?;
    let shape = call.out_shape(0)?;
    let channel = shape.get(1).copied().unwrap_or(0);
    let var = variances(&a.variances)?;
    let priors = a.widths.len();
    let cells = usize::try_from(layer_h.max(0) * layer_w.max(0)).map_err(|_| "output_size")?;
    if cells * priors * 4 != channel {
        return Err(
            format!("{cells} cells of {priors} priors do not fill {channel} values").into(),
        );
    }
    let mut step_w = if a.step_width == 0.0 {
        a.step
    } else {
        a.step_width
    };
    let mut step_h = if a.step_height == 0.0 {
        a.step
    } else {
        a.step_height
    };
    if step_w == 0.0 && step_h == 0.0 {
        step_w = img_w as f32 / layer_w as f32;
        step_h = img_h as f32 / layer_h as f32;
    }
    let (iw, ih) = (img_w as f32, img_h as f32);
    let mut out = vec![0f32; 2 * channel];
    let mut at = 0;
    for h in 0..layer_h {
        for w in 0..layer_w {
            let cx = (w as f32 + a.offset) * step_w;
            let cy = (h as f32 + a.offset) * step_h;
            for (&bw, &bh) in a.widths.iter().zip(&a.heights) {
                let mut corners = [
                    (cx - bw / 2.0) / iw,
                    (cy - bh / 2.0) / ih,
                    (cx + bw / 2.0) / iw,
                    (cy + bh / 2.0) / ih,
                ];
                if a.clip {
                    corners.iter_mut().for_each(|c| *c = c.clamp(0.0, 1.0));
                }
                out[at..at + 4].copy_from_slice(&corners);
                for j in 0..4 {
                    out[channel + at + j] = if var.len() == 1 { var[0] } else { var[j] };
                }
                at += 4;
            }
        }
    }
    let values: Vec<f64> = out.iter().map(|&v| f64::from(v)).collect();
    Ok(vec![from_f64s(call.out_type(0)?, shape, &values)?])
}
