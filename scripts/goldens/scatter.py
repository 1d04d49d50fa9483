"""GatherElements-6, GatherND-5/8, ScatterUpdate-3, ScatterNDUpdate-3/15 and
ScatterElementsUpdate-3/12 on dynamic dims: batch_dims, negative and
repeated indices, every reduction, use_init_val, and shape subgraphs whose
values pass through these ops.

Index Parameters get values in [0, 4) from the executor's golden generator:
their bindings keep every indexed dim at 4 or more. Repeated indices check
OpenVINO's CPU plugin order (the last write wins, reductions accumulate in
index order)."""

import numpy as np
import openvino.opset3 as ops3
import openvino.opset4 as ops4
import openvino.opset5 as ops5
import openvino.opset6 as ops6
import openvino.opset8 as ops8
import openvino.opset12 as ops12
import openvino.opset15 as ops15

import gen_op_goldens as g

F32 = np.float32
I32 = np.int32
I64 = np.int64


def gather_elements_cases():
    x = g.P("x", [-1, 4, g.D(2, 6)])
    i = g.P("i", [-1, 3, -1], I32)
    y = g.P("y", [-1, 5])
    outs = [
        g.N(ops6.gather_elements(x, i, 1), "ge_axis1_param"),
        g.N(ops6.gather_elements(y, g.C([[0, -1, 4], [-5, 2, 2]], "ge_idx_neg", I64), -1), "ge_neg_idx_axis"),
        g.N(ops6.gather_elements(y, g.C([[1, 0, 1, 0, 1], [0, 0, 1, 1, 0], [1, 1, 1, 1, 1]], "ge_idx0", I32), 0), "ge_axis0_const"),
    ]
    g.case(
        "scatter_gather_elements",
        "GatherElements-6: Parameter indices on dynamic dims, negative constant indices, negative axis",
        [x, i, y],
        outs,
        [{"x": [2, 4, 3], "i": [2, 3, 3], "y": [2, 5]}, {"x": [1, 4, 6], "i": [1, 3, 6], "y": [2, 5]}],
    )

    # Values through a shape subgraph: ShapeOf [N, 3, H] picked [H, N, 3].
    z = g.P("z", [-1, 3, -1])
    sh = ops3.shape_of(z)
    ge = g.N(ops6.gather_elements(sh, g.C([2, 0, 1], "ge_perm"), 0), "ge_shape")
    b = g.N(ops3.reshape(z, ge, False), "ge_reshape")
    g.case("scatter_gather_elements_values", "ShapeOf -> GatherElements -> Reshape", [z], [b], [{"z": [2, 3, 5]}, {"z": [1, 3, 1]}])


def gather_nd_cases():
    x = g.P("x", [-1, 4, 5])
    xb = g.P("xb", [-1, 4, 5])
    i = g.P("i", [-1, 2], I64)
    b = g.P("b", [-1, 4, -1, 6])
    bi = g.P("bi", [-1, 4, 3, 1], I32)
    outs = [
        g.N(ops8.gather_nd(x, i, 0), "gnd8_pairs"),
        g.N(ops5.gather_nd(x, i, 0), "gnd5_pairs"),
        g.N(ops8.gather_nd(x, g.C([[-1], [0], [2]], "gnd_idx_neg"), 0), "gnd8_slices_neg"),
        g.N(ops8.gather_nd(x, g.C([[[1, -1, 4]], [[0, 3, 0]]], "gnd_idx_full", I32), 0), "gnd8_elements"),
        g.N(ops8.gather_nd(xb, g.C([[1], [3], [0]], "gnd_idx_b1"), 1), "gnd8_batch1"),
        g.N(ops5.gather_nd(xb, g.C([[1], [3], [0]], "gnd_idx_b1_5"), 1), "gnd5_batch1"),
        g.N(ops8.gather_nd(b, bi, 2), "gnd8_batch2"),
        g.N(ops5.gather_nd(b, bi, 2), "gnd5_batch2_folded"),
    ]
    g.case(
        "scatter_gather_nd",
        "GatherND-5 and -8: element and slice tuples, negative indices, batch_dims 1 and 2 (v5 folds the batch dims)",
        [x, xb, i, b, bi],
        outs,
        [
            {"x": [4, 4, 5], "xb": [3, 4, 5], "i": [6, 2], "b": [2, 4, 5, 6], "bi": [2, 4, 3, 1]},
            {"x": [5, 4, 5], "xb": [3, 4, 5], "i": [1, 2], "b": [1, 4, 4, 6], "bi": [1, 4, 3, 1]},
        ],
    )

    z = g.P("z", [-1, 3, -1])
    sh = ops3.shape_of(z)
    gnd = g.N(ops8.gather_nd(sh, g.C([[2], [0], [-2]], "gnd_pick"), 0), "gnd_shape")
    r = g.N(ops3.reshape(z, gnd, False), "gnd_reshape")
    g.case("scatter_gather_nd_values", "ShapeOf -> GatherND (a negative index) -> Reshape", [z], [r], [{"z": [2, 3, 5]}, {"z": [4, 3, 1]}])


