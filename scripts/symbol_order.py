#!/usr/bin/env python3
"""Writes the linker's symbol-ordering file of the shipped ``ir-check``
(issue 18; docs/performance.md, "Starting the process, musl and code
layout").

    python3 scripts/symbol_order.py BINARY [OUTPUT]

BINARY is a ``cargo release-ir-check`` binary of the current code (with
its symbols: not stripped). It is run under ``valgrind --tool=cachegrind``
on ``--version``, ``--help`` and every model of ``ir-samples/models`` (the
JSON report, a few also the text one) and on the generated 1,000-layer
graphs if ``/work/bench-models`` or ``$BENCH_MODELS`` holds them; every
function that ran is written to OUTPUT (default
``crates/ir-check/symbol-order.txt``), one mangled name a line, the most
executed first. ``crates/ir-check/build.rs`` hands the file to lld, which
puts those functions first and together in ``.text``: a check then touches
a few hundred KiB of code instead of pages spread over 9 MB, each first
touch a page fault.

Names the linker does not find any more (code changed since the file was
written, another compiler) are skipped without a warning: a stale file
costs only page faults. Rewrite it after larger changes to the check's
code or a new Rust version.
"""

import collections
import glob
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUTPUT = os.path.join(ROOT, "crates", "ir-check", "symbol-order.txt")
# Functions every process runs that cachegrind does not see run: musl's
# entry (before valgrind's first block) and what mimalloc calls for the
# arena main.rs gives it (under valgrind it takes another path). Found in
# `perf record -e page-faults -d` of a check.
ALWAYS_RUN = ("__libc_start_main", "_mi_os_zalloc")
# Models whose text report is also run (the text writer's code).
TEXT_TOO = ("bert.xml", "mobilenet_v2_narrow.xml", "text_recognizer.xml")


def command_lines(binary: str) -> list[list[str]]:
    lines = [[binary, "--version"], [binary, "--help"]]
    models = sorted(glob.glob(os.path.join(ROOT, "ir-samples", "models", "*.xml")))
    bench = os.environ.get("BENCH_MODELS", "/work/bench-models")
    models += [
        os.path.join(bench, f"{kind}_1000.xml")
        for kind in ("relu", "add", "slice", "wide")
        if os.path.exists(os.path.join(bench, f"{kind}_1000.xml"))
    ]
    for model in models:
        lines.append([binary, model, "--format", "json", "--allow-unknown-ops", "--timings"])
        if os.path.basename(model) in TEXT_TOO:
            lines.append([binary, model, "--allow-unknown-ops"])
    return lines


def executed_functions(command: list[str], out_file: str) -> collections.Counter:
    """Instructions per (mangled) function of one run under cachegrind."""
    subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--demangle=no",
            f"--cachegrind-out-file={out_file}",
            *command,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    counts: collections.Counter = collections.Counter()
    function = None
    with open(out_file) as lines:
        for line in lines:
            if line.startswith("fn="):
                function = line[3:].strip()
            elif function and line[:1].isdigit():
                fields = line.split()
                if len(fields) >= 2:
                    counts[function] += int(fields[1])
    return counts


def main() -> int:
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    output = sys.argv[2] if len(sys.argv) == 3 else DEFAULT_OUTPUT
    share: collections.Counter = collections.Counter()
    runs: collections.Counter = collections.Counter()
    with tempfile.TemporaryDirectory() as scratch:
        out_file = os.path.join(scratch, "cachegrind.out")
        for command in command_lines(binary):
            counts = executed_functions(command, out_file)
            whole = sum(counts.values()) or 1
            for function, count in counts.items():
                runs[function] += 1
                # Each run counts alike, whatever its length.
                share[function] += count / whole
    # What every check runs first (so that a small model's check touches a
    # short prefix), then what fewer runs need; the most executed first
    # among equals.
    order = sorted(share, key=lambda name: (-runs[name], -share[name], name))
    names = list(ALWAYS_RUN)
    names += [name for name in order if name not in ALWAYS_RUN and name != "???" and " " not in name]
    with open(output, "w") as file:
        file.write("\n".join(names) + "\n")
    print(f"{len(names)} functions written to {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
