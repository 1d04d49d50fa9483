//! If-8 (`reference/if.hpp`): input 0 is the condition (one boolean); the
//! chosen body runs on the inputs its port map names and its Results give
//! the outputs its port map names.

use ir::{BodyRole, SubGraph};

use super::bodies::{result_of, run_once, whole_inputs, BodyCall};
use crate::error::ExecError;
use crate::tensor::Tensor;

pub(crate) fn run(call: &BodyCall<'_>, sub: &SubGraph) -> Result<Vec<Tensor>, ExecError> {
    let role = if call.scalar_input(0, "If condition")? != 0 {
        BodyRole::Then
    } else {
        BodyRole::Else
    };
    let (body, runner) = call.body(sub, role)?;
    let results = run_once(
        call,
        body,
        runner,
        whole_inputs(call, body)?,
        call.held,
        None,
    )?;
    (0..call.node.outputs.len())
        .map(|index| {
            // Inference requires the chosen body to give every output.
            let map = body
                .outputs
                .iter()
                .find(|m| m.outer == index)
                .ok_or_else(|| {
                    call.error(format!(
                        "the {} gives no tensor for output {index}",
                        role.name()
                    ))
                })?;
            result_of(call, body, &results, map.result)
        })
        .collect()
}
