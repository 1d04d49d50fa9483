//! ConvolutionBackpropData-1 (a transposed convolution): `[N, C_in, D…]`
//! with filters `[C_in, C_out, K…]` gives `[N, C_out, O…]`, each
//! `O = s*(D - 1) + d*(K - 1) + 1 - pb - pe + output_padding`
//! ([`crate::window::backward_extent`]), or the values of the optional
//! `output_shape` input (then `same_*` pads are derived from it).
//! GroupConvolutionBackpropData shares this rule ([`backward`]).

use ir::{Dim, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::convolution::known_dims;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;
use crate::window::{self, WindowAttrs, WindowKind};

pub static DEF: OpDef = OpDef {
    type_name: "ConvolutionBackpropData",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Transposed N-d convolution of `[N, C_in, D…]` with filters `[C_in, C_out, K…]`, with an optional `output_shape` input.",
        attributes: "`strides`, `dilations`, `pads_begin`, `pads_end`, `auto_pad`, `output_padding` (zeros by default)",
        symbolic: "spatial dims `s*(D - 1) + d*(K - 1) + 1 - pb - pe + output_padding` exactly, or the (propagated) values of `output_shape`; a possibly negative size is a recorded constraint; channels merge",
        errors: "`conv-rank`, `conv-channels`, `conv-output-shape` (not one value per spatial dim), `window-attribute`, `window-negative-output`",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    backward(ctx, call, Grouping::Plain)
}

/// How the filter's leading dims are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Grouping {
    /// `[C_in, C_out, K…]`.
    Plain,
    /// `[G, C_in/G, C_out/G, K…]`.
    Grouped,
}

impl Grouping {
    fn lead(self) -> usize {
        match self {
            Grouping::Plain => 2,
            Grouping::Grouped => 3,
        }
    }
}

/// The output of a transposed convolution (ConvolutionBackpropData,
/// GroupConvolutionBackpropData).
pub(super) fn backward(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    grouping: Grouping,
) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 3)?;
    let element_type = support::expect_same_type(call, 0, 1)?;
    if call.inputs.len() == 3 {
        support::expect_integer_input(call, 2, "output_shape (input 2)")?;
        support::expect_rank_le1(call, 2, "output_shape (input 2)", false)?;
    }
    let Some(spatial) = spatial_rank(call, grouping)? else {
        return Ok(vec![TensorInfo::new(element_type, Shape::DynamicRank)]);
    };
    let attrs = WindowAttrs::read(call.node, spatial, WindowKind::Convolution)?;
    let output_padding = call
        .node
        .attributes
        .i64_list("output_padding")?
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| vec![0; spatial]);
    if output_padding.len() != spatial {
        return Err(ShapeError::rule(
            "window-attribute",
            format!(
                "`output_padding` has {} entries ({output_padding:?}) but the input has {spatial} spatial dims",
                output_padding.len()
            ),
        ));
    }
    let data = known_dims(ctx, &call.inputs[0].shape, spatial + 2, "data");
    let filter = known_dims(
        ctx,
        &call.inputs[1].shape,
        spatial + grouping.lead(),
        "filter",
    );
    let out_channels = match grouping {
        Grouping::Plain => {
            support::merge_equal_dims(
                ctx,
                &data[1],
                &filter[0],
                "conv-channels",
                "the data's channels (dim 1) and the filter's input channels (dim 0)",
            )?;
            filter[1].clone()
        }
        Grouping::Grouped => {
            let groups_in = filter[0].mul(&filter[1])?;
            support::merge_equal_dims(
                ctx,
                &data[1],
                &groups_in,
                "conv-channels",
                "the data's channels (dim 1) and groups times the filter's input channels (dims 0 and 1)",
            )?;
            filter[0].mul(&filter[2])?
        }
    };
    let mut out = vec![data[0].clone(), out_channels];
    if call.inputs.len() == 3 {
        out.extend(output_shape(ctx, call, spatial)?);
    } else {
        let kernel = &filter[grouping.lead()..];
        for axis in 0..spatial {
            let window_size = window::dilated(&kernel[axis], attrs.dilations[axis])?;
            let pads = window::backward_pads(
                &ctx.symbols,
                attrs.auto_pad,
                &data[2 + axis],
                &window_size,
                attrs.strides[axis],
                output_padding[axis],
                None,
                (attrs.pads_begin[axis], attrs.pads_end[axis]),
            )?;
            out.push(window::backward_extent(
                ctx,
                &data[2 + axis],
                &window_size,
                attrs.strides[axis],
                &pads,
                output_padding[axis],
                axis,
            )?);
        }
    }
    Ok(vec![TensorInfo::new(element_type, Shape::ranked(out))])
}

/// The spatial dims the `output_shape` input asks for: its values, or fresh
/// symbols when only its length is known.
fn output_shape(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    spatial: usize,
) -> Result<Vec<Dim>, ShapeError> {
    if let Some(len) = call.inputs[2]
        .shape
        .dims()
        .and_then(|d| d.first()?.as_constant())
    {
        if len != spatial as i64 {
            return Err(ShapeError::rule(
                "conv-output-shape",
                format!("output_shape has {len} values but the data has {spatial} spatial dims"),
            ));
        }
    }
    match support::input_values(call, 2) {
        Some(values) => {
            for v in values {
                if let Some(c) = v.as_constant().filter(|&c| c < 0) {
                    return Err(ShapeError::rule(
                        "conv-output-shape",
                        format!("output_shape value {c} is negative"),
                    ));
                }
            }
            Ok(values.to_vec())
        }
        None => Ok((0..spatial)
            .map(|axis| {
                support::unknown_dim(
                    ctx,
                    format!("spatial dim {axis} of an output_shape known only at run time"),
                )
            })
            .collect()),
    }
}

/// The number of spatial axes: from the data, the filter, `output_shape`'s
/// length, or the attributes.
fn spatial_rank(call: &OpCall<'_>, grouping: Grouping) -> Result<Option<usize>, ShapeError> {
    let (data, filter) = (call.inputs[0].shape.rank(), call.inputs[1].shape.rank());
    if let Some(r) = data.filter(|r| !(3..=5).contains(r)) {
        return Err(ShapeError::rule(
            "conv-rank",
            format!("the data must be 3-D to 5-D (N, C and 1 to 3 spatial dims), got rank {r}"),
        ));
    }
    let lead = grouping.lead();
    if let (Some(d), Some(f)) = (data, filter) {
        if f != d - 2 + lead {
            return Err(ShapeError::rule(
                "conv-rank",
                format!(
                    "the filter has rank {f} but data of rank {d} needs rank {}",
                    d - 2 + lead
                ),
            ));
        }
    }
    let from_output_shape = || {
        let len = call.inputs.get(2)?.shape.dims()?.first()?.as_constant()?;
        usize::try_from(len).ok()
    };
    Ok(data
        .map(|d| d - 2)
        .or_else(|| {
            filter
                .and_then(|f| f.checked_sub(lead))
                .filter(|s| (1..=3).contains(s))
        })
        .or_else(from_output_shape)
        .or_else(|| {
            let strides = call.node.attributes.i64_list("strides").ok()??;
            (!strides.is_empty()).then_some(strides.len())
        }))
}
