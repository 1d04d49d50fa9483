#!/usr/bin/env python3
"""Writes the reader/validator cases of ir-samples/broken/ that gen_samples.py
does not: small hand-written IR files, each wrong in exactly one way, named
after the rule they break. Run from the repository root; no OpenVINO needed.

The expected diagnostics are kept as insta snapshots by
crates/ir-check/tests/samples.rs; README rows are appended to
ir-samples/broken/README.md between the EXTRA markers.
"""
import pathlib

OUT = pathlib.Path("ir-samples/broken")


def layer(id_, name, type_, inputs=(), outputs=(), data=None, version="opset1", extra=""):
    def ports(tag, items):
        if not items:
            return ""
        body = []
        for pid, prec, dims in items:
            d = "".join(f"<dim>{x}</dim>" for x in dims)
            body.append(f'\t\t\t\t<port id="{pid}" precision="{prec}">{d}</port>')
        return f"\t\t\t<{tag}>\n" + "\n".join(body) + f"\n\t\t\t</{tag}>\n"

    d = ""
    if data is not None:
        attrs = " ".join(f'{k}="{v}"' for k, v in data.items())
        d = f"\t\t\t<data {attrs} />\n"
    return (
        f'\t\t<layer id="{id_}" name="{name}" type="{type_}" version="{version}"{extra}>\n'
        f"{d}{ports('input', inputs)}{ports('output', outputs)}\t\t</layer>\n"
    )


def net(comment, layers, edges, version="11", root="net"):
    e = "".join(
        f'\t\t<edge from-layer="{a}" from-port="{b}" to-layer="{c}" to-port="{d}" />\n'
        for a, b, c, d in edges
    )
    return (
        f'<?xml version="1.0"?>\n<!-- broken: {comment} -->\n'
        f'<{root} name="broken" version="{version}">\n\t<layers>\n{"".join(layers)}\t</layers>\n'
        f"\t<edges>\n{e}\t</edges>\n</{root}>\n"
    )


def param(id_=0, shape="2,3", dims=(2, 3), name="x", et="f32", prec="FP32"):
    return layer(id_, name, "Parameter", outputs=[(0, prec, dims)],
                 data={"shape": shape, "element_type": et})


def result(id_, dims=(2, 3), prec="FP32", name="out"):
    return layer(id_, name, "Result", inputs=[(0, prec, dims)])


CASES = {}


def case(name, comment, text, bin_bytes=None):
    CASES[name] = (comment, text, bin_bytes)


P, R = param(), result(1)
EDGE = [(0, 0, 1, 0)]

case("not_net_root", "the root element is <model>, not <net>",
     net("the root element is <model>, not <net>", [P, R], EDGE, root="model"))
case("net_version_unsupported", "IR version 7 is not supported (10 and 11 are)",
     net("IR version 7 is not supported (10 and 11 are)", [P, R], EDGE, version="7"))
case("layer_missing_type", "a layer has no type attribute",
     net("a layer has no type attribute", [P, R.replace(' type="Result"', "")], EDGE))
case("edge_attribute_invalid", "an edge's from-port is not a number",
     net("an edge's from-port is not a number", [P, R], []).replace(
         "\t<edges>\n", '\t<edges>\n\t\t<edge from-layer="0" from-port="abc" to-layer="1" to-port="0" />\n'))
case("edge_from_input_port", "an edge starts at an input port",
     net("an edge starts at an input port", [P, result(1), result(2)], [(0, 0, 1, 0), (1, 0, 2, 0)]))
case("port_id_duplicate", "a layer declares port id 0 twice",
     net("a layer declares port id 0 twice",
         [P, layer(1, "out", "Result", inputs=[(0, "FP32", (2, 3)), (0, "FP32", (2, 3))])], EDGE))
case("port_dim_negative", "a port declares <dim>-5</dim>",
     net("a port declares <dim>-5</dim>", [P, result(1, dims=(2, -5))], EDGE))
case("parameter_interval_reversed", "a Parameter shape has the interval 10..2",
     net("a Parameter shape has the interval 10..2",
         [param(shape="10..2,3", dims=(-1, 3)), result(1, dims=(-1, 3))], EDGE))
