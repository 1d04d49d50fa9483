#!/usr/bin/env python3
"""Cache misses of one cold ``ir-check`` process, counted by cachegrind's
cache simulation (issue 18; docs/performance.md, "A cold start").

    python3 scripts/cold_misses.py MODEL[,MODEL...] BINARY BINARY...

A MODEL is a path to an ``.xml`` or ``version`` (``ir-check --version``).
Each binary runs once per model under ``valgrind --tool=cachegrind
--cache-sim=yes`` (``--format json --allow-unknown-ops``); printed are its
instructions (``Ir``), first-level instruction-cache misses (``I1mr``),
last-level instruction misses (``ILmr``: the distinct code lines the
process touches, as the simulated caches start empty) and the data
misses (``D1mr``+``D1mw``, ``DLmr``+``DLmw``). The simulation starts cold,
like a process after another program ran, and does not depend on the
machine's load: a build whose check touches fewer code lines misses less
when it starts cold. The kernel's work (exec, page faults, the file's
copy) is not counted.
"""

import os
import re
import subprocess
import sys
import tempfile

# cachegrind's summary lines, and the column each is shown in.
FIELDS = {"Ir": r"I\s+refs", "I1mr": r"I1\s+misses", "ILmr": r"LLi\s+misses",
          "D1m": r"D1\s+misses", "DLm": r"LLd\s+misses"}


def counts(binary: str, model: str) -> dict[str, int]:
    argv = [binary, "--version"] if model == "version" else [
        binary, model, "--format", "json", "--allow-unknown-ops"]
    with tempfile.NamedTemporaryFile(suffix=".cg") as out:
        run = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=yes",
             f"--cachegrind-out-file={out.name}", *argv],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    found = {}
    for field, pattern in FIELDS.items():
        match = re.search(pattern + r":\s+([\d,]+)", run.stderr)
        found[field] = int(match.group(1).replace(",", "")) if match else -1
    return found


def main() -> int:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    models = sys.argv[1].split(",")
    binaries = sys.argv[2:]
    print(f"{'model':20s} {'binary':16s} " + " ".join(f"{f:>11s}" for f in FIELDS))
    for model in models:
        for binary in binaries:
            found = counts(binary, model)
            shown = " ".join(f"{found[f]:11,d}" for f in FIELDS)
            print(f"{os.path.basename(model):20s} {os.path.basename(binary):16s} {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
