"""Detection NMS ops (issue 17): MatrixNms-8 (linear and Gaussian decay,
gaussian_sigma, post_threshold, every sort_result_type with and without
sort_result_across_batch, nms_top_k, keep_top_k, background_class,
normalized, i32/i64), MulticlassNms-8/-9 (iou_threshold, score_threshold,
nms_eta below 1 (adaptive threshold), the same limits and sorts, v9 with the
roisnum input of per-class boxes) and NMSRotated-13 (clockwise or not,
sort_result_descending, i32/i64, scalar and [1] thresholds).

Random inputs are uniform in [-3, 3]: most nodes take well-formed boxes
built from them (`x1, y1` and `x1 + |w|, y1 + |h|`), one MatrixNms and one
MulticlassNms the raw corners (inverted boxes included); NMSRotated takes
their absolute values (positive sizes, angles in [0, 3] radians)."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset8 as ops8
import openvino.opset9 as ops9
import openvino.opset13 as ops13

import gen_op_goldens as g

D = g.D
F32 = np.float32


def outs_of(node, name, names=("outputs", "indices", "valid")):
    node.set_friendly_name(name)
    return [(node.output(i), f"{name}_{names[i]}") for i in range(node.get_output_size())]


def proper_boxes(raw, tag, axis=-1):
    """`x1, y1, x1 + |w|, y1 + |h|` from four random numbers per box."""
    corner, size = ops1.split(raw, g.C(axis, f"{tag}_axis"), 2).outputs()
    far = ops1.add(corner, ops1.absolute(size))
    return g.N(ops1.concat([corner, far], axis), f"{tag}_boxes")


MATRIX = dict(
    sort_result_type="none",
    sort_result_across_batch=False,
    output_type="i64",
    score_threshold=0.0,
    nms_top_k=-1,
    keep_top_k=-1,
    background_class=-1,
    decay_function="linear",
    gaussian_sigma=2.0,
    post_threshold=0.0,
    normalized=True,
)

MULTICLASS = dict(
    sort_result_type="none",
    sort_result_across_batch=False,
    output_type="i64",
    iou_threshold=0.5,
    score_threshold=0.0,
    nms_top_k=-1,
    keep_top_k=-1,
    background_class=-1,
    nms_eta=1.0,
    normalized=True,
)


def matrix():
    raw = g.P("boxes", [-1, -1, 4])
    scores = g.P("scores", [-1, 3, -1])
    boxes = proper_boxes(raw, "m")
    variants = [
        ("linear_score", dict(sort_result_type="score")),
        ("linear_raw_corners", dict(sort_result_type="score", score_threshold=-1.0)),
        ("gaussian_classid", dict(decay_function="gaussian", gaussian_sigma=0.5, sort_result_type="classid", post_threshold=0.5)),
        ("gaussian_across_score", dict(decay_function="gaussian", gaussian_sigma=3.0, sort_result_type="score", sort_result_across_batch=True, output_type="i32")),
        ("across_classid_topk", dict(sort_result_type="classid", sort_result_across_batch=True, nms_top_k=3, keep_top_k=5)),
        ("across_none_background", dict(sort_result_across_batch=True, background_class=1, post_threshold=0.2)),
        ("keep_top_k_unnormalized", dict(keep_top_k=4, normalized=False, score_threshold=-0.5, sort_result_type="score")),
        ("background_last_topk", dict(background_class=2, nms_top_k=2, decay_function="gaussian", gaussian_sigma=1.0)),
    ]
    outs = []
    for name, attrs in variants:
        b = raw if name == "linear_raw_corners" else boxes
        outs += outs_of(ops8.matrix_nms(b, scores, **dict(MATRIX, **attrs)), name)
    g.case(
        "nms2_matrix",
        "MatrixNms-8: linear and Gaussian decay (sigma 0.5, 1, 2, 3), post_threshold, score_threshold, every sort_result_type with and without sort_result_across_batch, nms_top_k, keep_top_k, background_class 1 and 2, normalized false, i32/i64; well-formed boxes and raw (inverted) corners; K a fresh symbol bounded by B*min(min(N, nms_top_k)*C, keep_top_k)",
        [raw, scores],
        outs,
        [{"boxes": [2, 6, 4], "scores": [2, 3, 6]}, {"boxes": [1, 9, 4], "scores": [1, 3, 9]}, {"boxes": [3, 1, 4], "scores": [3, 3, 1]}],
    )
    g.EXPECTED_RULES["invalid_nms2_matrix_last_dim"] = "nms-input"
    b = g.P("b", [1, 5, 4])
    s = g.P("s", [1, 2, 5])
    n = g.N(ops8.matrix_nms(b, s, **MATRIX), "matrix_nms")
    g.INVALID.append(
        ("invalid_nms2_matrix_last_dim", "matrix_nms", "b: [1,5,4] -> [1,5,5] (boxes of 5 numbers)", g.ov.Model([ops1.result(n.output(0))], [b, s]), g._param_edit("b", [1, 5, 5]))
    )


def multiclass():
    raw = g.P("boxes", [-1, -1, 4])
    scores = g.P("scores", [-1, 3, -1])
    boxes = proper_boxes(raw, "mc")
    variants = [
        (ops8, "v8_none", dict()),
        (ops8, "v8_raw_corners", dict(iou_threshold=0.3, score_threshold=-1.0, sort_result_type="score")),
        (ops8, "v8_eta_score", dict(nms_eta=0.6, iou_threshold=0.8, sort_result_type="score", output_type="i32")),
        (ops8, "v8_classid_keep", dict(sort_result_type="classid", keep_top_k=4, iou_threshold=0.2)),
        (ops9, "v9_across_score_topk", dict(sort_result_type="score", sort_result_across_batch=True, nms_top_k=3, score_threshold=-0.5)),
        (ops9, "v9_across_classid_background", dict(sort_result_type="classid", sort_result_across_batch=True, background_class=0)),
        (ops9, "v9_eta_unnormalized", dict(nms_eta=0.9, iou_threshold=0.7, normalized=False, background_class=2, keep_top_k=5)),
        (ops9, "v9_eta_zero_threshold", dict(nms_eta=0.5, iou_threshold=0.4, score_threshold=-3.0, sort_result_type="classid")),
    ]
    outs = []
    for ops, name, attrs in variants:
        b = raw if name == "v8_raw_corners" else boxes
        outs += outs_of(ops.multiclass_nms(b, scores, **dict(MULTICLASS, **attrs)), name)
    g.case(
        "nms2_multiclass",
        "MulticlassNms-8/-9 on shared boxes: iou_threshold, score_threshold, nms_eta 0.5/0.6/0.9 (adaptive threshold) and 1, every sort_result_type with and without sort_result_across_batch, nms_top_k, keep_top_k, background_class 0 and 2, normalized false, i32/i64; well-formed boxes and raw corners",
        [raw, scores],
        outs,
        [{"boxes": [2, 6, 4], "scores": [2, 3, 6]}, {"boxes": [1, 9, 4], "scores": [1, 3, 9]}, {"boxes": [3, 1, 4], "scores": [3, 3, 1]}],
    )

    # Per-class boxes [C, M, 4], scores [C, M] and roisnum [B]: random
    # roisnum values are in [0, 4), so M >= 3 * B in every binding.
    raw = g.P("boxes", [2, -1, 4])
    scores = g.P("scores", [2, -1])
    rois = g.P("roisnum", [-1], np.int32)
    boxes = proper_boxes(raw, "r")
    variants = [
        ("v9_rois_none", dict()),
        ("v9_rois_score_across", dict(sort_result_type="score", sort_result_across_batch=True, iou_threshold=0.3, output_type="i32")),
        ("v9_rois_classid_keep_eta", dict(sort_result_type="classid", keep_top_k=3, nms_eta=0.7, iou_threshold=0.9, score_threshold=-2.0)),
        ("v9_rois_background_topk", dict(background_class=1, nms_top_k=2, score_threshold=-1.0, sort_result_type="score")),
    ]
    outs = []
    for name, attrs in variants:
        outs += outs_of(ops9.multiclass_nms(boxes, scores, rois, **dict(MULTICLASS, **attrs)), name)
    g.case(
        "nms2_multiclass_roisnum",
        "MulticlassNms-9 with roisnum: boxes [C, M, 4] and scores [C, M] split among B images (an image may have no box); sorts, keep_top_k, nms_eta, background_class, nms_top_k; K bounded by B*min(min(M, nms_top_k)*C, keep_top_k)",
        [raw, scores, rois],
        outs,
        [{"boxes": [2, 7, 4], "scores": [2, 7], "roisnum": [2]}, {"boxes": [2, 9, 4], "scores": [2, 9], "roisnum": [3]}, {"boxes": [2, 3, 4], "scores": [2, 3], "roisnum": [1]}],
    )
    g.EXPECTED_RULES["invalid_nms2_multiclass_roisnum_rank"] = "nms-input"
    b = g.P("b", [2, 5, 4])
    s = g.P("s", [2, 5])
    r = g.P("r", [2], np.int32)
    n = g.N(ops9.multiclass_nms(b, s, r, **MULTICLASS), "multiclass_nms")
    g.INVALID.append(
        ("invalid_nms2_multiclass_roisnum_rank", "multiclass_nms", "r: [2] -> [2,1] (roisnum of rank 2)", g.ov.Model([ops1.result(n.output(0))], [b, s, r]), g._param_edit("r", [2, 1]))
    )


ROTATED_OUTPUTS = ("indices", "scores", "valid")


def rotated():
    raw = g.P("boxes", [-1, -1, 5])
    scores = g.P("scores", [-1, 2, -1])
    boxes = g.N(ops1.absolute(raw), "rotated_boxes")
    C = g.C
    outs = []
    outs += outs_of(ops13.nms_rotated(boxes, scores, C(3, "m3"), C(0.3, "iou03", F32), C(0.0, "st0", F32)), "clockwise_sorted", ROTATED_OUTPUTS)
    outs += outs_of(
        ops13.nms_rotated(boxes, scores, C([2], "m2"), C([0.1], "iou01", F32), C([-1.0], "stm1", F32), False, "i32", False), "counter_unsorted_i32", ROTATED_OUTPUTS
    )
    outs += outs_of(ops13.nms_rotated(boxes, scores, C(10, "m10"), C(0.5, "iou05", F32), C(-2.0, "stm2", F32), True, "i64", False), "counter_all", ROTATED_OUTPUTS)
    outs += outs_of(ops13.nms_rotated(raw, scores, C(4, "m4"), C(0.2, "iou02", F32), C(-3.0, "stm3", F32), False, "i64", True), "raw_boxes", ROTATED_OUTPUTS)
    g.case(
        "nms2_rotated",
        "NMSRotated-13: clockwise and counterclockwise angles, sort_result_descending or not, i32/i64, scalar and [1] inputs, max 2/3/4/10; positive sizes (absolute values) and raw (signed) ones; K bounded by min(N, max)*B*C",
        [raw, scores],
        outs,
        [{"boxes": [2, 6, 5], "scores": [2, 2, 6]}, {"boxes": [1, 10, 5], "scores": [1, 2, 10]}, {"boxes": [3, 1, 5], "scores": [3, 2, 1]}],
    )
    g.EXPECTED_RULES["invalid_nms2_rotated_last_dim"] = "nms-input"
    b = g.P("b", [1, 5, 5])
    s = g.P("s", [1, 2, 5])
    n = g.N(ops13.nms_rotated(b, s, C(2, "mx"), C(0.5, "iou", F32), C(0.0, "st", F32)), "nms_rotated")
    g.INVALID.append(
        ("invalid_nms2_rotated_last_dim", "nms_rotated", "b: [1,5,5] -> [1,5,4] (boxes of 4 numbers)", g.ov.Model([ops1.result(n.output(0))], [b, s]), g._param_edit("b", [1, 5, 4]))
    )


def ties():
    """Floored scores tie often: the orders' tie-breaks (class, box, batch)
    decide the rows."""
    raw = g.P("boxes", [-1, -1, 4])
    raw5 = g.P("boxes5", [-1, -1, 5])
    scores = g.P("scores", [-1, 2, -1])
    boxes = proper_boxes(raw, "t")
    tied = g.N(ops1.floor(scores), "scores_floored")
    C = g.C
    outs = []
    outs += outs_of(ops8.multiclass_nms(boxes, tied, **dict(MULTICLASS, sort_result_type="score", score_threshold=-4.0)), "multiclass_per_batch")
    outs += outs_of(
        ops9.multiclass_nms(boxes, tied, **dict(MULTICLASS, sort_result_type="score", sort_result_across_batch=True, score_threshold=-4.0, keep_top_k=5)),
        "multiclass_across_score",
    )
    outs += outs_of(
        ops9.multiclass_nms(boxes, tied, **dict(MULTICLASS, sort_result_type="classid", score_threshold=-4.0, nms_eta=0.5, iou_threshold=0.9)),
        "multiclass_classid_eta",
    )
    outs += outs_of(
        ops13.nms_rotated(ops1.absolute(raw5), tied, C(4, "m4"), C(0.4, "iou04", F32), C(-4.0, "stm4", F32)), "rotated_sorted", ROTATED_OUTPUTS
    )
    g.case(
        "nms2_ties",
        "MulticlassNms-8/-9 and NMSRotated-13 on floored (tied) scores: per-batch, across-batch and class orders break ties by class, box and batch",
        [raw, raw5, scores],
        outs,
        [{"boxes": [2, 9, 4], "boxes5": [2, 9, 5], "scores": [2, 2, 9]}, {"boxes": [1, 4, 4], "boxes5": [1, 4, 5], "scores": [1, 2, 4]}],
    )


def build():
    matrix()
    multiclass()
    rotated()
    ties()
