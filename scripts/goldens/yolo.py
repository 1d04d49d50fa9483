"""YOLO heads and SSD priors (issue 17): ReorgYolo-2 (strides 2 and 3, symbolic
H and W divisible by the stride), RegionYolo-1 (YOLOv2 softmax mode
flattening axes 1..3 and 2..3, YOLOv3 mask mode), PriorBoxClustered-1 and
PriorBox-1/-8 (the feature-map and image sizes read with ShapeOf and
StridedSlice from Parameters of symbolic H and W, so the prior count is an
expression of them)."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset2 as ops2
import openvino.opset3 as ops3
import openvino.opset8 as ops8

import gen_op_goldens as g

D = g.D


def reorg():
    x = g.P("x", [D(1, 4), 8, -1, -1])
    y = g.P("y", [1, 9, 6, 3])
    outs = [
        g.N(ops2.reorg_yolo(x, [2]), "stride2"),
        g.N(ops2.reorg_yolo(y, [3]), "stride3_static"),
    ]
    g.case(
        "reorg_yolo",
        "ReorgYolo-2: stride 2 on symbolic H and W (divisibility recorded) and stride 3 on a static input",
        [x, y],
        outs,
        [{"x": [2, 8, 4, 6], "y": [1, 9, 6, 3]}, {"x": [1, 8, 2, 2], "y": [1, 9, 6, 3]}],
    )


def invalid():
    g.EXPECTED_RULES["invalid_reorg_yolo_divisible"] = "reorg-divisible"
    x = g.P("x", [1, 8, 4, 4])
    r = g.N(ops2.reorg_yolo(x, [2]), "reorg")
    g.INVALID.append(("invalid_reorg_yolo_divisible", "reorg", "x: [1,8,4,4] -> [1,8,5,4] (H not divisible by stride 2)", g.ov.Model([ops1.result(r)], [x]), g._param_edit("x", [1, 8, 5, 4])))
    g.EXPECTED_RULES["invalid_region_yolo_rank"] = "region-rank"
    v = g.P("v", [1, 16, 2, 2])
    y = g.N(ops1.region_yolo(v, 4, 3, 2, True, [], 1, 3), "region")
    g.INVALID.append(("invalid_region_yolo_rank", "region", "v: [1,16,2,2] -> [1,16,2] (rank 3)", g.ov.Model([ops1.result(y)], [v]), g._param_edit("v", [1, 16, 2])))


def region():
    # 2 regions of 4 coords + 1 score + 3 classes.
    v2 = g.P("v2", [-1, 16, -1, -1])
    # 3 masked regions of 4 coords + 1 score + 3 classes (of 6 anchors).
    v3 = g.P("v3", [-1, 24, -1, -1])
    anchors = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0]
    outs = [
        g.N(ops1.region_yolo(v2, 4, 3, 2, True, [], 1, 3, anchors[:4]), "v2_flat_1_3"),
        g.N(ops1.region_yolo(v2, 4, 3, 2, True, [], 2, 3, anchors[:4]), "v2_flat_2_3"),
        g.N(ops1.region_yolo(v3, 4, 3, 6, False, [0, 1, 2], 1, 3, anchors), "v3_mask"),
    ]
    g.case(
        "region_yolo",
        "RegionYolo-1: YOLOv2 softmax mode flattening axes 1..3 and 2..3, YOLOv3 mode with a mask of 3 of 6 anchors",
        [v2, v3],
        outs,
        [{"v2": [2, 16, 3, 2], "v3": [2, 24, 2, 3]}, {"v2": [1, 16, 1, 1], "v3": [1, 24, 4, 4]}],
    )


def spatial(param, name):
    """`[H, W]` of an NCHW Parameter, read with ShapeOf and StridedSlice."""
    C = g.C
    return g.N(
        ops1.strided_slice(
            ops3.shape_of(param),
            C([2], name + "_begin"),
            C([4], name + "_end"),
            C([1], name + "_stride"),
            [0],
            [0],
        ),
        name,
    )


def prior_inputs():
    feat = g.P("feat", [1, 8, -1, -1])
    img = g.P("img", [1, 3, D(8, -1), D(8, -1)])
    return feat, img, [{"feat": [1, 8, 3, 4], "img": [1, 3, 32, 40]}, {"feat": [1, 8, 2, 2], "img": [1, 3, 16, 8]}]


def clustered():
    feat, img, bindings = prior_inputs()
    fs, im = spatial(feat, "feat_hw"), spatial(img, "img_hw")
    base = {"width": [1.0, 2.5, 3.0], "height": [2.0, 1.0, 3.5], "offset": 0.5}
    outs = [
        g.N(ops1.prior_box_clustered(fs, im, dict(base, variance=[0.1])), "default_clip"),
        g.N(ops1.prior_box_clustered(fs, im, dict(base, clip=False, step_widths=4.0, step_heights=6.0, variance=[0.1, 0.1, 0.2, 0.2])), "steps_no_clip"),
        g.N(ops1.prior_box_clustered(fs, im, dict(base, clip=False, step=5.0)), "step_default_variance"),
    ]
    g.case(
        "prior_box_clustered",
        "PriorBoxClustered-1: sizes read with ShapeOf/StridedSlice (count 12*H*W), clip by default, step_w/step_h, a common step, one, four and default variances",
        [feat, img],
        outs,
        bindings,
    )


def prior():
    feat, img, bindings = prior_inputs()
    fs, im = spatial(feat, "feat_hw"), spatial(img, "img_hw")
    var4 = [0.1, 0.1, 0.2, 0.2]
    outs = [
        # ratios {1, 2, 1/2}: 3 * 1 min size + 1 max size = 4 priors.
        g.N(ops1.prior_box(fs, im, {"offset": 0.5, "min_size": [2.0], "max_size": [5.0], "aspect_ratio": [2.0], "flip": True, "variance": var4}), "v1_flip"),
        # Two min sizes, clip, step 8: 2 * 3 + 2 = 8 priors, max boxes last.
        g.N(ops8.prior_box(fs, im, {"offset": 0.5, "min_size": [2.0, 4.0], "max_size": [5.0, 9.0], "aspect_ratio": [2.0], "flip": True, "clip": True, "step": 8.0, "variance": [0.2], "min_max_aspect_ratios_order": False}), "v8_max_last"),
        g.N(ops8.prior_box(fs, im, {"offset": 0.5, "min_size": [2.0, 4.0], "max_size": [5.0, 9.0], "aspect_ratio": [2.0, 3.0], "flip": False, "step": 8.0, "variance": var4}), "v8_max_first"),
        # Fixed size 4 of density 2, ratios {1, 2}: 2 + 2 * 3 = 8 priors.
        g.N(ops1.prior_box(fs, im, {"offset": 0.5, "fixed_size": [4.0], "density": [2.0], "aspect_ratio": [2.0], "clip": True, "variance": var4}), "v1_fixed_density"),
        # Fixed ratios: 1 ratio + 2 * (2*2 - 1) = 7 priors.
        g.N(ops8.prior_box(fs, im, {"offset": 0.5, "fixed_size": [6.0], "density": [2.0], "fixed_ratio": [1.0, 2.0], "variance": var4}), "v8_fixed_ratio"),
        # MXNet-like: sizes relative to the image height; 2 + 1 - 1 = 2 priors.
        g.N(ops8.prior_box(fs, im, {"offset": 0.5, "min_size": [0.25], "aspect_ratio": [3.0], "scale_all_sizes": False, "variance": var4}), "v8_mxnet"),
    ]
    g.case(
        "prior_box",
        "PriorBox-1/-8: sizes read with ShapeOf/StridedSlice (counts 16*H*W, 32*H*W, 28*H*W, 8*H*W), flip, clip, step, max boxes first and last, fixed sizes with densities and ratios, the MXNet-like mode",
        [feat, img],
        outs,
        bindings,
    )


def build():
    reorg()
    invalid()
    region()
    clustered()
    prior()
