//! IRDFT-9: the inverse of RDFT: complex data `[..., 2]` holding the
//! non-redundant half of a Hermitian-symmetric spectrum along the last of
//! `axes` (input 1) give real data. Each axis is trimmed or zero-padded to
//! its `signal_size` (optional input 2); the last axis's output length
//! defaults to `2*(n - 1)` for `n` input values. The checks are the
//! family's ([`super::dft::check`]), negative axes counting from the complex
//! rank.

use ir::Shape;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::dft::{self, Data};

pub static DEF: OpDef = OpDef {
    type_name: "IRDFT",
    versions: &[OpVersion::openvino(9, 9)],
    infer,
    doc: OpDoc {
        summary: "Inverse of RDFT: real data from complex data `[..., 2]` holding the first `floor(n/2) + 1` values of a Hermitian-symmetric spectrum along the last of `axes` (input 1), each axis trimmed or zero-padded to its `signal_size` (optional input 2), divided by the product of the signal sizes. Deliberate difference: a signal_size of unknown value makes every transformed dim unknown (OpenVINO 2026.4 keeps the data's dims but the last axis's).",
        attributes: "-",
        symbolic: "the data's shape without the complex dim, each transformed dim replaced by its signal_size, the last one by `2*(n - 1)` when its size is absent or -1 (with `n >= 1` assumed); unknown axes: every dim fresh",
        errors: "as DFT",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let signal = dft::check(ctx, call, Data::Complex)?;
    let et = call.inputs[0].element_type;
    let Some(dims) = &signal.dims else {
        return Ok(vec![TensorInfo::new(et, Shape::DynamicRank)]);
    };
    let complex_rank = dims.len() - 1;
    let out = match &signal.axes {
        Some(axes) => {
            let mut out = signal.resized_dims(ctx, complex_rank).unwrap_or_default();
            if let Some(&last) = axes.last() {
                let own_length = match &signal.sizes {
                    Some(sizes) => sizes.last().is_some_and(Option::is_none),
                    None => !signal.has_sizes,
                };
                if own_length {
                    out[last] = dft::full_length(ctx, &dims[last])?;
                }
            }
            out
        }
        None => (0..complex_rank)
            .map(|_| super::support::unknown_dim(ctx, "a dim of IRDFT over unknown axes"))
            .collect(),
    };
    Ok(vec![TensorInfo::new(et, Shape::ranked(out))])
}
