//! ExtractImagePatches-3: `[N, C, H, W]` to `[N, C*sr*sc, OH, OW]`, every
//! `sizes` patch (taken every `rates` element, moving by `strides`) laid
//! out along the channels.
//!
//! The spatial dims come from the shared window module with the patch as
//! the window and `rates` as its dilation: `same_upper` / `same_lower` give
//! `ceil(D/s)`, `valid` gives `max(floor((D - dk)/s) + 1, 0)` with
//! `dk = r*(k - 1) + 1` (OpenVINO clamps a patch larger than the image to no
//! positions instead of failing).
//!
//! As OpenVINO: the input has rank 4; `sizes`, `strides` and `rates` have
//! two entries each, strides and rates positive; `auto_pad` is `valid`,
//! `same_upper` or `same_lower`. A size below 1 is an error here (OpenVINO
//! does not check it and its kernel writes nothing then).

use ir::{Dim, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;
use crate::window::{self, AutoPad};

use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "ExtractImagePatches",
    versions: &[OpVersion::openvino(3, 3)],
    infer,
    doc: OpDoc {
        summary: "Patches of `sizes` (every `rates` element, moving by `strides`) of `[N, C, H, W]` laid out along the channels: `[N, C*sr*sc, OH, OW]`.",
        attributes: "`sizes`, `strides`, `rates` (two entries each), `auto_pad` (`valid`, `same_upper`, `same_lower`)",
        symbolic: "`C*sr*sc` exact; `same_*`: `ceil(D/s)`; `valid`: `max(floor((D - r*(k - 1) - 1)/s) + 1, 0)` (the `max` dropped when the dims decide it), from the shared window module",
        errors: "`input-rank` (input not rank 4), `window-attribute` (an attribute without two entries, a non-positive size, stride or rate, `auto_pad` not valid/same_upper/same_lower)",
    },
};

/// The checked attributes of an ExtractImagePatches layer, one entry per
/// spatial axis (rows, columns).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchAttrs {
    /// The patch's rows and columns.
    pub sizes: [i64; 2],
    /// How far the patch moves between positions.
    pub strides: [i64; 2],
    /// The step between the input elements a patch takes (a dilation).
    pub rates: [i64; 2],
    /// `valid`, `same_upper` or `same_lower`.
    pub auto_pad: AutoPad,
}

impl PatchAttrs {
    /// Reads and checks `sizes`, `strides`, `rates` and `auto_pad`.
    pub fn read(node: &ir::Node) -> Result<PatchAttrs, ShapeError> {
        let pair = |key: &str| -> Result<[i64; 2], ShapeError> {
            let values = node.attributes.i64_list(key)?.unwrap_or_default();
            match *values.as_slice() {
                [a, b] if a > 0 && b > 0 => Ok([a, b]),
                [_, _] => Err(ShapeError::rule(
                    "window-attribute",
                    format!("`{key}` {values:?} must be positive"),
                )),
                _ => Err(ShapeError::rule(
                    "window-attribute",
                    format!("`{key}` {values:?} must have two entries (rows, columns)"),
                )),
            }
        };
        // Absent reads as `explicit`, which ExtractImagePatches does not take.
        let auto_pad = match AutoPad::read(node)? {
            p @ (AutoPad::Valid | AutoPad::SameUpper | AutoPad::SameLower) => p,
            AutoPad::Explicit => {
                return Err(ShapeError::rule(
                    "window-attribute",
                    format!(
                        "`auto_pad` {:?} must be valid, same_upper or same_lower",
                        node.attributes.get("auto_pad").unwrap_or("(absent)")
                    ),
                ))
            }
        };
        Ok(PatchAttrs {
            sizes: pair("sizes")?,
            strides: pair("strides")?,
            rates: pair("rates")?,
            auto_pad,
        })
    }

    /// The attributes as a window over the two spatial axes (the rates as
    /// its dilations, no explicit pads), for the window module.
    pub fn window(&self) -> window::WindowAttrs {
        window::WindowAttrs {
            strides: self.strides.to_vec(),
            dilations: self.rates.to_vec(),
            pads_begin: vec![0; 2],
            pads_end: vec![0; 2],
            auto_pad: self.auto_pad,
        }
    }
}

/// The output extent of one spatial axis of `input`.
fn spatial_extent(
    ctx: &mut InferContext,
    attrs: &PatchAttrs,
    input: &Dim,
    axis: usize,
) -> Result<Dim, ShapeError> {
    let window = window::dilated(&Expr::constant(attrs.sizes[axis]), attrs.rates[axis])?;
    let stride = attrs.strides[axis];
    if attrs.auto_pad.is_same() {
        let (extent, _) = window::forward_axis(
            ctx,
            attrs.auto_pad,
            input,
            &window,
            stride,
            (0, 0),
            window::Rounding::Floor,
            axis,
        )?;
        return Ok(extent);
    }
    let pads = window::forward_pads(&ctx.symbols, attrs.auto_pad, input, &window, stride, (0, 0))?;
    window::clamped_forward_extent(&ctx.symbols, input, &window, stride, &pads)
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let attrs = PatchAttrs::read(call.node)?;
    let data = &call.inputs[0];
    let et = data.element_type;
    let Some(dims) = data.shape.dims() else {
        let why = "ExtractImagePatches of an input of unknown rank";
        let out: Vec<Dim> = (0..4).map(|_| support::unknown_dim(ctx, why)).collect();
        return Ok(vec![TensorInfo::new(et, Shape::ranked(out))]);
    };
    if dims.len() != 4 {
        return Err(ShapeError::rule(
            "input-rank",
            format!("the input must have rank 4, got {}", dims.len()),
        ));
    }
    let depth = dims[1]
        .mul_const(attrs.sizes[0])?
        .mul_const(attrs.sizes[1])?;
    let rows = spatial_extent(ctx, &attrs, &dims[2], 0)?;
    let cols = spatial_extent(ctx, &attrs, &dims[3], 1)?;
    Ok(vec![TensorInfo::new(
        et,
        Shape::ranked(vec![dims[0].clone(), depth, rows, cols]),
    )])
}
