#!/usr/bin/env python3
"""Load speed and memory, side by side: OpenVINO's ``Core().read_model`` plus
``validate_nodes_and_infer_types()`` against ``ir-check`` (issue 18).

Run from the repository root, after ``cargo release-ir-check`` (the
statically linked binary, `.cargo/config.toml`; a ``cargo build --release -p
ir-check`` binary is measured when that one is missing, or with ``--binary``):

    python3 scripts/bench_load.py                       # chains up to 100k, the shipped models
    python3 scripts/bench_load.py --sizes 1000 1000000  # other chain lengths
    python3 scripts/bench_load.py --models DIR ...      # more models (every *.xml in DIR)

For every model, the two sides run alternately ``--runs`` times and the
medians are printed:
- ``ov ms``: OpenVINO in process (read + validate and infer), Python's start-up
  excluded;
- ``ours in-proc ms``: read + validate + infer as ``ir-check --timings`` reports
  them (the library's work, what a compiler embedding it pays);
- ``ours process ms``: the whole ``ir-check MODEL --format json`` process,
  start-up and writing the report included, from the call that starts it to
  the return of the wait for its end. It is started by ``os.posix_spawn``
  (a vfork and exec) and waited for by ``os.wait4``, its stderr in a file
  read afterwards: the cheapest launch Python has. ``subprocess.Popen`` with
  ``communicate`` added about 0.1 ms of the launcher's own work to every run
  (docs/performance.md, "What a fresh process pays"); what remains of the
  launch is the kernel's process creation, exec and exit, which any process
  pays (a static C program that only exits takes about 0.4 ms this way).
  The launch is made by a small launcher process of its own (a Python
  without OpenVINO, started once, told each run over a pipe), as a shell
  would start ``ir-check``: launched from this process, which holds
  OpenVINO and has just read the model, the run's wall time had a heavy
  tail (the first model, audio_frontend, 1.7-2.35 ms in every run of the
  script against 0.99 alone; docs/performance.md, "What every process
  pays, build settings"). Only the spawn and the wait are timed, in the
  launcher, as before. Even so the first model stayed slow in some runs
  (2.57 ms against 0.62 alone), on both sides: ``--warmup`` runs (3 by
  default) of each side on the first model come first and are discarded;
- the two ratios to OpenVINO, and the peak resident memory of each side
  (``ir-check``'s whole process, the highest of ``--rss-runs`` runs, as the
  peak moves with when the allocator's purges fall; OpenVINO's growth of
  this process while it holds the model, measured once per model).

Models of more than ``--openvino-max-layers`` layers are run on our side
only (OpenVINO's columns print ``-``): OpenVINO's time on the wide graph
grows with the square of its width (0.12 s at 10,000 branches, 6 s at
100,000), so a million branches would take it many minutes.

After the table, one line per generated kind gives our in-process and
whole-process time per 1,000 layers at each size and the growth from the
smallest size to the largest: the linearity the issue asks to see.

The generated graphs (in ``--work``, default a temporary directory):
- ``relu_N``: a chain of N ReLU layers on ``[?, ?]``;
- ``add_N``: a chain of N Adds of a broadcast ``[16]`` constant on ``[?, 16]``;
- ``slice_N``: Slice (drop the first column) then Reshape ``[0, -1]``, N/2 times
  each, on ``[?, ?]``: the expressions must stay small (``D - k``);
- ``wide_N``: N parallel ReLUs of one input joined by one Concat.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import time

# The release binary, `cargo release-ir-check`'s static one if it was built;
# `--binary` (or a CARGO_TARGET_DIR) points elsewhere.
TARGET_DIR = os.environ.get("CARGO_TARGET_DIR", "target")
STATIC_BINARY = os.path.join(TARGET_DIR, "x86_64-unknown-linux-musl", "release", "ir-check")
BINARY = (
    STATIC_BINARY
    if os.path.exists(STATIC_BINARY)
    else os.path.join(TARGET_DIR, "release", "ir-check")
)


def port(pid: int, dims: list[str], precision: str = "FP32") -> str:
    body = "".join(f"<dim>{d}</dim>" for d in dims)
    return f'<port id="{pid}" precision="{precision}">{body}</port>'


def layer(lid: int, name: str, kind: str, inputs: list[list[str]], outputs: list[list[str]], data: str = "",
          version: str = "opset1", precision: str = "FP32", input_precisions: list[str] | None = None) -> str:
    """A ``<layer>``; ``input_precisions`` (default: ``precision`` for every
    input) declares each input port's precision."""
    precisions = input_precisions or [precision] * len(inputs)
    ins = "".join(port(i, d, p) for i, (d, p) in enumerate(zip(inputs, precisions)))
    outs = "".join(port(len(inputs) + i, d, precision) for i, d in enumerate(outputs))
    return (f'<layer id="{lid}" name="{name}" type="{kind}" version="{version}">{data}'
            + (f"<input>{ins}</input>" if ins else "") + (f"<output>{outs}</output>" if outs else "") + "</layer>")


