//! GRUCell-3: one step of a gated recurrent unit, gates `z, r, h`, with
//! `linear_before_reset` (the reset gate applied after the recurrent
//! product, B then `[4*Hs]`). Shapes and attributes: [`super::rnn`].

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::rnn::{self, Cell, Kind};
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "GRUCell",
    versions: &[OpVersion::openvino(3, 3)],
    infer,
    doc: OpDoc {
        summary: "One step of a gated recurrent unit (gates z, r, h); with `linear_before_reset` the reset gate scales `Ht-1·Rhᵀ + Rbh`.",
        attributes: "`hidden_size`, `activations` (two of relu, sigmoid, tanh; default sigmoid, tanh), `activations_alpha`, `activations_beta` (no effect), `clip`, `linear_before_reset`",
        symbolic: "X `[N, I]`, H `[N, Hs]`, W `[3*Hs, I]`, R `[3*Hs, Hs]`, B `[3*Hs]` (`[4*Hs]` with `linear_before_reset`); output `[N, Hs]` with Hs the `hidden_size` constant; N and I merged across the inputs",
        errors: "`rnn-input-rank`, `rnn-batch`, `rnn-input-size`, `rnn-hidden-size`, `rnn-activations`, `rnn-attribute`, `element-type`; warning `rnn-ignored-attribute`",
    },
};

const KIND: Kind = Kind {
    cell: Cell::Gru,
    sequence: false,
    peepholes: false,
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    rnn::infer(ctx, call, KIND)
}
