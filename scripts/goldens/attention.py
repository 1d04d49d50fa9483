"""ScaledDotProductAttention-13: no mask, causal (L = S and L != S), boolean
and float masks broadcast over batch and heads, a scalar mask, an explicit
scale, batch dims broadcast between query, key and value, dynamic dims."""

import numpy as np
import openvino as ov
import openvino.opset13 as ops13

import gen_op_goldens as g

F32 = np.float32


def sdpa(q, k, v, name, mask=None, scale=None, causal=False):
    return g.N(ops13.scaled_dot_product_attention(q, k, v, mask, scale, causal), name)


def build():
    q = g.P("q", [-1, 2, -1, 8])
    k = g.P("k", [-1, 2, -1, 8])
    v = g.P("v", [-1, 2, -1, 6])
    fmask = g.P("fmask", [-1, 1, -1, -1])
    bmask = g.P("bmask", [1, -1, -1], np.bool_)
    outs = [
        sdpa(q, k, v, "plain"),
        sdpa(q, k, v, "causal", causal=True),
        sdpa(q, k, v, "float_mask", mask=fmask),
        sdpa(q, k, v, "bool_mask", mask=bmask),
        sdpa(q, k, v, "scalar_mask", mask=g.C(np.array(0.5, F32), "mask_half", F32)),
        sdpa(q, k, v, "scaled", mask=fmask, scale=g.C(np.array(0.25, F32), "scale_q", F32)),
    ]
    g.case(
        "attention_sdpa",
        "ScaledDotProductAttention-13: causal, float/boolean/scalar masks, scale, dynamic batch and lengths",
        [q, k, v, fmask, bmask],
        outs,
        [
            {"q": [2, 2, 5, 8], "k": [2, 2, 7, 8], "v": [2, 2, 7, 6], "fmask": [2, 1, 5, 7], "bmask": [1, 5, 7]},
            {"q": [1, 2, 3, 8], "k": [1, 2, 3, 8], "v": [1, 2, 3, 6], "fmask": [1, 1, 3, 3], "bmask": [1, 3, 3]},
        ],
    )
    # Batch dims broadcast: one key/value head shared by four query heads,
    # and 3-D operands.
    q4 = g.P("q", [-1, 4, -1, 8])
    kv1 = g.P("k", [-1, 1, -1, 8])
    vv1 = g.P("v", [-1, 1, -1, 8])
    q3 = g.P("q3", [-1, -1, 4])
    k3 = g.P("k3", [1, -1, 4])
    outs = [
        sdpa(q4, kv1, vv1, "shared_kv"),
        sdpa(q4, kv1, vv1, "shared_kv_causal", causal=True),
        sdpa(q3, k3, k3, "rank3"),
    ]
    g.case(
        "attention_broadcast",
        "ScaledDotProductAttention-13: batch dims broadcast between query, key and value; 3-D operands",
        [q4, kv1, vv1, q3, k3],
        outs,
        [{"q": [1, 4, 6, 8], "k": [1, 1, 4, 8], "v": [1, 1, 4, 8], "q3": [2, 5, 4], "k3": [1, 3, 4]}],
    )
