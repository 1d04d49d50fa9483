//! MaxPool-1, -8 and -14: the maximum over each window of the spatial axes
//! of `[N, C, D…]`. Versions 8 and 14 add `dilations` and a second output,
//! the indices of the maxima (`index_element_type`, flattened from `axis`);
//! 14 adds `ceil_torch` rounding. The spatial dims come from
//! [`crate::window`] ([`pooled_shape`], shared with AvgPool).

use ir::{Dim, ElementType, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;
use crate::window::{self, Rounding, WindowAttrs, WindowKind};

pub static DEF: OpDef = OpDef {
    type_name: "MaxPool",
    versions: &[
        OpVersion::openvino(1, 1),
        OpVersion::openvino(8, 8),
        OpVersion::openvino(14, 14),
    ],
    infer,
    doc: OpDoc {
        summary: "The maximum over each window of the spatial axes (v8, v14: and the indices of the maxima).",
        attributes: "`kernel`, `strides`, `pads_begin`, `pads_end`, `auto_pad`, `rounding_type` (floor, ceil; ceil_torch from v14); v8+: `dilations`, `index_element_type` (i32, i64; default i64), `axis` (default 0)",
        symbolic: "spatial dims exact: `floor((D + pb + pe - dk)/s) + 1`, `ceil(…) + 1`, ceil_torch's `min(last + 1, max(last, ceil((D + pb)/s)))`, `ceil(D/s)` for same_* (OpenVINO leaves those `?` on dynamic dims); that the window fits is a recorded constraint when symbolic",
        errors: "`pool-rank` (data not 3-D to 5-D, a kernel of the wrong length, a zero batch or channel dim), `pool-attribute` (`axis`, `index_element_type`), `window-attribute`, `window-exceeds-input`",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let data = &call.inputs[0];
    let kind = if call.version >= 8 {
        WindowKind::DilatedPool
    } else {
        WindowKind::Pool
    };
    let shape = pooled_shape(ctx, call, kind, call.version >= 14)?;
    let values = TensorInfo::new(data.element_type, shape.clone());
    if call.version < 8 {
        return Ok(vec![values]);
    }
    let index_type = index_element_type(call)?;
    let axis = call.node.attributes.i64("axis")?.unwrap_or(0);
    if let Some(rank) = data.shape.rank() {
        support::normalize_axis(axis, rank, "`axis`").map_err(|_| {
            ShapeError::rule(
                "pool-attribute",
                format!("`axis` {axis} is out of range for rank {rank}"),
            )
        })?;
    }
    Ok(vec![values, TensorInfo::new(index_type, shape)])
}

/// The output shape of a pooling op: `[N, C]` and the pooled spatial dims
/// (`kernel` attribute, the window attributes of `kind`, `rounding_type`
/// with ceil_torch where `torch_rounding`).
pub(super) fn pooled_shape(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    kind: WindowKind,
    torch_rounding: bool,
) -> Result<Shape, ShapeError> {
    let kernel =
        call.node.attributes.i64_list("kernel")?.ok_or_else(|| {
            ShapeError::rule("window-attribute", "the `kernel` attribute is missing")
        })?;
    let rounding = Rounding::read(call.node, torch_rounding)?;
    let Some(dims) = call.inputs[0].shape.dims() else {
        return Ok(Shape::DynamicRank);
    };
    expect_pooled_rank(dims.len())?;
    let spatial = dims.len() - 2;
    if kernel.len() != spatial {
        return Err(ShapeError::rule(
            "pool-rank",
            format!(
                "`kernel` {kernel:?} has {} entries but the data has {spatial} spatial dims",
                kernel.len()
            ),
        ));
    }
    if let Some(bad) = kernel.iter().find(|&&k| k <= 0) {
        return Err(ShapeError::rule(
            "window-attribute",
            format!("`kernel` {kernel:?} has the non-positive entry {bad}"),
        ));
    }
    // OpenVINO rejects an empty batch or channel dim: a symbolic one is
    // assumed positive.
    for (axis, what) in [(0, "batch"), (1, "channel")] {
        if dims[axis].as_constant() == Some(0) {
            return Err(ShapeError::rule(
                "pool-rank",
                format!("the {what} dim is zero"),
            ));
        }
        ctx.assume(symdim::Predicate::Ge(dims[axis].clone(), Expr::one()))?;
    }
    let attrs = WindowAttrs::read(call.node, spatial, kind)?;
    let kernel: Vec<Dim> = kernel.iter().map(|&k| Expr::constant(k)).collect();
    let mut out = dims[..2].to_vec();
    out.extend(window::forward_spatial(
        ctx,
        &attrs,
        &dims[2..],
        &kernel,
        rounding,
    )?);
    Ok(Shape::ranked(out))
}

/// The `index_element_type` of the indices output (i64 by default).
pub(super) fn index_element_type(call: &OpCall<'_>) -> Result<ElementType, ShapeError> {
    support::index_type_attr(
        call,
        "index_element_type",
        ElementType::I64,
        "pool-attribute",
    )
}

/// Pooling data is 3-D to 5-D: `N`, `C` and 1 to 3 spatial dims.
pub(super) fn expect_pooled_rank(rank: usize) -> Result<(), ShapeError> {
    if (3..=5).contains(&rank) {
        return Ok(());
    }
    Err(ShapeError::rule(
        "pool-rank",
        format!("the data must be 3-D to 5-D (N, C and 1 to 3 spatial dims), got rank {rank}"),
    ))
}
