#!/usr/bin/env python3
"""Per-inference latency of real models: OpenVINO's CPU plugin and `ir-check --run`, side by side.

Run from the repository root (after `cargo build --release -p ir-check`):

    python3 scripts/gen_vision_models.py --bench target/bench-models
    python3 scripts/bench_models.py [--models DIR] [--runs N] [--threads T]

For each model (the full-size ones written by ``gen_vision_models.py --bench``
and the committed small ones of ``ir-samples/models/``), one seeded input
(batch 1; 224x224 for the full-size ones, the model's first golden binding for
the small ones) is run by OpenVINO (f32: ``INFERENCE_PRECISION_HINT=f32``,
``PERFORMANCE_HINT=LATENCY``, ``INFERENCE_NUM_THREADS=T``; one warm-up, then N
timed ``infer`` calls) and by ``ir-check --run --repeat N --threads T`` (its
``latency_ms`` line), in the same run. Prints a markdown table: median
latencies, their ratio, the convolutions' GFLOP/s (2·C_out·C_in/G·K·O
multiply-adds counted from the IR at the bound shapes), and whether the two
outputs agree (max relative difference).
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


def bench(xml: str, shape: list[int], runs: int, threads: int, ir_check: str) -> dict:
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, shape).astype(np.float32)
    core = ov.Core()
    model = core.read_model(xml)
    name = model.inputs[0].get_any_name()
    model.reshape({name: shape})
    flops = conv_flops(model)
    compiled = core.compile_model(
        model,
        "CPU",
        {"INFERENCE_PRECISION_HINT": "f32", "PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": threads},
    )
    expected = compiled([x])[0]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        compiled([x])
        times.append((time.perf_counter() - start) * 1e3)
    ov_ms = float(np.median(times))
    with tempfile.TemporaryDirectory() as tmp:
        np.save(os.path.join(tmp, "x.npy"), x)
        proc = subprocess.run(
            [ir_check, xml, "--run", "--input", f"{name}={tmp}/x.npy", "--output-dir", tmp,
             "--repeat", str(runs), "--threads", str(threads)],
            capture_output=True, text=True,
        )
        line = next((l for l in proc.stderr.splitlines() if l.startswith("latency_ms:")), None)
        if proc.returncode != 0 or line is None:
            return {"ov_ms": ov_ms, "ours": f"n/a ({proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else proc.returncode})", "flops": flops}
        ours_ms = float(dict(f.split("=") for f in line.split()[1:])["median"])
        outs = [f for f in glob.glob(os.path.join(tmp, "*.npy")) if not f.endswith("/x.npy")]
        got = np.load(outs[0])
        diff = float(np.max(np.abs(got - expected)) / max(1e-12, float(np.max(np.abs(expected)))))
    return {"ov_ms": ov_ms, "ours_ms": ours_ms, "flops": flops, "diff": diff}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="target/bench-models")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--ir-check", default="target/release/ir-check")
    args = parser.parse_args()
    # Inputs other than 1x3x224x224 (the OCR models) are listed by the
    # generator in the folder's shapes.json.
    shapes_file = os.path.join(args.models, "shapes.json")
    shapes = json.load(open(shapes_file)) if os.path.exists(shapes_file) else {}
    cases = [
        (p, shapes.get(os.path.basename(p)[:-4], [1, 3, 224, 224]))
        for p in sorted(glob.glob(os.path.join(args.models, "*.xml")))
    ]
    for p in sorted(glob.glob("ir-samples/models/*.xml")):
        golden = json.load(open(p.replace("models/", "models/golden/").replace(".xml", ".json")))
        cases.append((p, golden["static_bindings"][0]["inputs"]["x"]))
    print(f"{args.threads} threads, median of {args.runs} runs, batch 1\n")
    print("| model | input | OpenVINO ms | ours ms | ratio | conv GFLOP/s OpenVINO | conv GFLOP/s ours | max rel diff |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for xml, shape in cases:
        r = bench(xml, shape, args.runs, args.threads, args.ir_check)
        name = os.path.basename(xml)[:-4]
        dims = "x".join(map(str, shape))
        if "ours_ms" not in r:
            print(f"| {name} | {dims} | {r['ov_ms']:.2f} | {r['ours']} | | | | |")
            continue
        gf = lambda ms: r["flops"] / ms / 1e6  # noqa: E731
        print(
            f"| {name} | {dims} | {r['ov_ms']:.2f} | {r['ours_ms']:.2f} | {r['ours_ms'] / r['ov_ms']:.1f}x | "
            f"{gf(r['ov_ms']):.1f} | {gf(r['ours_ms']):.1f} | {r['diff']:.1e} |"
        )


if __name__ == "__main__":
    main()
