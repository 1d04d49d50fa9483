//! LSTMSequence-5: LSTMCell-4 over a sequence, forward, reverse or both
//! ways, each batch element over its own length. (LSTMSequence-0, with
//! peepholes, left opset1 in OpenVINO 2026, whose reader refuses it: so
//! does the registry.) Shapes and attributes: [`super::rnn`].

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::rnn::{self, Cell, Kind};
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "LSTMSequence",
    versions: &[OpVersion::openvino(5, 5)],
    infer,
    doc: OpDoc {
        summary: "An LSTM cell (gates f, i, c, o) over a sequence (forward, reverse, bidirectional): every hidden state, the last hidden and cell states; steps past a batch element's `sequence_lengths` give zeros, its last states are the ones at its last step (zeros for length 0). Only version 5: OpenVINO 2026 no longer reads opset1's LSTMSequence.",
        attributes: "`hidden_size`, `direction`, `activations` (default sigmoid, tanh, tanh), `activations_alpha`, `activations_beta` (no effect), `clip`",
        symbolic: "X `[N, L, I]`, H0 and C0 `[N, nd, Hs]`, lengths `[N]`, W `[nd, 4*Hs, I]`, R `[nd, 4*Hs, Hs]`, B `[nd, 4*Hs]`; Y `[N, nd, L, Hs]`, Ho and Co `[N, nd, Hs]` with Hs the `hidden_size` constant; N and I merged across the inputs",
        errors: "`rnn-input-rank`, `rnn-batch`, `rnn-input-size`, `rnn-hidden-size`, `rnn-num-directions`, `rnn-direction`, `rnn-activations`, `rnn-attribute`, `element-type`; warning `rnn-ignored-attribute`",
    },
};

const KIND: Kind = Kind {
    cell: Cell::Lstm,
    sequence: true,
    peepholes: false,
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    rnn::infer(ctx, call, KIND)
}
