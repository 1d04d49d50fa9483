#!/usr/bin/env python3
"""Per-inference latency of real models: OpenVINO's CPU plugin and `ir-check --run`, side by side.

Run from the repository root (after `cargo build --release -p ir-check`):

    python3 scripts/gen_vision_models.py --bench target/bench-models
    python3 scripts/gen_transformer_models.py --bench target/bench-models
    python3 scripts/bench_models.py [--models DIR] [--runs N] [--threads T] [--skip-small]
                                    [--rounds R] [--baseline OLD_IR_CHECK] [--only NAME...]

(Without torch, ``python3 scripts/gen_bench_nets.py DIR`` writes MobileNetV2,
ResNet-18 and ResNet-50 through OpenVINO's opset API instead.)

For each model (the full-size ones written by ``gen_vision_models.py --bench``
and the committed small ones of ``ir-samples/models/``), one seeded input
(batch 1; 224x224 for the full-size ones, the model's first golden binding for
the small ones) is run by OpenVINO (f32: ``INFERENCE_PRECISION_HINT=f32``,
``PERFORMANCE_HINT=LATENCY``, ``INFERENCE_NUM_THREADS=T``; one warm-up, then N
timed ``infer`` calls) and by ``ir-check --run --repeat N --threads T`` (its
``latency_ms`` line), in the same run. Prints a markdown table: median
latencies, their ratio, the convolutions' and matrix products' GFLOP/s
(2·C_out·C_in/G·K·O multiply-adds counted from the IR at the bound shapes),
whether the two outputs agree (max relative difference), the weights file's
size and ``ir-check``'s peak resident memory (the whole process, from
GNU time's ``%M``). With ``--rounds R`` each model is measured R times, OpenVINO
and ``ir-check`` (and the ``--baseline`` binary, an earlier build) in turn, and
each cell gives the best round's median and, in parentheses, the median of the
rounds' medians: on a shared machine a neighbour's load slows whichever side
runs at that moment, so the sides alternate and the best round is the cleanest
figure. The load average is printed before and after. Text models (``gen_transformer_models.py --bench``) get ids in
[0, 100) and an all-ones attention mask, at the shapes their
``transformer_shapes.json`` lists.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import tempfile
import time

import numpy as np
import openvino as ov


def conv_flops(model: ov.Model) -> float:
    flops = 0.0
    for op in model.get_ordered_ops():
        kind = op.get_type_name()
        if kind not in ("Convolution", "GroupConvolution", "MatMul"):
            continue
        out = list(op.get_output_shape(0))
        w = list(op.get_input_shape(1))
        if kind == "Convolution":
            flops += 2.0 * np.prod(out) * np.prod(w[1:])
        elif kind == "GroupConvolution":
            flops += 2.0 * np.prod(out) * np.prod(w[2:])
        else:
            a = list(op.get_input_shape(0))
            flops += 2.0 * np.prod(out) * a[-1]
    return flops


def make_inputs(model: ov.Model, shapes: dict[str, list[int]]) -> dict[str, np.ndarray]:
    """Seeded inputs: floats uniform in [-1, 1]; a text model's ids in
    [0, 100) and its attention mask all ones."""
    rng = np.random.default_rng(0)
    inputs = {}
    for p in model.inputs:
        name = p.get_any_name()
        shape = shapes[name]
        dtype = np.dtype(p.get_element_type().to_dtype())
        if "mask" in name:
            inputs[name] = np.ones(shape, dtype)
        elif np.issubdtype(dtype, np.integer):
            inputs[name] = rng.integers(0, 100, shape).astype(dtype)
        else:
            inputs[name] = rng.uniform(-1, 1, shape).astype(dtype)
    return inputs


def run_measured(args: list[str]) -> tuple[int, str, int]:
    """Runs a command; returns its exit code, stderr and peak resident memory (KiB).

    The peak comes from GNU time when it is installed: ``wait4``'s
    ``ru_maxrss`` of a child forked from this process counts this process's
    own resident size before the ``exec`` (Linux carries the high-water mark
    across it), so after OpenVINO has compiled a large model it would report
    Python's size, not the child's.
    """
    gnu_time = "/usr/bin/time"
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as peak:
        measured = [gnu_time, "-f", "%M", "-o", peak.name, *args] if os.path.exists(gnu_time) else args
        proc = subprocess.Popen(measured, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode(errors="replace")
        if measured is not args:
            lines = peak.read().split()
            # GNU time writes "Command exited with non-zero status N" first.
            return proc.returncode, stderr, int(lines[-1]) if lines else 0
        return proc.returncode, stderr, usage.ru_maxrss


def run_ours(ir_check: str, xml: str, inputs: dict[str, np.ndarray], runs: int, threads: int) -> dict:
    """One ``ir-check --run --repeat`` of the model: its median latency, outputs and peak RSS."""
    with tempfile.TemporaryDirectory() as tmp:
        args = [ir_check, xml, "--run", "--output-dir", tmp, "--repeat", str(runs), "--threads", str(threads)]
        for i, (name, a) in enumerate(inputs.items()):
            np.save(os.path.join(tmp, f"in{i}.npy"), a)
            args += ["--input", f"{name}={tmp}/in{i}.npy"]
        code, stderr, peak_kib = run_measured(args)
        line = next((l for l in stderr.splitlines() if l.startswith("latency_ms:")), None)
        if code != 0 or line is None:
            return {"error": f"n/a ({stderr.strip().splitlines()[-1] if stderr.strip() else code})"}
        outs = [f for f in glob.glob(os.path.join(tmp, "*.npy")) if not os.path.basename(f).startswith("in")]
        return {
            "ms": float(dict(f.split("=") for f in line.split()[1:])["median"]),
            "out": np.load(outs[0]),
            "peak_mib": peak_kib / 1024,
        }


def bench(xml: str, shapes: dict[str, list[int]], runs: int, threads: int, binaries: list[str], rounds: int) -> dict:
    """OpenVINO and each of ``binaries`` in turn, ``rounds`` times: per
    round the median of ``runs`` inferences each. Returns, per side, the
    best and the median of the rounds' medians (noise from a shared machine
    only ever adds time, so the best is the cleanest figure)."""
    core = ov.Core()
    model = core.read_model(xml)
    model.reshape({name: shape for name, shape in shapes.items()})
    inputs = make_inputs(model, shapes)
    flops = conv_flops(model)
    compiled = core.compile_model(
        model,
        "CPU",
        {"INFERENCE_PRECISION_HINT": "f32", "PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": threads},
    )
    expected = compiled(inputs)[0]
    ov_rounds, ours_rounds = [], [[] for _ in binaries]
    result = {"flops": flops}
    for round_index in range(rounds):
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            compiled(inputs)
            times.append((time.perf_counter() - start) * 1e3)
        ov_rounds.append(float(np.median(times)))
        # The binary run first follows OpenVINO's inferences, whose worker
        # threads may still be spinning: every other round the binaries go
        # in the reverse order, so that no build always runs first.
        order = list(enumerate(binaries))
        if round_index % 2 == 1:
            order.reverse()
        for i, binary in order:
            r = run_ours(binary, xml, inputs, runs, threads)
            if "error" in r:
                result.setdefault("errors", {})[i] = r["error"]
                continue
            ours_rounds[i].append(r["ms"])
            if i == 0:
                got = r["out"]
                result["diff"] = float(np.max(np.abs(got - expected)) / max(1e-12, float(np.max(np.abs(expected)))))
                result["peak_mib"] = r["peak_mib"]
    summary = lambda xs: (min(xs), float(np.median(xs))) if xs else None  # noqa: E731
    result["ov"] = summary(ov_rounds)
    result["ours"] = [summary(xs) for xs in ours_rounds]
    result["weights_mib"] = os.path.getsize(xml[:-4] + ".bin") / 2**20
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="target/bench-models")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--ir-check", default="target/release/ir-check")
    parser.add_argument("--baseline", metavar="IR_CHECK", help="another ir-check binary (an earlier build) run alternately with the first")
    parser.add_argument("--rounds", type=int, default=1, help="times each side is measured, alternating (best and median of the rounds' medians)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these models")
    parser.add_argument("--skip-small", action="store_true", help="only the models of --models, not ir-samples/models")
    args = parser.parse_args()
    # Inputs other than 1x3x224x224 (the OCR models) are listed by the
    # generator in the folder's shapes.json.
    # Text models list their inputs by name in transformer_shapes.json.
    shapes = {}
    for file in ("shapes.json", "transformer_shapes.json"):
        path = os.path.join(args.models, file)
        if os.path.exists(path):
            shapes.update(json.load(open(path)))
    cases = []
    for p in sorted(glob.glob(os.path.join(args.models, "*.xml"))):
        shape = shapes.get(os.path.basename(p)[:-4], [1, 3, 224, 224])
        cases.append((p, shape if isinstance(shape, dict) else {"x": shape}))
    if not args.skip_small:
        for p in sorted(glob.glob("ir-samples/models/*.xml")):
            golden = json.load(open(p.replace("models/", "models/golden/").replace(".xml", ".json")))
            cases.append((p, golden["static_bindings"][0]["inputs"]))
    if args.only:
        cases = [c for c in cases if os.path.basename(c[0])[:-4] in args.only]
    binaries = [args.ir_check] + ([args.baseline] if args.baseline else [])
    load = os.getloadavg()
    print(f"{args.threads} threads, median of {args.runs} runs, batch 1, {args.rounds} alternating round(s): best (median of rounds)")
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n")
    base_cols = " | baseline ms | ratio" if args.baseline else ""
    print(f"| model | input | OpenVINO ms | ours ms | ratio{base_cols} | GEMM GFLOP/s OpenVINO | GEMM GFLOP/s ours | max rel diff | weights MiB | our peak RSS MiB |")
    print("| --- | --- | ---: | ---: | ---:" + (" | ---: | ---:" if args.baseline else "") + " | ---: | ---: | ---: | ---: | ---: |")
    cell = lambda pair: f"{pair[0]:.2f} ({pair[1]:.2f})" if args.rounds > 1 else f"{pair[0]:.2f}"  # noqa: E731
    for xml, shapes in cases:
        r = bench(xml, shapes, args.runs, args.threads, binaries, args.rounds)
        name = os.path.basename(xml)[:-4]
        dims = ", ".join("x".join(map(str, s)) for s in shapes.values())
        ov_ms = r["ov"]
        sides = []
        for i, ours in enumerate(r["ours"]):
            if ours is None:
                sides.append(f"{r.get('errors', {}).get(i, 'n/a')} | ")
            else:
                sides.append(f"{cell(ours)} | {ours[0] / ov_ms[0]:.1f}x ({ours[1] / ov_ms[1]:.1f}x)")
        if r["ours"][0] is None:
            print(f"| {name} | {dims} | {cell(ov_ms)} | {' | '.join(sides)} | | | | | |")
            continue
        gf = lambda ms: r["flops"] / ms / 1e6  # noqa: E731
        print(
            f"| {name} | {dims} | {cell(ov_ms)} | {' | '.join(sides)} | "
            f"{gf(ov_ms[0]):.1f} | {gf(r['ours'][0][0]):.1f} | {r['diff']:.1e} | {r['weights_mib']:.1f} | {r['peak_mib']:.0f} |"
        )
    load = os.getloadavg()
    print(f"\nload average at end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
