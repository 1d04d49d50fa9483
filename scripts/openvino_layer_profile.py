#!/usr/bin/env python3
"""OpenVINO's CPU plugin per-layer time for a model, to set beside
``OVIR_PROFILE=N ir-check MODEL --run ...`` (docs/performance.md).

``python3 scripts/openvino_layer_profile.py MODEL.xml [--threads T] [--shape 1,3,224,224] [--runs 30] [--precision f32]``

Compiles the model with ``PERF_COUNT`` and the latency hint, runs it on a
seeded random input, and prints the fastest time of every executed layer
over the runs, summed by (type, kernel) and the slowest layers one by one.
The precision hint is f32 by default: without it the plugin runs f32
models in bf16 on CPUs that have AVX-512 BF16 (as this machine's Zen 5
does), which is not the comparison the issue asks for.
"""

import argparse
import collections

import numpy as np
import openvino as ov


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("--threads", default="1")
    parser.add_argument("--shape", default="1,3,224,224", help="the first input's static shape")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--precision", default="f32", help="INFERENCE_PRECISION_HINT")
    parser.add_argument("--top", type=int, default=25, help="how many single layers to list")
    args = parser.parse_args()

    core = ov.Core()
    model = core.read_model(args.model)
    shape = [int(d) for d in args.shape.split(",")]
    model.reshape({model.inputs[0].any_name: shape})
    compiled = core.compile_model(
        model,
        "CPU",
        {
            "PERF_COUNT": "YES",
            "INFERENCE_PRECISION_HINT": args.precision,
            "INFERENCE_NUM_THREADS": args.threads,
            "PERFORMANCE_HINT": "LATENCY",
        },
    )
    request = compiled.create_infer_request()
    x = np.random.default_rng(0).random(shape, dtype=np.float32)
    fastest: dict[tuple[str, str, str], float] = {}
    for _ in range(args.runs):
        request.infer({0: x})
        for p in request.profiling_info:
            if p.status.name != "EXECUTED":
                continue
            key = (p.node_name, p.node_type, p.exec_type)
            ms = p.real_time.total_seconds() * 1000
            fastest[key] = min(fastest.get(key, ms), ms)
    print(f"total of the layers' fastest calls: {sum(fastest.values()):.3f} ms")
    by_kind: collections.Counter = collections.Counter()
    for (_, op, kernel), ms in fastest.items():
        by_kind[(op, kernel)] += ms
    for (op, kernel), ms in by_kind.most_common():
        print(f"{op:<24} {kernel:<28} {ms:8.3f} ms")
    print()
    for (name, op, kernel), ms in sorted(fastest.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{name[:36]:<36} {op:<18} {kernel:<28} {ms:8.3f} ms")


if __name__ == "__main__":
    main()
