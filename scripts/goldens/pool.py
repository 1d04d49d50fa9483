"""MaxPool-1/-8/-14 and AvgPool-1/-14/-16: rounding types (floor, ceil,
ceil_torch), every auto_pad mode, pads, strides, dilations, exclude-pad, the
indices output, on dynamic, interval and static dims."""

import numpy as np
import openvino as ov
import openvino.opset1 as ops1
import openvino.opset8 as ops8
import openvino.opset14 as ops14
import openvino.opset16 as ops16

import gen_op_goldens as g


def maxpool_cases():
    x = g.P("x", [-1, 3, -1, -1])
    outs = [
        g.N(ops1.max_pool(x, [2, 2], [0, 0], [0, 0], [2, 2]), "mp1_k2s2"),
        g.N(ops1.max_pool(x, [2, 2], [1, 1], [1, 1], [3, 3], "ceil"), "mp1_k3s2_ceil"),
        g.N(ops1.max_pool(x, [2, 1], [0, 0], [0, 0], [3, 3], "floor", "same_upper"), "mp1_same_upper"),
        g.N(ops1.max_pool(x, [3, 2], [0, 0], [0, 0], [2, 3], "floor", "same_lower"), "mp1_same_lower"),
        g.N(ops1.max_pool(x, [2, 2], [1, 1], [1, 1], [3, 3], "ceil", "same_upper"), "mp1_same_ceil"),
        g.N(ops1.max_pool(x, [1, 1], [4, 4], [4, 4], [2, 2], "floor", "valid"), "mp1_valid"),
    ]
    m8 = ops8.max_pool(x, [2, 2], [2, 1], [1, 0], [0, 1], [3, 2], "ceil", "explicit", ov.Type.i32, 2)
    m8.set_friendly_name("mp8")
    outs += [(m8.output(0), "mp8_values"), (m8.output(1), "mp8_indices")]
    m14 = ops14.max_pool(x, [2, 2], [1, 1], [1, 1], [1, 1], [3, 3], "ceil_torch", "explicit", ov.Type.i64, 0)
    m14.set_friendly_name("mp14")
    outs += [(m14.output(0), "mp14_values"), (m14.output(1), "mp14_indices")]
    m14b = ops14.max_pool(x, [3, 3], [1, 1], [0, 0], [0, 0], [2, 2], "ceil_torch", "explicit", ov.Type.i64, 1)
    m14b.set_friendly_name("mp14b")
    outs += [(m14b.output(0), "mp14b_values"), (m14b.output(1), "mp14b_indices")]
    g.case(
        "pool_max",
        "MaxPool-1/-8/-14: rounding, auto_pad, dilations, indices, on dynamic dims",
        [x],
        outs,
        [{"x": [1, 3, 8, 8]}, {"x": [2, 3, 9, 13]}, {"x": [1, 3, 7, 5]}, {"x": [1, 3, 12, 10]}],
    )
    x1 = g.P("x", [g.D(1, 3), 2, g.D(4, 30)])
    x3 = g.P("y", [1, 2, -1, 5, -1])
    outs = [
        g.N(ops1.max_pool(x1, [2], [1], [0], [3], "ceil"), "mp1d"),
        g.N(ops1.max_pool(x3, [1, 2, 2], [0, 1, 0], [1, 0, 1], [2, 2, 3]), "mp3d"),
        g.N(ops1.avg_pool(x1, [3], [1], [1], [4], False), "ap1d"),
    ]
    g.case("pool_1d_3d", "Pooling 1-D (interval dims) and 3-D", [x1, x3], outs, [{"x": [1, 2, 9], "y": [1, 2, 4, 5, 7]}, {"x": [3, 2, 4], "y": [1, 2, 6, 5, 3]}])


