"""Interpolate-1, -4 and -11: sizes and scales (exact ratios on dynamic
dims), sizes from a ShapeOf subgraph, pads, axes inputs, and every mode,
coordinate transformation, nearest mode, antialias and cube_coeff the
kernels implement."""

import numpy as np
import openvino as ov
import openvino.opset1 as ops1
import openvino.opset4 as ops4
import openvino.opset8 as ops8
import openvino.opset10 as ops10
import openvino.opset11 as ops11

import gen_op_goldens as g

F32 = np.float32


def v11(x, values, mode, calc, axes=None, name=None, **kw):
    dtype = F32 if calc == "scales" else np.int64
    vals = g.C(values, f"{name}_{calc}", dtype)
    ax = g.C(axes, f"{name}_axes") if axes is not None else None
    return g.N(ops11.interpolate(x, vals, mode, calc, axes=ax, **kw), name)


def shape_cases():
    x = g.P("x", [-1, 3, -1, -1])
    y = g.P("y", [2, g.D(2, 10), g.D(3, 40)])
    # sizes from a ShapeOf subgraph: 2*H and W + 3
    hw = ops8.gather(ops4.shape_of(x), g.C([2, 3], "hw_idx"), g.C(0, "hw_axis"))
    target = ops1.add(ops1.multiply(hw, g.C([2, 1], "hw_mul")), g.C([0, 3], "hw_add"))
    outs = [
        v11(x, [2.0, 2.0], "nearest", "scales", [2, 3], "up2"),
        v11(x, [0.5, 0.5], "nearest", "scales", [2, 3], "down2"),
        v11(x, [1.5, 0.25], "nearest", "scales", [2, 3], "frac"),
        v11(x, [1.0, 3.0, 1.0, 1.0], "nearest", "scales", None, "all_axes"),
        v11(x, [5, 7], "nearest", "sizes", [3, 2], "sizes_const"),
        g.N(ops11.interpolate(x, target, "nearest", "sizes", axes=g.C([2, 3], "sub_axes")), "sizes_shapeof"),
        v11(x, [2.0], "nearest", "scales", [3], "padded", pads_begin=[0, 0, 1, 2], pads_end=[0, 0, 1, 0]),
        v11(y, [0.5, 1.5], "nearest", "scales", [1, 2], "interval"),
        v11(y, [0.7071068], "nearest", "scales", [2], "irrational"),
        g.N(ops10.interpolate(x, g.C([6, 9], "v4_sizes"), g.C([1.0, 1.0], "v4_dummy", F32), "nearest", "sizes", axes=g.C([2, 3], "v4_axes")), "v4_sizes"),
        g.N(ops10.interpolate(x, g.C([1, 1], "v4_dummy_sizes"), g.C([3.0, 0.5], "v4_scales", F32), "nearest", "scales", axes=g.C([2, 3], "v4_axes2")), "v4_scales"),
        g.N(ops1.interpolate(x, g.C([4, 6], "v1_target"), {"axes": [2, 3], "mode": "nearest"}), "v1_nearest"),
    ]
    g.case(
        "interp_shapes",
        "Interpolate shapes: scales (exact ratios), sizes (constant, ShapeOf subgraph), pads, axes, v1/v4/v11",
        [x, y],
        outs,
        [{"x": [1, 3, 4, 6], "y": [2, 3, 5]}, {"x": [2, 3, 7, 5], "y": [2, 10, 40]}, {"x": [1, 3, 1, 1], "y": [2, 2, 3]}],
    )


def nearest_cases():
    x = g.P("x", [1, 2, -1, -1])
    outs = []
    for nm in ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple"):
        for ct in ("half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn", "align_corners"):
            tag = f"{nm}_{ct}"
            outs.append(v11(x, [1.6, 0.6], "nearest", "scales", [2, 3], f"nn_{tag}", coordinate_transformation_mode=ct, nearest_mode=nm))
    outs.append(v11(x, [7, 3], "nearest", "sizes", [2, 3], "nn_sizes"))
    g.case("interp_nearest", "Interpolate nearest: every nearest_mode with every coordinate transformation, up and down", [x], outs, [{"x": [1, 2, 5, 7]}, {"x": [1, 2, 3, 4]}])


