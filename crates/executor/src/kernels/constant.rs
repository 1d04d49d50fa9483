//! Const: a view of the weights (no copy).

use ir::Op;

use super::{Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let Op::Constant {
        element_type,
        shape,
        data,
    } = &call.node.op
    else {
        return Err("the layer is not a Const".into());
    };
    let shape = shape
        .iter()
        .map(|&d| usize::try_from(d).map_err(|_| format!("dim {d} is too large")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(vec![Tensor::new(*element_type, shape, data.clone())?])
}
