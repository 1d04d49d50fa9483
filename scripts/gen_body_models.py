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

The models listed in ``GOLDEN_BINDINGS`` also get
``ir-samples/bodies/golden/<name>.json`` (as ``scripts/gen_torch_body_models.py``
writes for its models, with this module's ``golden``): OpenVINO's view of
every layer, bodies included, as saved and at each static binding.
``--only NAME...`` writes only those models (the others stay as they are).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np
import openvino as ov
import openvino.opset13 as ops

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_samples  # noqa: E402  (the golden writer)

BODIES = os.path.join("ir-samples", "bodies")

ROLES = {"If": ("then_body", "else_body"), "Loop": ("body",), "TensorIterator": ("body",)}


def op_view(model: ov.Model) -> list[dict]:
    """``gen_samples.op_view``, with each layer's bodies' ops under it."""
    ops_ = gen_samples.op_view(model)
    for view, op in zip(ops_, model.get_ordered_ops()):
        roles = ROLES.get(op.get_type_name())
        if roles:
            bodies = [op.get_then_body(), op.get_else_body()] if len(roles) == 2 else [op.get_function()]
            view["bodies"] = [{"role": role, "ops": op_view(body)} for role, body in zip(roles, bodies)]
    return ops_


def golden(xml: str, bindings: list[dict]) -> dict:
    """``gen_samples.golden``, its op views with the bodies."""
    g = gen_samples.golden(xml, bindings)
    core = ov.Core()
    g["dynamic"] = op_view(core.read_model(xml))
    for entry in g["static_bindings"]:
        if "ops" in entry:
            m = core.read_model(xml)
            m.reshape({k: ov.PartialShape(v) for k, v in entry["inputs"].items()})
            entry["ops"] = op_view(m)
    return g


def write_golden(name: str, bindings: list[dict]) -> dict:
    """Writes ``ir-samples/bodies/golden/<name>.json`` for the saved model."""
    g = golden(os.path.join(BODIES, f"{name}.xml"), bindings)
    os.makedirs(os.path.join(BODIES, "golden"), exist_ok=True)
    with open(os.path.join(BODIES, "golden", f"{name}.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(g, f, indent=1)
        f.write("\n")
    return g


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


def loop_until_condition() -> ov.Model:
    """A Loop with no trip count (-1) and its execution condition an input:
    the state halves until its largest magnitude is below 0.1, so the data
    decide the number of iterations; every state and every iteration number
    are concatenated."""
    trip = ops.constant(np.int64(-1))
    go = ops.parameter([], ov.Type.boolean, name="go")
    x = ops.parameter([2, 3], ov.Type.f32, name="x")
    it = ops.parameter([], ov.Type.i64, name="it")
    acc = ops.parameter([2, 3], ov.Type.f32, name="acc")
    half = ops.multiply(acc, ops.constant(np.float32(0.5)))
    next_acc = ops.result(half)
    largest = ops.reduce_max(ops.abs(half), ops.constant(np.int64([0, 1])))
    go_on = ops.result(ops.greater(largest, ops.constant(np.float32(0.1))))
    every = ops.result(ops.unsqueeze(half, ops.constant(np.int64([0]))))
    its = ops.result(ops.unsqueeze(it, ops.constant(np.int64([0]))))
    node = ops.loop(trip, go)
    node.set_function(ov.Model([go_on, next_acc, every, its], [it, acc], "body"))
    node.set_special_body_ports([0, 0])
    node.set_merged_input(acc, x.output(0), next_acc.output(0))
    last = node.get_iter_value(next_acc.output(0), -1)
    states = node.get_concatenated_slices(every.output(0), 0, 1, 1, -1, 0)
    numbers = node.get_concatenated_slices(its.output(0), 0, 1, 1, -1, 0)
    return ov.Model([last, states, numbers], [go, x], "loop_until_condition")


def loop_reverse_slices() -> ov.Model:
    """A Loop over axis 1 of ``xs [2, ?, 3]`` backwards (stride -1, from the
    last element): the state halves and adds each step; the states and the
    iteration numbers are concatenated forwards (Loop-5 allows no other
    concatenation). (A state weighted by the iteration number, ``bh + step *
    (it + 1)``, is miscomputed by OpenVINO 2026.4's CPU plugin, whichever the
    slicing direction.)"""
    trip = ops.parameter([], ov.Type.i64, name="trip")
    cond = ops.constant(True)
    xs = ops.parameter([2, -1, 3], ov.Type.f32, name="xs")
    h = ops.parameter([2, 3], ov.Type.f32, name="h")
    it = ops.parameter([], ov.Type.i64, name="it")
    bx = ops.parameter([2, 1, 3], ov.Type.f32, name="bx")
    bh = ops.parameter([2, 3], ov.Type.f32, name="bh")
    step = ops.squeeze(bx, ops.constant(np.int64([1])))
    nh = ops.add(ops.multiply(bh, ops.constant(np.float32(0.5))), step)
    rh = ops.result(nh)
    ry = ops.result(ops.unsqueeze(nh, ops.constant(np.int64([1]))))
    its = ops.result(ops.unsqueeze(it, ops.constant(np.int64([0]))))
    go_on = ops.result(ops.constant(True))
    node = ops.loop(trip, cond)
    node.set_function(ov.Model([go_on, rh, ry, its], [it, bx, bh], "body"))
    node.set_special_body_ports([0, 0])
    node.set_sliced_input(bx, xs.output(0), -1, -1, 1, 0, 1)
    node.set_merged_input(bh, h.output(0), rh.output(0))
    last = node.get_iter_value(rh.output(0), -1)
    every = node.get_concatenated_slices(ry.output(0), 0, 1, 1, -1, 1)
    numbers = node.get_concatenated_slices(its.output(0), 0, 1, 1, -1, 0)
    return ov.Model([last, every, numbers], [trip, xs, h], "loop_reverse_slices")


def ti_reverse() -> ov.Model:
    """A TensorIterator reading ``x [2, S, 3]`` backwards along axis 1 and
    ``y [2*S, 3]`` forwards two rows at a time (part_size 2, stride 2); the
    states are concatenated backwards and forwards."""
    x = ops.parameter([2, -1, 3], ov.Type.f32, name="x")
    y = ops.parameter([-1, 3], ov.Type.f32, name="y")
    h = ops.parameter([2, 3], ov.Type.f32, name="h")
    bx = ops.parameter([2, 1, 3], ov.Type.f32, name="bx")
    by = ops.parameter([2, 3], ov.Type.f32, name="by")
    bh = ops.parameter([2, 3], ov.Type.f32, name="bh")
    step = ops.squeeze(bx, ops.constant(np.int64([1])))
    nh = ops.tanh(ops.add(ops.add(bh, step), by))
    rh = ops.result(nh)
    ry = ops.result(ops.unsqueeze(nh, ops.constant(np.int64([1]))))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([rh, ry], [bx, by, bh], "body"))
    ti.set_sliced_input(bx, x.output(0), -1, -1, 1, 0, 1)
    ti.set_sliced_input(by, y.output(0), 0, 2, 2, -1, 0)
    ti.set_merged_input(bh, h.output(0), rh.output(0))
    last = ti.get_iter_value(rh.output(0), -1)
    backwards = ti.get_concatenated_slices(ry.output(0), -1, -1, 1, 0, 1)
    forwards = ti.get_concatenated_slices(ry.output(0), 0, 1, 1, -1, 1)
    return ov.Model([last, backwards, forwards], [x, y, h], "ti_reverse")


def loop_nested_if() -> ov.Model:
    """A Loop of 3 iterations whose body holds an If on the parity of the
    iteration number: even iterations double the state, odd ones subtract
    one; every If output is concatenated."""
    trip = ops.constant(np.int64(3))
    cond = ops.constant(True)
    x = ops.parameter([2, 3], ov.Type.f32, name="x")
    it = ops.parameter([], ov.Type.i64, name="it")
    acc = ops.parameter([2, 3], ov.Type.f32, name="acc")
    even = ops.equal(ops.floor_mod(it, ops.constant(np.int64(2))), ops.constant(np.int64(0)))
    tp = ops.parameter([2, 3], ov.Type.f32, name="then_acc")
    ep = ops.parameter([2, 3], ov.Type.f32, name="else_acc")
    tr = ops.result(ops.multiply(tp, ops.constant(np.float32(2))))
    er = ops.result(ops.subtract(ep, ops.constant(np.float32(1))))
    branch = ops.if_op(even.output(0))
    branch.set_then_body(ov.Model([tr], [tp], "then"))
    branch.set_else_body(ov.Model([er], [ep], "else"))
    branch.set_input(acc.output(0), tp, ep)
    stepped = branch.set_output(tr, er)
    next_acc = ops.result(stepped)
    every = ops.result(ops.unsqueeze(stepped, ops.constant(np.int64([0]))))
    go_on = ops.result(ops.constant(True))
    node = ops.loop(trip, cond)
    node.set_function(ov.Model([go_on, next_acc, every], [it, acc], "body"))
    node.set_special_body_ports([0, 0])
    node.set_merged_input(acc, x.output(0), next_acc.output(0))
    last = node.get_iter_value(next_acc.output(0), -1)
    states = node.get_concatenated_slices(every.output(0), 0, 1, 1, -1, 0)
    return ov.Model([last, states], [x], "loop_nested_if")


def loop_gather_rows() -> ov.Model:
    """A Loop with its trip count an input whose body gathers row ``it``
    (the iteration number) of an invariant table ``[R, 2]`` and doubles it;
    the rows are concatenated. A trip count above ``R`` gathers past the
    table's end: the run fails in iteration ``R`` (the sample of a failure
    inside a body)."""
    trip = ops.parameter([], ov.Type.i64, name="trip")
    cond = ops.constant(True)
    table = ops.parameter([-1, 2], ov.Type.f32, name="table")
    it = ops.parameter([], ov.Type.i64, name="it")
    rows = ops.parameter([-1, 2], ov.Type.f32, name="rows")
    row = ops.gather(rows, ops.unsqueeze(it, ops.constant(np.int64([0]))), ops.constant(np.int64(0)))
    doubled = ops.result(ops.multiply(row, ops.constant(np.float32(2))))
    go_on = ops.result(ops.constant(True))
    node = ops.loop(trip, cond)
    node.set_function(ov.Model([go_on, doubled], [it, rows], "body"))
    node.set_special_body_ports([0, 0])
    node.set_invariant_input(rows, table.output(0))
    every = node.get_concatenated_slices(doubled.output(0), 0, 1, 1, -1, 0)
    return ov.Model([every], [trip, table], "loop_gather_rows")


def loop_rows_until() -> ov.Model:
    """A Loop over the rows of ``x [N, 3]`` (its trip count ``N`` from the
    ShapeOf, each row a sliced part) that stops after the first row whose
    sum is negative: the rows read (through ReLU) and the iteration numbers
    are concatenated, ``[k, 3]`` and ``[k]`` with ``k`` in ``[0, N]``."""
    x = ops.parameter([-1, 3], ov.Type.f32, name="x")
    rows = ops.gather(ops.shape_of(x), ops.constant(np.int64(0)), ops.constant(np.int64(0)))
    it = ops.parameter([], ov.Type.i64, name="it")
    row = ops.parameter([1, 3], ov.Type.f32, name="row")
    total = ops.reduce_sum(row, ops.constant(np.int64([0, 1])))
    go_on = ops.result(ops.greater_equal(total, ops.constant(np.float32(0))))
    kept = ops.result(ops.relu(row))
    its = ops.result(ops.unsqueeze(it, ops.constant(np.int64([0]))))
    node = ops.loop(rows, ops.constant(True))
    node.set_function(ov.Model([go_on, kept, its], [it, row], "body"))
    node.set_special_body_ports([0, 0])
    node.set_sliced_input(row, x.output(0), 0, 1, 1, -1, 0)
    read = node.get_concatenated_slices(kept.output(0), 0, 1, 1, -1, 0)
    numbers = node.get_concatenated_slices(its.output(0), 0, 1, 1, -1, 0)
    return ov.Model([read, numbers], [x], "loop_rows_until")


def loop_steps_until(name: str = "loop_steps_until", cap: int | None = None) -> ov.Model:
    """A Loop of at most ``T`` steps (``tokens [B, T]``'s dim 1 from its
    ShapeOf; ``cap``: a constant trip count instead) on a state ``h [B, 3]``
    that halves and adds the mean token, stopping once every state
    element is below 1: every state is concatenated, ``[k, B, 3]`` with ``k``
    in ``[0, T]`` (``[0, cap]``)."""
    tokens = ops.parameter([-1, -1], ov.Type.f32, name="tokens")
    h = ops.parameter([-1, 3], ov.Type.f32, name="h")
    if cap is None:
        trip = ops.gather(ops.shape_of(tokens), ops.constant(np.int64(1)), ops.constant(np.int64(0)))
    else:
        trip = ops.constant(np.int64(cap))
    bt = ops.parameter([-1, -1], ov.Type.f32, name="bt")
    bh = ops.parameter([-1, 3], ov.Type.f32, name="bh")
    mean = ops.reduce_mean(bt, ops.constant(np.int64([0, 1])))
    nh = ops.add(ops.multiply(bh, ops.constant(np.float32(0.5))), mean)
    largest = ops.reduce_max(nh, ops.constant(np.int64([0, 1])))
    go_on = ops.result(ops.greater_equal(largest, ops.constant(np.float32(1))))
    rh = ops.result(nh)
    every = ops.result(ops.unsqueeze(nh, ops.constant(np.int64([0]))))
    node = ops.loop(trip, ops.constant(True))
    node.set_function(ov.Model([go_on, rh, every], [bt, bh], "body"))
    node.set_special_body_ports([-1, 0])
    node.set_invariant_input(bt, tokens.output(0))
    node.set_merged_input(bh, h.output(0), rh.output(0))
    last = node.get_iter_value(rh.output(0), -1)
    states = node.get_concatenated_slices(every.output(0), 0, 1, 1, -1, 0)
    return ov.Model([last, states], [tokens, h], name)


def loop_do_once() -> ov.Model:
    """A Loop whose body's condition is constantly false (a do-while that
    stops after its first iteration) with a trip count ``N + 1`` of
    ``x [N, 3]``'s ShapeOf, at least one: the iteration's ReLU of ``x`` is
    concatenated once, ``[1, N, 3]``. (OpenVINO answers one iteration for a
    constantly false condition whatever the trip count; at a trip count of 0
    its CPU plugin then returns an uninitialized row.)"""
    x = ops.parameter([-1, 3], ov.Type.f32, name="x")
    rows = ops.gather(ops.shape_of(x), ops.constant(np.int64(0)), ops.constant(np.int64(0)))
    trip = ops.add(rows, ops.constant(np.int64(1)))
    bx = ops.parameter([-1, 3], ov.Type.f32, name="bx")
    kept = ops.result(ops.unsqueeze(ops.relu(bx), ops.constant(np.int64([0]))))
    go_on = ops.result(ops.constant(False))
    node = ops.loop(trip, ops.constant(True))
    node.set_function(ov.Model([go_on, kept], [bx], "body"))
    node.set_special_body_ports([-1, 0])
    node.set_invariant_input(bx, x.output(0))
    once = node.get_concatenated_slices(kept.output(0), 0, 1, 1, -1, 0)
    return ov.Model([once], [x], "loop_do_once")


def samples() -> dict[str, ov.Model]:
    return {
        "if_relu_negative": if_model(),
        "loop_accumulate": loop_model(),
        "ti_accumulate": ti_model(),
        "ti_nested_if": ti_model("ti_nested_if", nested_if=True),
        "if_branches_differ": if_branches_differ(),
        "loop_growing": loop_growing(),
        "loop_until_condition": loop_until_condition(),
        "loop_reverse_slices": loop_reverse_slices(),
        "ti_reverse": ti_reverse(),
        "loop_nested_if": loop_nested_if(),
        "loop_gather_rows": loop_gather_rows(),
        "loop_rows_until": loop_rows_until(),
        "loop_steps_until": loop_steps_until(),
        "loop_capped_until": loop_steps_until("loop_capped_until", cap=6),
        "loop_do_once": loop_do_once(),
    }


# The static bindings of the models that get a golden.
GOLDEN_BINDINGS: dict[str, list[dict]] = {
    "loop_rows_until": [{"x": [5, 3]}, {"x": [1, 3]}, {"x": [0, 3]}],
    "loop_steps_until": [{"tokens": [2, 7], "h": [2, 3]}, {"tokens": [1, 1], "h": [1, 3]}],
    "loop_capped_until": [{"tokens": [2, 4], "h": [2, 3]}],
    "loop_do_once": [{"x": [4, 3]}, {"x": [0, 3]}],
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help="write only these models")
    args = parser.parse_args()
    os.makedirs(BODIES, exist_ok=True)
    for name, model in samples().items():
        if args.only and name not in args.only:
            continue
        xml = os.path.join(BODIES, f"{name}.xml")
        ov.save_model(model, xml, compress_to_fp16=False)
        back = ov.Core().read_model(xml)
        print(f"{xml}: outputs {[str(o.get_partial_shape()) for o in back.outputs]}")
        if name in GOLDEN_BINDINGS:
            g = write_golden(name, GOLDEN_BINDINGS[name])
            for entry in g["static_bindings"]:
                print(f"  {entry['inputs']}: {'error' if 'error' in entry else 'ok'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
