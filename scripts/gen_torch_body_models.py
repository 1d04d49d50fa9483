#!/usr/bin/env python3
"""PyTorch modules with data-dependent control flow, converted by OpenVINO's
own converter into If and Loop layers, with dynamic dims kept.

Run from the repository root:

    python3 scripts/gen_torch_body_models.py            # every model
    python3 scripts/gen_torch_body_models.py --only torch_if_sum

(``pip install torch`` first.) Each module is compiled by ``torch.jit.script``
(so that ``if``, ``for ... in range(n)`` and ``while`` stay control flow
rather than being traced away) and converted by ``openvino.convert_model``
with dynamic input dims: OpenVINO 2026.4 writes an ``if`` on a tensor as
If-8 and the loops as Loop-5 (its trip count from an input, a ShapeOf of a
tensor or none; ``break`` becomes the body's condition Result; a list
appended in the loop becomes a concatenated output).

Writes ``ir-samples/bodies/<name>.xml/.bin`` and
``ir-samples/bodies/golden/<name>.json``: OpenVINO's view of every layer,
bodies included (``gen_body_models.golden``: ``gen_samples.golden``, plus per
layer with bodies a ``bodies`` list of ``{"role", "ops"}`` in the same form,
recursively), for
the model as saved (``dynamic``) and after ``model.reshape`` to each static
binding (``static_bindings``). The CPU references come from
``scripts/gen_exec_goldens.py`` (cases ``bodies_<name>``, which take the
first static binding).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np
import openvino as ov
import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_body_models import BODIES, golden  # noqa: E402  (the golden writer, bodies included)


class IfSum(nn.Module):
    """``if x.sum() > 0``: ReLU doubled ``[N, M]``, else ``x`` beside itself
    ``[N, 2*M]``: the branches' shapes differ."""

    def forward(self, x):
        if x.sum() > 0:
            return torch.relu(x) * 2.0
        return torch.cat([x, x], 1)


class ForN(nn.Module):
    """``for i in range(n)`` with ``n`` an input: a state of the input's
    shape, ``y = y/2 + x + i``."""

    def forward(self, x, n):
        y = x
        for i in range(int(n)):
            y = y * 0.5 + x + i
        return y


class ForSteps(nn.Module):
    """An Elman-style recurrence over ``x.shape[1]`` (a trip count from a
    ShapeOf), each step's state stacked: ``[B, T, H]`` and the last state."""

    def __init__(self, features: int = 3, hidden: int = 4):
        super().__init__()
        self.inp = nn.Linear(features, hidden)
        self.rec = nn.Linear(hidden, hidden, bias=False)

    def forward(self, x):
        h = torch.zeros(x.shape[0], self.rec.in_features)
        states = []
        for t in range(x.shape[1]):
            h = torch.tanh(self.inp(x[:, t]) + self.rec(h))
            states.append(h)
        return torch.stack(states, 1), h


class LstmLoop(nn.Module):
    """An LSTM stepped in a scripted loop over ``x.shape[1]`` (the gates
    written out: TorchScript's ``aten::lstm_cell`` has no OpenVINO
    conversion): a Loop whose body splits the gates, its two states carried
    by back edges."""

    def __init__(self, features: int = 3, hidden: int = 4):
        super().__init__()
        self.ih = nn.Linear(features, 4 * hidden)
        self.hh = nn.Linear(hidden, 4 * hidden)
        self.hidden = hidden

    def forward(self, x):
        h = torch.zeros(x.shape[0], self.hidden)
        c = torch.zeros(x.shape[0], self.hidden)
        for t in range(x.shape[1]):
            i, f, g, o = (self.ih(x[:, t]) + self.hh(h)).chunk(4, 1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


class GreedyDecoder(nn.Module):
    """A greedy decoder: from ``start`` tokens, embed, project to the
    vocabulary, take the arg max, at most ``max_len`` steps, stopping early
    when every token is 0 (a ``while`` with a ``break``: the Loop's trip
    count is an input and its body decides whether to go on)."""

    def __init__(self, vocabulary: int = 6, width: int = 4):
        super().__init__()
        self.embed = nn.Embedding(vocabulary, width)
        self.project = nn.Linear(width, vocabulary)

    def forward(self, start, max_len):
        token = start
        tokens = [token]
        i = 0
        while i < int(max_len):
            token = self.project(self.embed(token)).argmax(-1)
            tokens.append(token)
            if bool((token == 0).all()):
                break
            i += 1
        return torch.stack(tokens, 1)


def models():
    """name -> (module, example inputs, input shapes and types, static bindings)."""
    torch.manual_seed(0)
    f32, i64 = ov.Type.f32, ov.Type.i64
    return {
        "torch_if_sum": (
            IfSum(), (torch.randn(2, 3),), [([-1, -1], f32)],
            [{"x": [2, 3]}, {"x": [4, 1]}],
        ),
        "torch_for_n": (
            ForN(), (torch.randn(2, 3), torch.tensor(4)), [([-1, -1], f32), ([], i64)],
            [{"x": [2, 3], "n": []}, {"x": [1, 5], "n": []}],
        ),
        "torch_for_steps": (
            ForSteps(), (torch.randn(2, 5, 3),), [([-1, -1, 3], f32)],
            [{"x": [2, 5, 3]}, {"x": [1, 2, 3]}],
        ),
        "torch_lstm_loop": (
            LstmLoop(), (torch.randn(2, 5, 3),), [([-1, -1, 3], f32)],
            [{"x": [2, 5, 3]}, {"x": [3, 1, 3]}],
        ),
        "torch_greedy_decoder": (
            GreedyDecoder(), (torch.tensor([1, 2]), torch.tensor(5)), [([-1], i64), ([], i64)],
            [{"start": [2], "max_len": []}, {"start": [5], "max_len": []}],
        ),
    }


def convert(module, example, inputs) -> ov.Model:
    module.eval()
    model = ov.convert_model(torch.jit.script(module), example_input=example, input=inputs)
    names = list(module.forward.__code__.co_varnames[1 : 1 + len(inputs)])
    for parameter, name in zip(model.inputs, names):
        parameter.get_node().set_friendly_name(name)
        parameter.set_names({name})
    return model


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help="write only these models")
    args = parser.parse_args()
    os.makedirs(os.path.join(BODIES, "golden"), exist_ok=True)
    for name, (module, example, inputs, bindings) in models().items():
        if args.only and name not in args.only:
            continue
        model = convert(module, example, inputs)
        xml = os.path.join(BODIES, f"{name}.xml")
        ov.save_model(model, xml, compress_to_fp16=False)
        g = golden(xml, bindings)
        with open(os.path.join(BODIES, "golden", f"{name}.json"), "w", encoding="utf-8", newline="\n") as f:
            json.dump(g, f, indent=1)
            f.write("\n")
        kinds = sorted({op.get_type_name() for op in model.get_ordered_ops()})
        print(f"{xml}: outputs {[o['shape'] for o in g['outputs']]} ({', '.join(kinds)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
