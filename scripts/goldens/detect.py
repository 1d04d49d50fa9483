"""Detection heads (issue 17): DetectionOutput-1/-8 (Caffe and MXNet styles,
shared and per-class locations, corner and center-size codes, variances in
the priors or in the target, normalized and pixel priors, priors per image,
the auxiliary ARM inputs, every top_k/keep_top_k regime), Proposal-1/-4,
GenerateProposals-9 and the ExperimentalDetectron ops of opset6.

Random inputs are uniform in [-3, 3]; the graphs map them into the ranges
the ops expect (Sigmoid for scores and priors, a scale for box deltas) so
the outputs exercise the selection rather than clipping everything away.
"""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset4 as ops4
import openvino.opset8 as ops8
import openvino.opset9 as ops9

import gen_op_goldens as g

F32 = np.float32

# DetectionOutput's main case: 6 priors, 3 classes.
PRIORS = 6
CLASSES = 3


def sig(node, name):
    return g.N(ops1.sigmoid(node), name)


def corner_priors(param, rows, name):
    """Valid corner boxes `[x, y, x + w, y + h]` in (0, 1) from a Parameter
    of `rows` rows of PRIORS * 4 values (the second row, variances, in
    (0, 0.5))."""
    half = g.C(0.5, name + "_half", F32)
    scaled = ops1.multiply(ops1.sigmoid(param), half)
    shift = np.tile(np.array([0.0, 0.0, 0.5, 0.5], F32), PRIORS)
    offsets = np.stack([shift] + [np.zeros_like(shift)] * (rows - 1))[None]
    return g.N(ops1.add(scaled, g.C(offsets, name + "_offsets", F32)), name)


def pixel_priors(param, name):
    """Priors of 5 values `[id, x0, y0, x1, y1]` in pixels (an image of 3 x
    2), then their variances, from a Parameter `[1, 2, PRIORS * 5]`."""
    scale = np.tile(np.array([1.0, 1.5, 1.0, 1.5, 1.0], F32), PRIORS)
    shift = np.tile(np.array([0.0, 0.0, 0.0, 1.5, 1.0], F32), PRIORS)
    scale = np.stack([scale, np.full_like(scale, 0.5)])[None]
    shift = np.stack([shift, np.zeros_like(shift)])[None]
    scaled = ops1.multiply(ops1.sigmoid(param), g.C(scale, name + "_scale", F32))
    return g.N(ops1.add(scaled, g.C(shift, name + "_shift", F32)), name)


def detection_attrs(**extra):
    attrs = {
        "keep_top_k": [5],
        "nms_threshold": 0.45,
        "confidence_threshold": 0.3,
        "code_type": "caffe.PriorBoxParameter.CORNER",
        "normalized": True,
        "share_location": True,
    }
    attrs.update(extra)
    return attrs


