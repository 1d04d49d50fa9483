"""f16 models as OpenVINO's CPU plugin computes them (executor::Precision's
Plugin policy, docs/architecture.md "f16 and bf16 models"): chains of f16
layers whose per-layer rounding would differ from f32 compute with one
rounding at the Result, a Convert to f16 and back mid-graph (not rounded),
an f16 Convert of a compile-time constant (rounded), attention of f16
operands without a scale (the scale rounded to f16 when the query's last dim
is static, f32 when it is dynamic), and f16 Loop, TensorIterator and If
bodies (f32 throughout, compile-time constants of a body folded in f16)."""

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

    bodies()
    dynamic_attention()
    bf16_attention()
    bf16_scaled_products()


def bodies():
    """f16 Loop, TensorIterator and If bodies: the CPU plugin computes them in
    f32 throughout (back edges, body Results and concatenated slices not
    rounded until a Result of the model), and folds a compile-time constant
    inside a body in f16 (scripts/probe_cpu_precision.py's f16_bodies)."""
    rng = np.random.default_rng(1717)
    # Loop of 4 iterations: acc' = acc * a + b * w, w an f16 Constant of the
    # body; the last acc, every acc, and the last acc times 1.1 outside.
    init = g.P("init", [-1, 8], F16)
    a = g.P("a", [8], F16)
    b = g.P("b", [8], F16)
    bacc = ops13.parameter([-1, 8], F16, name="acc")
    ba = ops13.parameter([8], F16, name="a_in")
    bb = ops13.parameter([8], F16, name="b_in")
    it = ops13.parameter([], np.int64, name="iteration")
    w = g.C(rng.uniform(0.5, 1.5, (8,)).astype(F16), "w", F16)
    nxt = g.N(ops13.add(ops13.multiply(bacc, ba), ops13.multiply(bb, w)), "next")
    r_acc = ops13.result(nxt)
    r_all = ops13.result(ops13.unsqueeze(nxt, g.C([0], "axis0")))
    loop = ops13.loop(g.C(4, "trip"), g.C(True, "go", np.bool_))
    loop.set_function(ov.Model([ops13.result(g.C(True, "go_on", np.bool_)), r_acc, r_all], [it, bacc, ba, bb], "body"))
    loop.set_special_body_ports([0, 0])
    loop.set_merged_input(bacc, init.output(0), r_acc.output(0))
    loop.set_invariant_input(ba, a.output(0))
    loop.set_invariant_input(bb, b.output(0))
    g.N(loop, "loop")
    last = loop.get_iter_value(r_acc.output(0), -1)
    every = loop.get_concatenated_slices(r_all.output(0), 0, 1, 1, -1, 0)
    outer = g.N(ops13.multiply(last, g.C(1.1, "k", F16)), "last_times_k")
    g.case(
        "precision_f16_loop",
        "an f16 Loop (acc * a + b * w, 4 iterations): computed in f32 through the back edge, the concatenated slices and the Multiply after the Loop, rounded at the Results",
        [init, a, b],
        [(last, "last"), (every, "every"), (outer, "outer")],
        [{"init": [3, 8]}],
    )

    # TensorIterator over axis 0 of xs: acc' = acc * a + x_t * (s * 40), s =
    # Convert(1/sqrt(ShapeOf(a)[0]), f16) computed inside the body (folded in
    # f16: 1/sqrt(8) rounded); every acc * 1.3 through a Convert to f32 and
    # back to f16 (not rounded), concatenated.
    xs = g.P("xs", [-1, 2, 8], F16)
    h = g.P("h", [2, 8], F16)
    a = g.P("a", [8], F16)
    bx = ops13.parameter([1, 2, 8], F16, name="x_t")
    ba = ops13.parameter([8], F16, name="a_in")
    bh = ops13.parameter([2, 8], F16, name="h_in")
    depth = ops13.convert(ops13.gather(ops13.shape_of(ba, "i64"), g.C([0], "first"), g.C(0, "axis0")), "f32")
    scale = g.N(ops13.convert(ops13.divide(g.C([1.0], "one", F32), ops13.sqrt(depth)), "f16"), "scale")
    step = ops13.multiply(ops13.squeeze(bx, g.C([0], "squeeze0")), ops13.multiply(scale, g.C(40.0, "forty", F16)))
    nxt = g.N(ops13.add(ops13.multiply(bh, ba), step), "next")
    trip = ops13.convert(ops13.convert(ops13.multiply(nxt, g.C(1.3, "k", F16)), "f32"), "f16")
    rh = ops13.result(nxt)
    ry = ops13.result(ops13.unsqueeze(trip, g.C([0], "unsqueeze0")))
    ti = ops13.tensor_iterator()
    ti.set_body(ov.Model([rh, ry], [bx, ba, bh], "body"))
    ti.set_sliced_input(bx, xs.output(0), 0, 1, 1, -1, 0)
    ti.set_invariant_input(ba, a.output(0))
    ti.set_merged_input(bh, h.output(0), rh.output(0))
    g.N(ti, "ti")
    g.case(
        "precision_f16_tensor_iterator",
        "an f16 TensorIterator whose body folds 1/sqrt(ShapeOf(a)[0]) converted to f16 (rounded) and converts to f32 and back (not rounded): computed in f32 through the back edge and the concatenation",
        [xs, h, a],
        [(ti.get_iter_value(rh.output(0), -1), "last"), (ti.get_concatenated_slices(ry.output(0), 0, 1, 1, -1, 0), "every")],
        [{"xs": [5, 2, 8]}],
    )

    # If: then exp(x * y) + z, else x * y - z, on cond and on not cond (so
    # both bodies run); each output times 1.1.
    cond = g.P("cond", [], np.bool_)
    ps = [g.P(n, [-1, 8], F16) for n in "xyz"]

    def if_op(condition, name):
        tp = [ops13.parameter([-1, 8], F16, name="then_" + n) for n in "xyz"]
        ep = [ops13.parameter([-1, 8], F16, name="else_" + n) for n in "xyz"]
        tr = ops13.result(ops13.add(ops13.exp(ops13.multiply(tp[0], tp[1])), tp[2]))
        er = ops13.result(ops13.subtract(ops13.multiply(ep[0], ep[1]), ep[2]))
        node = ops13.if_op(condition)
        node.set_then_body(ov.Model([tr], tp, "then"))
        node.set_else_body(ov.Model([er], ep, "else"))
        for p, t, e in zip(ps, tp, ep):
            node.set_input(p.output(0), t, e)
        out = node.set_output(tr, er)
        g.N(node, name)
        return out

    chosen = if_op(cond.output(0), "if_cond")
    other = if_op(g.N(ops13.logical_not(cond), "not_cond").output(0), "if_not_cond")
    g.case(
        "precision_f16_if",
        "f16 Ifs (then exp(x * y) + z, else x * y - z; one on cond, one on not cond) and Multiplies after them: computed in f32, rounded at the Results",
        [cond] + ps,
        [
            (chosen, "chosen"),
            (other, "other"),
            (g.N(ops13.multiply(chosen, g.C(1.1, "k", F16)), "chosen_times_k"), "chosen_scaled"),
            (g.N(ops13.multiply(other, g.C(1.1, "k", F16)), "other_times_k"), "other_scaled"),
        ],
        [{"x": [3, 8], "y": [3, 8], "z": [3, 8]}],
    )


