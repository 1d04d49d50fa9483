#!/usr/bin/env python3
"""Fresh ``ir-check`` processes of two or more binaries, alternating run by
run (issue 18; docs/performance.md, "What a fresh process pays").

    python3 scripts/fresh_process_ab.py [--idle MS] ROUNDS RUNS MODEL[,MODEL...] BINARY BINARY...

A MODEL is a path to an ``.xml`` or ``version`` (``ir-check --version``).
Each binary is started with ``os.posix_spawn`` (stdout to /dev/null, stderr
to a file) and waited for with ``os.wait4``; per round and binary the
medians of: ``wall`` (spawn to the end of the wait, ms), ``cpu`` (the
child's user + system time, ms), ``flt`` (its minor page faults) and the
``--timings`` fields. Before each round every binary is read whole, so that
all are wholly in the page cache: the kernel maps code around a fault only
from cached pages, and a binary read back from disk takes more faults than
a fresh copy. Compare copies made at the same time.

``--idle MS`` sleeps MS milliseconds before every run: the process then
starts with cold CPU caches and TLB, as in ``scripts/bench_load.py`` (which
runs OpenVINO between our runs) and for a user, not warm from the run just
before (back-to-back runs, the default, hide 0.3-0.5 ms of cache and TLB
misses on a 1,000-layer graph; docs/performance.md, "A cold start").
"""

import os
import re
import statistics
import sys
import tempfile
import time


def main() -> int:
    arguments = sys.argv[1:]
    idle_seconds = 0.0
    if arguments[:1] == ["--idle"] and len(arguments) > 1:
        idle_seconds = float(arguments[1]) / 1e3
        arguments = arguments[2:]
    if len(arguments) < 4:
        sys.exit(__doc__)
    rounds, runs = int(arguments[0]), int(arguments[1])
    models = arguments[2].split(",")
    binaries = arguments[3:]
    devnull = os.open(os.devnull, os.O_WRONLY)
    stderr = tempfile.TemporaryFile()
    environment = dict(os.environ)

    def once(binary: str, model: str) -> dict[str, float]:
        stderr.seek(0)
        stderr.truncate()
        if model == "version":
            argv = [binary, "--version"]
        else:
            argv = [binary, model, "--format", "json", "--allow-unknown-ops", "--timings"]
        actions = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, stderr.fileno(), 2)]
        if idle_seconds:
            time.sleep(idle_seconds)
        start = time.perf_counter()
        pid = os.posix_spawn(binary, argv, environment, file_actions=actions)
        _, _, usage = os.wait4(pid, 0)
        found = {
            "wall": (time.perf_counter() - start) * 1e3,
            "cpu": (usage.ru_utime + usage.ru_stime) * 1e3,
            "flt": usage.ru_minflt,
        }
        stderr.seek(0)
        text = stderr.read().decode(errors="replace")
        if "timings_ms:" in text:
            for key, value in re.findall(r"(\w+)=([\d.]+)", text.split("timings_ms:")[-1]):
                found[key] = float(value)
        return found

    print("load before", os.getloadavg(), f"idle {idle_seconds * 1e3:g} ms" if idle_seconds else "back-to-back")
    for model in models:
        results = {b: [[] for _ in range(rounds)] for b in binaries}
        for r in range(rounds):
            for binary in binaries:
                with open(binary, "rb") as f:
                    while f.read(1 << 20):
                        pass
            for _ in range(runs):
                for binary in binaries:
                    results[binary][r].append(once(binary, model))
        for binary in binaries:
            fields = []
            for key in results[binary][0][0]:
                medians = [statistics.median(run[key] for run in results[binary][r]) for r in range(rounds)]
                shown = "/".join(f"{m:.0f}" if key == "flt" else f"{m:.3f}" for m in medians)
                fields.append(f"{key}={shown}")
            print(f"{os.path.basename(model):24s} {os.path.basename(binary):12s} " + " ".join(fields))
    print("load after", os.getloadavg())
    return 0


if __name__ == "__main__":
    sys.exit(main())
