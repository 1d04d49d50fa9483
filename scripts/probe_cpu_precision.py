#!/usr/bin/env python3
"""How OpenVINO's CPU plugin computes f16 and bf16 models: tiny graphs run
with ``INFERENCE_PRECISION_HINT=f32`` (as every reference of this project
is made), each output compared with numpy computing the graph two ways:
in f32 with one rounding at the end ("f32 between layers"), and rounded to
the graph's type after every op ("per op"). Prints one line per graph: how
many of its elements each way gives, and the layers the plugin runs (type,
precision) so a result can be traced to its fusion. Then f16 bodies (Loop,
If, TensorIterator), the f16 attention scale of a static and a dynamic
query dim, bf16 attention (ScaledDotProductAttention) and bf16 MatMuls
scaled by a constant, each against the models its docstring names; and
run-time rules of the plugin that are not about f16: integer Divide
(truncated whatever ``m_pythondiv`` says), the start of a float
ReduceMax or ReduceMin (the type's finite limit), integer Power and
Divide computed in f32 and converted back as x86 converts (by zero, past
the type's range: what ONNX's bit shifts by the width or more become),
f64 computed in f32 (ONNX's Cast to DOUBLE), i8 and u8 arithmetic
(saturated; Divide rounded at dynamic shapes), i64, u64 and u32 operands
past i32's range, NaN in ReduceMax and ReduceMin, and Tile by a run-time
``repeats`` (wrong in the plugin when the three innermost dims repeat).

Run: ``python3 scripts/probe_cpu_precision.py``. The findings (OpenVINO
2026.4, AVX-512 with bf16, no AVX512-FP16 or AMX) are written up in
docs/architecture.md, "f16 and bf16 models", and the executor follows the
f16 ones and bf16 attention's (``crates/executor/src/precision.rs``,
``crates/executor/src/kernels/scaled_dot_product_attention.rs``).
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


def outputs(core: ov.Core, model: ov.Model, inputs: list) -> tuple[list[np.ndarray], str]:
    """Every output of ``model`` on the CPU plugin (as f32) and the layers it ran."""
    compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    request = compiled.create_infer_request()
    request.infer({i: a for i, a in enumerate(inputs)})
    outs = []
    for k in range(len(model.outputs)):
        t = request.get_output_tensor(k)
        if t.element_type == ov.Type.bf16:
            outs.append((np.array(t.data, copy=True).view(np.uint16).astype(np.uint32) << 16).view(np.float32))
        else:
            outs.append(np.array(t.data, copy=True).astype(np.float32))
    layers = []
    for op in compiled.get_runtime_model().get_ordered_ops():
        info = op.get_rt_info()
        layers.append(f"{info['layerType'].astype(str)}:{info['runtimePrecision'].astype(str)}")
    return outs, " ".join(layers)


def run(core: ov.Core, model: ov.Model, inputs: list) -> tuple[np.ndarray, str]:
    """The first output of ``model`` on the CPU plugin and the layers it ran."""
    outs, layers = outputs(core, model, inputs)
    return outs[0], layers


def report(name: str, out: np.ndarray, ways: dict[str, np.ndarray], layers: str) -> None:
    counts = ", ".join(f"{way} {int((out == want).sum())}" for way, want in ways.items())
    print(f"{name}: of {out.size} elements equal to: {counts}\n    layers: {layers}")


def f16_bodies(core: ov.Core, rng: np.random.Generator) -> None:
    """f16 Loop, If and TensorIterator bodies: computed in f32 throughout
    (back edges, body Results, concatenated slices and the layer's outputs
    not rounded until a Result of the model), or rounded at the body's
    Results, or after every op; and whether a compile-time constant inside a
    body (1/sqrt of a static dim, from ShapeOf) is folded in f16."""
    n, steps = 2048, 5
    ty, dt = ov.Type.f16, np.float16

    def r(a):
        return rounded(a, dt)

    # Loop: acc' = acc * a + b for `steps` iterations (a merged input, two
    # invariant ones); the last acc, every acc concatenated, and the last acc
    # times 1.1 outside the Loop.
    a, b, init = (rng.uniform(0.9, 1.1, n).astype(np.float32), rng.standard_normal(n).astype(np.float32),
                  rng.standard_normal(n).astype(np.float32))
    pa, pb, pi = (ops.parameter([n], ty, name=name) for name in ("a", "b", "init"))
    ba, bb, bacc = (ops.parameter([n], ty, name=name) for name in ("ba", "bb", "bacc"))
    it = ops.parameter([], ov.Type.i64, name="it")
    nxt = ops.add(ops.multiply(bacc, ba), bb)
    r_acc, r_all = ops.result(nxt), ops.result(ops.unsqueeze(nxt, ops.constant(np.int64([0]))))
    loop = ops.loop(ops.constant(np.int64(steps)), ops.constant(True))
    loop.set_function(ov.Model([ops.result(ops.constant(True)), r_acc, r_all], [it, bacc, ba, bb], "body"))
    loop.set_special_body_ports([0, 0])
    loop.set_merged_input(bacc, pi.output(0), r_acc.output(0))
    loop.set_invariant_input(ba, pa.output(0))
    loop.set_invariant_input(bb, pb.output(0))
    last = loop.get_iter_value(r_acc.output(0), -1)
    every = loop.get_concatenated_slices(r_all.output(0), 0, 1, 1, -1, 0)
    outer = ops.multiply(last, ops.constant(np.float16(1.1))).output(0)
    outs, layers = outputs(core, ov.Model([last, every, outer], [pa, pb, pi]), [feed(ty, v) for v in (a, b, init)])
    ah, bh, k = r(a), r(b), r(1.1)
    for way, step in (("f32 throughout", lambda acc: acc * ah + bh), ("body Results round", lambda acc: r(acc * ah + bh)),
                      ("per op", lambda acc: r(r(acc * ah) + bh))):
        acc, accs = r(init), []
        for _ in range(steps):
            acc = step(acc)
            accs.append(acc)
        wants = (r(acc), r(np.stack(accs)), r((acc if way == "f32 throughout" else r(acc)) * k))
        counts = ", ".join(f"{name} {int((o == w).sum())}/{o.size}" for name, o, w in zip(("last", "every", "outer"), outs, wants))
        print(f"f16 Loop acc*a+b, {way}: {counts}")
    print(f"    layers: {layers}")

    # If: then exp(x*y)+z, else x*y-z; the output and the output times 1.1.
    x, y, z = (rng.standard_normal(n).astype(np.float32) for _ in range(3))
    xh, yh, zh = r(x), r(y), r(z)
    for cond in (True, False):
        c = ops.parameter([], ov.Type.boolean, name="cond")
        ps = [ops.parameter([n], ty, name=name) for name in "xyz"]
        tp, ep = ([ops.parameter([n], ty, name=pre + name) for name in "xyz"] for pre in ("t", "e"))
        tr = ops.result(ops.add(ops.exp(ops.multiply(tp[0], tp[1])), tp[2]))
        er = ops.result(ops.subtract(ops.multiply(ep[0], ep[1]), ep[2]))
        node = ops.if_op(c.output(0))
        node.set_then_body(ov.Model([tr], tp, "then"))
        node.set_else_body(ov.Model([er], ep, "else"))
        for p, t, e in zip(ps, tp, ep):
            node.set_input(p.output(0), t, e)
        out = node.set_output(tr, er)
        scaled = ops.multiply(out, ops.constant(np.float16(1.1))).output(0)
        outs, layers = outputs(core, ov.Model([out, scaled], [c] + ps), [np.array(cond)] + [feed(ty, v) for v in (x, y, z)])
        wide = np.exp(xh * yh) + zh if cond else xh * yh - zh
        per_op = r(r(np.exp(r(xh * yh))) + zh) if cond else r(r(xh * yh) - zh)
        for way, body, outside in (("f32 throughout", wide, wide), ("body Results round", wide, r(wide)), ("per op", per_op, per_op)):
            wants = (r(body), r(outside * k))
            counts = ", ".join(f"{name} {int((o == w).sum())}/{o.size}" for name, o, w in zip(("out", "out*1.1"), outs, wants))
            print(f"f16 If({cond}), {way}: {counts}")
        print(f"    layers: {layers}")

    # TensorIterator over xs [steps, n]: acc' = acc * a + x_t * (s * 40), s
    # = Convert(1/sqrt(ShapeOf(acc)[0]), f16) inside the body; every acc
    # times 1.3 through a Convert to f32 and back, concatenated.
    xs = rng.standard_normal((steps, n)).astype(np.float32)
    pxs = ops.parameter([steps, n], ty, name="xs")
    pa, pi = ops.parameter([n], ty, name="a"), ops.parameter([n], ty, name="init")
    bx, ba, bacc = ops.parameter([1, n], ty, name="bx"), ops.parameter([n], ty, name="ba"), ops.parameter([n], ty, name="bacc")
    depth = ops.convert(ops.gather(ops.shape_of(bacc, "i64"), ops.constant(np.int64([0])), ops.constant(np.int64(0))), "f32")
    scale = ops.convert(ops.divide(ops.constant(np.float32([1.0])), ops.sqrt(depth)), "f16")
    step = ops.multiply(ops.squeeze(bx, ops.constant(np.int64([0]))), ops.multiply(scale, ops.constant(np.float16(40.0))))
    nxt = ops.add(ops.multiply(bacc, ba), step)
    trip = ops.convert(ops.convert(ops.multiply(nxt, ops.constant(np.float16(1.3))), "f32"), "f16")
    rh, ry = ops.result(nxt), ops.result(ops.unsqueeze(trip, ops.constant(np.int64([0]))))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([rh, ry], [bx, ba, bacc], "body"))
    ti.set_sliced_input(bx, pxs.output(0), 0, 1, 1, -1, 0)
    ti.set_invariant_input(ba, pa.output(0))
    ti.set_merged_input(bacc, pi.output(0), rh.output(0))
    model = ov.Model([ti.get_iter_value(rh.output(0), -1), ti.get_concatenated_slices(ry.output(0), 0, 1, 1, -1, 0)], [pxs, pa, pi])
    outs, layers = outputs(core, model, [feed(ty, v) for v in (xs, a, init)])
    xsh = r(xs)
    for sname, s in (("scale folded in f16", r(r(1 / np.sqrt(np.float32(n))) * r(40.0))),
                     ("scale in f32", np.float32(1 / np.sqrt(np.float32(n))) * np.float32(40.0))):
        for way, keep in (("f32 throughout", lambda v: v), ("body Results round", r)):
            acc, ys = r(init), []
            for t in range(steps):
                acc = keep(acc * ah + xsh[t] * s)
                ys.append(keep(acc * r(1.3)))
            counts = ", ".join(f"{name} {int((o == w).sum())}/{o.size}" for name, o, w in zip(("last", "every"), outs, (r(acc), r(np.stack(ys)))))
            print(f"f16 TensorIterator, {sname}, {way}: {counts}")
    print(f"    layers: {layers}")


def f16_attention_scale(core: ov.Core, rng: np.random.Generator) -> None:
    """ScaledDotProductAttention of f16 operands without a scale: 1/sqrt(E)
    rounded to f16 (its decomposition folded in f16) or in f32, when the
    query's last dim E is static and when it is dynamic."""
    def softmax(a):
        e = np.exp(a - a.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    for e in (12, 20):
        for qshape in ([1, 2, 4, e], [-1, 2, -1, e], [1, 2, 4, -1], [-1, -1, -1, -1]):
            q = ops.parameter(qshape, ov.Type.f16, name="q")
            k = ops.parameter([1, 2, 5, e], ov.Type.f16, name="k")
            v = ops.parameter([1, 2, 5, 8], ov.Type.f16, name="v")
            model = ov.Model([ops.scaled_dot_product_attention(q, k, v, None, None, False)], [q, k, v])
            qa, ka, va = (rounded(rng.standard_normal(s) * m, np.float16) for s, m in (((1, 2, 4, e), 3), ((1, 2, 5, e), 3), ((1, 2, 5, 8), 1)))
            out, _ = run(core, model, [a.astype(np.float16) for a in (qa, ka, va)])
            scores = qa @ ka.transpose(0, 1, 3, 2)
            half = rounded(1 / rounded(np.sqrt(np.float32(e)), np.float16), np.float16)
            ways = {"f16 scale": rounded(softmax(scores * half) @ va, np.float16),
                    "f32 scale": rounded(softmax(scores * np.float32(1 / np.sqrt(np.float32(e)))) @ va, np.float16)}
            report(f"f16 attention, query {qshape}", out, ways, "")


def bf16_attention(core: ov.Core, rng: np.random.Generator) -> None:
    """ScaledDotProductAttention of bf16 operands, against two models: the
    plugin's (a scale known at compile time folded into K and rounded, Q.K^T
    rounded, a run-time scale and the mask in f32, the softmax rounded, the
    output rounded) and the op's decomposition rounded after every op (scale
    on Q). Static and dynamic shapes; default, constant and input scales;
    float, boolean and causal masks; with the plugin's snippets (its fused
    attention subgraph) on and off."""
    bf = ml_dtypes.bfloat16

    def r(a):
        return rounded(a, bf)

    def softmax(a):
        e = np.exp(a - a.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    def plugin(q, kt, v, bias, scale, folded):
        s = r(q @ r(kt * scale)) if folded else r(q @ kt) * scale
        return r(r(softmax(s + bias)) @ v)

    def per_op(q, kt, v, bias, scale, folded):
        return r(r(softmax(r(r(r(q * scale) @ kt) + bias))) @ v)

    length, source, depth = 4, 6, 8
    for dynamic, scale_kind, mask_kind in ((False, "default", "none"), (False, "default", "causal"), (False, "default", "bool"),
                                           (False, "default", "float"), (False, "constant", "float"), (False, "input", "float"),
                                           (True, "default", "float"), (True, "constant", "float")):
        q, k, v = (r(rng.standard_normal((2, 3, n, depth)) * m) for n, m in ((length, 2), (source, 2), (source, 1)))
        params = [ops.parameter([-1] * 4 if dynamic else list(a.shape), ov.Type.bf16, name=n) for n, a in zip("qkv", (q, k, v))]
        inputs = [feed(ov.Type.bf16, a) for a in (q, k, v)]
        bias, mask = np.float32(0), None
        if mask_kind == "float":
            m = r(rng.standard_normal((length, source)) * 2)
            mask, bias = ops.parameter([-1, -1] if dynamic else [length, source], ov.Type.bf16, name="mask"), m
            params.append(mask)
            inputs.append(feed(ov.Type.bf16, m))
        elif mask_kind == "bool":
            m = rng.random((length, source)) > 0.3
            m[:, 0] = True
            mask, bias = ops.parameter([length, source], ov.Type.boolean, name="mask"), np.where(m, 0, -np.inf).astype(np.float32)
            params.append(mask)
            inputs.append(m)
        elif mask_kind == "causal":
            bias = np.triu(np.full((length, source), -np.inf, np.float32), 1)
        if scale_kind == "default":
            scale, node = r(1 / r(np.sqrt(np.float32(depth)))), None
        elif scale_kind == "constant":
            scale, node = r(np.float32(0.3)), ops.convert(ops.constant(np.float32(0.3)), ov.Type.bf16)
        else:
            scale, node = r(np.float32(0.3)), ops.parameter([], ov.Type.bf16, name="scale")
            if mask is None:
                raise ValueError("an input scale needs a mask before it")
            params.append(node)
            inputs.append(feed(ov.Type.bf16, np.array(0.3, np.float32)))
        args = [params[0], params[1], params[2]] + ([mask] if mask is not None else []) + ([node] if node is not None else [])
        attention = ops.scaled_dot_product_attention(*args, causal=mask_kind == "causal")
        # Folded when the plugin knows the scale at compile time.
        folded = scale_kind == "constant" or (scale_kind == "default" and not dynamic)
        kt = k.swapaxes(-1, -2)
        ways = {"plugin": plugin(q, kt, v, bias, scale, folded), "per op (scale on Q)": per_op(q, kt, v, bias, scale, folded)}
        for config in ({}, {"SNIPPETS_MODE": "DISABLE"}):
            compiled = core.compile_model(ov.Model([attention], params), "CPU", {"INFERENCE_PRECISION_HINT": "f32", **config})
            request = compiled.create_infer_request()
            request.infer({i: a for i, a in enumerate(inputs)})
            out = (np.array(request.get_output_tensor(0).data, copy=True).view(np.uint16).astype(np.uint32) << 16).view(np.float32)
            layers = " ".join(f"{op.get_rt_info()['layerType'].astype(str)}:{op.get_rt_info()['runtimePrecision'].astype(str)}"
                              for op in compiled.get_runtime_model().get_ordered_ops())
            shapes = "dynamic" if dynamic else "static"
            report(f"bf16 attention, {shapes}, {scale_kind} scale, {mask_kind} mask, snippets {'off' if config else 'on'}", out, ways, layers)


def bf16_scaled_products(core: ov.Core, rng: np.random.Generator) -> None:
    """A bf16 MatMul(q, k^T) scaled by a constant: after it (a Divide by
    sqrt(8) then a mask Add, a Multiply by 0.3) or before it (q * 0.3), the
    operands bf16 Parameters or f32 ones converted, the product read by the
    scale alone or also by a second, identical MatMul (which OpenVINO merges
    with it). Measured: a scale of a product read by it alone is moved into
    k (rounded to bf16 there); a shared product is scaled per op, but its
    Divide-then-Add matches none of these models; a scale of q stays per op.
    (ONNX's padded-kv bf16 attention, the same Divide of a MatMul, is moved
    into k when the plugin compiles the saved IR and not when it compiles
    the frontend's model in memory.)"""
    bf = ml_dtypes.bfloat16

    def r(a):
        return rounded(a, bf)

    q, k, m = (r(rng.standard_normal(s)) for s in ((2, 3, 4, 8), (2, 3, 6, 8), (2, 3, 4, 6)))
    kt, root8, c = k.swapaxes(-1, -2), r(np.sqrt(np.float32(8))), r(np.float32(0.3))
    ways = {
        "divided": {"scale moved into k": r(r(q @ r(kt * r(1 / root8))) + m), "per op": r(r(r(q @ kt) / root8) + m),
                    "in f32 until the Add": r((q @ kt) / root8 + m)},
        "multiplied": {"scale moved into k": r(q @ r(kt * c)), "per op": r(r(q @ kt) * c)},
        "q scaled": {"scale moved into k": r(q @ r(kt * c)), "per op": r(r(q * c) @ kt)},
    }
    for variant in ("bf16 Parameters", "f32 inputs converted", "product shared"):
        kind = ov.Type.f32 if variant == "f32 inputs converted" else ov.Type.bf16
        params = [ops.parameter(list(a.shape), kind, name=n) for n, a in zip("qkm", (q, k, m))]
        pq, pk, pm = (ops.convert(p, ov.Type.bf16) for p in params) if kind == ov.Type.f32 else params
        scale = ops.convert(ops.constant(np.float32(0.3)), ov.Type.bf16)
        sqrt8 = ops.sqrt(ops.convert(ops.constant(np.float32(8)), ov.Type.bf16))
        nodes = {
            "divided": ops.add(ops.divide(ops.matmul(pq, pk, False, True), sqrt8), pm),
            "multiplied": ops.multiply(ops.matmul(pq, pk, False, True), scale),
            "q scaled": ops.matmul(ops.multiply(pq, scale), pk, False, True),
        }
        inputs = [a if kind == ov.Type.f32 else feed(ov.Type.bf16, a) for a in (q, k, m)]
        for name, node in nodes.items():
            results = [node.output(0)]
            if variant == "product shared":
                results.append(ops.matmul(pq, pk, False, True).output(0))
            out, layers = run(core, ov.Model(results, params), inputs)
            report(f"bf16 MatMul {name}, {variant}", out, ways[name], layers)


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

    f16_bodies(core, rng)
    f16_attention_scale(core, rng)
    bf16_attention(core, rng)
    bf16_scaled_products(core, rng)
    bf16_attention_chains(core, rng)
    integer_divide(core)
    reduce_extremes(core)
    integer_power_and_divide(core)
    f64_models(core)
    small_integer_arithmetic(core)
    wide_integers(core)
    reduce_nan(core)
    tile_run_time_repeats(core)


def bf16_attention_chains(core: ov.Core, rng: np.random.Generator) -> None:
    """Explicit bf16 chains MatMul(q, k^T) [* scale] [+ mask] -> Softmax
    [-> Select] -> MatMul(v), static and dynamic shapes, against three
    models: each layer rounded to bf16 ("per op"); the rule of the plugin's
    ScaledDotProductAttention, with a constant scale moved into k ("sdpa
    rule": k * scale rounded, the product rounded, the mask in f32, the
    softmax rounded); and f32 up to the softmax ("f32 product")."""
    bf = HALVES["bf16"][1]

    def softmax(x):
        e = np.exp(x - x.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    def probe(label, dims, mask=False, scale=None, select=False, transposed=True, dynamic=False):
        L, S, E = dims
        q, k, v = (rounded(rng.uniform(-1, 1, (1, 2, n, E)), bf) for n in (L, S, S))
        m = rounded(rng.uniform(-2, 0, (1, 1, L, S)), bf)
        params = [ops.parameter([-1] * 4 if dynamic else list(a.shape), ov.Type.bf16) for a in (q, k, v, m)]
        key = params[1] if transposed else ops.transpose(params[1], ops.constant(np.array([0, 1, 3, 2])))
        s = ops.matmul(params[0], key, False, transposed)
        if scale is not None:
            s = ops.multiply(s, ops.convert(ops.constant(np.float32(scale)), "bf16"))
        if mask:
            s = ops.add(s, params[3])
        sm = ops.softmax(s, -1)
        if select:
            sm = ops.select(ops.is_nan(sm), ops.convert(ops.constant(np.float32(0)), "bf16"), sm)
        used = params if mask else params[:3]
        out, layers = run(core, ov.Model([ops.matmul(sm, params[2], False, False)], used),
                          [feed(ov.Type.bf16, a) for a in (q, k, v, m)[:len(used)]])
        kt = np.swapaxes(k, -1, -2)
        c = rounded(np.float32(scale), bf) if scale is not None else None
        per_op = rounded(q @ kt, bf)
        per_op = rounded(per_op * c, bf) if c is not None else per_op
        per_op = rounded(per_op + m, bf) if mask else per_op
        per_op = rounded(rounded(softmax(per_op), bf) @ v, bf)
        sdpa = rounded(q @ (np.swapaxes(rounded(k * c, bf), -1, -2) if c is not None else kt), bf)
        sdpa = rounded(rounded(softmax(sdpa + m if mask else sdpa), bf) @ v, bf)
        wide = q @ kt * (c if c is not None else np.float32(1))
        wide = rounded(rounded(softmax(wide + m if mask else wide), bf) @ v, bf)
        report(f"bf16 chain {label}{' dynamic' if dynamic else ''}", out,
               {"per op": per_op, "sdpa rule": sdpa, "f32 product": wide}, layers)

    for dynamic in (False, True):
        probe("plain", (4, 6, 8), dynamic=dynamic)
        probe("mask", (4, 6, 8), mask=True, dynamic=dynamic)
        probe("scale 0.35", (4, 6, 8), scale=0.35, dynamic=dynamic)
        probe("scale 0.3 and mask", (4, 6, 8), scale=0.3, mask=True, dynamic=dynamic)
        probe("scale 0.25 and mask, larger", (8, 16, 16), scale=0.25, mask=True, dynamic=dynamic)
        probe("mask, transposed key", (4, 6, 8), mask=True, transposed=False, dynamic=dynamic)
        probe("mask, larger", (16, 32, 16), mask=True, dynamic=dynamic)
        probe("mask, softmax read twice (IsNaN, Select)", (4, 6, 8), mask=True, select=True, dynamic=dynamic)


def first_outputs(core: ov.Core, outs: list, params: list, feeds: list) -> list[np.ndarray]:
    """Every output of a model of ``outs`` on the CPU plugin, in its own type."""
    compiled = core.compile_model(ov.Model(outs, params), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    request = compiled.create_infer_request()
    request.infer(feeds)
    return [np.array(request.get_output_tensor(k).data, copy=True) for k in range(len(outs))]


def f64_models(core: ov.Core) -> None:
    """f64, which the plugin computes in f32: an f32 input converted to f64
    (ONNX's Cast to DOUBLE) and written to an f64 Result; a Convert to f64
    inside the graph; an f64 input computed on (saturated to f32 where it
    is read, IsInf of +inf false); an f64 constant past f32's range (`1e300
    * 0` is 0: saturated, not infinite)."""
    v32 = np.array([np.inf, -np.inf, np.nan, 3e38, 1.5, 0.1], np.float32)
    v64 = np.array([np.inf, -np.inf, np.nan, 1e300, -1e300, 1e-300, 0.1, 1 / 3], np.float64)
    p = ops.parameter([6], np.float32)
    print(f"  f32 {v32.tolist()} -> Convert(f64) -> Result: {first_outputs(core, [ops.convert(p, 'f64')], [p], [v32])[0].tolist()}")
    back = ops.convert(ops.convert(p, "f64"), "f32")
    print(f"  -> Convert(f64) -> Convert(f32) -> Result: {first_outputs(core, [back], [p], [v32])[0].tolist()}")
    print(f"  -> Convert(f64) -> IsInf: {first_outputs(core, [ops.is_inf(ops.convert(p, 'f64'))], [p], [v32])[0].tolist()}")
    q = ops.parameter([v64.size], np.float64)
    outs = first_outputs(core, [ops.add(q, ops.constant(np.float64(0))), ops.is_inf(q), q], [q], [v64])
    print(f"  f64 {v64.tolist()}: + 0 {outs[0].tolist()}; IsInf {outs[1].tolist()}; as the Result {outs[2].tolist()}")
    q = ops.parameter([3], np.float64)
    scaled = ops.multiply(q, ops.constant(np.array([1e300, np.inf, -1e300])))
    print(f"  f64 Constant [1e300, inf, -1e300] * 0: {first_outputs(core, [scaled], [q], [np.zeros(3)])[0].tolist()}")


def small_integer_arithmetic(core: ov.Core) -> None:
    """i8 and u8 Add, Subtract and Multiply (saturated: computed in f32 and
    converted back), i16 and i32 ones (wrapped), and i8 and u8 Divide:
    truncated at static shapes, rounded to nearest even at dynamic ones
    (also when a Multiply follows in the same Eltwise)."""
    for dt in (np.int8, np.uint8, np.int16, np.int32):
        small = dt in (np.int8, np.uint8)
        if small:
            x, y = np.array([100, 120, 5, 0], dt), np.array([100, 10, 7, 1], dt)
        elif dt == np.int16:
            x, y = np.array([32767, -32768, 5, 300], dt), np.array([1, 1, 7, 300], dt)
        else:
            x, y = np.array([2**31 - 1, -2**31, 5, 70000], dt), np.array([1, 1, 7, 70000], dt)
        for name, op in (("Add", ops.add), ("Subtract", ops.subtract), ("Multiply", ops.multiply)):
            for dims in ([4], [-1]):
                a, b = ops.parameter(dims, dt), ops.parameter(dims, dt)
                got = first_outputs(core, [op(a, b)], [a, b], [x, y])[0]
                print(f"  {name} {dt.__name__} {dims}: {x.tolist()} and {y.tolist()}: {got.tolist()}")
    x = np.array([7, 5, 9, 3, 1, 11, -7, -5, 7, 0, -128], np.int8)
    y = np.array([2, 2, 2, 2, 2, 4, 2, 2, 0, 0, -1], np.int8)
    for dt in (np.int8, np.uint8):
        keep = (x >= 0) & (y >= 0) if dt == np.uint8 else np.ones(x.size, bool)
        xs, ys = x[keep].astype(dt), y[keep].astype(dt)
        for dims in ([int(keep.sum())], [-1]):
            a, b = ops.parameter(dims, dt), ops.parameter(dims, dt)
            outs = first_outputs(core, [ops.divide(a, b), ops.multiply(ops.divide(a, b), b)], [a, b], [xs, ys])
            print(f"  Divide {dt.__name__} {dims}: {xs.tolist()} by {ys.tolist()}: {outs[0].tolist()}; (x / y) * y {outs[1].tolist()}")


def wide_integers(core: ov.Core) -> None:
    """i64, u64 and u32 operands past i32's range: the plugin computes them
    in i32 (its ConvertPrecision maps i64, u64, u32, i16 and u16 to i32),
    converting the inputs by keeping their low 32 bits and the results back
    by sign extension; a Convert reads the input in its own type, and a
    Parameter read only by a Result passes through."""
    cases = {np.int64: [2**40, -2**40, 2**31, 3], np.uint32: [2**31, 2**32 - 1, 2**31 + 5, 3],
             np.uint64: [2**40, 2**63, 2**31, 3]}
    for dt, values in cases.items():
        x, y = np.array(values, dt), np.array([1, 1, 1, 2], dt)
        for dims in ([4], [-1]):
            a, b = ops.parameter(dims, dt), ops.parameter(dims, dt)
            outs = first_outputs(core, [ops.add(a, b), ops.multiply(a, b), ops.convert(a, "f32"), a], [a, b], [x, y])
            print(f"  {dt.__name__} {dims}: {x.tolist()} + {y.tolist()} = {outs[0].tolist()}; * {outs[1].tolist()}; "
                  f"Convert(f32) {outs[2].tolist()}; Parameter -> Result {outs[3].tolist()}")
    unused = ops.parameter([4], np.int64)
    folded = ops.add(unused, ops.constant(np.array([2**40 + 5, -2**40, 2**31, 7], np.int64)))
    got = first_outputs(core, [folded], [unused], [np.zeros(4, np.int64)])[0]
    print(f"  i64 Parameter 0 + Constant [2^40 + 5, -2^40, 2^31, 7]: {got.tolist()}")


def tile_run_time_repeats(core: ov.Core) -> None:
    """Tile of a rank-4 input by a run-time ``repeats`` (ONNX's
    ``test_tile``): how many elements differ from numpy's, over three runs,
    against the same Tile by constant repeats. Wrong, and different each
    run, when each of the three innermost dims repeats."""
    x = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    for reps in ([1, 2, 2, 2], [2, 2, 2, 2], [7, 6, 4, 2], [2, 2, 2, 1], [2, 2, 1, 2], [2, 1, 2, 2]):
        p, r = ops.parameter(list(x.shape), np.float32), ops.parameter([4], np.int64)
        want = np.tile(x, reps)
        bad = [int((first_outputs(core, [ops.tile(p, r)], [p, r], [x, np.array(reps, np.int64)])[0] != want).sum())
               for _ in range(3)]
        q = ops.parameter(list(x.shape), np.float32)
        constant = first_outputs(core, [ops.tile(q, ops.constant(np.array(reps, np.int64)))], [q], [x])[0]
        print(f"  Tile by run-time repeats {reps}: elements wrong in 3 runs {bad} of {want.size}; "
              f"by constant repeats {int((constant != want).sum())}")


def reduce_nan(core: ov.Core) -> None:
    """NaN in a float ReduceMax or ReduceMin: the plugin's accumulator keeps
    `acc > x ? acc : x` (max; `<` for min), so a NaN is dropped when a value
    follows it in the kernel's accumulation order and kept when it comes
    last; that order is the vector kernel's (lanes of 16 on AVX-512), not
    the row's."""
    rows = np.array([[np.nan, 1, 2, 3], [1, np.nan, 2, 3], [1, 2, 3, np.nan], [np.nan] * 4, [5, np.nan, -np.inf, 1]], np.float32)
    for dims in (list(rows.shape), [-1, -1]):
        for axis in (1, 0):
            p = ops.parameter(dims, np.float32)
            axes = ops.constant(np.array([axis]))
            outs = first_outputs(core, [ops.reduce_max(p, axes, False), ops.reduce_min(p, axes, False)], [p], [rows])
            print(f"  {rows.tolist()} {dims} axis {axis}: ReduceMax {outs[0].tolist()}, ReduceMin {outs[1].tolist()}")
    long = np.full((4, 40), 1.0, np.float32)
    long[0, 0] = long[1, 17] = long[2, 39] = np.nan
    long[3, 10], long[3, 30] = 5.0, np.nan
    p = ops.parameter([4, 40], np.float32)
    axes = ops.constant(np.array([1]))
    outs = first_outputs(core, [ops.reduce_max(p, axes, False), ops.reduce_min(p, axes, False)], [p], [long])
    print(f"  rows of 40 ones with NaN at 0, 17, 39, and 5 at 10 with NaN at 30: "
          f"ReduceMax {outs[0].tolist()}, ReduceMin {outs[1].tolist()}")


def divide(a, b, python: bool):
    """An opset1 Divide with ``m_pythondiv`` set to ``python``."""
    node = ops.divide(a, b)
    node.get_node().set_attribute("m_pythondiv", python) if hasattr(node, "get_node") else node.set_attribute("m_pythondiv", python)
    return node


def integer_divide(core: ov.Core) -> None:
    """Integer Divide with and without ``m_pythondiv`` on negative
    operands, against floor and truncated division: at run time (static
    and dynamic shapes, a tensor and a scalar divisor, i8, i16, i32, i64)
    and folded at compile time (two Constants)."""
    x = np.array([-7, 7, -7, 7, -3, 3, -9, 16777217, -16777219, 2147483647, -2147483648], np.int32)
    y = np.array([2, -2, -2, 2, 2, -2, 4, 2, 2, 3, 3], np.int32)
    floor = (x.astype(np.int64) // y).tolist()
    trunc = np.trunc(x.astype(np.float64) / y).astype(np.int64).tolist()
    print(f"integer Divide of {x.tolist()} by {y.tolist()}: floor {floor}, truncated {trunc}")
    for python in (True, False):
        for dt in (np.int8, np.int16, np.int32, np.int64):
            xs = np.clip(x.astype(np.int64), np.iinfo(dt).min, np.iinfo(dt).max).astype(dt)
            for dims in ([x.size], [-1]):
                a, b = ops.parameter(dims, dt), ops.parameter(dims, dt)
                out, layers = run(core, ov.Model([divide(a, b, python)], [a, b]), [xs, y.astype(dt)])
                print(f"  m_pythondiv={python} {dt.__name__} {dims}: {out.astype(np.int64).tolist()} [{layers}]")
        a = ops.parameter([x.size], np.int32)
        out, _ = run(core, ov.Model([divide(a, ops.constant(np.int32(-2)), python)], [a]), [x])
        print(f"  m_pythondiv={python} i32 by a scalar -2: {out.astype(np.int64).tolist()}")
        unused = ops.parameter([1], np.int32)
        folded = ops.add(divide(ops.constant(x), ops.constant(y), python), ops.multiply(unused, ops.constant(np.int32(0))))
        out, _ = run(core, ov.Model([folded], [unused]), [np.zeros(1, np.int32)])
        print(f"  m_pythondiv={python} i32 folded (two Constants): {out.astype(np.int64).tolist()}")


def reduce_extremes(core: ov.Core) -> None:
    """Float ReduceMax and ReduceMin of rows of infinities (what the
    reduction starts from), on several axes, static and dynamic shapes,
    f32, f16 and bf16, and an Equal to -inf after a ReduceMax."""
    rows = np.full((2, 5, 3), -np.inf, np.float32)
    rows[1, 2, 1] = 5.0
    for ty in ("f32", "f16", "bf16"):
        for axes in ([0], [1], [2], [1, 2]):
            for dims in (list(rows.shape), [-1, -1, -1]):
                p = ops.parameter(dims, np.float32)
                wide = p if ty == "f32" else ops.convert(p, ty)
                top = ops.convert(ops.reduce_max(wide, ops.constant(np.array(axes)), False), "f32")
                bottom = ops.convert(ops.reduce_min(ops.negative(wide), ops.constant(np.array(axes)), False), "f32")
                outs, _ = outputs(core, ov.Model([top, bottom], [p]), [rows])
                print(f"  {ty} axes {axes} {dims}: ReduceMax of -inf gives {sorted(set(outs[0].ravel().tolist()))}, "
                      f"ReduceMin of +inf {sorted(set(outs[1].ravel().tolist()))}")
    p = ops.parameter([2, 5, 3], np.float32)
    equal = ops.equal(ops.reduce_max(p, ops.constant(np.array([2])), False), ops.constant(np.float32(-np.inf)))
    outs, _ = outputs(core, ov.Model([equal], [p]), [rows])
    print(f"  Equal(ReduceMax(row of -inf), -inf): {outs[0].ravel().astype(bool).tolist()} (numpy: True where a row is all -inf)")


def plugin_integer(values: np.ndarray, dt) -> np.ndarray:
    """f32 results converted to integer type ``dt`` as the CPU plugin's
    integer Eltwise does (the rule under test): truncated to i32 as x86's
    ``cvttss2si`` does (NaN, infinities and values outside i32's range give
    i32::MIN), then i8 and u8 saturate, i16 and u16 keep the low bits, u32
    and u64 reinterpret, i64 sign-extends."""
    v = np.asarray(values, np.float64)
    with np.errstate(invalid="ignore"):
        fits = (v >= -2.0**31) & (v < 2.0**31)
    wide = np.where(fits, np.trunc(np.where(fits, v, 0)), -(2**31)).astype(np.int64)
    if dt in (np.int8, np.uint8):
        info = np.iinfo(dt)
        return np.clip(wide, info.min, info.max).astype(dt)
    return wide.astype(np.int32).astype(dt)


def integer_power_and_divide(core: ov.Core) -> None:
    """Integer Power (bases 2, 3, -2, 0, 1, -1, 7, 10; exponents negative,
    0, the type's width and past it) and Divide (by zero, INT_MIN by -1,
    dividends past 2^24) at run time, static and dynamic shapes, i8, u8,
    i16, u16, i32, u32, i64 and u64, against ``plugin_integer`` of the f32
    result (f32 operands: pow or divide in f32); then ONNX's bit-shift node
    tests converted by OpenVINO's frontend (a Power of 2 then a Divide or
    Multiply) that shift by the width or more, or by a negative count (an
    i8 Multiply is computed in f32 as well; an i32 Multiply wraps)."""
    base = np.array([2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, -2, -2, 0, 0, 1, -1, -1, 7, 10])
    exponent = np.array([-2, -1, 0, 1, 7, 8, 31, 32, 33, 63, 20, 21, 31, 32, -1, 0, -5, -3, -4, 12, 10])
    dividend = np.array([7, -7, 0, -8, 4, -1, -2**31, -2**31, 2**31 - 1, 16777217, 100, -100, 1, 127, -128, 255, 255])
    divisor = np.array([0, 0, 0, 0, 0, 0, -1, 1, -1, 1, 3, 3, -2**31, -1, -1, 2, 1])
    kinds = (("Power", ops.power, base, exponent, np.power), ("Divide", ops.divide, dividend, divisor, np.divide))
    for dt in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64):
        info = np.iinfo(dt)
        for name, op, xs, ys, model in kinds:
            keep = (xs >= info.min) & (xs <= info.max) & (ys >= info.min) & (ys <= info.max)
            x, y = xs[keep].astype(dt), ys[keep].astype(dt)
            with np.errstate(all="ignore"):
                want = plugin_integer(model(x.astype(np.float32), y.astype(np.float32)), dt)
            for dims in ([x.size], [-1]):
                a, b = ops.parameter(dims, dt), ops.parameter(dims, dt)
                try:
                    out, layers = run(core, ov.Model([op(a, b)], [a, b]), [x, y])
                except RuntimeError as e:
                    print(f"  {name} {dt.__name__} {dims}: OpenVINO refuses: {str(e).splitlines()[0]}")
                    continue
                got = np.asarray(out).astype(np.float64).astype(np.int64).astype(dt)
                print(f"  {name} {dt.__name__} {dims}: {x.tolist()} by {y.tolist()}: {got.tolist()} "
                      f"(rule: {int((got == want).sum())} of {got.size}) [{layers}]")
    import io
    import warnings
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        cases = [c for c in collect_testcases(None) if c.name.startswith("test_bitshift")
                 and ("width" in c.name or "negative_shift" in c.name or "overflow" in c.name)]
    for case in sorted(cases, key=lambda c: c.name):
        model = ov.convert_model(io.BytesIO(case.model.SerializeToString()))
        inputs = [np.asarray(a) for a in case.data_sets[0][0]]
        compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        got = compiled(inputs)[0]
        x, count = inputs
        dt = x.dtype.type
        with np.errstate(all="ignore"):
            shift = plugin_integer(np.power(np.float32(2), count.astype(np.float32)), dt)
            if "right" in case.name:
                want = plugin_integer(x.astype(np.float32) / shift.astype(np.float32), dt)
            elif dt == np.int8:
                want = plugin_integer(x.astype(np.float32) * shift.astype(np.float32), dt)
            else:
                # An i32 Multiply is not computed in f32: it wraps.
                want = (x.astype(np.int64) * shift.astype(np.int64)).astype(dt)
        print(f"  {case.name}: {x.tolist()} by {count.tolist()}: OpenVINO {got.tolist()}, "
              f"rule {want.tolist()}, ONNX {np.asarray(case.data_sets[0][1][0]).tolist()}")


if __name__ == "__main__":
    main()
