//! GridSample-9: samples data `[N, C, H_in, W_in]` at the normalized `(x, y)`
//! positions of grid `[N, H_out, W_out, 2]`, giving `[N, C, H_out, W_out]`
//! of the data's type. The batch dims must agree and the grid's last dim be
//! 2; an input of unknown rank leaves its dims fresh (the output is always
//! 4-D, as OpenVINO's).

use ir::Shape;
use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "GridSample",
    versions: &[OpVersion::openvino(9, 9)],
    infer,
    doc: OpDoc {
        summary: "Samples the data at the normalized positions of a grid (bilinear, bicubic or nearest) with zeros, border or reflection padding.",
        attributes: "`align_corners` (default false), `mode` (bilinear, bicubic, nearest; default bilinear), `padding_mode` (zeros, border, reflection; default zeros)",
        symbolic: "`[N, C, H_out, W_out]` from data `[N, C, H_in, W_in]` and grid `[N, H_out, W_out, 2]`, the batch dims merged (equality recorded when symbolic); dims of an input of unknown rank are fresh",
        errors: "`grid-sample-input` (data or grid not 4-D, grid's last dim not 2, batch dims that differ), `grid-sample-attribute` (`mode`, `padding_mode`)",
    },
};

/// The interpolation of GridSample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Of the 2x2 neighbours.
    Bilinear,
    /// Of the 4x4 neighbours (cubic with `A = -0.75`).
    Bicubic,
    /// The nearest sample (halves to even).
    Nearest,
}

/// What GridSample reads outside the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Padding {
    /// Zero.
    Zeros,
    /// The nearest border sample.
    Border,
    /// The data mirrored at its borders.
    Reflection,
}

/// `mode` and `padding_mode` of a GridSample layer.
pub fn modes(attrs: &ir::Attributes) -> Result<(Mode, Padding), ShapeError> {
    let bad = |key: &str, value: &str, allowed: &str| {
        ShapeError::rule(
            "grid-sample-attribute",
            format!("`{key}` {value} is not {allowed}"),
        )
    };
    let mode = match attrs.get("mode").map(str::trim) {
        None | Some("bilinear") => Mode::Bilinear,
        Some("bicubic") => Mode::Bicubic,
        Some("nearest") => Mode::Nearest,
        Some(other) => return Err(bad("mode", other, "bilinear, bicubic or nearest")),
    };
    let padding = match attrs.get("padding_mode").map(str::trim) {
        None | Some("zeros") => Padding::Zeros,
        Some("border") => Padding::Border,
        Some("reflection") => Padding::Reflection,
        Some(other) => return Err(bad("padding_mode", other, "zeros, border or reflection")),
    };
    Ok((mode, padding))
}

fn rule(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("grid-sample-input", message)
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 2)?;
    modes(&call.node.attributes)?;
    support::bool_attr(ctx, call, "align_corners", false);
    let data = call.inputs[0].shape.dims();
    let grid = call.inputs[1].shape.dims();
    for (dims, what) in [(data, "data (input 0)"), (grid, "grid (input 1)")] {
        if let Some(d) = dims.filter(|d| d.len() != 4) {
            return Err(rule(format!("{what} must be 4-D, got rank {}", d.len())));
        }
    }
    if let Some(g) = grid {
        if g[3].as_constant().is_some_and(|c| c != 2) {
            return Err(rule(format!(
                "the last dim of the grid must be 2, got {}",
                ctx.symbols.display(&g[3])
            )));
        }
        if !g[3].is_constant() {
            ctx.assume(Predicate::Eq(g[3].clone(), Expr::constant(2)))?;
        }
    }
    let batch = match (data, grid) {
        (Some(d), Some(g)) => support::merge_equal_dims(
            ctx,
            &d[0],
            &g[0],
            "grid-sample-input",
            "the batch dims of data and grid",
        )?,
        (Some(d), None) => d[0].clone(),
        (None, Some(g)) => g[0].clone(),
        (None, None) => support::unknown_dim(ctx, "batch of GridSample (inputs of unknown rank)"),
    };
    let channels = match data {
        Some(d) => d[1].clone(),
        None => support::unknown_dim(ctx, "channels of GridSample (data of unknown rank)"),
    };
    let (height, width) = match grid {
        Some(g) => (g[1].clone(), g[2].clone()),
        None => (
            support::unknown_dim(ctx, "output height of GridSample (grid of unknown rank)"),
            support::unknown_dim(ctx, "output width of GridSample (grid of unknown rank)"),
        ),
    };
    Ok(vec![TensorInfo::new(
        call.inputs[0].element_type,
        Shape::ranked([batch, channels, height, width]),
    )])
}
