"""Index and logic ops (issue 17): Eye-9 with constant and ShapeOf-read rows,
columns and batch shapes, shifted diagonals (inside and beyond the matrix)
and several output types; each on dynamic and interval dims with static
bindings."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset3 as ops3
import openvino.opset8 as ops8
import openvino.opset9 as ops9

import gen_op_goldens as g

D = g.D


def dim_of(x, axis, name):
    """Dim `axis` of `x` as a scalar i64 (ShapeOf then Gather)."""
    return g.N(ops8.gather(ops3.shape_of(x), g.C(np.int64(axis), f"{name}_axis"), g.C(np.int64(0), f"{name}_gather_axis")), name)


def eye():
    x = g.P("x", [-1, D(2, 6)])
    y = g.P("y", [-1, 3])
    rows, cols = dim_of(x, 0, "rows"), dim_of(x, 1, "cols")
    batch = ops3.shape_of(y)
    C = g.C
    outs = [
        g.N(ops9.eye(C(3, "r3"), C(4, "c4"), C(0, "k0"), "f32"), "const_f32"),
        g.N(ops9.eye(C([3], "r3v"), C(4, "c4b"), C(1, "k1"), "i32"), "shifted_i32"),
        g.N(ops9.eye(C(4, "r4", np.int32), C(3, "c3", np.int32), C(-2, "km2", np.int32), "u8"), "below_u8"),
        g.N(ops9.eye(C(2, "r2"), C(3, "c3b"), C(5, "k5"), "boolean"), "beyond_bool"),
        g.N(ops9.eye(C(2, "r2b"), C(2, "c2"), C(0, "k0b"), "f16", C([2, 1], "batch_c")), "batch_f16"),
        g.N(ops9.eye(rows, cols, C(0, "k0c"), "f32"), "from_shape"),
        g.N(ops9.eye(rows, rows, C(-1, "km1"), "i64", batch), "from_shape_batch"),
    ]
    g.case(
        "logic_eye",
        "Eye-9: constant rows/columns (scalar and [1], i32 and i64), diagonals 0, 1, -2 and 5 (beyond), f32/i32/u8/boolean/f16/i64 outputs, a constant batch, rows, columns and batch read with ShapeOf",
        [x, y],
        outs,
        [{"x": [3, 4], "y": [2, 3]}, {"x": [1, 2], "y": [1, 3]}],
    )
    g.EXPECTED_RULES["invalid_eye_rows"] = "eye-input"
    r = g.P("r", [1], np.int64)
    e = g.N(ops9.eye(r, C(3, "cols3"), C(0, "kk"), "f32"), "eye")
    g.INVALID.append(("invalid_eye_rows", "eye", "r: [1] -> [2] (num_rows of two elements)", g.ov.Model([ops1.result(e)], [r]), g._param_edit("r", [2])))


def build():
    eye()
