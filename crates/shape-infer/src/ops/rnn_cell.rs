//! RNNCell-1 (opset1's RNNCell): one step of a plain recurrent cell,
//! `Ht = f(Xt·Wᵀ + Ht-1·Rᵀ + B)`. Shapes and attributes: [`super::rnn`].

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::rnn::{self, Cell, Kind};
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "RNNCell",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "One step of a plain recurrent cell: `Ht = f(Xt·Wᵀ + Ht-1·Rᵀ + B)`.",
        attributes: "`hidden_size`, `activations` (one of relu, sigmoid, tanh; default tanh), `activations_alpha`, `activations_beta` (no effect on these functions), `clip`",
        symbolic: "X `[N, I]`, H `[N, Hs]`, W `[Hs, I]`, R `[Hs, Hs]`, B `[Hs]`; output `[N, Hs]` with Hs the `hidden_size` constant; N and I merged across the inputs (equal, or a recorded constraint)",
        errors: "`rnn-input-rank`, `rnn-batch`, `rnn-input-size`, `rnn-hidden-size` (dims that disagree with `hidden_size`), `rnn-activations` (too few, or not relu/sigmoid/tanh), `rnn-attribute`, `element-type`; warning `rnn-ignored-attribute`",
    },
};

const KIND: Kind = Kind {
    cell: Cell::Rnn,
    sequence: false,
    peepholes: false,
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    rnn::infer(ctx, call, KIND)
}
