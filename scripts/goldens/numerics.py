"""Numerics ops (issue 17): LogSoftmax-5 on every axis, f16 and i32 data and
a scalar; each on dynamic and interval dims with static bindings."""

import numpy as np
import openvino.opset5 as ops5

import gen_op_goldens as g

D = g.D


def log_softmax():
    x = g.P("x", [-1, D(2, 6), 4])
    h = g.P("h", [3, -1], np.float16)
    i = g.P("i", [-1, 3], np.int32)
    s = g.P("s", [])
    g.case(
        "numerics_log_softmax",
        "LogSoftmax-5 on axes 0, 1, -1 of dynamic dims, f16 and i32 data (rounded to nearest, as the CPU plugin), a scalar",
        [x, h, i, s],
        [
            g.N(ops5.log_softmax(x, 0), "axis0"),
            g.N(ops5.log_softmax(x, 1), "axis1"),
            g.N(ops5.log_softmax(x, -1), "axis_last"),
            g.N(ops5.log_softmax(h, 1), "f16"),
            g.N(ops5.log_softmax(i, -1), "i32"),
            g.N(ops5.log_softmax(s, -1), "scalar"),
        ],
        [{"x": [2, 3, 4], "h": [3, 5], "i": [4, 3]}, {"x": [1, 2, 4], "h": [3, 1], "i": [1, 3]}],
    )
    g.EXPECTED_RULES["invalid_log_softmax_axis"] = "axis-out-of-range"
    x = g.P("x", [2, 3, 4])
    ls = g.N(ops5.log_softmax(x, 2), "log_softmax")
    g.INVALID.append(("invalid_log_softmax_axis", "log_softmax", "x: [2,3,4] -> [2,3] (axis 2 beyond rank 2)", g.ov.Model([ops5.result(ls)], [x]), g._param_edit("x", [2, 3])))


def build():
    log_softmax()
