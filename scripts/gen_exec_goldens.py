#!/usr/bin/env python3
"""Conformance goldens for the executor: OpenVINO's own CPU plugin run on
seeded random inputs.

Run from the repository root: ``python3 scripts/gen_exec_goldens.py``.

For each graph ``crates/shape-infer/tests/golden/<case>.xml`` (``invalid_*``
cases skipped) and each sample ``ir-samples/<name>.xml`` (case
``sample_<name>``), one static binding is chosen: the first valid entry of the
case's json ``static_bindings`` (``ir-samples/golden/<name>.json`` for
samples), else the Parameters' static shapes, else every dynamic dim at 3
(clamped into its interval; a dynamic rank becomes ``[2,3]``). Inputs are
seeded random (the seed is the CRC-32 of the case name): floats uniform in
[-3, 3], integers in [0, 4) (they often feed shape-like inputs), booleans
random. The model, reshaped to the binding, is compiled for ``CPU`` with
``INFERENCE_PRECISION_HINT=f32`` (no bf16 compute) and run once.

Written under ``crates/executor/tests/conformance/<case>/``:

* ``in_<param>.npy`` per Parameter, ``out_<result>.npy`` per Result, names
  sanitized (chars other than letters, digits, ``.``, ``-``, ``_`` become
  ``_``; a name colliding with an earlier file gets a ``_N`` suffix);
* ``case.json``: ``model`` (path from the repository root), ``binding``
  (Parameter friendly name -> dims), ``inputs`` / ``outputs`` (file name ->
  Parameter / Result friendly name), ``seed``, ``openvino_version``.

A case OpenVINO cannot read, reshape, compile or run keeps only its
``case.json`` with ``openvino_error`` (``stage``, ``message``); a case whose
arrays exceed 64 KB in total keeps only its ``case.json`` with ``skipped``.
The whole folder is regenerated from scratch.
"""

from __future__ import annotations

import json
import re
import shutil
import zlib
from pathlib import Path

import numpy as np
import openvino as ov

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "crates/executor/tests/conformance"
GOLDEN = ROOT / "crates/shape-infer/tests/golden"
SAMPLES = ROOT / "ir-samples"
MAX_BYTES = 64 * 1024


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


def choose_binding(model: ov.Model, json_path: Path) -> dict[str, list[int]]:
    """Parameter friendly name -> static dims for every Parameter."""
    given: dict[str, list[int]] = {}
    if json_path.exists():
        meta = json.loads(json_path.read_text())
        for b in meta.get("static_bindings", []):
            if "error" not in b and not b.get("invalid"):
                given = b["inputs"]
                break
    binding = {}
    for p in model.get_parameters():
        name = p.get_friendly_name()
        ps = p.get_output_partial_shape(0)
        if name in given:
            binding[name] = list(given[name])
        elif ps.is_static:
            binding[name] = [d.get_length() for d in ps]
        elif ps.rank.is_dynamic:
            binding[name] = [2, 3]
        else:
            binding[name] = [d.get_length() if d.is_static else clamp(3, d) for d in ps]
    return binding


def random_input(rng: np.random.Generator, et: ov.Type, shape: list[int]) -> np.ndarray:
    dtype = np.dtype(et.to_dtype())
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.issubdtype(dtype, np.floating):
        return rng.uniform(-3.0, 3.0, size=shape).astype(dtype)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(0, 4, size=shape).astype(dtype)
    raise ValueError(f"no generator for element type {et}")


def run_case(core: ov.Core, case: str, model_path: Path, json_path: Path) -> None:
    folder = OUT / case
    folder.mkdir(parents=True)
    seed = zlib.crc32(case.encode())
    meta: dict = {
        "model": model_path.relative_to(ROOT).as_posix(),
        "openvino_version": ov.get_version(),
        "seed": seed,
    }

    def fail(stage: str, e: Exception) -> None:
        lines = [x.strip() for x in str(e).splitlines()]
        lines = [x for x in lines if x and not x.startswith("Exception from src/")]
        meta["openvino_error"] = {"stage": stage, "message": " ".join(lines)[:600] or repr(e)}
        write_meta(folder, meta)
        print(f"{case}: openvino_error at {stage}")

    try:
        model = core.read_model(model_path)
    except Exception as e:  # noqa: BLE001 - any OpenVINO failure is recorded
        return fail("read_model", e)
    binding = choose_binding(model, json_path)
    meta["binding"] = binding
    try:
        model.reshape({p.output(0): ov.PartialShape(binding[p.get_friendly_name()]) for p in model.get_parameters()})
    except Exception as e:  # noqa: BLE001
        return fail("reshape", e)

    rng = np.random.default_rng(seed)
    used: set[str] = set()
    inputs: dict[str, np.ndarray] = {}  # file -> array
    in_names: dict[str, str] = {}
    try:
        arrays = []
        for p in model.get_parameters():
            a = random_input(rng, p.get_element_type(), binding[p.get_friendly_name()])
            f = unique("in", p.get_friendly_name(), used)
            inputs[f] = a
            in_names[f] = p.get_friendly_name()
            arrays.append(a)
    except ValueError as e:
        return fail("inputs", e)

    try:
        compiled = core.compile_model(model, "CPU")
    except Exception as e:  # noqa: BLE001
        return fail("compile_model", e)
    try:
        request = compiled.create_infer_request()
        request.infer({compiled.input(i): a for i, a in enumerate(arrays)})
        outputs: dict[str, np.ndarray] = {}
        out_names: dict[str, str] = {}
        for i, r in enumerate(model.get_results()):
            f = unique("out", r.get_friendly_name(), used)
            outputs[f] = np.array(request.get_output_tensor(i).data, copy=True)
            out_names[f] = r.get_friendly_name()
    except Exception as e:  # noqa: BLE001
        return fail("infer", e)

    meta["inputs"] = in_names
    meta["outputs"] = out_names
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


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    core = ov.Core()
    core.set_property("CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    for xml in sorted(GOLDEN.glob("*.xml")):
        if xml.stem.startswith("invalid_"):
            continue
        run_case(core, xml.stem, xml, xml.with_suffix(".json"))
    for xml in sorted(SAMPLES.glob("*.xml")):
        run_case(core, f"sample_{xml.stem}", xml, SAMPLES / "golden" / f"{xml.stem}.json")


if __name__ == "__main__":
    main()
