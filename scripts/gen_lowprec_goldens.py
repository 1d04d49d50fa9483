#!/usr/bin/env python3
"""Goldens of Convert to and from OpenVINO's storage element types (f8e4m3,
f8e5m2, f8e8m0, f4e2m1, nf4, i4, u4, u2, u1), from OpenVINO's own CPU plugin
on edge values, for ``crates/executor/tests/lowprec.rs``.

Run from the repository root: ``python3 scripts/gen_lowprec_goldens.py``.
Writes ``crates/executor/tests/lowprec/<source>_to_<destination>.npy`` (the
CPU plugin's output) and ``<source>.npy`` (the input) for each pair the CPU
plugin compiles. Storage types are written one code a byte (``|u1``), as
``ir-check --run`` writes them; a bf16 input as its bits (``<u2``).

Inputs: to a storage type, every f16 value and its f32 neighbours (ties and
one ulp either side of them), the specials (NaN with payloads, infinities,
signed zeros, f32 subnormals, the largest values, the midpoints of nf4's code
book), from f32, f16, bf16, f64 and integer sources; from a storage type,
every code, to f32, f16, bf16, f64, i8, i32 and u8.

Also, per 8-bit storage type, ``moves_<type>.xml``: a Parameter [2, 3, 4] of that
type through each op that only moves elements (Concat, Transpose, Gather,
Slice, Broadcast, Pad…) the CPU plugin compiles for it, one Result each, with
``moves_<type>.in.npy`` (random codes, NaNs left out) and
``moves_<type>.<op>.npy`` (the CPU plugin's outputs, one code a byte).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset13 as ops

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "crates/executor/tests/lowprec"
STORAGE_BITS = {"f8e4m3": 8, "f8e5m2": 8, "f8e8m0": 8, "f4e2m1": 4, "nf4": 4, "i4": 4, "u4": 4, "u2": 2, "u1": 1}
NF4_CODES = [-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635,
             -0.18477343022823334, -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725,
             0.24611230194568634, 0.33791524171829224, 0.44070982933044434, 0.5626170039176941,
             0.7229568362236023, 1.0]


def run(core: ov.Core, source: ov.Type, destination: str, value: ov.Tensor | np.ndarray) -> ov.Tensor:
    shape = list(value.shape)
    p = ops.parameter(shape, source)
    model = ov.Model([ops.convert(p, destination)], [p])
    request = core.compile_model(model, "CPU").create_infer_request()
    request.infer({0: value})
    return request.get_output_tensor(0)


def codes(t: ov.Tensor) -> np.ndarray:
    """A storage-type tensor one code a byte (OpenVINO packs from the low bits, u1 from the high bit)."""
    bits = STORAGE_BITS[t.element_type.get_type_name()]
    raw = np.array(t.data, copy=True).view(np.uint8).ravel()
    count = int(np.prod(list(t.shape), dtype=np.int64))
    slots = np.arange(8 // bits)
    if bits == 1:
        slots = slots[::-1]
    out = (raw[:, None] >> (slots * bits)[None, :]) & ((1 << bits) - 1)
    return out.ravel()[:count].astype(np.uint8)


def f32_inputs() -> np.ndarray:
    h = np.arange(65536, dtype=np.uint16).view(np.float16)
    h = h[np.isfinite(h)].astype(np.float32)
    rng = np.random.default_rng(17)
    # Every f16 value above 2^-18 in magnitude is too many: keep a sample of
    # them, and all of the small ones (the f8 subnormal range).
    small = h[np.abs(h) < 2.0**-5]
    pick = rng.choice(h, 1500, replace=False)
    base = np.concatenate([small[::5], pick]).view(np.uint32)
    near = np.concatenate([base, base + 1, base - 1, base + 0x1000, base + 0xFFF])
    nf4 = (np.array(NF4_CODES[:-1]) + np.array(NF4_CODES[1:])) / 2
    nf4 = nf4.astype(np.float32).view(np.uint32)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, 448, 464, 465, 480, 57344, 61439, 61440, 65504, 65520,
                         3.4e38, -3.4e38, 1e-40, -1e-40, 1.5, 2.5, -2.5, 3.5, 5.0, 5.5, 6.0, 7.0, 15.5, 16.0, -8.5,
                         -9.0, 254.5, 1e9, -1e9, 2.0**-126, 2.0**-127, 1.5 * 2.0**-9, 2.0**127, 1.75 * 2.0**127],
                        np.float32).view(np.uint32)
    nans = np.array([0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FA00000, 0x7FE00000, 0xFF812345, 0x7FB00000],
                    np.uint32)
    wide = rng.integers(0, 2**32, 500, dtype=np.uint64).astype(np.uint32)
    every = np.concatenate([near, nf4 - 1, nf4, nf4 + 1, specials, nans, wide])
    return every.view(np.float32)


def main() -> None:
    core = ov.Core()
    core.set_property("CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    OUT.mkdir(parents=True, exist_ok=True)
    for old in [*OUT.glob("*.npy"), *OUT.glob("*.xml"), *OUT.glob("*.bin")]:
        old.unlink()
    x = f32_inputs()
    rng = np.random.default_rng(5)
    ints = np.concatenate([np.arange(-300, 300), rng.integers(-2**31, 2**31, 300), [2**31 - 1, -2**31]])
    sources: dict[str, tuple[ov.Type, np.ndarray]] = {
        "f32": (ov.Type.f32, x),
        "f16": (ov.Type.f16, np.arange(0, 65536, 5, dtype=np.uint16).view(np.float16)),
        "bf16": (ov.Type.bf16, np.arange(0, 65536, 11, dtype=np.uint16)),
        "f64": (ov.Type.f64, np.concatenate([x.astype(np.float64), [1e300, -1e300, 2.0**31, 2.0**32 + 5, -20.0, 256.0,
                                                                    2.0**53 + 2, -(2.0**31) - 5]])),
        "i32": (ov.Type.i32, ints.astype(np.int32)),
        "i64": (ov.Type.i64, np.concatenate([ints, [2**40 + 7, -(2**40) - 9, 2**63 - 1, -(2**63)]]).astype(np.int64)),
        "u8": (ov.Type.u8, np.arange(256, dtype=np.uint8)),
    }
    written = 0
    for name, (t, values) in sources.items():
        feed = values
        if name == "bf16":
            feed = ov.Tensor(ov.Type.bf16, list(values.shape))
            np.asarray(feed.data).view(np.uint16)[:] = values
        np.save(OUT / f"{name}.npy", values)
        for destination in STORAGE_BITS:
            try:
                out = run(core, t, destination, feed)
            except Exception:  # noqa: BLE001 - the CPU plugin does not compile this pair
                continue
            np.save(OUT / f"{name}_to_{destination}.npy", codes(out))
            written += 1
    for storage, bits in STORAGE_BITS.items():
        all_codes = np.arange(1 << bits, dtype=np.uint8)
        packed = np.zeros(((1 << bits) * bits + 7) // 8, np.uint8)
        for i, c in enumerate(all_codes):
            slot = i % (8 // bits)
            shift = 7 - slot if bits == 1 else slot * bits
            packed[i // (8 // bits)] |= c << shift
        feed = ov.Tensor(getattr(ov.Type, storage), [len(all_codes)])
        np.asarray(feed.data).view(np.uint8).ravel()[:] = packed
        np.save(OUT / f"{storage}.npy", all_codes)
        for destination in ["f32", "f16", "bf16", "f64", "i8", "i32", "u8"]:
            try:
                out = run(core, getattr(ov.Type, storage), destination, feed)
            except Exception:  # noqa: BLE001
                continue
            data = np.array(out.data, copy=True)
            if destination == "bf16":
                data = data.view(np.uint16)
            np.save(OUT / f"{storage}_to_{destination}.npy", data)
            written += 1
    written += movement_goldens(core)
    print(f"{written} goldens in {OUT.relative_to(ROOT)}")


def movement_ops(p, ops_: dict) -> dict:
    """Ops that only move elements, on Parameter ``p`` of shape [2, 3, 4]."""
    def c(v):
        return ops.constant(np.array(v, dtype=np.int64))
    return {
        "concat": lambda: ops.concat([p, p], 1),
        "transpose": lambda: ops.transpose(p, c([2, 0, 1])),
        "gather": lambda: ops.gather(p, c([3, 0, 3, 1, 2]), c(2)),
        "gather_elements": lambda: ops.gather_elements(p, ops.constant(np.array([[[1, 0, 2, 1]] * 3] * 2, np.int64)), 1),
        "slice": lambda: ops.slice(p, c([1, 3]), c([2, 0]), c([1, -2]), c([1, 2])),
        "strided_slice": lambda: ops.strided_slice(p, c([0, 0, 1]), c([2, 3, 4]), c([1, 2, 2]), [0, 0, 0], [0, 0, 0]),
        "broadcast": lambda: ops.broadcast(p, c([2, 2, 3, 4])),
        "tile": lambda: ops.tile(p, c([1, 2, 1])),
        "split": lambda: ops.split(p, c(2), 2).output(1),
        "variadic_split": lambda: ops.variadic_split(p, c(2), c([1, 3])).output(1),
        "reshape": lambda: ops.reshape(p, c([3, 8]), False),
        "roll": lambda: ops.roll(p, c([1, -1]), c([1, 2])),
        "depth_to_space": lambda: ops.depth_to_space(p, "blocks_first", 1),
        "pad": lambda: ops.pad(p, c([0, 1, 0]), c([0, 0, 1]), "edge"),
        "scatter_update": lambda: ops.scatter_update(p, c([1]), ops.slice(p, c([0]), c([1]), c([1]), c([1])), c(1)),
    }


def movement_goldens(core: ov.Core) -> int:
    """Per storage type, a model whose Results each move the elements of one
    Parameter [2, 3, 4] (only the ops the CPU plugin compiles for that type),
    its input and outputs one code a byte: ``moves_<type>.xml``,
    ``moves_<type>.in.npy``, ``moves_<type>.<op>.npy``."""
    rng = np.random.default_rng(3)
    written = 0
    # The 8-bit types only: with the 4-bit and smaller ones, some of these
    # ops corrupt the CPU plugin's heap (OpenVINO 2026.4 aborts in free()).
    for storage, bits in STORAGE_BITS.items():
        if bits != 8:
            continue
        t = getattr(ov.Type, storage)
        p = ops.parameter([2, 3, 4], t, name="x")
        # Every code but the NaNs (which the CPU plugin may move as any NaN).
        valid = [c for c in range(1 << bits) if not (storage in ("f8e4m3",) and c & 0x7F == 0x7F)
                 and not (storage == "f8e5m2" and c & 0x7C == 0x7C and c & 3)
                 and not (storage == "f8e8m0" and c == 0xFF)]
        codes_in = rng.choice(np.array(valid, np.uint8), 24).astype(np.uint8)
        packed = np.zeros((24 * bits + 7) // 8, np.uint8)
        for i, code in enumerate(codes_in):
            per = 8 // bits
            shift = 7 - i % per if bits == 1 else (i % per) * bits
            packed[i // per] |= int(code) << shift
        feed = ov.Tensor(t, [2, 3, 4])
        np.asarray(feed.data).view(np.uint8).ravel()[:] = packed
        results = {}
        for name, build in movement_ops(p, {}).items():
            node = build()
            try:
                m = ov.Model([ops.result(node)], [p])
                request = core.compile_model(m, "CPU").create_infer_request()
                request.infer({0: feed})
                out = request.get_output_tensor(0)
                results[name] = codes(out).reshape(list(out.shape))
            except Exception:  # noqa: BLE001 - not compiled for this type
                continue
        if not results:
            continue
        p2 = ops.parameter([2, 3, 4], t, name="x")
        outs = []
        for name, build in movement_ops(p2, {}).items():
            if name in results:
                r = ops.result(build())
                r.set_friendly_name(name)
                outs.append(r)
        ov.save_model(ov.Model(outs, [p2], f"moves_{storage}"), OUT / f"moves_{storage}.xml", compress_to_fp16=False)
        np.save(OUT / f"moves_{storage}.in.npy", codes_in.reshape(2, 3, 4))
        for name, value in results.items():
            np.save(OUT / f"moves_{storage}.{name}.npy", value)
            written += 1
    return written


if __name__ == "__main__":
    main()
