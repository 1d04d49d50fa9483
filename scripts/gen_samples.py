#!/usr/bin/env python3
"""Regenerate ``ir-samples/`` with OpenVINO's own IR serializer.

Usage (from the repository root)::

    python3 scripts/gen_samples.py [--out ir-samples]

What it writes:

* ``ir-samples/<name>.xml`` + ``<name>.bin`` -- small OpenVINO IR v11 models
  built with ``openvino.opset13`` and saved with
  ``openvino.save_model(model, path, compress_to_fp16=False)``.
* ``ir-samples/golden/<name>.json`` -- OpenVINO's own view of each model after
  reading it back (per-op type/version/output element types and partial
  shapes), both as-is (``"dynamic"``) and after ``model.reshape`` to one or two
  static bindings (``"static_bindings"``).
* ``ir-samples/broken/*.xml`` (+ ``.bin``) -- hand-written invalid IR files,
  each with a ``<!-- broken: ... -->`` comment, plus a README listing the
  expected diagnostics.
* ``ir-samples/README.md`` -- one line per sample, plus the OpenVINO version.

The output is deterministic: all random data comes from fixed numpy seeds and
the script is expected to produce byte-identical files when run twice.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import sys

import numpy as np
import openvino as ov
import openvino.opset13 as ops

# Softmax-8 (axis may be negative). opset13.softmax is already v8, but use the
# opset8 module explicitly so the intent is clear.
import openvino.opset8 as ops8

F32 = np.float32


def _ver() -> str:
    return ov.get_version()


def named(node, name: str, tensor_names: list[str] | None = None):
    """Set the friendly name and (optionally) output-0 tensor names."""
    node.set_friendly_name(name)
    if tensor_names:
        node.output(0).set_names(set(tensor_names))
    return node


def param(name: str, shape, dtype) -> ov.Node:
    p = ops.parameter(ov.PartialShape(shape) if not isinstance(shape, ov.PartialShape) else shape, dtype, name=name)
    p.output(0).set_names({name})
    return p


def const(data: np.ndarray, name: str) -> ov.Node:
    c = ops.constant(data)
    c.set_friendly_name(name)
    return c


def result(value, name: str) -> ov.Node:
    r = ops.result(value)
    r.set_friendly_name(name)
    return r


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


# ---------------------------------------------------------------------------
# Sample models.  Each builder returns (model, description, bindings) where
# bindings is a list of {input_name: [dims]} used for static reshape goldens.
# ---------------------------------------------------------------------------


def m_add_relu_static():
    x = param("input", [1, 3, 4, 4], F32)
    # Several tensor names on one port; a comma in a name is written as "\,".
    x.output(0).set_names({"input", "input.1"})
    x.set_layout(ov.Layout("NCHW"))  # serialized as port-level <rt_info>
    bias = const(rng(1).standard_normal((1, 3, 1, 1)).astype(F32), "/stem/bias")
    add = named(ops.add(x, bias), "/stem/Add", ["/stem/Add_output_0", "stem,add"])
    relu = named(ops.relu(add), "/stem/Relu", ["output"])
    res = result(relu, "output/sink_port_0")
    model = ov.Model([res], [x], "add_relu_static")
    # Model-level rt_info (nested), like convert_model() leaves behind.
    model.set_rt_info("gen_samples.py", ["conversion_parameters", "tool"])
    model.set_rt_info("NCHW", ["framework", "layout"])
    return (
        model,
        "static f32 [1,3,4,4] input, Add with a broadcast Const [1,3,1,1], Relu, Result. "
        "Also: input port with two tensor names (`input,input.1`) and a layout "
        "`<rt_info>` on the port, a tensor name containing a comma (`stem\\,add`), "
        "nested model-level `<rt_info>`.",
        [],
    )


def m_dynamic_batch_reshape():
    x = param("x", [-1, 3, 8, 5], F32)
    target = const(np.array([0, -1], dtype=np.int64), "/flatten/Constant")
    rs = named(ops.reshape(x, target, special_zero=True), "/flatten/Reshape", ["y"])
    res = result(rs, "y/sink_port_0")
    model = ov.Model([res], [x], "dynamic_batch_reshape")
    return (
        model,
        "input `x` [?,3,8,5] (dynamic batch), Reshape special_zero=true to [0,-1] -> [?,120].",
        [{"x": [2, 3, 8, 5]}, {"x": [7, 3, 8, 5]}],
    )


def m_interval_dims():
    shape = ov.PartialShape([ov.Dimension(1, 8), 3, ov.Dimension(2, 10), 5])
    x = param("x", shape, F32)
    start = const(np.array([1], dtype=np.int64), "/crop/start")
    stop = const(np.array([-1], dtype=np.int64), "/crop/stop")
    step = const(np.array([1], dtype=np.int64), "/crop/step")
    axes = const(np.array([2], dtype=np.int64), "/crop/axes")
    sl = named(ops.slice(x, start, stop, step, axes), "/crop/Slice", ["cropped"])
    res = result(sl, "cropped/sink_port_0")
    model = ov.Model([res], [x], "interval_dims")
    return (
        model,
        "input [1..8,3,2..10,5] (interval dims), Slice-8 on axis 2 start 1 end -1 -> [1..8,3,0..8,5].",
        [{"x": [4, 3, 6, 5]}, {"x": [1, 3, 2, 5]}],
    )


def m_select_broadcast():
    cond = param("cond", [4, 5], np.bool_)
    then = param("then", [2, 3, 4, 5], F32)
    els = param("else", [1], F32)
    sel = named(ops.select(cond, then, els, auto_broadcast="numpy"), "/mask/Select", ["selected"])
    r1 = result(sel, "selected/sink_port_0")
    # PDPD broadcast (axis 0): cond [2,3] aligned to the leading dims of `then`.
    cond2 = param("cond_pdpd", [2, 3], np.bool_)
    sel2 = named(
        ops.select(cond2, then, els, auto_broadcast="pdpd"),
        "/mask_pdpd/Select",
        ["selected_pdpd"],
    )
    r2 = result(sel2, "selected_pdpd/sink_port_0")
    model = ov.Model([r1, r2], [cond, then, els, cond2], "select_broadcast")
    return (
        model,
        "Select numpy broadcast (bool [4,5], f32 [2,3,4,5], f32 [1]) plus a Select with auto_broadcast=pdpd (axis 0, cond [2,3]).",
        [],
    )


def m_shape_subgraph_reshape():
    h = param("hidden", [-1, -1, 64], F32)
    shp = named(ops.shape_of(h, output_type="i64"), "/attn/Shape")
    idx = const(np.array([0, 1], dtype=np.int64), "/attn/Constant")
    ax = const(np.array(0, dtype=np.int64), "/attn/Constant_1")
    g = named(ops.gather(shp, idx, ax), "/attn/Gather")
    tail = const(np.array([4, 16], dtype=np.int64), "/attn/Constant_2")
    cat = named(ops.concat([g, tail], 0), "/attn/Concat")
    rs = named(ops.reshape(h, cat, special_zero=False), "/attn/Reshape", ["heads"])
    res = result(rs, "heads/sink_port_0")
    model = ov.Model([res], [h], "shape_subgraph_reshape")
    return (
        model,
        "input `hidden` [?,?,64]; ShapeOf -> Gather([0,1]) -> Concat with [4,16] -> Reshape -> [?,?,4,16] (exported-model shape subgraph).",
        [{"hidden": [2, 7, 64]}, {"hidden": [1, 1, 64]}],
    )


def m_transformer_block():
    hidden, heads, hd = 32, 4, 8
    r = rng(6)
    x = param("x", [-1, -1, hidden], F32)
    p = "/encoder/layer.0/attention"

    shp = named(ops.shape_of(x, output_type="i64"), f"{p}/Shape")
    bs_idx = const(np.array([0, 1], dtype=np.int64), f"{p}/Constant")
    axis0 = const(np.array(0, dtype=np.int64), f"{p}/Constant_1")
    bs = named(ops.gather(shp, bs_idx, axis0), f"{p}/Gather")
    heads_c = const(np.array([heads, hd], dtype=np.int64), f"{p}/Constant_2")
    split_shape = named(ops.concat([bs, heads_c], 0), f"{p}/Concat")

    def proj(tag):
        w = const((r.standard_normal((hidden, hidden)) * 0.1).astype(F32), f"{p}/{tag}_proj.weight")
        mm = named(ops.matmul(x, w, False, False), f"{p}/{tag}_proj/MatMul")
        rs = named(ops.reshape(mm, split_shape, False), f"{p}/{tag}/Reshape")
        perm = const(np.array([0, 2, 1, 3], dtype=np.int64), f"{p}/{tag}/Constant")
        return named(ops.transpose(rs, perm), f"{p}/{tag}/Transpose")

    q, k, v = proj("q"), proj("k"), proj("v")
    scores = named(ops.matmul(q, k, False, True), f"{p}/MatMul")
    scale = const(np.array(1.0 / np.sqrt(hd), dtype=F32), f"{p}/Constant_3")
    scaled = named(ops.multiply(scores, scale), f"{p}/Mul")
    probs = named(ops8.softmax(scaled, -1), f"{p}/Softmax")
    ctx = named(ops.matmul(probs, v, False, False), f"{p}/MatMul_1")
    perm = const(np.array([0, 2, 1, 3], dtype=np.int64), f"{p}/Constant_4")
    ctx_t = named(ops.transpose(ctx, perm), f"{p}/Transpose")
    hid_c = const(np.array([hidden], dtype=np.int64), f"{p}/Constant_5")
    merge_shape = named(ops.concat([bs, hid_c], 0), f"{p}/Concat_1")
    merged = named(ops.reshape(ctx_t, merge_shape, False), f"{p}/Reshape")
    out = named(ops.add(merged, x), "/encoder/layer.0/Add", ["last_hidden_state"])
    res = result(out, "last_hidden_state/sink_port_0")
    model = ov.Model([res], [x], "transformer_block")
    return (
        model,
        "self-attention block: input [?,?,32], Q/K/V MatMul with 32x32 weights, ShapeOf/Gather/Concat/Reshape head split to [B,S,4,8], Transpose, Q.K^T (transpose_b), scale Multiply, Softmax-8 axis -1, MatMul V, Transpose back, Reshape [B,S,32], residual Add.",
        [{"x": [2, 7, 32]}, {"x": [1, 1, 32]}],
    )


def m_multi_output_split():
    x = param("x", [2, 6, -1], F32)
    ax = const(np.array(1, dtype=np.int64), "/split/axis")
    sp = named(ops.split(x, ax, 3), "/split/Split")
    names = ["part0", "part1", "part2"]
    for i, n in enumerate(names):
        sp.output(i).set_names({n})
    rs = [result(sp.output(i), f"{n}/sink_port_0") for i, n in enumerate(names)]
    cat = named(ops.concat([sp.output(0), sp.output(2)], 1), "/merge/Concat", ["merged"])
    rs.append(result(cat, "merged/sink_port_0"))
    model = ov.Model(rs, [x], "multi_output_split")
    return (
        model,
        "input [2,6,?], Split axis 1 into 3 (multi-output op, three Results) plus Concat of outputs 0 and 2 -> [2,4,?].",
        [{"x": [2, 6, 5]}],
    )


def m_scalar_and_types():
    s = param("scale", [], F32)
    idx = param("indices", [-1], np.int64)
    flag = param("flags", [3], np.bool_)
    img = param("pixels", [2, 2], np.uint8)
    half = param("half", [4], np.float16)

    # u8 -> f32, times scalar
    img_f = named(ops.convert(img, "f32"), "/pixels/Convert")
    scaled = named(ops.multiply(img_f, s), "/pixels/Mul", ["pixels_scaled"])
    r1 = result(scaled, "pixels_scaled/sink_port_0")

    # i64 [?] -> i32, + i32 const [1]
    idx32 = named(ops.convert(idx, "i32"), "/indices/Convert")
    one = const(np.array([1], dtype=np.int32), "/indices/one")
    idx_add = named(ops.add(idx32, one), "/indices/Add", ["indices_plus_one"])
    r2 = result(idx_add, "indices_plus_one/sink_port_0")

    # boolean [3] AND boolean const [3]
    mask = const(np.array([True, False, True]), "/flags/mask")
    land = named(ops.logical_and(flag, mask), "/flags/LogicalAnd", ["flags_masked"])
    r3 = result(land, "flags_masked/sink_port_0")

    # f16 [4] + f16 const [4] -> Convert f32
    hc = const(np.array([0.5, -1.0, 2.0, 65504.0], dtype=np.float16), "/half/bias")
    hadd = named(ops.add(half, hc), "/half/Add")
    hf = named(ops.convert(hadd, "f32"), "/half/Convert", ["half_as_f32"])
    r4 = result(hf, "half_as_f32/sink_port_0")

    # scalar passthrough
    r5 = result(s, "scale/sink_port_0")

    model = ov.Model([r1, r2, r3, r4, r5], [s, idx, flag, img, half], "scalar_and_types")
    return (
        model,
        "inputs of many element types (f32 scalar [], i64 [?], boolean [3], u8 [2,2], f16 [4]), Converts, LogicalAnd, Consts of i32, f16 and boolean type, a Parameter->Result passthrough.",
        [{"indices": [5]}],
    )


def m_dynamic_rank():
    x = param("x", ov.PartialShape.dynamic(), F32)
    relu = named(ops.relu(x), "/act/Relu", ["y"])
    res = result(relu, "y/sink_port_0")
    model = ov.Model([res], [x], "dynamic_rank")
    return (
        model,
        "input with fully dynamic rank (shape \"...\"), Relu, Result.",
        [{"x": [2, 3]}, {"x": [1, 2, 3, 4]}],
    )


def m_strided_slice_reduce():
    x = param("x", [-1, 3, -1], F32)
    shp = named(ops.shape_of(x, output_type="i64"), "/flatten/Shape")
    # batch = shape[:1] (begin ignored via begin_mask)
    b0 = const(np.array([0], dtype=np.int64), "/flatten/Constant")
    e1 = const(np.array([1], dtype=np.int64), "/flatten/Constant_1")
    s1 = const(np.array([1], dtype=np.int64), "/flatten/Constant_2")
    batch = named(ops.strided_slice(shp, b0, e1, s1, begin_mask=[1], end_mask=[0]), "/flatten/StridedSlice")
    # rest = shape[1:3]
    b1 = const(np.array([1], dtype=np.int64), "/flatten/Constant_3")
    e3 = const(np.array([3], dtype=np.int64), "/flatten/Constant_4")
    s1b = const(np.array([1], dtype=np.int64), "/flatten/Constant_5")
    rest = named(ops.strided_slice(shp, b1, e3, s1b, begin_mask=[0], end_mask=[0]), "/flatten/StridedSlice_1")
    rax = const(np.array([0], dtype=np.int64), "/flatten/Constant_6")
    prod = named(ops.reduce_prod(rest, rax, keep_dims=True), "/flatten/ReduceProd")
    tgt = named(ops.concat([batch, prod], 0), "/flatten/Concat")
    rs = named(ops.reshape(x, tgt, special_zero=False), "/flatten/Reshape", ["flat"])
    res = result(rs, "flat/sink_port_0")
    model = ov.Model([res], [x], "strided_slice_reduce")
    return (
        model,
        "input [?,3,?]; ShapeOf -> StridedSlice (shape[:1] with begin_mask, shape[1:3]) -> ReduceProd keep_dims -> Concat -> Reshape to [?,3*?] (flatten).",
        [{"x": [2, 3, 7]}, {"x": [1, 3, 1]}],
    )


def m_shared_constants():
    x = param("x", [1, 4], F32)
    data = np.array([0.25, 0.5, 0.75, 1.0], dtype=F32)
    c1 = const(data.copy(), "/branch_a/bias")
    c2 = const(data.copy(), "/branch_b/bias")
    c3 = const(np.array([1.0, 2.0, 3.0, 4.0], dtype=F32), "/branch_c/bias")
    a1 = named(ops.add(x, c1), "/branch_a/Add", ["a"])
    a2 = named(ops.add(x, c2), "/branch_b/Add", ["b"])
    a3 = named(ops.add(x, c3), "/branch_c/Add", ["c"])
    rs = [result(a1, "a/sink_port_0"), result(a2, "b/sink_port_0"), result(a3, "c/sink_port_0")]
    model = ov.Model(rs, [x], "shared_constants")
    return (
        model,
        "two byte-identical f32 Consts (/branch_a/bias, /branch_b/bias) used by two Adds, plus a different third Const.",
        [],
    )


MODELS = [
    ("add_relu_static", m_add_relu_static),
    ("dynamic_batch_reshape", m_dynamic_batch_reshape),
    ("interval_dims", m_interval_dims),
    ("select_broadcast", m_select_broadcast),
    ("shape_subgraph_reshape", m_shape_subgraph_reshape),
    ("transformer_block", m_transformer_block),
    ("multi_output_split", m_multi_output_split),
    ("scalar_and_types", m_scalar_and_types),
    ("dynamic_rank", m_dynamic_rank),
    ("strided_slice_reduce", m_strided_slice_reduce),
    ("shared_constants", m_shared_constants),
]


# ---------------------------------------------------------------------------
# Goldens
# ---------------------------------------------------------------------------


def op_view(model: ov.Model) -> list[dict]:
    out = []
    for op in model.get_ordered_ops():
        d = {
            "name": op.get_friendly_name(),
            "type": op.get_type_name(),
            "version": op.get_type_info().version_id,
            "outputs": [
                {
                    "element_type": o.get_element_type().get_type_name(),
                    "shape": str(o.get_partial_shape()),
                }
                for o in op.outputs()
            ],
        }
        # Extra (not part of the op view proper): values of small constants,
        # handy for checking the .bin decoding and shape-subgraph folding.
        if op.get_type_name() == "Constant" and int(np.prod(op.get_output_shape(0))) <= 16:
            d["value"] = np.asarray(op.get_data()).tolist()
        out.append(d)
    return out


def golden(xml_path: str, bindings: list[dict]) -> dict:
    core = ov.Core()
    model = core.read_model(xml_path)
    g = {
        "openvino_version": _ver(),
        "model": os.path.basename(xml_path),
        "inputs": [
            {
                "name": p.get_friendly_name(),
                "tensor_names": sorted(p.output(0).get_names()),
                "element_type": p.get_element_type().get_type_name(),
                "shape": str(p.get_output_partial_shape(0)),
            }
            for p in model.get_parameters()
        ],
        "outputs": [
            {
                "name": r.get_friendly_name(),
                "tensor_names": sorted(r.output(0).get_names()),
                "element_type": r.get_output_element_type(0).get_type_name(),
                "shape": str(r.get_output_partial_shape(0)),
            }
            for r in model.get_results()
        ],
        "dynamic": op_view(model),
        "static_bindings": [],
    }
    for b in bindings:
        entry = {"inputs": b}
        m = core.read_model(xml_path)
        try:
            m.reshape({k: ov.PartialShape(v) for k, v in b.items()})
            entry["ops"] = op_view(m)
        except Exception as e:  # record the failure text
            entry["error"] = str(e)
        g["static_bindings"].append(entry)
    return g


# ---------------------------------------------------------------------------
# Broken samples (hand-written IR v11 text)
# ---------------------------------------------------------------------------

# The helpers below emit text in exactly the layout OpenVINO's serializer uses
# (tabs, attribute order, self-closing ports without dims, net-level rt_info),
# so the files differ from a real IR only in the one thing that is broken.

_PREC = {"f32": "FP32", "f16": "FP16", "i64": "I64", "i32": "I32", "boolean": "BOOL", "u8": "U8"}


def _port(pid, et, dims, names=None, indent="\t\t\t\t"):
    attrs = f'id="{pid}" precision="{_PREC.get(et, et.upper())}"'
    if names:
        attrs += f' names="{names}"'
    if not dims:
        return f"{indent}<port {attrs} />\n"
    s = f"{indent}<port {attrs}>\n"
    for d in dims:
        s += f"{indent}\t<dim>{d}</dim>\n"
    return s + f"{indent}</port>\n"


def _layer(lid, name, typ, *, version="opset1", data=None, inputs=(), outputs=(), extra=""):
    """inputs/outputs: lists of (element_type, dims[, names]). Port ids are
    numbered inputs first, then outputs, like the serializer does."""
    s = f'\t\t<layer id="{lid}" name="{name}" type="{typ}" version="{version}"{extra}>\n'
    if data is not None:
        s += "\t\t\t<data " + " ".join(f'{k}="{v}"' for k, v in data) + " />\n"
    pid = 0
    if inputs:
        s += "\t\t\t<input>\n"
        for p in inputs:
            s += _port(pid, p[0], p[1], p[2] if len(p) > 2 else None)
            pid += 1
        s += "\t\t\t</input>\n"
    if outputs:
        s += "\t\t\t<output>\n"
        for p in outputs:
            s += _port(pid, p[0], p[1], p[2] if len(p) > 2 else None)
            pid += 1
        s += "\t\t\t</output>\n"
    return s + "\t\t</layer>\n"


def _param(lid, name, et, dims, shape_attr=None):
    shape_attr = ",".join(str(d) for d in dims) if shape_attr is None else shape_attr
    return _layer(lid, name, "Parameter", data=[("shape", shape_attr), ("element_type", et)],
                  outputs=[(et, dims, name)])


def _const(lid, name, et, dims, offset, size, shape_attr=None):
    shape_attr = ", ".join(str(d) for d in dims) if shape_attr is None else shape_attr
    return _layer(lid, name, "Const",
                  data=[("element_type", et), ("shape", shape_attr), ("offset", offset), ("size", size)],
                  outputs=[(et, dims)])


def _unary(lid, name, typ, et, in_dims, out_dims=None, names=None, **kw):
    return _layer(lid, name, typ, inputs=[(et, in_dims)],
                  outputs=[(et, in_dims if out_dims is None else out_dims, names)], **kw)


def _binary(lid, name, typ, et, a, b, out, names=None):
    return _layer(lid, name, typ, data=[("auto_broadcast", "numpy")],
                  inputs=[(et, a), (et, b)], outputs=[(et, out, names)])


def _result(lid, name, et, dims, output_names):
    return _layer(lid, name, "Result", inputs=[(et, dims)], extra=f' output_names="{output_names}"')


def _edges(edges):
    return "".join(
        f'\t\t<edge from-layer="{a}" from-port="{b}" to-layer="{c}" to-port="{d}" />\n' for a, b, c, d in edges
    )


def _net(name, comment, layers, edges, *, tail=True):
    s = '<?xml version="1.0"?>\n'
    s += f"<!-- broken: {comment} -->\n"
    s += f'<net name="{name}" version="11">\n\t<layers>\n'
    s += "".join(layers)
    s += "\t</layers>\n\t<edges>\n" + _edges(edges) + "\t</edges>\n"
    if tail:
        s += "\t<rt_info>\n"
        s += '\t\t<info name="OpenVINO Runtime" value="broken-sample (hand-written)" />\n'
        s += "\t</rt_info>\n"
        s += "</net>\n"
    return s


S = [1, 3, 4, 4]


def _f32_bytes(n, seed):
    return rng(seed).standard_normal(n).astype("<f4").tobytes()


def _broken_samples() -> list[dict]:
    B = []

    def add(name, what, expect, layers, edges, bin_=None, xml=None):
        B.append({
            "name": name, "what": what, "expect": expect, "bin": bin_,
            "xml": xml if xml is not None else _net(name, what, layers, edges),
        })

    # 1. cycle through three layers: Add(1) -> ReLU(2) -> Sigmoid(3) -> Add(1).port1
    add("cycle",
        "cycle through 3 layers: Add(id 1) -> ReLU(id 2) -> Sigmoid(id 3) -> Add input port 1",
        "graph is not a DAG: cycle among layers 1 (/blk/Add), 2 (/blk/Relu), 3 (/blk/Sigmoid); no topological order exists",
        [
            _param(0, "x", "f32", S),
            _binary(1, "/blk/Add", "Add", "f32", S, S, S),
            _unary(2, "/blk/Relu", "ReLU", "f32", S),
            _unary(3, "/blk/Sigmoid", "Sigmoid", "f32", S),
            _result(4, "y/sink_port_0", "f32", S, "y"),
        ],
        [(0, 0, 1, 0), (1, 2, 2, 0), (2, 1, 3, 0), (2, 1, 4, 0), (3, 1, 1, 1)])

    # 2. edge to a layer id that does not exist
    add("dangling_edge",
        "edge to-layer=\"7\" but there is no layer with id 7",
        "edge 0:0 -> 7:0 refers to unknown layer id 7",
        [
            _param(0, "x", "f32", S),
            _unary(1, "/act/Relu", "ReLU", "f32", S, names="y"),
            _result(2, "y/sink_port_0", "f32", S, "y"),
        ],
        [(0, 0, 1, 0), (1, 1, 2, 0), (0, 0, 7, 0)])

    # 3. edge to a port the layer does not have (Add has input ports 0,1 and output 2)
    add("dangling_port",
        "extra edge into to-port=\"5\" of Add (id 1), which only has input ports 0 and 1 (and output port 2)",
        "edge 0:0 -> 1:5 refers to port 5, which layer 1 (/blk/Add) does not declare as an input port",
        [
            _param(0, "x", "f32", S),
            _binary(1, "/blk/Add", "Add", "f32", S, S, S, names="y"),
            _result(2, "y/sink_port_0", "f32", S, "y"),
        ],
        [(0, 0, 1, 0), (0, 0, 1, 1), (0, 0, 1, 5), (1, 2, 2, 0)])

    # 4. duplicate layer id
    add("duplicate_layer_id",
        "two layers share id=\"1\" (/act/Relu and /act/Sigmoid)",
        "duplicate layer id 1 (/act/Relu and /act/Sigmoid)",
        [
            _param(0, "x", "f32", S),
            _unary(1, "/act/Relu", "ReLU", "f32", S),
            _unary(1, "/act/Sigmoid", "Sigmoid", "f32", S, names="y"),
            _result(2, "y/sink_port_0", "f32", S, "y"),
        ],
        [(0, 0, 1, 0), (1, 1, 2, 0)])

    # 5. one input port fed by two edges
    add("input_fed_twice",
        "input port 0 of ReLU (id 2) has two incoming edges (from Parameters 0 and 1)",
        "input port 0 of layer 2 (/act/Relu) is connected twice (from 0:0 and 1:0)",
        [
            _param(0, "a", "f32", S),
            _param(1, "b", "f32", S),
            _unary(2, "/act/Relu", "ReLU", "f32", S, names="y"),
            _result(3, "y/sink_port_0", "f32", S, "y"),
        ],
        [(0, 0, 2, 0), (1, 0, 2, 0), (2, 1, 3, 0)])

    # 6. input port with no incoming edge
    add("input_unfed",
        "input port 1 of Add (id 1) has no incoming edge",
        "input port 1 of layer 1 (/blk/Add) is not connected",
        [
            _param(0, "x", "f32", S),
            _binary(1, "/blk/Add", "Add", "f32", S, S, S, names="y"),
            _result(2, "y/sink_port_0", "f32", S, "y"),
        ],
        [(0, 0, 1, 0), (1, 2, 2, 0)])

    # 7. no Result layer at all
    add("missing_result",
        "the model has no Result layer (Parameter -> ReLU and nothing else)",
        "model has no Result (no outputs); ReLU output 1:1 is unused",
        [
            _param(0, "x", "f32", S),
            _unary(1, "/act/Relu", "ReLU", "f32", S, names="y"),
        ],
        [(0, 0, 1, 0)])

    # 8. Const whose offset+size runs past the end of the .bin (32 bytes)
    add("truncated_bin",
        "Const offset=16 size=48 (offset+size=64) but truncated_bin.bin is only 32 bytes",
        "Const /blk/weight: byte range [16, 64) is outside the 32-byte weights file",
        [
            _param(0, "x", "f32", [2, 6]),
            _const(1, "/blk/weight", "f32", [2, 6], 16, 48),
            _binary(2, "/blk/Add", "Add", "f32", [2, 6], [2, 6], [2, 6], names="y"),
            _result(3, "y/sink_port_0", "f32", [2, 6], "y"),
        ],
        [(0, 0, 2, 0), (1, 0, 2, 1), (2, 2, 3, 0)],
        bin_=_f32_bytes(8, 108))

    # 9. Const size disagrees with shape x element size (2*3*4 = 24, says 20)
    add("const_size_mismatch",
        "Const f32 shape [2,3] needs 24 bytes but declares size=\"20\" (the .bin holds 24 bytes)",
        "Const /blk/weight: size 20 != 2*3 elements * 4 bytes (f32) = 24",
        [
            _param(0, "x", "f32", [2, 3]),
            _const(1, "/blk/weight", "f32", [2, 3], 0, 20),
            _binary(2, "/blk/Add", "Add", "f32", [2, 3], [2, 3], [2, 3], names="y"),
            _result(3, "y/sink_port_0", "f32", [2, 3], "y"),
        ],
        [(0, 0, 2, 0), (1, 0, 2, 1), (2, 2, 3, 0)],
        bin_=_f32_bytes(6, 109))

    # 10. bad dims: a port <dim>abc</dim> and a Parameter shape="1,x..y"
    add("bad_dims",
        "Parameter shape=\"1,x..y\" (interval bounds are not integers) and a ReLU output port <dim>abc</dim>",
        "parse error on Parameter x attribute shape: dimension 'x..y' is not an integer/interval/?; "
        "parse error on layer 1 (/act/Relu) port 1: <dim> 'abc' is not an integer",
        [
            _param(0, "x", "f32", [1, -1], shape_attr="1,x..y"),
            _unary(1, "/act/Relu", "ReLU", "f32", [1, -1], out_dims=[1, "abc"], names="y"),
            _result(2, "y/sink_port_0", "f32", [1, -1], "y"),
        ],
        [(0, 0, 1, 0), (1, 1, 2, 0)])

    # 11. declared port shape disagrees with what the static Parameter implies
    add("declared_shape_mismatch",
        "Parameter is static [1,3,4,4] but ReLU's output port and the Result's input port declare [1,3,4,5]",
        "layer 1 (/act/Relu) output port 1 dim 3: declared 5, inferred 4 (and Result input port 0 disagrees with its producer likewise)",
        [
            _param(0, "x", "f32", S),
            _unary(1, "/act/Relu", "ReLU", "f32", S, out_dims=[1, 3, 4, 5], names="y"),
            _result(2, "y/sink_port_0", "f32", [1, 3, 4, 5], "y"),
        ],
        [(0, 0, 1, 0), (1, 1, 2, 0)])

    # 12. unknown op
    add("unknown_op",
        "layer type=\"FancyOp\" version=\"opset99\" does not exist",
        "unknown operation FancyOp (opset99) in layer 1 (/blk/Fancy); shapes after it cannot be inferred (can fall back to the declared port dims)",
        [
            _param(0, "x", "f32", S),
            _layer(1, "/blk/Fancy", "FancyOp", version="opset99", data=[("mode", "sparkly"), ("alpha", "0.5")],
                   inputs=[("f32", S)], outputs=[("f32", S, "y")]),
            _result(2, "y/sink_port_0", "f32", S, "y"),
        ],
        [(0, 0, 1, 0), (1, 1, 2, 0)])

    # 13. not well-formed XML: the <edges> element is never closed, nor is <net>
    good = _net("malformed", "not well-formed XML: <edges> and <net> are never closed (file ends early)",
                [_param(0, "x", "f32", S), _unary(1, "/act/Relu", "ReLU", "f32", S, names="y"),
                 _result(2, "y/sink_port_0", "f32", S, "y")],
                [(0, 0, 1, 0), (1, 1, 2, 0)], tail=False)
    add("malformed",
        "not well-formed XML: `<edges>` and `<net>` are never closed (file ends early)",
        "XML parse error (unexpected end of document / unclosed tag <edges>), reported with a line number",
        None, None, xml=good.replace("\t</edges>\n", ""))

    # 14. huge const: shape 2^40 x 2^40, size 10^18 (must be rejected without allocating)
    big = 1 << 40
    add("huge_const",
        "Const shape [2^40, 2^40] f32 (element count 2^80 overflows u64) with size=10^18; .bin is 16 bytes",
        "Const /blk/huge: shape element count overflows / byte size 10^18 exceeds the 16-byte weights file; must be rejected without trying to allocate",
        [
            _param(0, "x", "f32", [1]),
            _const(1, "/blk/huge", "f32", [big, big], 0, 10**18),
            _binary(2, "/blk/Add", "Add", "f32", [1], [big, big], [big, big], names="y"),
            _result(3, "y/sink_port_0", "f32", [big, big], "y"),
        ],
        [(0, 0, 2, 0), (1, 0, 2, 1), (2, 2, 3, 0)],
        bin_=_f32_bytes(4, 114))

    # 15. (extra) unknown element type
    add("bad_element_type",
        "Parameter element_type=\"f33\" (no such element type), port precision=\"FP33\"",
        "unknown element type 'f33' on Parameter x",
        [
            _layer(0, "x", "Parameter", data=[("shape", "1,3,4,4"), ("element_type", "f33")],
                   outputs=[("FP33", S, "x")]),
            _unary(1, "/act/Relu", "ReLU", "f32", S, names="y"),
            _result(2, "y/sink_port_0", "f32", S, "y"),
        ],
        [(0, 0, 1, 0), (1, 1, 2, 0)])
    return B


BROKEN = _broken_samples()


def _openvino_verdict(xml_path: str, bdir: str) -> str:
    def clean(e: Exception) -> str:
        lines = [ln.strip() for ln in str(e).replace(bdir + os.sep, "").splitlines() if ln.strip()]
        # The informative text is the last line ("Exception from src/..." and
        # "Check '...' failed at ..." lines are only locations).
        msg = lines[-1] if lines else ""
        return "`" + msg.replace("|", "\\|").replace("`", "'")[:200] + "`"

    try:
        m = ov.Core().read_model(xml_path)
    except Exception as e:  # noqa: BLE001
        return "read_model error: " + clean(e)
    try:
        m.validate_nodes_and_infer_types()
    except Exception as e:  # noqa: BLE001
        return "reads OK; validate error: " + clean(e)
    names = ", ".join(op.get_friendly_name() for op in m.get_ordered_ops())
    return f"reads and validates OK; ops: {names}".replace("|", "\\|")


def write_broken(out_dir: str) -> None:
    bdir = os.path.join(out_dir, "broken")
    os.makedirs(bdir, exist_ok=True)
    lines = [
        "# Broken IR samples",
        "",
        "Hand-written OpenVINO IR v11 files that are invalid on purpose (written by",
        "`scripts/gen_samples.py`). Each `.xml` starts with a `<!-- broken: ... -->`",
        "comment right after the XML declaration. The format (net/layers/ports/edges/",
        "rt_info) is copied from the good samples in `ir-samples/`.",
        "",
        "The last column is what OpenVINO itself does with the file",
        "(`Core().read_model`, first line of the error, then `validate_nodes_and_infer_types`).",
        "",
        "| file | what is wrong | expected diagnostic | OpenVINO " + _ver().split("-")[0] + " |",
        "|---|---|---|---|",
    ]
    for b in BROKEN:
        with open(os.path.join(bdir, b["name"] + ".xml"), "w", encoding="utf-8", newline="\n") as f:
            f.write(b["xml"])
        files = f"`{b['name']}.xml`"
        if b.get("bin") is not None:
            with open(os.path.join(bdir, b["name"] + ".bin"), "wb") as f:
                f.write(b["bin"])
            files += f" + `{b['name']}.bin`"
        ov_says = _openvino_verdict(os.path.join(bdir, b["name"] + ".xml"), bdir)
        lines.append(f"| {files} | {b['what']} | {b['expect']} | {ov_says} |")
    lines.append("")
    with open(os.path.join(bdir, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines))


# ---------------------------------------------------------------------------


FORMAT_NOTES = [
    "",
    "## Format notes (as written by this OpenVINO version)",
    "",
    "- `<net name=... version=\"11\">`, then `<layers>`, `<edges>`, `<rt_info>`; every layer has",
    "  `id`, `name` (friendly name), `type`, `version` (`opset1`, `opset3`, `opset8`, ...).",
    "- Parameter: `<data shape=\"1,3,4,4\" element_type=\"f32\" />` -- dims joined by `,` without",
    "  spaces; dynamic dim `?`, interval `1..8`, dynamic rank `...`, scalar `\"\"`.",
    "- Const: `<data element_type=\"f32\" shape=\"1, 3, 1, 1\" offset=\"0\" size=\"12\" />` -- note",
    "  `, ` (comma space) here; scalar Const has `shape=\"\"`.",
    "- Ports: `<port id precision names>` with `<dim>` children; any non-static dim (`?` or an",
    "  interval) is written as `<dim>-1</dim>` (interval bounds are only in the Parameter `shape`);",
    "  scalars and dynamic-rank ports are both written without `<dim>` (often self-closing).",
    "  Port ids: inputs `0..n-1`, outputs continue from `n`.",
    "- Precision strings: FP32, FP16, I64, I32, U8, BOOL; element types f32, f16, i64, i32, u8, boolean.",
    "- Tensor names: `names=\"a,b\"` sorted, a literal comma is escaped as `\\,`.",
    "- Result: `<layer ... type=\"Result\" version=\"opset1\" output_names=\"y\">` (no `<data>`),",
    "  only an `<input>` port.",
    "- Layers without attributes (ReLU, Transpose, Result) have no `<data>` element. Type names",
    "  follow the IR spelling: `ReLU`, `SoftMax` (while `get_type_name()` says `Relu`, `Softmax`).",
    "- StridedSlice writes empty masks as `new_axis_mask=\"\"`; Select pdpd writes",
    "  `auto_broadcast=\"pdpd\" auto_broadcast.auto_broadcast_axis=\"0\"`.",
    "- The serializer deduplicates byte-identical constant data (any Consts, e.g. `/crop/start` and",
    "  `/crop/step` in `interval_dims` share offset 0); models without Consts get a 0-byte `.bin`.",
    "- `<rt_info>` at net level: `<info name=\"OpenVINO Runtime\" value=\"<version>\" />` plus nested",
    "  elements for model rt_info (`<conversion_parameters><tool value=... /></conversion_parameters>`).",
    "  Port-level: `<rt_info><attribute name=\"layout\" version=\"0\" layout=\"[N,C,H,W]\" /></rt_info>`",
    "  inside the Parameter's output `<port>`, after the `<dim>`s.",
]


def shared_offsets(xml_path: str) -> dict:
    """Return {const friendly name: (offset, size)} from the saved xml."""
    import xml.etree.ElementTree as ET

    root = ET.parse(xml_path).getroot()
    res = {}
    for layer in root.iter("layer"):
        if layer.get("type") == "Const":
            d = layer.find("data")
            res[layer.get("name")] = (int(d.get("offset")), int(d.get("size")))
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="ir-samples", help="output directory (default: ir-samples)")
    args = ap.parse_args(argv)
    out = args.out

    # Clean regenerate (only the things this script owns): the samples of the
    # project's own opset (compress_*, extract_*) are hand-written, and
    # broken/ also holds the files of gen_broken_extra.py (run at the end).
    shutil.rmtree(os.path.join(out, "golden"), ignore_errors=True)
    os.makedirs(os.path.join(out, "golden"), exist_ok=True)
    os.makedirs(os.path.join(out, "broken"), exist_ok=True)
    for fn in os.listdir(out):
        hand_written = fn.startswith(("compress_", "extract_"))
        if fn.endswith((".xml", ".bin")) and not hand_written:
            os.remove(os.path.join(out, fn))

    readme = [
        "# OpenVINO IR samples",
        "",
        f"Generated by `scripts/gen_samples.py` with OpenVINO `{_ver()}`",
        "(`openvino.save_model(model, path, compress_to_fp16=False)`, ops from",
        "`openvino.opset13`, Softmax from `openvino.opset8`). Do not edit by hand;",
        "rerun `python3 scripts/gen_samples.py` from the repository root.",
        "",
        "`golden/<name>.json` holds OpenVINO's own view after `Core().read_model`: per",
        "op (in `get_ordered_ops()` order) friendly name, type, version and output",
        "element types / partial shapes, under `dynamic`, and the same after",
        "`model.reshape(...)` to static input shapes under `static_bindings`.",
        "`broken/` holds deliberately invalid IR files (see `broken/README.md`).",
        "",
        "## Samples",
        "",
    ]
    shared_note = ""
    for name, builder in MODELS:
        model, desc, bindings = builder()
        xml = os.path.join(out, name + ".xml")
        ov.save_model(model, xml, compress_to_fp16=False)
        g = golden(xml, bindings)
        with open(os.path.join(out, "golden", name + ".json"), "w", encoding="utf-8", newline="\n") as f:
            json.dump(g, f, indent=1)
            f.write("\n")
        readme.append(f"- `{name}`: {desc}")
        if name == "shared_constants":
            offs = shared_offsets(xml)
            a, b = offs["/branch_a/bias"], offs["/branch_b/bias"]
            c = offs["/branch_c/bias"]
            if a == b:
                shared_note = (
                    f" The serializer DID deduplicate them: both identical Consts have offset={a[0]} size={a[1]} "
                    f"in the .bin (the third Const is at offset={c[0]}); the .bin is "
                    f"{os.path.getsize(os.path.join(out, name + '.bin'))} bytes."
                )
            else:
                shared_note = (
                    f" The serializer did NOT deduplicate them: offsets {a[0]} and {b[0]} (size {a[1]})."
                )
            readme[-1] += shared_note
    readme += [
        "",
        "## Project-opset samples (hand-written, kept by this script)",
        "",
        "OpenVINO cannot build ops of this project's own opset (`ovir1`, see",
        "`docs/project-opset.md`), so these are written by hand:",
        "",
    ] + [f"- `{fn}`" for fn in sorted(os.listdir(out))
         if fn.startswith(("compress_", "extract_")) and fn.endswith(".xml")]
    readme += FORMAT_NOTES
    readme.append("")
    with open(os.path.join(out, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(readme))

    write_broken(out)
    # The reader/validator cases of broken/ and their README block.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gen_broken_extra
    gen_broken_extra.OUT = pathlib.Path(out) / "broken"
    gen_broken_extra.main()
    print(f"wrote {len(MODELS)} models + goldens + broken samples to {out}/ (OpenVINO {_ver()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
