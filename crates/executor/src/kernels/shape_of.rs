//! ShapeOf-1/3: the input's shape as a 1-D i64 or i32 tensor.

use ir::ElementType;

use super::{Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let shape = &call.input(0)?.shape;
    let n = vec![shape.len()];
    Ok(vec![match call.out_type(0)? {
        ElementType::I32 => Tensor::from_vec(
            n,
            shape
                .iter()
                .map(|&d| i32::try_from(d).map_err(|_| format!("dim {d} does not fit i32")))
                .collect::<Result<Vec<_>, _>>()?,
        )?,
        ElementType::I64 => Tensor::from_vec(n, shape.iter().map(|&d| d as i64).collect())?,
        t => return Err(format!("output type {t} is not i32 or i64").into()),
    }])
}
