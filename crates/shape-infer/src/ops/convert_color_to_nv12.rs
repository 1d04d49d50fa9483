//! RGBtoNV12-17 and BGRtoNV12-17: an RGB or BGR image `[N, H, W, 3]` to
//! NV12 (YUV 4:2:0, interleaved UV), the inverse of NV12toRGB-8.
//!
//! `single_plane` (default true) gives one plane `[N, H*3/2, W, 1]` (Y on
//! top of the chroma rows); false gives two outputs, Y `[N, H, W, 1]` and UV
//! `[N, H/2, W/2, 2]`. The image's height and width must be even (recorded
//! constraints when symbolic), its channels 3; the data is u8 or floating
//! point. OpenVINO's `convert_color_to_nv12_shape_inference.hpp`.

use ir::Shape;
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::convolution::known_dims;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

const DOC: OpDoc = OpDoc {
    summary: "RGB or BGR `[N, H, W, 3]` to NV12: one plane `[N, H*3/2, W, 1]`, or Y `[N, H, W, 1]` and interleaved UV `[N, H/2, W/2, 2]` (`single_plane` false).",
    attributes: "`single_plane` (default true)",
    symbolic: "`H*3/2`, `H/2`, `W/2` exact, with an even height and width recorded as constraints when symbolic",
    errors: "`input-rank` (not 4-D), `color-channels` (channels not 3), `color-divisible` (an odd height or width), `element-type` (not u8 or floating point)",
};

pub static RGB_TO_NV12: OpDef = OpDef {
    type_name: "RGBtoNV12",
    versions: &[OpVersion::openvino(17, 17)],
    infer,
    doc: DOC,
};

pub static BGR_TO_NV12: OpDef = OpDef {
    type_name: "BGRtoNV12",
    versions: &[OpVersion::openvino(17, 17)],
    infer,
    doc: DOC,
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let single_plane = support::bool_attr(ctx, call, "single_plane", true);
    let element_type = call.inputs[0].element_type;
    if element_type.is_static() && !(element_type == ir::ElementType::U8 || element_type.is_real())
    {
        return Err(ShapeError::ElementType {
            what: "the image (input 0)".to_owned(),
            message: format!("must be u8 or floating point, got {element_type}"),
        });
    }
    let shape = &call.inputs[0].shape;
    if let Some(rank) = shape.rank().filter(|&r| r != 4) {
        return Err(ShapeError::rule(
            "input-rank",
            format!("the image (input 0) must be [N, H, W, C] (rank 4), got rank {rank}"),
        ));
    }
    let dims = known_dims(ctx, shape, 4, "data");
    support::merge_equal_dims(
        ctx,
        &dims[3],
        &Expr::constant(3),
        "color-channels",
        "the image's channels (dim 3) and 3",
    )?;
    for (axis, name) in [
        (1, "the image height (dim 1)"),
        (2, "the image width (dim 2)"),
    ] {
        support::expect_divisible(ctx, &dims[axis], 2, "color-divisible", name)?;
    }
    let (n, h, w) = (dims[0].clone(), dims[1].clone(), dims[2].clone());
    let half_h = h.assumed_exact_div(2)?;
    let one = Expr::constant(1);
    let out = |dims: Vec<Expr>| TensorInfo::new(element_type, Shape::ranked(dims));
    if single_plane {
        return Ok(vec![out(vec![n, half_h.mul_const(3)?, w, one])]);
    }
    let half_w = w.assumed_exact_div(2)?;
    Ok(vec![
        out(vec![n.clone(), h, w, one]),
        out(vec![n, half_h, half_w, Expr::constant(2)]),
    ])
}
