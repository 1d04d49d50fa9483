"""Recurrent ops: RNNCell (opset1's), GRUCell-3, LSTMCell-1 and -4,
RNNSequence-5, GRUSequence-5, LSTMSequence-5 (opset1's LSTMSequence is gone
from OpenVINO 2026: neither ``openvino.opset1`` nor its IR reader knows it).

Every attribute: activations (relu, sigmoid, tanh), clip, linear_before_reset,
direction forward / reverse / bidirectional; dynamic and interval batch and
sequence dims; sequence lengths from a Parameter (random in [0, 4) in the
executor's goldens, so some rows stop early or at 0) and from the data's own
length (ShapeOf, Broadcast, as converters write it); f16.

W, R and B are Consts, as OpenVINO's CPU plugin requires. LSTMCell-1's
peepholes P cannot be given here: OpenVINO's writer leaves them out of the IR
(its reader adds zeros, and its CPU plugin ignores them anyway), so the Rust
tests check them. LSTMCell-1 with input_forget and weights_format (built with
the opset1 node factory) is its own case: the CPU plugin ignores both, which
the executor's conformance test pins as a known difference for
input_forget."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset3 as ops3
import openvino.opset4 as ops4
import openvino.opset5 as ops5
import openvino.opset8 as ops8
from openvino.utils.node_factory import NodeFactory

import gen_op_goldens as g

I, HS = 4, 3


class Weights:
    """Seeded constants, named after the layer they feed."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def __call__(self, name, shape, dtype=np.float32):
        return g.C(self.rng.uniform(-1.0, 1.0, size=shape).round(3), name, dtype)


def outs(node, name, ports):
    node.set_friendly_name(name)
    return [(node.output(i), f"{name}_{p}") for i, p in enumerate(ports)]


def cells():
    w = Weights(15)
    x = g.P("x", [g.D(1, 8), -1])
    h = g.P("h", [g.D(1, 8), HS])
    c = g.P("c", [-1, HS])
    o = []

    def wrb(name, gates, bias_gates=None):
        return (
            w(f"{name}/W", [gates * HS, I]),
            w(f"{name}/R", [gates * HS, HS]),
            w(f"{name}/B", [(bias_gates or gates) * HS]),
        )

    o += outs(ops3.rnn_cell(x, h, *wrb("rnn_tanh", 1), HS, ["tanh"], [], []), "rnn_tanh", ["h"])
    o += outs(ops3.rnn_cell(x, h, *wrb("rnn_relu_clip", 1), HS, ["relu"], [], [], 1.5), "rnn_relu_clip", ["h"])
    o += outs(ops3.rnn_cell(x, h, *wrb("rnn_sigmoid", 1), HS, ["sigmoid"], [], []), "rnn_sigmoid", ["h"])
    o += outs(ops3.gru_cell(x, h, *wrb("gru", 3), HS), "gru", ["h"])
    o += outs(ops3.gru_cell(x, h, *wrb("gru_lbr", 3, 4), HS, linear_before_reset=True), "gru_lbr", ["h"])
    o += outs(
        ops3.gru_cell(x, h, *wrb("gru_acts_clip", 3, 4), HS, ["tanh", "relu"], [], [], 2.0, True),
        "gru_acts_clip",
        ["h"],
    )
    o += outs(ops4.lstm_cell(x, h, c, *wrb("lstm4", 4), HS), "lstm4", ["h", "c"])
    o += outs(
        ops4.lstm_cell(x, h, c, *wrb("lstm4_acts_clip", 4), HS, ["tanh", "relu", "sigmoid"], None, None, 1.0),
        "lstm4_acts_clip",
        ["h", "c"],
    )
    o += outs(ops1.lstm_cell(x, h, c, *wrb("lstm1", 4), HS), "lstm1", ["h", "c"])
    g.case(
        "rnn_cells",
        "RNNCell, GRUCell-3 (linear_before_reset), LSTMCell-1/-4: activations, clip; interval batch, dynamic input size",
        [x, h, c],
        o,
        [
            {"x": [2, I], "h": [2, HS], "c": [2, HS]},
            {"x": [1, I], "h": [1, HS], "c": [1, HS]},
            {"x": [8, I], "h": [8, HS], "c": [8, HS]},
            # OpenVINO refuses a batch that differs between X and H.
            {"x": [2, I], "h": [3, HS], "c": [2, HS]},
        ],
    )


