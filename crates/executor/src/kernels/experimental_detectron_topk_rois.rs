//! ExperimentalDetectronTopKROIs-6 after OpenVINO's reference: the boxes
//! sorted by decreasing probability (ties in input order), the first
//! `min(max_rois, R)` copied; rows past `R` are 0 (OpenVINO leaves them
//! unwritten).

use shape_infer::ops::experimental_detectron_topk_rois::max_rois;

use super::roi_pooling::{f32s, output};
use super::{Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let rois = f32s(call.input(0)?, "ExperimentalDetectronTopKROIs")?;
    let probs = f32s(call.input(1)?, "ExperimentalDetectronTopKROIs")?;
    if rois.len() != probs.len() * 4 {
        return Err(format!("{} boxes and {} probabilities", rois.len() / 4, probs.len()).into());
    }
    let k = max_rois(&call.node.attributes).map_err(|e| e.to_string())?;
    let mut order: Vec<usize> = (0..probs.len()).collect();
    order.sort_by(|&a, &b| probs[b].total_cmp(&probs[a]));
    let mut out = vec![0f32; k * 4];
    for (dst, &i) in out.chunks_exact_mut(4).zip(&order) {
        dst.copy_from_slice(&rois[i * 4..i * 4 + 4]);
    }
    Ok(vec![output(call, 0, &out)?])
}
