"""Convolution-like ops of issue 17: DeformableConvolution-1 and -8 (group,
deformable_group, strides, dilations, pads, auto_pad, the v8 mask and
bilinear_interpolation_pad). Inputs of dynamic and interval dims with
static bindings small enough for the executor goldens."""

import openvino.opset1 as ops1
import openvino.opset8 as ops8

import gen_op_goldens as g

D = g.D


def deformable_v1():
    # group 2, deformable_group 1, a 3x3 kernel with pads 1: OH = H.
    x = g.P("x", [D(1, 4), 4, -1, -1])
    w = g.P("w", [4, 2, 3, 3])
    off = g.P("off", [D(1, 4), 18, -1, -1])
    # deformable_group 2, a 2x2 kernel, stride 2, no pads.
    w2 = g.P("w2", [3, 4, 2, 2])
    off2 = g.P("off2", [-1, 16, -1, -1])
    outs = [
        g.N(ops1.deformable_convolution(x, off, w, [1, 1], [1, 1], [1, 1], [1, 1], group=2), "group2_pads1"),
        g.N(ops1.deformable_convolution(x, off2, w2, [2, 2], [0, 0], [0, 0], [1, 1], deformable_group=2), "dg2_stride2"),
    ]
    g.case(
        "deformable_conv_v1",
        "DeformableConvolution-1: group 2 with pads 1 (output H x W), deformable_group 2 with stride 2 (floor((H - 2)/2) + 1)",
        [x, off, w, off2, w2],
        outs,
        [
            {"x": [1, 4, 5, 5], "off": [1, 18, 5, 5], "off2": [1, 16, 2, 2]},
            {"x": [2, 4, 6, 4], "off": [2, 18, 6, 4], "off2": [2, 16, 3, 2]},
        ],
    )


def deformable_v8():
    x = g.P("x", [-1, 4, -1, -1])
    w = g.P("w", [2, 4, 3, 3])
    # same_upper with dilation 2: OH = H; a mask, bilinear padding.
    off = g.P("off", [-1, 18, -1, -1])
    mask = g.P("mask", [-1, 9, -1, -1])
    # group 2 and deformable_group 2 with a mask, explicit uneven pads,
    # strides (1, 2): OH = H + 1 - 3 + 1, OW = floor((W + 1 - 3)/2) + 1.
    w2 = g.P("w2", [4, 2, 3, 3])
    off2 = g.P("off2", [-1, 36, -1, -1])
    mask2 = g.P("mask2", [-1, 18, -1, -1])
    outs = [
        g.N(ops8.deformable_convolution(x, off, w, [1, 1], [0, 0], [0, 0], [2, 2], mask=mask, auto_pad="same_upper", bilinear_interpolation_pad=True), "same_upper_mask_bipad"),
        g.N(ops8.deformable_convolution(x, off, w, [1, 1], [0, 0], [0, 0], [2, 2], auto_pad="same_lower"), "same_lower_no_mask"),
        g.N(ops8.deformable_convolution(x, off2, w2, [1, 2], [1, 0], [0, 1], [1, 1], mask=mask2, group=2, deformable_group=2), "group2_dg2_mask"),
        g.N(ops8.deformable_convolution(x, off2, w2, [1, 2], [1, 0], [0, 1], [1, 1], mask=mask2, group=2, deformable_group=2, bilinear_interpolation_pad=True), "group2_dg2_mask_bipad"),
    ]
    g.case(
        "deformable_conv_v8",
        "DeformableConvolution-8: same_upper/same_lower with dilation 2, a mask, bilinear_interpolation_pad; group 2 and deformable_group 2 with uneven pads and strides (1, 2)",
        [x, off, mask, w, off2, mask2, w2],
        outs,
        [
            {"x": [1, 4, 5, 6], "off": [1, 18, 5, 6], "mask": [1, 9, 5, 6], "off2": [1, 36, 4, 3], "mask2": [1, 18, 4, 3]},
            {"x": [2, 4, 4, 4], "off": [2, 18, 4, 4], "mask": [2, 9, 4, 4], "off2": [2, 36, 3, 2], "mask2": [2, 18, 3, 2]},
        ],
    )


def build():
    deformable_v1()
    deformable_v8()