def scatter_update_cases():
    x = g.P("x", [-1, 5, g.D(2, 6)])
    u1 = g.P("u1", [-1, 2, g.D(2, 6)])
    u2 = g.P("u2", [-1, 5, 3])
    i = g.P("i", [3], I32)
    u3 = g.P("u3", [3, 5, g.D(2, 6)])
    outs = [
        g.N(ops3.scatter_update(x, g.C([0, 3], "su_idx"), u1, g.C(1, "su_ax1")), "su_axis1"),
        g.N(ops3.scatter_update(x, g.C([1, 0, 1], "su_idx_dup", I32), u2, g.C(-1, "su_axm1")), "su_neg_axis_dup"),
        g.N(ops3.scatter_update(x, i, u3, g.C([0], "su_ax0_1d", I32)), "su_axis0_param_idx"),
    ]
    g.case(
        "scatter_update",
        "ScatterUpdate-3: axis 1, negative axis with repeated indices, Parameter indices on axis 0",
        [x, u1, u2, i, u3],
        outs,
        [
            {"x": [4, 5, 4], "u1": [4, 2, 4], "u2": [4, 5, 3], "u3": [3, 5, 4]},
            {"x": [5, 5, 6], "u1": [5, 2, 6], "u2": [5, 5, 3], "u3": [3, 5, 6]},
        ],
    )

    # A shape subgraph: ShapeOf [N, 3, 4] with dims 1 and 2 replaced by [12, 1].
    z = g.P("z", [-1, 3, 4])
    sh = ops3.shape_of(z)
    target = g.N(ops3.scatter_update(sh, g.C([1, 2], "su_dims"), g.C([12, 1], "su_vals"), g.C(0, "su_ax0")), "su_shape")
    r = g.N(ops3.reshape(z, target, False), "su_reshape")
    # The same through ScatterNDUpdate ([N, 4, 3]) and ScatterElementsUpdate ([N, 2, 6]).
    nd = g.N(ops4.scatter_nd_update(sh, g.C([[1], [-1]], "snd_dims"), g.C([4, 3], "snd_vals")), "snd_shape")
    r2 = g.N(ops3.reshape(z, nd, False), "snd_reshape")
    el = g.N(ops3.scatter_elements_update(sh, g.C([1, 2], "seu_dims"), g.C([2, 6], "seu_vals"), g.C(0, "seu_ax")), "seu_shape")
    r3 = g.N(ops3.reshape(z, el, False), "seu_reshape")
    g.case(
        "scatter_update_values",
        "ShapeOf -> ScatterUpdate / ScatterNDUpdate / ScatterElementsUpdate -> Reshape",
        [z],
        [r, r2, r3],
        [{"z": [2, 3, 4]}, {"z": [5, 3, 4]}],
    )


