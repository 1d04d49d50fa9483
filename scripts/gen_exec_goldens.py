#!/usr/bin/env python3
"""Conformance goldens for the executor: OpenVINO's own CPU plugin run on
seeded random inputs (numpy where OpenVINO cannot run an output).

Run from the repository root: ``python3 scripts/gen_exec_goldens.py``
(every case, the folder regenerated from scratch), or
``python3 scripts/gen_exec_goldens.py --only CASE...`` (only those case
folders are rewritten; the others stay untouched).

For each graph ``crates/shape-infer/tests/golden/<case>.xml`` (``invalid_*``
cases skipped) and each sample ``ir-samples/<name>.xml`` (case
``sample_<name>``) and each real model ``ir-samples/models/<name>.xml`` (case
``model_<name>``), one static binding is chosen: the first valid entry of the
case's json ``static_bindings`` (``ir-samples/golden/<name>.json`` for
samples), else the Parameters' static shapes, else every dynamic dim at 3
(clamped into its interval; a dynamic rank becomes ``[2,3]``). Inputs are
seeded random (the seed is the CRC-32 of the case name), drawn per Parameter
in order: floats uniform in [-3, 3], integers in [0, 4) (they often feed
shape-like inputs), booleans random; a 2-D integer ``attention_mask`` is 0/1
with each row's first entry 1. The model, reshaped to the binding, is
compiled for ``CPU`` with ``INFERENCE_PRECISION_HINT=f32`` (no bf16 compute)
and run once; the cases of ``DYNAMIC_CASES`` are compiled with their dynamic
shapes instead (``compiled_dynamic`` in ``case.json``).

Where OpenVINO fails to compile or run the whole model, each Result is
compiled alone to find the ones that fail (``dropped_outputs``: Result name ->
``stage``, ``message``); the others are run together as one model. A dropped
output is then retried alone with ``SNIPPETS_MODE=DISABLE`` (the CPU plugin's
snippets pass breaks some PDPD-broadcast Selects); failing that, it gets a
numpy reference when the OpenVINO op spec decides its value unambiguously
(a Reduce{Sum,Mean,Max,Min,Prod} over an empty ``axes`` Const of a Parameter:
the identity); failing that, it stays uncompared. A model OpenVINO cannot
read because it uses the project's opset (``ovir*``, docs/project-opset.md) is
evaluated entirely with numpy, layer by layer (``NumpyGraph``: Parameter,
Const, Compress, Extract, Result; any other op leaves the case without a
golden).

Written under ``crates/executor/tests/conformance/<case>/``:

* ``in_<param>.npy`` per Parameter, ``out_<result>.npy`` per Result with a
  reference, names sanitized (chars other than letters, digits, ``.``, ``-``,
  ``_`` become ``_``; a name colliding with an earlier file gets a ``_N``
  suffix);
* ``case.json``: ``model`` (path from the repository root), ``binding``
  (Parameter friendly name -> dims), ``inputs`` (file name -> Parameter
  friendly name), ``outputs`` (file name -> Result friendly name when the
  reference is OpenVINO's CPU plugin with the settings above, else file name
  -> ``{"result", "reference": "openvino_cpu", "cpu_config"}`` or
  ``{"result", "reference": "numpy", "rule"}`` or ``{"result", "reference":
  "openvino_decomposed", "rule"}``: the CPU plugin on an equivalent graph of
  an op it cannot run), ``dropped_outputs`` (see
  above), ``seed``, ``openvino_version``; a case computed wholly with numpy
  also has ``reference: "numpy"`` and ``openvino_error`` (why OpenVINO is
  not the reference) and ``numpy_ops`` (the rule of each op);
* for a stateful model (Assign sinks), run twice in one infer request,
  ``out_run2_<result>.npy`` per Result and ``second_run_outputs`` (file name
  -> Result friendly name): the second run, which reads the variables the
  first one assigned.

A case OpenVINO cannot read, reshape, compile or run (and numpy cannot stand
in for) keeps only its ``case.json`` with ``openvino_error`` (``stage``,
``message``) and no ``outputs``; a case whose arrays exceed 64 KB in total
keeps only its ``case.json`` with ``skipped``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import numpy as np
import openvino as ov

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "crates/executor/tests/conformance"
GOLDEN = ROOT / "crates/shape-infer/tests/golden"
SAMPLES = ROOT / "ir-samples"
MAX_BYTES = 64 * 1024
# The CPU plugin setting a dropped output is retried with.
RETRY_CONFIG = {"SNIPPETS_MODE": "DISABLE"}
# Reductions whose OpenVINO op spec says: "If axes is an empty list, *Op*
# corresponds to the identity operation." (ReduceL1/L2 say no such thing.)
IDENTITY_ON_EMPTY_AXES = {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd"}


def sanitize(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def unique(prefix: str, name: str, used: set[str]) -> str:
    base = f"{prefix}_{sanitize(name)}"
    file = f"{base}.npy"
    n = 1
    while file in used:
        file = f"{base}_{n}.npy"
        n += 1
    used.add(file)
    return file


def clamp(v: int, dim: ov.Dimension) -> int:
    v = max(v, dim.get_min_length())
    hi = dim.get_max_length()
    return min(v, hi) if hi >= 0 else v


def choose_binding(params: list[tuple[str, ov.PartialShape]], json_path: Path) -> dict[str, list[int]]:
    """Parameter friendly name -> static dims for every Parameter."""
    given: dict[str, list[int]] = {}
    if json_path.exists():
        meta = json.loads(json_path.read_text())
        for b in meta.get("static_bindings", []):
            if "error" not in b and not b.get("invalid"):
                given = b["inputs"]
                break
    binding = {}
    for name, ps in params:
        if name in given:
            binding[name] = list(given[name])
        elif ps.is_static:
            binding[name] = [d.get_length() for d in ps]
        elif ps.rank.is_dynamic:
            binding[name] = [2, 3]
        else:
            binding[name] = [d.get_length() if d.is_static else clamp(3, d) for d in ps]
    return binding


def random_input(rng: np.random.Generator, dtype: np.dtype, shape: list[int], name: str = "") -> np.ndarray:
    if name == "attention_mask" and np.issubdtype(dtype, np.integer) and len(shape) == 2:
        # A text model's mask is 0/1, and every sequence attends to its first
        # token (a row of zeros is padding only, which no tokenizer writes).
        a = rng.integers(0, 2, size=shape).astype(dtype)
        a[:, :1] = 1
        return a
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.issubdtype(dtype, np.floating):
        return rng.uniform(-3.0, 3.0, size=shape).astype(dtype)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(0, 4, size=shape).astype(dtype)
    raise ValueError(f"no generator for element type {dtype}")


def error_text(e: Exception) -> str:
    lines = [x.strip() for x in str(e).splitlines()]
    lines = [x for x in lines if x and not x.startswith("Exception from src/")]
    # Nodes the plugin makes are numbered per process (RankNormalization_253544):
    # the number would change on every run.
    text = re.sub(r"(?<=[A-Za-z])_\d{4,}\b", "_#", " ".join(lines))
    return text[:600] or repr(e)


class OvFailure(Exception):
    def __init__(self, stage: str, e: Exception):
        super().__init__(error_text(e))
        self.stage = stage
        self.message = error_text(e)

    def record(self) -> dict:
        return {"stage": self.stage, "message": self.message}


def infer(
    core: ov.Core,
    model: ov.Model,
    arrays: list[np.ndarray],
    config: dict | None = None,
    second_run: list[np.ndarray] | None = None,
) -> list[np.ndarray]:
    """The model's outputs (in Result order) from OpenVINO's CPU plugin. With
    ``second_run`` (a stateful model), the same request runs again on the same
    inputs, reading the variables the first run assigned, and its outputs are
    appended to ``second_run``."""
    try:
        compiled = core.compile_model(model, "CPU", config) if config else core.compile_model(model, "CPU")
    except Exception as e:  # noqa: BLE001 - any OpenVINO failure is recorded
        raise OvFailure("compile_model", e) from e
    count = len(model.get_results())
    try:
        request = compiled.create_infer_request()
        feed = {compiled.input(i): a for i, a in enumerate(arrays)}
        request.infer(feed)
        first = [np.array(request.get_output_tensor(i).data, copy=True) for i in range(count)]
        if second_run is not None:
            request.infer(feed)
            second_run.extend(np.array(request.get_output_tensor(i).data, copy=True) for i in range(count))
        return first
    except Exception as e:  # noqa: BLE001
        raise OvFailure("infer", e) from e


def numpy_rule(result: ov.Node, arrays: dict[str, np.ndarray]) -> tuple[np.ndarray, str] | None:
    """A numpy reference for a Result OpenVINO cannot compute, where the op
    spec decides it unambiguously, with the rule used; else None."""
    node = result.input_value(0).get_node()
    op = node.get_type_name()
    if op in ("RGBtoNV12", "BGRtoNV12"):
        return to_nv12_rule(result, arrays)
    if op not in IDENTITY_ON_EMPTY_AXES:
        return None
    axes = node.input_value(1).get_node()
    data = node.input_value(0).get_node()
    if axes.get_type_name() != "Constant" or math.prod(axes.get_output_shape(0)) != 0:
        return None
    if data.get_type_name() != "Parameter":
        return None
    version = node.get_type_info().version_id
    rule = (
        f"{op} ({version}) '{node.get_friendly_name()}' has an empty axes Const; the OpenVINO spec of "
        f"{op}-1: 'If axes is an empty list, {op} corresponds to the identity operation', so the "
        f"output is the Parameter '{data.get_friendly_name()}' unchanged"
    )
    return np.array(arrays[data.get_friendly_name()], copy=True), rule


def to_nv12_rule(result: ov.Node, arrays: dict[str, np.ndarray]) -> tuple[np.ndarray, str] | None:
    """RGBtoNV12-17 / BGRtoNV12-17 of a Parameter or a Constant, transcribing
    OpenVINO's reference implementation (convert_color_to_nv12.hpp): OpenVINO
    2026.4 has neither a CPU kernel nor an evaluate for them."""
    out = result.input_value(0)
    node = out.get_node()
    src = node.input_value(0).get_node()
    if src.get_type_name() == "Parameter":
        image = arrays[src.get_friendly_name()]
    elif src.get_type_name() == "Constant":
        image = src.get_data()
    else:
        return None
    dtype = image.dtype
    integral = np.issubdtype(dtype, np.integer)
    rgb = image.astype(np.float32)
    if node.get_type_name() == "BGRtoNV12":
        rgb = rgb[..., ::-1]
    r, g, b = (rgb[..., i] for i in range(3))
    f = np.float32

    def clip(a):
        # std::round: half away from zero (in f64, where + 0.5 is exact).
        if integral:
            a64 = a.astype(np.float64)
            a = np.where(a64 < 0, -np.floor(-a64 + 0.5), np.floor(a64 + 0.5)).astype(np.float32)
        return np.minimum(np.maximum(a, f(0)), f(255)).astype(dtype).astype(np.float32)

    y = clip(f(0.257) * r + f(0.504) * g + f(0.098) * b + f(16))
    u = clip(f(-0.148) * r - f(0.291) * g + f(0.439) * b + f(128))
    v = clip(f(0.439) * r - f(0.368) * g - f(0.071) * b + f(128))
    n, h, w = y.shape

    def mean(c):
        blocks = c.reshape(n, h // 2, 2, w // 2, 2)
        s = ((blocks[:, :, 0, :, 0] + blocks[:, :, 0, :, 1]) + blocks[:, :, 1, :, 0]) + blocks[:, :, 1, :, 1]
        m = s / f(4)
        return (np.floor(m + f(0.5)) if integral else m).astype(dtype)

    uv = np.stack([mean(u), mean(v)], axis=-1).reshape(n, h // 2, w)
    y = y.astype(dtype)
    if node.get_output_size() == 1:
        value = np.concatenate([y, uv], axis=1)[..., None]
    elif out.get_index() == 0:
        value = y[..., None]
    else:
        value = uv.reshape(n, h // 2, w // 2, 2)
    rule = (f"{node.get_type_name()}-17 '{node.get_friendly_name()}': numpy transcription of OpenVINO's reference "
            "implementation (convert_color_to_nv12.hpp: BT.601 Y/U/V in f32, clipped to [0, 255], u8 rounded half "
            "away from zero; U and V the mean of each 2x2 block's stored values); OpenVINO 2026.4 has no CPU kernel "
            "and no evaluate for it")
    return value, rule


def decomposed_reference(
    core: ov.Core, result: ov.Node, params: list, arrays: list[np.ndarray], by_name: dict[str, np.ndarray]
) -> tuple[np.ndarray, str] | None:
    """For a Result of an op OpenVINO defines but its CPU plugin cannot run
    (GroupedMatMul-17 in OpenVINO 2026.4: no kernel, no evaluate), the
    Result computed by OpenVINO's CPU plugin on the equivalent graph of
    opset13 ops, with that graph described; else None. The op's inputs must
    be Parameters or Constants (the offsets' values decide the graph)."""
    import openvino.opset13 as o13

    node = result.input_value(0).get_node()
    if node.get_type_name() != "GroupedMatMul":
        return None
    a, b = node.input_value(0), node.input_value(1)
    if len(a.get_shape()) == 3:
        graph = o13.matmul(a, b, False, True)
        rule = ("GroupedMatMul-17 3-D x 3-D as MatMul(mat_a, mat_b, transpose_b=true) on OpenVINO's CPU plugin "
                "(OpenVINO 2026.4 cannot run GroupedMatMul); offsets, if any, ignored as its shape inference does")
    else:
        src = node.input_value(2).get_node()
        if src.get_type_name() == "Constant":
            ends = [int(v) for v in src.get_data()]
        elif src.get_type_name() == "Parameter":
            ends = [int(v) for v in by_name[src.get_friendly_name()]]
        else:
            return None
        rows, n = node.get_output_shape(0)
        pieces, start = [], 0
        for g, end in enumerate(ends):
            if end > start:
                block = o13.slice(a, np.array([start]), np.array([end]), np.array([1]), np.array([0]))
                weights = o13.gather(b, np.array(g), np.array(0))
                pieces.append(o13.matmul(block, weights, False, True))
            start = end
        if start < rows:
            pieces.append(o13.constant(np.zeros((rows - start, n), dtype=a.get_element_type().to_dtype())))
        graph = pieces[0] if len(pieces) == 1 else o13.concat(pieces, 0)
        rule = (f"GroupedMatMul-17 2-D x 3-D with row ends {ends} as Concat of MatMul(Slice(mat_a, rows), "
                "Gather(mat_b, group), transpose_b=true) and zero rows past the last end, on OpenVINO's CPU "
                "plugin (OpenVINO 2026.4 cannot run GroupedMatMul)")
    try:
        (v,) = infer(core, ov.Model([o13.result(graph)], params), arrays)
    except OvFailure:
        return None
    return v, rule


# ---------------------------------------------------------------------------
# numpy evaluation of models using the project's opset (docs/project-opset.md)
# ---------------------------------------------------------------------------

NP_TYPES = {
    "boolean": np.bool_, "f16": np.float16, "f32": np.float32, "f64": np.float64,
    "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
}

NUMPY_OPS = {
    "Compress": (
        "Compress-ovir1 (ONNX Compress-11): numpy.compress(condition[:n], data, axis) with n = min(len(condition), "
        "data.shape[axis]); without axis, data flattened first and n = min(len(condition), data.size) "
        "(docs/project-opset.md: a longer condition is truncated)"
    ),
    "Extract": (
        "Extract-ovir1 (jax.numpy.extract(condition, arr, size, fill_value)): condition != 0 and arr flattened, "
        "both truncated to the shorter, arr's elements where the condition holds; with size: right-padded with "
        "fill_value (default 0) or truncated to size"
    ),
}


def np_compress(data: np.ndarray, cond: np.ndarray, axis: str | None) -> np.ndarray:
    cond = cond.astype(np.bool_).reshape(-1)
    if axis is None:
        data, ax = data.reshape(-1), 0
    else:
        ax = int(axis)
        ax = ax + data.ndim if ax < 0 else ax
    n = min(cond.size, data.shape[ax])
    return np.compress(cond[:n], data, axis=ax)


def np_extract(cond: np.ndarray, arr: np.ndarray, size: str | None, fill: str | None) -> np.ndarray:
    c, a = (cond.reshape(-1) != 0), arr.reshape(-1)
    n = min(c.size, a.size)
    picked = a[:n][c[:n]]
    if size is None:
        return picked
    if fill is None:
        value = 0
    elif arr.dtype == np.bool_:
        value = {"true": True, "1": True, "false": False, "0": False}[fill.strip().lower()]
    elif np.issubdtype(arr.dtype, np.integer):
        value = int(fill)
    else:
        value = float(fill)
    out = np.full(int(size), value, dtype=arr.dtype)
    k = min(int(size), picked.size)
    out[:k] = picked[:k]
    return out


class NoNumpyRule(Exception):
    pass


class NumpyGraph:
    """An IR model read with ElementTree, evaluated with numpy."""

    def __init__(self, xml_path: Path):
        self.path = xml_path
        root = ET.parse(xml_path).getroot()
        self.layers = {el.get("id"): el for el in root.find("layers")}
        self.edges = {}  # (to layer, to port) -> (from layer, from port)
        for e in root.find("edges"):
            self.edges[(e.get("to-layer"), e.get("to-port"))] = (e.get("from-layer"), e.get("from-port"))
        self.order = [el.get("id") for el in root.find("layers")]

    @staticmethod
    def uses_project_opset(xml_path: Path) -> bool:
        try:
            root = ET.parse(xml_path).getroot()
        except ET.ParseError:
            return False
        return any(re.fullmatch(r"ovir\d+", el.get("version", "")) for el in root.iter("layer"))

    def parameters(self) -> list[tuple[str, str, ov.PartialShape]]:
        """(name, element type, shape) of each Parameter, in layer order."""
        out = []
        for i in self.order:
            el = self.layers[i]
            if el.get("type") == "Parameter":
                d = el.find("data")
                out.append((el.get("name"), d.get("element_type"), ov.PartialShape(d.get("shape"))))
        return out

    def evaluate(self, inputs: dict[str, np.ndarray]) -> dict[str, tuple[np.ndarray, list[str]]]:
        """Result name -> (value, the layers computed for it, in order)."""
        blob = self.path.with_suffix(".bin").read_bytes() if self.path.with_suffix(".bin").exists() else b""
        memo: dict[str, tuple[list[np.ndarray], list[str]]] = {}

        def port_value(lid: str, port: str) -> tuple[np.ndarray, list[str]]:
            values, trail = layer(lid)
            el = self.layers[lid]
            ports = [p.get("id") for p in el.find("output")]
            return values[ports.index(port)], trail

        def layer(lid: str) -> tuple[list[np.ndarray], list[str]]:
            if lid in memo:
                return memo[lid]
            el = self.layers[lid]
            op, version, name = el.get("type"), el.get("version"), el.get("name")
            data = el.find("data")
            attrs = dict(data.attrib) if data is not None else {}
            in_ports = [p.get("id") for p in el.find("input")] if el.find("input") is not None else []
            args, trail = [], []
            for p in in_ports:
                v, t = port_value(*self.edges[(lid, p)])
                args.append(v)
                trail += [x for x in t if x not in trail]
            if op == "Parameter" and version == "opset1":
                values = [inputs[name]]
            elif op == "Const" and version == "opset1":
                dtype = np.dtype(NP_TYPES[attrs["element_type"]])
                off, size = int(attrs["offset"]), int(attrs["size"])
                dims = [int(d) for d in attrs["shape"].split(",") if d.strip()]
                values = [np.frombuffer(blob[off : off + size], dtype=dtype).reshape(dims).copy()]
            elif op == "Result" and version == "opset1":
                values = [args[0]]
            elif op == "Compress" and re.fullmatch(r"ovir\d+", version):
                values = [np_compress(args[0], args[1], attrs.get("axis"))]
                trail.append(f"{name} (Compress)")
            elif op == "Extract" and re.fullmatch(r"ovir\d+", version):
                values = [np_extract(args[0], args[1], attrs.get("size"), attrs.get("fill_value"))]
                trail.append(f"{name} (Extract)")
            else:
                raise NoNumpyRule(f"no numpy rule for {op} ({version}) '{name}'")
            memo[lid] = (values, trail)
            return memo[lid]

        out = {}
        for i in self.order:
            el = self.layers[i]
            if el.get("type") == "Result":
                values, trail = layer(i)
                out[el.get("name")] = (values[0], trail)
        return out


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------


def run_case(core: ov.Core, case: str, model_path: Path, json_path: Path) -> None:
    folder = OUT / case
    folder.mkdir(parents=True)
    seed = zlib.crc32(case.encode())
    meta: dict = {
        "model": model_path.relative_to(ROOT).as_posix(),
        "openvino_version": ov.get_version(),
        "seed": seed,
    }

    def fail(stage: str, message: str) -> None:
        meta["openvino_error"] = {"stage": stage, "message": message}
        write_meta(folder, meta)
        print(f"{case}: openvino_error at {stage}")

    try:
        model = core.read_model(model_path)
    except Exception as e:  # noqa: BLE001 - any OpenVINO failure is recorded
        if NumpyGraph.uses_project_opset(model_path):
            return numpy_case(folder, case, meta, model_path, json_path, OvFailure("read_model", e))
        return fail("read_model", error_text(e))
    binding = choose_binding(
        [(p.get_friendly_name(), p.get_output_partial_shape(0)) for p in model.get_parameters()], json_path
    )
    fixed_dims, fixed_values = BODY_CASES.get(case, ("", {}, {}))[1:]
    binding.update(fixed_dims)
    meta["binding"] = binding
    if case in DYNAMIC_CASES:
        meta["compiled_dynamic"] = True
    else:
        try:
            model.reshape({p.output(0): ov.PartialShape(binding[p.get_friendly_name()]) for p in model.get_parameters()})
        except Exception as e:  # noqa: BLE001
            return fail("reshape", error_text(e))

    rng = np.random.default_rng(seed)
    used: set[str] = set()
    inputs: dict[str, np.ndarray] = {}  # file -> array
    in_names: dict[str, str] = {}
    by_name: dict[str, np.ndarray] = {}
    try:
        arrays = []
        for p in model.get_parameters():
            name = p.get_friendly_name()
            a = random_input(rng, np.dtype(p.get_element_type().to_dtype()), binding[name], name)
            if name in fixed_values:
                a = np.full(binding[name], fixed_values[name], dtype=a.dtype)
            f = unique("in", name, used)
            inputs[f] = a
            in_names[f] = name
            by_name[name] = a
            arrays.append(a)
    except ValueError as e:
        return fail("inputs", error_text(e))

    params = model.get_parameters()
    results = model.get_results()
    # Result name -> (value, None for OpenVINO's default CPU run, else how).
    values: dict[str, tuple[np.ndarray, dict | None]] = {}
    dropped: dict[str, dict] = {}
    # A stateful model (Assign sinks) runs twice: the second run reads the state.
    second: list[np.ndarray] | None = [] if model.get_sinks() else None
    try:
        for r, v in zip(results, infer(core, model, arrays, second_run=second)):
            values[r.get_friendly_name()] = (v, None)
    except OvFailure as whole:
        bad: dict[str, OvFailure] = {}
        for r in results:
            try:
                infer(core, ov.Model([r], params), arrays)
            except OvFailure as f:
                bad[r.get_friendly_name()] = f
        if not bad:  # fails only as a whole: nothing to drop
            return fail(whole.stage, whole.message)
        good = [r for r in results if r.get_friendly_name() not in bad]
        if good:
            try:
                for r, v in zip(good, infer(core, ov.Model(good, params), arrays)):
                    values[r.get_friendly_name()] = (v, None)
            except OvFailure as f:
                return fail(f.stage, f.message)
        for r in results:
            name = r.get_friendly_name()
            if name not in bad:
                continue
            dropped[name] = bad[name].record()
            try:
                (v,) = infer(core, ov.Model([r], params), arrays, RETRY_CONFIG)
                values[name] = (v, {"reference": "openvino_cpu", "cpu_config": RETRY_CONFIG})
                continue
            except OvFailure as f:
                dropped[name]["retry"] = {"cpu_config": RETRY_CONFIG, **f.record()}
            ref = numpy_rule(r, by_name)
            if ref is not None:
                values[name] = (ref[0], {"reference": "numpy", "rule": ref[1]})
                continue
            ref = decomposed_reference(core, r, params, arrays, by_name)
            if ref is not None:
                values[name] = (ref[0], {"reference": "openvino_decomposed", "rule": ref[1]})
        if not values:
            return fail(whole.stage, whole.message)
        for name, d in dropped.items():
            how = values.get(name, (None, {"reference": "none"}))[1]["reference"]
            print(f"{case}: OpenVINO fails on output {name} ({d['stage']}); reference: {how}")

    outputs: dict[str, np.ndarray] = {}
    out_names: dict[str, str | dict] = {}
    for r in results:
        name = r.get_friendly_name()
        if name not in values:
            continue
        v, how = values[name]
        f = unique("out", name, used)
        outputs[f] = v
        out_names[f] = name if how is None else {"result": name, **how}
    meta["inputs"] = in_names
    meta["outputs"] = out_names
    if second:
        meta["second_run_outputs"] = {}
        for r, v in zip(results, second):
            f = unique("out_run2", r.get_friendly_name(), used)
            outputs[f] = v
            meta["second_run_outputs"][f] = r.get_friendly_name()
    if dropped:
        meta["dropped_outputs"] = dropped
    save(folder, case, meta, inputs, outputs)


def numpy_case(
    folder: Path, case: str, meta: dict, model_path: Path, json_path: Path, why: OvFailure
) -> None:
    """A model OpenVINO cannot read (the project's opset): numpy throughout."""
    meta["openvino_error"] = why.record()
    graph = NumpyGraph(model_path)
    params = graph.parameters()
    binding = choose_binding([(n, ps) for n, _, ps in params], json_path)
    fixed_dims, fixed_values = BODY_CASES.get(case, ("", {}, {}))[1:]
    binding.update(fixed_dims)
    meta["binding"] = binding
    rng = np.random.default_rng(meta["seed"])
    used: set[str] = set()
    inputs: dict[str, np.ndarray] = {}
    in_names: dict[str, str] = {}
    by_name: dict[str, np.ndarray] = {}
    for name, et, _ in params:
        a = random_input(rng, np.dtype(NP_TYPES[et]), binding[name])
        f = unique("in", name, used)
        inputs[f], in_names[f], by_name[name] = a, name, a
    try:
        results = graph.evaluate(by_name)
    except NoNumpyRule as e:
        meta["openvino_error"]["message"] += f" (and {e})"
        write_meta(folder, meta)
        print(f"{case}: openvino_error at {why.stage}, {e}")
        return
    outputs: dict[str, np.ndarray] = {}
    out_names: dict[str, dict] = {}
    ops = set()
    for name, (v, trail) in results.items():
        f = unique("out", name, used)
        outputs[f] = v
        out_names[f] = {"result": name, "reference": "numpy", "rule": "numpy evaluation of " + ", ".join(trail)}
        ops.update(t.rsplit("(", 1)[1].rstrip(")") for t in trail)
    meta["reference"] = "numpy"
    meta["numpy_ops"] = {op: NUMPY_OPS[op] for op in sorted(ops)}
    meta["inputs"] = in_names
    meta["outputs"] = out_names
    save(folder, case, meta, inputs, outputs)


def save(folder: Path, case: str, meta: dict, inputs: dict[str, np.ndarray], outputs: dict[str, np.ndarray]) -> None:
    total = sum(a.nbytes for a in list(inputs.values()) + list(outputs.values()))
    if total > MAX_BYTES:
        meta["skipped"] = f"arrays total {total} bytes > {MAX_BYTES}"
        write_meta(folder, meta)
        print(f"{case}: skipped ({total} bytes)")
        return
    for f, a in list(inputs.items()) + list(outputs.items()):
        np.save(folder / f, np.array(a, order="C", copy=True))  # keeps 0-d arrays 0-d
    write_meta(folder, meta)
    print(f"{case}: {len(inputs)} inputs, {len(outputs)} outputs, {total} bytes")


def write_meta(folder: Path, meta: dict) -> None:
    (folder / "case.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")


# Cases of the samples of ``ir-samples/bodies/`` (``scripts/gen_body_models.py``)
# that fix some dims or input values: case -> (sample, Parameter -> dims,
# Parameter -> the value of every element). Both branches of each If, a Loop
# whose trip count covers its sliced input, a Loop run zero times (trip count
# 0, execution condition false), sliced inputs whose counts agree.
# Cases compiled with their dynamic shapes, not reshaped to the binding:
# what the CPU plugin computes depends on a dim being static at compile time
# (an f16 attention's default scale is folded in f16 only when the query's
# last dim is static; scripts/probe_cpu_precision.py).
DYNAMIC_CASES = {"precision_f16_attention_dynamic"}

BODY_CASES: dict[str, tuple[str, dict[str, list[int]], dict[str, object]]] = {
    "bodies_if_relu_negative": ("if_relu_negative", {}, {"cond": True}),
    "bodies_if_relu_negative_else": ("if_relu_negative", {}, {"cond": False}),
    "bodies_if_branches_differ": ("if_branches_differ", {}, {"cond": True}),
    "bodies_if_branches_differ_else": ("if_branches_differ", {}, {"cond": False}),
    "bodies_loop_accumulate": ("loop_accumulate", {"xs": [4, 5, 3]}, {}),
    "bodies_loop_growing": ("loop_growing", {}, {"trip": 3}),
    "bodies_loop_growing_zero_trips": ("loop_growing", {}, {"trip": 0}),
    "bodies_loop_until_condition": ("loop_until_condition", {}, {"go": True}),
    "bodies_loop_until_condition_not_run": ("loop_until_condition", {}, {"go": False}),
    "bodies_loop_reverse_slices": ("loop_reverse_slices", {"xs": [2, 4, 3]}, {"trip": 4}),
    "bodies_ti_reverse": ("ti_reverse", {"x": [2, 4, 3], "y": [8, 3]}, {}),
    "bodies_loop_gather_rows": ("loop_gather_rows", {"table": [4, 2]}, {"trip": 4}),
    "bodies_torch_if_sum_then": ("torch_if_sum", {}, {"x": 0.5}),
}


def all_cases() -> dict[str, tuple[Path, Path]]:
    """Case name -> (model, json with static bindings), in generation order."""
    cases = {}
    for xml in sorted(GOLDEN.glob("*.xml")):
        if not xml.stem.startswith("invalid_"):
            cases[xml.stem] = (xml, xml.with_suffix(".json"))
    for xml in sorted(SAMPLES.glob("*.xml")):
        cases[f"sample_{xml.stem}"] = (xml, SAMPLES / "golden" / f"{xml.stem}.json")
    for xml in sorted((SAMPLES / "models").glob("*.xml")):
        cases[f"model_{xml.stem}"] = (xml, SAMPLES / "models" / "golden" / f"{xml.stem}.json")
    bodies = SAMPLES / "bodies"
    varied = {stem for stem, _, _ in BODY_CASES.values()}
    for xml in sorted(bodies.glob("*.xml")):
        if xml.stem not in varied:
            cases[f"bodies_{xml.stem}"] = (xml, bodies / "golden" / f"{xml.stem}.json")
    for case, (stem, _, _) in BODY_CASES.items():
        cases[case] = (bodies / f"{stem}.xml", bodies / "golden" / f"{stem}.json")
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="CASE", help="regenerate only these case folders")
    args = parser.parse_args()
    cases = all_cases()
    if args.only:
        unknown = [c for c in args.only if c not in cases]
        if unknown:
            sys.exit(f"unknown case(s): {', '.join(unknown)}")
        chosen = [c for c in cases if c in args.only]
        for c in chosen:
            if (OUT / c).exists():
                shutil.rmtree(OUT / c)
    else:
        chosen = list(cases)
        if OUT.exists():
            shutil.rmtree(OUT)
    OUT.mkdir(parents=True, exist_ok=True)
    core = ov.Core()
    core.set_property("CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    for c in chosen:
        run_case(core, c, *cases[c])


if __name__ == "__main__":
    main()
