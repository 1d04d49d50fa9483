"""Convolution, GroupConvolution, ConvolutionBackpropData and
GroupConvolutionBackpropData: every auto_pad mode, strides, dilations, 1-D to
3-D, groups (depthwise included), output_shape and output_padding, on dynamic,
interval and static dims."""

import numpy as np

import gen_op_goldens as g

ops = g.ops
F32 = np.float32


def W(shape, name, seed):
    """A small seeded f32 filter."""
    rng = np.random.default_rng(seed)
    return g.C(rng.uniform(-1, 1, shape).astype(F32), name, F32)


def conv_cases():
    x = g.P("x", [-1, 3, -1, -1])
    w = W([4, 3, 3, 3], "w3x3", 1)
    outs = [
        g.N(ops.convolution(x, w, [1, 1], [1, 1], [1, 1], [1, 1]), "conv_pad1"),
        g.N(ops.convolution(x, w, [2, 2], [1, 1], [1, 1], [1, 1]), "conv_s2_pad1"),
        g.N(ops.convolution(x, w, [2, 1], [0, 2], [1, 0], [2, 2]), "conv_s21_d2_asym"),
        g.N(ops.convolution(x, w, [2, 2], [0, 0], [0, 0], [1, 1], "same_upper"), "conv_same_upper"),
        g.N(ops.convolution(x, w, [3, 2], [0, 0], [0, 0], [1, 2], "same_lower"), "conv_same_lower"),
        g.N(ops.convolution(x, w, [2, 2], [5, 5], [5, 5], [1, 1], "valid"), "conv_valid"),
        g.N(ops.convolution(x, w, [1, 1], [0, 0], [0, 0], [1, 1]), "conv_nopad"),
    ]
    g.case(
        "conv_2d",
        "Convolution 2-D: pads, strides, dilations, every auto_pad mode, on dynamic dims",
        [x],
        outs,
        [{"x": [1, 3, 8, 8]}, {"x": [2, 3, 9, 13]}, {"x": [1, 3, 5, 7]}],
    )

    xi = g.P("x", [g.D(1, 4), 3, g.D(6, 40), 17])
    outs = [
        g.N(ops.convolution(xi, w, [2, 2], [1, 1], [1, 1], [1, 1]), "conv_interval"),
        g.N(ops.convolution(xi, w, [2, 3], [0, 0], [0, 0], [2, 1], "same_upper"), "conv_interval_same"),
    ]
    g.case("conv_interval", "Convolution on interval dims", [xi], outs, [{"x": [1, 3, 6, 17]}, {"x": [4, 3, 40, 17]}])

    x1 = g.P("x", [-1, 2, -1])
    w1 = W([5, 2, 4], "w1d", 2)
    x3 = g.P("y", [1, 2, -1, 6, -1])
    w3 = W([3, 2, 2, 3, 2], "w3d", 3)
    outs = [
        g.N(ops.convolution(x1, w1, [3], [2], [1], [2]), "conv1d"),
        g.N(ops.convolution(x1, w1, [2], [0], [0], [1], "same_lower"), "conv1d_same"),
        g.N(ops.convolution(x3, w3, [1, 2, 2], [1, 0, 1], [0, 1, 0], [1, 1, 2]), "conv3d"),
    ]
    g.case("conv_1d_3d", "Convolution 1-D and 3-D", [x1, x3], outs, [{"x": [2, 2, 11], "y": [1, 2, 5, 6, 9]}, {"x": [1, 2, 8], "y": [1, 2, 3, 6, 4]}])

    # A filter that is an input: symbolic kernel dims.
    x = g.P("x", [-1, 4, -1, -1])
    f = g.P("f", [8, 4, -1, -1])
    outs = [g.N(ops.convolution(x, f, [1, 2], [0, 1], [0, 1], [1, 1]), "conv_dyn_filter")]
    g.case("conv_dynamic_filter", "Convolution with filter dims known only at run time", [x, f], outs, [{"x": [1, 4, 9, 9], "f": [8, 4, 3, 3]}, {"x": [2, 4, 7, 10], "f": [8, 4, 1, 5]}])


def group_conv_cases():
    x = g.P("x", [-1, 6, -1, -1])
    depthwise = W([6, 1, 1, 3, 3], "wdw", 4)
    grouped = W([3, 4, 2, 3, 3], "wg", 5)
    outs = [
        g.N(ops.group_convolution(x, depthwise, [1, 1], [1, 1], [1, 1], [1, 1]), "dw_pad1"),
        g.N(ops.group_convolution(x, depthwise, [2, 2], [0, 0], [0, 0], [1, 1], "same_upper"), "dw_s2_same"),
        g.N(ops.group_convolution(x, grouped, [1, 2], [1, 0], [1, 2], [2, 1]), "group3"),
    ]
    g.case(
        "conv_group",
        "GroupConvolution: depthwise and 3 groups",
        [x],
        outs,
        [{"x": [1, 6, 8, 8]}, {"x": [2, 6, 11, 7]}],
    )


def backprop_cases():
    x = g.P("x", [-1, 4, -1, -1])
    w = W([4, 2, 4, 4], "wt", 6)
    w3 = W([4, 3, 3, 3], "wt3", 7)
    outs = [
        g.N(ops.convolution_backprop_data(x, w, [2, 2], pads_begin=[1, 1], pads_end=[1, 1]), "deconv_s2"),
        g.N(ops.convolution_backprop_data(x, w3, [2, 2], pads_begin=[1, 1], pads_end=[1, 1], output_padding=[1, 1]), "deconv_outpad"),
        g.N(ops.convolution_backprop_data(x, w3, [1, 3], pads_begin=[0, 2], pads_end=[1, 0], dilations=[2, 1]), "deconv_dil"),
        g.N(ops.convolution_backprop_data(x, w3, [2, 2], auto_pad="valid"), "deconv_valid"),
        g.N(ops.convolution_backprop_data(x, w3, [2, 2], auto_pad="same_upper"), "deconv_same_no_shape"),
        g.N(ops.convolution_backprop_data(x, w3, [2, 2], output_shape=g.C([9, 10], "out_hw"), auto_pad="same_upper"), "deconv_same_upper_shape"),
        g.N(ops.convolution_backprop_data(x, w3, [2, 2], output_shape=g.C([9, 10], "out_hw2"), auto_pad="same_lower"), "deconv_same_lower_shape"),
        g.N(ops.convolution_backprop_data(x, w3, [2, 2], output_shape=g.C([8, 7], "out_hw3"), pads_begin=[0, 0], pads_end=[0, 0]), "deconv_explicit_shape"),
    ]
    g.case(
        "conv_backprop",
        "ConvolutionBackpropData: strides, pads, output_padding, dilations, auto_pad, output_shape",
        [x],
        outs,
        [{"x": [1, 4, 4, 4]}, {"x": [2, 4, 5, 3]}],
    )
    x = g.P("x", [-1, 6, -1])
    wg = W([3, 2, 2, 5], "wgt", 8)
    outs = [
        g.N(ops.group_convolution_backprop_data(x, wg, [3], pads_begin=[1], pads_end=[2]), "gdeconv"),
        g.N(ops.group_convolution_backprop_data(x, wg, [2], pads_begin=[0], pads_end=[0], output_padding=[1]), "gdeconv_outpad"),
    ]
    g.case("conv_group_backprop", "GroupConvolutionBackpropData 1-D, 3 groups", [x], outs, [{"x": [1, 6, 5]}, {"x": [2, 6, 9]}])


def build():
    conv_cases()
    group_conv_cases()
    backprop_cases()
