#!/usr/bin/env python3
"""Per-layer GFLOP/s of a model's convolutions from ``ir-check``'s profile.

Runs ``OVIR_PROFILE=400 ir-check MODEL --run --repeat N --threads T`` (each
layer's fastest call), reads every Convolution's filter shape from the XML
and prints one row per layer: the GEMM it is (M = output channels, K =
input channels x kernel taps, N = output positions), its fastest call and
its GFLOP/s (2*M*K*N per call), then the sums per class (kernel size,
stride, plane). Used for the per-layer table of docs/performance.md:

    python3 scripts/conv_layer_gflops.py /tmp/bn/resnet50.xml --input x=/tmp/x224.npy \\
        --ir-check target/release/ir-check --threads 1 --repeat 20
"""

import argparse
import collections
import os
import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET


def conv_layers(xml_path: str) -> dict[str, dict]:
    """Filter shape, strides and groups of every (Group)Convolution by name."""
    layers = {}
    for layer in ET.parse(xml_path).getroot().iter("layer"):
        kind = layer.get("type")
        if kind not in ("Convolution", "GroupConvolution"):
            continue
        ports = layer.find("input").findall("port")
        filt = [int(d.text) for d in ports[1].findall("dim")]
        data = layer.find("data")
        strides = data.get("strides", "1") if data is not None else "1"
        layers[layer.get("name")] = {"type": kind, "filter": filt, "strides": strides}
    return layers


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("xml")
    ap.add_argument("--input", action="append", required=True, help="NAME=FILE.npy, as ir-check takes it")
    ap.add_argument("--ir-check", default="target/release/ir-check")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()

    cmd = [args.ir_check, args.xml, "--run", "--repeat", str(args.repeat), "--threads", str(args.threads), "-q"]
    for i in args.input:
        cmd += ["--input", i]
    env = dict(os.environ, OVIR_PROFILE="400")
    with tempfile.TemporaryDirectory() as outputs:
        cmd += ["--output-dir", outputs]
        stderr = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stderr
    pattern = re.compile(r"profile layer (\S+) \((\w+)\) \[([\d, ]+)\]: ([\d.]+) ms fastest")
    layers = conv_layers(args.xml)
    classes: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0])
    print("| layer | kernel | stride | M | K | N | ms | GFLOP/s |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for name, kind, shape, ms in pattern.findall(stderr):
        if name not in layers:
            continue
        out = [int(d) for d in shape.split(",")]
        filt = layers[name]["filter"]
        if kind == "GroupConvolution":
            groups, cout, cin, taps = filt[0], filt[1], filt[2], filt[3:]
        else:
            groups, cout, cin, taps = 1, filt[0], filt[1], filt[2:]
        k = cin
        for t in taps:
            k *= t
        n = out[0]
        for d in out[2:]:
            n *= d
        flops = 2.0 * groups * cout * k * n
        ms = float(ms)
        kernel = "x".join(map(str, taps)) + (" dw" if kind == "GroupConvolution" and cin == 1 else "")
        stride = layers[name]["strides"].replace(", ", "")
        print(f"| {name} | {kernel} | {stride} | {groups * cout} | {k} | {n} | {ms:.3f} | {flops / ms / 1e6:.0f} |")
        key = f"{kernel} s{stride} {'x'.join(map(str, out[2:]))}"
        classes[key][0] += ms
        classes[key][1] += flops
        classes[key][2] += 1
    print()
    print("| class | layers | ms | GFLOP/s |")
    print("| --- | ---: | ---: | ---: |")
    for key, (ms, flops, count) in sorted(classes.items(), key=lambda kv: -kv[1][0]):
        print(f"| {key} | {count} | {ms:.2f} | {flops / ms / 1e6:.0f} |")


if __name__ == "__main__":
    main()
