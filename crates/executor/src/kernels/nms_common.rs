//! What the MatrixNms and MulticlassNms kernels share: a selected box, the
//! orders of OpenVINO's CPU plugin, and the three outputs.

use std::cmp::Ordering;

use shape_infer::ops::nms_common::{SelectionAttrs, SortResultType};

use super::{from_f64s, from_i128s, Call, KResult};
use crate::tensor::Tensor;

/// One selected box.
#[derive(Clone, Copy, Debug)]
pub(super) struct Detection {
    pub score: f32,
    pub batch: usize,
    pub class: usize,
    /// The box's index within its image's boxes (the order of ties).
    pub index: usize,
    /// The value of `selected_indices`.
    pub flat_index: i128,
    /// The four numbers of the box, as given.
    pub corners: [f32; 4],
}

/// Best score first; equal scores by class, then box.
pub(super) fn by_score(l: &Detection, r: &Detection) -> Ordering {
    r.score
        .total_cmp(&l.score)
        .then(l.class.cmp(&r.class))
        .then(l.index.cmp(&r.index))
}

/// The final order across batches, when `sort_result_across_batch` asks for
/// it: by score (ties: batch, class, box) or by class (then batch, best
/// score, box); `none` keeps the order.
pub(super) fn sort_across_batches(rows: &mut [Detection], attrs: &SelectionAttrs) {
    if !attrs.sort_result_across_batch {
        return;
    }
    match attrs.sort_result_type {
        SortResultType::Score => rows.sort_by(|l, r| {
            r.score
                .total_cmp(&l.score)
                .then(l.batch.cmp(&r.batch))
                .then(l.class.cmp(&r.class))
                .then(l.index.cmp(&r.index))
        }),
        SortResultType::ClassId => rows.sort_by(|l, r| {
            l.class
                .cmp(&r.class)
                .then(l.batch.cmp(&r.batch))
                .then(r.score.total_cmp(&l.score))
                .then(l.index.cmp(&r.index))
        }),
        SortResultType::None => {}
    }
}

/// `selected_outputs` `[K, 6]` (class, score, box), `selected_indices`
/// `[K, 1]` and `valid_outputs` `[B]` (the count of each image).
pub(super) fn outputs(call: &Call<'_>, rows: &[Detection], batches: usize) -> KResult<Vec<Tensor>> {
    let mut selected = Vec::with_capacity(rows.len() * 6);
    let mut indices = Vec::with_capacity(rows.len());
    let mut valid = vec![0i128; batches];
    for row in rows {
        selected.push(row.class as f64);
        selected.push(f64::from(row.score));
        selected.extend(row.corners.iter().map(|&c| f64::from(c)));
        indices.push(row.flat_index);
        valid[row.batch] += 1;
    }
    Ok(vec![
        from_f64s(call.out_type(0)?, vec![rows.len(), 6], &selected)?,
        from_i128s(call.out_type(1)?, vec![rows.len(), 1], &indices)?,
        from_i128s(call.out_type(2)?, vec![batches], &valid)?,
    ])
}

/// The attributes, read as inference checked them.
pub(super) fn attrs(call: &Call<'_>) -> KResult<SelectionAttrs> {
    SelectionAttrs::parse(&call.node.attributes).map_err(|e| e.to_string().into())
}