def detection_output():
    loc = g.P("loc", [-1, PRIORS * 4])
    loc_class = g.P("loc_class", [-1, PRIORS * CLASSES * 4])
    conf = g.P("conf", [-1, PRIORS * CLASSES])
    priors = g.P("priors", [1, 2, PRIORS * 4])
    priors_target = g.P("priors_target", [1, 1, PRIORS * 4])
    priors_pixels = g.P("priors_pixels", [1, 2, PRIORS * 5])
    priors_image = g.P("priors_image", [-1, 2, PRIORS * 4])
    arm_conf = g.P("arm_conf", [-1, PRIORS * 2])
    arm_loc = g.P("arm_loc", [-1, PRIORS * 4])
    arm_loc_class = g.P("arm_loc_class", [-1, PRIORS * CLASSES * 4])
    params = [loc, loc_class, conf, priors, priors_target, priors_pixels, priors_image, arm_conf, arm_loc, arm_loc_class]

    fifth = g.C(0.2, "fifth", F32)
    loc_s = g.N(ops1.multiply(loc, fifth), "loc_small")
    loc_c = g.N(ops1.multiply(loc_class, fifth), "loc_class_small")
    arm_l = g.N(ops1.multiply(arm_loc, fifth), "arm_loc_small")
    arm_lc = g.N(ops1.multiply(arm_loc_class, fifth), "arm_loc_class_small")
    scores = sig(conf, "scores")
    arm_scores = sig(arm_conf, "arm_scores")
    pri = corner_priors(priors, 2, "priors_corner")
    pri_t = corner_priors(priors_target, 1, "priors_target_corner")
    pri_i = g.N(ops1.sigmoid(priors_image), "priors_image_sig")
    pri_p = pixel_priors(priors_pixels, "priors_px")
    center = "caffe.PriorBoxParameter.CENTER_SIZE"

    def v1(a, name, *inputs):
        return g.N(ops1.detection_output(*inputs[:3], dict(a, num_classes=CLASSES), *inputs[3:]), name)

    def v8(a, name, *inputs):
        return g.N(ops8.detection_output(*inputs[:3], a, *inputs[3:]), name)

    outs = [
        v1(detection_attrs(top_k=4), "v1_caffe", loc_s, scores, pri),
        v8(detection_attrs(code_type=center, clip_before_nms=True, clip_after_nms=True, keep_top_k=[-1], top_k=3, background_label_id=1), "v8_center_clip_top_k", loc_s, scores, pri),
        v8(detection_attrs(share_location=False, keep_top_k=[-1], top_k=-1, variance_encoded_in_target=True, nms_threshold=0.3), "v8_per_class_in_target", loc_c, scores, pri_t),
        v8(detection_attrs(code_type=center, decrease_label_id=True, keep_top_k=[4], top_k=5), "v8_mxnet", loc_s, scores, pri),
        v8(detection_attrs(normalized=False, input_height=2, input_width=3, keep_top_k=[8], confidence_threshold=0.5), "v8_pixels", loc_s, scores, pri_p),
        v1(detection_attrs(keep_top_k=[0], top_k=-1), "v1_keep_none_priors_per_image", loc_s, scores, pri_i),
        v1(detection_attrs(keep_top_k=[-1], top_k=2, nms_threshold=0.6), "v1_priors_per_image", loc_s, scores, pri_i),
        v8(detection_attrs(code_type=center, objectness_score=0.4, keep_top_k=[6]), "v8_arm", loc_s, scores, pri, arm_scores, arm_l),
        v8(detection_attrs(decrease_label_id=True, objectness_score=0.5, keep_top_k=[6], clip_after_nms=True), "v8_arm_mxnet", loc_s, scores, pri, arm_scores, arm_l),
        v1(detection_attrs(share_location=False, objectness_score=0.3, keep_top_k=[-1], top_k=2, background_label_id=2), "v1_arm_per_class", loc_c, scores, pri, arm_scores, arm_lc),
    ]
    g.case(
        "detect_detection_output",
        "DetectionOutput-1/-8: Caffe style and MXNet style (decrease_label_id), shared and per-class locations, CORNER and CENTER_SIZE, variances in the priors and in the target, normalized and pixel priors (input_height/width), priors per image, the auxiliary ARM inputs with objectness_score, clip before/after NMS, a background label other than 0, and every size regime: N*keep_top_k, N*top_k*C, N*P*C",
        params,
        outs,
        [{"loc": [2, 24], "loc_class": [2, 72], "conf": [2, 18], "priors": [1, 2, 24], "priors_target": [1, 1, 24], "priors_pixels": [1, 2, 30], "priors_image": [2, 2, 24], "arm_conf": [2, 12], "arm_loc": [2, 24], "arm_loc_class": [2, 72]},
         {"loc": [1, 24], "loc_class": [1, 72], "conf": [1, 18], "priors": [1, 2, 24], "priors_target": [1, 1, 24], "priors_pixels": [1, 2, 30], "priors_image": [1, 2, 24], "arm_conf": [1, 12], "arm_loc": [1, 24], "arm_loc_class": [1, 72]}],
    )

    # Symbolic prior counts: P = Q/4 (normalized) and Q/5 (pixels).
    loc = g.P("loc", [-1, -1])
    conf = g.P("conf", [-1, -1])
    priors = g.P("priors", [1, 2, -1])
    loc5 = g.P("loc5", [-1, -1])
    conf5 = g.P("conf5", [-1, -1])
    priors5 = g.P("priors5", [1, 2, -1])
    scores = sig(conf, "scores")
    scores5 = sig(conf5, "scores5")
    pri = sig(priors, "priors_sig")
    pri5 = sig(priors5, "priors5_sig")
    outs = [
        v1(detection_attrs(keep_top_k=[-1], top_k=-1), "v1_all", loc, scores, pri),
        v1(detection_attrs(keep_top_k=[-1], top_k=2, normalized=False), "v1_pixels_top_k", loc5, scores5, pri5),
        v8(detection_attrs(keep_top_k=[3]), "v8_keep", loc, scores, pri),
    ]
    g.case(
        "detect_detection_output_symbolic",
        "DetectionOutput-1/-8 with symbolic prior counts: P = Q/4 (normalized) or Q/5, rows N*P*C, N*top_k*C and N*keep_top_k as expressions",
        [loc, conf, priors, loc5, conf5, priors5],
        outs,
        [{"loc": [2, 16], "conf": [2, 12], "priors": [1, 2, 16], "loc5": [2, 12], "conf5": [2, 9], "priors5": [1, 2, 15]},
         {"loc": [1, 8], "conf": [1, 6], "priors": [1, 2, 8], "loc5": [3, 8], "conf5": [3, 6], "priors5": [1, 2, 10]}],
    )

    g.EXPECTED_RULES["invalid_detection_output_classes"] = "detection-input"
    l = g.P("l", [1, 24])
    c = g.P("c", [1, 18])
    p = g.P("p", [1, 2, 24])
    d = g.N(ops1.detection_output(l, c, p, dict(detection_attrs(), num_classes=3)), "detection")
    g.INVALID.append(
        ("invalid_detection_output_classes", "detection", "c: [1,18] -> [1,20] (20 scores for 6 priors of 3 classes)", g.ov.Model([ops1.result(d)], [l, c, p]), g._param_edit("c", [1, 20]))
    )


