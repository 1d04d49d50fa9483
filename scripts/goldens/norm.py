"""MVN-1 and MVN-6: trailing and non-trailing axes, eps modes,
normalize_variance, across_channels and reduction_axes, on dynamic dims;
NormalizeL2, GroupNormalization, BatchNormInference and LRN."""

import numpy as np
import openvino.opset2 as ops2
import openvino.opset6 as ops6

import gen_op_goldens as g


def mvn_cases():
    x = g.P("x", [-1, 3, -1, 4])
    outs = [
        g.N(ops6.mvn(x, g.C([-1], "ax_last"), True, 1e-5, "inside_sqrt"), "mvn6_last"),
        g.N(ops6.mvn(x, g.C([2, 3], "ax_hw"), True, 1e-3, "outside_sqrt"), "mvn6_hw_outside"),
        g.N(ops6.mvn(x, g.C([1, 2, 3], "ax_chw"), False, 1e-5, "inside_sqrt"), "mvn6_chw_mean_only"),
        g.N(ops6.mvn(x, g.C([1], "ax_c"), True, 1e-5, "inside_sqrt"), "mvn6_channels"),
        g.N(ops6.mvn(x, g.C([0, 2], "ax_nh"), True, 1e-4, "outside_sqrt"), "mvn6_nh"),
        g.N(ops2.mvn(x, True, True, 1e-5), "mvn1_across"),
        g.N(ops2.mvn(x, False, True, 1e-5), "mvn1_per_channel"),
    ]
    g.case("norm_mvn", "MVN-1 and MVN-6 over trailing and other axes", [x], outs, [{"x": [2, 3, 5, 4]}, {"x": [1, 3, 2, 4]}])


def group_norm_cases():
    import openvino.opset12 as ops12

    x = g.P("x", [-1, 6, -1])
    y = g.P("y", [2, 4, -1, -1])
    rng = np.random.default_rng(3)
    scale6 = g.C(rng.uniform(0.5, 1.5, 6).astype(np.float32), "scale6", np.float32)
    bias6 = g.C(rng.uniform(-1, 1, 6).astype(np.float32), "bias6", np.float32)
    scale4 = g.C(rng.uniform(0.5, 1.5, 4).astype(np.float32), "scale4", np.float32)
    bias4 = g.C(rng.uniform(-1, 1, 4).astype(np.float32), "bias4", np.float32)
    outs = [
        g.N(ops12.group_normalization(x, scale6, bias6, 3, 1e-5), "gn3"),
        g.N(ops12.group_normalization(x, scale6, bias6, 6, 1e-3), "gn6"),
        g.N(ops12.group_normalization(y, scale4, bias4, 2, 1e-5), "gn2_4d"),
    ]
    g.case("norm_group", "GroupNormalization-12: 3 and 6 groups, 3-D and 4-D", [x, y], outs, [{"x": [2, 6, 7], "y": [2, 4, 3, 5]}, {"x": [1, 6, 1], "y": [2, 4, 1, 2]}])


def batch_norm_cases():
    import openvino.opset1 as ops1
    import openvino.opset5 as ops5

    x = g.P("x", [-1, 3, -1, -1])
    rng = np.random.default_rng(4)
    per_channel = lambda name, lo, hi: g.C(rng.uniform(lo, hi, 3).astype(np.float32), name, np.float32)  # noqa: E731
    outs = [
        g.N(ops1.batch_norm_inference(x, per_channel("g1", 0.5, 2), per_channel("b1", -1, 1), per_channel("m1", -1, 1), per_channel("v1", 0.1, 2), 1e-5), "bn1"),
        g.N(ops5.batch_norm_inference(x, per_channel("g5", 0.5, 2), per_channel("b5", -1, 1), per_channel("m5", -1, 1), per_channel("v5", 0.1, 2), 1e-3), "bn5"),
    ]
    y = g.P("y", [2, -1])
    c2 = lambda name: g.C(np.linspace(0.5, 1.5, 4).astype(np.float32), name, np.float32)  # noqa: E731
    outs.append(g.N(ops5.batch_norm_inference(y, c2("g2"), c2("b2"), c2("m2"), c2("v2"), 1e-5), "bn5_2d"))
    g.case("norm_batch", "BatchNormInference-1 (gamma, beta, data, …) and -5 (data first), 4-D and 2-D", [x, y], outs, [{"x": [1, 3, 4, 5], "y": [2, 4]}, {"x": [2, 3, 2, 3], "y": [2, 4]}])


