"""Index and logic ops (issue 17): Eye-9 with constant and ShapeOf-read rows,
columns and batch shapes, shifted diagonals (inside and beyond the matrix)
and several output types; OneHot-1/-16 (axes, value types, depth from a
shape, negative and out-of-range indices, negative_indices_mode);
Bucketize-3 and SearchSorted-15 (ties, both bounds, row-wise sequences); each on dynamic and interval dims with static
bindings."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset3 as ops3
import openvino.opset8 as ops8
import openvino.opset9 as ops9
import openvino.opset11 as ops11
import openvino.opset15 as ops15
import openvino.opset16 as ops16

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
    one_hot()
    bucketize_search_sorted()


def one_hot():
    i = g.P("i", [-1, D(1, 5)], np.int32)
    j = g.P("j", [3], np.int64)
    x = g.P("x", [-1, 2])
    C = g.C
    # Indices drawn in [0, 4) with depth 3: index 3 matches nothing. The
    # constant indices have negatives for OneHot-16's modes.
    neg = C([-1, 2, -3, 0, -4, 5], "neg", np.int32)
    on, off = C(1.5, "on", np.float32), C(-2.0, "off", np.float32)
    outs = [
        g.N(ops1.one_hot(i, C(3, "d3"), on, off, -1), "last_axis"),
        g.N(ops1.one_hot(i, C(3, "d3b", np.int32), C(7, "on_i", np.int32), C(0, "off_i", np.int32), 0), "first_axis_i32"),
        g.N(ops1.one_hot(i, C(4, "d4"), C(True, "on_b", np.bool_), C(False, "off_b", np.bool_), 1), "middle_bool"),
        g.N(ops1.one_hot(j, dim_of(x, 0, "depth_from_x"), on, off, 1), "depth_from_shape"),
        g.N(ops1.one_hot(neg, C(4, "d4b"), on, off, -1), "v1_negative"),
        g.N(ops16.one_hot(neg, C(4, "d4c"), on, off, -1, "ignore_negative"), "v16_ignore"),
        g.N(ops16.one_hot(neg, C(4, "d4d"), on, off, 0, "normalize"), "v16_normalize"),
    ]
    g.case(
        "logic_one_hot",
        "OneHot-1 on axes -1, 0 and 1 with f32, i32 and boolean values, depth read with ShapeOf, out-of-range and negative indices; OneHot-16 ignore_negative and normalize",
        [i, j, x],
        outs,
        [{"i": [2, 3], "x": [4, 2]}, {"i": [1, 1], "x": [1, 2]}],
    )
    g.EXPECTED_RULES["invalid_one_hot_depth"] = "one-hot-scalar"
    dd = g.P("dd", [], np.int64)
    oh = g.N(ops1.one_hot(i, dd, on, off, -1), "one_hot")
    g.INVALID.append(("invalid_one_hot_depth", "one_hot", "dd: [] -> [1] (depth not a scalar)", g.ov.Model([ops1.result(oh)], [i, dd]), g._param_edit("dd", [1])))


def sorted_last(x, name):
    """`x` sorted ascending along its last axis (TopK over the whole axis)."""
    k = g.N(ops8.gather(ops3.shape_of(x), g.C(np.int64(-1), f"{name}_k_axis"), g.C(np.int64(0), f"{name}_k_gather")), f"{name}_k")
    return g.N(ops11.topk(x, k, -1, "min", "value", "i64", True), name).output(0)


def bucketize_search_sorted():
    x = g.P("x", [-1, D(1, 5)])
    i = g.P("i", [2, -1], np.int32)
    seq = g.P("seq", [-1, 6])
    C = g.C
    fb = C([-2.0, -0.5, 0.0, 1.5, 2.5], "bounds_f", np.float32)
    ib = C([0, 1, 1, 3], "bounds_i", np.int64)
    ib32 = C([0, 1, 1, 3], "bounds_i32", np.int32)
    rows = sorted_last(seq, "seq_sorted")
    outs = [
        g.N(ops3.bucketize(x, fb), "bucketize_right"),
        g.N(ops3.bucketize(x, fb, "i32", False), "bucketize_left_i32"),
        g.N(ops3.bucketize(i, ib), "bucketize_int_ties"),
        g.N(ops3.bucketize(i, ib, "i64", False), "bucketize_int_ties_left"),
        g.N(ops15.search_sorted(ib32, i), "search_1d_left"),
        g.N(ops15.search_sorted(ib32, i, True), "search_1d_right"),
        g.N(ops15.search_sorted(rows, x), "search_rows"),
        g.N(ops15.search_sorted(rows, x, True), "search_rows_right"),
    ]
    g.case(
        "logic_bucketize_search_sorted",
        "Bucketize-3 with and without the right bound, i32/i64 indices, integer data with tied boundaries; SearchSorted-15 on a 1-D sequence and per row of a sorted [N,6] sequence (leading dims merged), left and right",
        [x, i, seq],
        outs,
        [{"x": [3, 4], "i": [2, 5], "seq": [3, 6]}, {"x": [1, 1], "i": [2, 1], "seq": [1, 6]}, {"x": [2, 4], "i": [2, 5], "seq": [3, 6]}],
    )
    g.EXPECTED_RULES["invalid_search_sorted_rank"] = "search-sorted-shape"
    a = g.P("a", [2, 3])
    b = g.P("b", [2, 4])
    s = g.N(ops15.search_sorted(a, b), "search_sorted")
    g.INVALID.append(("invalid_search_sorted_rank", "search_sorted", "b: [2,4] -> [2,2,4] (rank 3 against a 2-D sequence)", g.ov.Model([ops1.result(s)], [a, b]), g._param_edit("b", [2, 2, 4])))