def write_net(path: str, layers: list[str], edges: list[tuple[int, int, int, int]], weights: bytes = b"") -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0"?>\n<net name="bench" version="11">\n<layers>\n')
        f.write("\n".join(layers))
        f.write("\n</layers>\n<edges>\n")
        f.write("\n".join(f'<edge from-layer="{a}" from-port="{b}" to-layer="{c}" to-port="{d}"/>' for a, b, c, d in edges))
        f.write("\n</edges>\n</net>\n")
    with open(path[:-4] + ".bin", "wb") as f:
        f.write(weights)


def param(lid: int, dims: list[str]) -> str:
    shape = ",".join("?" if d == "-1" else d for d in dims)
    return layer(lid, "x", "Parameter", [], [dims], f'<data shape="{shape}" element_type="f32"/>')


def const(lid: int, name: str, element: str, dims: list[str], offset: int, size: int) -> str:
    precision = {"f32": "FP32", "i64": "I64"}[element]
    shape = ",".join(dims)
    return layer(lid, name, "Const", [], [dims],
                 f'<data element_type="{element}" shape="{shape}" offset="{offset}" size="{size}"/>',
                 precision=precision)


def relu_chain(path: str, n: int) -> None:
    dims = ["-1", "-1"]
    layers = [param(0, dims)]
    edges = []
    for i in range(1, n + 1):
        layers.append(layer(i, f"relu{i}", "ReLU", [dims], [dims]))
        edges.append((i - 1, 0 if i == 1 else 1, i, 0))
    layers.append(layer(n + 1, "out", "Result", [dims], []))
    edges.append((n, 1, n + 1, 0))
    write_net(path, layers, edges)


def add_chain(path: str, n: int) -> None:
    dims = ["-1", "16"]
    layers = [param(0, dims), const(1, "bias", "f32", ["16"], 0, 64)]
    edges = []
    prev = (0, 0)
    for i in range(n):
        lid = 2 + i
        layers.append(layer(lid, f"add{i}", "Add", [dims, ["16"]], [dims]))
        edges += [(prev[0], prev[1], lid, 0), (1, 0, lid, 1)]
        prev = (lid, 2)
    layers.append(layer(2 + n, "out", "Result", [dims], []))
    edges.append((prev[0], prev[1], 2 + n, 0))
    write_net(path, layers, edges, struct.pack("<16f", *[0.5] * 16))


