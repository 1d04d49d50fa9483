"""Convolution-like ops of issue 17: DeformableConvolution-1 and -8 (group,
deformable_group, strides, dilations, pads, auto_pad, the v8 mask and
bilinear_interpolation_pad), BinaryConvolution-1 (u1 weights, pad_value,
strides, dilations, auto_pad), NV12toRGB/BGR-8 and I420toRGB/BGR-8 (one,
two and three planes, u8 and f32), CTCLoss-4 (preprocess_collapse_repeated,
ctc_merge_repeated, unique, blank_index). Inputs of dynamic and interval dims with
static bindings small enough for the executor goldens."""

import numpy as np
import openvino as ov
import openvino.opset1 as ops1
import openvino.opset4 as ops4
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
    # The same with bilinear padding and stride 1 (OH = H - 1, OW = W - 1):
    # OpenVINO's CPU plugin caches its executor by attributes that leave
    # out bilinear_interpolation_pad, so a layer differing from another
    # only by it would get the other's result.
    off3 = g.P("off3", [-1, 36, -1, -1])
    mask3 = g.P("mask3", [-1, 18, -1, -1])
    outs = [
        g.N(ops8.deformable_convolution(x, off, w, [1, 1], [0, 0], [0, 0], [2, 2], mask=mask, auto_pad="same_upper", bilinear_interpolation_pad=True), "same_upper_mask_bipad"),
        g.N(ops8.deformable_convolution(x, off, w, [1, 1], [0, 0], [0, 0], [2, 2], auto_pad="same_lower"), "same_lower_no_mask"),
        g.N(ops8.deformable_convolution(x, off2, w2, [1, 2], [1, 0], [0, 1], [1, 1], mask=mask2, group=2, deformable_group=2), "group2_dg2_mask"),
        g.N(ops8.deformable_convolution(x, off3, w2, [1, 1], [1, 0], [0, 1], [1, 1], mask=mask3, group=2, deformable_group=2, bilinear_interpolation_pad=True), "group2_dg2_mask_bipad"),
    ]
    g.case(
        "deformable_conv_v8",
        "DeformableConvolution-8: same_upper/same_lower with dilation 2, a mask, bilinear_interpolation_pad; group 2 and deformable_group 2 with uneven pads and strides (1, 2)",
        [x, off, mask, w, off2, mask2, w2, off3, mask3],
        outs,
        [
            {"x": [1, 4, 5, 6], "off": [1, 18, 5, 6], "mask": [1, 9, 5, 6], "off2": [1, 36, 4, 3], "mask2": [1, 18, 4, 3], "off3": [1, 36, 4, 5], "mask3": [1, 18, 4, 5]},
            {"x": [2, 4, 4, 4], "off": [2, 18, 4, 4], "mask": [2, 9, 4, 4], "off2": [2, 36, 3, 2], "mask2": [2, 18, 3, 2], "off3": [2, 36, 3, 3], "mask3": [2, 18, 3, 3]},
        ],
    )


def u1_weights(shape, name, seed):
    """A u1 Const of `shape` with a fixed pattern of bits."""
    count = int(np.prod(shape))
    bits = [(i * 7 + seed) % 5 < 2 for i in range(count)]
    c = ov.op.Constant(ov.Type.u1, ov.Shape(shape), [int(b) for b in bits])
    c.set_friendly_name(name)
    return c


def binary_conv():
    # 8 input channels: with a count that is not a multiple of 8, OpenVINO's
    # CPU plugin reads filter bits from outside the filters.
    x = g.P("x", [D(1, 4), 8, -1, -1])
    w = u1_weights([4, 8, 3, 3], "w", 0)
    w2 = u1_weights([2, 8, 2, 2], "w2", 3)
    outs = [
        g.N(ops1.binary_convolution(x, w, [1, 1], [1, 1], [1, 1], [1, 1], "xnor-popcount", -1.0), "pads1_minus1"),
        g.N(ops1.binary_convolution(x, w, [2, 2], [0, 1], [1, 0], [1, 1], "xnor-popcount", 1.0), "stride2_uneven_plus1"),
        g.N(ops1.binary_convolution(x, w, [1, 1], [1, 1], [1, 1], [1, 1], "xnor-popcount", 0.0), "pads1_zero"),
        g.N(ops1.binary_convolution(x, w2, [1, 2], [0, 0], [0, 0], [2, 1], "xnor-popcount", 1.0, auto_pad="same_upper"), "same_upper_dilated"),
        g.N(ops1.binary_convolution(x, w2, [1, 1], [0, 0], [0, 0], [1, 1], "xnor-popcount", -1.0, auto_pad="valid"), "valid"),
    ]
    g.case(
        "binary_conv",
        "BinaryConvolution-1: u1 weights, pad_value -1, 1 and 0, pads, uneven pads with stride 2, same_upper with dilation (2, 1), valid",
        [x],
        outs,
        [{"x": [2, 8, 5, 5]}, {"x": [1, 8, 4, 6]}],
    )


