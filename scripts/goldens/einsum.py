"""Einsum-7: matrix products, batch products with a broadcasting ellipsis,
transposes, traces and diagonals (repeated labels), sums, implicit mode,
three inputs, outer products, labels whose dims broadcast (1 against n),
an ellipsis covering no dims and one summed out, integer and f16 inputs; on
dynamic and interval dims with static bindings (some that OpenVINO rejects),
and invalid edits (label dims, ranks, ellipsis dims)."""

import numpy as np
import openvino.opset7 as ops7

import gen_op_goldens as g

D = g.D


def E(inputs, equation, name):
    return g.N(ops7.einsum(inputs, equation), name)


def build():
    # Two-operand products, transposes and sums on dynamic dims.
    a = g.P("a", [-1, D(2, 10)])
    b = g.P("b", [D(2, 10), -1])
    v = g.P("v", [-1])
    w = g.P("w", [D(1, 6)])
    g.case(
        "einsum_matmul",
        "Einsum-7 ab,bc->ac, ij->ji, ij->, outer product i,j->ij, dot i,i->, matrix-vector ab,b->a",
        [a, b, v, w],
        [
            E([a, b], "ab,bc->ac", "matmul"),
            E([a], "ij->ji", "transpose"),
            E([b], "ij->", "sum_all"),
            E([v, w], "i,j->ij", "outer"),
            E([v, v], "i,i->", "dot"),
            E([a, w], "ab,b->a", "matvec"),
        ],
        [
            {"a": [3, 4], "b": [4, 5], "v": [5], "w": [4]},
            {"a": [1, 2], "b": [2, 1], "v": [1], "w": [1]},
            # a's second dim against w: 4 and 3 do not broadcast.
            {"a": [2, 4], "b": [4, 2], "v": [3], "w": [3]},
        ],
    )

    # Batch products whose ellipsis dims broadcast, and ellipsis edge cases.
    x = g.P("x", [-1, 1, 3, -1])
    y = g.P("y", [5, -1, 2])
    z = g.P("z", [2, 3])
    one = g.P("one", [1])
    g.case(
        "einsum_ellipsis",
        "Einsum-7 ...ij,...jk->...ik with ellipsis dims [N,1] and [5] broadcast, implicit ...ij,...jk, a...->..., a...,...->a..., ab...->ab (no dims), ...ab->ab (summed)",
        [x, y, z, one],
        [
            E([x, y], "...ij,...jk->...ik", "batch_matmul"),
            E([x, y], "...ij,...jk", "batch_matmul_implicit"),
            E([z], "a...->...", "sum_first"),
            E([z, one], "a...,...->a...", "scale"),
            E([z], "ab...->ab", "no_dims"),
            E([x], "...ab->ab", "ellipsis_summed"),
        ],
        [
            {"x": [2, 1, 3, 4], "y": [5, 4, 2]},
            {"x": [1, 1, 3, 2], "y": [5, 2, 2]},
            # The contracted dim: 4 against 3.
            {"x": [2, 1, 3, 4], "y": [5, 3, 2]},
        ],
    )

    # Repeated labels: traces and diagonals.
    s = g.P("s", [-1, -1])
    t = g.P("t", [D(1, 8), -1, 4])
    u = g.P("u", [-1, 3, -1])
    o = g.P("o", [-1, 2, -1])
    g.case(
        "einsum_diagonal",
        "Einsum-7 trace ii->, diagonal ii->i, iij->ij, kii->k, kii->ki, iji->ij on dynamic dims",
        [s, t, u, o],
        [
            E([s], "ii->", "trace"),
            E([s], "ii->i", "diagonal"),
            E([t], "iij->ij", "iij"),
            E([u], "kii->k", "batch_trace"),
            E([u], "kii->ki", "batch_diagonal"),
            E([o], "iji->ij", "iji"),
        ],
        [
            {"s": [4, 4], "t": [3, 3, 4], "u": [2, 3, 3], "o": [3, 2, 3]},
            {"s": [1, 1], "t": [1, 1, 4], "u": [5, 3, 3], "o": [1, 2, 1]},
            # Not square: the diagonal needs equal dims.
            {"s": [3, 4], "t": [3, 3, 4], "u": [2, 3, 3], "o": [3, 2, 3]},
        ],
    )

    # Implicit mode (sorted labels, capitals first) and three inputs.
    p = g.P("p", [-1, 3])
    q = g.P("q", [3, D(2, 5)])
    r = g.P("r", [D(2, 5), -1])
    m = g.P("m", [D(2, 5), -1, 4])
    g.case(
        "einsum_implicit_three",
        "Einsum-7 implicit ab,bc (ac), ba (ab), AbC (ACb), i,i (scalar); three inputs ab,bc,cd->ad and ab,bc,cd (implicit), ab,bcd,bc->ca",
        [p, q, r, m],
        [
            E([p, q], "ab,bc", "implicit_matmul"),
            E([p], "ba", "implicit_transpose"),
            E([m], "AbC", "implicit_capitals"),
            E([q, q], "ij,ij", "implicit_inner"),
            E([p, q, r], "ab,bc,cd->ad", "three"),
            E([p, q, r], "ab,bc,cd", "three_implicit"),
            E([q, m, p], "bc,cad,ab->ca", "three_spec"),
        ],
        [
            {"p": [2, 3], "q": [3, 4], "r": [4, 5], "m": [4, 2, 4]},
            {"p": [1, 3], "q": [3, 2], "r": [2, 1], "m": [2, 1, 4]},
            # c: 4 in q, 3 in m.
            {"p": [2, 3], "q": [3, 4], "r": [4, 5], "m": [3, 2, 4]},
        ],
    )

    # Labels whose dims broadcast (1 against n), and integer and f16 data.
    c1 = g.P("c1", [2, 1])
    c3 = g.P("c3", [3, 4])
    k = g.P("k", [-1, 3], np.int32)
    kk = g.P("kk", [3, -1], np.int32)
    h = g.P("h", [2, -1], np.float16)
    hh = g.P("hh", [-1, 3], np.float16)
    g.case(
        "einsum_types_broadcast",
        "Einsum-7 label dims 1 against 3 (ab,bc->ac, ab,ab->ab), i32 and f16 products (f16 computed in f32 as the CPU plugin), i32 trace",
        [c1, c3, k, kk, h, hh],
        [
            E([c1, c3], "ab,bc->ac", "label_broadcast"),
            E([c1, c3], "ab,cb->acb", "label_broadcast_kept"),
            E([k, kk], "ab,bc->ca", "i32_matmul"),
            E([kk, k], "ij,ji->", "i32_trace"),
            E([h, hh], "ab,bc->ac", "f16_matmul"),
        ],
        [
            {"k": [2, 3], "kk": [3, 2], "h": [2, 5], "hh": [5, 3]},
            {"k": [1, 3], "kk": [3, 1], "h": [2, 1], "hh": [1, 3]},
        ],
    )
    complex_cases()
    invalid_cases()


