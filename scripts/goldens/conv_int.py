"""Integer Convolution and GroupConvolution (what OpenVINO's ONNX frontend makes
of ConvInteger: a Convolution on i32 after the zero points' Subtract). The CPU
plugin computes them in f32 on the operands rounded to f32 and saturates the
sums to i32 (at 2147483520, the largest f32 below 2^31), then converts to the
output type: i8 and u8 saturating, i16, u16 and u32 wrapping, i64 and u64
sign-extending. (i64 filters past 2^40 gave one sum of 3 * 2^40 as 0 where
the others saturate: not followed, so the i64 scale stays below 2^31.) The filters are constants chosen so that every one of these
steps shows (the data inputs are integers in [0, 4))."""

import numpy as np

import gen_op_goldens as g

ops = g.ops


def filters(shape, dtype, scale, seed, name):
    """Seeded filters of `dtype`: integers in [-2, 3) times `scale` (wrapped
    to the type, as numpy's cast does)."""
    rng = np.random.default_rng(seed)
    values = rng.integers(-2, 3, shape).astype(np.int64) * scale
    return g.C(values.astype(dtype), name, dtype)


# (type, a filter scale that overflows the type's range or i32's). The i32,
# u32 and i64 ones are multiples of 2^27 (u32's, wrapped to the type, too),
# so every f32 sum is exact whatever its order.
TYPES = [
    ("i8", np.int8, 30),
    ("u8", np.uint8, 40),
    ("i16", np.int16, 5000),
    ("u16", np.uint16, 9000),
    ("i32", np.int32, 1 << 27),
    ("u32", np.uint32, (1 << 31) + (1 << 27)),
    ("i64", np.int64, (1 << 28) + (1 << 27)),
    ("u64", np.uint64, (1 << 33) + 7),
]


def build():
    for name, dtype, scale in TYPES:
        x = g.P("x", [-1, 4, -1, -1], dtype)
        small = filters([3, 4, 3, 3], dtype, 1, 1, "w_small")
        large = filters([2, 4, 3, 3], dtype, scale, 2, "w_large")
        grouped = filters([2, 3, 2, 2, 2], dtype, 1, 3, "w_grouped")
        depthwise = filters([4, 1, 1, 3, 3], dtype, scale, 4, "w_depthwise")
        outs = [
            g.N(ops.convolution(x, small, [1, 1], [1, 1], [1, 1], [1, 1]), "conv_pad1"),
            g.N(ops.convolution(x, large, [2, 1], [0, 1], [1, 0], [1, 2]), "conv_large_s21_d12"),
            g.N(ops.group_convolution(x, grouped, [1, 1], [0, 0], [0, 0], [1, 1]), "group2"),
            g.N(ops.group_convolution(x, depthwise, [2, 2], [1, 1], [1, 1], [1, 1]), "depthwise_large_s2"),
        ]
        g.case(
            f"convolution_integer_{name}",
            f"Convolution and GroupConvolution on {name}: small filters, and filters whose sums leave the type's or i32's range",
            [x],
            outs,
            [{"x": [1, 4, 6, 7]}, {"x": [2, 4, 5, 5]}],
        )
