#!/usr/bin/env python3
"""Every ONNX backend node test, converted by OpenVINO's ONNX frontend, run
through ``ir-check --run`` and compared with OpenVINO's own CPU plugin.

Run from the repository root after ``cargo build --release -p ir-check``:
``python3 scripts/onnx_node_sweep.py [--write docs/onnx-node-sweep.md] [CASE_PREFIX...]``

This is the measurement behind issue 17's "done when": of the graphs
OpenVINO converts and runs, how many ``ir-check`` accepts (valid, without
``--allow-unknown-ops``), how many it runs, and how many of those give
OpenVINO's outputs. Unlike ``gen_onnx_node_cases.py`` (which commits a few
ops' cases, with ONNX's expected outputs, for ``cargo test``), nothing here
is committed but the summary: the reference is OpenVINO's CPU plugin
(``INFERENCE_PRECISION_HINT=f32``), because where OpenVINO's frontend
converts an op differently from ONNX's definition we follow OpenVINO. f16
graphs are run with ``ir-check --run``'s default ``--precision plugin``,
which computes them as that plugin does (in f32 between layers).

The plugin compiles the IR ``ir-check`` reads: the converted model is saved
(``save_model``, no f16 compression) and read back with ``core.read_model``,
and that model is compiled, not the frontend's model in memory. The two are
not the same graph to the plugin: the frontend's conversion marks some
ShapeOf layers ``DisableConstantFolding`` (a runtime attribute that
``save_model`` does not write), so from memory a scale computed from a
static shape, such as the ``1/sqrt(E)`` of ONNX's Attention decomposition,
stays a run-time value, while from the IR it is folded into a constant that
the plugin moves into a bf16 MatMul's operand and rounds there (measured on
ONNX's padded-kv bf16 attention cases: removing the attribute from the model
in memory gives the IR's outputs bit for bit).

Each case goes through these stages; the first one that fails is its row:

* ``openvino convert`` / ``openvino run``: OpenVINO itself refuses the
  graph (not counted against us);
* ``unsupported input``: the test feeds a sequence, map or optional;
* ``refused``: ``ir-check`` says the model is invalid (the table groups these
  by rule and op type);
* ``run failed``: valid, but ``--run`` failed;
* ``differs``: ran, but an output's shape, dtype or values differ from
  OpenVINO's (floats: within 1e-4 relative, 1e-5 absolute; NaN equals NaN);
* ``random``: the graph draws unseeded random numbers (a RandomUniform or
  Multinomial with both seeds 0, as OpenVINO's frontend lowers ONNX's
  Bernoulli and RandomUniformLike, even with ``seed`` 0: OpenVINO's spec
  makes that non-deterministic), OpenVINO's own runs differ from one
  another, and the outputs' shapes, types and value domain
  (``random_outcome``) equal (checked after ``equal to ONNX``);
* ``undefined``: the outputs that differ from OpenVINO's are the indices of
  a TopK whose ``stable`` is false, and every output is ONNX's expected one:
  OpenVINO's spec leaves the order of equal values undefined then (the CPU
  plugin's depends on the sorting algorithm it picks for the shape and
  ``k``: a bubble, heap or bitonic sort), so there is nothing to follow;
* ``equal to ONNX``: an output differs from OpenVINO's but every output is
  ONNX's expected one (OpenVINO's CPU plugin is wrong; the detail says so
  when the plugin's own runs differ from one another, as its Tile by a
  run-time ``repeats`` does when the three innermost dims all repeat);
* ``equal``: everything matches.

Inputs and outputs of the types numpy has no dtype for travel as
``ir-check --run`` takes and writes them (README, ``--run``): an
``ml_dtypes`` input (bf16, f8, f4, i4, u4, e8m0) is saved by ``np.save`` as
raw ``|V1``/``|V2`` codes, one element a byte; an output of such a type is
compared code for code (OpenVINO's packed 4-bit outputs are unpacked one
code a byte, as ``ir-check`` writes them), bf16 as f32.
"""

