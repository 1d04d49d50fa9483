//! TensorIterator-1: the body runs once per part of its sliced inputs
//! (every sliced input must have as many parts); without a sliced input,
//! as many times as the first concatenated output's `|end - start| /
//! part_size`, as inference counts them. Slicing, back edges and outputs
//! are [`super::bodies::run_iterated`]'s.

use ir::SubGraph;

use super::bodies::{run_iterated, slice_count, BodyCall, Iterations};
use super::norm_axis;
use crate::error::ExecError;
use crate::tensor::Tensor;

pub(crate) fn run(call: &BodyCall<'_>, sub: &SubGraph) -> Result<Vec<Tensor>, ExecError> {
    let (body, runner) = call.body(sub, ir::BodyRole::Body)?;
    let mut count: Option<u64> = None;
    for map in &body.inputs {
        let Some(slice) = &map.slice else { continue };
        let input = call.input(map.outer)?;
        let axis =
            norm_axis(slice.axis, input.shape.len()).map_err(|e| super::to_exec(e, call.node))?;
        let parts = slice_count(call, slice, input.shape[axis])?;
        match count {
            Some(n) if n != parts => {
                return Err(call.error(format!(
                    "sliced inputs give different iteration counts: {n} and {parts} (input {})",
                    map.outer
                )))
            }
            _ => count = Some(parts),
        }
    }
    let count = match count {
        Some(n) => n,
        None => body
            .outputs
            .iter()
            .find_map(|o| o.concat)
            .filter(|s| s.part_size > 0)
            .map(|s| s.end.abs_diff(s.start) / s.part_size as u64)
            .ok_or_else(|| {
                call.error("no sliced input nor concatenated output gives the iteration count")
            })?,
    };
    let plan = Iterations {
        count: Some(count),
        current_iteration: None,
        condition: None,
    };
    run_iterated(call, body, runner, &plan)
}
