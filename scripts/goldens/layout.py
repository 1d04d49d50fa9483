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
