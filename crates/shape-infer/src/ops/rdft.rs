//! RDFT-9: the discrete Fourier transform of real data over `axes` (input 1),
//! each axis trimmed or zero-padded to its `signal_size` (optional input 2);
//! the last transformed axis keeps only its `floor(n/2) + 1` non-redundant
//! values (the others are their conjugates), and a complex dim of 2 is
//! appended. The checks are the family's ([`super::dft::check`]); negative
//! axes count from the rank itself (the data have no complex dim).

use ir::Shape;
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::dft::{self, Data};

pub static DEF: OpDef = OpDef {
    type_name: "RDFT",
    versions: &[OpVersion::openvino(9, 9)],
    infer,
    doc: OpDoc {
        summary: "Discrete Fourier transform of real data over `axes` (input 1), each axis trimmed or zero-padded to its `signal_size` (optional input 2); the last transformed axis keeps its `floor(n/2) + 1` first values and a complex dim of 2 is appended. Deliberate difference: a signal_size of unknown value makes every transformed dim unknown (OpenVINO 2026.4 keeps the data's dims but the last axis's).",
        attributes: "-",
        symbolic: "the data's shape with each transformed dim replaced by its signal_size, the last one `n` by `floor(n/2) + 1` (with `n >= 1` assumed), then `2`; unknown axes: every dim fresh",
        errors: "as DFT (negative axes count from the data's rank, there is no complex dim)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let signal = dft::check(ctx, call, Data::Real)?;
    let et = call.inputs[0].element_type;
    let Some(rank) = signal.dims.as_ref().map(Vec::len) else {
        return Ok(vec![TensorInfo::new(et, Shape::DynamicRank)]);
    };
    let mut out = match &signal.axes {
        Some(axes) => {
            let mut out = signal.resized_dims(ctx, rank).unwrap_or_default();
            if let Some(&last) = axes.last() {
                out[last] = dft::half_spectrum(ctx, &out[last])?;
            }
            out
        }
        None => (0..rank)
            .map(|_| super::support::unknown_dim(ctx, "a dim of RDFT over unknown axes"))
            .collect(),
    };
    out.push(Expr::constant(2));
    Ok(vec![TensorInfo::new(et, Shape::ranked(out))])
}
