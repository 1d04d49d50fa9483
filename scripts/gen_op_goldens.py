#!/usr/bin/env python3
"""Per-op golden cases: small graphs built with OpenVINO, and OpenVINO's own view of them.

Run from the repository root:

    python3 scripts/gen_op_goldens.py

Writes ``crates/shape-infer/tests/golden/<case>.xml/.bin/.json`` (the folder is
emptied first). Deterministic: no randomness, every node gets a fixed friendly
name (nodes the builders leave unnamed are renamed ``<type>_<index>`` in
topological order), constants are tiny.

``<case>.json`` has the same layout as ``ir-samples/golden/<name>.json``
(written by ``scripts/gen_samples.py``):

* ``dynamic``: per op of ``read_model(<case>.xml).get_ordered_ops()``: ``name``
  (friendly name), ``type`` (``get_type_name()``), ``version`` (opset name),
  ``outputs``: ``[{element_type, shape}]`` with ``shape = str(partial_shape)``
  (``[?,3,2..10]``, ``[...]``, ``[]``); small constants also carry ``value``;
* ``static_bindings``: ``[{inputs: {param friendly name: [dims]}, ops: [...]}]``
  after ``model.reshape(inputs)`` on a fresh read; when OpenVINO rejects the
  binding: ``{inputs, error, invalid: true}`` instead of ``ops``;
* invalid cases (``invalid_*``) have ``invalid: {expected_rule, layer, edit,
  stage, error}``, ``stage`` being ``read_model`` / ``validate`` / ``compile``,
  and no bindings; their ``dynamic`` is the view of the valid model before the
  edit (for reference only).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys

import numpy as np
import openvino as ov
import openvino.opset1 as ops1
import openvino.opset3 as ops3
import openvino.opset7 as ops7
import openvino.opset8 as ops8
import openvino.opset12 as ops12
import openvino.opset13 as ops

# ---------------------------------------------------------------------------
# The rule each invalid case is expected to trip, by case name. The op
# engineers' rule names are aligned with this table at merge.
# ---------------------------------------------------------------------------
EXPECTED_RULES = {
    "invalid_reshape_count": "reshape-element-count",
    "invalid_select_cond": "broadcast-mismatch",
    "invalid_concat_dims": "concat-dim-mismatch",
    "invalid_slice_step_zero": "slice-step-zero",
    "invalid_matmul_k": "matmul-dim-mismatch",
    "invalid_add_broadcast": "broadcast-mismatch",
    "invalid_transpose_order": "transpose-order",
}

OUT = os.path.join("crates", "shape-infer", "tests", "golden")
F32 = np.float32
I64 = np.int64
BOOL = np.bool_
INT_MAX = np.iinfo(np.int64).max
INT_MIN = np.iinfo(np.int64).min


def D(lo, hi=-1):
    return ov.Dimension(lo, hi)


def P(name, shape, dtype=F32):
    if shape == "...":
        ps = ov.PartialShape.dynamic()
    else:
        ps = ov.PartialShape([d if isinstance(d, ov.Dimension) else ov.Dimension(d) for d in shape])
    p = ops.parameter(ps, dtype, name=name)
    p.output(0).set_names({name})
    return p


def C(value, name, dtype=I64):
    c = ops.constant(np.array(value, dtype=dtype))
    c.set_friendly_name(name)
    return c


def N(node, name):
    node.set_friendly_name(name)
    return node


class Case:
    """One golden case: a model and its static bindings."""

    def __init__(self, name, what, params, outputs, bindings=None):
        self.name = name
        self.what = what
        results = []
        for i, o in enumerate(outputs):
            node, out_name = o if isinstance(o, tuple) else (o, None)
            src = node if isinstance(node, ov.Output) else node.output(0)
            r = ops.result(src)
            r.set_friendly_name(out_name or f"out{i}")
            results.append(r)
        self.model = ov.Model(results, params, name)
        self.bindings = bindings


CASES: list[Case] = []


def case(name, what, params, outputs, bindings=None):
    CASES.append(Case(name, what, params, outputs, bindings))


# ---------------------------------------------------------------------------
# Bindings
# ---------------------------------------------------------------------------


def _clamp(v, dim: ov.Dimension):
    lo = dim.get_min_length()
    hi = dim.get_max_length()
    v = max(v, lo)
    if hi >= 0:
        v = min(v, hi)
    return v


def auto_bindings(model: ov.Model):
    """Three bindings: every dynamic dim at 4, at 1, at 7 (clamped into intervals);
    dynamic-rank inputs get [2,3], [1], [3,1,4]."""
    out = []
    for v, rank_dims in ((4, [2, 3]), (1, [1]), (7, [3, 1, 4])):
        b = {}
        for p in model.get_parameters():
            ps = p.get_output_partial_shape(0)
            if ps.is_static:
                continue
            if ps.rank.is_dynamic:
                b[p.get_friendly_name()] = list(rank_dims)
            else:
                b[p.get_friendly_name()] = [d.get_length() if d.is_static else _clamp(v, d) for d in ps]
        if b and b not in out:
            out.append(b)
    return out


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------


def passthrough():
    x = P("x", [2, 3])
    case("passthrough_static", "Parameter -> Result, static", [x], [(x, "y")])
    a = P("a", [-1, 3, D(2, 10)])
    b = P("b", [], I64)
    c = C([1, 2, 3], "c")
    case(
        "passthrough_dynamic",
        "Parameters (dynamic, interval, scalar) and a Const straight to Results",
        [a, b],
        [(a, "ya"), (b, "yb"), (c, "yc")],
    )


def select_cases():
    t = P("then", [2, 3, 4, 5])
    e = P("else", [2, 3, 4, 5])
    c1 = P("cond45", [4, 5], BOOL)
    c2 = P("cond315", [3, 1, 5], BOOL)
    s1 = N(ops.select(c1, t, e, "numpy"), "sel_cond45")
    s2 = N(ops.select(c2, t, e, "numpy"), "sel_cond315")
    case("select_numpy_spec", "Select numpy: the spec's cond {4,5} and {3,1,5} against {2,3,4,5}", [c1, c2, t, e], [s1, s2])

    c = P("cond", [-1, 1], BOOL)
    t = P("then", [D(1, 8), -1, 4])
    e = P("else", [1])
    s = N(ops.select(c, t, e, "numpy"), "sel")
    case(
        "select_numpy_dynamic",
        "Select numpy with dynamic and interval dims",
        [c, t, e],
        [s],
        [
            {"cond": [3, 1], "then": [2, 3, 4]},
            {"cond": [1, 1], "then": [1, 5, 4]},
            # cond widens then/else here: beyond the spec's one-way step 2,
            # but OpenVINO's runtime merges cond both ways, and so do we (with
            # a select-cond-broadcast warning).
            {"cond": [6, 1], "then": [8, 1, 4]},
            {"cond": [6, 1], "then": [8, 6, 4]},
            {"cond": [3, 1], "then": [2, 4, 4]},
        ],
    )

    # OpenVINO's runtime broadcasts cond both ways (its ONNX frontend writes
    # `Where` as such a Select): [2,1] with [1,3] and [2,1,1,3] is [2,1,2,3].
    c = P("cond", [2, 1], BOOL)
    t = P("then", [1, 3])
    e = P("else", [2, 1, 1, 3])
    e2 = P("else13", [1, 3])
    s = N(ops.select(c, t, e, "numpy"), "sel_wider")
    s2 = N(ops.select(c, t, e2, "numpy"), "sel_cond_wider")
    case("select_numpy_cond_both_ways", "Select numpy where cond widens then/else (OpenVINO's runtime, beyond the spec)", [c, t, e, e2], [s, s2])

    c = P("cond", [2, 3], BOOL)
    t = P("then", [2, 3, 4, 5])
    e = P("else", [2, 3, 4, 5])
    s = N(ops.select(c, t, e, "pdpd"), "sel_pdpd")
    c2 = P("cond_dyn", [-1, 3], BOOL)
    t2 = P("then_dyn", [-1, 3, 4])
    s2 = N(ops.select(c2, t2, t2, "pdpd"), "sel_pdpd_dyn")
    case("select_pdpd", "Select pdpd", [c, t, e, c2, t2], [s, s2], [{"cond_dyn": [2, 3], "then_dyn": [2, 3, 4]}, {"cond_dyn": [1, 3], "then_dyn": [1, 3, 4]}])

    c = P("cond", [-1, D(2, 6)], BOOL)
    t = P("then", [-1, D(2, 6)])
    e = P("else", [-1, D(2, 6)])
    s = N(ops.select(c, t, e, "none"), "sel_none")
    case(
        "select_none",
        "Select without broadcasting",
        [c, t, e],
        [s],
        [{"cond": [3, 4], "then": [3, 4], "else": [3, 4]}, {"cond": [1, 2], "then": [1, 2], "else": [1, 2]}],
    )


def reshape_cases():
    x = P("x", [2, 3, 4])
    r1 = N(ops.reshape(x, C([6, -1], "t1"), False), "rs_minus1")
    r2 = N(ops.reshape(x, C([0, 12], "t2"), True), "rs_zero_copy")
    r4 = N(ops.reshape(x, C([0, -1, 2], "t4"), True), "rs_zero_minus1")
    r5 = N(ops.reshape(x, C([24], "t5"), False), "rs_flat")
    y = P("y", [1, 1])
    r6 = N(ops.reshape(y, C([], "t6"), False), "rs_scalar")
    case("reshape_static", "Reshape static: -1, special_zero true/false, to scalar", [x, y], [r1, r2, r5, r4, r6])
    z = P("z", [0, 5])
    r7 = N(ops.reshape(z, C([4, 0, 3], "t7"), False), "rs_empty_literal_zero")
    r8 = N(ops.reshape(z, C([-1, 10], "t8"), False), "rs_empty_minus1")
    case("reshape_empty", "Reshape of an empty tensor", [z], [r7, r8])

    x = P("x", [-1, 3, -1, 5])
    r = N(ops.reshape(x, C([0, -1], "t"), True), "rs_flatten")
    h = P("hidden", [-1, -1, 64])
    r2 = N(ops.reshape(h, C([0, 0, 4, 16], "t2"), True), "rs_heads")
    r3 = N(ops.reshape(h, C([-1, 8], "t3"), False), "rs_minus1_dyn")
    case("reshape_dynamic", "Reshape of dynamic inputs: [?,3,?,5] to [0,-1]; [?,?,64] to [0,0,4,16] and [-1,8]", [x, h], [r, r2, r3])

    x = P("x", [D(1, 8), 6, D(2, 4)])
    r = N(ops.reshape(x, C([0, 2, -1], "t"), True), "rs_interval")
    r2 = N(ops.reshape(x, C([-1], "t2"), False), "rs_interval_flat")
    case("reshape_interval", "Reshape of interval dims", [x], [r, r2])


def slice_cases():
    x = P("x", [10, 8, 6])

    def sl(name, start, stop, step, axes=None):
        a = [C(start, name + "/start"), C(stop, name + "/stop"), C(step, name + "/step")]
        if axes is not None:
            a.append(C(axes, name + "/axes"))
        return N(ops.slice(x, *a), name)

    outs = [
        sl("sl_basic", [1, 2], [9, 7], [2, 3], [0, 1]),
        sl("sl_neg_step", [-1], [INT_MIN], [-1], [0]),
        sl("sl_neg_step2", [8, 5], [1, 0], [-3, -2], [0, 2]),
        sl("sl_oob_start", [20, -20], [INT_MAX, 3], [1, 1], [0, 1]),
        sl("sl_int_max", [2], [INT_MAX], [1], [-1]),
        sl("sl_neg_axes", [-3, 1], [-1, 100], [1, 2], [-2, -1]),
        sl("sl_no_axes", [0, 1, 2], [5, 5, 5], [1, 1, 1]),
        sl("sl_empty", [5], [2], [1], [0]),
    ]
    case("slice_static", "Slice-8 on static dims", [x], outs)

    for name, shape, binds in (
        ("slice_dynamic", [-1, -1, 6], None),
        ("slice_interval", [D(2, 10), D(1, 5), 6], [{"x": [2, 1, 6]}, {"x": [7, 3, 6]}, {"x": [10, 5, 6]}]),
    ):
        x = P("x", shape)
        outs = [
            sl("sl_basic", [1, 2], [9, 7], [2, 3], [0, 1]),
            sl("sl_to_minus1", [1], [-1], [1], [0]),
            sl("sl_neg_step", [-1], [INT_MIN], [-1], [0]),
            sl("sl_neg_step2", [-2], [0], [-2], [1]),
            sl("sl_oob_start", [20], [INT_MAX], [1], [1]),
            sl("sl_int_max", [2], [INT_MAX], [1], [-3]),
            sl("sl_neg_axes", [-3], [100], [2], [-2]),
            sl("sl_from_end", [-2], [INT_MAX], [1], [0]),
        ]
        case(name, f"Slice-8 on {name.split('_')[1]} dims", [x], outs, binds)


BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_mod",
    "mod",
    "power",
    "maximum",
    "minimum",
    "squared_difference",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
]


def binary_cases():
    for op in BINARY:
        f = getattr(ops, op)
        dt = BOOL if op.startswith("logical") else F32
        a = P("a", [2, 1, 4], dt)
        b = P("b", [3, 1], dt)
        s = P("s", [], dt)
        x = P("x", [-1, 1, D(2, 6)], dt)
        y = P("y", [-1, 5, 1], dt)
        z = P("z", [-1], dt)
        outs = [
            N(f(a, b), op + "_static"),
            N(f(a, s), op + "_scalar"),
            N(f(x, y), op + "_dynamic"),
            N(f(y, z), op + "_dyn_rank_up"),
            N(f(a, a, auto_broadcast="none"), op + "_none"),
        ]
        case(
            "binary_" + op,
            f"{op}: numpy broadcasting, static, scalar, dynamic and interval; none",
            [a, b, s, x, y, z],
            outs,
            [
                {"x": [3, 1, 4], "y": [3, 5, 1], "z": [1]},
                {"x": [1, 1, 2], "y": [4, 5, 1], "z": [6]},
                {"x": [2, 1, 6], "y": [1, 5, 1], "z": [1]},
            ],
        )
    # An element type other than f32
    a = P("a", [-1, 4], np.int32)
    b = P("b", [4], np.int32)
    case("binary_add_i32", "Add on i32", [a, b], [N(ops.add(a, b), "add_i32")])


UNARY = [
    ("abs", lambda x: ops.abs(x)),
    ("negative", lambda x: ops.negative(x)),
    ("relu", lambda x: ops.relu(x)),
    ("prelu", lambda x: ops.prelu(x, C([0.1, 0.2, 0.3], "slope", F32))),
    ("sigmoid", lambda x: ops.sigmoid(x)),
    ("tanh", lambda x: ops.tanh(x)),
    ("exp", lambda x: ops.exp(x)),
    ("log", lambda x: ops.log(x)),
    ("sqrt", lambda x: ops.sqrt(x)),
    ("erf", lambda x: ops.erf(x)),
    ("floor", lambda x: ops.floor(x)),
    ("ceiling", lambda x: ops.ceiling(x)),
    ("round", lambda x: ops.round(x, "half_away_from_zero")),
    ("sign", lambda x: ops.sign(x)),
    ("clamp", lambda x: ops.clamp(x, -1.0, 2.0)),
    ("gelu", lambda x: ops.gelu(x, "tanh")),
    ("hswish", lambda x: ops.hswish(x)),
    ("hsigmoid", lambda x: ops.hsigmoid(x)),
    ("hard_sigmoid", lambda x: ops.hard_sigmoid(x, C(0.2, "alpha", F32), C(0.5, "beta", F32))),
    ("swish", lambda x: ops.swish(x, C(1.5, "beta", F32))),
    ("mish", lambda x: ops.mish(x)),
    ("softplus", lambda x: ops.softplus(x)),
    ("elu", lambda x: ops.elu(x, 1.0)),
    ("logical_not", lambda x: ops.logical_not(x)),
    ("convert", lambda x: ops.convert(x, "i32")),
    ("convert_like", lambda x: ops.convert_like(x, C([1], "like", np.int8))),
]


def unary_cases():
    for op, f in UNARY:
        dt = BOOL if op == "logical_not" else F32
        x = P("x", [-1, 3, D(2, 10)], dt)
        s = P("s", [], dt)
        r = P("r", "...", dt)
        outs = [N(f(x), op + "_dynamic"), N(f(s), op + "_scalar"), N(f(r), op + "_dyn_rank")]
        binds = [{"x": [4, 3, 4], "r": [2, 3]}, {"x": [1, 3, 10], "r": []}]
        case("unary_" + op, f"{op} on dynamic, interval, scalar and dynamic-rank inputs", [x, s, r], outs, binds)
    x = P("x", [2, -1], np.bool_)
    c1 = N(ops.convert(x, "f16"), "convert_bool_f16")
    y = P("y", [-1], np.int64)
    c2 = N(ops.convert(y, "u8"), "convert_i64_u8")
    like = P("like", [7], F32)
    c3 = N(ops.convert_like(y, like), "convert_like_f32")
    case("unary_convert_types", "Convert / ConvertLike between element types", [x, y, like], [c1, c2, c3])


def shapeof_cases():
    x = P("x", [-1, 3, D(2, 10)])
    r = P("r", "...")
    s = P("s", [])
    outs = [N(ops1.shape_of(x), "shapeof1"), N(ops1.shape_of(r), "shapeof1_dyn_rank"), N(ops1.shape_of(s), "shapeof1_scalar")]
    case("shapeof_1", "ShapeOf-1", [x, r, s], outs)
    x = P("x", [-1, 3, D(2, 10)])
    r = P("r", "...")
    s = P("s", [])
    outs = [N(ops3.shape_of(x, "i32"), "shapeof3_i32"), N(ops3.shape_of(r, "i64"), "shapeof3_dyn_rank"), N(ops3.shape_of(s), "shapeof3_scalar")]
    case("shapeof_3", "ShapeOf-3 (i32 and i64)", [x, r, s], outs)


def gather_cases():
    x = P("x", [-1, 5, D(2, 6)])
    i = P("i", [-1, 2], np.int32)
    outs = [
        N(ops1.gather(x, C([[0, 1], [2, 0]], "idx"), C(1, "ax")), "gather1_axis1"),
        N(ops1.gather(x, i, C(0, "ax0")), "gather1_param_idx"),
        N(ops1.gather(x, C(2, "idx_scalar"), C(2, "ax2")), "gather1_scalar_idx"),
    ]
    case("gather_1", "Gather-1", [x, i], outs)

    x = P("x", [-1, 4, D(2, 6)])
    i = P("i", [-1, 3], np.int32)
    outs = [
        N(ops7.gather(x, i, C(1, "ax"), 1), "gather7_batch1"),
        N(ops7.gather(x, C([0, 2], "idx"), C(-1, "axm1"), 0), "gather7_neg_axis"),
        N(ops7.gather(x, i, C(-2, "axm2"), -1), "gather7_batch_neg"),
    ]
    case("gather_7", "Gather-7 with batch_dims", [x, i], outs, [{"x": [2, 4, 3], "i": [2, 3]}, {"x": [1, 4, 6], "i": [1, 3]}, {"x": [5, 4, 2], "i": [5, 3]}])

    x = P("x", [-1, 4, D(2, 6)])
    i = P("i", [-1, 3], np.int64)
    outs = [
        N(ops8.gather(x, C([-1, 0, -4], "idx_neg"), C(1, "ax"), 0), "gather8_neg_idx"),
        N(ops8.gather(x, i, C(2, "ax2"), 1), "gather8_batch1"),
        N(ops8.gather(x, C(-1, "idx_scalar"), C(0, "ax0"), 0), "gather8_scalar_neg"),
    ]
    case("gather_8", "Gather-8: negative indices, batch_dims", [x, i], outs, [{"x": [2, 4, 3], "i": [2, 3]}, {"x": [1, 4, 6], "i": [1, 3]}, {"x": [3, 4, 2], "i": [3, 3]}])


def concat_cases():
    a = P("a", [-1, 3, 4])
    b = P("b", [2, D(1, 5), 4])
    c = P("c", [-1, -1, -1])
    outs = [
        N(ops.concat([a, b, c], 1), "concat_axis1"),
        N(ops.concat([a, a], -1), "concat_neg_axis"),
        N(ops.concat([a, C(np.zeros((1, 3, 4)), "zeros", F32)], 0), "concat_axis0"),
    ]
    case("concat", "Concat with dynamic and interval dims, negative axis", [a, b, c], outs, [{"a": [2, 3, 4], "b": [2, 1, 4], "c": [2, 6, 4]}, {"a": [1, 3, 4], "b": [2, 5, 4], "c": [2, 2, 4]}])


def squeeze_cases():
    x = P("x", [1, -1, 1, D(1, 3)])
    outs = [
        N(ops.squeeze(x, C([0, 2], "axes")), "squeeze_axes"),
        N(ops.squeeze(x, C([-2], "axes_neg")), "squeeze_neg"),
    ]
    y = P("y", [1, 4, 1])
    outs.append(N(ops1.squeeze(y, C([], "axes_empty")), "squeeze_no_axes"))
    case("squeeze", "Squeeze with axes, negative axes, and all ones", [x, y], outs, [{"x": [1, 5, 1, 2]}, {"x": [1, 1, 1, 3]}])
    x = P("x", [-1, D(2, 5)])
    outs = [
        N(ops.unsqueeze(x, C([0, 3], "axes")), "unsqueeze_axes"),
        N(ops.unsqueeze(x, C([-1], "axes_neg")), "unsqueeze_neg"),
    ]
    s = P("s", [])
    outs.append(N(ops.unsqueeze(s, C(0, "axes_scalar")), "unsqueeze_scalar"))
    case("unsqueeze", "Unsqueeze", [x, s], outs)


def broadcast_cases():
    x = P("x", [-1, 1])
    y = P("y", [3])
    outs = [
        N(ops1.broadcast(y, C([2, 4, 3], "target")), "bc1_numpy"),
        N(ops1.broadcast(y, C([3, 2], "target_x"), C([0], "map"), "EXPLICIT"), "bc1_explicit"),
        N(ops1.broadcast(x, C([2, 5, 4], "target_d")), "bc1_numpy_dyn"),
    ]
    case("broadcast_1", "Broadcast-1 numpy and explicit", [x, y], outs, [{"x": [5, 1]}, {"x": [1, 1]}])
    x = P("x", [-1, 1])
    t = P("t", [3], np.int64)
    outs = [
        N(ops3.broadcast(x, C([2, 1, 6], "target_bi"), broadcast_spec="BIDIRECTIONAL"), "bc3_bidirectional"),
        N(ops3.broadcast(x, C([4], "target_small"), broadcast_spec="BIDIRECTIONAL"), "bc3_bidir_small"),
        N(ops3.broadcast(x, C([7, 3, 5], "target_np"), broadcast_spec="NUMPY"), "bc3_numpy"),
        N(ops3.broadcast(x, C([2, 3, 4], "target_ex"), C([0, 2], "map"), "EXPLICIT"), "bc3_explicit"),
        N(ops3.broadcast(C([1.0], "one", F32), t, broadcast_spec="BIDIRECTIONAL"), "bc3_param_target"),
    ]
    case("broadcast_3", "Broadcast-3 numpy, bidirectional, explicit", [x, t], outs, [{"x": [3, 1]}, {"x": [1, 1]}, {"x": [2, 1]}])


def strided_slice_cases():
    x = P("x", [-1, 6, D(2, 10), 4])
    c = lambda v, n: C(v, n)  # noqa: E731
    outs = [
        N(ops.strided_slice(x, c([0, 1], "b1"), c([0, 5], "e1"), c([1, 2], "s1"), [1, 0], [1, 0]), "ss_masks"),
        N(ops.strided_slice(x, c([0, 0, 0], "b2"), c([0, 0, 0], "e2"), c([1, 1, 1], "s2"), [0, 0, 0], [0, 0, 0], [0, 1, 0], [0, 0, 0], [0, 0, 0]), "ss_new_axis"),
        N(ops.strided_slice(x, c([0, 2], "b3"), c([1, 3], "e3"), c([1, 1], "s3"), [0, 0], [0, 0], [], [1, 1]), "ss_shrink"),
        N(ops.strided_slice(x, c([0, 1], "b4"), c([0, 3], "e4"), c([1, 1], "s4"), [0, 0], [0, 0], [], [], [1, 0]), "ss_ellipsis"),
        N(ops.strided_slice(x, c([-1, -2], "b5"), c([0, 0], "e5"), c([-1, -1], "s5"), [0, 0], [1, 1]), "ss_neg_stride"),
        N(ops.strided_slice(x, c([1, 0, 1], "b6"), c([100, 4, -1], "e6"), c([1, 1, 2], "s6"), [0, 0, 0], [0, 0, 0]), "ss_plain"),
    ]
    case("strided_slice", "StridedSlice: begin/end masks, new_axis, shrink_axis, ellipsis, negative strides", [x], outs, [{"x": [5, 6, 2, 4]}, {"x": [1, 6, 10, 4]}, {"x": [3, 6, 7, 4]}])


def range_cases():
    s = P("stop", [], np.int64)
    outs = [
        N(ops.range(C(0, "r0_start"), C(10, "r0_stop"), C(3, "r0_step"), "i64"), "range_const"),
        N(ops.range(C(10.0, "r1_start", F32), C(1.0, "r1_stop", F32), C(-2.5, "r1_step", F32), "f32"), "range_neg_float"),
        N(ops.range(C(0, "r2_start"), s, C(1, "r2_step"), "i64"), "range_param_stop"),
        N(ops.range(C(5, "r3_start"), C(2, "r3_stop"), C(1, "r3_step"), "i32"), "range_empty"),
    ]
    case("range_4", "Range-4 with constant and run-time bounds", [s], outs)


REDUCE = ["reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_mean"]


def reduce_cases():
    for op in REDUCE:
        f = getattr(ops, op)
        x = P("x", [-1, 3, D(2, 10), 4])
        outs = [
            N(f(x, C([1, -1], "axes"), False), op + "_drop"),
            N(f(x, C([1, -1], "axes_k"), True), op + "_keep"),
            N(f(x, C(0, "axis_scalar"), True), op + "_scalar_axis"),
            N(f(x, C([], "axes_none"), False), op + "_no_axes"),
            N(f(x, C([0, 1, 2, 3], "axes_all"), False), op + "_all"),
        ]
        case(op, f"{op}: keep_dims, negative axes", [x], outs)


def transpose_cases():
    x = P("x", [-1, 3, D(2, 10), 5])
    outs = [
        N(ops.transpose(x, C([0, 2, 3, 1], "order")), "transpose_perm"),
        N(ops.transpose(x, C([], "order_empty")), "transpose_reverse"),
    ]
    s = P("s", [])
    outs.append(N(ops.transpose(s, C([], "order_scalar")), "transpose_scalar"))
    case("transpose", "Transpose with an order, an empty order (reverse)", [x, s], outs)


def matmul_cases():
    a = P("a", [-1, 1, D(2, 6), 8])
    b = P("b", [3, 8, 5])
    v = P("v", [8])
    w = P("w", [-1, 8])
    c = P("c", [4, 8])
    outs = [
        N(ops.matmul(a, b, False, False), "mm_batch_bcast"),
        N(ops.matmul(a, v, False, False), "mm_vec_right"),
        N(ops.matmul(v, b, False, False), "mm_vec_left"),
        N(ops.matmul(v, v, False, False), "mm_dot"),
        N(ops.matmul(a, c, False, True), "mm_transpose_b"),
        N(ops.matmul(b, w, True, True), "mm_transpose_ab"),
        N(ops.matmul(w, w, True, False), "mm_transpose_a"),
    ]
    case("matmul", "MatMul: transpose_a/b, 1-D operands, batch broadcast", [a, b, v, w, c], outs, [{"a": [2, 1, 3, 8], "w": [5, 8]}, {"a": [1, 1, 6, 8], "w": [1, 8]}])


def softmax_cases():
    x = P("x", [-1, 3, D(2, 10)])
    case("softmax_1", "Softmax-1", [x], [N(ops1.softmax(x, 1), "softmax1")])
    x = P("x", [-1, 3, D(2, 10)])
    case("softmax_8", "Softmax-8 (negative axis)", [x], [N(ops8.softmax(x, -1), "softmax8_neg"), N(ops8.softmax(x, 0), "softmax8_0")])


def tile_cases():
    x = P("x", [-1, 3, D(2, 5)])
    outs = [
        N(ops.tile(x, C([2, 1, 3], "rep")), "tile_same_rank"),
        N(ops.tile(x, C([2, 2, 1, 1], "rep_more")), "tile_more"),
        N(ops.tile(x, C([4], "rep_less")), "tile_less"),
        N(ops.tile(x, C([1, 0, 1], "rep_zero")), "tile_zero"),
    ]
    case("tile", "Tile with repeats of equal, larger and smaller rank, and a zero", [x], outs)


def pad_cases():
    x = P("x", [-1, 3, D(2, 10)])
    outs = [
        N(ops1.pad(x, C([0, 1, 2], "pb"), C([1, 0, 3], "pe"), "constant", C(0.0, "pv", F32)), "pad1_constant"),
        N(ops1.pad(x, C([1, 1, 1], "pb_r"), C([1, 1, 1], "pe_r"), "reflect"), "pad1_reflect"),
        N(ops1.pad(x, C([0, 0, 1], "pb_e"), C([2, 0, 0], "pe_e"), "edge"), "pad1_edge"),
    ]
    case("pad_1", "Pad-1 constant, reflect, edge", [x], outs)
    x = P("x", [-1, 3, D(2, 10)])
    outs = [
        N(ops12.pad(x, C([0, -1, 2], "pb"), C([1, 0, -1], "pe"), "constant"), "pad12_negative"),
        N(ops12.pad(x, C([1, 0, 0], "pb_s"), C([0, 2, 0], "pe_s"), "symmetric"), "pad12_symmetric"),
    ]
    case("pad_12", "Pad-12 with negative pads", [x], outs)


def split_cases():
    x = P("x", [-1, 6, D(2, 10)])
    sp = N(ops.split(x, C(1, "axis"), 3), "split3")
    sp2 = N(ops.split(x, C(-3, "axis_neg"), 1), "split1_neg")
    outs = [sp.output(0), sp.output(1), sp.output(2), sp2.output(0)]
    case("split", "Split into 3 on axis 1, into 1 on a negative axis", [x], outs, [{"x": [4, 6, 2]}, {"x": [1, 6, 10]}])
    x = P("x", [-1, 6, D(2, 10)])
    v = N(ops.variadic_split(x, C(1, "axis"), C([1, -1, 2], "lengths")), "vsplit_minus1")
    v2 = N(ops.variadic_split(x, C(2, "axis2"), C([-1, 1], "lengths2")), "vsplit_dyn_axis")
    outs = [v.output(0), v.output(1), v.output(2), v2.output(0), v2.output(1)]
    case("variadic_split", "VariadicSplit with -1, on static and interval axes", [x], outs, [{"x": [4, 6, 2]}, {"x": [1, 6, 10]}, {"x": [3, 6, 5]}])


def nonzero_cases():
    x = P("x", [-1, 3, D(2, 10)])
    s = P("s", [4])
    outs = [N(ops.non_zero(x, "i64"), "nonzero_dyn"), N(ops.non_zero(s, "i32"), "nonzero_static")]
    case("nonzero", "NonZero (data-dependent count)", [x, s], outs)


def subgraph_cases():
    h = P("hidden", [-1, -1, 64])
    sh = N(ops.shape_of(h), "shape")
    g = N(ops8.gather(sh, C([0, 1], "idx"), C(0, "axis"), 0), "gather_bs")
    cat = N(ops.concat([g, C([4, 16], "heads")], 0), "target")
    r = N(ops.reshape(h, cat, False), "reshape")
    case("subgraph_shapeof_gather_concat_reshape", "ShapeOf -> Gather -> Concat -> Reshape", [h], [r])

    x = P("x", [-1, 3, -1])
    sh = N(ops.shape_of(x), "shape")
    head = N(ops.strided_slice(sh, C([0], "b0"), C([1], "e0"), C([1], "s0"), [1], [0]), "ss_head")
    tail = N(ops.strided_slice(sh, C([1], "b1"), C([3], "e1"), C([1], "s1"), [0], [0]), "ss_tail")
    prod = N(ops.reduce_prod(tail, C([0], "axes"), True), "prod")
    cat = N(ops.concat([head, prod], 0), "target")
    r = N(ops.reshape(x, cat, False), "reshape")
    case("subgraph_stridedslice_reduceprod_reshape", "ShapeOf -> StridedSlice -> ReduceProd -> Concat -> Reshape (flatten)", [x], [r])

    x = P("x", [-1, D(2, 10)])
    sh = N(ops.shape_of(x), "shape")
    d1 = N(ops8.gather(sh, C(1, "idx1"), C(0, "axis"), 0), "dim1")
    rg = N(ops.range(C(0, "start"), d1, C(1, "step"), "i64"), "range")
    case("subgraph_range_shapeof", "Range(0, ShapeOf(x)[1])", [x], [rg])


# ---------------------------------------------------------------------------
# Invalid cases: a valid IR whose XML text is then edited.
# ---------------------------------------------------------------------------

INVALID = []  # (name, layer, edit description, model, edit function)


def _param_edit(param_name, new_dims):
    """Rewrites the Parameter's shape attribute and its port dims."""

    def edit(xml: str) -> str:
        pat = re.compile(r'(<layer id="\d+" name="' + re.escape(param_name) + r'" type="Parameter".*?</layer>)', re.S)
        m = pat.search(xml)
        assert m, param_name
        layer = m.group(1)
        layer2 = re.sub(r'shape="[^"]*"', 'shape="' + ",".join(map(str, new_dims)) + '"', layer, count=1)
        dims = "".join(f"\n\t\t\t\t\t<dim>{d}</dim>" for d in new_dims)
        layer2 = re.sub(r"(<port id=\"0\"[^>]*>)(\s*<dim>.*?</dim>)+", lambda mm: mm.group(1) + dims, layer2, count=1, flags=re.S)
        assert layer2 != layer
        return xml.replace(layer, layer2)

    return edit