def slice_chain(path: str, n: int) -> None:
    dims = ["-1", "-1"]
    weights = struct.pack("<6q", 1, 2**63 - 1, 1, 1, 0, -1)  # start stop step axis | reshape [0, -1]
    layers = [param(0, dims), const(1, "start", "i64", ["1"], 0, 8), const(2, "stop", "i64", ["1"], 8, 8),
              const(3, "step", "i64", ["1"], 16, 8), const(4, "axes", "i64", ["1"], 24, 8),
              const(5, "target", "i64", ["2"], 32, 16)]
    edges = []
    prev = (0, 0)
    lid = 6
    for i in range(n // 2):
        layers.append(layer(lid, f"slice{i}", "Slice", [dims, ["1"], ["1"], ["1"], ["1"]], [dims], version="opset8",
                            input_precisions=["FP32"] + ["I64"] * 4))
        edges += [(prev[0], prev[1], lid, 0)] + [(c, 0, lid, k) for k, c in enumerate([1, 2, 3, 4], start=1)]
        prev = (lid, 5)
        lid += 1
        layers.append(layer(lid, f"reshape{i}", "Reshape", [dims, ["2"]], [dims],
                            '<data special_zero="true"/>', input_precisions=["FP32", "I64"]))
        edges += [(prev[0], prev[1], lid, 0), (5, 0, lid, 1)]
        prev = (lid, 2)
        lid += 1
    layers.append(layer(lid, "out", "Result", [dims], []))
    edges.append((prev[0], prev[1], lid, 0))
    write_net(path, layers, edges, weights)


def wide(path: str, n: int) -> None:
    dims = ["-1", "8"]
    layers = [param(0, dims)]
    edges = []
    for i in range(1, n + 1):
        layers.append(layer(i, f"relu{i}", "ReLU", [dims], [dims]))
        edges.append((0, 0, i, 0))
    concat = n + 1
    layers.append(layer(concat, "concat", "Concat", [dims] * n, [["-1", "8"]], '<data axis="0"/>'))
    edges += [(i, 1, concat, i - 1) for i in range(1, n + 1)]
    layers.append(layer(concat + 1, "out", "Result", [["-1", "8"]], []))
    edges.append((concat, n, concat + 1, 0))
    write_net(path, layers, edges)


GENERATORS = {"relu": relu_chain, "add": add_chain, "slice": slice_chain, "wide": wide}


def rss_kib() -> int:
    with open("/proc/self/status", encoding="utf-8") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def openvino_once(core, xml: str) -> tuple[float, int]:
    before = rss_kib()
    start = time.perf_counter()
    model = core.read_model(xml)
    model.validate_nodes_and_infer_types()
    elapsed = time.perf_counter() - start
    grown = rss_kib() - before
    del model
    return elapsed * 1e3, grown


# The launcher (see the module's documentation): for each line
# ``BINARY<TAB>XML`` it starts ``ir-check`` with ``posix_spawn`` (stdout
# discarded, stderr in a file), waits with ``wait4`` and answers one line
# ``WALL_MS<TAB>WAIT_STATUS<TAB>STDERR``. Only the spawn and the wait are
# timed; the environment is converted before the clock starts.
LAUNCHER_SOURCE = r"""
import os, sys, tempfile, time
devnull = os.open(os.devnull, os.O_WRONLY)
stderr = tempfile.TemporaryFile()
environment = dict(os.environ)
for line in sys.stdin:
    binary, xml = line.rstrip("\n").split("\t")
    stderr.seek(0)
    stderr.truncate()
    argv = [binary, xml, "--format", "json", "--allow-unknown-ops", "--timings"]
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, stderr.fileno(), 2)]
    start = time.perf_counter()
    pid = os.posix_spawn(binary, argv, environment, file_actions=actions)
    _, status, _ = os.wait4(pid, 0)
    wall = (time.perf_counter() - start) * 1e3
    stderr.seek(0)
    text = stderr.read().decode(errors="replace").replace("\n", " ")
    print(f"{wall}\t{status}\t{text}", flush=True)
"""
LAUNCHER = None


def ours_once(xml: str) -> tuple[float, float]:
    """(in-process ms, whole-process ms) of one run, started and timed by the
    launcher (see the module's documentation)."""
    global LAUNCHER
    if LAUNCHER is None:
        LAUNCHER = subprocess.Popen([sys.executable, "-c", LAUNCHER_SOURCE], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, text=True)
    LAUNCHER.stdin.write(f"{BINARY}\t{xml}\n")
    LAUNCHER.stdin.flush()
    wall, status, stderr = LAUNCHER.stdout.readline().rstrip("\n").split("\t", 2)
    m = re.search(r"timings_ms: read=([\d.]+) validate=([\d.]+) infer=([\d.]+)", stderr)
    if not m:
        sys.exit(f"{xml}: no timings line (wait status {status}) in {stderr[-500:]!r}")
    in_process = sum(float(v) for v in m.groups())
    return in_process, float(wall)


def peak_rss_of(xml: str, runs: int) -> int:
    """ir-check's own peak RSS (KiB), the highest of ``runs`` runs. Measured
    by /usr/bin/time: a child forked from this process would count this
    process's memory (the fork's, before exec) in its own peak."""
    peaks = []
    for _ in range(max(runs, 1)):
        out = subprocess.run(["/usr/bin/time", "-f", "%M", BINARY, xml, "--format", "json", "--allow-unknown-ops"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
        peaks.append(int(out.stderr.decode().strip().splitlines()[-1]))
    return max(peaks)


def layer_count(xml: str) -> int:
    with open(xml, "rb") as f:
        return f.read().count(b"<layer ")


def main() -> int:
    global BINARY, LAUNCHER
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--kinds", nargs="+", default=list(GENERATORS), choices=list(GENERATORS))
    parser.add_argument("--models", nargs="*", default=["ir-samples/models"], metavar="DIR")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=3,
                        help="runs of each side on the first model before measuring, discarded")
    parser.add_argument("--work", help="where to write the generated graphs")
    parser.add_argument("--binary", help=f"the ir-check binary (default: {BINARY})")
    parser.add_argument("--rss-runs", type=int, default=3,
                        help="runs of ours under /usr/bin/time per model; the highest peak is printed")
    parser.add_argument("--openvino-max-layers", type=int,
                        help="run OpenVINO only on models of at most this many layers")
    args = parser.parse_args()
    BINARY = args.binary or BINARY
    if not os.path.exists(BINARY):
        sys.exit(f"{BINARY} is missing: cargo release-ir-check")
    # The launcher before OpenVINO is imported: a fork of this process after
    # that would carry OpenVINO's memory until its exec.
    LAUNCHER = subprocess.Popen([sys.executable, "-c", LAUNCHER_SOURCE], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
    import openvino as ov

    core = ov.Core()
    work = args.work or tempfile.mkdtemp(prefix="bench_load_")
    os.makedirs(work, exist_ok=True)
    cases = []
    for directory in args.models:
        cases += sorted(os.path.join(directory, f) for f in os.listdir(directory) if f.endswith(".xml"))
    for kind in args.kinds:
        for n in args.sizes:
            xml = os.path.join(work, f"{kind}_{n}.xml")
            if not os.path.exists(xml):
                GENERATORS[kind](xml, n)
            cases.append(xml)

    print(f"| model | layers | OpenVINO ms | ours in-process ms | ratio | ours process ms | ratio "
          f"| ms per 1k layers (ours, in-process) | peak RSS ours MiB | RSS growth OpenVINO MiB |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    # Warm-up, discarded: both sides' first runs of the script paid for
    # what any later run finds ready (the launcher's first spawns, OpenVINO's
    # first read), which came out as the first model's ratio.
    for _ in range(args.warmup if cases else 0):
        openvino_once(core, cases[0])
        ours_once(cases[0])
    per_layer = {}  # (kind, size) -> (in-process, whole process) ms per 1,000 layers
    for xml in cases:
        layers = layer_count(xml)
        with_openvino = args.openvino_max_layers is None or layers <= args.openvino_max_layers
        ov_ms, in_ms, proc_ms = [], [], []
        ov_grown = 0
        for run in range(args.runs):
            if with_openvino:
                ms, grown = openvino_once(core, xml)
                ov_ms.append(ms)
                if run == 0:
                    ov_grown = grown
            inner, wall = ours_once(xml)
            in_ms.append(inner)
            proc_ms.append(wall)
        peak = peak_rss_of(xml, args.rss_runs)
        i, p = statistics.median(in_ms), statistics.median(proc_ms)
        name = os.path.basename(xml)[:-4]
        kind, _, size = name.rpartition("_")
        if kind in GENERATORS and size.isdigit():
            per_layer[(kind, int(size))] = (i / layers * 1e3, p / layers * 1e3)
        if with_openvino:
            o = statistics.median(ov_ms)
            openvino = f"{o:.2f} | {i:.2f} | {i / o:.2f} | {p:.2f} | {p / o:.2f}"
            grown_mib = f"{ov_grown / 1024:.0f}"
        else:
            openvino = f"- | {i:.2f} | - | {p:.2f} | -"
            grown_mib = "-"
        print(f"| {name} | {layers} | {openvino} | {i / max(layers, 1) * 1e3:.2f} | {peak / 1024:.0f} "
              f"| {grown_mib} |", flush=True)
    print_growth(per_layer)
    return 0


def print_growth(per_layer: dict[tuple[str, int], tuple[float, float]]) -> None:
    """Our time per 1,000 layers of each generated kind at each size, in
    process / whole process, and its growth from the smallest size to the
    largest (1.0 would be exactly linear)."""
    sizes = sorted({size for _, size in per_layer})
    if len(sizes) < 2:
        return
    print()
    print("| kind | " + " | ".join(f"{size:,} layers" for size in sizes)
          + " | growth, smallest to largest |")
    print("| --- |" + " ---: |" * (len(sizes) + 1))
    for kind in GENERATORS:
        row = [per_layer.get((kind, size)) for size in sizes]
        known = [cell for cell in row if cell is not None]
        if len(known) < 2:
            continue
        cells = " | ".join("" if cell is None else f"{cell[0]:.2f} / {cell[1]:.2f}" for cell in row)
        growth = f"{known[-1][0] / known[0][0]:.2f} / {known[-1][1] / known[0][1]:.2f}"
        print(f"| {kind} | {cells} | {growth} |")


if __name__ == "__main__":
    sys.exit(main())
