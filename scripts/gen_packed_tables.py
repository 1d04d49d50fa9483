#!/usr/bin/env python3
"""OpenVINO's decoding of the storage types of compressed weights.

Run from the repository root: ``python3 scripts/gen_packed_tables.py``.

For each type (u1, u2, u4, i4, nf4, f8e4m3, f8e5m2, f8e8m0, f4e2m1), a Const
holding the 256 bytes 0..255 is converted to f32 by OpenVINO's CPU plugin;
the f32 elements (as many as the bytes hold) are written to
``crates/executor/tests/packed/<type>.npy``, which
``crates/executor/tests/packed.rs`` compares with the executor's Convert.
"""

import os

import numpy as np
import openvino as ov
import openvino.opset13 as ops

OUT = os.path.join("crates", "executor", "tests", "packed")
TYPES = {"u1": (ov.Type.u1, 8), "u2": (ov.Type.u2, 4), "u4": (ov.Type.u4, 2), "i4": (ov.Type.i4, 2), "nf4": (ov.Type.nf4, 2),
         "f8e4m3": (ov.Type.f8e4m3, 1), "f8e5m2": (ov.Type.f8e5m2, 1), "f8e8m0": (ov.Type.f8e8m0, 1), "f4e2m1": (ov.Type.f4e2m1, 2)}


def main():
    os.makedirs(OUT, exist_ok=True)
    core = ov.Core()
    for name, (t, per_byte) in TYPES.items():
        tensor = ov.Tensor(t, ov.Shape([256 * per_byte]))
        np.asarray(tensor.data).view(np.uint8).reshape(-1)[:] = np.arange(256, dtype=np.uint8)
        model = ov.Model([ops.convert(ops.constant(tensor), "f32")], [], name)
        out = core.compile_model(model, "CPU")({})[0]
        np.save(os.path.join(OUT, f"{name}.npy"), out.astype(np.float32))
        print(f"{name}: {out.size} values")


if __name__ == "__main__":
    main()