def invalid_cases():
    x = P("x", [2, 3, 4])
    r = N(ops.reshape(x, C([6, 4], "target"), False), "reshape")
    INVALID.append(("invalid_reshape_count", "reshape", "x: [2,3,4] -> [2,3,5] (30 elements into [6,4])", ov.Model([ops.result(r)], [x]), _param_edit("x", [2, 3, 5])))

    c = P("cond", [4, 5], BOOL)
    t = P("then", [2, 3, 4, 5])
    s = N(ops.select(c, t, t, "numpy"), "select")
    INVALID.append(("invalid_select_cond", "select", "cond: [4,5] -> [3,5] against [2,3,4,5]", ov.Model([ops.result(s)], [c, t]), _param_edit("cond", [3, 5])))

    a = P("a", [2, 3])
    b = P("b", [2, 4])
    cc = N(ops.concat([a, b], 1), "concat")
    INVALID.append(("invalid_concat_dims", "concat", "b: [2,4] -> [3,4] (axis 1 concat, dim 0 differs)", ov.Model([ops.result(cc)], [a, b]), _param_edit("b", [3, 4])))

    x = P("x", [10, 4])
    sl = N(ops.slice(x, C([0], "start"), C([5], "stop"), C([1], "step"), C([0], "axes")), "slice")

    def step_zero(xml: str) -> str:
        # Point the step Const at the bytes of the start Const ([0]).
        start = re.search(r'name="start" type="Const"[^>]*>\s*<data [^>]*offset="(\d+)"', xml).group(1)
        return re.sub(r'(name="step" type="Const"[^>]*>\s*<data [^>]*offset=")\d+(")', lambda m: m.group(1) + start + m.group(2), xml)

    INVALID.append(("invalid_slice_step_zero", "slice", "step Const re-pointed at the bytes of start ([0])", ov.Model([ops.result(sl)], [x]), step_zero))

    a = P("a", [2, 3])
    b = P("b", [3, 5])
    mm = N(ops.matmul(a, b, False, False), "matmul")
    INVALID.append(("invalid_matmul_k", "matmul", "b: [3,5] -> [4,5]", ov.Model([ops.result(mm)], [a, b]), _param_edit("b", [4, 5])))

    a = P("a", [2, 3])
    b = P("b", [2, 3])
    ad = N(ops.add(a, b), "add")
    INVALID.append(("invalid_add_broadcast", "add", "b: [2,3] -> [4,3]", ov.Model([ops.result(ad)], [a, b]), _param_edit("b", [4, 3])))

    x = P("x", [2, 3, 4])
    tr = N(ops.transpose(x, C([2, 0, 1], "order")), "transpose")
    INVALID.append(("invalid_transpose_order", "transpose", "x: [2,3,4] -> [2,3] against order [2,0,1]", ov.Model([ops.result(tr)], [x]), _param_edit("x", [2, 3])))


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

