"""The mixture-of-experts ops of opset17 (issue 17): ErfInv-17 and
GroupedMatMul-17, on dynamic and interval dims.

ErfInv: the executor's random floats are drawn in [-3, 3], so the data is
scaled by 0.33 into (-1, 1) (a Multiply the CPU plugin cannot fold away), and
a Const of special values (0, ±1, beyond ±1, the tail past 0.9966 and
the range near 0.7 where the CPU plugin's logarithm is least exact) is added
to a Parameter times 0.

GroupedMatMul: OpenVINO 2026.4's CPU plugin has no kernel for it (and the op
no evaluate), so `scripts/gen_exec_goldens.py` computes these outputs with
the equivalent MatMul graph (`reference: openvino_decomposed`). The 2-D × 3-D
offsets are Consts (random integer inputs would not be cumulative ends); the
first binding has 8 rows for the ends [2, 2, 7]: an empty group and a last
row no group owns (zero, as OpenVINO's reference)."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset17 as ops17

import gen_op_goldens as g

D = g.D
F32 = np.float32


def erfinv_cases():
    x = g.P("x", [-1, D(2, 10)])
    h = g.P("h", [-1, 4], np.float16)
    e = g.P("e", [13])
    r = g.P("r", "...")
    specials = [0.0, 1.0, -1.0, 1.5, -2.0, 0.999, -0.9999, 0.99999, -0.7, 0.705, 0.71, 1e-8, -0.5]
    around = ops1.add(ops1.multiply(e, g.C(0.0, "zero", F32)), g.C(specials, "specials", F32))
    outs = [
        g.N(ops17.erfinv(ops1.multiply(x, g.C(0.33, "scale", F32))), "f32_scaled"),
        g.N(ops17.erfinv(ops1.multiply(h, g.C(0.33, "scale_f16", np.float16))), "f16_scaled"),
        g.N(ops17.erfinv(around), "special_values"),
        g.N(ops17.erfinv(x), "f32_wide"),
        g.N(ops17.erfinv(r), "dyn_rank"),
    ]
    g.case(
        "moe_erfinv",
        "ErfInv-17 on f32 (dynamic and interval dims, dynamic rank) and f16: data scaled into (-1, 1), unscaled data (NaN beyond ±1), special values",
        [x, h, e, r],
        outs,
        [{"x": [3, 7], "h": [2, 4], "r": [2, 3]}, {"x": [1, 2], "h": [5, 4], "r": []}],
    )


def grouped_cases():
    a = g.P("a", [-1, -1, 4])
    b = g.P("b", [-1, 5, D(1, 8)])
    ai = g.P("ai", [2, -1, 3], np.int32)
    bi = g.P("bi", [2, 2, 3], np.int32)
    t = g.P("t", [-1, 4])
    w = g.P("w", [3, -1, 4])
    th = g.P("th", [D(1, 16), 2], np.float16)
    wh = g.P("wh", [2, 3, 2], np.float16)
    outs = [
        g.N(ops17.grouped_matmul(a, b), "batched_f32"),
        g.N(ops17.grouped_matmul(ai, bi), "batched_i32"),
        g.N(ops17.grouped_matmul(a, b, g.C([1, 1], "ignored", np.int32)), "batched_offsets_ignored"),
        g.N(ops17.grouped_matmul(t, w, g.C([2, 2, 7], "ends")), "rows_f32_i64_offsets"),
        g.N(ops17.grouped_matmul(th, wh, g.C([1, 3], "ends_f16", np.int32)), "rows_f16_i32_offsets"),
    ]
    g.case(
        "moe_grouped_matmul",
        "GroupedMatMul-17: 3-D x 3-D (f32 and i32, dynamic groups and rows, offsets ignored) and 2-D x 3-D with cumulative i64 and i32 offsets (an empty group, a row past the last offset), f16",
        [a, b, ai, bi, t, w, th, wh],
        outs,
        [
            {"a": [2, 3, 4], "b": [2, 5, 4], "ai": [2, 4, 3], "t": [8, 4], "w": [3, 6, 4], "th": [3, 2]},
            {"a": [1, 1, 4], "b": [1, 5, 4], "ai": [2, 1, 3], "t": [7, 4], "w": [3, 2, 4], "th": [16, 2]},
        ],
    )


def build():
    erfinv_cases()
    grouped_cases()
