#!/usr/bin/env python3
"""Every layer's output shapes from ir-check against OpenVINO's, for any model.

Run from the repository root (after `cargo build --release -p ir-check`):

    python3 scripts/compare_shapes.py MODEL.xml x=1,3,224,224 [x=2,3,320,480 ...]
    python3 scripts/compare_shapes.py MODEL.xml --symbolic x=N,3,H,W

For each static binding (one per argument, ``name=dims`` per Parameter, several
Parameters joined by ``;``), OpenVINO reads the model, reshapes it to the
binding and infers; ``ir-check --shape`` does the same; every layer present in
both (by name) must have the same output shapes, element for element. With
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
    return {n["name"]: [o["shape"] for o in n["outputs"]] for n in report["nodes"]}


def theirs(xml: str, binding: dict[str, list[int]] | None) -> dict:
    model = ov.Core().read_model(xml)
    if binding:
        model.reshape({name: ov.PartialShape(dims) for name, dims in binding.items()})
    return {op.get_friendly_name(): [str(op.get_output_partial_shape(i)) for i in range(op.get_output_size())] for op in model.get_ordered_ops()}


def parse(arg: str) -> dict[str, list[int]]:
    binding = {}
    for part in arg.split(";"):
        name, dims = part.split("=", 1)
        binding[name] = [int(d) for d in dims.split(",")]
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
            if [m.replace(" ", "") for m in mine] != [t.replace(" ", "") for t in shapes]:
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