from __future__ import annotations

import argparse
import collections
import io
import json
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import ml_dtypes
import numpy as np
import openvino as ov

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_onnx_node_cases as node_cases  # noqa: E402 - the shared helpers

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_IR_CHECK = ROOT / "target/release/ir-check"


def collect_all(prefixes: list[str]) -> list:
    """Every node test case of the installed ``onnx`` package, by name."""
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        cases = collect_testcases(None)
    if prefixes:
        cases = [c for c in cases if any(c.name.startswith(p) for p in prefixes)]
    return sorted(cases, key=lambda c: c.name)


def test_value(value) -> np.ndarray:
    """A node test's input as an array (sequences, maps and optionals have no IR form)."""
    if isinstance(value, np.generic):
        return np.asarray(value)
    if isinstance(value, np.ndarray) or type(value).__name__ == "TensorProto":
        return node_cases.as_array(value)
    raise TypeError(f"a {type(value).__name__} input, which neither OpenVINO's API nor ir-check can feed")


def openvino_outputs(core: ov.Core, model: ov.Model, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
    compiled = core.compile_model(model, "CPU")
    request = compiled.create_infer_request()
    request.infer({compiled.input(p.get_friendly_name()): node_cases.openvino_input(p, feed[p.get_friendly_name()]) for p in model.get_parameters()})
    outputs = []
    for i in range(len(model.outputs)):
        t = request.get_output_tensor(i)
        if t.element_type == ov.Type.bf16:
            # `.data` of a bf16 tensor is its raw bits; ir-check writes bf16 as f32.
            bits = np.array(t.data, copy=True).view(np.uint16).astype(np.uint32) << 16
            outputs.append(bits.view(np.float32))
        elif t.element_type.get_type_name() in CODE_BITS:
            outputs.append(node_cases.unpack_codes(t))
        else:
            outputs.append(np.array(t.data, copy=True))
    return outputs


# OpenVINO's storage types, which ir-check writes one code a byte (`|u1`).
CODE_BITS = {"f8e4m3": 8, "f8e5m2": 8, "f8e8m0": 8, "f4e2m1": 4, "nf4": 4, "i4": 4, "u4": 4, "u2": 2, "u1": 1}


def as_codes(a: np.ndarray) -> np.ndarray:
    """An ``ml_dtypes`` array of one byte an element as its codes (bf16 is compared as f32)."""
    if a.dtype == ml_dtypes.bfloat16:
        return a.astype(np.float32)
    if a.dtype.type.__module__ == "ml_dtypes" and a.dtype.itemsize == 1:
        return a.view(np.uint8)
    return a


def npy_name(result_name: str) -> str:
    """The file ``ir-check --run`` writes for a Result (see its ``--output-dir``)."""
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch in ".-_") else "_" for ch in result_name) + ".npy"


def compare(got: np.ndarray, want: np.ndarray) -> str | None:
    """Why `got` is not `want`, or None. Floats: within 1e-4 of each value
    plus 1e-5 of the output's largest magnitude (a sum that cancels, as in a
    DFT, keeps the absolute error of its largest terms); NaN equals NaN."""
    if got.dtype != want.dtype:
        return f"dtype {got.dtype} vs {want.dtype}"
    if got.shape != want.shape:
        return f"shape {list(got.shape)} vs {list(want.shape)}"
    if np.issubdtype(want.dtype, np.floating):
        g, w = got.astype(np.float64), want.astype(np.float64)
        finite = np.abs(w[np.isfinite(w)])
        scale = max(1.0, float(finite.max())) if finite.size else 1.0
        ok = (np.isnan(g) & np.isnan(w)) | (g == w) | (np.abs(g - w) <= 1e-5 * scale + 1e-4 * np.abs(w))
        if not ok.all():
            return f"{int((~ok).sum())} of {ok.size} elements differ"
    elif not np.array_equal(got, want):
        return f"{int((got != want).sum())} of {got.size} elements differ"
    return None


