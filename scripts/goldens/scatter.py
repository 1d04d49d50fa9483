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
import openvino.opset5 as ops5
import openvino.opset6 as ops6
import openvino.opset8 as ops8

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


def build():
    gather_elements_cases()
    gather_nd_cases()
