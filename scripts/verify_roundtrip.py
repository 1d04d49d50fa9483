#!/usr/bin/env python3
"""Check that two OpenVINO IR files describe the same model, as OpenVINO sees it.

Usage::

    python3 scripts/verify_roundtrip.py ORIG.xml WRITTEN.xml
    python3 scripts/verify_roundtrip.py --all DIR_ORIG DIR_WRITTEN

Both files are read with ``openvino.Core().read_model`` and compared:

* model name, inputs/outputs (order, tensor names, element types, partial shapes)
* ops in ``get_ordered_ops()`` order: type, version, friendly name
* op attributes (``op.get_attributes()``)
* every output's element type, partial shape and tensor names
* edges: for each input i of each op, the producing op's friendly name and
  output index
* Constant values (raw bytes of ``op.get_data()``)
* model-level rt_info and per-output rt_info (e.g. layout); per-op rt_info
  keys that only describe the storage (``WeightlessCacheAttribute`` = .bin
  offset) are ignored. ``--ignore-rt-info`` skips rt_info entirely.

Differences are printed; the exit status is 1 on any mismatch (or a file that
cannot be read), 0 when everything matches.  In ``--all`` mode every ``*.xml``
in DIR_ORIG is compared with the file of the same name in DIR_WRITTEN (a
missing counterpart is a mismatch); files only in DIR_WRITTEN are reported.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np
import openvino as ov

# rt_info keys that legitimately differ between a model and its re-serialized copy.
IGNORED_OP_RT_KEYS = ("WeightlessCacheAttribute",)
IGNORED_MODEL_RT_KEYS = ("OpenVINO Runtime",)  # records the writer's version


def _any_str(v) -> str:
    for f in (lambda: v.astype(str), lambda: str(v.value), lambda: str(v)):
        try:
            return f()
        except Exception:  # noqa: BLE001
            pass
    return repr(v)


def _plain(v):
    """rt_info values (OVAny, nested dicts) -> comparable plain Python."""
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in sorted(v.items(), key=lambda kv: str(kv[0]))}
    if hasattr(v, "keys") and not isinstance(v, (str, bytes)):
        return {str(k): _plain(v[k]) for k in sorted(v.keys(), key=str)}
    return _any_str(v)


def _norm_attr(v):
    if isinstance(v, np.ndarray):
        return ("ndarray", str(v.dtype), list(v.shape), v.tobytes().hex())
    if isinstance(v, (list, tuple)):
        return [_norm_attr(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _norm_attr(x) for k, x in v.items()}
    if isinstance(v, (np.generic,)):
        return v.item()
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    return _any_str(v)


def _rt(rtmap, ignored=()) -> dict:
    out = {}
    for k in rtmap.keys():
        k = str(k)
        if any(k.startswith(p) for p in ignored):
            continue
        out[k] = _plain(rtmap[k])
    return out


def _const_bytes(op):
    try:
        return np.ascontiguousarray(np.asarray(op.get_data())).tobytes()
    except Exception:  # noqa: BLE001  (exotic element types: fall back to vector)
        return repr(op.get_vector()).encode()


def describe(model: ov.Model, with_rt: bool) -> dict:
    ops = model.get_ordered_ops()
    d = {
        "name": model.get_friendly_name(),
        "inputs": [
            (sorted(o.get_names()), o.get_element_type().get_type_name(), str(o.get_partial_shape()))
            for o in model.inputs
        ],
        "outputs": [
            (sorted(o.get_names()), o.get_element_type().get_type_name(), str(o.get_partial_shape()))
            for o in model.outputs
        ],
        "rt_info": _rt(model.get_rt_info(), IGNORED_MODEL_RT_KEYS) if with_rt else {},
        "ops": [],
    }
    for op in ops:
        od = {
            "name": op.get_friendly_name(),
            "type": op.get_type_name(),
            "version": op.get_type_info().version_id,
            "attributes": _norm_attr(dict(op.get_attributes())),
            "inputs": [
                (
                    inp.get_source_output().get_node().get_friendly_name(),
                    inp.get_source_output().get_index(),
                )
                for inp in op.inputs()
            ],
            "outputs": [
                {
                    "element_type": o.get_element_type().get_type_name(),
                    "shape": str(o.get_partial_shape()),
                    "names": sorted(o.get_names()),
                    "rt_info": _rt(o.get_rt_info()) if with_rt else {},
                }
                for o in op.outputs()
            ],
            "rt_info": _rt(op.get_rt_info(), IGNORED_OP_RT_KEYS) if with_rt else {},
        }
        if op.get_type_name() == "Constant":
            od["data"] = _const_bytes(op)
        d["ops"].append(od)
    return d


def compare(a: dict, b: dict) -> list[str]:
    diffs = []
    for key in ("name", "inputs", "outputs", "rt_info"):
        if a[key] != b[key]:
            diffs.append(f"model {key}: {a[key]!r} != {b[key]!r}")
    oa, ob = a["ops"], b["ops"]
    if len(oa) != len(ob):
        diffs.append(f"op count: {len(oa)} != {len(ob)}")
        names_a = [o["name"] for o in oa]
        names_b = [o["name"] for o in ob]
        only_a = [n for n in names_a if n not in set(names_b)]
        only_b = [n for n in names_b if n not in set(names_a)]
        if only_a:
            diffs.append(f"ops only in ORIG: {only_a}")
        if only_b:
            diffs.append(f"ops only in WRITTEN: {only_b}")
    for i, (x, y) in enumerate(zip(oa, ob)):
        tag = f"op #{i} {x['type']} '{x['name']}'"
        for key in ("type", "version", "name"):
            if x[key] != y[key]:
                diffs.append(f"{tag}: {key} {x[key]!r} != {y[key]!r}")
        if x["attributes"] != y["attributes"]:
            keys = sorted(set(x["attributes"]) | set(y["attributes"]))
            for k in keys:
                va, vb = x["attributes"].get(k, "<missing>"), y["attributes"].get(k, "<missing>")
                if va != vb:
                    diffs.append(f"{tag}: attribute {k}: {va!r} != {vb!r}")
        if x["inputs"] != y["inputs"]:
            diffs.append(f"{tag}: input edges {x['inputs']} != {y['inputs']}")
        if len(x["outputs"]) != len(y["outputs"]):
            diffs.append(f"{tag}: output count {len(x['outputs'])} != {len(y['outputs'])}")
        for j, (p, q) in enumerate(zip(x["outputs"], y["outputs"])):
            for k in ("element_type", "shape", "names", "rt_info"):
                if p[k] != q[k]:
                    diffs.append(f"{tag}: output {j} {k}: {p[k]!r} != {q[k]!r}")
        if x["rt_info"] != y["rt_info"]:
            diffs.append(f"{tag}: rt_info {x['rt_info']!r} != {y['rt_info']!r}")
        if "data" in x or "data" in y:
            da, db = x.get("data", b""), y.get("data", b"")
            if da != db:
                first = next((k for k in range(min(len(da), len(db))) if da[k] != db[k]), min(len(da), len(db)))
                lo = max(0, first - 8)
                diffs.append(
                    f"{tag}: constant data differs (first at byte {first}; {len(da)} vs {len(db)} bytes): "
                    f"bytes[{lo}:{lo + 24}] {da[lo:lo + 24].hex()} != {db[lo:lo + 24].hex()}"
                )
    return diffs


def verify(orig: str, written: str, with_rt: bool = True, quiet: bool = False) -> bool:
    core = ov.Core()
    try:
        ma = core.read_model(orig)
    except Exception as e:  # noqa: BLE001
        print(f"FAIL {orig}: cannot read: {str(e).strip().splitlines()[-1]}")
        return False
    try:
        mb = core.read_model(written)
    except Exception as e:  # noqa: BLE001
        print(f"FAIL {written}: cannot read: {str(e).strip().splitlines()[-1]}")
        return False
    diffs = compare(describe(ma, with_rt), describe(mb, with_rt))
    if diffs:
        print(f"FAIL {orig} vs {written}: {len(diffs)} difference(s)")
        for d in diffs:
            print("  - " + d)
        return False
    if not quiet:
        print(f"OK   {orig} == {written} ({len(ma.get_ordered_ops())} ops)")
    return True


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--all", action="store_true", help="compare every *.xml of DIR_ORIG with DIR_WRITTEN")
    ap.add_argument("--ignore-rt-info", action="store_true", help="do not compare rt_info")
    ap.add_argument("-q", "--quiet", action="store_true", help="print only failures")
    ap.add_argument("orig")
    ap.add_argument("written")
    args = ap.parse_args(argv)
    with_rt = not args.ignore_rt_info

    if not args.all:
        return 0 if verify(args.orig, args.written, with_rt, args.quiet) else 1

    names_a = sorted(f for f in os.listdir(args.orig) if f.endswith(".xml"))
    names_b = set(f for f in os.listdir(args.written) if f.endswith(".xml"))
    ok = True
    for n in names_a:
        wb = os.path.join(args.written, n)
        if n not in names_b:
            print(f"FAIL {n}: missing in {args.written}")
            ok = False
            continue
        ok &= verify(os.path.join(args.orig, n), wb, with_rt, args.quiet)
    extra = sorted(names_b - set(names_a))
    if extra:
        print(f"note: only in {args.written}: {', '.join(extra)}")
    total = len(names_a)
    print(f"{'all ' + str(total) + ' match' if ok else 'MISMATCH'} ({args.orig} vs {args.written})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