def proposal_attrs(**extra):
    attrs = {
        "base_size": np.uint32(8),
        "pre_nms_topn": np.uint32(20),
        "post_nms_topn": np.uint32(5),
        "nms_thresh": 0.7,
        "feat_stride": np.uint32(8),
        "min_size": np.uint32(2),
        "ratio": [0.5, 1.0, 2.0],
        "scale": [2.0, 4.0],
    }
    attrs.update(extra)
    return attrs


def proposal():
    # 6 anchors (3 ratios x 2 scales) per cell of an H x W feature map.
    probs = g.P("probs", [-1, 12, -1, -1])
    deltas = g.P("deltas", [-1, 24, -1, -1])
    scores = sig(probs, "scores")
    small = g.N(ops1.multiply(deltas, g.C(0.2, "fifth", F32)), "deltas_small")
    info3 = g.C([40.0, 48.0, 1.0], "image_info3", F32)
    info4 = g.C([40.0, 48.0, 0.5, 1.5], "image_info4", F32)
    u = np.uint32

    def outs(node, name):
        node.set_friendly_name(name)
        suffix = ["boxes", "scores"]
        return [(node.output(i), f"{name}_{suffix[i]}") for i in range(node.get_output_size())]

    o = []
    o += outs(ops1.proposal(scores, small, info3, proposal_attrs()), "v1_caffe")
    o += outs(ops4.proposal(scores, small, info4, proposal_attrs(framework="tensorflow", normalize=True, clip_after_nms=True, post_nms_topn=u(4), box_size_scale=2.0, box_coordinate_scale=3.0)), "v4_tensorflow")
    o += outs(ops4.proposal(scores, small, info4, proposal_attrs(clip_before_nms=False, min_size=u(4), pre_nms_topn=u(30), post_nms_topn=u(6), nms_thresh=0.5)), "v4_no_clip")
    o += outs(ops4.proposal(scores, small, info3, proposal_attrs(framework="tensorflow", clip_before_nms=False, clip_after_nms=True, base_size=u(6), post_nms_topn=u(3))), "v4_tensorflow_clip_after")
    g.case(
        "detect_proposal",
        "Proposal-1/-4: Caffe-like and tensorflow anchors, clip before and after NMS, normalize, box size and coordinate scales, 3- and 4-element image info (min_size scaled per axis), boxes [N*post_nms_topn, 5] and v4 scores [N*post_nms_topn]",
        [probs, deltas],
        o,
        [{"probs": [2, 12, 3, 4], "deltas": [2, 24, 3, 4]}, {"probs": [1, 12, 5, 6], "deltas": [1, 24, 5, 6]}],
    )

    g.EXPECTED_RULES["invalid_proposal_anchors"] = "proposal-input"
    p = g.P("p", [1, 12, 3, 4])
    d = g.P("d", [1, 24, 3, 4])
    n = g.N(ops4.proposal(p, d, g.C([40.0, 48.0, 1.0], "info", F32), proposal_attrs()), "proposal")
    g.INVALID.append(
        ("invalid_proposal_anchors", "proposal", "d: [1,24,3,4] -> [1,20,3,4] (deltas of 5 anchors for 6)", g.ov.Model([ops1.result(n.output(0))], [p, d]), g._param_edit("d", [1, 20, 3, 4]))
    )


