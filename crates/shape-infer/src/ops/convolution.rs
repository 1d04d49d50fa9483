//! Convolution-1: `[N, C_in, D1, …]` convolved with filters
//! `[C_out, C_in, K1, …]` gives `[N, C_out, O1, …]`.
//!
//! The spatial dims come from [`crate::window`] (explicit pads, `same_*`,
//! `valid`; strides, dilations); the filter's spatial dims may be symbolic.
//! The data's channels must equal the filter's input channels (a recorded
//! constraint when symbolic). GroupConvolution shares this rule with a
//! grouped filter layout ([`forward`]).

use ir::{Dim, Shape};
use symdim::{Expr, Interval};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;
use crate::window::{self, Rounding, WindowAttrs, WindowKind};

pub static DEF: OpDef = OpDef {
    type_name: "Convolution",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "N-d convolution of `[N, C_in, D…]` with filters `[C_out, C_in, K…]`.",
        attributes: "`strides`, `dilations`, `pads_begin`, `pads_end`, `auto_pad` (explicit, notset, same_upper, same_lower, valid)",
        symbolic: "spatial dims are exact expressions of the input and kernel dims: `floor((D + pb + pe - d*(K - 1) - 1)/s) + 1`, `ceil(D/s)` for same_*; that the dilated kernel fits the padded input is a recorded constraint when symbolic; channels merge (a constraint when symbolic)",
        errors: "`conv-rank` (data not 3-D to 5-D, filter rank not data rank), `conv-channels` (input channels differ), `window-attribute` (attribute lengths, zero strides or dilations), `window-exceeds-input`, `element-type`",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    forward(ctx, call, Layout::Plain)
}

/// How the filter's leading dims are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Layout {
    /// `[C_out, C_in, K…]`.
    Plain,
    /// `[G, C_out/G, C_in/G, K…]` (GroupConvolution).
    Grouped,
}

impl Layout {
    /// The number of filter dims before the spatial ones.
    fn lead(self) -> usize {
        match self {
            Layout::Plain => 2,
            Layout::Grouped => 3,
        }
    }
}

/// The output of a forward convolution (Convolution, GroupConvolution).
pub(super) fn forward(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    layout: Layout,
) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    let element_type = support::expect_same_type(call, 0, 1)?;
    let shape = forward_shape(ctx, call, layout)?;
    Ok(vec![TensorInfo::new(element_type, shape)])
}

/// The output shape of a forward convolution of the data (input 0) and the
/// filters (input 1), whatever their element types (BinaryConvolution's
/// filters are u1).
pub(super) fn forward_shape(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    layout: Layout,
) -> Result<Shape, ShapeError> {
    let (data, filter) = (&call.inputs[0].shape, &call.inputs[1].shape);
    let Some(spatial) = spatial_rank(call, layout)? else {
        return Ok(Shape::DynamicRank);
    };
    let attrs = WindowAttrs::read(call.node, spatial, WindowKind::Convolution)?;
    let data = known_dims(ctx, data, spatial + 2, "data");
    let filter = known_dims(ctx, filter, spatial + layout.lead(), "filter");
    let out_channels = match layout {
        Layout::Plain => {
            support::merge_equal_dims(
                ctx,
                &data[1],
                &filter[1],
                "conv-channels",
                "the data's channels (dim 1) and the filter's input channels (dim 1)",
            )?;
            filter[0].clone()
        }
        Layout::Grouped => {
            let groups_in = filter[0].mul(&filter[2])?;
            support::merge_equal_dims(
                ctx,
                &data[1],
                &groups_in,
                "conv-channels",
                "the data's channels (dim 1) and groups times the filter's input channels (dims 0 and 2)",
            )?;
            filter[0].mul(&filter[1])?
        }
    };
    let kernel = &filter[layout.lead()..];
    let mut out = vec![data[0].clone(), out_channels];
    out.extend(window::forward_spatial(
        ctx,
        &attrs,
        &data[2..],
        kernel,
        Rounding::Floor,
    )?);
    Ok(Shape::ranked(out))
}

/// The number of spatial axes: from the data's rank, else the filter's, else
/// the attributes (as OpenVINO); the data must be 3-D to 5-D and the filter
/// of the matching rank.
pub(super) fn spatial_rank(call: &OpCall<'_>, layout: Layout) -> Result<Option<usize>, ShapeError> {
    let (data, filter) = (call.inputs[0].shape.rank(), call.inputs[1].shape.rank());
    if let Some(r) = data.filter(|r| !(3..=5).contains(r)) {
        return Err(ShapeError::rule(
            "conv-rank",
            format!("the data must be 3-D to 5-D (N, C and 1 to 3 spatial dims), got rank {r}"),
        ));
    }
    let from_filter = filter.map(|r| r.checked_sub(layout.lead()));
    match (data, from_filter) {
        (Some(d), Some(f)) if f != Some(d - 2) => Err(ShapeError::rule(
            "conv-rank",
            format!(
                "the filter has rank {} but data of rank {d} needs rank {}",
                filter.unwrap_or(0),
                d - 2 + layout.lead()
            ),
        )),
        (Some(d), _) => Ok(Some(d - 2)),
        (None, Some(Some(f))) if (1..=3).contains(&f) => Ok(Some(f)),
        (None, Some(_)) => Err(ShapeError::rule(
            "conv-rank",
            format!(
                "the filter's rank {} has no 1 to 3 spatial dims",
                filter.unwrap_or(0)
            ),
        )),
        (None, None) => Ok(call
            .node
            .attributes
            .i64_list("strides")?
            .filter(|s| !s.is_empty())
            .map(|s| s.len())),
    }
}

/// The dims of a shape of known rank `rank`, or fresh symbols (positive for
/// the filter: a kernel is at least 1) where the rank is unknown.
pub(super) fn known_dims(
    ctx: &mut InferContext,
    shape: &Shape,
    rank: usize,
    what: &str,
) -> Vec<Dim> {
    match shape.dims() {
        Some(d) => d.to_vec(),
        None => (0..rank)
            .map(|axis| {
                let range = if what == "filter" {
                    Interval::new(Some(1), None)
                } else {
                    Interval::nonnegative()
                };
                Expr::symbol(
                    ctx.fresh_symbol(range, format!("dim {axis} of a {what} of unknown rank")),
                )
            })
            .collect(),
    }
}
