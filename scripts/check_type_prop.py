#!/usr/bin/env python3
"""Checks the `expect` lines of crates/shape-infer/tests/type_prop/*.txt
against OpenVINO itself.

Run from the repository root:

    python3 scripts/check_type_prop.py           # report disagreements
    python3 scripts/check_type_prop.py --update  # rewrite them to OpenVINO's answers

It has the Rust test write every case as IR (`TYPE_PROP_DUMP=DIR cargo test
-p shape-infer --test type_prop`), reads each with `openvino.Core().read_model`
(which validates and infers every node), and compares the output shape of
every layer named by an `expect` line with the table: an `expect NAME error`
line holds when OpenVINO refuses to read the model.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import openvino as ov

TABLES = Path("crates/shape-infer/tests/type_prop")


def dim_text(dim: ov.Dimension) -> str:
    if dim.is_static:
        return str(dim.get_length())
    lo, hi = dim.get_min_length(), dim.get_max_length()
    if hi < 0:
        return "?" if lo == 0 else f"{lo}.."
    return f"{lo}..{hi}"


def shape_text(shape: ov.PartialShape) -> str:
    if shape.rank.is_dynamic:
        return "[...]"
    return "[" + ",".join(dim_text(d) for d in shape) + "]"


def normalize(text: str) -> str:
    """The table's spelling of a shape in this script's canonical form."""
    if text in ("error", "[...]"):
        return text
    dims = []
    for d in text.strip("[]").split(","):
        d = d.strip()
        if not d:
            continue
        if d == "?" or d in ("0..", ".."):
            dims.append("?")
        elif ".." in d:
            lo, hi = d.split("..")
            lo = lo or "0"
            dims.append(f"{lo}.." if not hi else (lo if lo == hi else f"{lo}..{hi}"))
        else:
            dims.append(d)
    return "[" + ",".join(dims) + "]"


def openvino_answers(core: ov.Core, xml: Path) -> dict[str, str] | str:
    # The test's IR writer leaves out the `precision` of output ports (our
    # reader takes element types from the graph); OpenVINO's reader demands
    # one, and "dynamic" lets it infer the type as it infers the shape.
    text = re.sub(r'<port id="(\d+)">(?=(?:<dim>[^<]*</dim>)*</port>\s*</output>)',
                  r'<port id="\1" precision="dynamic">', xml.read_text())
    weights = np.frombuffer(xml.with_suffix(".bin").read_bytes(), dtype=np.uint8)
    try:
        model = core.read_model(text, ov.Tensor(weights.copy() if weights.size else np.zeros(1, np.uint8)))
        model.validate_nodes_and_infer_types()
    except Exception as e:  # OpenVINO raises RuntimeError subclasses
        return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return {op.get_friendly_name(): shape_text(op.get_output_partial_shape(0))
            for op in model.get_ops() if op.get_output_size() > 0}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--update", action="store_true")
    args = parser.parse_args()
    core = ov.Core()
    with tempfile.TemporaryDirectory() as dump:
        env = dict(os.environ, TYPE_PROP_DUMP=dump)
        subprocess.run(["cargo", "test", "-q", "-p", "shape-infer", "--test", "type_prop"],
                       env=env, check=True, stdout=subprocess.DEVNULL)
        disagreements = 0
        for table in sorted(TABLES.glob("*.txt")):
            lines = table.read_text().splitlines()
            case = None
            answers: dict[str, str] | str = {}
            for i, line in enumerate(lines):
                words = line.split("#")[0].split()
                if not words:
                    continue
                if words[0] == "case":
                    case = words[1]
                    answers = openvino_answers(core, Path(dump) / f"{table.stem}__{case}.xml")
                elif words[0] == "expect":
                    name, written = words[1], normalize(words[2])
                    if isinstance(answers, str):
                        actual, why = "error", answers
                    else:
                        actual, why = answers.get(name, "missing"), ""
                    if actual != written:
                        disagreements += 1
                        print(f"{table}:{i + 1} {case}: table says {written}, "
                              f"OpenVINO {actual} {why}")
                        if args.update:
                            lines[i] = re.sub(r"expect\s+(\S+)\s+\S+", f"expect {name} {actual}", line, count=1)
            if args.update:
                table.write_text("\n".join(lines) + "\n")
        print(f"{disagreements} disagreement(s) with OpenVINO {ov.__version__}")
        sys.exit(1 if disagreements and not args.update else 0)


if __name__ == "__main__":
    main()