def generate_proposals():
    # 3 anchors per cell of an H x W feature map, a batch of B images.
    info = g.P("im_info", [-1, 3])
    anchors = g.P("anchors", [-1, -1, 3, 4])
    deltas = g.P("deltas", [-1, 12, -1, -1])
    scores = g.P("scores", [-1, 3, -1, -1])
    # Image sizes in (10, 50) x (10, 58), scales in (0.2, 1.2).
    im = g.N(ops1.add(ops1.multiply(ops1.sigmoid(info), g.C([40.0, 48.0, 1.0], "info_scale", F32)), g.C([10.0, 10.0, 0.2], "info_shift", F32)), "image_info")
    # Corner anchors: x0, y0 in (0, 20), x1, y1 in (20, 40).
    anc = g.N(ops1.add(ops1.multiply(ops1.sigmoid(anchors), g.C(20.0, "anchor_scale", F32)), g.C([0.0, 0.0, 20.0, 20.0], "anchor_shift", F32)), "anchor_boxes")
    d = g.N(ops1.multiply(deltas, g.C(0.3, "delta_scale", F32)), "deltas_small")
    sc = sig(scores, "objectness")

    def outs(node, name):
        node.set_friendly_name(name)
        suffix = ["rois", "scores", "counts"]
        return [(node.output(i), f"{name}_{suffix[i]}") for i in range(3)]

    o = []
    o += outs(ops9.generate_proposals(im, anc, d, sc, 2.0, 0.5, 20, 6), "normalized")
    o += outs(ops9.generate_proposals(im, anc, d, sc, 3.0, 0.7, 50, 10, normalized=False, roi_num_type="i32"), "pixels_i32")
    o += outs(ops9.generate_proposals(im, anc, d, sc, 0.0, 0.3, 1000, 1000), "all")
    g.case(
        "detect_generate_proposals",
        "GenerateProposals-9: normalized and pixel boxes (+1 in sizes), min_size scaled by the image scale, pre/post_nms_count below and above the proposal count, i32/i64 counts; rois [k, 4] with k data-dependent, bounded by B*min(post, pre, A*H*W)",
        [info, anchors, deltas, scores],
        o,
        [{"im_info": [2, 3], "anchors": [3, 4, 3, 4], "deltas": [2, 12, 3, 4], "scores": [2, 3, 3, 4]},
         {"im_info": [1, 3], "anchors": [5, 2, 3, 4], "deltas": [1, 12, 5, 2], "scores": [1, 3, 5, 2]}],
    )

    g.EXPECTED_RULES["invalid_generate_proposals_width"] = "generate-proposals-input"
    i = g.P("i", [1, 3])
    a = g.P("a", [3, 4, 3, 4])
    dl = g.P("dl", [1, 12, 3, 4])
    s = g.P("s", [1, 3, 3, 4])
    n = g.N(ops9.generate_proposals(i, a, dl, s, 1.0, 0.5, 10, 5), "proposals")
    g.INVALID.append(
        ("invalid_generate_proposals_width", "proposals", "a: [3,4,3,4] -> [3,5,3,4] (anchors of width 5 for scores of width 4)", g.ov.Model([ops1.result(n.output(0))], [i, a, dl, s]), g._param_edit("a", [3, 5, 3, 4]))
    )


