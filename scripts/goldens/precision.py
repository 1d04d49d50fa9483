"""f16 models as OpenVINO's CPU plugin computes them (executor::Precision's
Plugin policy, docs/architecture.md "f16 and bf16 models"): chains of f16
layers whose per-layer rounding would differ from f32 compute with one
rounding at the Result, a Convert to f16 and back mid-graph (not rounded),
an f16 Convert of a compile-time constant (rounded), and attention of f16
operands without a scale (the scale rounded to f16)."""

import numpy as np
import openvino as ov
import openvino.opset13 as ops13

import gen_op_goldens as g

F16 = np.float16
F32 = np.float32


def build():
    rng = np.random.default_rng(17)
    x = g.P("x", [-1, 8], F16)
    w = g.C(rng.uniform(-1, 1, (8, 8)).astype(F16), "w", F16)
    b = g.C(rng.uniform(-1, 1, (8,)).astype(F16), "b", F16)
    mm = g.N(ops13.matmul(x, w, False, False), "mm")
    biased = g.N(ops13.add(mm, b), "biased")
    act = g.N(ops13.multiply(ops13.exp(ops13.multiply(biased, g.C(0.25, "quarter", F16))), biased), "act")
    probs = g.N(ops13.softmax(act, -1), "probs")
    # A round trip through f32 and back to f16 mid-graph: the plugin drops it.
    wide = g.N(ops13.convert(act, "f32"), "act_f32")
    narrow = g.N(ops13.convert(ops13.multiply(wide, g.C(1.5, "k", F32)), "f16"), "act_f16")
    mixed = g.N(ops13.add(narrow, biased), "mixed")
    # An f32 input made f16 mid-graph and multiplied by f16 weights.
    y = g.P("y", [-1, 8], F32)
    y16 = g.N(ops13.multiply(ops13.convert(y, "f16"), b), "y_times_b")
    g.case(
        "precision_f16_chain",
        "f16 MatMul, Add, Exp, Multiply, Softmax, an f16 -> f32 -> f16 round trip and an f32 input converted to f16: computed in f32, rounded at the Results",
        [x, y],
        [probs, mixed, y16],
        [{"x": [3, 8], "y": [2, 8]}],
    )

    # A compile-time constant made f16 (folded, so rounded, before the
    # plugin retypes the rest): 1/sqrt of the input's last dim.
    h = g.P("h", [-1, 12], F16)
    depth = ops13.convert(ops13.gather(ops13.shape_of(h, "i64"), g.C([1], "last"), g.C(0, "axis0")), "f32")
    scale = g.N(ops13.convert(ops13.divide(g.C([1.0], "one", F32), ops13.sqrt(depth)), "f16"), "scale_f16")
    scaled = g.N(ops13.add(ops13.multiply(h, scale), h), "scaled")
    g.case(
        "precision_f16_constant_scale",
        "an f16 Convert of a value folded from ShapeOf (1/sqrt(12), rounded to f16) multiplying an f16 input, then an Add",
        [h],
        [scaled],
        [{"h": [2, 12]}],
    )

    q = g.P("q", [1, 2, 4, 8], F16)
    k = g.P("k", [1, 2, 5, 8], F16)
    v = g.P("v", [1, 2, 5, 8], F16)
    outs = [
        g.N(ops13.scaled_dot_product_attention(q, k, v, None, None, False), "plain"),
        g.N(ops13.scaled_dot_product_attention(q, k, v, None, None, True), "causal"),
        g.N(ops13.scaled_dot_product_attention(q, k, v, g.C(np.zeros((4, 5), F16), "zero_mask", F16), None, False), "masked"),
    ]
    g.case(
        "precision_f16_attention",
        "ScaledDotProductAttention-13 of f16 operands without a scale input: the default scale 1/sqrt(8) rounded to f16, computed in f32",
        [q, k, v],
        outs,
        [{"q": [1, 2, 4, 8], "k": [1, 2, 5, 8], "v": [1, 2, 5, 8]}],
    )