def lstm1_attributes():
    w = Weights(16)
    x = g.P("x", [-1, I])
    h = g.P("h", [-1, HS])
    c = g.P("c", [-1, HS])
    factory = NodeFactory("opset1")
    o = []
    for name, input_forget, fmt in (("lstm1_input_forget", True, "fico"), ("lstm1_ifco", False, "ifco")):
        # OpenVINO's writer leaves P out of the IR (its reader then adds
        # zeros): the zero P here stays behind as a Const nothing reads.
        p = g.C(np.zeros(3 * HS), f"{name}/P", np.float32)
        args = [x, h, c, w(f"{name}/W", [4 * HS, I]), w(f"{name}/R", [4 * HS, HS]), w(f"{name}/B", [4 * HS]), p]
        node = factory.create(
            "LSTMCell",
            [a.output(0) for a in args],
            {
                "hidden_size": HS,
                "activations": ["sigmoid", "tanh", "tanh"],
                "activations_alpha": [],
                "activations_beta": [],
                "clip": 0.0,
                "input_forget": input_forget,
                "weights_format": fmt,
            },
        )
        o += outs(node, name, ["h", "c"])
    g.case(
        "rnn_lstm1_attributes",
        "LSTMCell-1 with input_forget (OpenVINO's CPU plugin ignores it) and weights_format ifco (read as fico)",
        [x, h, c],
        o,
        [{"x": [2, I], "h": [2, HS], "c": [2, HS]}],
    )


def sequences():
    w = Weights(17)
    x = g.P("x", [-1, -1, I])
    lens = g.P("lens", [-1], np.int32)
    h1 = g.P("h1", [-1, 1, HS])
    c1 = g.P("c1", [-1, 1, HS])
    h2 = g.P("h2", [-1, 2, HS])
    c2 = g.P("c2", [-1, 2, HS])
    o = []

    def wrb(name, nd, gates, bias_gates=None):
        return (
            w(f"{name}/W", [nd, gates * HS, I]),
            w(f"{name}/R", [nd, gates * HS, HS]),
            w(f"{name}/B", [nd, (bias_gates or gates) * HS]),
        )

    o += outs(ops5.rnn_sequence(x, h1, lens, *wrb("rnn_fwd", 1, 1), HS, "forward"), "rnn_fwd", ["y", "h"])
    o += outs(
        ops5.rnn_sequence(x, h1, lens, *wrb("rnn_rev_relu_clip", 1, 1), HS, "reverse", ["relu"], [], [], 1.0),
        "rnn_rev_relu_clip",
        ["y", "h"],
    )
    o += outs(ops5.rnn_sequence(x, h2, lens, *wrb("rnn_bi", 2, 1), HS, "bidirectional"), "rnn_bi", ["y", "h"])
    o += outs(
        ops5.gru_sequence(x, h1, lens, *wrb("gru_fwd_lbr", 1, 3, 4), HS, "forward", linear_before_reset=True),
        "gru_fwd_lbr",
        ["y", "h"],
    )
    o += outs(
        ops5.gru_sequence(x, h1, lens, *wrb("gru_rev_acts", 1, 3), HS, "reverse", ["tanh", "sigmoid"]),
        "gru_rev_acts",
        ["y", "h"],
    )
    o += outs(ops5.gru_sequence(x, h2, lens, *wrb("gru_bi", 2, 3), HS, "bidirectional"), "gru_bi", ["y", "h"])
    o += outs(ops5.lstm_sequence(x, h1, c1, lens, *wrb("lstm_fwd", 1, 4), HS, "forward"), "lstm_fwd", ["y", "h", "c"])
    o += outs(
        ops5.lstm_sequence(x, h1, c1, lens, *wrb("lstm_rev_clip", 1, 4), HS, "reverse", None, None, None, 0.8),
        "lstm_rev_clip",
        ["y", "h", "c"],
    )
    o += outs(ops5.lstm_sequence(x, h2, c2, lens, *wrb("lstm_bi", 2, 4), HS, "bidirectional"), "lstm_bi", ["y", "h", "c"])

    def b(n, l):
        return {"x": [n, l, I], "lens": [n], "h1": [n, 1, HS], "c1": [n, 1, HS], "h2": [n, 2, HS], "c2": [n, 2, HS]}

    g.case(
        "rnn_sequences",
        "RNN/GRU/LSTMSequence-5 forward, reverse, bidirectional, with per-row lengths; activations, clip, linear_before_reset",
        [x, lens, h1, c1, h2, c2],
        o,
        # The executor's goldens take the first: lengths in [0, 4) fit L = 4.
        [b(3, 4), b(1, 1), b(2, 6)],
    )


