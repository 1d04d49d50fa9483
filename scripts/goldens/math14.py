"""Issue-14 ops, part a: the trigonometric family (Sin … Atanh) on float and
integer data, the bitwise ops (And/Or/Xor/Not-13, Left/RightShift-15),
ReduceL1/L2-4 and ReduceLogicalAnd/Or-1, Identity-16, CumSum-3 and Roll-7,
on dynamic dims.

Integer inputs of the executor's conformance run are drawn in [0, 4): the
cases below add a Const of wider values to such a Parameter (the CPU plugin
cannot fold it away) to reach negative, large and out-of-range values."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset4 as ops4

import gen_op_goldens as g

F32 = np.float32

TRIG = [
    ("sin", ops1.sin),
    ("cos", ops1.cos),
    ("tan", ops1.tan),
    ("asin", ops1.asin),
    ("acos", ops1.acos),
    ("atan", ops1.atan),
    ("sinh", ops1.sinh),
    ("cosh", ops1.cosh),
    ("asinh", ops4.asinh),
    ("acosh", ops4.acosh),
    ("atanh", ops4.atanh),
]


def trig_cases():
    x = g.P("x", [-1, 3, g.D(2, 10)])
    s = g.P("s", [])
    r = g.P("r", "...")
    h = g.P("h", [-1, 4], np.float16)
    outs = []
    for name, f in TRIG:
        outs += [g.N(f(x), name + "_dynamic"), g.N(f(s), name + "_scalar"), g.N(f(r), name + "_dyn_rank"), g.N(f(h), name + "_f16")]
    g.case(
        "math14_trig",
        "Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh (-1) and Asinh, Acosh, Atanh (-3) on f32 (dynamic, interval, scalar, dynamic rank) and f16",
        [x, s, r, h],
        outs,
        [{"x": [2, 3, 4], "r": [2, 3], "h": [3, 4]}, {"x": [1, 3, 10], "r": [], "h": [1, 4]}],
    )

    # Integers: OpenVINO's CPU plugin rounds the f32 result half to even and
    # saturates in its own way (NaN gives -2^31 for i32, 255 for u8, -128
    # for i8; i64 is computed on its low 32 bits).
    wide = [-100, -7, -3, -2, -1, 0, 1, 2, 3, 7, 22, 100]
    params = []
    outs = []
    for dt, tag in [(np.int32, "i32"), (np.int64, "i64"), (np.int8, "i8"), (np.uint8, "u8"), (np.int16, "i16"), (np.uint32, "u32")]:
        p = g.P("n_" + tag, [-1, len(wide)], dt)
        params.append(p)
        vals = [v for v in wide] if np.iinfo(dt).min < 0 else [v + 100 for v in wide]
        if dt == np.uint8:
            vals = [0, 1, 2, 3, 5, 20, 88, 100, 128, 200, 240, 251]
        data = g.N(ops1.add(p, g.C(vals, "wide_" + tag, dt)), "wide_" + tag)
        for name, f in TRIG:
            outs.append(g.N(f(data), f"{name}_{tag}"))
    g.case(
        "math14_trig_int",
        "the trigonometric family on i32, i64, i8, u8, i16 and u32 data (integer results as OpenVINO's CPU plugin rounds them)",
        params,
        outs,
        [{p.get_friendly_name(): [2, len(wide)] for p in params}, {p.get_friendly_name(): [1, len(wide)] for p in params}],
    )


def bitwise_cases():
    import openvino.opset13 as ops13
    import openvino.opset15 as ops15

    ands = [("and", ops13.bitwise_and), ("or", ops13.bitwise_or), ("xor", ops13.bitwise_xor)]
    x = g.P("x", [-1, 1, g.D(2, 6)], np.int32)
    y = g.P("y", [-1, 5, 1], np.int32)
    a = g.P("a", [2, 1, 4], np.uint8)
    b = g.P("b", [3, 1], np.uint8)
    p = g.P("p", [-1, 3], np.bool_)
    q = g.P("q", [3], np.bool_)
    w = g.P("w", [-1], np.int64)
    k = g.P("k", [], np.int64)
    outs = []
    for name, f in ands:
        outs += [
            g.N(f(x, y), name + "_dynamic"),
            g.N(f(a, b), name + "_u8"),
            g.N(f(p, q), name + "_bool"),
            g.N(f(w, k), name + "_i64_scalar"),
            g.N(f(a, a, "none"), name + "_none"),
        ]
    # Negative and wide i32 values (the Parameter plus a Const).
    wide = g.N(ops1.add(x, g.C(np.array([-7, 12345, -2**31 + 5, 2**31 - 9, 255, -256], np.int32)[:1].reshape(1, 1, 1), "wide_off", np.int32)), "wide_x")
    mask = g.C(np.array([[[0x0F0F], [-1], [0x7FFF0000], [-4096], [3]]], np.int32).reshape(1, 5, 1), "mask", np.int32)
    for name, f in ands:
        outs.append(g.N(f(wide, mask), name + "_wide"))
    outs += [
        g.N(ops13.bitwise_not(x), "not_i32"),
        g.N(ops13.bitwise_not(a), "not_u8"),
        g.N(ops13.bitwise_not(p), "not_bool"),
        g.N(ops13.bitwise_not(w), "not_i64"),
        g.N(ops13.bitwise_not(wide), "not_wide"),
    ]
    g.case(
        "math14_bitwise",
        "BitwiseAnd/Or/Xor-13 (numpy broadcasting on dynamic dims, u8, boolean, i64 with a scalar, none) and BitwiseNot-13",
        [x, y, a, b, p, q, w, k],
        outs,
        [
            {"x": [3, 1, 4], "y": [3, 5, 1], "p": [2, 3], "w": [4]},
            {"x": [1, 1, 2], "y": [4, 5, 1], "p": [1, 3], "w": [1]},
            {"x": [2, 1, 6], "y": [1, 5, 1], "p": [0, 3], "w": [0]},
        ],
    )

    # Shifts: dynamic broadcasting with counts from a Parameter, then every
    # 8-, 16- and 32-bit type with counts below 0 and beyond the width.
    sx = g.P("sx", [-1, 1, g.D(2, 6)], np.int32)
    sy = g.P("sy", [-1, 5, 1], np.int32)
    outs = [
        g.N(ops15.bitwise_left_shift(sx, sy), "lshift_dynamic"),
        g.N(ops15.bitwise_right_shift(sx, sy), "rshift_dynamic"),
        g.N(ops15.bitwise_left_shift(sx, sx, "none"), "lshift_none"),
    ]
    params = [sx, sy]
    for dt, tag in [(np.int32, "i32"), (np.int8, "i8"), (np.int16, "i16"), (np.uint8, "u8"), (np.uint16, "u16"), (np.uint32, "u32")]:
        info = np.iinfo(dt)
        width = info.bits
        counts = [0, 1, 3, width - 1, width, width + 1, 31, 32, 33, 40]
        counts += [-1, -2, -31, -33] if info.min < 0 else [100, int(info.max)]
        n = len(counts)
        d = g.P("d_" + tag, [-1, n], dt)
        params.append(d)
        # Values: small positives, a negative (or a large unsigned) value, the extremes.
        # (u32 Consts of 2^31 and above reach the CPU plugin's kernels
        # saturated to 2^31 - 1: math14_shift_wide has those.)
        top = 2**31 - 1 if dt == np.uint32 else int(info.max)
        vals = [5, 1, 3, 7, -5 if info.min < 0 else top - 4, top - 3, int(info.min), 100, 2, 6, 9, 11, 13, 4][:n]
        off = np.array(vals, dtype=np.int64).astype(dt)
        data = g.N(ops1.add(d, g.C(off, "off_" + tag, dt)), "data_" + tag)
        cnt = g.C(np.array(counts, dtype=np.int64).astype(dt), "counts_" + tag, dt)
        outs.append(g.N(ops15.bitwise_left_shift(data, cnt), "lshift_" + tag))
        outs.append(g.N(ops15.bitwise_right_shift(data, cnt), "rshift_" + tag))
    g.case(
        "math14_shift",
        "BitwiseLeftShift/RightShift-15: numpy broadcasting on dynamic dims, none; i32, i8, i16, u8, u16, u32 with counts below 0 and beyond the width",
        params,
        outs,
        [{"sx": [3, 1, 4], "sy": [3, 5, 1]} | {q.get_friendly_name(): [2, q.get_output_partial_shape(0)[1].get_length()] for q in params[2:]},
         {"sx": [1, 1, 2], "sy": [4, 5, 1]} | {q.get_friendly_name(): [1, q.get_output_partial_shape(0)[1].get_length()] for q in params[2:]}],
    )

    # 64-bit data and a u32 right shift of values of 2^31 and above: OpenVINO
    # 2026.4's CPU plugin computes these on 32 bits (arithmetic for u32),
    # which its spec and reference implementation contradict.
    v = g.P("v", [-1, 8], np.int64)
    u = g.P("u", [-1, 4], np.uint32)
    vals64 = g.C(np.array([5, 5, 5, 2**40 + 3, -(2**40), 2**62, -5, 7], np.int64), "vals64", np.int64)
    counts64 = g.C(np.array([31, 32, 33, 1, 2, 1, 63, 64], np.int64), "counts64", np.int64)
    data64 = g.N(ops1.add(v, vals64), "data64")
    udata = g.N(ops1.add(u, g.C(np.array([2**31, 2**32 - 8, 2**31 + 12, 7], np.uint32), "uvals", np.uint32)), "data_u32big")
    outs = [
        g.N(ops15.bitwise_left_shift(data64, counts64), "lshift_i64"),
        g.N(ops15.bitwise_right_shift(data64, counts64), "rshift_i64"),
        g.N(ops13.bitwise_and(data64, g.C(np.array([2**40 - 1], np.int64), "mask64", np.int64)), "and_i64_wide"),
        g.N(ops15.bitwise_right_shift(udata, g.C(np.array([1, 4, 31, 0], np.uint32), "ucounts", np.uint32)), "rshift_u32_big"),
    ]
    g.case(
        "math14_shift_wide",
        "BitwiseLeftShift/RightShift-15 and BitwiseAnd-13 on i64 values and counts beyond 32 bits, and u32 right shifts of values from 2^31 (the CPU plugin computes them on 32 bits)",
        [v, u],
        outs,
        [{"v": [2, 8], "u": [2, 4]}],
    )


def reduce_cases():
    x = g.P("x", [-1, 3, g.D(2, 6)])
    i = g.P("i", [-1, 4], np.int32)
    h = g.P("h", [2, -1], np.float16)
    b = g.P("b", [-1, 3, -1], np.bool_)
    outs = []
    for name, f in [("l1", ops4.reduce_l1), ("l2", ops4.reduce_l2)]:
        outs += [
            g.N(f(x, g.C([1], name + "_ax1"), False), name + "_ax1"),
            g.N(f(x, g.C([0, 2], name + "_ax02"), True), name + "_ax02_keep"),
            g.N(f(x, g.C(-1, name + "_axlast"), False), name + "_scalar_axis"),
            g.N(f(x, g.C([0, 1, 2], name + "_all"), False), name + "_all"),
            g.N(f(x, g.C([2, -1], name + "_dup"), True), name + "_dup_keep"),
            g.N(f(i, g.C([1], name + "_i_ax1", np.int32), False), name + "_i32"),
            g.N(f(h, g.C([1], name + "_h_ax1"), True), name + "_f16"),
        ]
    for name, f in [("and", ops1.reduce_logical_and), ("or", ops1.reduce_logical_or)]:
        outs += [
            g.N(f(b, g.C([1], name + "_ax1"), False), name + "_ax1"),
            g.N(f(b, g.C([0, 2], name + "_ax02"), True), name + "_ax02_keep"),
            g.N(f(b, g.C(-1, name + "_axlast"), False), name + "_scalar_axis"),
            g.N(f(b, g.C([0, 1, 2], name + "_all"), False), name + "_all"),
        ]
    g.case(
        "math14_reduce",
        "ReduceL1/L2-4 (f32, i32, f16) and ReduceLogicalAnd/Or-1: axes lists, scalar and negative axes, repeated axes, keep_dims, dynamic dims",
        [x, i, h, b],
        outs,
        [
            {"x": [2, 3, 4], "i": [3, 4], "h": [2, 5], "b": [2, 3, 4]},
            {"x": [1, 3, 6], "i": [1, 4], "h": [2, 1], "b": [1, 3, 1]},
            {"x": [0, 3, 2], "i": [0, 4], "h": [2, 0], "b": [0, 3, 0]},
        ],
    )


def identity_cases():
    import openvino.opset16 as ops16

    x = g.P("x", [-1, 3, g.D(2, 6)])
    b = g.P("b", [-1], np.bool_)
    k = g.P("k", [], np.int64)
    r = g.P("r", "...", np.int32)
    outs = [g.N(ops16.identity(x), "identity_f32"), g.N(ops16.identity(b), "identity_bool"), g.N(ops16.identity(k), "identity_scalar"), g.N(ops16.identity(r), "identity_dyn_rank")]
    g.case("math14_identity", "Identity-16 on f32, boolean, a scalar and a dynamic rank", [x, b, k, r], outs, [{"x": [2, 3, 4], "b": [5], "r": [2, 3]}, {"x": [1, 3, 2], "b": [0], "r": []}])


def cumsum_cases():
    import openvino.opset3 as ops3

    x = g.P("x", [-1, 3, g.D(2, 6)])
    i = g.P("i", [-1, 5], np.int32)
    h = g.P("h", [4, -1], np.float16)
    s = g.P("s", [])
    y = g.P("y", [-1, 2, 3, -1])
    a = g.P("a", [], np.int64)
    outs = []
    for ax_name, ax in [("ax0", g.C(0, "cs_ax0")), ("ax1", g.C(1, "cs_ax1", np.int32)), ("axm1", g.C(-1, "cs_axm1"))]:
        for exclusive, reverse in [(False, False), (True, False), (False, True), (True, True)]:
            tag = ("_excl" if exclusive else "") + ("_rev" if reverse else "")
            outs.append(g.N(ops3.cumsum(x, ax, exclusive, reverse), f"cumsum_{ax_name}{tag}"))
    outs += [
        g.N(ops3.cumsum(i, g.C(1, "cs_i_ax1"), False, False), "cumsum_i32"),
        g.N(ops3.cumsum(i, g.C(-2, "cs_i_axm2"), True, True), "cumsum_i32_excl_rev"),
        g.N(ops3.cumsum(h, g.C(0, "cs_h_ax0"), False, True), "cumsum_f16_rev"),
        g.N(ops3.cumsum(s, g.C(0, "cs_s_ax0"), False, False), "cumsum_scalar"),
        g.N(ops3.cumsum(y, a, True, False), "cumsum_axis_param"),
    ]
    g.case(
        "math14_cumsum",
        "CumSum-3: axes 0, 1 (i32) and -1 with every exclusive/reverse combination, i32 and f16 data, scalar data, an axis from a Parameter",
        [x, i, h, s, y, a],
        outs,
        [
            {"x": [2, 3, 4], "i": [2, 5], "h": [4, 3], "y": [2, 2, 3, 4]},
            {"x": [1, 3, 6], "i": [1, 5], "h": [4, 1], "y": [1, 2, 3, 1]},
            {"x": [0, 3, 2], "i": [0, 5], "h": [4, 0], "y": [3, 2, 3, 0]},
        ],
    )


def roll_cases():
    import openvino.opset7 as ops7

    x = g.P("x", [-1, 3, g.D(2, 6)])
    b = g.P("b", [-1, 4], np.bool_)
    i = g.P("i", [3, -1], np.int64)
    y = g.P("y", [-1, 2, 3, -1])
    sh = g.P("sh", [2], np.int64)
    ax = g.P("ax", [2], np.int64)
    k = g.P("k", [])
    outs = [
        g.N(ops7.roll(x, g.C([1, -2], "r_sh1"), g.C([0, 2], "r_ax1")), "roll_two_axes"),
        g.N(ops7.roll(x, g.C(1, "r_sh2"), g.C([1], "r_ax2")), "roll_scalar_shift_one_axis"),
        g.N(ops7.roll(x, g.C(-4, "r_sh3"), g.C(-1, "r_ax3")), "roll_scalars"),
        g.N(ops7.roll(x, g.C([2, -1, 7], "r_sh4"), g.C([1, 1, -2], "r_ax4")), "roll_repeated_axis"),
        g.N(ops7.roll(x, g.C([5, 3], "r_sh5", np.int32), g.C([2, 0], "r_ax5", np.int32)), "roll_i32_inputs"),
        g.N(ops7.roll(b, g.C([1], "r_sh6"), g.C([1], "r_ax6")), "roll_bool"),
        g.N(ops7.roll(i, g.C([-1, 1], "r_sh7"), g.C([0, 1], "r_ax7")), "roll_i64"),
        g.N(ops7.roll(y, sh, ax), "roll_param_shift_axes"),
        g.N(ops7.roll(k, g.C([1], "r_sh8"), g.C([0], "r_ax8")), "roll_scalar_data"),
    ]
    g.case(
        "math14_roll",
        "Roll-7: 1-D and scalar shifts and axes, negative values, shifts beyond the dim, a repeated axis, i32 shift/axes, boolean and i64 data, shift and axes from Parameters, scalar data",
        [x, b, i, y, sh, ax, k],
        outs,
        [
            {"x": [2, 3, 4], "b": [3, 4], "i": [3, 5], "y": [2, 2, 3, 4]},
            {"x": [1, 3, 6], "b": [1, 4], "i": [3, 1], "y": [1, 2, 3, 5]},
            {"x": [0, 3, 2], "b": [0, 4], "i": [3, 0], "y": [2, 2, 3, 0]},
        ],
    )

    # The spec's scalar shift over several axes: OpenVINO reads it, its CPU
    # plugin refuses to compile it ("'shift' and 'axes' dimensions mismatch").
    z = g.P("z", [-1, 3, 4])
    outs = [g.N(ops7.roll(z, g.C(1, "rs_sh"), g.C([0, 2], "rs_ax")), "roll_scalar_shift_two_axes")]
    g.case("math14_roll_scalar_shift", "Roll-7 with a scalar shift over two axes (the CPU plugin refuses it)", [z], outs, [{"z": [2, 3, 4]}])


def build():
    trig_cases()
    bitwise_cases()
    reduce_cases()
    identity_cases()
    cumsum_cases()
    roll_cases()