def dynamic_attention():
    """ScaledDotProductAttention of f16 operands without a scale whose query's
    last dim is dynamic: the decomposition's 1/sqrt(E) is not folded, so the
    CPU plugin computes it in f32 like the rest (a static E gives the f16
    scale: precision_f16_attention)."""
    q = g.P("q", [1, 2, -1, -1], F16)
    k = g.P("k", [1, 2, -1, -1], F16)
    v = g.P("v", [1, 2, -1, 8], F16)
    outs = [
        g.N(ops13.scaled_dot_product_attention(q, k, v, None, None, False), "plain"),
        g.N(ops13.scaled_dot_product_attention(q, k, v, None, None, True), "causal"),
    ]
    g.case(
        "precision_f16_attention_dynamic",
        "ScaledDotProductAttention-13 of f16 operands without a scale, the query's last dim dynamic: the default scale 1/sqrt(12) in f32, not rounded to f16",
        [q, k, v],
        outs,
        [{"q": [1, 2, 4, 12], "k": [1, 2, 5, 12], "v": [1, 2, 5, 8]}],
    )


def bf16_attention():
    """ScaledDotProductAttention of bf16 operands as the CPU plugin computes
    it on AVX-512 (scripts/probe_cpu_precision.py's bf16_attention): a scale
    known at compile time (the default 1/sqrt(E) of a static E, or a
    constant) folded into K rounded to bf16, the product Q.K^T rounded to
    bf16, a scale known only at run time and the mask applied in f32, the
    softmax rounded to bf16."""
    # f32 Parameters made bf16 (the goldens' inputs and outputs are f32).
    params = [g.P(n, shape, F32) for n, shape in (("q", [2, 3, 4, 8]), ("k", [2, 3, 6, 8]), ("v", [2, 3, 6, 8]), ("mask", [4, 6]), ("scale", []))]
    q, k, v, mask, scale = (g.N(ops13.convert(p, "bf16"), p.get_friendly_name() + "_bf16") for p in params)
    const_scale = ops13.convert(g.C(0.3, "point_three", F32), "bf16")
    attention = [
        (ops13.scaled_dot_product_attention(q, k, v, None, None, False), "plain"),
        (ops13.scaled_dot_product_attention(q, k, v, None, None, True), "causal"),
        (ops13.scaled_dot_product_attention(q, k, v, mask, None, False), "masked"),
        (ops13.scaled_dot_product_attention(q, k, v, mask, const_scale, False), "constant_scale"),
        (ops13.scaled_dot_product_attention(q, k, v, mask, scale, False), "input_scale"),
    ]
    outs = [g.N(ops13.convert(g.N(node, name + "_bf16"), "f32"), name) for node, name in attention]
    g.case(
        "precision_bf16_attention",
        "ScaledDotProductAttention-13 of bf16 operands (default, constant and input scales, causal, a float mask): rounded where the CPU plugin's bf16 attention rounds",
        params,
        outs,
        [{}],
    )


