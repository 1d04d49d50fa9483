"""Numerics ops (issue 17): LogSoftmax-5 on every axis, f16 and i32 data and
a scalar; IsNaN-10, IsInf-10 (every detect_negative/detect_positive pair)
and IsFinite-10 on data with NaN and infinities; Selu-1 with constant
alpha/lambda; SoftSign-9; GRN-1 on ranks 2 to 4; ConvertPromoteTypes-14 over its
promotion rules; each on dynamic and interval dims with
static bindings."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset5 as ops5
import openvino.opset9 as ops9
import openvino.opset10 as ops10
import openvino.opset14 as ops14

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


def special_checks():
    x = g.P("x", [-1, 4])
    h = g.P("h", [D(1, 5), 4], np.float16)
    # [nan, inf, -inf, 0] as 0/0, 1/0, -1/0, 0/1 (a NaN Const would not
    # survive the golden's JSON).
    def special(t, name):
        return g.N(ops1.divide(g.C([[0, 1, -1, 0]], f"{name}_num", t), g.C([[0, 0, 0, 1]], f"{name}_den", t)), name)

    xs = ops1.concat([x, special(np.float32, "special")], 0)
    hs = ops1.concat([h, special(np.float16, "special_f16")], 0)
    outs = [g.N(ops10.is_nan(xs), "is_nan"), g.N(ops10.is_finite(xs), "is_finite"), g.N(ops10.is_nan(hs), "is_nan_f16"), g.N(ops10.is_finite(hs), "is_finite_f16")]
    for neg in (True, False):
        for pos in (True, False):
            outs.append(g.N(ops10.is_inf(xs, {"detect_negative": neg, "detect_positive": pos}), f"is_inf_{str(neg).lower()}_{str(pos).lower()}"))
    outs.append(g.N(ops10.is_inf(hs), "is_inf_f16"))
    g.case(
        "numerics_is_nan_inf_finite",
        "IsNaN-10, IsFinite-10 and IsInf-10 (detect_negative/detect_positive all four ways) on f32 and f16 data with NaN, +inf, -inf and 0 appended",
        [x, h],
        outs,
        [{"x": [2, 4], "h": [3, 4]}, {"x": [0, 4], "h": [1, 4]}],
    )


def selu_softsign():
    x = g.P("x", [-1, D(1, 6)])
    h = g.P("h", [2, -1], np.float16)
    g.case(
        "numerics_selu_softsign",
        "Selu-1 with the usual constants (scalar and [1]; the CPU plugin takes only constants) on f32 and f16; SoftSign-9 on f32 and f16",
        [x, h],
        [
            g.N(ops1.selu(x, g.C(1.6732632, "alpha_c", np.float32), g.C([1.0507010], "lambda_c", np.float32)), "selu"),
            g.N(ops1.selu(h, g.C([1.6732632], "alpha_h", np.float16), g.C([1.0507010], "lambda_h", np.float16)), "selu_f16"),
            g.N(ops9.softsign(x), "softsign"),
            g.N(ops9.softsign(h), "softsign_f16"),
        ],
        [{"x": [3, 4], "h": [2, 5]}, {"x": [1, 1], "h": [2, 1]}],
    )


def grn():
    x2 = g.P("x2", [-1, 5])
    x3 = g.P("x3", [2, -1, D(1, 6)])
    x4 = g.P("x4", [-1, 3, -1, 2])
    h = g.P("h", [2, -1, 3], np.float16)
    i = g.P("i", [2, -1], np.int32)
    g.case(
        "numerics_grn",
        "GRN-1 on ranks 2, 3 and 4 with dynamic channels, bias 0.5 and 1e-6, f16 data, i32 data (rounded to nearest, as the CPU plugin)",
        [x2, x3, x4, h, i],
        [
            g.N(ops1.grn(x2, 0.5), "rank2"),
            g.N(ops1.grn(x3, 1e-6), "rank3"),
            g.N(ops1.grn(x4, 0.5), "rank4"),
            g.N(ops1.grn(h, 0.25), "f16"),
            g.N(ops1.grn(i, 0.5), "i32"),
        ],
        [{"x2": [3, 5], "x3": [2, 4, 3], "x4": [2, 3, 2, 2], "h": [2, 4, 3], "i": [2, 3]}, {"x2": [1, 5], "x3": [2, 1, 1], "x4": [1, 3, 1, 2], "h": [2, 1, 3], "i": [2, 1]}],
    )
    g.EXPECTED_RULES["invalid_grn_rank"] = "grn-rank"
    x = g.P("x", [2, 3])
    n = g.N(ops1.grn(x, 0.5), "grn")
    g.INVALID.append(("invalid_grn_rank", "grn", "x: [2,3] -> [2,3,4,5,6] (rank 5)", g.ov.Model([ops1.result(n)], [x]), g._param_edit("x", [2, 3, 4, 5, 6])))


def build():
    log_softmax()
    special_checks()
    selu_softsign()
    grn()
    promote_types()


def promote_types():
    P = g.P
    f32 = P("f32", [-1, 3])
    i8 = P("i8", [2, -1], np.int8)
    u8 = P("u8", [-1], np.uint8)
    f16 = P("f16", [D(1, 4), 2], np.float16)
    i32 = P("i32", [-1, 2], np.int32)
    i64 = P("i64", [3], np.int64)
    b = P("b", [2, 2], np.bool_)
    u64 = P("u64", [2], np.uint64)
    s32 = P("s32", [], np.int32)
    s_f32 = P("s_f32", [], np.float32)
    pairs = [
        ("f32_i8", f32, i8, {}),
        ("unsafe_i8_u8", i8, u8, {"promote_unsafe": True}),
        ("f16_f32", f16, f32, {}),
        ("i32_i64", i32, i64, {}),
        ("bool_f32", b, f32, {}),
        ("u8_i32", u8, i32, {}),
        ("unsafe_f32_i32", f32, i32, {"promote_unsafe": True}),
        ("unsafe_u64_i8", u64, i8, {"promote_unsafe": True}),
        ("unsafe_u64_i8_to_f16", u64, i8, {"promote_unsafe": True, "u64_integer_promotion_target": "f16"}),
        ("pytorch_i64_s32", i64, s32, {"pytorch_scalar_promotion": True}),
        ("pytorch_f16_s_f32", f16, s_f32, {"pytorch_scalar_promotion": True, "promote_unsafe": True}),
        ("pytorch_i8_s32_unsafe", i8, s32, {"pytorch_scalar_promotion": True, "promote_unsafe": True}),
    ]
    outs = []
    for name, a, c, attrs in pairs:
        n = ops14.convert_promote_types(a, c, **attrs)
        n.set_friendly_name(name)
        outs += [(n.output(0), f"{name}_0"), (n.output(1), f"{name}_1")]
    g.case(
        "numerics_convert_promote_types",
        "ConvertPromoteTypes-14: float/integer, signed/unsigned, widths, boolean, promote_unsafe (u64 to u64_integer_promotion_target), pytorch_scalar_promotion with scalars",
        [f32, i8, u8, f16, i32, i64, b, u64, s32, s_f32],
        outs,
        [{"f32": [2, 3], "i8": [2, 4], "u8": [5], "f16": [3, 2], "i32": [3, 2]}, {"f32": [1, 3], "i8": [2, 1], "u8": [1], "f16": [1, 2], "i32": [1, 2]}],
    )
