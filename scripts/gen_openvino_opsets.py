#!/usr/bin/env python3
"""The op tables of the installed OpenVINO's opsets, for the registry's
coverage test (`crates/shape-infer/tests/opset_coverage.rs`).

OpenVINO's Python API does not list an opset's ops; its wheel ships the C++
tables (`include/openvino/opsets/opset<N>_tbl.hpp`, one
`_OPENVINO_OP_REG(<Op>, ov::op::v<K>)` line per op), which this script reads.
Run from the repository root: ``python3 scripts/gen_openvino_opsets.py``;
it writes ``crates/shape-infer/tests/openvino_opsets.json``:
``{"openvino_version", "opsets": {"opset<N>": [[op, "v<K>"], ...]}}``.

Note (issue 17): OpenVINO 2026.4's opset16 has no MOE (its `MOE` is
`ov::op::internal::MOE`, outside every opset, which the IR reader refuses),
and its opset17 holds only ErfInv, GroupedMatMul, RGBtoNV12 and BGRtoNV12
besides Parameter, Convert and ShapeOf (the table is still being filled)."""

import json
import re
from pathlib import Path

import openvino as ov

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "crates/shape-infer/tests/openvino_opsets.json"
LINE = re.compile(r"^_OPENVINO_OP_REG\((\w+),\s*ov::op::(v\d+)\)")


def main() -> None:
    folder = Path(ov.__file__).parent / "include/openvino/opsets"
    opsets = {}
    for n in range(1, 100):
        table = folder / f"opset{n}_tbl.hpp"
        if not table.exists():
            break
        ops = []
        for line in table.read_text().splitlines():
            m = LINE.match(line.strip())
            if m:
                ops.append([m.group(1), m.group(2)])
        opsets[f"opset{n}"] = ops
    # One line per opset.
    lines = ["{", f' "openvino_version": {json.dumps(ov.get_version())},', ' "opsets": {']
    for i, (name, ops) in enumerate(opsets.items()):
        comma = "," if i < len(opsets) - 1 else ""
        lines.append(f"  {json.dumps(name)}: {json.dumps(ops, separators=(',', ':'))}{comma}")
    lines += [" }", "}"]
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {sum(len(v) for v in opsets.values())} entries of {len(opsets)} opsets to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