def full_length():
    """Lengths that are the data's own sequence length (as converters write
    them), on interval dims; one LSTM also in f16."""
    w = Weights(18)
    x = g.P("x", [g.D(1, 4), g.D(2, 6), I])
    h1 = g.P("h1", [-1, 1, HS])
    c2 = g.P("c2", [-1, 2, HS])
    shape = ops4.shape_of(x)
    n = ops8.gather(shape, g.C([0], "n_idx"), g.C(0, "gather_axis"))
    length = ops8.gather(shape, g.C(1, "l_idx"), g.C(0, "gather_axis2"))
    lens = g.N(ops3.broadcast(length, n), "lens")
    o = []
    o += outs(
        ops5.rnn_sequence(x, h1, lens, w("rnn/W", [1, HS, I]), w("rnn/R", [1, HS, HS]), w("rnn/B", [1, HS]), HS, "reverse"),
        "rnn_rev",
        ["y", "h"],
    )
    o += outs(
        ops5.gru_sequence(
            x, h1, lens, w("gru/W", [1, 3 * HS, I]), w("gru/R", [1, 3 * HS, HS]), w("gru/B", [1, 3 * HS]), HS, "forward"
        ),
        "gru_fwd",
        ["y", "h"],
    )
    o += outs(
        ops5.lstm_sequence(
            x, c2, c2, lens, w("lstm/W", [2, 4 * HS, I]), w("lstm/R", [2, 4 * HS, HS]), w("lstm/B", [2, 4 * HS]), HS, "bidirectional"
        ),
        "lstm_bi",
        ["y", "h", "c"],
    )
    xh = g.P("x16", [-1, -1, I], np.float16)
    hh = g.P("h16", [-1, 1, HS], np.float16)
    shape16 = ops4.shape_of(xh)
    lens16 = ops3.broadcast(
        ops8.gather(shape16, g.C(1, "l16_idx"), g.C(0, "gather16_axis")),
        ops8.gather(shape16, g.C([0], "n16_idx"), g.C(0, "gather16_axis2")),
    )
    o += outs(
        ops5.lstm_sequence(
            xh,
            hh,
            hh,
            lens16,
            w("lstm16/W", [1, 4 * HS, I], np.float16),
            w("lstm16/R", [1, 4 * HS, HS], np.float16),
            w("lstm16/B", [1, 4 * HS], np.float16),
            HS,
            "forward",
        ),
        "lstm_f16",
        ["y", "h", "c"],
    )
    g.case(
        "rnn_full_length",
        "Sequences whose lengths are the data's own length (ShapeOf, Broadcast), on interval dims; an f16 LSTMSequence",
        [x, h1, c2, xh, hh],
        o,
        [
            {"x": [2, 3, I], "h1": [2, 1, HS], "c2": [2, 2, HS], "x16": [2, 3, I], "h16": [2, 1, HS]},
            {"x": [1, 6, I], "h1": [1, 1, HS], "c2": [1, 2, HS], "x16": [3, 1, I], "h16": [3, 1, HS]},
        ],
    )


def build():
    cells()
    lstm1_attributes()
    sequences()
    full_length()
