//! MatMul-0 (`MatMul` in the XML, opset1): matrix product with numpy-style
//! batch broadcasting.
//!
//! A 1-D operand is unsqueezed (`A: [K] -> [1, K]`, `B: [K] -> [K, 1]`,
//! its transpose flag ignored) and the added dim removed from the result;
//! `transpose_a`/`transpose_b` swap the last two dims; the batch dims
//! broadcast with [`crate::broadcast`]; the contracted dims must agree
//! (equal, or assumed `K1 == K2` when symbolic).

use ir::{Dim, Shape};
use symdim::{Expr, Predicate};

use crate::broadcast::{self, Operand};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "MatMul",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Matrix product of the last two dims, batch dims broadcast (numpy).",
        attributes: "`transpose_a`, `transpose_b` (default false)",
        symbolic: "batch dims broadcast symbolically; symbolic contracted dims are assumed equal (`K1 == K2`)",
        errors: "`matmul-scalar` for a rank-0 operand; `matmul-contracted-dim` when the contracted dims provably differ; `broadcast-incompatible` for batch dims",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let element_type = support::expect_same_type(call, 0, 1)?;
    let (ta, tb) = (
        support::bool_attr(ctx, call, "transpose_a", false),
        support::bool_attr(ctx, call, "transpose_b", false),
    );
    let (Some(da), Some(db)) = (call.inputs[0].shape.dims(), call.inputs[1].shape.dims()) else {
        return Ok(vec![TensorInfo::new(element_type, Shape::DynamicRank)]);
    };
    for (i, d) in [da, db].iter().enumerate() {
        if d.is_empty() {
            return Err(ShapeError::rule(
                "matmul-scalar",
                format!("input {i} is a scalar; MatMul needs operands of rank 1 or more"),
            ));
        }
    }
    let mut a: Vec<Dim> = da.to_vec();
    let mut b: Vec<Dim> = db.to_vec();
    let a_vec = a.len() == 1;
    let b_vec = b.len() == 1;
    if a_vec {
        a.insert(0, Expr::one());
    } else if ta {
        let n = a.len();
        a.swap(n - 2, n - 1);
    }
    if b_vec {
        b.push(Expr::one());
    } else if tb {
        let n = b.len();
        b.swap(n - 2, n - 1);
    }
    let (ra, rb) = (a.len(), b.len());
    let (k1, k2) = (&a[ra - 1], &b[rb - 2]);
    if k1 != k2 {
        let clash = (k1.is_constant() && k2.is_constant())
            || ctx.symbols.decide(&Predicate::Eq(k1.clone(), k2.clone())) == Some(false);
        if clash {
            return Err(ShapeError::rule(
                "matmul-contracted-dim",
                format!(
                    "contracted dims differ: {} (dim {} of input 0 {}{}) and {} (dim {} of input 1 {}{})",
                    ctx.symbols.display(k1),
                    if a_vec { 0 } else if ta { ra - 2 } else { ra - 1 },
                    call.inputs[0].shape.display(&ctx.symbols),
                    if ta && !a_vec { ", transposed" } else { "" },
                    ctx.symbols.display(k2),
                    if b_vec { 0 } else if tb { rb - 1 } else { rb - 2 },
                    call.inputs[1].shape.display(&ctx.symbols),
                    if tb && !b_vec { ", transposed" } else { "" },
                ),
            ));
        }
        ctx.assume(Predicate::Eq(k1.clone(), k2.clone()))?;
    }
    let batch_a = Shape::ranked(a[..ra - 2].iter().cloned());
    let batch_b = Shape::ranked(b[..rb - 2].iter().cloned());
    let batch = broadcast::numpy(
        ctx,
        Operand::new("the batch dims of input 0", &batch_a),
        Operand::new("the batch dims of input 1", &batch_b),
    )?;
    let mut out: Vec<Dim> = batch.dims().map(<[Dim]>::to_vec).unwrap_or_default();
    if !a_vec {
        out.push(a[ra - 2].clone());
    }
    if !b_vec {
        out.push(b[rb - 1].clone());
    }
    Ok(vec![TensorInfo::new(element_type, Shape::ranked(out))])
}
