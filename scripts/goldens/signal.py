"""Signal ops (issue 17): DFT-7 and IDFT-7 over one, two and negative axes,
signal sizes that trim, pad, keep (-1) or come from a shape; RDFT-9 over
even and odd lengths, several axes with the last one first, signal sizes;
IRDFT-9 with the default `2*(n - 1)` length, odd, trimming and padding
signal sizes, two axes, and after an RDFT (the round trip); STFT-15 on
1-D and 2-D signals with full and shorter (centered) windows, an odd
frame and transposed frames; ISTFT-16 on 3-D and 4-D spectra, center,
normalized and signal lengths that pad, cut or come from a shape; each on dynamic and interval dims with
static bindings."""

import numpy as np
import openvino.opset3 as ops3
import openvino.opset7 as ops7
import openvino.opset8 as ops8
import openvino.opset9 as ops9
import openvino.opset15 as ops15
import openvino.opset16 as ops16

import gen_op_goldens as g

D = g.D
I32 = np.int32


def sizes_from(x, axis, name):
    """Dim `axis` of `x` as a 1-D i64 (ShapeOf then Gather)."""
    return g.N(ops8.gather(ops3.shape_of(x), g.C([axis], f"{name}_idx"), g.C(0, f"{name}_axis")), name)


def dft():
    x = g.P("x", [-1, 8, 2])
    y = g.P("y", [D(1, 4), -1, 2])
    z = g.P("z", [-1, 3])
    C = g.C
    outs = [
        g.N(ops7.dft(x, C([1], "a1")), "dft_axis1"),
        g.N(ops7.dft(x, C([0, 1], "a01", I32)), "dft_both_i32"),
        g.N(ops7.dft(x, C([-1], "am1")), "dft_negative"),
        g.N(ops7.dft(x, C([1], "a1b"), C([6], "s6")), "dft_trim"),
        g.N(ops7.dft(x, C([1], "a1c"), C([11], "s11", I32)), "dft_pad"),
        g.N(ops7.dft(y, C([1, 0], "a10"), C([-1, 5], "sm15")), "dft_keep_and_pad"),
        g.N(ops7.dft(y, C([0], "a0"), sizes_from(z, 0, "from_z")), "dft_size_from_shape"),
        g.N(ops7.idft(x, C([1], "a1d")), "idft_axis1"),
        g.N(ops7.idft(y, C([0, 1], "a01b")), "idft_both"),
        g.N(ops7.idft(x, C([0, -1], "a0m1"), C([2, 5], "s25")), "idft_trim_both"),
    ]
    g.case(
        "signal_dft",
        "DFT-7 and IDFT-7: one, two (i32) and negative axes; signal sizes trimming, padding, keeping (-1) and read from a shape",
        [x, y, z],
        outs,
        [{"x": [3, 8, 2], "y": [2, 6, 2], "z": [4, 3]}, {"x": [1, 8, 2], "y": [4, 1, 2], "z": [2, 3]}],
    )
    g.EXPECTED_RULES["invalid_dft_complex_dim"] = "dft-input"
    w = g.P("w", [4, 2])
    e = g.N(ops7.dft(w, C([0], "axis0")), "dft")
    g.INVALID.append(("invalid_dft_complex_dim", "dft", "w: [4,2] -> [4,3] (the last dim of complex data must be 2)", g.ov.Model([g.ops.result(e)], [w]), g._param_edit("w", [4, 3])))


def rdft():
    r = g.P("r", [-1, 12])
    q = g.P("q", [D(2, 6), -1])
    C = g.C
    outs = [
        g.N(ops9.rdft(r, C([1], "a1")), "rdft_even"),
        g.N(ops9.rdft(q, C([-1], "am1")), "rdft_last"),
        g.N(ops9.rdft(r, C([0, 1], "a01")), "rdft_both"),
        g.N(ops9.rdft(r, C([1, 0], "a10", I32)), "rdft_last_axis_first"),
        g.N(ops9.rdft(r, C([1], "a1b"), C([7], "s7")), "rdft_trim_odd"),
        g.N(ops9.rdft(q, C([0, 1], "a01b"), C([-1, 16], "sm116")), "rdft_pad"),
        g.N(ops9.rdft(q, C([1, 0], "a10b"), C([6, 2], "s62")), "rdft_trim_both"),
    ]
    g.case(
        "signal_rdft",
        "RDFT-9: even and odd last lengths, a negative axis, two axes in both orders (i32), signal sizes trimming to an odd length, padding and trimming both axes (OpenVINO's CPU plugin refuses -1 and padding in RDFT)",
        [r, q],
        outs,
        [{"r": [3, 12], "q": [2, 9]}, {"r": [2, 12], "q": [5, 1]}],
    )


