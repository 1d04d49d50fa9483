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


def build():
    trig_cases()
