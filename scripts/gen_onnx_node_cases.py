#!/usr/bin/env python3
"""ONNX's own backend node tests for Compress, Slice, Reshape, Where,
NonMaxSuppression, GridSample, RoiAlign, AveragePool, TopK, Tile, If,
Loop and Scan, and those of Cast, CastLike and DequantizeLinear with
a low-precision input or output (f8, f4, i4, u4, e8m0, bf16), converted to
OpenVINO IR, for the executor's ``tests/onnx_node.rs``.
(``scripts/onnx_node_sweep.py`` runs every other node test too, against
OpenVINO's CPU plugin, without committing them.)

Run from the repository root: ``python3 scripts/gen_onnx_node_cases.py``
(``pip install -r scripts/requirements.txt`` first: it needs the ``onnx``
and ``openvino`` versions pinned there).

The cases come from the ``onnx`` package itself:
``onnx.backend.test.case.node.collect_testcases()`` imports every generator
module under ``onnx/backend/test/case/node/`` and runs each ``export*``
method (with ``np.random.seed(0)`` before each, so the random inputs are the
same on every run), collecting what ``expect()`` records: the one-node ONNX
model, its inputs and the expected outputs. Every case whose node's op type
is one of ``OPS`` is kept -- every variant the package has
(function-expanded ``*_expanded`` cases, whose graph is the op's
decomposition into other ops, do not exist for these ops; a case is
selected by the op type of the node under test, so a decomposition of some
other op that merely contains a Reshape is not one). None of these cases
expects a failure; the script would stop on one (``expect`` has no way to
say so, and a case whose expected output is missing is an error here).

Each model is converted with ``openvino.convert_model`` and saved with
``openvino.save_model(model, path, compress_to_fp16=False)``. Written under
``crates/executor/tests/onnx_node/<case name>/``:

* ``model.xml`` + ``model.bin``: the converted IR;
* ``in_<k>.npy``: the ONNX node's ``k``-th present input, ``out_<k>.npy``
  its ``k``-th output with the value **ONNX** expects (not OpenVINO's). bf16
  has no numpy dtype: a bf16 array is saved as ``<f4`` (exact) and listed in
  ``bf16``;
* ``case.json``: ``onnx_op``, ``onnx_opset``, ``onnx_node`` (the node as
  text), ``inputs`` (file -> the IR Parameter's friendly name, which
  ``convert_model`` makes the ONNX input name; the Parameter's output tensor
  carries the same name), ``outputs`` (file -> the IR Result's friendly name,
  ``<ONNX output name>/sink_port_0``; the tensor name is the ONNX output
  name), ``onnx_names`` (file -> ONNX input/output name), ``bf16`` (files
  holding bf16), ``codes`` (files of a type numpy has no dtype for -- f8,
  f4, i4, u4, e8m0 -- saved as their codes, one a byte, as ``ir-check --run``
  takes and writes them), ``openvino_version``, and ``openvino_cpu``: whether
  OpenVINO's own CPU plugin (``INFERENCE_PRECISION_HINT=f32``) reproduces the
  expected outputs under the rule the Rust test uses (``"matches"``, or what
  differs, or the error), compiling the saved ``model.xml`` (read back with
  ``core.read_model``, as ``onnx_node_sweep.py`` does) -- information only,
  to tell an ONNX-frontend conversion problem from an executor bug.

A case OpenVINO cannot convert keeps only its ``case.json`` with
``openvino_error`` (``stage``, ``message``). The whole folder is regenerated
from scratch, and the output is the same on every run.
"""

from __future__ import annotations

import io
import json
import shutil
import warnings
from pathlib import Path

import ml_dtypes
import numpy as np
import onnx
import openvino as ov

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "crates/executor/tests/onnx_node"
OPS = (
    "Compress", "Slice", "Reshape", "Where", "NonMaxSuppression", "GridSample",
    "RoiAlign", "AveragePool", "TopK", "Tile", "If", "Loop", "Scan",
)
# Kept only when an input or output is of a type numpy has no dtype for (f8,
# f4, i4, u4, e8m0, bf16): the low-precision conversions. (QuantizeLinear's
# cases are not among them: convert_model folds some of their inputs.)
LOW_PRECISION_OPS = ("Cast", "CastLike", "DequantizeLinear")


def collect() -> list:
    """The backend node test cases of ``OPS``, sorted by name."""
    from onnx.backend.test.case.node import collect_testcases

    # Other ops' generators (run too: collect_testcases imports every module)
    # warn about overflows and divisions by zero they make on purpose.
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        cases = collect_testcases(None)
    kept = []
    for c in cases:
        nodes = c.model.graph.node
        # (An `_expanded` CastLike is one Cast of two graph inputs: not the node's.)
        converts = low_precision(c) and not c.name.endswith("_expanded")
        ops_of_case = OPS + (LOW_PRECISION_OPS if converts else ())
        if len(nodes) == 1 and nodes[0].op_type in ops_of_case and nodes[0].domain in ("", "ai.onnx"):
            if all(is_tensor(v) for data in c.data_sets for values in data for v in values):
                kept.append(c)
            else:
                # An If or Loop over ONNX sequences or optionals: no IR form.
                print(f"{c.name}: skipped, it feeds or expects a sequence or optional")
    names = [c.name for c in kept]
    if len(set(names)) != len(names):
        raise SystemExit(f"duplicate case names: {names}")
    return sorted(kept, key=lambda c: c.name)


