//! Select-1: `cond ? then : else` with the spec's two-step broadcast.
//!
//! The output shape is inference's; each operand is placed in it: numpy
//! aligns `then`, `else` and (one-way) `cond` right; pdpd keeps `then` as the
//! base and places `else` and `cond` at the pdpd axis; none needs equal shapes.
//! Elements are copied as raw bytes (any element type).

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};

use ir::ElementType;
use shape_infer::broadcast::Mode;

use super::{Call, KResult};
use crate::broadcast::{placed_strides, run_in_bounds, Rows};
use crate::tensor::{byte_size, element_width, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (cond, then, els) = (call.input(0)?, call.input(1)?, call.input(2)?);
    let out = call.out_shape(0)?;
    let mode = Mode::from_attributes(&call.node.attributes).map_err(|e| e.to_string())?;
    let start = match mode {
        Mode::Pdpd { axis } if axis >= 0 => Some(axis as usize),
        _ => None,
    };
    if mode == Mode::None && (cond.shape != out || then.shape != out || els.shape != out) {
        return Err("auto_broadcast none needs equal shapes".into());
    }
    let strides = vec![
        placed_strides(&cond.shape, &out, start)?,
        placed_strides(&then.shape, &out, None)?,
        placed_strides(&els.shape, &out, start)?,
    ];
    // One byte per condition element: a boolean's own bytes, else its mask.
    let mask: Cow<[u8]> = if cond.element_type == ElementType::Boolean {
        Cow::Borrowed(cond.bytes())
    } else {
        Cow::Owned(cond.nonzero_mask()?.into_iter().map(u8::from).collect())
    };
    let w = element_width(then.element_type)?;
    if then.element_type != els.element_type {
        return Err(format!("then is {}, else {}", then.element_type, els.element_type).into());
    }
    byte_size(then.element_type, &out)?;
    let rows = Rows::new(&out, &[0, 0, 0], &strides);
    let sizes = [mask.len(), then.len(), els.len()];
    let (tb, eb) = (then.bytes(), els.bytes());
    let outside = AtomicBool::new(false);
    let bytes = rows.fill(rows.len * w, |offs, row| {
        let in_bounds = (0..3).all(|k| run_in_bounds(offs[k], rows.steps[k], rows.len, sizes[k]));
        if !in_bounds {
            outside.store(true, Ordering::Relaxed);
            return;
        }
        let run = Run {
            mask: &mask,
            then: tb,
            els: eb,
            offs,
            steps: &rows.steps,
        };
        match w {
            1 => run.select::<1>(row),
            2 => run.select::<2>(row),
            4 => run.select::<4>(row),
            8 => run.select::<8>(row),
            _ => run.select_any(w, row),
        }
    });
    if outside.into_inner() {
        return Err("internal: an operand does not cover the output".into());
    }
    Ok(vec![Tensor::from_bytes(then.element_type, out, bytes)?])
}

/// One output row: the operands, their offsets at the row's start and their
/// steps along it (checked in bounds for the whole row).
struct Run<'a> {
    mask: &'a [u8],
    then: &'a [u8],
    els: &'a [u8],
    offs: &'a [isize],
    steps: &'a [isize],
}

impl Run<'_> {
    /// The condition, and the element index in then or else, at `k`.
    #[inline(always)]
    fn pick(&self, k: isize) -> (bool, usize) {
        let at = |i: usize| (self.offs[i] + k * self.steps[i]) as usize;
        let c = self.mask[at(0)] != 0;
        (c, if c { at(1) } else { at(2) })
    }

    /// A row under one condition element (a condition broadcast along the
    /// row) is a copy of one operand's row: true when done so.
    fn uniform(&self, w: usize, row: &mut [u8]) -> bool {
        if self.steps[0] != 0 {
            return false;
        }
        let (src, first, step) = if self.mask[self.offs[0] as usize] != 0 {
            (self.then, self.offs[1], self.steps[1])
        } else {
            (self.els, self.offs[2], self.steps[2])
        };
        if step == 1 {
            let at = first as usize * w;
            row.copy_from_slice(&src[at..at + row.len()]);
        } else {
            for (k, o) in (0..).zip(row.chunks_exact_mut(w)) {
                let at = (first + k * step) as usize * w;
                o.copy_from_slice(&src[at..at + w]);
            }
        }
        true
    }

    fn select<const W: usize>(&self, row: &mut [u8]) {
        if self.uniform(W, row) {
            return;
        }
        if self.steps == [1, 1, 1] {
            // The common same-shape case: plain zipped slices.
            let n = row.len() / W;
            let (c0, t0, e0) = (
                self.offs[0] as usize,
                self.offs[1] as usize,
                self.offs[2] as usize,
            );
            let mask = &self.mask[c0..c0 + n];
            let then = self.then[t0 * W..(t0 + n) * W].chunks_exact(W);
            let els = self.els[e0 * W..(e0 + n) * W].chunks_exact(W);
            for (((o, &c), t), e) in row.chunks_exact_mut(W).zip(mask).zip(then).zip(els) {
                o.copy_from_slice(if c != 0 { t } else { e });
            }
            return;
        }
        for (k, o) in (0..).zip(row.chunks_exact_mut(W)) {
            let (c, i) = self.pick(k);
            let src = if c { self.then } else { self.els };
            o.copy_from_slice(&src[i * W..i * W + W]);
        }
    }

    fn select_any(&self, w: usize, row: &mut [u8]) {
        if self.uniform(w, row) {
            return;
        }
        for (k, o) in (0..).zip(row.chunks_exact_mut(w)) {
            let (c, i) = self.pick(k);
            let src = if c { self.then } else { self.els };
            o.copy_from_slice(&src[i * w..i * w + w]);
        }
    }
}