def color():
    single = g.P("single", [D(1, 2), -1, -1, 1])
    single_u8 = g.P("single_u8", [-1, -1, -1, 1], np.uint8)
    y = g.P("y", [-1, -1, -1, 1], np.uint8)
    uv = g.P("uv", [-1, -1, -1, 2], np.uint8)
    yf = g.P("yf", [-1, D(2, 8), -1, -1])
    u = g.P("u", [-1, -1, -1, 1])
    v = g.P("v", [-1, -1, -1, 1])
    # The f32 planes scaled from the goldens' [-3, 3] into [0, 255]: 40x + 128.
    def video(p, name):
        scaled = ops1.multiply(p, g.C(40.0, name + "_scale", np.float32))
        return g.N(ops1.add(scaled, g.C(128.0, name + "_shift", np.float32)), name + "_video")

    single_v, yf_v, u_v, v_v = (video(p, n) for p, n in ((single, "single"), (yf, "yf"), (u, "u"), (v, "v")))
    outs = [
        g.N(ops8.nv12_to_rgb(single_v), "nv12_rgb_single"),
        g.N(ops8.nv12_to_bgr(single_u8), "nv12_bgr_single_u8"),
        g.N(ops8.nv12_to_rgb(y, uv), "nv12_rgb_planes_u8"),
        g.N(ops8.nv12_to_bgr(y, uv), "nv12_bgr_planes_u8"),
        g.N(ops8.i420_to_rgb(single_u8), "i420_rgb_single_u8"),
        g.N(ops8.i420_to_bgr(single_v), "i420_bgr_single"),
        g.N(ops8.i420_to_rgb(yf_v, u_v, v_v), "i420_rgb_planes"),
        g.N(ops8.i420_to_bgr(yf_v, u_v, v_v), "i420_bgr_planes"),
    ]
    g.case(
        "color_yuv420",
        "NV12toRGB/BGR-8 and I420toRGB/BGR-8: a single plane (height 2*Hs/3), NV12 Y and UV planes, I420 Y, U and V planes; u8 and f32",
        [single, single_u8, y, uv, yf, u, v],
        outs,
        [
            {"single": [1, 6, 4, 1], "single_u8": [2, 9, 2, 1], "y": [1, 4, 6, 1], "uv": [1, 2, 3, 2], "yf": [2, 2, 4, 1], "u": [2, 1, 2, 1], "v": [2, 1, 2, 1]},
            {"single": [2, 12, 6, 1], "single_u8": [1, 3, 4, 1], "y": [2, 2, 2, 1], "uv": [2, 1, 1, 2], "yf": [1, 6, 2, 1], "u": [1, 3, 1, 1], "v": [1, 3, 1, 1]},
        ],
    )


def ctc_loss():
    C = g.C
    # Labels, lengths and the blank are constants: OpenVINO's CPU plugin
    # refuses a label longer than its logits, which random lengths would give.
    logits = g.P("logits", [2, 6, D(4, 8)])
    labels = C([[1, 1, 2, 2, 3, 1], [3, 1, 3, 3, 2, 1]], "labels", np.int32)
    logit_length = C([6, 5], "logit_length", np.int32)
    label_length = C([4, 4], "label_length", np.int32)
    logits64 = ops1.convert(logits, "f32")
    labels64 = C([[2, 3, 2, 1, 1, 1], [1, 2, 3, 1, 2, 3]], "labels64")
    outs = [
        g.N(ops4.ctc_loss(logits, logit_length, labels, label_length), "default_blank"),
        g.N(ops4.ctc_loss(logits, logit_length, labels, label_length, preprocess_collapse_repeated=True), "collapse"),
        g.N(ops4.ctc_loss(logits, logit_length, labels, label_length, ctc_merge_repeated=False), "no_merge"),
        g.N(ops4.ctc_loss(logits, logit_length, labels, label_length, unique=True), "unique"),
        g.N(ops4.ctc_loss(logits, logit_length, labels, label_length, C(0, "blank0", np.int32), preprocess_collapse_repeated=True, ctc_merge_repeated=False), "blank0_collapse_no_merge"),
        g.N(ops4.ctc_loss(logits64, C([4, 6], "logit_length64"), labels64, C([3, 6], "label_length64"), C(0, "blank0_64"), unique=True, ctc_merge_repeated=False), "i64_unique_no_merge"),
    ]
    g.case(
        "ctc_loss",
        "CTCLoss-4: the default blank (C - 1) and blank 0, preprocess_collapse_repeated, ctc_merge_repeated false, unique, i32 and i64 indices",
        [logits],
        outs,
        [{"logits": [2, 6, 5]}, {"logits": [2, 6, 7]}],
    )
    # Symbolic: the batch merged from every input, the time steps checked.
    lg = g.P("lg", [-1, -1, -1])
    ll = g.P("ll", [D(1, 5)], np.int32)
    lb = g.P("lb", [-1, 7], np.int32)
    bl = g.P("bl", [-1], np.int32)
    g.case(
        "ctc_loss_dynamic",
        "CTCLoss-4: the batch of dynamic inputs, the labels' time steps",
        [lg, ll, lb, bl],
        [g.N(ops4.ctc_loss(lg, ll, lb, bl), "loss")],
        [{"lg": [2, 7, 3], "ll": [2], "lb": [2, 7], "bl": [2]}],
    )