def avgpool_cases():
    x = g.P("x", [-1, 2, -1, -1])
    outs = [
        g.N(ops1.avg_pool(x, [2, 2], [1, 1], [1, 1], [3, 3], True), "ap_excl"),
        g.N(ops1.avg_pool(x, [2, 2], [1, 1], [1, 1], [3, 3], False), "ap_incl"),
        g.N(ops1.avg_pool(x, [2, 2], [0, 0], [1, 1], [3, 3], False, "ceil"), "ap_ceil_incl"),
        g.N(ops1.avg_pool(x, [2, 2], [0, 0], [1, 1], [3, 3], True, "ceil"), "ap_ceil_excl"),
        g.N(ops1.avg_pool(x, [2, 2], [0, 0], [0, 0], [3, 3], False, "floor", "same_upper"), "ap_same_upper"),
        g.N(ops1.avg_pool(x, [2, 2], [0, 0], [0, 0], [3, 3], True, "floor", "same_lower"), "ap_same_lower"),
        g.N(ops14.avg_pool(x, [2, 2], [1, 1], [1, 1], [3, 3], False, "ceil_torch"), "ap14_torch_incl"),
        g.N(ops14.avg_pool(x, [2, 2], [1, 1], [1, 1], [3, 3], True, "ceil_torch"), "ap14_torch_excl"),
    ]
    g.case(
        "pool_avg",
        "AvgPool-1/-14: exclude-pad, rounding, auto_pad, on dynamic dims",
        [x],
        outs,
        [{"x": [1, 2, 8, 8]}, {"x": [2, 2, 7, 10]}, {"x": [1, 2, 5, 6]}],
    )


def avgpool16_cases():
    x = g.P("x", [-1, 2, -1, -1])
    outs = [
        g.N(ops16.avg_pool(x, [1, 1], [0, 0], [0, 0], [2, 2], True, "floor", dilations=[2, 2]), "ap16_dil"),
        g.N(ops16.avg_pool(x, [2, 1], [1, 2], [1, 2], [3, 2], False, "ceil", dilations=[2, 3]), "ap16_ceil_incl"),
        g.N(ops16.avg_pool(x, [2, 2], [1, 1], [2, 2], [2, 3], True, "ceil_torch", dilations=[3, 2]), "ap16_torch_excl"),
        g.N(ops16.avg_pool(x, [2, 2], [0, 0], [0, 0], [3, 2], True, "floor", "same_upper", dilations=[2, 2]), "ap16_same_upper"),
        g.N(ops16.avg_pool(x, [1, 2], [0, 0], [0, 0], [2, 2], False, "floor", "valid", dilations=[3, 1]), "ap16_valid"),
    ]
    g.case(
        "pool_avg16",
        "AvgPool-16: dilations with exclude-pad, rounding and auto_pad, on dynamic dims",
        [x],
        outs,
        [{"x": [1, 2, 9, 9]}, {"x": [2, 2, 8, 11]}, {"x": [1, 2, 7, 7]}],
    )


def adaptive_cases():
    x = g.P("x", [-1, 2, -1, -1])
    outs = [
        g.N(ops8.adaptive_avg_pool(x, g.C([1, 1], "size11")), "aap_global"),
        g.N(ops8.adaptive_avg_pool(x, g.C([3, 5], "size35")), "aap_3x5"),
    ]
    amp = ops8.adaptive_max_pool(x, g.C([2, 3], "size23"), "i32")
    amp.set_friendly_name("amp")
    outs += [(amp.output(0), "amp_values"), (amp.output(1), "amp_indices")]
    x1 = g.P("y", [1, 3, -1])
    outs.append(g.N(ops8.adaptive_avg_pool(x1, g.C([4], "size4")), "aap_1d"))
    g.case(
        "pool_adaptive",
        "AdaptiveAvgPool-8 and AdaptiveMaxPool-8 to fixed sizes from dynamic inputs",
        [x, x1],
        outs,
        [{"x": [1, 2, 7, 11], "y": [1, 3, 9]}, {"x": [2, 2, 4, 5], "y": [1, 3, 4]}],
    )


def build():
    maxpool_cases()
    avgpool_cases()
    avgpool16_cases()
    adaptive_cases()