def irdft():
    c = g.P("c", [-1, 5, 2])
    r = g.P("r", [D(1, 4), 10])
    C = g.C
    outs = [
        g.N(ops9.irdft(c, C([1], "a1")), "irdft_default"),
        g.N(ops9.irdft(c, C([0, 1], "a01")), "irdft_both"),
        g.N(ops9.irdft(c, C([1], "a1b"), C([9], "s9")), "irdft_odd"),
        g.N(ops9.irdft(c, C([1], "a1c"), C([4], "s4", I32)), "irdft_trim"),
        g.N(ops9.irdft(c, C([-1], "am1"), C([13], "s13")), "irdft_pad"),
        g.N(ops9.irdft(c, C([1, 0], "a10"), C([-1, 2], "sm12")), "irdft_last_axis_first"),
        g.N(ops9.irdft(c, C([1, 0], "a10b"), C([4, 2], "s42")), "irdft_trim_last_axis_first"),
        g.N(ops9.irdft(ops9.rdft(r, C([0, 1], "ra01")), C([0, 1], "ia01"), C([-1, 10], "s10")), "round_trip"),
        g.N(ops9.irdft(ops9.rdft(r, C([0, 1], "rb01")), C([0, 1], "ib01"), C([3, 10], "s310")), "round_trip_sized"),
    ]
    g.case(
        "signal_irdft",
        "IRDFT-9: the default 2*(n-1) length, two axes, odd, trimming and padding signal sizes (i32), the last axis named first, and the inverse of an RDFT (OpenVINO's CPU plugin refuses -1 in IRDFT, and reads past the input where a signal size pads the last axis: ours pads with zeros, as its reference)",
        [c, r],
        outs,
        [{"c": [3, 5, 2], "r": [3, 10]}, {"c": [1, 5, 2], "r": [1, 10]}],
    )


def stft():
    x = g.P("x", [-1, D(12, 40)])
    s = g.P("s", [-1])
    w = g.P("w", [6])
    h = g.P("h", [8])
    C = g.C
    outs = [
        g.N(ops15.stft(x, h, C(8, "f8"), C(3, "st3"), False), "batched"),
        g.N(ops15.stft(x, w, C(8, "f8b"), C(4, "st4", I32), True), "transposed_short_window"),
        g.N(ops15.stft(s, w, C(7, "f7", I32), C(2, "st2"), False), "odd_frame_1d"),
        g.N(ops15.stft(s, h, C(8, "f8c"), C(5, "st5"), True), "transposed_1d"),
    ]
    g.case(
        "signal_stft",
        "STFT-15: 2-D and 1-D signals, frames every 2 to 5 samples (a last partial frame dropped), a window as long as the frame and a shorter one centered, an odd frame size, transposed frames",
        [x, s, w, h],
        outs,
        [{"x": [2, 20], "s": [17], "w": [6], "h": [8]}, {"x": [1, 12], "s": [8], "w": [6], "h": [8]}],
    )


def istft():
    d = g.P("d", [5, -1, 2])
    d4 = g.P("d4", [-1, 4, D(2, 9), 2])
    w = g.P("w", [6])
    h = g.P("h", [8])
    z = g.P("z", [-1, 3])
    C = g.C
    outs = [
        g.N(ops16.istft(d, h, C(8, "f8"), C(3, "st3"), False, False), "plain"),
        g.N(ops16.istft(d, w, C(8, "f8b"), C(2, "st2", I32), True, True), "centered_normalized"),
        g.N(ops16.istft(d4, w, C(7, "f7", I32), C(2, "st2b"), True, False), "batched_odd_frame"),
        g.N(ops16.istft(d, h, C(8, "f8c"), C(4, "st4"), False, False, C(25, "len25")), "padded_length"),
        g.N(ops16.istft(d4, w, C(7, "f7b"), C(3, "st3b"), False, True, C([9], "len9", I32)), "cut_length"),
        g.N(ops16.istft(d, h, C(8, "f8d"), C(3, "st3c"), True, False, sizes_from(z, 0, "len_from_z")), "length_from_shape"),
    ]
    g.case(
        "signal_istft",
        "ISTFT-16: 3-D and 4-D spectra, frames every 2 to 4 samples, full and shorter (centered) windows, an odd frame size, center and normalized, signal_length padding, cutting and read from a shape",
        [d, d4, w, h, z],
        outs,
        [{"d": [5, 6, 2], "d4": [2, 4, 5, 2], "w": [6], "h": [8], "z": [13, 3]}, {"d": [5, 2, 2], "d4": [1, 4, 2, 2], "w": [6], "h": [8], "z": [4, 3]}],
    )


def build():
    dft()
    rdft()
    irdft()
    stft()
    istft()
