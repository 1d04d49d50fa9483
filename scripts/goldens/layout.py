"""DepthToSpace, SpaceToDepth (both modes, 2-D and 3-D spatial) and
ShuffleChannels, on dynamic and static dims."""

import openvino.opset1 as ops1
import openvino.opset3 as ops3

import gen_op_goldens as g


def build():
    x = g.P("x", [-1, 8, -1, -1])
    y = g.P("y", [1, 16, 2, -1, 3])
    outs = [
        g.N(ops1.depth_to_space(x, "blocks_first", 2), "d2s_blocks"),
        g.N(ops1.depth_to_space(x, "depth_first", 2), "d2s_depth"),
        g.N(ops1.space_to_depth(x, "blocks_first", 2), "s2d_blocks"),
        g.N(ops1.space_to_depth(x, "depth_first", 2), "s2d_depth"),
        g.N(ops1.depth_to_space(y, "depth_first", 2), "d2s_3d"),
        g.N(ops3.shuffle_channels(x, 1, 4), "shuffle4"),
        g.N(ops3.shuffle_channels(y, -1, 3), "shuffle_last3"),
    ]
    g.case(
        "layout_blocks",
        "DepthToSpace / SpaceToDepth both modes, ShuffleChannels",
        [x, y],
        outs,
        [{"x": [1, 8, 4, 6], "y": [1, 16, 2, 2, 3]}, {"x": [2, 8, 2, 2], "y": [1, 16, 2, 4, 3]}],
    )


# Issue 17: Reverse-1, ReverseSequence-1, BatchToSpace-2, SpaceToBatch-2.

import numpy as np
import openvino.opset2 as ops2
import openvino.opset8 as ops8
from openvino.utils.node_factory import NodeFactory

D = g.D


def reverse(data, axes, mode):
    """Reverse-1 (not in OpenVINO's Python opsets): made by its factory."""
    return NodeFactory("opset1").create("Reverse", [data.output(0), axes.output(0)], {"mode": mode})


def dim_of(x, axis, name):
    """Dim `axis` of `x` as a 1-element i64 (ShapeOf then Gather)."""
    return g.N(ops8.gather(ops3.shape_of(x), g.C([axis], f"{name}_axis"), g.C(np.int64(0), f"{name}_gather_axis")), name)


def reverse_cases():
    x = g.P("x", [-1, D(1, 6), 4, -1])
    a = g.P("a", [2], np.int64)
    m = g.P("m", [4], np.bool_)
    C = g.C
    outs = [
        g.N(reverse(x, C([1, 3], "ax13"), "index"), "index_two"),
        g.N(reverse(x, C([-1, 0, 0], "ax_neg"), "index"), "index_negative_repeated"),
        g.N(reverse(x, C(np.zeros(0, np.int64), "ax_none"), "index"), "index_none"),
        g.N(reverse(x, C([True, False, True, True], "mk", np.bool_), "mask"), "mask_const"),
        g.N(reverse(x, a, "index"), "index_param"),
        g.N(reverse(x, m, "mask"), "mask_param"),
        g.N(reverse(C(np.arange(6, dtype=np.int32).reshape(2, 3), "xi", np.int32), C([1], "ax1"), "index"), "int_data"),
    ]
    g.case(
        "layout_reverse",
        "Reverse-1: index mode (constant, negative and repeated, empty, run-time axes) and mask mode (constant, run-time); integer data",
        [x, a, m],
        outs,
        [{"x": [2, 3, 4, 5]}, {"x": [1, 1, 4, 1]}],
    )
    g.EXPECTED_RULES["invalid_reverse_mask"] = "reverse-mask-length"
    mm = g.P("mm", [4], np.bool_)
    r = g.N(reverse(x, mm, "mask"), "reverse")
    g.INVALID.append(("invalid_reverse_mask", "reverse", "mm: [4] -> [3] (a mask shorter than the rank)", g.ov.Model([ops1.result(r)], [x, mm]), g._param_edit("mm", [3])))


def reverse_sequence_cases():
    x = g.P("x", [-1, 5, D(3, 6)])
    s = g.P("s", [-1], np.int32)
    C = g.C
    outs = [
        g.N(ops1.reverse_sequence(x, s, 0, 1), "batch0_seq1"),
        g.N(ops1.reverse_sequence(x, C([1, 2, 0, 3, 3], "lens", np.int64), 1, -1), "batch_last_const"),
        g.N(ops1.reverse_sequence(x, ops1.convert(s, "f32"), 0, 1), "float_lengths"),
        g.N(ops1.reverse_sequence(ops1.transpose(x, C([1, 2, 0], "perm")), C(np.array([2.9, 1.2, 3.0, 0.5, 2.5], np.float32), "flens", np.float32), 0, 1), "truncated"),
    ]
    g.case(
        "layout_reverse_sequence",
        "ReverseSequence-1: batch and sequence axes (negative too), run-time i32 and f32 lengths, constant lengths with 0, truncated float lengths",
        [x, s],
        outs,
        [{"x": [3, 5, 4], "s": [3]}, {"x": [1, 5, 3], "s": [1]}],
    )


def batch_space_cases():
    x = g.P("x", [-1, 2, D(1, 8), -1])
    y = g.P("y", [4, 3, 5])
    C = g.C
    w = dim_of(y, 1, "w3")  # [3], a value read from the shape
    pad_from_shape = ops1.concat([C([0, 0], "pz2"), w], 0)
    outs = [
        g.N(ops2.space_to_batch(x, C([1, 2, 2, 1], "b1"), C([0, 0, 1, 0], "pb1"), C([0, 0, 1, 0], "pe1")), "s2b_pad"),
        g.N(ops2.space_to_batch(x, C([1, 1, 1, 3], "b2"), C([0, 0, 0, 0], "pb2"), C([0, 0, 0, 0], "pe2")), "s2b_last"),
        g.N(ops2.space_to_batch(y, C([1, 3, 3], "b3"), C([0, 0, 1], "pb3"), pad_from_shape), "s2b_pad_from_shape"),
        g.N(ops2.batch_to_space(y, C([1, 2, 2], "b4"), C([0, 1, 0], "cb4"), C([0, 0, 1], "ce4")), "b2s_crop"),
        g.N(ops2.batch_to_space(x, C([1, 1, 1, 2], "b5"), C([0, 0, 0, 1], "cb5"), C([0, 0, 0, 0], "ce5")), "b2s_dynamic"),
        g.N(ops2.batch_to_space(ops2.space_to_batch(x, C([1, 2, 1, 2], "b6"), C([0, 1, 0, 0], "pb6"), C([0, 1, 0, 0], "pe6")), C([1, 2, 1, 2], "b7"), C([0, 1, 0, 0], "cb7"), C([0, 1, 0, 0], "ce7")), "round_trip"),
    ]
    g.case(
        "layout_batch_space",
        "SpaceToBatch-2 and BatchToSpace-2: padding, crops, block on the last axis, pads read from a shape, a dynamic batch, a round trip",
        [x, y],
        outs,
        [{"x": [2, 2, 2, 6]}, {"x": [4, 2, 6, 6]}],
    )


_build_blocks = build


def build():
    _build_blocks()
    reverse_cases()
    reverse_sequence_cases()
    batch_space_cases()
