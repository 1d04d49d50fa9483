#!/usr/bin/env python3
"""Models with nested bodies (If-8, Loop-5, TensorIterator-1), written by OpenVINO.

Run from the repository root:

    python3 scripts/gen_body_models.py

Writes ``ir-samples/bodies/<name>.xml/.bin``: small models built with
``openvino.opset13`` and saved by ``openvino.save_model`` (f32), so that the
reader and writer are tested on bodies exactly as OpenVINO 2026 lays them out
(``<then_port_map>``/``<else_port_map>``, ``<port_map>`` with sliced inputs,
concatenated outputs and Loop's special ports, ``<back_edges>``, nested
``<body>`` elements). ``crates/ir-xml/tests/bodies.rs`` reads them and writes
them back byte for byte.
"""

from __future__ import annotations

import os

import numpy as np
import openvino as ov
import openvino.opset13 as ops

BODIES = os.path.join("ir-samples", "bodies")


def if_model() -> ov.Model:
    """``If(cond, x)``: ReLU in the then body, Negative in the else body."""
    cond = ops.parameter([], ov.Type.boolean, name="cond")
    x = ops.parameter([-1, 3], ov.Type.f32, name="x")
    then_p = ops.parameter([-1, 3], ov.Type.f32, name="then_x")
    then_r = ops.result(ops.relu(then_p))
    else_p = ops.parameter([-1, 3], ov.Type.f32, name="else_x")
    else_r = ops.result(ops.negative(else_p))
    node = ops.if_op(cond)
    node.set_then_body(ov.Model([then_r], [then_p], "then"))
    node.set_else_body(ov.Model([else_r], [else_p], "else"))
    node.set_input(x.output(0), then_p, else_p)
    out = node.set_output(then_r, else_r)
    return ov.Model([out], [cond, x], "if_relu_negative")


def loop_model() -> ov.Model:
    """A Loop of 4 iterations: a merged accumulator ``a + 1`` and ReLU of a
    sliced input, concatenated; current-iteration and condition ports."""
    trip = ops.constant(np.int64(4))
    cond = ops.constant(True)
    a = ops.parameter([2, 3], ov.Type.f32, name="a")
    xs = ops.parameter([-1, 5, 3], ov.Type.f32, name="xs")
    it = ops.parameter([], ov.Type.i64, name="it")
    acc = ops.parameter([2, 3], ov.Type.f32, name="acc")
    x = ops.parameter([1, 5, 3], ov.Type.f32, name="x")
    acc_next = ops.result(ops.add(acc, ops.constant(np.ones((2, 3), np.float32))))
    relu = ops.result(ops.relu(x))
    go_on = ops.result(ops.constant(True))
    node = ops.loop(trip, cond)
    node.set_function(ov.Model([go_on, acc_next, relu], [it, acc, x], "body"))
    node.set_special_body_ports([0, 0])
    node.set_merged_input(acc, a.output(0), acc_next.output(0))
    node.set_sliced_input(x, xs.output(0), 0, 1, 1, -1, 0)
    last = node.get_iter_value(acc_next.output(0), -1)
    all_relu = node.get_concatenated_slices(relu.output(0), 0, 1, 1, -1, 0)
    return ov.Model([last, all_relu], [a, xs], "loop_accumulate")


