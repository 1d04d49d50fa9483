//! RNNSequence-5: RNNCell over a sequence, forward, reverse or both ways,
//! each batch element over its own length. Shapes and attributes:
//! [`super::rnn`].

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::rnn::{self, Cell, Kind};
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "RNNSequence",
    versions: &[OpVersion::openvino(5, 5)],
    infer,
    doc: OpDoc {
        summary: "An RNN cell over a sequence (forward, reverse, bidirectional): every hidden state and the last one; steps past a batch element's `sequence_lengths` give zeros, and its last state is the one at its last step (zeros for length 0), as OpenVINO's CPU plugin.",
        attributes: "`hidden_size`, `direction` (forward, reverse, bidirectional), `activations` (default tanh), `activations_alpha`, `activations_beta` (no effect), `clip`",
        symbolic: "X `[N, L, I]`, H0 `[N, nd, Hs]`, lengths `[N]`, W `[nd, Hs, I]`, R `[nd, Hs, Hs]`, B `[nd, Hs]`; Y `[N, nd, L, Hs]`, Ho `[N, nd, Hs]`, nd 2 when bidirectional else 1, Hs the `hidden_size` constant; N and I merged across the inputs (equal, or a recorded constraint)",
        errors: "`rnn-input-rank`, `rnn-batch`, `rnn-input-size`, `rnn-hidden-size`, `rnn-num-directions`, `rnn-direction`, `rnn-activations`, `rnn-attribute`, `element-type`; warning `rnn-ignored-attribute`",
    },
};

const KIND: Kind = Kind {
    cell: Cell::Rnn,
    sequence: true,
    peepholes: false,
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    rnn::infer(ctx, call, KIND)
}
