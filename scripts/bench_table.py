#!/usr/bin/env python3
"""Prints the executor's kernel benchmark figures as a Markdown table.

Reads criterion's estimates under target/criterion/<size>/<case>/new/ (written
by `cargo bench -p executor --bench kernels`) and prints, per case and size,
the throughput in GB/s (output bytes / median time; 1 GB = 1e9 bytes) and its
ratio to the `memcpy` of the same bytes measured in the same run.

    python3 scripts/bench_table.py [target/criterion]
"""
import json
import sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
sizes = ["1MiB", "16MiB", "64MiB"]


def gbps(size: str, case: str):
    d = root / size / case / "new"
    try:
        bench = json.loads((d / "benchmark.json").read_text())
        est = json.loads((d / "estimates.json").read_text())
    except FileNotFoundError:
        return None
    seconds = est["median"]["point_estimate"] * 1e-9
    return bench["throughput"]["Bytes"] / seconds / 1e9


cases = []
for size in sizes:
    for d in sorted((root / size).iterdir()) if (root / size).is_dir() else []:
        if d.is_dir() and d.name != "report" and d.name not in cases:
            cases.append(d.name)
# Baselines first, then the cases in alphabetical order.
cases.sort(key=lambda c: (not c.startswith("memcpy"), c))

header = "| case | " + " | ".join(f"{s} GB/s (× memcpy)" for s in sizes) + " |"
print(header)
print("|" + " --- |" * (len(sizes) + 1))
for case in cases:
    cells = []
    for size in sizes:
        v, base = gbps(size, case), gbps(size, "memcpy")
        if v is None:
            cells.append("–")
        elif case == "memcpy" or base is None:
            cells.append(f"{v:.1f}")
        else:
            cells.append(f"{v:.1f} ({v / base:.2f})")
    print(f"| {case} | " + " | ".join(cells) + " |")