def ti_model(name: str = "ti_accumulate", nested_if: bool = False) -> ov.Model:
    """A TensorIterator over axis 1 of ``x [2, ?, 3]`` adding each step to a
    state ``h``; outputs the last state and every state, concatenated. With
    ``nested_if`` the step runs through an If (a body inside a body)."""
    x = ops.parameter([2, -1, 3], ov.Type.f32, name="x")
    h = ops.parameter([2, 3], ov.Type.f32, name="h")
    bx = ops.parameter([2, 1, 3], ov.Type.f32, name="bx")
    bh = ops.parameter([2, 3], ov.Type.f32, name="bh")
    step = ops.squeeze(bx, ops.constant(np.int64([1])))
    if nested_if:
        positive = ops.reduce_logical_and(ops.greater(step, ops.constant(np.float32(0))), ops.constant(np.int64([0, 1])))
        tp = ops.parameter([2, 3], ov.Type.f32, name="then_step")
        ep = ops.parameter([2, 3], ov.Type.f32, name="else_step")
        tr = ops.result(ops.multiply(tp, ops.constant(np.float32(2))))
        er = ops.result(ops.relu(ep))
        node = ops.if_op(positive.output(0))
        node.set_then_body(ov.Model([tr], [tp], "then"))
        node.set_else_body(ov.Model([er], [ep], "else"))
        node.set_input(step.output(0), tp, ep)
        step = node.set_output(tr, er)
    nh = ops.add(bh, step)
    rh = ops.result(nh)
    ry = ops.result(ops.unsqueeze(nh, ops.constant(np.int64([1]))))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([rh, ry], [bx, bh], "body"))
    ti.set_sliced_input(bx, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(bh, h.output(0), rh.output(0))
    last = ti.get_iter_value(rh.output(0), -1)
    every = ti.get_concatenated_slices(ry.output(0), 0, 1, 1, -1, 1)
    return ov.Model([last, every], [x, h], name)


def if_branches_differ() -> ov.Model:
    """An If whose bodies give ``[2*N, 3]`` (then: x twice) and ``[N, 3]``."""
    cond = ops.parameter([], ov.Type.boolean, name="cond")
    x = ops.parameter([-1, 3], ov.Type.f32, name="x")
    tp = ops.parameter([-1, 3], ov.Type.f32, name="then_x")
    tr = ops.result(ops.concat([tp, tp], 0))
    ep = ops.parameter([-1, 3], ov.Type.f32, name="else_x")
    er = ops.result(ops.relu(ep))
    node = ops.if_op(cond.output(0))
    node.set_then_body(ov.Model([tr], [tp], "then"))
    node.set_else_body(ov.Model([er], [ep], "else"))
    node.set_input(x.output(0), tp, ep)
    out = node.set_output(tr, er)
    return ov.Model([out], [cond, x], "if_branches_differ")


def loop_growing() -> ov.Model:
    """A Loop with its trip count an input: the state grows by one row per
    iteration (a back edge that is not shape-invariant), the iteration number
    is concatenated."""
    trip = ops.parameter([], ov.Type.i64, name="trip")
    cond = ops.constant(True)
    rows = ops.parameter([-1, 3], ov.Type.f32, name="rows")
    it = ops.parameter([], ov.Type.i64, name="it")
    acc = ops.parameter([-1, 3], ov.Type.f32, name="acc")
    grown = ops.result(ops.concat([acc, ops.constant(np.ones((1, 3), np.float32))], 0))
    its = ops.result(ops.unsqueeze(it, ops.constant(np.int64([0]))))
    go_on = ops.result(ops.constant(True))
    node = ops.loop(trip, cond)
    node.set_function(ov.Model([go_on, grown, its], [it, acc], "body"))
    node.set_special_body_ports([0, 0])
    node.set_merged_input(acc, rows.output(0), grown.output(0))
    last = node.get_iter_value(grown.output(0), -1)
    every = node.get_concatenated_slices(its.output(0), 0, 1, 1, -1, 0)
    return ov.Model([last, every], [trip, rows], "loop_growing")


def samples() -> dict[str, ov.Model]:
    return {
        "if_relu_negative": if_model(),
        "loop_accumulate": loop_model(),
        "ti_accumulate": ti_model(),
        "ti_nested_if": ti_model("ti_nested_if", nested_if=True),
        "if_branches_differ": if_branches_differ(),
        "loop_growing": loop_growing(),
    }


def main() -> int:
    os.makedirs(BODIES, exist_ok=True)
    for name, model in samples().items():
        xml = os.path.join(BODIES, f"{name}.xml")
        ov.save_model(model, xml, compress_to_fp16=False)
        back = ov.Core().read_model(xml)
        print(f"{xml}: outputs {[str(o.get_partial_shape()) for o in back.outputs]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
