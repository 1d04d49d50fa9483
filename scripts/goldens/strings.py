"""String tensors (issue 17): StringTensorPack-15 (i32 and i64 offsets, a
1-D and a 2-D shape, an empty string, a byte no string covers) feeding
StringTensorUnpack-15, whose begins, ends and symbols are the Results (the
string tensors stay inside the graph: numpy's unicode arrays strip trailing
NUL bytes, so string Results would not compare byte for byte). The symbols
are a Parameter, so the unpacked byte count is data-dependent."""

import numpy as np
import openvino.opset15 as ops15

import gen_op_goldens as g

D = g.D


def pack_unpack():
    symbols = g.P("symbols", [D(6, -1)], np.uint8)
    C = g.C
    # Bytes [0, 2), an empty string, [2, 4) and [5, 6) (byte 4 in none);
    # OpenVINO requires ascending offsets.
    flat = g.N(ops15.string_tensor_pack(C([0, 2, 2, 5], "begins", np.int32), C([2, 2, 4, 6], "ends", np.int32), symbols), "flat")
    grid = g.N(ops15.string_tensor_pack(C([[0, 1], [3, 3]], "begins64"), C([[1, 3], [3, 6]], "ends64"), symbols), "grid")
    flat_parts = g.N(ops15.string_tensor_unpack(flat), "flat_unpacked")
    grid_parts = g.N(ops15.string_tensor_unpack(grid), "grid_unpacked")
    g.case(
        "strings_pack_unpack",
        "StringTensorPack-15 (i32 offsets [4] with an empty string and a skipped byte; i64 offsets [2,2]) then StringTensorUnpack-15: begins, ends and the concatenated bytes",
        [symbols],
        [
            (flat_parts.output(0), "flat_begins"),
            (flat_parts.output(1), "flat_ends"),
            (flat_parts.output(2), "flat_symbols"),
            (grid_parts.output(0), "grid_begins"),
            (grid_parts.output(1), "grid_ends"),
            (grid_parts.output(2), "grid_symbols"),
        ],
        [{"symbols": [8]}, {"symbols": [6]}],
    )


def build():
    pack_unpack()
