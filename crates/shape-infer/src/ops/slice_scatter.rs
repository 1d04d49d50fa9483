//! SliceScatter-15: `data` with `data[start:stop:step]` along `axes`
//! (inputs 2 to 5, as Slice-8) replaced by `updates` (input 1); the output
//! has the data's shape and type.
//!
//! The slice's shape is Slice's own rule run on `(data, start, stop, step,
//! axes)`, so the arithmetic exists once. As OpenVINO: data and updates
//! have the same rank (not 0) and element type; start, stop, step and axes
//! are 1-D integer tensors of one length, at most the rank; steps are not 0,
//! axes unique. The updates' shape is the slice's: an updates dim that
//! differs from an exact sliced length is an error (`slice-scatter-updates`)
//! or, when undecided, a recorded equality; where the slice's length is not
//! known the updates dim must not exceed the data's.

use std::cmp::Ordering;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "SliceScatter",
    versions: &[OpVersion::openvino(15, 15)],
    infer,
    doc: OpDoc {
        summary: "`data` with `data[start:stop:step]` along `axes` replaced by `updates`; the data's shape and type.",
        attributes: "-",
        symbolic: "output = data shape and type; the updates' dims merged with Slice-8's exact sliced lengths (equality recorded when undecided); where a length is unknown, `updates dim <= data dim`",
        errors: "`slice-scatter-updates` (updates' rank or a dim not the slice's), `slice-scalar-data`, `slice-step-zero`, `slice-repeated-axis`, `slice-length-mismatch`, `axis-out-of-range`, `input-rank` (start/stop/step/axes not 1-D), `element-type` (non-integer start/stop/step/axes, data and updates of different types)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(5, 6)?;
    for (i, what) in [
        (2, "start (input 2)"),
        (3, "stop (input 3)"),
        (4, "step (input 4)"),
        (5, "axes (input 5)"),
    ] {
        if i < call.inputs.len() {
            support::expect_integer_input(call, i, what)?;
            support::expect_rank_le1(call, i, what, false)?;
        }
    }
    let et = support::expect_same_type(call, 0, 1)?;
    let (data, updates) = (&call.inputs[0], &call.inputs[1]);
    let out = TensorInfo::new(et, data.shape.clone());
    if let (Some(d), Some(u)) = (data.shape.rank(), updates.shape.rank()) {
        if d != u {
            return Err(ShapeError::rule(
                "slice-scatter-updates",
                format!("the updates have rank {u}, the data rank {d}"),
            ));
        }
    }
    // Slice's rule on (data, start, stop, step, axes): the updates' shape.
    let data_shaped = TensorInfo::new(data.element_type, data.shape.clone());
    let mut slice_inputs = vec![&data_shaped];
    slice_inputs.extend(call.inputs[2..].iter().copied());
    let first_fresh = ctx.symbols.len();
    let sliced = super::slice::infer(
        ctx,
        &OpCall {
            node: call.node,
            version: 8,
            inputs: &slice_inputs,
        },
    )?;
    let (Some(expected), Some(dims), Some(data_dims)) = (
        sliced.first().and_then(|t| t.shape.dims()),
        updates.shape.dims(),
        data.shape.dims(),
    ) else {
        return Ok(vec![out]);
    };
    for (axis, (want, got)) in expected.iter().zip(dims).enumerate() {
        // A dim with a symbol Slice just made is a length it could not
        // tell: only its bound, the data's dim, applies.
        if want.symbols().iter().any(|s| s.index() >= first_fresh) {
            if ctx.symbols.compare(got, &data_dims[axis]) == Some(Ordering::Greater) {
                return Err(ShapeError::rule(
                    "slice-scatter-updates",
                    format!(
                        "axis {axis}: the updates dim {} exceeds the data's {}",
                        ctx.symbols.display(got),
                        ctx.symbols.display(&data_dims[axis])
                    ),
                ));
            }
            continue;
        }
        support::merge_equal_dims(
            ctx,
            got,
            want,
            "slice-scatter-updates",
            &format!("axis {axis}: the updates dim and the sliced length"),
        )?;
    }
    Ok(vec![out])
}
