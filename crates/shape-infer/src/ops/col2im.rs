//! Col2Im-15: sliding blocks `[N, C*k0*k1, L]` (or `[C*k0*k1, L]`, without
//! batch) summed back into an image `[N, C, O0, O1]` of `output_size`
//! (input 1), the blocks of `kernel_size` (input 2) placed with `strides`,
//! `dilations`, `pads_begin` and `pads_end`.
//!
//! As OpenVINO: the data has rank 2 or 3; `output_size` and `kernel_size`
//! are i32/i64 tensors of shape `[2]`; `C*k0*k1` divisible by `k0*k1`; the
//! block count `L` equals `prod(floor((O + pb + pe - dk)/s) + 1)` over both
//! axes (the window module's block count, `dk = d*(k - 1) + 1`). Here the
//! divisibility and the block count are recorded constraints when the dims
//! cannot decide them, and a kernel that does not fit the padded image is an
//! error (`window-exceeds-input`).

use ir::{Dim, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;
use crate::window::{self, WindowAttrs, WindowKind};

use super::depth_to_space::exact_div;
use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "Col2Im",
    versions: &[OpVersion::openvino(15, 15)],
    infer,
    doc: OpDoc {
        summary: "Sliding blocks `[N, C*k0*k1, L]` (or unbatched `[C*k0*k1, L]`) summed into an image `[N, C, O0, O1]` of `output_size`.",
        attributes: "`strides`, `dilations`, `pads_begin`, `pads_end` (two entries each)",
        symbolic: "`C*k0*k1/(k0*k1)` an exact division with its divisibility recorded; `O0, O1` the values of `output_size` (expressions when read from shapes); `L = prod(floor((O + pb + pe - dk)/s) + 1)` (the window module's count) merged with the data's block dim, recorded when undecided; fresh dims when the kernel or output size is unknown",
        errors: "`input-rank` (data not rank 2 or 3), `col2im-inputs` (output_size or kernel_size not of shape [2]), `block-divisible` (channels not divisible by k0*k1), `col2im-block-count` (L not the block count), `window-exceeds-input`, `window-attribute`, `element-type` (output_size or kernel_size not i32/i64)",
    },
};

/// The two values of `output_size` or `kernel_size` (input `index`), when
/// known; checks the input's shape is `[2]`.
fn pair_input<'a>(
    call: &'a OpCall<'_>,
    index: usize,
    what: &str,
) -> Result<Option<&'a [Dim]>, ShapeError> {
    support::expect_index_input(call, index, what)?;
    if let Some(dims) = call.inputs[index].shape.dims() {
        if dims.len() != 1 || dims[0].as_constant().is_some_and(|d| d != 2) {
            return Err(ShapeError::rule(
                "col2im-inputs",
                format!(
                    "{what} must be a 1-D tensor of shape [2], got rank {}",
                    dims.len()
                ),
            ));
        }
    }
    Ok(support::input_values(call, index).filter(|v| v.len() == 2))
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 3)?;
    let attrs = WindowAttrs::read(call.node, 2, WindowKind::DilatedPool)?;
    let output_size = pair_input(call, 1, "output_size (input 1)")?;
    let kernel = pair_input(call, 2, "kernel_size (input 2)")?;
    let kernel: Option<[i64; 2]> =
        kernel.and_then(|k| Some([k[0].as_constant()?, k[1].as_constant()?]));
    if let Some(bad) = kernel.and_then(|k| k.into_iter().find(|&v| v < 1)) {
        return Err(ShapeError::rule(
            "col2im-inputs",
            format!("kernel_size holds {bad}; every value must be 1 or more"),
        ));
    }
    let data = &call.inputs[0];
    let et = data.element_type;
    let Some(dims) = data.shape.dims() else {
        return Ok(vec![TensorInfo::new(et, Shape::DynamicRank)]);
    };
    let batched = match dims.len() {
        2 => false,
        3 => true,
        r => {
            return Err(ShapeError::rule(
                "input-rank",
                format!("the data must be an unbatched 2-D or a batched 3-D tensor, got rank {r}"),
            ))
        }
    };
    let (columns, blocks) = (&dims[dims.len() - 2], &dims[dims.len() - 1]);
    let mut out: Vec<Dim> = Vec::with_capacity(4);
    if batched {
        out.push(dims[0].clone());
    }
    out.push(match kernel {
        Some([k0, k1]) => exact_div(
            ctx,
            columns,
            k0.checked_mul(k1)
                .ok_or(ShapeError::Dim(symdim::DimError::Overflow))?,
            "the column dim (C*k0*k1)",
        )?,
        None => support::data_dependent_dim(
            ctx,
            columns,
            "Col2Im channels, with kernel_size known only at run time",
        )?,
    });
    let Some(size) = output_size else {
        for _ in 0..2 {
            out.push(support::unknown_dim(
                ctx,
                "Col2Im output_size, known only at run time",
            ));
        }
        return Ok(vec![TensorInfo::new(et, Shape::ranked(out))]);
    };
    out.extend(size.iter().cloned());
    if let Some(kernel) = kernel {
        let mut count = Expr::constant(1);
        for axis in 0..2 {
            let window = window::dilated(&Expr::constant(kernel[axis]), attrs.dilations[axis])?;
            let pads = window::Pads {
                begin: Expr::constant(attrs.pads_begin[axis]),
                end: Expr::constant(attrs.pads_end[axis]),
            };
            let positions = window::forward_extent(
                ctx,
                &size[axis],
                &window,
                attrs.strides[axis],
                &pads,
                window::Rounding::Floor,
                axis,
            )?;
            count = count.mul(&positions)?;
        }
        support::merge_equal_dims(
            ctx,
            blocks,
            &count,
            "col2im-block-count",
            "the data's block count L and the number of blocks output_size, kernel_size and the attributes give",
        )?;
    }
    Ok(vec![TensorInfo::new(et, Shape::ranked(out))])
}
