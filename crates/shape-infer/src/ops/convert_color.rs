//! NV12toRGB-8, NV12toBGR-8, I420toRGB-8 and I420toBGR-8: YUV 4:2:0 images
//! `[N, H, W, 1]` to `[N, H, W, 3]` RGB or BGR.
//!
//! Each takes a single plane (Y on top of the chroma samples, so
//! `[N, H*3/2, W, 1]`) or separate planes: NV12 a Y plane `[N, H, W, 1]` and
//! an interleaved UV plane `[N, H/2, W/2, 2]`, I420 a Y plane and U and V
//! planes `[N, H/2, W/2, 1]`. The output height of a single plane is
//! `2*Hs/3`, exact, with `Hs` divisible by 3 a check (a recorded constraint
//! when symbolic); the image's height and width must be even. OpenVINO's
//! `nv12_shape_inference.hpp` and `i420_shape_inference.hpp`.

use ir::{Dim, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::convolution::known_dims;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

/// Since opset 8.
const SINCE_OPSET8: &[OpVersion] = &[OpVersion::openvino(8, 8)];

const NV12_DOC: OpDoc = OpDoc {
    summary: "NV12 (YUV 4:2:0, interleaved UV) `[N, H, W, 1]` to `[N, H, W, 3]`: one plane `[N, H*3/2, W, 1]` or Y `[N, H, W, 1]` and UV `[N, H/2, W/2, 2]`.",
    attributes: "-",
    symbolic: "one plane: height `2*Hs/3` exact (`Hs` divisible by 3 a recorded constraint when symbolic); two planes: Y merged with twice the UV plane's height and width (constraints when symbolic); height and width even (constraints when symbolic)",
    errors: "`input-rank` (a plane not 4-D), `color-channels` (Y channels not 1, UV not 2), `color-planes` (planes that do not match), `color-divisible` (a single plane's height not divisible by 3, an odd height or width), `element-type` (not u8 or floating point, planes of different types)",
};

const I420_DOC: OpDoc = OpDoc {
    summary: "I420 (YUV 4:2:0, separate U and V) `[N, H, W, 1]` to `[N, H, W, 3]`: one plane `[N, H*3/2, W, 1]` or Y `[N, H, W, 1]`, U and V `[N, H/2, W/2, 1]`.",
    attributes: "-",
    symbolic: "one plane: height `2*Hs/3` exact (`Hs` divisible by 3 a recorded constraint when symbolic); three planes: U and V merged, Y merged with twice their height and width (constraints when symbolic); height and width even (constraints when symbolic)",
    errors: "`input-rank` (a plane not 4-D), `color-channels` (a plane's channels not 1), `color-planes` (planes that do not match, two inputs), `color-divisible` (a single plane's height not divisible by 3, an odd height or width), `element-type` (not u8 or floating point, planes of different types)",
};

pub static NV12_TO_RGB: OpDef = OpDef {
    type_name: "NV12toRGB",
    versions: SINCE_OPSET8,
    infer: infer_nv12,
    doc: NV12_DOC,
};

pub static NV12_TO_BGR: OpDef = OpDef {
    type_name: "NV12toBGR",
    versions: SINCE_OPSET8,
    infer: infer_nv12,
    doc: NV12_DOC,
};

pub static I420_TO_RGB: OpDef = OpDef {
    type_name: "I420toRGB",
    versions: SINCE_OPSET8,
    infer: infer_i420,
    doc: I420_DOC,
};

pub static I420_TO_BGR: OpDef = OpDef {
    type_name: "I420toBGR",
    versions: SINCE_OPSET8,
    infer: infer_i420,
    doc: I420_DOC,
};

/// The names of the inputs of each layout, in port order.
const NV12_PLANES: [&str; 2] = ["Y", "UV"];
const I420_PLANES: [&str; 3] = ["Y", "U", "V"];

fn infer_nv12(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 2)?;
    let element_type = plane_types(call, &NV12_PLANES)?;
    let mut out = luma(ctx, call)?;
    if call.inputs.len() == 1 {
        single_plane_height(ctx, &mut out)?;
    } else if let Some(uv) = chroma(call, 1, "UV", 2)? {
        merge_chroma(ctx, &mut out, uv, "the UV plane")?;
    }
    finish(ctx, element_type, out)
}

