"""Ops the opset coverage test (crates/shape-infer/tests/opset_coverage.rs)
found missing (issue 17): Xor-1, OpenVINO's `v0::Xor` of opset1 (beside
LogicalXor-1, which it equals), numpy and no broadcast. The Python API has no
factory for it, so it is made by name through the opset1 node factory."""

import numpy as np
from openvino.utils.node_factory import _get_node_factory

import gen_op_goldens as g


def xor(a, b, broadcast):
    node = _get_node_factory("opset1").create("Xor", [a.output(0), b.output(0)], {"auto_broadcast": broadcast})
    return node


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