def scatter_nd_cases():
    x = g.P("x", [-1, 4, 3])
    u = g.P("u", [5, 3])
    ue = g.P("ue", [4])
    i = g.P("i", [2, 2, 1], I64)
    ui = g.P("ui", [2, 2, 4, 3])
    idx_rows = g.C([[1, 0], [-1, 2], [0, 0], [1, 0], [0, -4]], "snd_rows", I32)
    idx_elems = g.C([[0, 1, 2], [-1, -1, -1], [0, 1, 2], [1, 0, 0]], "snd_elems")
    outs = [
        g.N(ops4.scatter_nd_update(x, idx_rows, u), "snd3_rows_dup"),
        g.N(ops4.scatter_nd_update(x, idx_elems, ue), "snd3_elements"),
        g.N(ops4.scatter_nd_update(x, i, ui), "snd3_param_idx"),
        g.N(ops15.scatter_nd_update(x, idx_rows, u), "snd15_default"),
    ]
    for red in ["none", "sum", "sub", "prod", "min", "max"]:
        outs.append(g.N(ops15.scatter_nd_update(x, idx_rows, u, red), f"snd15_rows_{red}"))
        outs.append(g.N(ops15.scatter_nd_update(x, idx_elems, ue, red), f"snd15_elements_{red}"))
    g.case(
        "scatter_nd_update",
        "ScatterNDUpdate-3 and -15: row and element tuples, negative and repeated indices, every reduction",
        [x, u, ue, i, ui],
        outs,
        [
            {"x": [4, 4, 3]},
            {"x": [6, 4, 3]},
        ],
    )

    # Integer data, a scalar index tuple covering the whole data rank.
    n = g.P("n", [-1], I32)
    un = g.P("un", [3], I32)
    idx = g.C([[2], [0], [2]], "snd_int_idx")
    outs = [g.N(ops15.scatter_nd_update(n, idx, un, red), f"snd15_int_{red}") for red in ["none", "sum", "sub", "prod", "min", "max"]]
    # The updates of a full-rank single tuple are a scalar; OpenVINO's core
    # also takes a one-element tensor there (its CPU plugin does not).
    outs.append(g.N(ops4.scatter_nd_update(n, g.C([1], "snd_scalar_idx"), g.C(7, "snd_scalar_upd", I32)), "snd3_scalar_update"))
    outs.append(g.N(ops4.scatter_nd_update(n, g.C([-1], "snd_one_idx"), g.C([7], "snd_one_upd", I32)), "snd3_one_element_update"))
    g.case("scatter_nd_update_int", "ScatterNDUpdate-15 on i32 with repeated indices; ScatterNDUpdate-3 with a one-element update", [n, un], outs, [{"n": [5]}, {"n": [3]}])


def scatter_nd_bool_cases():
    # Booleans: sum, sub, prod, min, max are or, xor, and, and, or (the spec;
    # OpenVINO's reference agrees). OpenVINO 2026.4's CPU plugin computes
    # `sub` as integer subtraction then tests for nonzero: a false element
    # minus two trues is true there, false (false xor true xor true) here.
    b = g.P("b", [-1], np.bool_)
    idx = g.C([[1], [1], [5], [5], [6], [6], [-1]], "snd_bool_idx")
    upd = g.C(np.array([True, True, True, True, True, True, False]), "snd_bool_upd", np.bool_)
    outs = [g.N(ops15.scatter_nd_update(b, idx, upd, red), f"snd15_bool_{red}") for red in ["none", "sum", "sub", "prod", "min", "max"]]
    g.case("scatter_nd_update_bool", "ScatterNDUpdate-15 on booleans with repeated indices, every reduction", [b], outs, [{"b": [8]}, {"b": [7]}])


def invalid_cases():
    g.EXPECTED_RULES.update(
        {
            "invalid_gather_nd_index_length": "gather-nd-index-length",
            "invalid_scatter_nd_updates": "scatter-updates-shape",
            "invalid_scatter_elements_rank": "scatter-elements-rank",
        }
    )
    x = g.P("x", [2, 3])
    i = g.P("i", [4, 2], I64)
    gnd = g.N(ops8.gather_nd(x, i), "gather_nd")
    g.INVALID.append(("invalid_gather_nd_index_length", "gather_nd", "i: [4,2] -> [4,3] (tuples longer than the data's rank)", g.ov.Model([ops3.result(gnd)], [x, i]), g._param_edit("i", [4, 3])))

    x = g.P("x", [4, 3])
    u = g.P("u", [2, 3])
    snd = g.N(ops4.scatter_nd_update(x, g.C([[0], [2]], "idx"), u), "scatter_nd")
    g.INVALID.append(("invalid_scatter_nd_updates", "scatter_nd", "u: [2,3] -> [2,4] (updates must be indices[:-1] + data[1:])", g.ov.Model([ops3.result(snd)], [x, u]), g._param_edit("u", [2, 4])))

    x = g.P("x", [4, 3])
    i = g.P("i", [2, 3], I64)
    u = g.P("u", [2, 3])
    seu = g.N(ops3.scatter_elements_update(x, i, u, g.C(0, "axis")), "scatter_elements")
    g.INVALID.append(("invalid_scatter_elements_rank", "scatter_elements", "i: [2,3] -> [6] and u: [2,3] -> [6] (indices of another rank than data)", g.ov.Model([ops3.result(seu)], [x, i, u]), lambda xml: g._param_edit("u", [6])(g._param_edit("i", [6])(xml))))


