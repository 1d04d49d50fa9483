"""f16 models as OpenVINO's CPU plugin computes them (executor::Precision's
Plugin policy, docs/architecture.md "f16 and bf16 models"): chains of f16
layers whose per-layer rounding would differ from f32 compute with one
rounding at the Result, a Convert to f16 and back mid-graph (not rounded),
an f16 Convert of a compile-time constant (rounded), attention of f16
operands without a scale (the scale rounded to f16 when the query's last dim
is static, f32 when it is dynamic), and f16 Loop, TensorIterator and If
bodies (f32 throughout, compile-time constants of a body folded in f16);
bf16 attention and scaled products; integer Divides, which the plugin
truncates at run time; integer Power and Divide, which it computes in f32
and truncates back through i32 (ONNX's bit shifts by the width or more)."""

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
    bf16_attention_chains()
    integer_divide()
    reduce_extremes()
    integer_power_and_shifts()


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


def integer_divide():
    """Integer Divides (``m_pythondiv``, the default, as OpenVINO's ONNX
    frontend writes ONNX's Div): the CPU plugin's kernel divides in f32 and
    truncates toward zero at run time, while the Divide of two Constants,
    folded at compile time, floors as the spec says
    (scripts/probe_cpu_precision.py's integer_divide). The inputs (0 to 3)
    are made signed and the divisors odd or constant, never zero."""
    x = g.P("x", [2, 6], np.int32)
    y = g.P("y", [2, 6], np.int32)
    dividend = ops13.subtract(ops13.multiply(x, g.C(7, "seven", np.int32)), g.C(10, "ten", np.int32))
    signs = g.C([1, -1, 1, -1, 1, -1], "signs", np.int32)
    divisor = ops13.multiply(ops13.add(ops13.multiply(y, g.C(2, "two", np.int32)), g.C(1, "one", np.int32)), signs)
    by_constant = g.N(ops13.divide(dividend, g.C([2, -2, 3, -3, 4, -4], "divisors", np.int32)), "by_constant")
    by_tensor = g.N(ops13.divide(dividend, divisor), "by_tensor")
    narrow = g.N(ops13.divide(ops13.convert(dividend, "i8"), ops13.convert(divisor, "i8")), "by_tensor_i8")
    folded = ops13.divide(g.C([-7, 7, -5, 5, -9, 9], "folded_dividends", np.int32), g.C([2, -2, 3, -3, 4, 4], "folded_divisors", np.int32))
    constant = g.N(ops13.add(folded, ops13.multiply(x, g.C(0, "zero", np.int32))), "folded")
    g.case(
        "precision_integer_divide",
        "i32 and i8 Divides of negative dividends by constant and run-time divisors (the plugin truncates toward zero) and a Divide of Constants (folded, floored)",
        [x, y],
        [by_constant, by_tensor, narrow, constant],
        [{}],
    )


