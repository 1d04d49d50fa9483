"""Issue 17, layout ops (second part): ExtractImagePatches-3, Col2Im-15,
SliceScatter-15, SegmentMax-16, SparseFillEmptyRows-16, on dynamic and
static dims."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset3 as ops3
import openvino.opset15 as ops15

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


def build():
    extract_image_patches_cases()
    col2im_cases()