case("parameter_element_type_missing", "a Parameter has no element_type",
     net("a Parameter has no element_type",
         [layer(0, "x", "Parameter", outputs=[(0, "FP32", (2, 3))], data={"shape": "2,3"}), R], EDGE))
case("parameter_huge_dim", "a Parameter dim of 2^62 and a port dim of 2^63",
     net("a Parameter dim of 2^62 and a port dim of 2^63",
         [param(shape="4611686018427387904,3", dims=(9223372036854775808, 3)),
          result(1, dims=(4611686018427387904, 3))], EDGE))
case("parameter_with_input", "a Parameter layer is fed by an edge",
     net("a Parameter layer is fed by an edge",
         [P, layer(1, "y", "Parameter", inputs=[(0, "FP32", (2, 3))], outputs=[(1, "FP32", (2, 3))],
                   data={"shape": "2,3", "element_type": "f32"}), result(2)],
         [(0, 0, 1, 0), (1, 1, 2, 0)]))
case("result_two_inputs", "a Result has two inputs",
     net("a Result has two inputs",
         [P, param(1, name="y"), layer(2, "out", "Result", inputs=[(0, "FP32", (2, 3)), (1, "FP32", (2, 3))])],
         [(0, 0, 2, 0), (1, 0, 2, 1)]))
case("output_count_mismatch", "a Parameter declares two output ports",
     net("a Parameter declares two output ports",
         [layer(0, "x", "Parameter", outputs=[(0, "FP32", (2, 3)), (1, "FP32", (2, 3))],
                data={"shape": "2,3", "element_type": "f32"}), R], EDGE))
case("declared_rank_mismatch", "a Result input port declares rank 3 for a rank-2 tensor",
     net("a Result input port declares rank 3 for a rank-2 tensor", [P, result(1, dims=(2, 3, 1))], EDGE))
case("declared_type_mismatch", "a Result input port declares FP16 for an f32 tensor",
     net("a Result input port declares FP16 for an f32 tensor", [P, result(1, prec="FP16")], EDGE))
case("opset_version_unknown", "a Result names opset0, which has no Result",
     net("a Result names opset0, which has no Result", [P, R.replace("opset1", "opset0")], EDGE))
case("op_not_in_opset", "a ReLU names opset17, which OpenVINO 2026.4's reader refuses (its opset17 has 7 ops, no Relu)",
     net("a ReLU names opset17, which OpenVINO 2026.4's reader refuses (its opset17 has 7 ops, no Relu)",
         [P, layer(1, "act", "ReLU", inputs=[(0, "FP32", (2, 3))], outputs=[(1, "FP32", (2, 3))], version="opset17"),
          result(2)],
         [(0, 0, 1, 0), (1, 1, 2, 0)]))
case("duplicate_edge", "the same edge is written twice",
     net("the same edge is written twice", [P, R], EDGE + EDGE))
case("empty_net", "the model has no layers",
     net("the model has no layers", [], []))
case("empty_document", "the file is empty", "")
case("two_roots", "the document has two root elements",
     net("the document has two root elements", [P, R], EDGE) + "<net name=\"again\" version=\"11\"/>\n")
case("bad_entity", "a layer name uses an undefined entity &bogus;",
     net("a layer name uses an undefined entity", [P.replace('name="x"', 'name="x&bogus;"'), R], EDGE))
case("not_utf8", "the file is not UTF-8 text", None)
case("const_no_weights", "a Const needs 24 bytes but there is no .bin file",
     net("a Const needs 24 bytes but there is no .bin file",
         [layer(0, "w", "Const", outputs=[(0, "FP32", (2, 3))],
                data={"element_type": "f32", "shape": "2, 3", "offset": "0", "size": "24"}), R], EDGE))
case("const_offset_invalid", "a Const offset is -8",
     net("a Const offset is -8",
         [layer(0, "w", "Const", outputs=[(0, "FP32", (2, 3))],
                data={"element_type": "f32", "shape": "2, 3", "offset": "-8", "size": "24"}), R], EDGE),
     bytes(24))
