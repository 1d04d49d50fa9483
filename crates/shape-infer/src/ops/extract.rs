//! Extract-1 of the project's opset (`type="Extract" version="ovir1"`):
//! `jax.numpy.extract(condition, arr, *, size=None, fill_value=0)`. Not an
//! OpenVINO op; see `docs/project-opset.md`.
//!
//! Input 0 is the condition (any element type, nonzero is true), input 1 the
//! array, in jax's argument order. Both are flattened and truncated to the
//! shorter; the output is 1-D with arr's element type. With `size` it is
//! `[size]`, right-padded with `fill_value` (or truncated to `size`).

use ir::{ElementType, Shape};
use symdim::Expr;

use super::compress::{kept_positions, upper_bound};
use super::support::{data_dependent_count, element_count};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Extract",
    versions: super::SINCE_OVIR1,
    infer,
    doc: OpDoc {
        summary: "Project op (`ovir1`, `jax.numpy.extract`): the elements of the flattened array (input 1) whose flattened condition (input 0) is nonzero, both truncated to the shorter; 1-D.",
        attributes: "`size` (optional, >= 0: static output length, padded or truncated), `fill_value` (optional, default 0, of arr's element type: the padding)",
        symbolic: "with `size`: `[size]`; else `[c]` with `c` the count of nonzero condition values among the first `min(numel(cond), numel(arr))`: static when the condition is a known constant, else a fresh symbol `c ∈ [0, min(numel(cond), numel(arr))]` created by the layer (symbolic upper bound kept)",
        errors: "`extract-size` (negative `size`), `extract-fill-value` (a `fill_value` that is not a value of arr's element type); warning `extract-fill-value-unused` (`fill_value` without `size`)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let (cond, arr) = (&call.inputs[0], &call.inputs[1]);
    let attributes = &call.node.attributes;
    let size = attributes.i64("size")?;
    if let Some(size) = size.filter(|&s| s < 0) {
        return Err(ShapeError::rule(
            "extract-size",
            format!("`size` must be 0 or more, got {size}"),
        ));
    }
    let fill = match attributes.get("fill_value") {
        Some(text) => Some(parse_fill(text, arr.element_type)?),
        None => None,
    };
    if fill.is_some() && size.is_none() {
        ctx.warn(
            "extract-fill-value-unused",
            "`fill_value` is set but `size` is not: there is no padding to fill",
        );
    }

    let numel = |t: &TensorInfo| match &t.shape {
        Shape::Ranked(dims) => element_count(dims).map(Some),
        Shape::DynamicRank => Ok(None),
    };
    let (cond_len, arr_len) = (numel(cond)?, numel(arr)?);
    // The condition only counts up to arr's length.
    let positions = kept_positions(ctx, cond, arr_len.as_ref());
    let selected = || -> Option<Vec<Expr>> {
        let values = arr.value.as_ref()?;
        positions
            .as_ref()?
            .iter()
            .map(|&i| values.get(i).cloned())
            .collect()
    };

    let output = if let Some(size) = size {
        let tensor = TensorInfo::new(arr.element_type, Shape::ranked([Expr::constant(size)]));
        // Padding with a known integer fill; values only for small outputs.
        let padded = match (selected(), fill.unwrap_or(Fill::Int(0))) {
            (Some(mut v), Fill::Int(f))
                if u64::try_from(size).is_ok_and(|s| s <= super::constant::MAX_VALUE_ELEMENTS) =>
            {
                let size = usize::try_from(size).unwrap_or(0);
                v.truncate(size);
                v.resize(size, Expr::constant(f));
                Some(v)
            }
            _ => None,
        };
        tensor.with_value(padded)
    } else {
        let count = match &positions {
            Some(p) => Expr::constant(i64::try_from(p.len()).unwrap_or(i64::MAX)),
            None => {
                let upper = upper_bound(ctx, cond, cond_len.as_ref(), arr_len.as_ref())?;
                data_dependent_count(
                    ctx,
                    call,
                    upper.as_ref(),
                    "count of nonzero condition values kept by Extract",
                )?
            }
        };
        let tensor = TensorInfo::new(arr.element_type, Shape::ranked([count]));
        tensor.with_value(selected())
    };
    Ok(vec![output])
}

/// A parsed `fill_value`.
#[derive(Debug, Clone, Copy)]
enum Fill {
    Int(i64),
    Real,
}

/// Reads `fill_value` as a value of arr's element type: an integer for
/// integer types, a number for real types, `true`/`false`/`0`/`1` for
/// boolean; any number when the type is unknown.
fn parse_fill(text: &str, element_type: ElementType) -> Result<Fill, ShapeError> {
    let text = text.trim();
    let int = text.parse::<i64>().ok();
    let fill = if element_type == ElementType::Boolean {
        match text {
            "true" | "1" => Some(Fill::Int(1)),
            "false" | "0" => Some(Fill::Int(0)),
            _ => None,
        }
    } else if element_type.is_integral() {
        int.map(Fill::Int)
    } else {
        match int {
            Some(i) => Some(Fill::Int(i)),
            None => text
                .parse::<f64>()
                .ok()
                .filter(|_| element_type.is_real() || !element_type.is_static())
                .map(|_| Fill::Real),
        }
    };
    fill.ok_or_else(|| {
        ShapeError::rule(
            "extract-fill-value",
            format!("`fill_value` \"{text}\" is not a value of arr's element type {element_type}"),
        )
    })
}