def reduce_extremes():
    """Float ReduceMax and ReduceMin of rows masked to infinities: the CPU
    plugin's reductions start from the type's finite limits, so an all -inf
    row gives a ReduceMax of -3.4028235e38 (bf16: -3.3895314e38; f16
    computes in f32), as OpenVINO's reference does, and an Equal to -inf
    after it is false, as in ONNX's attention decomposition; an all +inf
    row gives a ReduceMin of 3.4028235e38, where the reference, which folds
    a reduction of Constants, gives +inf (scripts/probe_cpu_precision.py's
    reduce_extremes). The infinities are logarithms of 0 (the golden files
    record Constants as JSON, which has no infinity)."""
    x = g.P("x", [3, 4], F32)

    def minus_inf(name):
        return ops13.log(g.C(0.0, name, F32))

    # Row 0 below 10 everywhere (all masked), row 1 in part, row 2 nowhere.
    masked_rows = ops13.less(x, g.C([[10.0], [-1.0], [-10.0]], "thresholds", F32))
    low = g.N(ops13.select(masked_rows, minus_inf("zero_low"), x), "low")
    high = ops13.select(masked_rows, ops13.negative(minus_inf("zero_high")), x)
    axis = g.C([1], "axis1")
    top = g.N(ops13.reduce_max(low, axis, False), "max")
    bottom = g.N(ops13.reduce_min(high, axis, False), "min")
    masked = g.N(ops13.equal(ops13.reduce_max(low, axis, True), minus_inf("zero_equal")), "max_is_minus_inf")
    top_bf16 = g.N(ops13.convert(ops13.reduce_max(ops13.convert(low, "bf16"), axis, False), "f32"), "max_bf16")
    bottom_bf16 = g.N(ops13.convert(ops13.reduce_min(ops13.convert(high, "bf16"), axis, False), "f32"), "min_bf16")
    low16 = ops13.convert(low, "f16")
    masked16 = g.N(ops13.equal(ops13.reduce_max(low16, axis, False), ops13.convert(minus_inf("zero_f16"), "f16")), "max_f16_is_minus_inf")
    # log(0) = -inf, log(e) = 1: folded at compile time with the rest.
    rows = ops13.negative(ops13.log(g.C([[0.0, 0.0], [np.e, 0.0], [0.0, 0.0]], "folded_rows", F32)))
    folded = ops13.equal(ops13.reduce_min(rows, axis, False), ops13.negative(minus_inf("zero_folded")))
    # Joined with a run-time value that is true everywhere, so that the
    # Result is not itself a constant.
    folded = g.N(ops13.logical_and(folded, ops13.less(top, g.C(1e30, "huge", F32))), "folded_min_is_plus_inf")
    g.case(
        "precision_reduce_extremes",
        "f32, bf16 and f16 ReduceMax and ReduceMin of rows masked to infinities (the plugin starts from the finite limits), Equal to -inf after them, and a folded ReduceMin of Constants (+inf)",
        [x],
        [top, bottom, masked, top_bf16, bottom_bf16, masked16, folded],
        [{}],
    )


def bf16_attention_chains():
    """Explicit bf16 attention chains MatMul -> Add(mask) -> Softmax ->
    MatMul, which the CPU plugin fuses into its attention subgraph: the
    product rounded, the mask added in f32, the softmax rounded, as its
    ScaledDotProductAttention (scripts/probe_cpu_precision.py's
    bf16_attention_chains); one with a Select between the softmax and the
    second product, and one whose softmax is a Result too, which the plugin
    computes layer by layer, each rounding. Each chain has its own key, so
    that OpenVINO does not merge their products."""
    shapes = [("q", [1, 2, 4, 8]), ("v", [1, 2, 6, 8]), ("m", [1, 1, 4, 6])]
    shapes += [(f"k{i}", [1, 2, 6, 8]) for i in range(3)]
    params = [g.P(n, shape, F32) for n, shape in shapes]
    q, v, m, *keys = (g.N(ops13.convert(p, "bf16"), p.get_friendly_name() + "_bf16") for p in params)

    def chain(name, k, select=False, shared=False):
        scores = ops13.softmax(ops13.add(ops13.matmul(q, k, False, True), m), -1)
        probs = scores
        if select:
            # Rows whose mask is all below -2.5 keep 0, as in ONNX's decomposition.
            empty = ops13.less(ops13.reduce_max(m, g.C([-1], name + "_axis"), True), ops13.convert(g.C(-2.5, name + "_floor", F32), "bf16"))
            probs = ops13.select(empty, ops13.convert(g.C(0.0, name + "_zero", F32), "bf16"), scores)
        out = [g.N(ops13.convert(ops13.matmul(probs, v, False, False), "f32"), name)]
        if shared:
            out.append(g.N(ops13.convert(scores, "f32"), name + "_softmax"))
        return out

    g.case(
        "precision_bf16_attention_chains",
        "bf16 MatMul, mask Add, Softmax, MatMul chains as the plugin fuses them (the mask added in f32), one with a Select after the softmax, and one whose softmax is also a Result (each layer rounded)",
        params,
        chain("fused", keys[0]) + chain("selected", keys[1], select=True) + chain("shared", keys[2], shared=True),
        [{}],
    )


