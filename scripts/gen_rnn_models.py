#!/usr/bin/env python3
"""Small recurrent PyTorch models, converted by OpenVINO's own converter with
dynamic batch and sequence dims.

Run from the repository root:

    python3 scripts/gen_rnn_models.py            # every model
    python3 scripts/gen_rnn_models.py --only lstm_bidirectional

``torch.nn.LSTM``, ``GRU`` and ``RNN`` with random seeded weights (hidden size
8), ``batch_first=True``, converted by ``openvino.convert_model`` with the
input ``[?, ?, 5]``: OpenVINO 2026.4 writes them as LSTMSequence-5,
GRUSequence-5 and RNNSequence-5 (one per layer; the 2-layer bidirectional
LSTM as two bidirectional LSTMSequences) amid plain shape ops (ShapeOf,
Gather, Broadcast of the initial states and of the lengths), no
TensorIterator or Loop. Written as ``scripts/gen_vision_models.py`` writes its
models: ``ir-samples/models/<name>.xml/.bin`` and
``ir-samples/models/golden/<name>.json`` (OpenVINO's per-layer shapes, dynamic
and at two static bindings); the CPU output references come from
``scripts/gen_exec_goldens.py`` (cases ``model_<name>``).
"""

from __future__ import annotations

import argparse
import os
import sys

import openvino as ov
import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_vision_models import OUT, convert, write_golden  # noqa: E402

INPUT = 5


class Recurrent(nn.Module):
    """A recurrent layer's every output, flattened: Y and the last states."""

    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def forward(self, x):
        y, state = self.layer(x)
        return (y, *state) if isinstance(state, tuple) else (y, state)


def models():
    """name -> (module, example input shape, dynamic input shape, bindings)."""
    torch.manual_seed(0)
    dynamic = [-1, -1, INPUT]
    return {
        "lstm_bidirectional": (
            Recurrent(nn.LSTM(INPUT, 8, num_layers=2, bidirectional=True, batch_first=True)),
            [2, 3, INPUT], dynamic, [[2, 3, INPUT], [1, 7, INPUT]],
        ),
        "gru_sequence": (Recurrent(nn.GRU(INPUT, 8, batch_first=True)), [2, 3, INPUT], dynamic, [[2, 4, INPUT], [3, 1, INPUT]]),
        "rnn_relu_sequence": (
            Recurrent(nn.RNN(INPUT, 8, nonlinearity="relu", batch_first=True)),
            [2, 3, INPUT], dynamic, [[2, 5, INPUT], [1, 2, INPUT]],
        ),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help="write only these models")
    args = parser.parse_args()
    os.makedirs(os.path.join(OUT, "golden"), exist_ok=True)
    for name, (module, example, dynamic, bindings) in models().items():
        if args.only and name not in args.only:
            continue
        model = convert(module, example, dynamic)
        kinds = sorted({op.get_type_name() for op in model.get_ordered_ops()})
        if "TensorIterator" in kinds or "Loop" in kinds:
            sys.exit(f"{name}: the converter wrote a TensorIterator or Loop ({kinds})")
        xml = os.path.join(OUT, f"{name}.xml")
        ov.save_model(model, xml, compress_to_fp16=False)
        write_golden(xml, [{"x": b} for b in bindings])
        print(f"  ({', '.join(kinds)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