def opset6_node(type_name, attrs, inputs, precisions):
    """An opset6 layer OpenVINO's Python API cannot build (the
    ExperimentalDetectron ops): read from IR text fed by stub Parameters,
    then its inputs rewired to `inputs` (outputs of the case's graph)."""
    layers, edges = [], []
    n = len(inputs)

    def dims(src):
        return "".join("<dim>-1</dim>" for _ in range(len(src.get_partial_shape())))

    for i, src in enumerate(inputs):
        shape = ",".join(["?"] * len(src.get_partial_shape()))
        layers.append(f'<layer id="{i}" name="stub{i}" type="Parameter" version="opset1"><data shape="{shape}" element_type="f32"/><output><port id="0" precision="FP32">{dims(src)}</port></output></layer>')
        edges.append(f'<edge from-layer="{i}" from-port="0" to-layer="{n}" to-port="{i}"/>')
    data = " ".join(f'{k}="{v}"' for k, v in attrs.items())
    ins = "".join(f'<port id="{i}" precision="FP32">{dims(src)}</port>' for i, src in enumerate(inputs))
    outs = "".join(f'<port id="{n + j}" precision="{p}"/>' for j, p in enumerate(precisions))
    layers.append(f'<layer id="{n}" name="stub" type="{type_name}" version="opset6"><data {data}/><input>{ins}</input><output>{outs}</output></layer>')
    for j in range(len(precisions)):
        layers.append(f'<layer id="{n + 1 + j}" name="stub_result{j}" type="Result" version="opset1"><input><port id="0"/></input></layer>')
        edges.append(f'<edge from-layer="{n}" from-port="{n + j}" to-layer="{n + 1 + j}" to-port="0"/>')
    xml = f'<?xml version="1.0"?><net name="stub" version="11"><layers>{"".join(layers)}</layers><edges>{"".join(edges)}</edges></net>'
    model = g.ov.Core().read_model(xml.encode(), g.ov.Tensor(np.zeros(0, np.uint8)))
    node = next(op for op in model.get_ordered_ops() if op.get_type_name() == type_name)
    for i, src in enumerate(inputs):
        node.input(i).replace_source_output(src)
    node.validate_and_infer_types()
    return node


def named_outputs(node, name, suffixes):
    node.set_friendly_name(name)
    return [(node.output(i), f"{name}_{suffixes[i]}") for i in range(node.get_output_size())]