case("const_element_type_unknown", "a Const has element_type f33",
     net("a Const has element_type f33",
         [layer(0, "w", "Const", outputs=[(0, "FP32", (2, 3))],
                data={"element_type": "f33", "shape": "2, 3", "offset": "0", "size": "24"}), R], EDGE),
     bytes(24))
case("const_shape_negative", "a Const shape has a dim of -3",
     net("a Const shape has a dim of -3",
         [layer(0, "w", "Const", outputs=[(0, "FP32", (2, 3))],
                data={"element_type": "f32", "shape": "2, -3", "offset": "0", "size": "24"}), R], EDGE),
     bytes(24))

case("dim_overflow", "flattening a 2^62 x 3 x 8 x 5 input overflows 64-bit dim arithmetic",
     net("flattening a 2^62 x 3 x 8 x 5 input overflows 64-bit dim arithmetic",
         [param(shape="4611686018427387904,3,8,5", dims=(4611686018427387904, 3, 8, 5)),
          layer(1, "target", "Const", outputs=[(0, "I64", (2,))],
                data={"element_type": "i64", "shape": "2", "offset": "0", "size": "16"}),
          layer(2, "flat", "Reshape", inputs=[(0, "FP32", (4611686018427387904, 3, 8, 5)), (1, "I64", (2,))],
                outputs=[(2, "FP32", (-1, -1))], data={"special_zero": "true"}),
          result(3, dims=(-1, -1))],
         [(0, 0, 2, 0), (1, 0, 2, 1), (2, 2, 3, 0)]),
     (0).to_bytes(8, "little", signed=True) + (-1).to_bytes(8, "little", signed=True))


def unknown_op_repeated(count=24):
    """A chain of `count` layers of one op type this toolkit does not know (as a
    converted model with a custom op has), then an Add whose inputs cannot
    broadcast: the grouping of repeated diagnostics and the per-rule verdict."""
    dims, other = (1, 3, 4, 4), (1, 5, 4, 4)
    layers = [param(0, shape="1,3,4,4", dims=dims, name="x"),
              param(1, shape="1,5,4,4", dims=other, name="y")]
    edges, previous = [], (0, 0)
    for i in range(count):
        id_ = 2 + i
        layers.append(layer(id_, f"/encoder/block.{i}/norm", "CustomNorm", version="custom_opset",
                            inputs=[(0, "FP32", dims)], outputs=[(1, "FP32", dims)]))
        edges.append((*previous, id_, 0))
        previous = (id_, 1)
    add = 2 + count
    layers.append(layer(add, "/head/Add", "Add", inputs=[(0, "FP32", dims), (1, "FP32", other)],
                        outputs=[(2, "FP32", dims)], data={"auto_broadcast": "numpy"}))
    edges += [(*previous, add, 0), (1, 0, add, 1), (add, 2, add + 1, 0)]
    layers.append(result(add + 1, dims=dims))
    comment = (f"{count} layers of an unknown op (CustomNorm), then an Add of "
               "[1,3,4,4] and [1,5,4,4]")
    return comment, net(comment, layers, edges)


case("unknown_op_repeated", *unknown_op_repeated())


def main():
    rows = []
    for name, (comment, text, bin_bytes) in CASES.items():
        path = OUT / f"{name}.xml"
        if text is None:
            path.write_bytes(b'<?xml version="1.0"?>\n<net name="\xff\xfe\x00bad" version="11">\n</net>\n')
        else:
            path.write_text(text)
        if bin_bytes is not None:
            (OUT / f"{name}.bin").write_bytes(bin_bytes)
        rows.append(f"| `{name}.xml` | {comment} |")
    readme = OUT / "README.md"
    text = readme.read_text()
    start, end = "<!-- EXTRA START -->", "<!-- EXTRA END -->"
    block = (f"{start}\n\n## Reader and validator cases (scripts/gen_broken_extra.py)\n\n"
             "Expected diagnostics: the snapshots `crates/ir-check/tests/snapshots/*broken__<name>*`.\n\n"
             "| file | what is wrong |\n|---|---|\n" + "\n".join(rows) + f"\n\n{end}")
    if start in text:
        text = text[: text.index(start)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    readme.write_text(text)
    print(f"wrote {len(CASES)} cases")


if __name__ == "__main__":
    main()
