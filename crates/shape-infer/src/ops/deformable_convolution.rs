//! DeformableConvolution-1 and -8: a 2-D convolution of `[N, C_in, H, W]`
//! with filters `[C_out, C_in/group, KH, KW]` whose taps are moved by
//! learned `offsets` `[N, 2*DG*KH*KW, OH, OW]`; v8 adds an optional `mask`
//! `[N, DG*KH*KW, OH, OW]` that scales each tap, and
//! `bilinear_interpolation_pad`.
//!
//! The spatial output is Convolution's ([`crate::window`]); every input is
//! 4-D; `group` splits the data and output channels, `deformable_group` the
//! offsets (and mask) channels. OpenVINO's
//! `deformable_convolution_shape_inference.hpp`.

use ir::Shape;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::convolution::known_dims;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;
use crate::window::{self, Rounding, WindowAttrs, WindowKind};

pub static DEF: OpDef = OpDef {
    type_name: "DeformableConvolution",
    versions: &[OpVersion::openvino(1, 1), OpVersion::openvino(8, 8)],
    infer,
    doc: OpDoc {
        summary: "2-D convolution whose kernel taps are shifted by per-position `offsets` (v8: and scaled by an optional `mask`).",
        attributes: "as Convolution (`strides`, `dilations`, `pads_begin`, `pads_end`, `auto_pad`), `group`, `deformable_group` (both >= 1, default 1), v8: `bilinear_interpolation_pad`",
        symbolic: "as Convolution: spatial dims `floor((D + pb + pe - d*(K - 1) - 1)/s) + 1` (`ceil(D/s)` for same_*); the offsets' and mask's batch, channels (`2*DG*KH*KW`, `DG*KH*KW`) and spatial dims merge with the data's and the output's (constraints when symbolic); the channels' divisibility by `group` is a recorded constraint when symbolic",
        errors: "`deformable-rank` (an input not 4-D), `deformable-attribute` (`group` or `deformable_group` below 1), `deformable-channels` (data or filter channels not divisible by `group`, data channels not `group` times the filter's), `deformable-offsets` / `deformable-mask` (batch, channels or spatial dims that do not match), `window-attribute`, `window-exceeds-input`, `element-type` (data, offsets and filters of different types)",
    },
};

/// The names of the inputs, in port order, for messages.
const INPUTS: [&str; 4] = ["data", "offsets", "filters", "mask"];

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let max_inputs = if call.version >= 8 { 4 } else { 3 };
    call.expect_inputs(3, max_inputs)?;
    support::expect_same_type(call, 0, 1)?;
    let element_type = support::expect_same_type(call, 0, 2)?;
    support::expect_same_type(call, 1, 2)?;
    if let Some(mask) = call.inputs.get(3) {
        let t = mask.element_type;
        if t.is_static() && !(t.is_real() || t.is_integral()) {
            return Err(ShapeError::ElementType {
                what: "mask (input 3)".to_owned(),
                message: format!("must be numeric, got {t}"),
            });
        }
    }
    for (index, input) in call.inputs.iter().enumerate() {
        if let Some(rank) = input.shape.rank().filter(|&r| r != 4) {
            return Err(ShapeError::rule(
                "deformable-rank",
                format!(
                    "{} (input {index}) must be 4-D, got rank {rank}",
                    INPUTS[index]
                ),
            ));
        }
    }
    let group = positive_attr(call, "group")?;
    let deformable_group = positive_attr(call, "deformable_group")?;
    if call.inputs.iter().all(|t| t.shape.rank().is_none()) {
        return Ok(vec![TensorInfo::new(element_type, Shape::DynamicRank)]);
    }
    let attrs = WindowAttrs::read(call.node, 2, WindowKind::Convolution)?;
    let data = known_dims(ctx, &call.inputs[0].shape, 4, "data");
    let filter = known_dims(ctx, &call.inputs[2].shape, 4, "filter");
    support::expect_divisible(
        ctx,
        &data[1],
        group,
        "deformable-channels",
        "the data's channels (dim 1), by `group`,",
    )?;
    support::expect_divisible(
        ctx,
        &filter[0],
        group,
        "deformable-channels",
        "the filters' output channels (dim 0), by `group`,",
    )?;
    support::merge_equal_dims(
        ctx,
        &data[1],
        &filter[1].mul_const(group)?,
        "deformable-channels",
        "the data's channels (dim 1) and `group` times the filters' input channels (dim 1)",
    )?;
    let taps = filter[2].mul(&filter[3])?.mul_const(deformable_group)?;
    let spatial = window::forward_spatial(ctx, &attrs, &data[2..], &filter[2..], Rounding::Floor)?;
    let mut out = vec![data[0].clone(), filter[0].clone()];
    out.extend(spatial);
    // The offsets hold an (y, x) pair per tap and deformable group, the mask
    // one weight: each at every output position of every image.
    let mut guides = vec![(1, "deformable-offsets", taps.mul_const(2)?)];
    if call.inputs.len() == 4 {
        guides.push((3, "deformable-mask", taps));
    }
    for (index, rule, channels) in guides {
        let Some(dims) = call.inputs[index].shape.dims() else {
            continue;
        };
        let name = INPUTS[index];
        out[0] = support::merge_equal_dims(
            ctx,
            &out[0],
            &dims[0],
            rule,
            &format!("the data's batch (dim 0) and the {name}' batch (dim 0)"),
        )?;
        support::merge_equal_dims(
            ctx,
            &dims[1],
            &channels,
            rule,
            &format!(
                "the {name}' channels (dim 1) and the filter's taps times `deformable_group`{}",
                if index == 1 { " times 2" } else { "" }
            ),
        )?;
        for axis in 2..4 {
            out[axis] = support::merge_equal_dims(
                ctx,
                &out[axis],
                &dims[axis],
                rule,
                &format!("the output's and the {name}' spatial dim {axis}"),
            )?;
        }
    }
    Ok(vec![TensorInfo::new(element_type, Shape::ranked(out))])
}

/// A group-count attribute: at least 1, 1 when absent.
fn positive_attr(call: &OpCall<'_>, key: &str) -> Result<i64, ShapeError> {
    let value = call.node.attributes.i64(key)?.unwrap_or(1);
    if value < 1 {
        return Err(ShapeError::rule(
            "deformable-attribute",
            format!("`{key}` {value} must be at least 1"),
        ));
    }
    Ok(value)
}