def ed_detection_output():
    # 3 classes (class 0 the background), R rois.
    rois = g.P("rois", [-1, 4])
    deltas = g.P("deltas", [-1, 12])
    scores = g.P("scores", [-1, 3])
    # Corner rois: x0, y0 in (0, 30), x1, y1 in (20, 50), in an image of 50 x 60.
    boxes = g.N(ops1.add(ops1.multiply(ops1.sigmoid(rois), g.C(30.0, "roi_scale", F32)), g.C([0.0, 0.0, 20.0, 20.0], "roi_shift", F32)), "roi_boxes")
    d = g.N(ops1.multiply(deltas, g.C(0.5, "delta_scale", F32)), "deltas_half")
    sc = sig(scores, "class_scores")
    info = g.C([[50.0, 60.0, 1.0]], "image_info", F32)
    base = {"score_threshold": 0.3, "nms_threshold": 0.5, "max_delta_log_wh": 2.0, "num_classes": 3, "post_nms_count": 8, "max_detections_per_image": 6, "class_agnostic_box_regression": "false", "deltas_weights": "10,10,5,5"}
    suffixes = ["boxes", "classes", "scores"]
    o = []
    o += named_outputs(opset6_node("ExperimentalDetectronDetectionOutput", base, [boxes.output(0), d.output(0), sc.output(0), info.output(0)], ["FP32", "I32", "FP32"]), "per_class", suffixes)
    agnostic = dict(base, class_agnostic_box_regression="true", nms_threshold=0.3, post_nms_count=3, max_detections_per_image=4, score_threshold=0.5, deltas_weights="1,2,0.5,1.5")
    o += named_outputs(opset6_node("ExperimentalDetectronDetectionOutput", agnostic, [boxes.output(0), d.output(0), sc.output(0), info.output(0)], ["FP32", "I32", "FP32"]), "agnostic", suffixes)
    g.case(
        "detect_ed_detection_output",
        "ExperimentalDetectronDetectionOutput-6: per-class and class-agnostic box regression, deltas weights, max_delta_log_wh, score and NMS thresholds, post_nms_count per class and max_detections_per_image; boxes [M, 4], classes [M] i32, scores [M]",
        [rois, deltas, scores],
        o,
        [{"rois": [10, 4], "deltas": [10, 12], "scores": [10, 3]}, {"rois": [3, 4], "deltas": [3, 12], "scores": [3, 3]}],
    )


def ed_generate_proposals():
    # 3 anchors per cell of an H x W feature map.
    anchors = g.P("anchors", [-1, 4])
    deltas = g.P("deltas", [12, -1, -1])
    scores = g.P("scores", [3, -1, -1])
    anc = g.N(ops1.add(ops1.multiply(ops1.sigmoid(anchors), g.C(20.0, "anchor_scale", F32)), g.C([0.0, 0.0, 20.0, 20.0], "anchor_shift", F32)), "anchor_boxes")
    d = g.N(ops1.multiply(deltas, g.C(0.3, "delta_scale", F32)), "deltas_small")
    sc = sig(scores, "objectness")
    info = g.C([40.0, 48.0, 1.5], "image_info", F32)
    inputs = [info.output(0), anc.output(0), d.output(0), sc.output(0)]
    o = []
    o += named_outputs(opset6_node("ExperimentalDetectronGenerateProposalsSingleImage", {"min_size": 2.0, "nms_threshold": 0.6, "pre_nms_count": 30, "post_nms_count": 8}, inputs, ["FP32", "FP32"]), "kept", ["rois", "scores"])
    o += named_outputs(opset6_node("ExperimentalDetectronGenerateProposalsSingleImage", {"min_size": 0.0, "nms_threshold": 0.9, "pre_nms_count": 1000, "post_nms_count": 5}, inputs, ["FP32", "FP32"]), "all", ["rois", "scores"])
    g.case(
        "detect_ed_generate_proposals",
        "ExperimentalDetectronGenerateProposalsSingleImage-6: anchors refined and clipped, min_size scaled by the image scale, pre_nms_count below and above the proposal count; rois [post_nms_count, 4] and scores [post_nms_count]",
        [anchors, deltas, scores],
        o,
        [{"anchors": [36, 4], "deltas": [12, 3, 4], "scores": [3, 3, 4]}, {"anchors": [30, 4], "deltas": [12, 5, 2], "scores": [3, 5, 2]}],
    )


def build():
    detection_output()
    proposal()
    generate_proposals()
    ed_detection_output()
    ed_generate_proposals()