def integer_power_and_shifts():
    """Integer Powers and Divides computed at run time, which the CPU
    plugin computes in f32 and truncates back through i32 as x86 does (NaN,
    infinities and values past i32's range give i32::MIN; i8 saturates it
    to -128): ``precision_integer_power``, Powers of 2 and 3 of i32, i8
    and i64 by counts -8, 6, 20 and 34 (2^34 and 3^20 overflow: i32::MIN
    where the spec wraps; 2^20 in i8 saturates to 127); and
    ``precision_bit_shifts``, ONNX's BitShift as OpenVINO's frontend
    decomposes it (a Power of 2, then a Divide or Multiply) by those
    counts, and Divides by zero: i32::MIN, -128 or 0 where the spec's
    Divide fails (scripts/probe_cpu_precision.py's
    integer_power_and_divide). The inputs (0 to 3) make the counts and
    the signed values."""
    x = g.P("x", [2, 6], np.int32)
    y = g.P("y", [2, 6], np.int32)
    count = ops13.subtract(ops13.multiply(y, g.C(14, "fourteen", np.int32)), g.C(8, "eight", np.int32))
    count8 = ops13.convert(count, "i8")
    count64 = ops13.convert(count, "i64")
    powers = [
        g.N(ops13.power(g.C(2, "two", np.int32), count), "two_to_the_count"),
        g.N(ops13.power(g.C(3, "three", np.int32), count), "three_to_the_count"),
        g.N(ops13.power(g.C(2, "two_i8", np.int8), count8), "two_to_the_count_i8"),
        g.N(ops13.power(g.C(2, "two_i64", np.int64), count64), "two_to_the_count_i64"),
    ]
    g.case(
        "precision_integer_power",
        "i32, i8 and i64 Powers of 2 and 3 by run-time counts -8, 6, 20 and 34: computed in f32, truncated back through i32 (overflow: i32::MIN; i8 saturates)",
        [x, y],
        powers,
        [{}],
    )

    x = g.P("x", [2, 6], np.int32)
    y = g.P("y", [2, 6], np.int32)
    count = ops13.subtract(ops13.multiply(y, g.C(14, "fourteen", np.int32)), g.C(8, "eight", np.int32))
    value = ops13.subtract(ops13.multiply(x, g.C(7, "seven", np.int32)), g.C(10, "ten", np.int32))
    value8, count8 = ops13.convert(value, "i8"), ops13.convert(count, "i8")
    maybe_zero = ops13.subtract(y, g.C(1, "one", np.int32))
    shifts = [
        g.N(ops13.divide(value, ops13.power(g.C(2, "two", np.int32), count)), "right"),
        g.N(ops13.multiply(value, ops13.power(g.C(2, "two_left", np.int32), count)), "left"),
        g.N(ops13.divide(value8, ops13.power(g.C(2, "two_i8", np.int8), count8)), "right_i8"),
        g.N(ops13.divide(value, maybe_zero), "by_zero"),
        g.N(ops13.divide(value8, ops13.convert(maybe_zero, "i8")), "by_zero_i8"),
        g.N(ops13.divide(ops13.convert(value, "i16"), ops13.convert(maybe_zero, "i16")), "by_zero_i16"),
    ]
    g.case(
        "precision_bit_shifts",
        "ONNX BitShift as OpenVINO's frontend decomposes it (Power of 2, then Divide or Multiply) by counts -8, 6, 20 and 34, and i32, i8 and i16 Divides by zero: computed in f32, truncated back through i32",
        [x, y],
        shifts,
        [{}],
    )