fn infer_i420(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 3)?;
    if call.inputs.len() == 2 {
        return Err(ShapeError::rule(
            "color-planes",
            "I420 takes one plane or three (Y, U, V), got two inputs",
        ));
    }
    let element_type = plane_types(call, &I420_PLANES)?;
    let mut out = luma(ctx, call)?;
    if call.inputs.len() == 1 {
        single_plane_height(ctx, &mut out)?;
    } else {
        let u = chroma(call, 1, "U", 1)?;
        let v = chroma(call, 2, "V", 1)?;
        let merged = match (u, v) {
            (Some(u), Some(v)) => {
                let mut dims = Vec::with_capacity(4);
                for (axis, (a, b)) in u.iter().zip(v).enumerate() {
                    dims.push(support::merge_equal_dims(
                        ctx,
                        a,
                        b,
                        "color-planes",
                        &format!("dim {axis} of the U and V planes"),
                    )?);
                }
                Some(dims)
            }
            (one, other) => one.or(other).map(<[Dim]>::to_vec),
        };
        if let Some(chroma) = merged {
            merge_chroma(ctx, &mut out, &chroma, "the U and V planes")?;
        }
    }
    finish(ctx, element_type, out)
}

/// The planes' common element type: u8 or floating point.
fn plane_types(call: &OpCall<'_>, names: &[&str]) -> Result<ir::ElementType, ShapeError> {
    let mut element_type = call.inputs[0].element_type;
    for index in 1..call.inputs.len() {
        element_type = support::expect_same_type(call, 0, index)?;
    }
    if element_type.is_static() && !(element_type == ir::ElementType::U8 || element_type.is_real())
    {
        return Err(ShapeError::ElementType {
            what: format!("the {} plane (input 0)", names[0]),
            message: format!("must be u8 or floating point, got {element_type}"),
        });
    }
    Ok(element_type)
}

/// The Y plane's dims (fresh where its rank is unknown); its channels must
/// be 1.
fn luma(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<Dim>, ShapeError> {
    let y = &call.inputs[0].shape;
    if let Some(rank) = y.rank().filter(|&r| r != 4) {
        return Err(ShapeError::rule(
            "input-rank",
            format!("the Y plane (input 0) must be [N, H, W, C] (rank 4), got rank {rank}"),
        ));
    }
    let dims = known_dims(ctx, y, 4, "data");
    support::merge_equal_dims(
        ctx,
        &dims[3],
        &Expr::constant(1),
        "color-channels",
        "the Y plane's channels (dim 3) and 1",
    )?;
    Ok(dims)
}

/// The dims of chroma plane `index` (when its rank is known), checked to be
/// 4-D with `channels` channels.
fn chroma<'a>(
    call: &'a OpCall<'_>,
    index: usize,
    name: &str,
    channels: i64,
) -> Result<Option<&'a [Dim]>, ShapeError> {
    let Some(dims) = call.inputs[index].shape.dims() else {
        return Ok(None);
    };
    if dims.len() != 4 {
        return Err(ShapeError::rule(
            "input-rank",
            format!(
                "the {name} plane (input {index}) must be 4-D, got rank {}",
                dims.len()
            ),
        ));
    }
    if dims[3].as_constant().is_some_and(|c| c != channels) {
        return Err(ShapeError::rule(
            "color-channels",
            format!(
                "the {name} plane's channels (dim 3) must be {channels}, got {}",
                dims[3].as_constant().unwrap_or_default()
            ),
        ));
    }
    Ok(Some(dims))
}

/// A single plane holds `H*3/2` rows: the image has `2*Hs/3`.
fn single_plane_height(ctx: &mut InferContext, out: &mut [Dim]) -> Result<(), ShapeError> {
    support::expect_divisible(
        ctx,
        &out[1],
        3,
        "color-divisible",
        "the single plane's height (dim 1)",
    )?;
    out[1] = out[1].assumed_exact_div(3)?.mul_const(2)?;
    Ok(())
}

/// Merges the image's batch, height and width with a chroma plane's (half
/// the height and width).
fn merge_chroma(
    ctx: &mut InferContext,
    out: &mut [Dim],
    chroma: &[Dim],
    what: &str,
) -> Result<(), ShapeError> {
    out[0] = support::merge_equal_dims(
        ctx,
        &out[0],
        &chroma[0],
        "color-planes",
        &format!("the Y plane's batch and {what}'"),
    )?;
    for (axis, name) in [(1, "height"), (2, "width")] {
        out[axis] = support::merge_equal_dims(
            ctx,
            &out[axis],
            &chroma[axis].mul_const(2)?,
            "color-planes",
            &format!("the Y plane's {name} and twice {what}'"),
        )?;
    }
    Ok(())
}

/// The output `[N, H, W, 3]` after the even height and width checks.
fn finish(
    ctx: &mut InferContext,
    element_type: ir::ElementType,
    mut out: Vec<Dim>,
) -> Result<Vec<TensorInfo>, ShapeError> {
    for (axis, name) in [
        (1, "the image height (dim 1)"),
        (2, "the image width (dim 2)"),
    ] {
        support::expect_divisible(ctx, &out[axis], 2, "color-divisible", name)?;
    }
    out[3] = Expr::constant(3);
    Ok(vec![TensorInfo::new(element_type, Shape::ranked(out))])
}