AUTO_NAME = re.compile(r"^[A-Za-z]+_\d+$")


def finalize_names(model: ov.Model):
    """Names every node the builders left unnamed `<type>_<k>` and numbers repeated
    names `<name>_<k>` (k: index in topological order)."""
    seen = set()
    for k, op in enumerate(model.get_ordered_ops()):
        if AUTO_NAME.match(op.get_friendly_name()):
            op.set_friendly_name(f"{op.get_type_name().lower()}_{k}")
        name = op.get_friendly_name()
        if name in seen:  # a helper Const built once per use: number it
            name = f"{name}_{k}"
            op.set_friendly_name(name)
        assert name not in seen, f"{model.get_friendly_name()}: duplicate name {name}"
        seen.add(name)


def op_view(model: ov.Model, layers: set[str]) -> list[dict]:
    """Every op the Results reach, but the Constants that are no layer of
    the file (``layers``): OpenVINO's reader adds them (LSTMCell-1's zero
    peepholes, which its writer leaves out of the IR), and their names are
    process-global counters that would change on every run."""
    out = []
    for op in model.get_ordered_ops():
        if op.get_type_name() == "Constant" and op.get_friendly_name() not in layers:
            continue
        d = {
            "name": op.get_friendly_name(),
            "type": op.get_type_name(),
            "version": op.get_type_info().version_id,
            "outputs": [
                {"element_type": o.get_element_type().get_type_name(), "shape": str(o.get_partial_shape())}
                for o in op.outputs()
            ],
        }
        if op.get_type_name() == "Constant" and int(np.prod(op.get_output_shape(0))) <= 16:
            d["value"] = np.asarray(op.get_data()).tolist()
        out.append(d)
    return out