def invalid():
    """Valid graphs made invalid by one edited Parameter shape."""

    def add(name, rule, layer, edit_text, node, params, param, dims):
        g.EXPECTED_RULES[name] = rule
        model = g.ov.Model([ops1.result(node)], params)
        g.INVALID.append((name, layer, edit_text, model, g._param_edit(param, dims)))

    x = g.P("x", [1, 4, 5, 5])
    off = g.P("off", [1, 18, 5, 5])
    w = g.P("w", [4, 4, 3, 3])
    mask = g.P("mask", [1, 9, 5, 5])
    dc = g.N(ops8.deformable_convolution(x, off, w, [1, 1], [1, 1], [1, 1], [1, 1], mask=mask), "dc")
    add("invalid_deformable_offsets", "deformable-offsets", "dc", "off: [1,18,5,5] -> [1,16,5,5] (not 2*3*3 channels)", dc, [x, off, w, mask], "off", [1, 16, 5, 5])
    x = g.P("x", [1, 4, 5, 5])
    off = g.P("off", [1, 18, 5, 5])
    w = g.P("w", [4, 4, 3, 3])
    mask = g.P("mask", [1, 9, 5, 5])
    dc = g.N(ops8.deformable_convolution(x, off, w, [1, 1], [1, 1], [1, 1], [1, 1], mask=mask), "dc")
    add("invalid_deformable_mask", "deformable-mask", "dc", "mask: [1,9,5,5] -> [1,9,4,5] (not the output's height)", dc, [x, off, w, mask], "mask", [1, 9, 4, 5])

    x = g.P("x", [1, 8, 5, 5])
    bc = g.N(ops1.binary_convolution(x, u1_weights([2, 8, 3, 3], "w", 1), [1, 1], [0, 0], [0, 0], [1, 1], "xnor-popcount", 0.0), "bc")
    add("invalid_binary_conv_rank", "conv-rank", "bc", "x: [1,8,5,5] -> [1,8,5] (not 4-D)", bc, [x], "x", [1, 8, 5])

    y = g.P("y", [1, 6, 4, 1], np.uint8)
    nv = g.N(ops8.nv12_to_rgb(y), "nv12")
    add("invalid_nv12_height", "color-divisible", "nv12", "y: [1,6,4,1] -> [1,7,4,1] (a single plane's height not divisible by 3)", nv, [y], "y", [1, 7, 4, 1])
    y = g.P("y", [1, 6, 4, 1])
    i4 = g.N(ops8.i420_to_bgr(y), "i420")
    add("invalid_i420_width", "color-divisible", "i420", "y: [1,6,4,1] -> [1,6,5,1] (an odd width)", i4, [y], "y", [1, 6, 5, 1])

    logits = g.P("logits", [2, 6, 5])
    labels = g.P("labels", [2, 6], np.int32)
    loss = g.N(ops4.ctc_loss(logits, g.C([6, 5], "ll", np.int32), labels, g.C([3, 3], "bl", np.int32)), "loss")
    add("invalid_ctc_loss_time", "ctc-loss-dims", "loss", "labels: [2,6] -> [2,5] (not the logits' time steps)", loss, [logits, labels], "labels", [2, 5])


def build():
    deformable_v1()
    deformable_v8()
    binary_conv()
    color()
    ctc_loss()
    invalid()
