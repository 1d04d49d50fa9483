//! NonZero-3: the indices of the nonzero elements, one row per input axis:
//! output `[rank, nz]` with `nz` only known at run time.

use ir::{ElementType, Shape};
use symdim::Expr;

use super::support::{data_dependent_count, element_count, nonzero_positions};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "NonZero",
    versions: &[OpVersion::openvino(3, 3)],
    infer,
    doc: OpDoc {
        summary: "The indices of the nonzero elements of the input, as a `[rank, count]` tensor.",
        attributes: "`output_type` (`i32` or `i64`, default `i64`)",
        symbolic: "`[r, nz]` with `nz` a fresh symbol `nz ∈ [0, numel]` created by the layer (symbolic upper bound the element count, e.g. `N*S`); static when the input's value is known; a scalar gives `[c, c]` with `c ∈ [0, 1]` (OpenVINO: `[1, 1]` or `[0, 0]`); unknown rank gives two fresh symbols",
        errors: "`non-zero-output-type` (`output_type` not `i32`/`i64`)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let output_type = match call.node.attributes.get("output_type") {
        None => ElementType::I64,
        Some(text) => match ElementType::parse(text.trim()) {
            Some(t @ (ElementType::I32 | ElementType::I64)) => t,
            _ => {
                return Err(ShapeError::rule(
                    "non-zero-output-type",
                    format!("`output_type` must be i32 or i64, got \"{text}\""),
                ))
            }
        },
    };
    let input = &call.inputs[0];
    // Known elements: integer values, or a small float constant's.
    let positions = input
        .value
        .as_deref()
        .and_then(nonzero_positions)
        .or_else(|| {
            input.real_value().map(|v| {
                v.iter()
                    .enumerate()
                    .filter(|(_, x)| **x != 0.0)
                    .map(|(i, _)| i)
                    .collect()
            })
        });
    let known_len = input
        .value
        .as_ref()
        .map(Vec::len)
        .or(input.real_value().map(<[f64]>::len));
    let shape = match &input.shape {
        Shape::DynamicRank => {
            let rank = ctx.fresh_symbol(
                symdim::Interval::new(Some(0), None),
                "rank of the input of NonZero (unknown rank)",
            );
            let count = data_dependent_count(ctx, call, None, "count of nonzero elements")?;
            Shape::ranked([Expr::symbol(rank), count])
        }
        Shape::Ranked(dims) if dims.is_empty() => {
            // OpenVINO: `[1, 1]` for a nonzero scalar, `[0, 0]` for zero.
            let c = match positions.as_ref().filter(|p| p.len() <= 1) {
                Some(p) => Expr::constant(i64::from(!p.is_empty())),
                None => data_dependent_count(
                    ctx,
                    call,
                    Some(&Expr::one()),
                    "whether the scalar input of NonZero is nonzero",
                )?,
            };
            Shape::ranked([c.clone(), c])
        }
        Shape::Ranked(dims) => {
            let numel = element_count(dims)?;
            let rank = Expr::constant(i64::try_from(dims.len()).unwrap_or(i64::MAX));
            let known = positions
                .as_ref()
                .filter(|_| numel.as_constant() == known_len.map(|n| n as i64));
            let count = match known {
                Some(p) => Expr::constant(i64::try_from(p.len()).unwrap_or(i64::MAX)),
                None => data_dependent_count(ctx, call, Some(&numel), "count of nonzero elements")?,
            };
            Shape::ranked([rank, count])
        }
    };
    let mut output = TensorInfo::new(output_type, shape);
    if let (Some(p), Some(dims)) = (&positions, input.shape.to_static()) {
        if let Some(values) = indices(p, &dims) {
            output = output.with_value(values);
        }
    }
    Ok(vec![output])
}

/// NonZero's output value for a known input: row `a` holds coordinate `a` of
/// every nonzero position (row-major). `None` for a scalar (its row count is
/// not its rank) or a large output.
fn indices(positions: &[usize], dims: &[i64]) -> Option<Vec<Expr>> {
    let rank = dims.len();
    if rank == 0 || rank.checked_mul(positions.len())? as u64 > super::constant::MAX_VALUE_ELEMENTS
    {
        return None;
    }
    let mut out = Vec::with_capacity(rank * positions.len());
    for a in 0..rank {
        let inner = dims[a + 1..]
            .iter()
            .try_fold(1i64, |acc, &d| acc.checked_mul(d))?;
        let dim = dims[a];
        if inner <= 0 || dim <= 0 {
            return None;
        }
        for &p in positions {
            let p = i64::try_from(p).ok()?;
            out.push(Expr::constant((p / inner) % dim));
        }
    }
    Some(out)
}