def clean_error(e: Exception) -> str:
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    lines = [ln for ln in lines if not ln.startswith("Exception from") and not ln.startswith("Check '")] or lines
    # Nodes are validated before they get their friendly names: drop the
    # process-global counters of the default names (`Add_30429`).
    text = re.sub(r"\b([A-Za-z]+)_\d+\b", r"\1_#", " | ".join(lines))
    return text[:400]


def write_case(name, what, model, bindings):
    finalize_names(model)
    xml = os.path.join(OUT, name + ".xml")
    ov.save_model(model, xml, compress_to_fp16=False)
    core = ov.Core()
    m = core.read_model(xml)
    layers = {m.group(1) for m in re.finditer(r'<layer id="\d+" name="([^"]*)"', open(xml, encoding="utf-8").read())}
    if bindings is None:
        bindings = auto_bindings(m)
    g = {
        "openvino_version": ov.get_version(),
        "model": name + ".xml",
        "what": what,
        "dynamic": op_view(m, layers),
        "static_bindings": [],
    }
    for b in bindings:
        entry = {"inputs": b}
        m2 = core.read_model(xml)
        try:
            m2.reshape({k: ov.PartialShape(v) for k, v in b.items()})
            entry["ops"] = op_view(m2, layers)
        except Exception as e:  # noqa: BLE001 - OpenVINO rejects the binding: record why
            entry["error"] = clean_error(e)
            entry["invalid"] = True
        g["static_bindings"].append(entry)
    return g


