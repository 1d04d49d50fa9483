"""Detection ops (issue 17): NonMaxSuppression-1/-3/-4/-5/-9 with corner and
center boxes, sorted across batches or not, i32/i64 outputs, hard and soft
(Gaussian) suppression, a max known only at run time, no max at all (nothing
selected), tied scores (floored) and boxes that overlap (random corners in
[-3, 3]); the padded versions on a batch of one where every slot is filled
(so OpenVINO's CPU plugin, which does not pad, gives the same rows)."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset3 as ops3
import openvino.opset4 as ops4
import openvino.opset5 as ops5
import openvino.opset9 as ops9

import gen_op_goldens as g

D = g.D
F32 = np.float32


def outs_of(node, name):
    node.set_friendly_name(name)
    names = ["indices", "scores", "valid"]
    return [(node.output(i), f"{name}_{names[i]}") for i in range(node.get_output_size())]


def nms():
    boxes = g.P("boxes", [-1, -1, 4])
    scores = g.P("scores", [-1, 3, -1])
    max_boxes = g.P("max_boxes", [], np.int64)
    C = g.C
    ties = g.N(ops1.floor(scores), "scores_floored")
    outs = []
    outs += outs_of(ops1.non_max_suppression(boxes, scores, C(2, "m2"), C(0.3, "iou03", F32), C(0.0, "st0", F32)), "v1")
    outs += outs_of(
        ops3.non_max_suppression(boxes, scores, C(3, "m3", np.int32), C(0.5, "iou05", F32), C(-1.0, "stm1", F32), "center", False, "i32"),
        "v3_center",
    )
    outs += outs_of(ops4.non_max_suppression(boxes, scores, C(2, "m2b"), C(0.2, "iou02", F32), C(-2.0, "stm2", F32)), "v4")
    outs += outs_of(ops5.non_max_suppression(boxes, scores, C(3, "m3b"), C(0.4, "iou04", F32), C(-1.0, "stm1b", F32)), "v5_hard")
    outs += outs_of(
        ops5.non_max_suppression(boxes, scores, C([4], "m4v"), C([0.5], "iou05v", F32), C([-2.5], "stm25", F32), C([0.5], "sigma05", F32), "corner", True, "i32"),
        "v5_soft",
    )
    outs += outs_of(
        ops9.non_max_suppression(boxes, scores, C(5, "m5"), C(0.45, "iou045", F32), C(-2.0, "stm2b", F32), C(0.7, "sigma07", F32), "center", False),
        "v9_soft_center",
    )
    outs += outs_of(ops9.non_max_suppression(boxes, ties, C(4, "m4"), C(0.0, "iou0", F32), C(-4.0, "stm4", F32)), "v9_ties_iou0")
    outs += outs_of(ops9.non_max_suppression(boxes, scores, max_boxes, C(0.5, "iou05b", F32)), "v9_run_time_max")
    outs += outs_of(ops5.non_max_suppression(boxes, scores), "v5_no_max")
    g.case(
        "detection_nms",
        "NonMaxSuppression-1/-3/-4/-5/-9: corner and center boxes, across-batch sort or not, i32/i64, hard and soft (v5 suppresses by IoU too, v9 only by score), scalar and [1] thresholds, tied (floored) scores with IoU threshold 0, a run-time max, no max; v1/v3 give min(N, max*C) padded rows, v4 min(N, max)*B*C, v5/v9 a data-dependent count",
        [boxes, scores, max_boxes],
        outs,
        [{"boxes": [2, 6, 4], "scores": [2, 3, 6]}, {"boxes": [1, 10, 4], "scores": [1, 3, 10]}, {"boxes": [3, 1, 4], "scores": [3, 3, 1]}],
    )

    # Batch of one, IoU threshold above every overlap of distinct random
    # boxes and a score threshold below every score: each class keeps `max`
    # boxes, so the padded outputs are full.
    boxes = g.P("boxes", [1, -1, 4])
    scores = g.P("scores", [1, 3, -1])
    outs = []
    outs += outs_of(ops1.non_max_suppression(boxes, scores, C(1, "m1"), C(1.0, "iou1", F32), C(-10.0, "stm10", F32), "corner", True), "v1_full")
    outs += outs_of(
        ops3.non_max_suppression(boxes, scores, C(1, "m1b"), C(1.0, "iou1b", F32), C(-10.0, "stm10b", F32), "center", False, "i32"), "v3_full"
    )
    outs += outs_of(ops4.non_max_suppression(boxes, scores, C(2, "m2"), C(1.0, "iou1c", F32), C(-10.0, "stm10c", F32)), "v4_full")
    g.case(
        "detection_nms_padded_full",
        "NonMaxSuppression-1/-3/-4 on one batch where every padded row is selected (max per class reached)",
        [boxes, scores],
        outs,
        [{"boxes": [1, 6, 4], "scores": [1, 3, 6]}, {"boxes": [1, 2, 4], "scores": [1, 3, 2]}],
    )

    g.EXPECTED_RULES["invalid_nms_box_count"] = "nms-input"
    b = g.P("b", [1, 5, 4])
    s = g.P("s", [1, 2, 5])
    n = g.N(ops9.non_max_suppression(b, s, C(2, "mx")), "nms")
    g.INVALID.append(
        ("invalid_nms_box_count", "nms", "s: [1,2,5] -> [1,2,6] (6 scores for 5 boxes)", g.ov.Model([ops1.result(n.output(0))], [b, s]), g._param_edit("s", [1, 2, 6]))
    )


def grid_sample():
    data = g.P("data", [-1, 2, D(1, 8), -1])
    grid = g.P("grid", [-1, -1, -1, 2])
    # Random grid values in [-3, 3] fall mostly outside the data; scaled by
    # 0.4 they fall mostly inside.
    inside = g.N(ops1.multiply(grid, g.C(0.4, "scale", F32)), "grid_inside")
    outs = []
    for mode in ("bilinear", "bicubic", "nearest"):
        for padding in ("zeros", "border", "reflection"):
            for align in (False, True):
                name = f"{mode}_{padding}_{'align' if align else 'noalign'}"
                attrs = {"align_corners": align, "mode": mode, "padding_mode": padding}
                outs.append(g.N(ops9.grid_sample(data, grid, attrs), name))
        attrs = {"align_corners": False, "mode": mode, "padding_mode": "zeros"}
        outs.append(g.N(ops9.grid_sample(data, inside, attrs), f"{mode}_inside"))
    g.case(
        "detection_grid_sample",
        "GridSample-9: every mode (bilinear, bicubic, nearest), padding (zeros, border, reflection) and align_corners, on grid points mostly outside the data and mostly inside; dynamic and interval dims",
        [data, grid],
        outs,
        [{"data": [2, 2, 5, 6], "grid": [2, 4, 3, 2]}, {"data": [1, 2, 1, 1], "grid": [1, 1, 5, 2]}, {"data": [3, 2, 8, 2], "grid": [3, 2, 2, 2]}],
    )
    g.EXPECTED_RULES["invalid_grid_sample_last_dim"] = "grid-sample-input"
    d = g.P("d", [1, 2, 3, 3])
    gr = g.P("gr", [1, 4, 4, 2])
    gs = g.N(ops9.grid_sample(d, gr, {"align_corners": False, "mode": "bilinear", "padding_mode": "zeros"}), "grid_sample")
    g.INVALID.append(
        ("invalid_grid_sample_last_dim", "grid_sample", "gr: [1,4,4,2] -> [1,4,4,3] (grid points of 3 coordinates)", g.ov.Model([ops1.result(gs)], [d, gr]), g._param_edit("gr", [1, 4, 4, 3]))
    )


def build():
    nms()
    grid_sample()
