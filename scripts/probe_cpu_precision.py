#!/usr/bin/env python3
"""How OpenVINO's CPU plugin computes f16 and bf16 models: tiny graphs run
with ``INFERENCE_PRECISION_HINT=f32`` (as every reference of this project
is made), each output compared with numpy computing the graph two ways:
in f32 with one rounding at the end ("f32 between layers"), and rounded to
the graph's type after every op ("per op"). Prints one line per graph: how
many of its elements each way gives, and the layers the plugin runs (type,
precision) so a result can be traced to its fusion.

Run: ``python3 scripts/probe_cpu_precision.py``. The findings (OpenVINO
2026.4, AVX-512 with bf16, no AVX512-FP16 or AMX) are written up in
docs/architecture.md, "f16 and bf16 models", and the executor follows the
f16 ones (``crates/executor/src/precision.rs``).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import openvino as ov
import openvino.opset8 as ops8
import openvino.opset13 as ops

N = 4096
HALVES = {"f16": (ov.Type.f16, np.float16), "bf16": (ov.Type.bf16, ml_dtypes.bfloat16)}


def rounded(a, dtype) -> np.ndarray:
    return np.asarray(a, np.float32).astype(dtype).astype(np.float32)


def feed(ty: ov.Type, a: np.ndarray):
    if ty == ov.Type.bf16:
        bits = np.ascontiguousarray(a.astype(ml_dtypes.bfloat16).view(np.uint16))
        return ov.Tensor(bits, list(a.shape), ov.Type.bf16)
    return a.astype(ty.to_dtype())


def run(core: ov.Core, model: ov.Model, inputs: list) -> tuple[np.ndarray, str]:
    compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    request = compiled.create_infer_request()
    request.infer({i: a for i, a in enumerate(inputs)})
    t = request.get_output_tensor(0)
    if t.element_type == ov.Type.bf16:
        out = (np.array(t.data, copy=True).view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    else:
        out = np.array(t.data, copy=True).astype(np.float32)
    layers = []
    for op in compiled.get_runtime_model().get_ordered_ops():
        info = op.get_rt_info()
        layers.append(f"{info['layerType'].astype(str)}:{info['runtimePrecision'].astype(str)}")
    return out, " ".join(layers)


def report(name: str, out: np.ndarray, ways: dict[str, np.ndarray], layers: str) -> None:
    counts = ", ".join(f"{way} {int((out == want).sum())}" for way, want in ways.items())
    print(f"{name}: of {out.size} elements equal to: {counts}\n    layers: {layers}")


def main() -> None:
    core = ov.Core()
    print("CPU", core.get_property("CPU", "OPTIMIZATION_CAPABILITIES"),
          "default INFERENCE_PRECISION_HINT", core.get_property("CPU", "INFERENCE_PRECISION_HINT"))
    rng = np.random.default_rng(0)
    x, y, z = (rng.standard_normal(N).astype(np.float32) for _ in range(3))
    for tname, (ty, dt) in HALVES.items():
        xh, yh, zh = (rounded(a, dt) for a in (x, y, z))
        params = [ops.parameter([N], ty, name=n) for n in "xyz"]
        inputs = [feed(ty, a) for a in (x, y, z)]

        # Layers fused by the plugin's snippets (eltwise) and not (MatMul, Softmax).
        out, layers = run(core, ov.Model([ops.add(ops.exp(ops.multiply(params[0], params[1])), params[2])], params), inputs)
        report(f"{tname} exp(x*y)+z", out, {"f32 between layers": rounded(np.exp(xh * yh) + zh, dt),
               "per op": rounded(rounded(np.exp(rounded(xh * yh, dt)), dt) + zh, dt)}, layers)
        q, k, v = (rng.standard_normal(s).astype(np.float32) for s in ((4, 16, 32), (4, 32, 16), (4, 16, 32)))
        qh, kh, vh = (rounded(a, dt) for a in (q, k, v))
        mp = [ops.parameter(list(a.shape), ty, name=n) for n, a in zip("qkv", (q, k, v))]
        mm = ops.matmul(ops.softmax(ops.matmul(mp[0], mp[1], False, False), -1), mp[2], False, False)
        out, layers = run(core, ov.Model([mm], mp), [feed(ty, a) for a in (q, k, v)])

        def softmax(a):
            e = np.exp(a - a.max(-1, keepdims=True))
            return e / e.sum(-1, keepdims=True)

        report(f"{tname} softmax(q@k)@v", out, {"f32 between layers": rounded(softmax(qh @ kh) @ vh, dt),
               "per op": rounded(rounded(softmax(rounded(qh @ kh, dt)), dt) @ vh, dt)}, layers)

        # A Convert to the half type and back in the middle of a half graph.
        mid = ops.convert(ops.convert(ops.multiply(params[0], params[1]), ov.Type.f32), ty)
        out, layers = run(core, ov.Model([ops.add(mid, params[2])], params), inputs)
        report(f"{tname} Convert(f32)->Convert({tname}) mid-graph", out, {"f32 between layers": rounded(xh * yh + zh, dt),
               "per op": rounded(rounded(xh * yh, dt) + zh, dt)}, layers)

        # An f32 graph with a Convert to the half type and back in the middle.
        p = ops.parameter([N], ov.Type.f32, name="x")
        mid = ops.convert(ops.convert(ops.multiply(p, ops.constant(np.float32(1.1))), ty), ov.Type.f32)
        out, layers = run(core, ov.Model([ops.multiply(mid, ops.constant(np.float32(1.3)))], [p]), [x])
        report(f"f32 graph, Convert({tname})->Convert(f32) mid-graph", out, {
            "not rounded": (x * np.float32(1.1)) * np.float32(1.3),
            "rounded": rounded(x * np.float32(1.1), dt) * np.float32(1.3)}, layers)

        # The rounding of a half Result: to nearest even, or truncated.
        p = ops.parameter([N], ov.Type.f32, name="x")
        out, layers = run(core, ov.Model([ops.convert(ops.multiply(p, ops.constant(np.float32(1.1))), ty)], [p]), [x])
        wide = x * np.float32(1.1)
        report(f"f32 -> {tname} Result", out, {"nearest even": rounded(wide, dt),
               "truncated": (wide.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)}, layers)

        # Seeded RandomUniform: generated in the half type, or in f32 and rounded.
        d = ops.parameter([1], ov.Type.f32, name="unused")
        lo, hi = ops.convert(ops.constant(np.float32(0)), ty), ops.convert(ops.constant(np.float32(1)), ty)
        shape = ops.constant(np.array([64], np.int64))
        out, layers = run(core, ov.Model([ops8.random_uniform(shape, lo, hi, tname, 150, 10)], [d]), [np.zeros(1, np.float32)])
        f32_lo, f32_hi = ops.constant(np.float32(0)), ops.constant(np.float32(1))
        wide, _ = run(core, ov.Model([ops8.random_uniform(shape, f32_lo, f32_hi, "f32", 150, 10)], [d]), [np.zeros(1, np.float32)])
        report(f"{tname} RandomUniform(seed 150, 10)", out, {"f32 values rounded": rounded(wide, dt)}, layers)


if __name__ == "__main__":
    main()