def write_invalid(name, layer, edit_what, model, edit):
    g = write_case(name, edit_what, model, [])
    xml_path = os.path.join(OUT, name + ".xml")
    with open(xml_path, encoding="utf-8") as f:
        xml = f.read()
    with open(xml_path, "w", encoding="utf-8", newline="\n") as f:
        f.write(edit(xml))
    stage, error = "none", ""
    try:
        m = ov.Core().read_model(xml_path)
        stage = "validate"
        m.validate_nodes_and_infer_types()
        stage = "compile"
        ov.Core().compile_model(m, "CPU")
        stage, error = "accepted", ""
    except Exception as e:  # noqa: BLE001
        if stage == "none":
            stage = "read_model"
        error = clean_error(e)
    assert stage != "accepted", f"{name}: OpenVINO accepts the edited model"
    g["invalid"] = {"expected_rule": EXPECTED_RULES[name], "layer": layer, "edit": edit_what, "stage": stage, "error": error}
    return g


def dump(g: dict) -> str:
    """Compact JSON, one op per line (keeps the folder small and diffs readable)."""
    j = lambda v: json.dumps(v, separators=(",", ":"))  # noqa: E731

    def ops_list(lst, indent):
        return "[\n" + ",\n".join(indent + j(o) for o in lst) + "\n" + indent[:-1] + "]"

    parts = []
    for k, v in g.items():
        if k == "dynamic":
            parts.append(f"{j(k)}:" + ops_list(v, "  "))
        elif k == "static_bindings":
            bs = []
            for b in v:
                inner = [f"{j(bk)}:" + (ops_list(bv, "   ") if bk == "ops" else j(bv)) for bk, bv in b.items()]
                bs.append("  {" + ",\n   ".join(inner) + "}")
            parts.append(f"{j(k)}:[" + ("\n" + ",\n".join(bs) + "\n " if bs else "") + "]")
        else:
            parts.append(f"{j(k)}:{j(v)}")
    text = "{\n " + ",\n ".join(parts) + "\n}\n"
    assert json.loads(text) == g
    return text