def linear_cases():
    x = g.P("x", [1, 2, -1, -1])
    z = g.P("z", [1, 2, 3, -1, -1])
    outs = []
    for ct in ("half_pixel", "pytorch_half_pixel", "asymmetric", "align_corners", "tf_half_pixel_for_nn"):
        outs.append(v11(x, [1.7, 0.6], "linear_onnx", "scales", [2, 3], f"lo_{ct}", coordinate_transformation_mode=ct))
        outs.append(v11(x, [1.7, 0.6], "linear", "scales", [2, 3], f"lin_{ct}", coordinate_transformation_mode=ct))
    outs += [
        v11(x, [0.5, 0.4], "linear", "scales", [2, 3], "lin_antialias", antialias=True),
        v11(x, [2.0, 0.3], "linear", "scales", [2, 3], "lin_antialias_mixed", antialias=True),
        v11(x, [9, 4], "linear_onnx", "sizes", [2, 3], "lo_sizes"),
        v11(x, [8], "linear_onnx", "sizes", [3], "lo_one_axis"),
        v11(x, [1.0, 1.0, 2.0, 2.0], "linear_onnx", "scales", None, "lo_all_axes"),
        v11(x, [2.0, 2.0], "linear_onnx", "scales", [2, 3], "lo_padded", pads_begin=[0, 0, 1, 1], pads_end=[0, 0, 0, 2]),
        v11(z, [2.0, 1.5, 0.5], "linear_onnx", "scales", [2, 3, 4], "lo_3d"),
        v11(z, [2.0, 1.5, 0.5], "linear", "scales", [2, 3, 4], "lin_3d"),
        v11(z, [2.0, 1.5, 0.5], "linear", "scales", [2, 3, 4], "lin_3d_antialias", antialias=True),
        v11(z, [1.0, 0.5, 0.4], "linear", "scales", [2, 3, 4], "lin_3d_antialias_down", antialias=True),
        g.N(ops1.interpolate(x, g.C([6, 5], "v1_lin_target"), {"axes": [2, 3], "mode": "linear"}), "v1_linear"),
        g.N(ops1.interpolate(x, g.C([6, 5], "v1_lin_ac_target"), {"axes": [2, 3], "mode": "linear", "align_corners": True}), "v1_linear_align"),
    ]
    g.case("interp_linear", "Interpolate linear and linear_onnx: coordinate transformations, antialias, pads, 1 to 3 axes, v1", [x, z], outs, [{"x": [1, 2, 5, 6], "z": [1, 2, 3, 4, 5]}, {"x": [1, 2, 2, 3], "z": [1, 2, 3, 2, 2]}])


def cubic_pillow_cases():
    x = g.P("x", [1, 2, -1, -1])
    outs = []
    for ct in ("half_pixel", "pytorch_half_pixel", "asymmetric", "align_corners", "tf_half_pixel_for_nn"):
        outs.append(v11(x, [1.7, 0.6], "cubic", "scales", [2, 3], f"cubic_{ct}", coordinate_transformation_mode=ct))
    outs += [
        v11(x, [2.0, 2.0], "cubic", "scales", [2, 3], "cubic_a05", cube_coeff=-0.5),
        v11(x, [9, 4], "cubic", "sizes", [2, 3], "cubic_sizes"),
        v11(x, [1.7, 0.6], "bilinear_pillow", "scales", [2, 3], "bilinear_pillow"),
        v11(x, [1.7, 0.6], "bicubic_pillow", "scales", [2, 3], "bicubic_pillow"),
        v11(x, [3, 11], "bicubic_pillow", "sizes", [2, 3], "bicubic_pillow_a05", cube_coeff=-0.5),
        v11(x, [0.5, 0.4], "bilinear_pillow", "scales", [2, 3], "bilinear_pillow_down"),
        v11(x, [2.0, 2.0], "bilinear_pillow", "scales", [2, 3], "bilinear_pillow_padded", pads_begin=[0, 0, 1, 0], pads_end=[0, 0, 0, 1]),
        g.N(ops1.interpolate(x, g.C([6, 5], "v1_cubic_target"), {"axes": [2, 3], "mode": "cubic"}), "v1_cubic"),
    ]
    g.case("interp_cubic_pillow", "Interpolate cubic (cube_coeff, coordinate transformations) and the Pillow modes", [x], outs, [{"x": [1, 2, 5, 6]}, {"x": [1, 2, 3, 2]}])


def build():
    shape_cases()
    nearest_cases()
    linear_cases()
    cubic_pillow_cases()
