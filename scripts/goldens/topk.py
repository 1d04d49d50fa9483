"""TopK-1/-3/-11: modes, sorts, axes, index types, k from a constant and
from a ShapeOf (the whole axis), ties (integer data drawn in [0, 4)), on
dynamic dims."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset3 as ops3
import openvino.opset4 as ops4
import openvino.opset8 as ops8
import openvino.opset11 as ops11

import gen_op_goldens as g


def outputs(node, name):
    node.set_friendly_name(name)
    return [(node.output(0), f"{name}_values"), (node.output(1), f"{name}_indices")]


def build():
    x = g.P("x", [-1, 6, -1])
    ints = g.P("ints", [2, -1], np.int32)
    k3 = g.C(np.int64(3), "k3")
    whole = ops8.gather(ops4.shape_of(x), g.C(np.int64(1), "axis1_idx"), g.C(np.int64(0), "gather_axis"))
    outs = []
    outs += outputs(ops1.topk(x, k3, 1, "max", "value"), "v1_max_value")
    outs += outputs(ops3.topk(x, k3, 1, "min", "index", "i64"), "v3_min_index")
    outs += outputs(ops11.topk(x, g.C(np.int64(2), "k2"), -1, "max", "none", "i32", False), "v11_last_axis")
    outs += outputs(ops11.topk(x, whole, 1, "min", "value", "i64", True), "v11_whole_axis")
    outs += outputs(ops11.topk(ints, k3, 1, "max", "value", "i32", True), "ties_max")
    outs += outputs(ops11.topk(ints, k3, 1, "min", "index", "i64", False), "ties_min_index")
    g.case(
        "topk",
        "TopK-1/-3/-11: max/min, value/index/none sorts, axes, i32/i64 indices, k from ShapeOf, ties",
        [x, ints],
        outs,
        [{"x": [2, 6, 4], "ints": [2, 7]}, {"x": [1, 6, 1], "ints": [2, 3]}],
    )
