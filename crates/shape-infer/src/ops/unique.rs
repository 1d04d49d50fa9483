//! Unique-10: the unique elements of the data (flattened), or its unique
//! slices along `axis` (optional input 1, which must be known), sorted or
//! in order of first occurrence. Four outputs: the unique values, the index
//! of each one's first occurrence, each input element's (slice's) index in
//! the unique values, and each one's count.

use ir::{Dim, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Unique",
    versions: &[OpVersion::openvino(10, 10)],
    infer,
    doc: OpDoc {
        summary: "The unique elements of the flattened data, or its unique slices along `axis` (optional input 1), sorted or in order of first occurrence; also the first-occurrence indices, each element's index among the unique ones and the counts.",
        attributes: "`sorted` (boolean, default true), `index_element_type` and `count_element_type` (`i32` or `i64`, default `i64`)",
        symbolic: "the unique count is a fresh symbol `u ∈ [0, numel]` (flattened) or `u ∈ [0, dim(axis)]` created by the layer (its symbolic bound kept); outputs `[u]` or the data's shape with `u` at `axis`, `[u]`, `[numel]` or `[dim(axis)]`, `[u]`; a scalar or one-element input gives `u = 1`, known values give the exact count",
        errors: "`unique-axis` (the axis input unknown, not a scalar or one-element tensor), `axis-out-of-range`, `element-type` (axis not i32/i64), `attribute-invalid` (an index type not i32/i64)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 2)?;
    support::bool_attr(ctx, call, "sorted", true);
    let index_type = support::index_type_attr(
        call,
        "index_element_type",
        ir::ElementType::I64,
        "attribute-invalid",
    )?;
    let count_type = support::index_type_attr(
        call,
        "count_element_type",
        ir::ElementType::I64,
        "attribute-invalid",
    )?;
    let data = &call.inputs[0];
    let axis = if call.inputs.len() == 2 {
        support::expect_index_input(call, 1, "'axis' (input 1)")?;
        let axis = support::scalar_int_input(call, 1, "'axis' (input 1)")
            .map_err(|e| ShapeError::rule("unique-axis", e.to_string()))?;
        Some(axis.ok_or_else(|| {
            ShapeError::rule(
                "unique-axis",
                "the 'axis' input (1) must be known (OpenVINO takes only a Constant)",
            )
        })?)
    } else {
        None
    };
    let et = data.element_type;
    let Some(dims) = data.shape.dims() else {
        let u = support::data_dependent_count(ctx, call, None, "count of unique elements")?;
        let n = support::unknown_dim(ctx, "element count of the input of Unique (unknown rank)");
        let values = match axis {
            Some(_) => Shape::DynamicRank,
            None => Shape::ranked([u.clone()]),
        };
        return Ok(outputs(et, values, &u, n, index_type, count_type));
    };
    let (slices, axis) = match axis {
        Some(a) => {
            let a = support::normalize_axis(a, dims.len(), "Unique's axis")?;
            (dims[a].clone(), Some(a))
        }
        None => (support::element_count(dims)?, None),
    };
    let u = match known_unique_count(data, axis) {
        Some(c) => Expr::constant(c),
        None if dims.is_empty() => Expr::one(),
        None => unique_count(ctx, call, &slices)?,
    };
    let values = match axis {
        Some(a) => {
            let mut out = dims.to_vec();
            out[a] = u.clone();
            Shape::ranked(out)
        }
        None => Shape::ranked([u.clone()]),
    };
    Ok(outputs(et, values, &u, slices, index_type, count_type))
}

fn outputs(
    et: ir::ElementType,
    values: Shape,
    u: &Dim,
    slices: Dim,
    index_type: ir::ElementType,
    count_type: ir::ElementType,
) -> Vec<TensorInfo> {
    vec![
        TensorInfo::new(et, values),
        TensorInfo::new(index_type, Shape::ranked([u.clone()])),
        TensorInfo::new(index_type, Shape::ranked([slices])),
        TensorInfo::new(count_type, Shape::ranked([u.clone()])),
    ]
}

/// The number of unique slices among `slices` (0 or 1 of them are exactly
/// that many), else a fresh symbol bounded by it.
fn unique_count(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    slices: &Dim,
) -> Result<Dim, ShapeError> {
    let b = ctx.symbols.bounds(slices)?;
    if b.hi.is_some_and(|h| h <= 1) && b.lo == b.hi {
        return Ok(slices.clone());
    }
    support::data_dependent_count(ctx, call, Some(slices), "count of unique elements")
}

/// The exact unique count of data whose values are known (integers, or a
/// float constant's), along `axis` or flattened.
fn known_unique_count(data: &TensorInfo, axis: Option<usize>) -> Option<i64> {
    let dims = support::static_dims(data.shape.dims()?)?;
    let keys: Vec<u64> = match (&data.value, data.real_value()) {
        (Some(v), _) => v
            .iter()
            .map(|d| d.as_constant().map(|c| c as u64))
            .collect::<Option<_>>()?,
        (None, Some(r)) => r
            .iter()
            .map(|x| if *x == 0.0 { 0 } else { x.to_bits() })
            .collect(),
        _ => return None,
    };
    if keys.len() != dims.iter().product::<usize>() {
        return None;
    }
    let (outer, len, inner) = match axis {
        Some(a) => (
            dims[..a].iter().product::<usize>(),
            dims[a],
            dims[a + 1..].iter().product::<usize>(),
        ),
        None => (1, keys.len(), 1),
    };
    let slice = |k: usize| -> Vec<u64> {
        (0..outer)
            .flat_map(|o| (0..inner).map(move |i| (o * len + k) * inner + i))
            .map(|j| keys[j])
            .collect()
    };
    let mut seen = std::collections::BTreeSet::new();
    for k in 0..len {
        seen.insert(slice(k));
    }
    i64::try_from(seen.len()).ok()
}
