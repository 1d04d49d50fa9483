"""Numerics ops, part 2 (issue 17): Inverse-14 (plain and adjoint, f32,
f16 and bf16, dynamic and square-symbolic matrices, a singular matrix),
FakeConvert-13 (f8e4m3 and f8e5m2, per-channel scale and shift with
subnormal, rounding and overflow ranges, a per-tensor scale, f16 and bf16
data), Unique-10 (flattened and along both axes, sorted and not, i32/i64
index and count types, integer data with repeats, float data, a constant),
RandomUniform-8 (every output_type, seeds, a shape read from a ShapeOf,
both alignments) and Multinomial-13 (with and without replacement,
log-probabilities, i32/i64, num_samples constant and read from a shape).
Random ops are seeded: their values are compared bit for bit."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset3 as ops3
import openvino.opset8 as ops8
import openvino.opset10 as ops10
import openvino.opset13 as ops13
import openvino.opset14 as ops14

import gen_op_goldens as g

D = g.D
C = g.C


def inverse():
    a = g.P("a", [-1, 3, 3])
    b = g.P("b", [-1, -1])
    h = g.P("h", [2, D(1, 4), D(1, 4)], np.float16)
    singular = C([[1.0, 2.0], [2.0, 4.0]], "singular", np.float32)
    bf = ops1.convert(a, "bf16")
    g.case(
        "numerics2_inverse",
        "Inverse-14 plain and adjoint on a batch of 3x3 matrices, a symbolic square [?, ?] matrix, f16 and bf16 data, a singular matrix (inf/NaN, as OpenVINO)",
        [a, b, h],
        [
            g.N(ops14.inverse(a, False), "batch"),
            g.N(ops14.inverse(a, True), "batch_adjoint"),
            g.N(ops14.inverse(b, False), "square"),
            g.N(ops14.inverse(b, True), "square_adjoint"),
            g.N(ops14.inverse(h, False), "f16"),
            g.N(ops1.convert(g.N(ops14.inverse(bf, True), "bf16_adjoint"), "f32"), "bf16_adjoint_f32"),
            g.N(ops14.inverse(singular, False), "singular_inverse"),
        ],
        [{"a": [2, 3, 3], "b": [4, 4], "h": [2, 2, 2]}, {"a": [1, 3, 3], "b": [1, 1], "h": [2, 1, 1]}],
    )
    g.EXPECTED_RULES["invalid_inverse_square"] = "inverse-square"
    x = g.P("x", [3, 3])
    n = g.N(ops14.inverse(x, False), "inverse")
    g.INVALID.append(("invalid_inverse_square", "inverse", "x: [3,3] -> [3,4] (not square)", g.ov.Model([ops1.result(n)], [x]), g._param_edit("x", [3, 4])))


def fake_convert():
    x = g.P("x", [-1, 3, D(1, 8)])
    h = g.P("h", [2, 3, -1], np.float16)
    # Per channel: tiny (subnormal f8 values), middle and overflowing scales.
    scale = [[0.01], [4.0], [1000.0]]
    shift = [[0.001], [-2.0], [5.0]]
    outs = [
        g.N(ops13.fake_convert(x, C(scale, "scale_a", np.float32), C(shift, "shift_a", np.float32), destination_type="f8e4m3"), "e4m3_scale_shift"),
        g.N(ops13.fake_convert(x, C(scale, "scale_b", np.float32), C(shift, "shift_b", np.float32), destination_type="f8e5m2"), "e5m2_scale_shift"),
        g.N(ops13.fake_convert(x, C([[[0.5], [30.0], [7000.0]]], "scale_c", np.float32), destination_type="f8e5m2"), "e5m2_scale"),
        g.N(ops13.fake_convert(x, C(3.0, "scale_d", np.float32), destination_type="f8e4m3"), "e4m3_per_tensor"),
        g.N(ops13.fake_convert(x, C([1.0], "scale_e", np.float32), C([0.0], "shift_e", np.float32), destination_type="f8e4m3"), "e4m3_unit"),
        g.N(ops13.fake_convert(h, C(scale, "scale_f", np.float16), C(shift, "shift_f", np.float16), destination_type="f8e4m3"), "f16_e4m3"),
        g.N(ops13.fake_convert(h, C(scale, "scale_g", np.float16), destination_type="f8e5m2"), "f16_e5m2"),
    ]
    bf = ops1.convert(x, "bf16")
    bfc = g.N(ops13.fake_convert(bf, ops1.convert(C(scale, "scale_h", np.float32), "bf16"), destination_type="f8e4m3"), "bf16_e4m3")
    outs.append(g.N(ops1.convert(bfc, "f32"), "bf16_e4m3_f32"))
    g.case(
        "numerics2_fake_convert",
        "FakeConvert-13 to f8e4m3 and f8e5m2 with per-channel scale (subnormal, normal and overflowing ranges) and shift, a [1,3,1] scale, a per-tensor scale, f16 and bf16 data",
        [x, h],
        outs,
        [{"x": [2, 3, 5], "h": [2, 3, 4]}, {"x": [1, 3, 1], "h": [2, 3, 1]}],
    )
    g.EXPECTED_RULES["invalid_fake_convert_broadcast"] = "broadcast-incompatible"
    x = g.P("x", [2, 3])
    n = g.N(ops13.fake_convert(x, C([1.0, 2.0, 3.0], "scale", np.float32), destination_type="f8e4m3"), "fake_convert")
    g.INVALID.append(("invalid_fake_convert_broadcast", "fake_convert", "x: [2,3] -> [2,4] (scale [3] does not broadcast)", g.ov.Model([ops1.result(n)], [x]), g._param_edit("x", [2, 4])))


def unique():
    i = g.P("i", [-1, 3], np.int32)
    x = g.P("x", [2, -1])
    outs = []

    def add(node, name):
        node.set_friendly_name(name)
        for k, part in enumerate(["values", "first", "inverse", "counts"]):
            outs.append((node.output(k), f"{name}_{part}"))

    add(ops10.unique(i), "flat_sorted")
    add(ops10.unique(i, sorted=False, index_element_type="i32"), "flat_unsorted")
    add(ops10.unique(i, C(0, "axis0"), count_element_type="i32"), "rows_sorted")
    add(ops10.unique(i, C([1], "axis1", np.int32), sorted=False), "columns_unsorted")
    add(ops10.unique(i, C(-1, "axis_neg")), "columns_sorted")
    add(ops10.unique(x), "float")
    add(ops10.unique(C([3, 1, 3, 2, 1], "known", np.int32)), "known")
    g.case(
        "numerics2_unique",
        "Unique-10 flattened, along axis 0, 1 and -1, sorted and in order of first occurrence, i32/i64 index and count types, on integer data with repeats, float data and a constant",
        [i, x],
        outs,
        [{"i": [5, 3], "x": [2, 4]}, {"i": [1, 3], "x": [2, 1]}],
    )
    g.EXPECTED_RULES["invalid_unique_axis"] = "axis-out-of-range"
    x = g.P("x", [2, 3])
    n = g.N(ops10.unique(x, C(1, "axis")), "unique")
    g.INVALID.append(("invalid_unique_axis", "unique", "x: [2,3] -> [6] (axis 1 beyond rank 1)", g.ov.Model([ops1.result(n.output(0))], [x]), g._param_edit("x", [6])))


def random_uniform():
    s = g.P("s", [-1, D(1, 8)])
    shape = ops3.shape_of(s)

    def ru(name, out_type, lo, hi, dtype, seeds, alignment=None, target=None):
        def bound(v, label):
            # numpy has no bf16: a bf16 bound is an f32 Const converted.
            if dtype == "bf16":
                return ops1.convert(C(v, label, np.float32), "bf16")
            return C(v, label, dtype)

        n = ops8.random_uniform(target if target is not None else shape, bound(lo, f"{name}_min"), bound(hi, f"{name}_max"), out_type, seeds[0], seeds[1])
        if alignment:
            n.set_attribute("alignment", alignment)
        return g.N(n, name)

    outs = [
        ru("f32", "f32", 0.0, 1.0, np.float32, (150, 10)),
        ru("f32_range", "f32", -2.5, 4.0, np.float32, (0, 7)),
        ru("f16", "f16", -1.0, 2.0, np.float16, (9, 3)),
        ru("f64", "f64", -1.0, 3.0, np.float64, (4, 5)),
        ru("i32", "i32", 5, 100, np.int32, (12, 34)),
        ru("i64", "i64", -50, 1000, np.int64, (3, 1)),
        ru("const_shape", "f32", 0.0, 1.0, np.float32, (1, 2), target=C([7, 5], "const_shape_dims")),
        ru("pytorch_f32", "f32", 0.0, 1.0, np.float32, (42, 0), "pytorch"),
        ru("pytorch_f16", "f16", -3.0, 3.0, np.float16, (7, 0), "pytorch"),
        ru("pytorch_i32", "i32", -10, 10, np.int32, (5, 0), "pytorch"),
        ru("pytorch_i64", "i64", 0, 1000, np.int64, (6, 0), "pytorch"),
        g.N(ops1.convert(ru("bf16", "bf16", -2.0, 5.0, "bf16", (11, 12)), "f32"), "bf16_f32"),
        g.N(ops1.convert(ru("pytorch_bf16", "bf16", -2.0, 5.0, "bf16", (13, 0), "pytorch"), "f32"), "pytorch_bf16_f32"),
        ru("pytorch_f64", "f64", -1.0, 3.0, np.float64, (21, 0), "pytorch"),
        ru("many_f32", "f32", -1.0, 1.0, np.float32, (31, 32), target=C([40, 50], "many_dims")),
        ru("pytorch_many_f32", "f32", -1.0, 1.0, np.float32, (33, 0), "pytorch", target=C([40, 50], "pytorch_many_dims")),
    ]
    g.case(
        "numerics2_random_uniform",
        "RandomUniform-8 seeded: f32 (two ranges, global seed 0 with an op seed), f16, bf16, f64, i32, i64 over a shape read from a ShapeOf, a constant shape, alignment pytorch for f32/f16/bf16/f64/i32/i64, 2000 values (several Mersenne-twister states)",
        [s],
        outs,
        [{"s": [3, 5]}, {"s": [4, 1]}],
    )


def multinomial():
    p = g.P("p", [-1, 5])
    k = g.P("k", [D(1, 6)])
    probs = ops1.softmax(p, 1)
    count = ops8.gather(ops3.shape_of(k), C(0, "k_index"), C(0, "k_axis"))

    def mn(name, x, samples, convert_type, replace, log_probs, seeds):
        return g.N(ops13.multinomial(x, samples, convert_type, replace, log_probs, seeds[0], seeds[1]), name)

    outs = [
        mn("replace", probs, C(6, "six"), "i32", True, False, (1, 2)),
        mn("no_replace", probs, C([4], "four", np.int32), "i32", False, False, (3, 4)),
        mn("log_probs", p, C(6, "six_b"), "i64", True, True, (5, 0)),
        mn("log_no_replace", p, C(3, "three"), "i64", False, True, (0, 6)),
        mn("samples_from_shape", probs, count, "i32", True, False, (7, 7)),
        mn("f16_probs", ops1.convert(probs, "f16"), C(5, "five"), "i32", False, False, (8, 9)),
        mn("many", probs, C(300, "many_samples"), "i32", True, False, (10, 11)),
    ]
    g.case(
        "numerics2_multinomial",
        "Multinomial-13 seeded: with and without replacement, probabilities and log-probabilities, i32/i64 output, f16 probabilities, num_samples constant (scalar and [1], 300) and read from a shape",
        [p, k],
        outs,
        [{"p": [3, 5], "k": [4]}, {"p": [1, 5], "k": [1]}],
    )


def build():
    inverse()
    fake_convert()
    unique()
    random_uniform()
    multinomial()