def invalid_cases():
    g.EXPECTED_RULES.update(
        {
            "invalid_einsum_label_dims": "einsum-label-dims",
            "invalid_einsum_rank": "einsum-rank",
            "invalid_einsum_ellipsis": "broadcast-incompatible",
        }
    )
    a = g.P("a", [2, 3])
    b = g.P("b", [3, 4])
    e = E([a, b], "ab,bc->ac", "einsum")
    g.INVALID.append(("invalid_einsum_label_dims", "einsum", "b: [3,4] -> [5,4] (label b is 3 in a)", g.ov.Model([ops7.result(e)], [a, b]), g._param_edit("b", [5, 4])))

    a = g.P("a", [2, 3])
    e = E([a], "ab->ba", "einsum")
    g.INVALID.append(("invalid_einsum_rank", "einsum", "a: [2,3] -> [2,3,4] (subscript ab names two dims)", g.ov.Model([ops7.result(e)], [a]), g._param_edit("a", [2, 3, 4])))

    a = g.P("a", [2, 3, 4])
    b = g.P("b", [4, 5])
    e = E([a, b], "...ij,...jk->...ik", "einsum")
    g.INVALID.append(("invalid_einsum_ellipsis", "einsum", "a: [2,3,4] -> [2,3,3,4]; b: [4,5] -> [4,4,5] (ellipsis dims [2,3] and [4])", g.ov.Model([ops7.result(e)], [a, b]), lambda xml: g._param_edit("b", [4, 4, 5])(g._param_edit("a", [2, 3, 3, 4])(xml))))


def complex_cases():
    # Longer chains, diagonals across several inputs, labels that broadcast
    # mid-chain, an ellipsis with a diagonal, and narrow integer types.
    a = g.P("a", [-1, 4, 5])
    b = g.P("b", [5, D(2, 8)])
    c = g.P("c", [D(2, 8), 4, -1])
    sq = g.P("sq", [-1, 3, 3])
    d = g.P("d", [-1, 1])
    m2 = g.P("m2", [3, -1])
    bm = g.P("bm", [4, -1, 16])
    bn = g.P("bn", [4, 16, -1])
    i8 = g.P("i8", [3, -1], np.int8)
    i8t = g.P("i8t", [-1, 3], np.int8)
    u8 = g.P("u8", [-1, 3], np.uint8)
    u8t = g.P("u8t", [3, -1], np.uint8)
    g.case(
        "einsum_complex",
        "Einsum-7 abc,cd,dbe->ea, four inputs, diagonals across inputs (aab,bcc,ca->b), a label 1 against n mid-chain, ...ii->...i, bij,bjk->bik on 16x16, i8 and u8 products",
        [a, b, c, sq, d, m2, bm, bn, i8, i8t, u8, u8t],
        [
            E([a, b, c], "abc,cd,dbe->ea", "chain3"),
            E([b, c, a, b], "cd,dbe,abc,cf->fae", "chain4"),
            E([sq, sq, m2], "aab,bcc,ca->b", "diagonals"),
            E([a, d, b], "abc,xd,cd->xb", "mid_broadcast"),
            E([sq], "...ii->...i", "ellipsis_diagonal"),
            E([bm, bn], "bij,bjk->bik", "batch16"),
            E([bm, bn], "bij,bjk->kb", "batch16_summed"),
            E([i8, i8t], "ij,ji->i", "i8_products"),
            E([u8, u8t], "ij,jk->ik", "u8_products"),
        ],
        [
            {"a": [3, 4, 5], "b": [5, 6], "c": [6, 4, 2], "sq": [3, 3, 3], "d": [2, 1], "m2": [3, 3], "bm": [4, 16, 16], "bn": [4, 16, 16], "i8": [3, 5], "i8t": [5, 3], "u8": [5, 3], "u8t": [3, 4]},
            {"a": [1, 4, 5], "b": [5, 2], "c": [2, 4, 1], "sq": [3, 3, 3], "d": [1, 1], "m2": [3, 1], "bm": [4, 1, 16], "bn": [4, 16, 1], "i8": [3, 1], "i8t": [1, 3], "u8": [1, 3], "u8t": [3, 1]},
        ],
    )
