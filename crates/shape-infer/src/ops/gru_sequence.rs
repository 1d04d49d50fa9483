//! GRUSequence-5: GRUCell over a sequence, forward, reverse or both ways,
//! each batch element over its own length. Shapes and attributes:
//! [`super::rnn`].

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::rnn::{self, Cell, Kind};
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "GRUSequence",
    versions: &[OpVersion::openvino(5, 5)],
    infer,
    doc: OpDoc {
        summary: "A GRU cell (gates z, r, h) over a sequence (forward, reverse, bidirectional): every hidden state and the last one; steps past a batch element's `sequence_lengths` give zeros, its last state is the one at its last step (zeros for length 0).",
        attributes: "`hidden_size`, `direction`, `activations` (default sigmoid, tanh), `activations_alpha`, `activations_beta` (no effect), `clip`, `linear_before_reset`",
        symbolic: "X `[N, L, I]`, H0 `[N, nd, Hs]`, lengths `[N]`, W `[nd, 3*Hs, I]`, R `[nd, 3*Hs, Hs]`, B `[nd, 3*Hs]` (`[nd, 4*Hs]` with `linear_before_reset`); Y `[N, nd, L, Hs]`, Ho `[N, nd, Hs]` with Hs the `hidden_size` constant; N and I merged across the inputs",
        errors: "`rnn-input-rank`, `rnn-batch`, `rnn-input-size`, `rnn-hidden-size`, `rnn-num-directions`, `rnn-direction`, `rnn-activations`, `rnn-attribute`, `element-type`; warning `rnn-ignored-attribute`",
    },
};

const KIND: Kind = Kind {
    cell: Cell::Gru,
    sequence: true,
    peepholes: false,
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    rnn::infer(ctx, call, KIND)
}
