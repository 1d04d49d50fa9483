#!/usr/bin/env python3
"""Every layer's output shapes from ir-check against OpenVINO's, for any model.

Run from the repository root (after `cargo build --release -p ir-check`):

    python3 scripts/compare_shapes.py MODEL.xml x=1,3,224,224 [x=2,3,320,480 ...]
    python3 scripts/compare_shapes.py MODEL.xml --symbolic x=N,3,H,W

For each static binding (one per argument, ``name=dims`` per Parameter, several
Parameters joined by ``;``), OpenVINO reads the model, reshapes it to the
binding and infers; ``ir-check --shape`` does the same; every layer present in
both (by name; a body layer by its path, ``Loop_3 > body > Add_7``) must
have the same output shapes, element for element. With
``--symbolic``, ir-check's symbolic answer is printed next to OpenVINO's
dynamic one for the model's outputs. Exits 1 on any difference.

The committed models' goldens do this in ``cargo test``; this script is for
the large models the benchmark generates (``gen_vision_models.py --bench``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import openvino as ov


def ours(ir_check: str, xml: str, shapes: list[str]) -> dict:
    args = [ir_check, xml, "--format", "json"]
    for s in shapes:
        args += ["--shape", s]
    out = subprocess.run(args, capture_output=True, text=True)
    report = json.loads(out.stdout)
    if not report["valid"]:
        print(f"  ir-check: invalid: {json.dumps(report['diagnostics'])[:600]}")
    found: dict = {}
    symbols = report.get("symbols", {})

    def dim(d):
        """A bare symbol as OpenVINO prints its range (`3..6`, `?`), so that
        a data-dependent dim compares with OpenVINO's interval."""
        if not isinstance(d, str) or d not in symbols:
            return d
        lo, hi = symbols[d].get("min", 0), symbols[d].get("max")
        if hi is not None and hi >= 2**63 - 1:
            hi = None
        if hi is None:
            return "?" if lo == 0 else f"{lo}.."
        return str(lo) if lo == hi else f"{lo}..{hi}"

    def walk(nodes: list, path: str) -> None:
        for n in nodes:
            found[path + n["name"]] = [
                [dim(d) for d in o["shape"]] if isinstance(o["shape"], list) else o["shape"] for o in n["outputs"]
            ]
            for body in n.get("body", []):
                walk(body["nodes"], f"{path}{n['name']} > {body['role']} > ")

    walk(report["nodes"], "")
    return found


# The bodies of OpenVINO's ops, by role, in the order `ir-check` names them.
ROLES = {"If": ("then_body", "else_body"), "Loop": ("body",), "TensorIterator": ("body",)}


def theirs(xml: str, binding: dict[str, list[int]] | None) -> dict:
    model = ov.Core().read_model(xml)
    if binding:
        model.reshape({name: ov.PartialShape(dims) for name, dims in binding.items()})
    found: dict = {}

    def walk(model: ov.Model, path: str) -> None:
        for op in model.get_ordered_ops():
            name = op.get_friendly_name()
            found[path + name] = [str(op.get_output_partial_shape(i)) for i in range(op.get_output_size())]
            roles = ROLES.get(op.get_type_name(), ())
            bodies = [op.get_then_body(), op.get_else_body()] if len(roles) == 2 else [op.get_function()] if roles else []
            for role, body in zip(roles, bodies):
                walk(body, f"{path}{name} > {role} > ")

    walk(model, "")
    return found


def agree(mine: str, theirs: str) -> bool:
    """Whether our shape says what OpenVINO's does: the same dims, where an
    expression of unknown dims of ours (`bcast(?2, ?3)`, `?2 + 1`) stands
    for OpenVINO's `?` or interval."""
    mine, theirs = mine.replace(" ", ""), theirs.replace(" ", "")
    if mine == theirs:
        return True
    if not (mine.startswith("[") and theirs.startswith("[")):
        return False
    a, b = dims(mine[1:-1]), dims(theirs[1:-1])
    # OpenVINO prints `0..5` as `..5`.
    a = [x[1:] if x.startswith("0..") else x for x in a]
    # An expression of ours (not a bare symbol, whose range `ours` prints)
    # against an unknown or an interval of OpenVINO's: its bounds are not
    # in the report, it is taken to agree.
    unknown = lambda y: y == "?" or ".." in y  # noqa: E731
    return len(a) == len(b) and all(x == y or (unknown(y) and not x.lstrip("-").isdigit() and ".." not in x) for x, y in zip(a, b))


def dims(text: str) -> list[str]:
    """The dims of a shape's text, split at the commas outside parentheses."""
    out, depth, current = [], 0, ""
    for c in text:
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == "," and depth == 0:
            out.append(current)
            current = ""
        else:
            current += c
    return out + [current] if text else out


def parse(arg: str) -> dict[str, list[int]]:
    binding = {}
    for part in arg.split(";"):
        name, dims = part.split("=", 1)
        binding[name] = [int(d) for d in dims.split(",") if d]  # `n=`: a scalar
    return binding


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("bindings", nargs="*", help="name=d0,d1,... (Parameters joined by ';')")
    parser.add_argument("--symbolic", help="also print ir-check's symbolic outputs for this --shape")
    parser.add_argument("--ir-check", default="target/release/ir-check")
    args = parser.parse_args()
    failed = False
    for arg in args.bindings:
        binding = parse(arg)
        ov_shapes = theirs(args.model, binding)
        our_shapes = ours(args.ir_check, args.model, [f"{k}={','.join(map(str, v))}" for k, v in binding.items()])
        compared = 0
        for name, shapes in ov_shapes.items():
            if name not in our_shapes:
                continue
            mine = ["[" + ",".join(str(d) for d in s) + "]" if isinstance(s, list) else str(s) for s in our_shapes[name]]
            if not all(agree(m, t) for m, t in zip(mine, shapes)) or len(mine) != len(shapes):
                print(f"  {arg}: {name}: ours {mine}, OpenVINO {shapes}")
                failed = True
            compared += 1
        print(f"{args.model} at {arg}: {compared} layers compared")
    if args.symbolic:
        ov_shapes = theirs(args.model, None)
        our_shapes = ours(args.ir_check, args.model, [args.symbolic])
        model = ov.Core().read_model(args.model)
        for result in model.get_results():
            name = result.get_friendly_name()
            print(f"  {name}: ours {our_shapes.get(name)}, OpenVINO {ov_shapes.get(name)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
