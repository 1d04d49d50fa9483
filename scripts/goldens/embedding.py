"""Embedding bags (issue 17): EmbeddingBagOffsetsSum-3 and
EmbeddingBagOffsets-15 (an empty bag, the last bag to the end, default
index given, absent and negative, per-sample weights, sum and mean),
EmbeddingBagPackedSum-3 and EmbeddingBagPacked-15 (weights, mean), and
EmbeddingSegmentsSum-3 (a constant and a shape-read num_segments, an unnamed
segment with and without a default, weights); tables and indices of dynamic
and interval dims with static bindings. Indices are drawn in [0, 4), so every
table has at least 4 rows."""

import numpy as np
import openvino.opset3 as ops3
import openvino.opset8 as ops8
import openvino.opset15 as ops15

import gen_op_goldens as g

D = g.D


def offsets():
    table = g.P("table", [D(4, -1), -1])
    idx = g.P("idx", [-1], np.int32)
    w = g.P("w", [-1])
    C = g.C
    # Four bags: [0, 2), an empty one, [2, 5), and [5, end).
    off = C([0, 2, 2, 5], "off", np.int32)
    outs = [
        g.N(ops3.embedding_bag_offsets_sum(table, idx, off), "v3_sum"),
        g.N(ops3.embedding_bag_offsets_sum(table, idx, C([0, 2, 2, 5], "off_b", np.int32), C(1, "default1", np.int32), w), "v3_default_weights"),
        g.N(ops15.embedding_bag_offsets(table, idx, C([0, 2, 2, 5], "off_c", np.int32), C(3, "default3", np.int32), reduction="mean"), "v15_mean_default"),
        g.N(ops15.embedding_bag_offsets(table, idx, C([0, 2, 2, 5], "off_d", np.int32), C(-1, "default_neg", np.int32), w, reduction="sum"), "v15_sum_negative_default"),
        g.N(ops15.embedding_bag_offsets(table, idx, C([0, 3], "off_e", np.int32), reduction="mean"), "v15_mean_two_bags"),
    ]
    g.case(
        "embedding_bag_offsets",
        "EmbeddingBagOffsetsSum-3 and EmbeddingBagOffsets-15: an empty bag, the last bag to the end, default index 1, 3 (mean) and -1 (none), per-sample weights, sum and mean",
        [table, idx, w],
        outs,
        [{"table": [5, 3], "idx": [6], "w": [6]}, {"table": [4, 2], "idx": [9], "w": [9]}],
    )


def packed():
    table = g.P("table", [D(4, -1), 3])
    idx = g.P("idx", [-1, -1], np.int64)
    w = g.P("w", [-1, -1])
    outs = [
        g.N(ops3.embedding_bag_packed_sum(table, idx), "v3_sum"),
        g.N(ops3.embedding_bag_packed_sum(table, idx, w), "v3_weights"),
        g.N(ops15.embedding_bag_packed(table, idx, reduction="mean"), "v15_mean"),
        g.N(ops15.embedding_bag_packed(table, idx, w, reduction="sum"), "v15_sum_weights"),
    ]
    g.case(
        "embedding_bag_packed",
        "EmbeddingBagPackedSum-3 and EmbeddingBagPacked-15: bags of a 2-D indices tensor, per-sample weights, sum and mean",
        [table, idx, w],
        outs,
        [{"table": [6, 3], "idx": [2, 3], "w": [2, 3]}, {"table": [4, 3], "idx": [3, 1], "w": [3, 1]}],
    )


def segments():
    C = g.C
    table = g.P("table", [D(4, -1), -1, 2])
    idx = g.P("idx", [-1], np.int32)
    # Sorted, as the specification requires (OpenVINO's CPU plugin gives
    # another answer for unsorted ids; the executor refuses them).
    seg = C([0, 0, 1, 3, 3, 3], "seg", np.int32)
    w = g.P("w", [-1])
    s = g.P("s", [D(4, 8)])
    count = g.N(ops8.gather(ops3.shape_of(s), C(0, "s_axis"), C(0, "s_gather_axis")), "count")
    outs = [
        g.N(ops3.embedding_segments_sum(table, idx, seg, C(5, "five", np.int32)), "constant_segments"),
        g.N(ops3.embedding_segments_sum(table, idx, seg, C(5, "five_b", np.int32), C(2, "default2", np.int32)), "default_row"),
        g.N(ops3.embedding_segments_sum(table, idx, seg, C(4, "four", np.int32), C(0, "default0", np.int32), w), "default_weights"),
        g.N(ops3.embedding_segments_sum(table, ops3.convert(idx, "i64"), C([0, 1, 1, 2, 3, 3], "seg64"), count), "segments_from_shape"),
    ]
    g.case(
        "embedding_segments_sum",
        "EmbeddingSegmentsSum-3: sorted segment ids, 5 segments (two never named) without and with a default row, weights, num_segments read from a shape",
        [table, idx, w, s],
        outs,
        [
            {"table": [5, 2, 2], "idx": [6], "w": [6], "s": [6]},
            {"table": [4, 1, 2], "idx": [6], "w": [6], "s": [4]},
        ],
    )


def build():
    offsets()
    packed()
    segments()