def bf16_scaled_products():
    """bf16 MatMuls scaled by a value known at compile time: the CPU plugin
    moves a Multiply or Divide of a product read by it alone into the second
    operand (rounded to bf16 there), but not the scale of a product an
    identical MatMul shares, nor a scale of the first operand
    (scripts/probe_cpu_precision.py's bf16_scaled_products)."""
    shapes = (("q", [2, 3, 4, 8]), ("k1", [2, 3, 6, 8]), ("k2", [2, 3, 6, 8]), ("k3", [2, 3, 6, 8]), ("m", [2, 3, 4, 6]))
    params = [g.P(n, shape, F32) for n, shape in shapes]
    q, k1, k2, k3, m = (g.N(ops13.convert(p, "bf16"), p.get_friendly_name() + "_bf16") for p in params)
    root8 = ops13.sqrt(ops13.convert(g.C(8.0, "eight", F32), "bf16"))
    point3 = ops13.convert(g.C(0.3, "point_three", F32), "bf16")
    products = [
        (ops13.add(ops13.divide(ops13.matmul(q, k1, False, True), root8), m), "divided"),
        (ops13.multiply(point3, ops13.matmul(q, k2, False, True)), "multiplied"),
        (ops13.matmul(ops13.multiply(q, point3), k1, False, True), "first_scaled"),
        (ops13.multiply(ops13.matmul(q, k3, False, True), point3), "shared_scaled"),
        (ops13.matmul(q, k3, False, True), "shared_twin"),
    ]
    g.case(
        "precision_bf16_scaled_products",
        "bf16 MatMul(q, k^T) divided by sqrt(8) then plus a mask and multiplied by 0.3 (the plugin folds these scales into k), of q times 0.3, and a scaled product an identical MatMul shares (both per op)",
        params,
        [g.N(ops13.convert(g.N(node, name + "_bf16"), "f32"), name) for node, name in products],
        [{}],
    )
