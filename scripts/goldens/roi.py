"""ROI ops (issue 17): ROIPooling-2 (max and bilinear), ROIAlign-3 and -9
(avg and max, the three aligned modes, sampling_ratio 0 and fixed),
ROIAlignRotated-15 (both rotation directions), PSROIPooling-1 (average and
bilinear), DeformablePSROIPooling-1 (with and without offsets), and the
opset6 ExperimentalDetectron ROIFeatureExtractor, TopKROIs and
PriorGridGenerator. The ROI count is a Parameter dim, so the outputs keep it
as a symbol.

The executor goldens feed Parameters with seeded values in [-3, 3], so the
boxes are made from them in the graph (absolute values, x2 = x1 + width,
batch ids floored into [0, N)), which keeps every box valid whatever the
draw; integer batch indices are drawn in [0, 4), so those data have N = 4."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset2 as ops2
import openvino.opset3 as ops3
import openvino.opset8 as ops8
import openvino.opset9 as ops9
import openvino.opset15 as ops15
from openvino.utils.node_factory import NodeFactory

import gen_op_goldens as g

D = g.D
F32 = np.float32


def cols(x, begin, end, name):
    return g.N(ops8.slice(x, g.C([begin], name + "_b"), g.C([end], name + "_e"), g.C([1], name + "_s"), g.C([1], name + "_a")), name)


def corners(p, scale, name):
    """`[R, 4]` boxes `[x1, y1, x1 + w, y1 + h]` from four raw columns."""
    m = scale * np.array([[1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=F32)
    return g.N(ops1.matmul(g.N(ops1.absolute(p), name + "_abs"), g.C(m, name + "_m", F32), False, False), name)


def boxes5(p, batches, scale, name):
    """`[R, 5]` boxes `[batch, x1, y1, x2, y2]` from a `[R, 5]` Parameter."""
    batch = g.N(ops1.floor(ops1.multiply(ops1.absolute(cols(p, 0, 1, name + "_c0")), g.C(batches / 3.0001, name + "_k", F32))), name + "_batch")
    return g.N(ops1.concat([batch, corners(cols(p, 1, 5, name + "_c1"), scale, name + "_xy")], 1), name)


def roi_pooling():
    feat = g.P("feat", [D(1, 4), 3, -1, -1])
    p = g.P("p", [-1, 5])
    px = boxes5(p, 2, 2.0, "rois_px")
    unit = boxes5(p, 2, 1.0 / 6.0, "rois_unit")
    outs = [
        g.N(ops2.roi_pooling(feat, px, [2, 3], 0.5, "max"), "max_2x3"),
        g.N(ops2.roi_pooling(feat, px, [1, 1], 1.0, "max"), "max_1x1"),
        g.N(ops2.roi_pooling(feat, unit, [3, 2], 1.0, "bilinear"), "bilinear_3x2"),
    ]
    g.case(
        "roi_pooling",
        "ROIPooling-2: max pooling at two scales and sizes, bilinear on normalized boxes; R symbolic",
        [feat, p],
        outs,
        [{"feat": [2, 3, 6, 7], "p": [4, 5]}, {"feat": [1, 3, 4, 4], "p": [2, 5]}],
    )


def roi_align():
    data = g.P("data", [4, 2, -1, -1])
    p = g.P("p", [-1, 4])
    idx = g.P("idx", [-1], np.int32)
    b = corners(p, 2.0, "boxes")
    outs = [
        g.N(ops3.roi_align(data, b, idx, 2, 3, 2, 0.5, "avg"), "v3_avg"),
        g.N(ops3.roi_align(data, b, idx, 3, 2, 0, 0.5, "max"), "v3_max_adaptive"),
        g.N(ops9.roi_align(data, b, idx, 2, 2, 1, 0.5, "avg", "asymmetric"), "v9_avg_asymmetric"),
        g.N(ops9.roi_align(data, b, idx, 2, 3, 0, 0.5, "avg", "half_pixel_for_nn"), "v9_avg_half_pixel_for_nn"),
        g.N(ops9.roi_align(data, b, idx, 3, 3, 2, 0.25, "max", "half_pixel"), "v9_max_half_pixel"),
        g.N(ops9.roi_align(data, b, idx, 2, 2, 0, 1.0, "avg", "half_pixel"), "v9_avg_half_pixel_adaptive"),
    ]
    g.case(
        "roi_align",
        "ROIAlign-3/-9: avg and max, sampling ratios 0 (adaptive), 1 and 2, aligned modes asymmetric, half_pixel_for_nn, half_pixel; R symbolic and merged with the batch indices",
        [data, p, idx],
        outs,
        [{"data": [4, 2, 6, 5], "p": [3, 4], "idx": [3]}, {"data": [4, 2, 3, 3], "p": [1, 4], "idx": [1]}],
    )


def roi_align_rotated():
    data = g.P("data", [4, 2, -1, -1])
    p = g.P("p", [-1, 5])
    idx = g.P("idx", [-1], np.int32)
    centre = g.N(ops1.multiply(ops1.absolute(cols(p, 0, 4, "geom")), g.C(1.5, "geom_k", F32)), "geom_abs")
    rois = g.N(ops1.concat([centre, cols(p, 4, 5, "angle")], 1), "rot_rois")
    outs = [
        g.N(ops15.roi_align_rotated(data, rois, idx, 2, 3, 2, 1.0, False), "ccw"),
        g.N(ops15.roi_align_rotated(data, rois, idx, 3, 2, 0, 0.5, True), "cw_adaptive"),
    ]
    g.case(
        "roi_align_rotated",
        "ROIAlignRotated-15: counter-clockwise and clockwise, sampling ratio 2 and adaptive; R symbolic and merged with the batch indices",
        [data, p, idx],
        outs,
        [{"data": [4, 2, 6, 5], "p": [3, 5], "idx": [3]}, {"data": [4, 2, 4, 4], "p": [1, 5], "idx": [1]}],
    )


def psroi_pooling():
    avg = g.P("feat_avg", [D(1, 2), 8, -1, -1])
    bil = g.P("feat_bil", [D(1, 2), 12, -1, -1])
    p = g.P("p", [-1, 5])
    px = boxes5(p, 2, 2.0, "rois_px")
    # Bilinear mode reads boxes normalized to [0, 1].
    unit = boxes5(p, 2, 1.0 / 6.0, "rois_unit")
    outs = [
        g.N(ops1.psroi_pooling(avg, px, 2, 2, 0.5, 1, 1, "average"), "average_g2"),
        g.N(ops1.psroi_pooling(bil, unit, 3, 1, 1.0, 2, 2, "bilinear"), "bilinear_bins2x2"),
        g.N(ops1.psroi_pooling(bil, unit, 2, 2, 1.0, 3, 2, "bilinear"), "bilinear_g2_bins3x2"),
    ]
    g.case(
        "psroi_pooling",
        "PSROIPooling-1: average with group 2, bilinear with 2x2 and 3x2 spatial bins; R symbolic",
        [avg, bil, p],
        outs,
        [{"feat_avg": [2, 8, 6, 7], "feat_bil": [2, 12, 6, 7], "p": [3, 5]}, {"feat_avg": [1, 8, 4, 4], "feat_bil": [1, 12, 4, 4], "p": [1, 5]}],
    )


def deformable_psroi_pooling():
    data = g.P("data", [D(1, 2), 8, -1, -1])
    p = g.P("p", [-1, 5])
    off = g.P("offsets", [-1, 4, 2, 2])
    px = boxes5(p, 2, 2.0, "rois_px")
    outs = [
        g.N(ops1.deformable_psroi_pooling(data, px, 2, 0.5, 2, "bilinear_deformable", 1, 1, 1.0, 1), "no_offsets"),
        g.N(ops1.deformable_psroi_pooling(data, px, 2, 0.5, 2, "bilinear_deformable", 2, 2, 0.1, 2, offsets=off), "offsets_part2"),
        g.N(ops1.deformable_psroi_pooling(data, px, 8, 0.25, 1, "bilinear", 2, 1, 0.5, 1, offsets=off), "offsets_bilinear"),
    ]
    g.case(
        "deformable_psroi_pooling",
        "DeformablePSROIPooling-1: without offsets, with offsets (trans_std 0.1, part_size 2, bins 2x2), bilinear mode; R symbolic",
        [data, p, off],
        outs,
        [{"data": [2, 8, 6, 7], "p": [3, 5], "offsets": [3, 4, 2, 2]}, {"data": [1, 8, 4, 4], "p": [1, 5], "offsets": [1, 4, 2, 2]}],
    )


def detectron():
    nf = NodeFactory("opset6")
    p = g.P("p", [-1, 4])
    l0 = g.P("level0", [1, 3, -1, -1])
    l1 = g.P("level1", [1, 3, -1, -1])
    rois = corners(p, 100.0, "boxes")
    fe = lambda size, ratio, aligned: nf.create(
        "ExperimentalDetectronROIFeatureExtractor",
        [rois.output(0), l0.output(0), l1.output(0)],
        {"output_size": size, "sampling_ratio": ratio, "pyramid_scales": [16, 32], "aligned": aligned},
    )
    a = g.N(fe(2, 2, False), "extract_small")
    b = g.N(fe(3, 0, True), "extract_aligned")
    g.case(
        "ed_roi_feature_extractor",
        "ExperimentalDetectronROIFeatureExtractor-6: two pyramid levels, sampling ratio 2 and adaptive, aligned off and on; R symbolic",
        [p, l0, l1],
        [(a.output(0), "features_small"), (a.output(1), "rois_small"), (b.output(0), "features_aligned"), (b.output(1), "rois_aligned")],
        [{"p": [5, 4], "level0": [1, 3, 16, 20], "level1": [1, 3, 8, 10]}, {"p": [2, 4], "level0": [1, 3, 6, 6], "level1": [1, 3, 3, 3]}],
    )

    q = g.P("q", [-1, 4])
    probs = g.P("probs", [-1])
    topk = lambda k: nf.create("ExperimentalDetectronTopKROIs", [q.output(0), probs.output(0)], {"max_rois": k})
    g.case(
        "ed_topk_rois",
        "ExperimentalDetectronTopKROIs-6: max_rois 3 of R, and 1",
        [q, probs],
        [(g.N(topk(3), "topk_three"), "top_three"), (g.N(topk(1), "topk_one"), "top_one")],
        [{"q": [6, 4], "probs": [6]}, {"q": [3, 4], "probs": [3]}],
    )

    priors = g.P("priors", [-1, 4])
    fm = g.P("feature", [1, 4, -1, -1])
    im = g.P("image", [1, 3, -1, -1])
    grid = lambda attrs: nf.create("ExperimentalDetectronPriorGridGenerator", [priors.output(0), fm.output(0), im.output(0)], attrs)
    outs = [
        (g.N(grid({"flatten": True, "h": 0, "w": 0, "stride_x": 0.0, "stride_y": 0.0}), "grid_flat_image"), "flat_image_strides"),
        (g.N(grid({"flatten": False, "h": 0, "w": 0, "stride_x": 8.0, "stride_y": 4.0}), "grid_given_strides"), "grid_strides"),
        (g.N(grid({"flatten": True, "h": 3, "w": 4, "stride_x": 4.0, "stride_y": 4.0}), "grid_flat_hw"), "flat_hw"),
    ]
    g.case(
        "ed_prior_grid_generator",
        "ExperimentalDetectronPriorGridGenerator-6: flatten with strides from the image, unflattened with given strides, a given h and w (those of the first binding: OpenVINO leaves rows past h*w*P unwritten); H*W*P an expression",
        [priors, fm, im],
        outs,
        [{"priors": [3, 4], "feature": [1, 4, 3, 4], "image": [1, 3, 24, 32]}, {"priors": [2, 4], "feature": [1, 4, 2, 2], "image": [1, 3, 16, 16]}],
    )


def invalid():
    g.EXPECTED_RULES["invalid_roi_align_batch_indices"] = "roi-batch-indices"
    data = g.P("data", [1, 2, 4, 4])
    b = g.P("b", [3, 4])
    idx = g.P("idx", [3], np.int32)
    r = g.N(ops9.roi_align(data, b, idx, 2, 2, 1, 1.0, "avg", "asymmetric"), "align")
    g.INVALID.append(("invalid_roi_align_batch_indices", "align", "idx: [3] -> [2] (not one per box)", g.ov.Model([ops1.result(r)], [data, b, idx]), g._param_edit("idx", [2])))
    g.EXPECTED_RULES["invalid_roi_pooling_box_size"] = "roi-box-size"
    feat = g.P("feat", [1, 2, 4, 4])
    rois = g.P("rois", [3, 5])
    y = g.N(ops2.roi_pooling(feat, rois, [2, 2], 1.0, "max"), "pool")
    g.INVALID.append(("invalid_roi_pooling_box_size", "pool", "rois: [3,5] -> [3,4] (no batch id)", g.ov.Model([ops1.result(y)], [feat, rois]), g._param_edit("rois", [3, 4])))


def build():
    roi_pooling()
    roi_align()
    roi_align_rotated()
    psroi_pooling()
    deformable_psroi_pooling()
    detectron()
    invalid()