def normalize_l2_cases():
    import openvino.opset1 as ops1

    x = g.P("x", [-1, 4, -1])
    outs = [
        g.N(ops1.normalize_l2(x, g.C([1], "l2_ax1"), 1e-6, "add"), "l2_channels_add"),
        g.N(ops1.normalize_l2(x, g.C([1, 2], "l2_ax12"), 0.5, "max"), "l2_chw_max"),
        g.N(ops1.normalize_l2(x, g.C([-1], "l2_axl"), 1e-6, "max"), "l2_last"),
    ]
    g.case("norm_l2", "NormalizeL2: axes, eps modes", [x], outs, [{"x": [2, 4, 5]}, {"x": [1, 4, 1]}])


def lrn_cases():
    import openvino.opset1 as ops1

    # The window is (size - 1) / 2 on each side (an even size: size - 1
    # elements), as OpenVINO's reference and its CPU plugin; the spec's
    # pseudo-code (size / 2 on each side) differs for even sizes. Biases
    # are whole numbers here: OpenVINO 2026.4's CPU plugin truncates the bias
    # to an integer (norm_lrn_bias shows it).
    x = g.P("x", [-1, 6, -1, -1])
    y = g.P("y", [-1, 4, -1])
    z = g.P("z", [-1, 5])
    outs = [
        g.N(ops1.lrn(x, g.C([1], "lrn_ax1"), 0.5, 0.75, 1.0, 5), "lrn_channels"),
        g.N(ops1.lrn(x, g.C([1], "lrn_ax1_even"), 0.3, 0.5, 2.0, 4), "lrn_channels_even"),
        g.N(ops1.lrn(x, g.C([2, 3], "lrn_ax23"), 0.2, 0.75, 1.0, 3), "lrn_spatial"),
        g.N(ops1.lrn(x, g.C([3, 2], "lrn_ax32"), 0.4, 1.0, 1.0, 2), "lrn_spatial_even"),
        g.N(ops1.lrn(y, g.C([1], "lrn_y_ax1", np.int32), 1e-2, 0.75, 2.0, 3), "lrn_3d_channels"),
        g.N(ops1.lrn(y, g.C([2], "lrn_y_ax2"), 0.25, 0.6, 1.0, 3), "lrn_3d_spatial"),
        g.N(ops1.lrn(z, g.C([1], "lrn_z_ax1"), 0.5, 0.75, 1.0, 1), "lrn_2d_size1"),
    ]
    g.case(
        "norm_lrn",
        "LRN-1 across channels and over the spatial axes, odd and even sizes, ranks 2 to 4",
        [x, y, z],
        outs,
        [{"x": [2, 6, 5, 7], "y": [2, 4, 6], "z": [3, 5]}, {"x": [1, 6, 1, 3], "y": [1, 4, 1], "z": [1, 5]}],
    )

    w = g.P("w", [1, 5, -1, -1])
    outs = [g.N(ops1.lrn(w, g.C([1], "lrn_w_ax1"), 0.5, 0.75, 1.5, 3), "lrn_bias_fraction")]
    g.case("norm_lrn_bias", "LRN-1 with a bias of 1.5 (OpenVINO's CPU plugin computes with 1)", [w], outs, [{"w": [1, 5, 3, 4]}])


def build():
    lrn_cases()
    normalize_l2_cases()
    mvn_cases()
    group_norm_cases()
    batch_norm_cases()