def sweep_case(core: ov.Core, case, work: Path, ir_check: Path) -> tuple[str, str]:
    """(stage, detail) of one case."""
    graph = case.model.graph
    try:
        model = ov.convert_model(io.BytesIO(case.model.SerializeToString()))
    except Exception as e:  # noqa: BLE001 - OpenVINO's refusal is the answer
        return "openvino convert", node_cases.one_line(e)
    try:
        inputs = [test_value(a) for a in case.data_sets[0][0]]
    except TypeError as e:
        return "unsupported input", str(e)
    in_names = [i.name for i in graph.input if i.name not in {t.name for t in graph.initializer}]
    feed: dict[str, np.ndarray] = {}
    for p in model.get_parameters():
        names = p.output(0).get_names()
        ks = [k for k, n in enumerate(in_names) if n in names]
        if len(ks) != 1 or ks[0] >= len(inputs):
            return "openvino convert", f"Parameter {p.get_friendly_name()} is no ONNX input"
        feed[p.get_friendly_name()] = inputs[ks[0]]
    xml = work / "model.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    # The reference compiles the saved IR, the graph ir-check reads (see the docstring).
    model = core.read_model(xml)
    try:
        want = openvino_outputs(core, model, feed)
    except Exception as e:  # noqa: BLE001
        return "openvino run", node_cases.one_line(e)

    args = [str(ir_check), str(xml), "--format", "json", "--run", "--output-dir", str(work / "out")]
    for k, (name, a) in enumerate(feed.items()):
        np.save(work / f"in_{k}.npy", np.array(a, order="C", copy=True))
        args += ["--input", f"{name}={work / f'in_{k}.npy'}"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if done.returncode not in (0, 1):
        return "run failed", f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        return "run failed", f"no JSON report: {done.stderr.strip()[-300:]}"
    if not report["valid"]:
        types = {n["name"]: n["type"] for n in report["nodes"]}
        errors = [d for d in report["diagnostics"] if d["severity"] == "error"]
        first = errors[0] if errors else {"rule": "?", "node": None, "message": done.stderr.strip()[-200:]}
        return "refused", f"{first['rule']} {types.get(first['node'], '-')}: {first['message'][:160]}"
    if done.returncode != 0:
        return "run failed", done.stderr.strip().splitlines()[-1][:300] if done.stderr.strip() else "exit 1"
    ours = []
    for r in model.get_results():
        path = work / "out" / npy_name(r.get_friendly_name())
        if not path.exists():
            return "run failed", f"no output {path.name}"
        ours.append(np.load(path))
    differences = [(i, compare(got, w)) for i, (got, w) in enumerate(zip(ours, want))]
    differences = [(i, why) for i, why in differences if why]
    if not differences:
        return "equal", ""
    # OpenVINO's CPU plugin is the reference, but where it breaks ties of an
    # unstable sort its own way, or is plainly wrong, ONNX's expected output
    # says who is right.
    expected = onnx_expected(case, model)
    if expected is not None and all(compare(got, e) is None for got, e in zip(ours, expected)):
        i, why = differences[0]
        ties = unstable_topk_indices(model)
        if all(k in ties for k, _ in differences):
            return "undefined", f"OpenVINO's output {i} (indices of an unstable TopK): {why}"
        again = [openvino_outputs(core, model, feed) for _ in range(RANDOM_RUNS - 1)]
        if any(compare(a, b) for run in again for a, b in zip(run, want)):
            return "equal to ONNX", f"OpenVINO's output {i}: {why}; its own {RANDOM_RUNS} runs differ from one another"
        return "equal to ONNX", f"OpenVINO's output {i}: {why}"
    # A graph that draws unseeded random numbers (a RandomUniform or
    # Multinomial with both seeds 0, which OpenVINO's spec makes
    # non-deterministic) has no values to equal when OpenVINO's own runs
    # differ: its shapes, types and value domain are checked.
    if any(unseeded(op) for op in model.get_ordered_ops()):
        runs = [want] + [openvino_outputs(core, model, feed) for _ in range(RANDOM_RUNS - 1)]
        if any(compare(a, b) for run in runs[1:] for a, b in zip(run, want)):
            return random_outcome(ours, runs)
    i, why = differences[0]
    return "differs", f"output {i}: {why}"


def unstable_topk_indices(model: ov.Model) -> set[int]:
    """The outputs of ``model`` that are the indices (output 1) of a TopK
    whose ``stable`` is false (every TopK before opset11): OpenVINO's spec
    leaves the order of equal values undefined there, and the CPU plugin's
    order among them depends on the algorithm it picks for the shape."""
    found = set()
    for k, result in enumerate(model.get_results()):
        source = result.input_value(0)
        node = source.get_node()
        if node.get_type_name() == "TopK" and source.get_index() == 1 and not node.get_attributes().get("stable", False):
            found.add(k)
    return found


def unseeded(op: ov.Node) -> bool:
    """A RandomUniform or Multinomial whose ``global_seed`` and ``op_seed``
    are both 0: OpenVINO draws a new sequence each run."""
    if op.get_type_name() not in ("RandomUniform", "Multinomial"):
        return False
    attributes = op.get_attributes()
    return attributes.get("global_seed", 0) == 0 and attributes.get("op_seed", 0) == 0


# How many times the reference runs a case that differs, to tell a
# non-deterministic graph (its runs differ) from a difference.
RANDOM_RUNS = 3


def random_outcome(ours: list[np.ndarray], runs: list[list[np.ndarray]]) -> tuple[str, str]:
    """("random", ...) when each output has the reference's shape and type
    and lies in its value domain over ``runs``: among the values the runs
    gave when they took at most 16 distinct ones (a Bernoulli draw's 0 and
    1), else between their least and greatest value; ("differs", why)
    otherwise."""
    for i, got in enumerate(ours):
        seen = [run[i] for run in runs]
        if got.dtype != seen[0].dtype or got.shape != seen[0].shape:
            return "differs", f"output {i}: {got.dtype}{list(got.shape)} vs {seen[0].dtype}{list(seen[0].shape)} (random)"
        values = np.unique(np.concatenate([a.ravel() for a in seen]))
        if values.size <= 16:
            outside = ~np.isin(got, values)
        else:
            outside = (got < values.min()) | (got > values.max())
        if outside.any():
            return "differs", f"output {i}: {int(outside.sum())} of {got.size} values outside the reference's domain (random)"
    return "random", f"OpenVINO's {len(runs)} runs differ; shapes, types and value domain equal"


def onnx_expected(case, model: ov.Model) -> list[np.ndarray] | None:
    """ONNX's expected outputs in the order of the IR's Results, or None."""
    names = [o.name for o in case.model.graph.output]
    try:
        values = [test_value(a) for a in case.data_sets[0][1]]
    except TypeError:
        return None
    expected = []
    for r in model.get_results():
        ks = [k for k, n in enumerate(names) if n in r.input_value(0).get_names()]
        if len(ks) != 1 or ks[0] >= len(values):
            return None
        expected.append(as_codes(values[ks[0]]))
    return expected


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("prefixes", nargs="*", help="only the cases whose name starts with one of these")
    parser.add_argument("--write", type=Path, help="write the summary as Markdown to this file")
    parser.add_argument("--ir-check", type=Path, default=DEFAULT_IR_CHECK, help="the ir-check binary (default: the release build)")
    parser.add_argument("--keep", type=Path, help="keep each case's IR, inputs and outputs under DIR/<case>")
    args = parser.parse_args()
    if not args.ir_check.exists():
        sys.exit(f"{args.ir_check} is missing: cargo build --release -p ir-check")
    core = ov.Core()
    core.set_property("CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    rows: list[tuple[str, str, str]] = []
    for case in collect_all(args.prefixes):
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp) if args.keep is None else args.keep / case.name
            work.mkdir(parents=True, exist_ok=True)
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                stage, detail = sweep_case(core, case, work, args.ir_check)
        rows.append((case.name, stage, detail))
        print(f"{case.name}: {stage} {detail}", flush=True)
    text = summary(rows)
    print(text)
    if args.write:
        args.write.write_text(text)


def summary(rows: list[tuple[str, str, str]]) -> str:
    stages = collections.Counter(stage for _, stage, _ in rows)
    # Cases whose test input cannot be fed are converted but never run.
    converted = sum(n for s, n in stages.items() if s != "openvino convert")
    openvino_runs = sum(n for s, n in stages.items() if not s.startswith("openvino") and s != "unsupported input")
    lines = [
        "# ONNX node tests through OpenVINO's frontend",
        "",
        f"Made by `python3 scripts/onnx_node_sweep.py --write docs/onnx-node-sweep.md` with onnx "
        f"{__import__('onnx').__version__} and OpenVINO {ov.get_version()}: every node test case of the "
        "`onnx` package, converted by `openvino.convert_model`, run by OpenVINO's CPU plugin and by "
        "`ir-check --run`, outputs compared (see the script's docstring for each stage).",
        "",
        f"{len(rows)} cases; OpenVINO converts {converted} and runs {openvino_runs} of them ({stages.get('openvino run', 0)} "
        f"fail in its plugin, {stages.get('unsupported input', 0)} feed a sequence or an optional, which no tensor API "
        "takes). The reference is the CPU plugin "
        "compiling the saved IR `ir-check` reads (`core.read_model`), not the frontend's model in memory, "
        "which the plugin compiles differently (the script's docstring says why).",
        "",
        "`ir-check --run` computes as the CPU plugin does (`--precision plugin`, the default; "
        "docs/architecture.md, \"f16 and bf16 models\"): f16 and f64 in f32 between layers, f16 rounded at "
        "the Results and in compile-time constants, f64 Results clamped to f32's finite range; bf16 "
        "attention, explicit bf16 attention chains and bf16 products scaled by a constant rounded where the "
        "plugin rounds them; and, at run time, integer Power and Divide (and i8 and u8 Add, Subtract and "
        "Multiply) computed in f32 and converted back as x86 converts, and float ReduceMins started from the "
        "highest finite value, as the plugin's kernels do. The Bernoulli cases draw unseeded random numbers "
        "in OpenVINO (`random`: its own runs differ). `undefined`: the indices of equal values of a TopK "
        "whose `stable` is false, whose order OpenVINO's spec leaves undefined (ours is ONNX's, lowest index "
        "first; the CPU plugin's depends on the sort it picks for the shape and `k`). `equal to ONNX`: "
        "OpenVINO's CPU plugin is wrong and ours equals ONNX's expected output (`test_tile`: the plugin's "
        "Tile by a run-time `repeats` that repeats the three innermost dims writes memory it never filled, "
        "different each run).",
        "",
        "| stage | cases |",
        "|---|---|",
    ]
    order = ["equal", "equal to ONNX", "undefined", "random", "differs", "run failed", "refused", "unsupported input", "openvino run", "openvino convert"]
    lines += [f"| {s} | {stages.get(s, 0)} |" for s in order]
    refused = collections.Counter(detail.split(":")[0] for _, s, detail in rows if s == "refused")
    if refused:
        lines += ["", "## Refused, by rule and op type", "", "| rule and op | cases |", "|---|---|"]
        lines += [f"| {k} | {n} |" for k, n in refused.most_common()]
    for stage in ("equal to ONNX", "undefined", "random", "differs", "run failed", "refused", "unsupported input"):
        listed = [(name, detail) for name, s, detail in rows if s == stage]
        if listed:
            lines += ["", f"## {stage}", ""]
            lines += [f"- `{name}`: {detail.replace('|', '/')}" for name, detail in listed]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
