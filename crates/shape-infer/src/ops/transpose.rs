//! Transpose-1: permutes the axes by the `order` input (empty: reversed).

use ir::{Dim, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "Transpose",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Permutes the input's axes: output dim `i` is input dim `order[i]`; an empty order reverses the axes.",
        attributes: "-",
        symbolic: "dims move symbolically; an order known only at run time gives fresh dims of the same rank",
        errors: "non-integer or non-1-D `order`, an order whose length is not the rank, an order that is not a permutation (`transpose-order`)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    support::expect_integer_input(call, 1, "order (input 1)")?;
    support::expect_rank_le1(call, 1, "order (input 1)", false)?;
    let data = &call.inputs[0];
    let Some(dims) = data.shape.dims() else {
        return Ok(vec![TensorInfo::new(data.element_type, Shape::DynamicRank)]);
    };
    let order_len = call.inputs[1]
        .shape
        .to_static()
        .and_then(|s| s.first().copied());
    if let Some(n) = order_len {
        if n != 0 && usize::try_from(n).ok() != Some(dims.len()) {
            return Err(ShapeError::rule(
                "transpose-order",
                format!(
                    "order has {n} elements but the input has rank {}",
                    dims.len()
                ),
            ));
        }
    }
    let Some(order) = support::input_ints(call, 1) else {
        let out: Vec<Dim> = (0..dims.len())
            .map(|i| {
                support::unknown_dim(
                    ctx,
                    format!("dim {i} of Transpose with an order known only at run time"),
                )
            })
            .collect();
        return Ok(vec![TensorInfo::new(data.element_type, Shape::ranked(out))]);
    };
    let out: Vec<Dim> = if order.is_empty() {
        dims.iter().rev().cloned().collect()
    } else {
        let mut seen = vec![false; dims.len()];
        let valid = order.len() == dims.len()
            && order.iter().all(|&a| {
                usize::try_from(a)
                    .ok()
                    .and_then(|a| seen.get_mut(a))
                    .is_some_and(|s| !std::mem::replace(s, true))
            });
        if !valid {
            return Err(ShapeError::rule(
                "transpose-order",
                format!(
                    "order {order:?} is not a permutation of 0..{} (the input's rank is {})",
                    dims.len(),
                    dims.len()
                ),
            ));
        }
        order.iter().map(|&a| dims[a as usize].clone()).collect()
    };
    Ok(vec![TensorInfo::new(data.element_type, Shape::ranked(out))])
}