def low_precision(case) -> bool:
    """Whether a value of the case is an ``ml_dtypes`` array (f8, f4, i4, u4, e8m0, bf16)."""
    values = [v for data in case.data_sets for vs in data for v in vs if is_tensor(v)]
    return any(as_array(v).dtype.type.__module__ == "ml_dtypes" for v in values)


def is_codes(a: np.ndarray) -> bool:
    """An ``ml_dtypes`` array of one byte an element (f8, f4, i4, u4, e8m0)."""
    return a.dtype.type.__module__ == "ml_dtypes" and a.dtype.itemsize == 1


def is_tensor(value) -> bool:
    return isinstance(value, (onnx.TensorProto, np.ndarray, np.generic))


def as_array(value) -> np.ndarray:
    if isinstance(value, onnx.TensorProto):
        return onnx.numpy_helper.to_array(value)
    if isinstance(value, np.generic):
        return np.asarray(value)
    if not isinstance(value, np.ndarray):
        raise SystemExit(f"unsupported test value {type(value)}")
    return value


def is_bf16(a: np.ndarray) -> bool:
    return a.dtype == ml_dtypes.bfloat16


def save(path: Path, a: np.ndarray) -> None:
    if is_bf16(a):
        a = a.astype(np.float32)  # exact: a bf16 is the high half of an f32
    elif is_codes(a):
        a = a.view(np.uint8)  # its codes, as ir-check --run takes them
    np.save(path, np.array(a, order="C", copy=True))  # keeps 0-d arrays 0-d


def cpu_agreement(core: ov.Core, model: ov.Model, inputs: list[np.ndarray],
                  by_param: dict[str, int], outputs: list[np.ndarray], by_result: list[int]) -> str:
    """Whether OpenVINO's CPU plugin computes ONNX's expected outputs."""
    try:
        compiled = core.compile_model(model, "CPU")
        feed = {}
        for i, p in enumerate(model.get_parameters()):
            a = inputs[by_param[p.get_friendly_name()]]
            feed[compiled.input(i)] = openvino_input(p, a)
        request = compiled.create_infer_request()
        request.infer(feed)
    except Exception as e:  # noqa: BLE001 - recorded, not fatal
        return f"error: {one_line(e)}"
    for i, k in enumerate(by_result):
        t = request.get_output_tensor(i)
        want = outputs[k]
        if is_codes(want):
            got, want = unpack_codes(t), want.view(np.uint8)
        elif is_bf16(want):
            if t.element_type != ov.Type.bf16:
                return f"output {k}: element type {t.element_type.get_type_name()} vs bf16"
            got = np.array(t.data, copy=True).view(ml_dtypes.bfloat16).astype(np.float32)
            want = want.astype(np.float32)
        elif not is_codes(outputs[k]):
            got = np.array(t.data, copy=True)
        if got.dtype != want.dtype:
            return f"output {k}: dtype {got.dtype} vs {want.dtype}"
        if got.shape != want.shape:
            return f"output {k}: shape {list(got.shape)} vs {list(want.shape)}"
        if np.issubdtype(want.dtype, np.floating):
            g, w = got.astype(np.float64), want.astype(np.float64)
            ok = (np.isnan(g) & np.isnan(w)) | (g == w) | (np.abs(g - w) <= 1e-5 * np.maximum(np.abs(w), 1.0))
            if not ok.all():
                return f"output {k}: {int((~ok).sum())} of {ok.size} elements differ"
        elif not np.array_equal(got, want):
            return f"output {k}: {int((got != want).sum())} of {got.size} elements differ"
    return "matches"


def openvino_input(parameter, a: np.ndarray):
    """An input as OpenVINO takes it: an ``ml_dtypes`` array as a tensor of
    the Parameter's type, byte for byte (4-bit codes packed two a byte, low
    nibble first): OpenVINO's Python API cannot take 4-bit arrays and
    misreads some 8-bit ones."""
    if a.dtype.type.__module__ != "ml_dtypes":
        return a
    t = ov.Tensor(parameter.get_element_type(), list(a.shape))
    raw = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
    if parameter.get_element_type().bitwidth == 4:
        codes = np.append(raw & 15, np.zeros(raw.size % 2, np.uint8))
        raw = codes[0::2] | (codes[1::2] << 4)
    np.asarray(t.data).reshape(-1).view(np.uint8)[:] = raw
    return t


