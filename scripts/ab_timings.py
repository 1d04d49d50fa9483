#!/usr/bin/env python3
"""Alternating fresh-process `--timings` of two or more ir-check binaries.

    python3 scripts/ab_timings.py BIN_A,BIN_B ROUNDS MODEL.xml...

Each round runs `BIN MODEL --format json --timings` once per binary, in
turn (A B A B ...), and reads `validate=` and `infer=` from the timings
line; prints the medians of validate, infer and their sum in ms, per model
and binary (issue 18, docs/performance.md).
"""
import os
import re
import statistics
import subprocess
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    bins = sys.argv[1].split(",")
    rounds = int(sys.argv[2])
    for model in sys.argv[3:]:
        times = {b: [] for b in bins}
        for _ in range(rounds):
            for b in bins:
                err = subprocess.run(
                    [b, model, "--format", "json", "--timings"],
                    capture_output=True,
                    text=True,
                ).stderr
                found = re.search(r"validate=([\d.]+) infer=([\d.]+)", err)
                if not found:
                    sys.exit(f"{b} {model}: no timings line in {err!r}")
                times[b].append((float(found.group(1)), float(found.group(2))))
        line = os.path.basename(model)
        for b in bins:
            v = statistics.median(t[0] for t in times[b])
            i = statistics.median(t[1] for t in times[b])
            both = statistics.median(t[0] + t[1] for t in times[b])
            line += f" | {os.path.basename(b)}: v={v:.3f} i={i:.3f} v+i={both:.3f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