def family_builders():
    """The ``build()`` of every module in ``scripts/goldens/`` (one per op
    family, in file-name order). A family module adds its cases with this
    module's helpers: ``import gen_op_goldens as g; g.case(...)``."""
    import importlib.util

    # Family modules import this module by name: when it runs as a script,
    # that name must be this very module (one CASES list), not a second copy.
    sys.modules.setdefault("gen_op_goldens", sys.modules[__name__])
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "goldens")
    if not os.path.isdir(folder):
        return []
    builders = []
    for file in sorted(os.listdir(folder)):
        if not file.endswith(".py") or file.startswith("_"):
            continue
        spec = importlib.util.spec_from_file_location(f"goldens_{file[:-3]}", os.path.join(folder, file))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        builders.append(module.build)
    return builders


def main() -> int:
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    for build in (
        passthrough,
        select_cases,
        reshape_cases,
        slice_cases,
        binary_cases,
        unary_cases,
        shapeof_cases,
        gather_cases,
        concat_cases,
        squeeze_cases,
        broadcast_cases,
        strided_slice_cases,
        range_cases,
        reduce_cases,
        transpose_cases,
        matmul_cases,
        softmax_cases,
        tile_cases,
        pad_cases,
        split_cases,
        nonzero_cases,
        subgraph_cases,
        invalid_cases,
    ):
        build()
    for build in family_builders():
        build()
    names = set()
    outputs = [(c.name, lambda c=c: write_case(c.name, c.what, c.model, c.bindings)) for c in CASES]
    outputs += [(i[0], lambda i=i: write_invalid(*i)) for i in INVALID]
    for name, make in outputs:
        assert name not in names, name
        names.add(name)
        g = make()
        with open(os.path.join(OUT, name + ".json"), "w", encoding="utf-8", newline="\n") as f:
            f.write(dump(g))
    print(f"wrote {len(names)} cases to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
