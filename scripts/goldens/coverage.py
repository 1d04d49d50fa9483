"""Ops the opset coverage test (crates/shape-infer/tests/opset_coverage.rs)
found missing (issue 17): Xor-1, OpenVINO's `v0::Xor` of opset1 (beside
LogicalXor-1, which it equals), numpy and no broadcast; RGBtoNV12-17 and
BGRtoNV12-17, one plane and two, u8 and floats, on dynamic and interval
dims. The Python API has no factory for them, so they are made by name
through the opset node factories.

OpenVINO 2026.4's CPU plugin cannot run RGBtoNV12/BGRtoNV12 (no kernel, no
evaluate): `scripts/gen_exec_goldens.py` computes those outputs with numpy,
transcribing OpenVINO's reference implementation. Besides Parameters (whose
random values are small), Consts of wide values reach the clipping at 0 and
255 and the rounding of u8."""

import numpy as np
from openvino.utils.node_factory import _get_node_factory

import gen_op_goldens as g

D = g.D


def xor(a, b, broadcast):
    node = _get_node_factory("opset1").create("Xor", [a.output(0), b.output(0)], {"auto_broadcast": broadcast})
    return node


def to_nv12(op, image, single_plane):
    return _get_node_factory("opset17").create(op, [image.output(0)], {"single_plane": single_plane})


def nv12_cases():
    u = g.P("u", [-1, D(2, 8), -1, 3], np.uint8)
    f = g.P("f", [2, 4, 6, 3])
    h = g.P("h", [1, 2, 2, 3], np.float16)
    r = g.P("r", "...", np.uint8)
    rng = np.random.default_rng(17)
    wide_u8 = g.C(rng.integers(0, 256, (1, 4, 4, 3)), "wide_u8", np.uint8)
    wide_f32 = g.C(rng.uniform(-40, 300, (1, 2, 4, 3)), "wide_f32", np.float32)
    bgr_two = g.N(to_nv12("BGRtoNV12", u, False), "bgr_u8_two")
    wide_two = g.N(to_nv12("RGBtoNV12", wide_f32, False), "rgb_wide_f32_two")
    outs = [
        g.N(to_nv12("RGBtoNV12", u, True), "rgb_u8_single"),
        (bgr_two.output(0), "bgr_u8_y"),
        (bgr_two.output(1), "bgr_u8_uv"),
        g.N(to_nv12("RGBtoNV12", f, True), "rgb_f32_single"),
        g.N(to_nv12("BGRtoNV12", h, True), "bgr_f16_single"),
        g.N(to_nv12("RGBtoNV12", wide_u8, True), "rgb_wide_u8"),
        (wide_two.output(0), "rgb_wide_f32_y"),
        (wide_two.output(1), "rgb_wide_f32_uv"),
        g.N(to_nv12("BGRtoNV12", r, True), "dyn_rank"),
    ]
    g.case(
        "coverage_to_nv12",
        "RGBtoNV12-17 and BGRtoNV12-17: one plane and two, u8 (dynamic and interval dims, dynamic rank), f32 and f16, Consts of wide values (clipping, u8 rounding)",
        [u, f, h, r],
        outs,
        [{"u": [2, 4, 6, 3], "r": [1, 2, 4, 3]}, {"u": [1, 8, 2, 3], "r": [3, 6, 2, 3]}],
    )


def build():
    a = g.P("a", [-1, 1, 3], np.bool_)
    b = g.P("b", [4, 1], np.bool_)
    c = g.P("c", [-1, 4, 3], np.bool_)
    g.case(
        "coverage_xor",
        "Xor-1 (opset1's v0::Xor): numpy broadcast of dynamic and static dims, and auto_broadcast none",
        [a, b, c],
        [g.N(xor(a, b, "numpy"), "numpy"), g.N(xor(c, c, "none"), "none")],
        [{"a": [2, 1, 3], "c": [2, 4, 3]}, {"a": [1, 1, 3], "c": [5, 4, 3]}],
    )
    nv12_cases()
