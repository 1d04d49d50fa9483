"""Issue 17, layout ops (second part): ExtractImagePatches-3, Col2Im-15,
SliceScatter-15, SegmentMax-16, SparseFillEmptyRows-16, on dynamic and
static dims."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset3 as ops3
import openvino.opset8 as ops8
import openvino.opset15 as ops15
import openvino.opset16 as ops16

import gen_op_goldens as g

D = g.D
C = g.C


def extract_image_patches_cases():
    x = g.P("x", [-1, 2, D(1, 12), -1])
    eip = ops3.extract_image_patches
    outs = [
        g.N(eip(x, [3, 2], [2, 3], [1, 2], "valid"), "valid"),
        g.N(eip(x, [3, 2], [2, 3], [1, 2], "same_upper"), "same_upper"),
        g.N(eip(x, [3, 2], [2, 3], [1, 2], "same_lower"), "same_lower"),
        g.N(eip(x, [2, 2], [1, 1], [2, 2], "same_upper"), "dilated_same_upper"),
        g.N(eip(x, [1, 3], [3, 1], [1, 1], "valid"), "row_stride"),
        g.N(eip(ops1.convert(x, "i32"), [2, 2], [2, 2], [1, 1], "same_lower"), "int_data"),
    ]
    g.case(
        "layout2_extract_image_patches",
        "ExtractImagePatches-3: valid, same_upper, same_lower (odd pads on both sides), rates, strides, integer data",
        [x],
        outs,
        [{"x": [1, 2, 7, 8]}, {"x": [2, 2, 2, 5]}, {"x": [1, 2, 12, 1]}],
    )


def col2im_cases():
    cx = g.P("cx", [-1, 12, -1])
    ux = g.P("ux", [12, -1])
    img = g.P("img", [-1, -1])
    outs = [
        g.N(ops15.col2im(cx, C([4, 5], "size45"), C([2, 3], "k23")), "batched_default"),
        g.N(
            ops15.col2im(cx, C([5, 6], "size56", np.int32), C([2, 3], "k23_i32", np.int32), [2, 1], [1, 2], [1, 0], [0, 1]),
            "strides_dilations_pads",
        ),
        g.N(ops15.col2im(ux, ops3.shape_of(img), C([3, 2], "k32")), "unbatched_size_from_shape"),
    ]
    g.case(
        "layout2_col2im",
        "Col2Im-15: batched with defaults; i32 inputs with strides, dilations and pads; unbatched with output_size read from a shape",
        [cx, ux, img],
        outs,
        [{"cx": [2, 12, 9], "ux": [12, 6], "img": [4, 4]}, {"cx": [1, 12, 9], "ux": [12, 12], "img": [5, 5]}],
    )
    g.EXPECTED_RULES["invalid_col2im_blocks"] = "col2im-block-count"
    bx = g.P("bx", [1, 12, 9])
    r = g.N(ops15.col2im(bx, C([4, 5], "bsize"), C([2, 3], "bk")), "col2im")
    g.INVALID.append(("invalid_col2im_blocks", "col2im", "bx: [1,12,9] -> [1,12,8] (9 blocks expected)", g.ov.Model([ops1.result(r)], [bx]), g._param_edit("bx", [1, 12, 8])))


def slice_scatter_cases():
    x = g.P("x", [-1, 6, D(2, 10)])
    u1 = g.P("u1", [-1, 3, D(1, 10)])
    u2 = g.P("u2", [-1, 6, 2])
    u3 = g.P("u3", [-1, 2, -1])
    ui = g.P("ui", [2, 6, 2], np.int32)
    xi = g.P("xi", [2, 6, 3], np.int32)
    ss = ops15.slice_scatter
    outs = [
        g.N(ss(x, u1, C([0, 0], "st1"), C([6, 2**62], "sp1"), C([2, 1], "step1"), C([1, 0], "ax1")), "step2_axes_swapped"),
        g.N(ss(x, u2, C([-1], "st2"), C([-3], "sp2"), C([-1], "step2"), C([-1], "ax2")), "negative_step"),
        g.N(ss(x, u3, C([1, 0], "st3"), C([-2, 2], "sp3"), C([3, 1], "step3")), "no_axes"),
        g.N(ss(xi, ui, C([0], "st4"), C([5], "sp4"), C([2], "step4"), C([2], "ax4")), "int_data"),
    ]
    g.case(
        "layout2_slice_scatter",
        "SliceScatter-15: step 2 on a dynamic dim with axes out of order, negative step, default axes, integer data",
        [x, u1, u2, u3, xi, ui],
        outs,
        [{"x": [4, 6, 4], "u1": [4, 3, 4], "u2": [4, 6, 2], "u3": [1, 2, 4]}, {"x": [7, 6, 3], "u1": [7, 3, 3], "u2": [7, 6, 2], "u3": [2, 2, 3]}],
    )
    g.EXPECTED_RULES["invalid_slice_scatter_updates"] = "slice-scatter-updates"
    bx = g.P("bx", [4, 5])
    bu = g.P("bu", [2, 5])
    r = g.N(ss(bx, bu, C([0], "bst"), C([2], "bsp"), C([1], "bstep"), C([0], "bax")), "slice_scatter")
    g.INVALID.append(("invalid_slice_scatter_updates", "slice_scatter", "bu: [2,5] -> [3,5] (a slice of 2 rows)", g.ov.Model([ops1.result(r)], [bx, bu]), g._param_edit("bu", [3, 5])))


def segment_max_cases():
    x = g.P("x", [-1, 3])
    raw_ids = g.P("s", [-1], np.int32)
    y = g.P("y", [5, 2], np.int32)
    n = g.P("n", [], np.int64)
    # Sorted run-time ids (random inputs are not): running sums of them.
    s = g.N(ops3.cumsum(raw_ids, C(0, "cumsum_axis")), "sorted_ids")
    outs = [
        g.N(ops16.segment_max(x, s, fill_mode="ZERO"), "runtime_ids"),
        g.N(ops16.segment_max(x, s, C(np.int64(4), "n4"), "LOWEST"), "num_segments_const"),
        g.N(ops16.segment_max(x, s, n, "LOWEST"), "num_segments_runtime"),
        g.N(ops16.segment_max(x, s, ops8.gather(ops3.shape_of(x), C(0, "i0"), C(0, "ax0")), "ZERO"), "num_segments_from_shape"),
        g.N(ops16.segment_max(y, C(np.array([0, 0, 2, 2, 5], np.int32), "ids", np.int32), fill_mode="LOWEST"), "const_ids_lowest"),
        g.N(ops16.segment_max(y, C([0, 1, 1, 3, 3], "ids64"), C(np.int32(3), "n3", np.int32), "ZERO"), "const_ids_truncated"),
    ]
    g.case(
        "layout2_segment_max",
        "SegmentMax-16: run-time ids (fresh count), num_segments constant, run-time or read from a shape, constant ids with gaps (ZERO and LOWEST fill), ids beyond num_segments",
        [x, raw_ids, y, n],
        outs,
        [{"x": [4, 3], "s": [4]}, {"x": [2, 3], "s": [2]}],
    )


def sparse_fill_empty_rows_cases():
    v = g.P("v", [-1])
    ind = g.P("ind", [-1, 2], np.int64)
    dv = g.P("dv", [])
    d = g.P("d", [D(1, 8), -1])
    sfer = ops16.sparse_fill_empty_rows
    dense_from_shape = ops3.shape_of(d)
    cv = g.P("cv", [4], np.int32)
    cdv = g.P("cdv", [], np.int32)
    ind_c = C([[0, 1], [0, 3], [2, 0], [4, 2]], "ind_c")
    n1 = g.N(sfer(v, dense_from_shape, ind, dv), "runtime")
    n2 = g.N(sfer(cv, C([6, 4], "dense_c"), ind_c, cdv), "const")
    n3 = g.N(sfer(ops1.convert(v, "f16"), ops1.convert(dense_from_shape, "i32"), ops1.convert(ind, "i32"), ops1.convert(dv, "f16")), "i32_f16")
    parts = ["indices", "values", "empty"]
    outs = [(n.output(i), f"{n.get_friendly_name()}_{k}") for n in (n1, n2, n3) for i, k in enumerate(parts)]
    g.case(
        "layout2_sparse_fill_empty_rows",
        "SparseFillEmptyRows-16: run-time indices with the dense shape read from a shape (fresh entry count), constant indices (exact count, i32 values), i32 indices with f16 values",
        [v, ind, dv, d, cv, cdv],
        outs,
        [{"v": [3], "ind": [3, 2], "d": [4, 5]}, {"v": [1], "ind": [1, 2], "d": [1, 1]}],
    )


def build():
    extract_image_patches_cases()
    col2im_cases()
    slice_scatter_cases()
    segment_max_cases()
    sparse_fill_empty_rows_cases()
