"""FakeQuantize-1: per-tensor and per-channel ranges, ranges of lower and
higher rank, levels 256, 255, 3 and 2, numpy, pdpd and none broadcasting,
f32 and f16, on dynamic dims."""

import numpy as np
import openvino.opset1 as ops1

import gen_op_goldens as g

F32 = np.float32


def fq_cases():
    x = g.P("x", [-1, 3, -1, -1])
    y = g.P("y", [-1, 4, 5])
    z = g.P("z", [2, 3])
    h = g.P("h", [-1, 3, -1], np.float16)
    f = lambda v, name, dtype=F32: g.C(np.array(v, dtype=dtype), name, dtype)  # noqa: E731
    per_channel = lambda vals, name: f(np.array(vals).reshape(1, 3, 1, 1), name)  # noqa: E731
    outs = [
        # Per tensor (scalars), the usual int8 ranges.
        g.N(ops1.fake_quantize(x, f(-1.5, "t_il"), f(2.0, "t_ih"), f(-1.5, "t_ol"), f(2.0, "t_oh"), 256), "fq_tensor_256"),
        # Per tensor as [1, 1, 1, 1], other output range, 255 levels.
        g.N(ops1.fake_quantize(x, f([[[[-2.0]]]], "t4_il"), f([[[[2.0]]]], "t4_ih"), f([[[[-1.0]]]], "t4_ol"), f([[[[1.0]]]], "t4_oh"), 255), "fq_tensor_255"),
        # Per channel, all four ranges [1, 3, 1, 1].
        g.N(ops1.fake_quantize(x, per_channel([-1, -2, -0.5], "c_il"), per_channel([1, 2.5, 0.75], "c_ih"), per_channel([-1, 0, -3], "c_ol"), per_channel([1, 5, 3], "c_oh"), 256), "fq_channel_256"),
        # Input ranges per channel as [3, 1, 1] (lower rank), output ranges scalars.
        g.N(ops1.fake_quantize(x, f(np.reshape([-2, -1, -0.25], (3, 1, 1)), "m_il"), f(np.reshape([2, 1.5, 0.5], (3, 1, 1)), "m_ih"), f(0.0, "m_ol"), f(2.5, "m_oh"), 255), "fq_channel_mixed"),
        # Few levels.
        g.N(ops1.fake_quantize(x, f(-1.0, "l3_il"), f(1.0, "l3_ih"), f(-2.0, "l3_ol"), f(2.0, "l3_oh"), 3), "fq_levels3"),
        g.N(ops1.fake_quantize(x, f(-0.5, "l2_il"), f(0.5, "l2_ih"), f(-1.0, "l2_ol"), f(1.0, "l2_oh"), 2), "fq_levels2"),
        # Ranges along the last axis (not the channels), and one of rank 5 with leading 1s.
        g.N(ops1.fake_quantize(y, f([-1, -2, -0.5, -3, -1.25], "w_il"), f([1, 2, 2.5, 0.5, 1.75], "w_ih"), f(-1.0, "w_ol"), f(1.0, "w_oh"), 256), "fq_last_axis"),
        g.N(ops1.fake_quantize(y, f(np.full((1, 1, 1, 1), -1.0), "r5_il"), f(np.reshape([1.0, 2, 1.5, 0.5], (1, 4, 1)), "r5_ih"), f(-1.0, "r5_ol"), f(1.0, "r5_oh"), 256), "fq_rank4_range"),
        # pdpd: [1, 3] placed at axis 0 of [N, 3, H, W]; none: equal shapes.
        g.N(ops1.fake_quantize(x, f([[-1.0, -2.0, -0.5]], "p_il"), f([[1.0, 2.0, 0.5]], "p_ih"), f([[-1.0, -2.0, -0.5]], "p_ol"), f([[1.0, 2.0, 0.5]], "p_oh"), 256, "pdpd"), "fq_pdpd"),
        g.N(ops1.fake_quantize(z, f(np.full((2, 3), -1.0), "n_il"), f(np.full((2, 3), 1.5), "n_ih"), f(np.full((2, 3), -1.0), "n_ol"), f(np.full((2, 3), 1.5), "n_oh"), 256, "none"), "fq_none"),
        # f16 data and ranges.
        g.N(ops1.fake_quantize(h, f(-1.0, "h_il", np.float16), f(1.5, "h_ih", np.float16), f(-1.0, "h_ol", np.float16), f(1.5, "h_oh", np.float16), 256), "fq_f16"),
    ]
    g.case(
        "quant_fq",
        "FakeQuantize-1 per tensor and per channel, levels 256/255/3/2, lower- and higher-rank ranges, numpy/pdpd/none, f32 and f16",
        [x, y, z, h],
        outs,
        [
            {"x": [2, 3, 4, 5], "y": [2, 4, 5], "h": [2, 3, 7]},
            {"x": [1, 3, 1, 2], "y": [1, 4, 5], "h": [1, 3, 1]},
        ],
    )

    # input_low above input_high: OpenVINO's reference (and the spec) give
    # output_low up to input_high, output_high above input_low, and the
    # quantized ramp between; its CPU plugin clamps first and gives
    # output_low everywhere.
    v = g.P("v", [1, 2, -1])
    outs = [g.N(ops1.fake_quantize(v, f(1.0, "i_il"), f(-1.0, "i_ih"), f(-2.0, "i_ol"), f(2.0, "i_oh"), 256), "fq_inverted")]
    g.case("quant_fq_inverted", "FakeQuantize-1 with input_low above input_high", [v], outs, [{"v": [1, 2, 6]}])


def build():
    fq_cases()