def scatter_elements_cases():
    x = g.P("x", [-1, 4])
    i = g.P("i", [-1, 3], I64)
    u = g.P("u", [-1, 3])
    idx = g.C([[1, 1, -1], [0, 0, 0]], "seu_idx", I32)
    uc = g.P("uc", [2, 3])
    outs = [
        g.N(ops3.scatter_elements_update(x, i, u, g.C(1, "seu_ax1")), "seu3_param_idx"),
        g.N(ops3.scatter_elements_update(x, idx, uc, g.C(-1, "seu_axm1")), "seu3_dup"),
        g.N(ops3.scatter_elements_update(x, g.C([[1, 0, 1], [0, 1, 1]], "seu_idx0"), uc, g.C([0], "seu_ax0")), "seu3_axis0"),
    ]
    for red in ["none", "sum", "prod", "min", "max", "mean"]:
        for init in [True, False]:
            outs.append(g.N(ops12.scatter_elements_update(x, idx, uc, g.C(1, f"seu_ax_{red}_{int(init)}"), red, init), f"seu12_{red}_{'init' if init else 'noinit'}"))
    g.case(
        "scatter_elements_update",
        "ScatterElementsUpdate-3 and -12: Parameter and repeated negative indices, axis 0, every reduction with and without use_init_val",
        [x, i, u, uc],
        outs,
        [{"x": [2, 4], "i": [2, 3], "u": [2, 3]}, {"x": [4, 4], "i": [4, 3], "u": [4, 3]}],
    )

    # Integer data: sums, products and means of non-negative values (the
    # executor's generator draws integers in [0, 4)).
    n = g.P("n", [3, -1], I32)
    un = g.P("un", [2, 3], I32)
    outs = []
    for red in ["sum", "prod", "min", "max", "mean"]:
        for init in [True, False]:
            outs.append(g.N(ops12.scatter_elements_update(n, idx, un, g.C(1, f"seu_int_ax_{red}_{int(init)}"), red, init), f"seu12_int_{red}_{'init' if init else 'noinit'}"))
    g.case("scatter_elements_update_int", "ScatterElementsUpdate-12 on i32: every reduction, with and without use_init_val", [n, un], outs, [{"n": [3, 4]}, {"n": [3, 5]}])

    # Integer means of negative sums: OpenVINO's specification and reference
    # round down (-2/3 -> -1); its 2026.4 CPU plugin truncates toward zero.
    m = g.P("m", [2, -1], I32)
    neg = g.C([[5, -8, 7], [2, 3, -9]], "seu_neg_upd", I32)
    outs = [
        g.N(ops12.scatter_elements_update(m, idx, neg, g.C(1, "seu_mean_ax1"), "mean", True), "seu12_int_mean_negative_init"),
        g.N(ops12.scatter_elements_update(m, idx, neg, g.C(1, "seu_mean_ax2"), "mean", False), "seu12_int_mean_negative_noinit"),
    ]
    g.case("scatter_elements_update_int_mean", "ScatterElementsUpdate-12 integer mean of negative sums (rounded down)", [m], outs, [{"m": [2, 4]}])


def build():
    gather_elements_cases()
    gather_nd_cases()
    scatter_update_cases()
    scatter_nd_cases()
    scatter_nd_bool_cases()
    scatter_elements_cases()
    invalid_cases()
