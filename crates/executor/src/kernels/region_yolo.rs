//! RegionYolo-1 after OpenVINO's reference: per batch and region, sigmoids
//! of the box centre (x, y) and of the objectness score; YOLOv2 mode
//! (`do_softmax`) then takes a softmax over the classes at each cell, YOLOv3
//! mode (a `mask`) sigmoids the class scores instead and keeps only the
//! masked regions' channels. Computed in f64, rounded once to the type.

use shape_infer::ops::region_yolo::attributes;

use super::{from_f64s, to_f64s, unsupported, Call, KResult};
use crate::tensor::Tensor;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let t = x.element_type;
    if !t.is_real() {
        return Err(unsupported("RegionYolo", t));
    }
    let &[batches, channels, h, w] = x.shape.as_slice() else {
        return Err(format!("RegionYolo takes rank 4, not {:?}", x.shape).into());
    };
    let attrs = attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    let area = h * w;
    let per_region = attrs.classes + attrs.coords + 1;
    let regions = if attrs.do_softmax {
        attrs.regions
    } else {
        attrs.mask.len()
    };
    let used = area * regions * per_region;
    if regions * per_region > channels {
        return Err(format!(
            "{regions} regions of {per_region} channels do not fit in {channels} channels"
        )
        .into());
    }
    let input = to_f64s(x)?;
    let in_batch = channels * area;
    let out_batch = if attrs.do_softmax { in_batch } else { used };
    let mut out = Vec::with_capacity(batches * out_batch);
    for b in 0..batches {
        out.extend_from_slice(&input[b * in_batch..b * in_batch + out_batch]);
    }
    // Objectness alone (YOLOv2) or objectness and classes (YOLOv3).
    let scored = if attrs.do_softmax {
        area
    } else {
        area * (attrs.classes + 1)
    };
    for b in 0..batches {
        for n in 0..regions {
            let region = b * out_batch + n * area * per_region;
            for v in &mut out[region..region + 2 * area] {
                *v = sigmoid(*v);
            }
            let score = region + attrs.coords * area;
            for v in &mut out[score..score + scored] {
                *v = sigmoid(*v);
            }
            if attrs.do_softmax {
                let first = score + area;
                for cell in 0..area {
                    let at = |c: usize| first + c * area + cell;
                    let max = (0..attrs.classes)
                        .map(|c| out[at(c)])
                        .fold(f64::NEG_INFINITY, f64::max);
                    let sum: f64 = (0..attrs.classes).map(|c| (out[at(c)] - max).exp()).sum();
                    for c in 0..attrs.classes {
                        out[at(c)] = (out[at(c)] - max).exp() / sum;
                    }
                }
            }
        }
    }
    let shape = call.out_shape(0)?;
    Ok(vec![from_f64s(t, shape, &out)?])
}