def unpack_codes(t: ov.Tensor) -> np.ndarray:
    """An OpenVINO tensor of a storage type as one code a byte, in its shape
    (OpenVINO packs sub-byte codes from the low bits up, u1 from the high bit
    down)."""
    bits = t.element_type.bitwidth
    raw = np.array(t.data, copy=True).view(np.uint8).ravel()
    count = int(np.prod(list(t.shape), dtype=np.int64))
    per = 8 // bits
    slots = np.arange(per)[::-1] if bits == 1 else np.arange(per)
    codes = (raw[:, None] >> (slots * bits)[None, :]) & ((1 << bits) - 1)
    return codes.ravel()[:count].astype(np.uint8).reshape(list(t.shape))


def one_line(e: Exception) -> str:
    lines = [x.strip() for x in str(e).splitlines()]
    lines = [x for x in lines if x and not x.startswith("Exception from src/")]
    return " ".join(lines)[:600] or repr(e)


def run_case(core: ov.Core, case) -> None:
    folder = OUT / case.name
    folder.mkdir(parents=True)
    node = case.model.graph.node[0]
    opset = next(o.version for o in case.model.opset_import if o.domain in ("", "ai.onnx"))
    meta: dict = {
        "onnx_op": node.op_type,
        "onnx_opset": opset,
        "onnx_node": onnx.helper.printable_node(node),
        "openvino_version": ov.get_version(),
    }
    if len(case.data_sets) != 1:
        raise SystemExit(f"{case.name}: {len(case.data_sets)} data sets")
    inputs = [as_array(a) for a in case.data_sets[0][0]]
    outputs = [as_array(a) for a in case.data_sets[0][1]]
    in_names = [x for x in node.input if x]
    out_names = [x for x in node.output if x]
    if len(inputs) != len(in_names) or len(outputs) != len(out_names):
        raise SystemExit(f"{case.name}: inputs/outputs do not match the node")

    try:
        model = ov.convert_model(io.BytesIO(case.model.SerializeToString()))
    except Exception as e:  # noqa: BLE001 - any OpenVINO failure is recorded
        meta["openvino_error"] = {"stage": "convert_model", "message": one_line(e)}
        write_meta(folder, meta)
        print(f"{case.name}: openvino_error at convert_model")
        return
    ov.save_model(model, folder / "model.xml", compress_to_fp16=False)

    # convert_model names each Parameter (and its tensor) after the ONNX input,
    # and each Result `<ONNX output>/sink_port_0` (its input tensor keeps the
    # ONNX output name); pair them through the tensor names.
    by_param: dict[str, int] = {}
    for p in model.get_parameters():
        names = p.output(0).get_names()
        ks = [k for k, n in enumerate(in_names) if n in names]
        if len(ks) != 1:
            raise SystemExit(f"{case.name}: Parameter {p.get_friendly_name()} is none of {in_names}")
        by_param[p.get_friendly_name()] = ks[0]
    by_result: list[int] = []
    for r in model.get_results():
        names = r.input_value(0).get_names()
        ks = [k for k, n in enumerate(out_names) if n in names]
        if len(ks) != 1:
            raise SystemExit(f"{case.name}: Result {r.get_friendly_name()} is none of {out_names}")
        by_result.append(ks[0])
    if sorted(by_param.values()) != list(range(len(inputs))):
        raise SystemExit(f"{case.name}: not every ONNX input is a Parameter")
    if sorted(by_result) != list(range(len(outputs))):
        raise SystemExit(f"{case.name}: not every ONNX output is a Result")

    meta["inputs"] = {f"in_{k}.npy": name for name, k in by_param.items()}
    meta["outputs"] = {f"out_{k}.npy": r.get_friendly_name() for r, k in zip(model.get_results(), by_result)}
    meta["onnx_names"] = {f"in_{k}.npy": n for k, n in enumerate(in_names)} | {
        f"out_{k}.npy": n for k, n in enumerate(out_names)
    }
    meta["codes"] = sorted(
        [f"in_{k}.npy" for k, a in enumerate(inputs) if is_codes(a)]
        + [f"out_{k}.npy" for k, a in enumerate(outputs) if is_codes(a)]
    )
    meta["bf16"] = sorted(
        [f"in_{k}.npy" for k, a in enumerate(inputs) if is_bf16(a)]
        + [f"out_{k}.npy" for k, a in enumerate(outputs) if is_bf16(a)]
    )
    for k, a in enumerate(inputs):
        save(folder / f"in_{k}.npy", a)
    for k, a in enumerate(outputs):
        save(folder / f"out_{k}.npy", a)
    # The plugin compiles the saved IR, the graph the Rust test reads, not the
    # frontend's model in memory (onnx_node_sweep.py's docstring says why they differ).
    saved = core.read_model(folder / "model.xml")
    meta["openvino_cpu"] = cpu_agreement(core, saved, inputs, by_param, outputs, by_result)
    write_meta(folder, meta)
    print(f"{case.name}: {len(inputs)} inputs, {len(outputs)} outputs, OpenVINO CPU: {meta['openvino_cpu']}")


def write_meta(folder: Path, meta: dict) -> None:
    (folder / "case.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")


def main() -> None:
    cases = collect()
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    core = ov.Core()
    core.set_property("CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    for case in cases:
        run_case(core, case)
    print(f"{len(cases)} cases of {', '.join(OPS)} under {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
