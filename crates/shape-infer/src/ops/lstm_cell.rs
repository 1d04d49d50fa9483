//! LSTMCell-1 and -4: one step of a long short-term memory cell, gates
//! `f, i, c, o` (OpenVINO's order). Version 1 also takes the peepholes P
//! `[3*Hs]` (order f, i, o), `input_forget` and `weights_format`; B and P
//! may be omitted there (OpenVINO's reader adds zeros). Shapes and
//! attributes: [`super::rnn`].

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::rnn::{self, Cell, Kind};
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "LSTMCell",
    versions: &[OpVersion::openvino(1, 1), OpVersion::openvino(4, 4)],
    infer,
    doc: OpDoc {
        summary: "One step of an LSTM cell (gates f, i, c, o): the new hidden and cell states. Version 1 adds peepholes (P, order f, i, o) and `input_forget` (i = 1 - f), as OpenVINO's reference implementation; OpenVINO's CPU plugin ignores both.",
        attributes: "`hidden_size`, `activations` (three of relu, sigmoid, tanh; default sigmoid, tanh, tanh), `activations_alpha`, `activations_beta` (no effect), `clip`; v1: `input_forget`, `weights_format` (fico, icof, ifco, ifoc, iofc; read as fico, as OpenVINO's CPU plugin)",
        symbolic: "X `[N, I]`, H and C `[N, Hs]`, W `[4*Hs, I]`, R `[4*Hs, Hs]`, B `[4*Hs]`, P `[3*Hs]`; outputs `[N, Hs]` with Hs the `hidden_size` constant; N and I merged across the inputs",
        errors: "`rnn-input-rank`, `rnn-batch`, `rnn-input-size`, `rnn-hidden-size`, `rnn-activations`, `rnn-attribute`, `element-type`; warnings `rnn-ignored-attribute`, `lstm-peepholes` (`input_forget`, which OpenVINO's CPU plugin ignores)",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let kind = Kind {
        cell: Cell::Lstm,
        sequence: false,
        peepholes: call.version < 4,
    };
    rnn::infer(ctx, call, kind)
}
