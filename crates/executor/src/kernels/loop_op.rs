//! Loop-5: input 0 is the trip count (one integer; negative: no limit),
//! input 1 the execution condition (one boolean: false runs the body zero
//! times); the body's current-iteration Parameter gets the iteration number
//! (unless a back edge feeds it) and its condition Result decides whether
//! another iteration runs. Slicing, back edges and outputs are
//! [`super::bodies::run_iterated`]'s; the iterations are capped by
//! [`crate::Limits::max_iterations`].

use ir::{ElementType, Op, SubGraph};

use super::bodies::{run_iterated, BodyCall, Iterations};
use crate::error::ExecError;
use crate::tensor::Tensor;

pub(crate) fn run(call: &BodyCall<'_>, sub: &SubGraph) -> Result<Vec<Tensor>, ExecError> {
    let (body, runner) = call.body(sub, ir::BodyRole::Body)?;
    let trip_count = call.scalar_input(0, "Loop trip count")?;
    let initial = call.scalar_input(1, "Loop execution condition")? != 0;
    let count = if !initial {
        Some(0)
    } else {
        u64::try_from(trip_count).ok()
    };
    let current_iteration = match body.current_iteration {
        None => None,
        Some(param) => {
            let node = body
                .graph
                .graph
                .node_weight(param)
                .ok_or_else(|| call.error("the current-iteration port names no body layer"))?;
            let Op::Parameter {
                element_type,
                shape,
            } = &node.op
            else {
                return Err(call.error(format!(
                    "the current-iteration port names `{}`, not a Parameter",
                    node.name
                )));
            };
            // OpenVINO's reference gives a dynamic one the shape [1].
            let dims = shape
                .dims()
                .and_then(|d| {
                    d.iter()
                        .map(|x| x.as_constant().and_then(|c| usize::try_from(c).ok()))
                        .collect::<Option<Vec<_>>>()
                })
                .unwrap_or_else(|| vec![1]);
            let element_type = match element_type {
                ElementType::Dynamic => ElementType::I64,
                t => *t,
            };
            Some((param, element_type, dims))
        }
    };
    let plan = Iterations {
        count,
        current_iteration,
        condition: body.condition,
    };
    run_iterated(call, body, runner, &plan)
}
