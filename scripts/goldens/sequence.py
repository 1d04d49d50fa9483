"""Sequence decoders (issue 17): CTCGreedyDecoder-1 (a 0/1 mask that cuts
sequences, with and without merging repeats), CTCGreedyDecoderSeqLen-6
(lengths from 0 to T, the default and a given blank, i32 and i64 outputs,
no merging) and GatherTree-1 (beams traced through parents, lengths shorter
than T, steps after the end token; a length of 0, where OpenVINO's CPU
plugin leaves its buffer unwritten, is tested by hand); dynamic and interval dims with
static bindings. Integer inputs are drawn in [0, 4)."""

import numpy as np
import openvino.opset1 as ops1
import openvino.opset6 as ops6

import gen_op_goldens as g

D = g.D


def ctc():
    x = g.P("x", [-1, D(1, 4), 5])
    m = g.P("m", [-1, -1], np.bool_)
    mask = ops1.convert(m, "f32")
    outs = [
        g.N(ops1.ctc_greedy_decoder(x, mask, True), "merged"),
        g.N(ops1.ctc_greedy_decoder(x, mask, False), "unmerged"),
    ]
    g.case(
        "sequence_ctc_greedy_decoder",
        "CTCGreedyDecoder-1: a random 0/1 mask cuts each sequence at its first 0, repeats merged or not, blank C-1 dropped",
        [x, m],
        outs,
        [{"x": [6, 3, 5], "m": [6, 3]}, {"x": [2, 1, 5], "m": [2, 1]}],
    )


def ctc_seq_len():
    x = g.P("x", [D(1, 3), -1, 4])
    lengths = g.P("lengths", [-1], np.int32)
    lengths64 = ops1.convert(lengths, "i64")
    C = g.C
    outs = [
        g.N(ops6.ctc_greedy_decoder_seq_len(x, lengths), "default_blank"),
        g.N(ops6.ctc_greedy_decoder_seq_len(x, lengths, C(0, "blank0", np.int32), False, "i64", "i64"), "blank0_unmerged_i64"),
        g.N(ops6.ctc_greedy_decoder_seq_len(x, lengths64, C([2], "blank2"), True, "i32", "i64"), "blank2_i64_lengths"),
    ]
    g.case(
        "sequence_ctc_greedy_decoder_seq_len",
        "CTCGreedyDecoderSeqLen-6: lengths in [0, 4) of T >= 4, the default blank C-1, blank 0 without merging, blank [2] with i64 lengths; both outputs",
        [x, lengths],
        [o.output(i) for o in outs for i in range(2)],
        [{"x": [3, 5, 4], "lengths": [3]}, {"x": [2, 4, 4], "lengths": [2]}],
    )


def gather_tree():
    ids = g.P("ids", [-1, 2, 3], np.int32)
    C = g.C
    # Parents inside the beam width 3, for T = 4.
    parents = C(
        [[[0, 0, 0], [0, 0, 0]], [[2, 1, 0], [1, 1, 2]], [[0, 2, 1], [2, 0, 0]], [[1, 0, 2], [0, 2, 1]]],
        "parents",
        np.int32,
    )
    outs = [
        g.N(ops1.gather_tree(ids, parents, C([4, 3], "lengths", np.int32), C(2, "end", np.int32)), "end_2"),
        g.N(ops1.gather_tree(ids, parents, C([2, 9], "lengths_b", np.int32), C(1, "end1", np.int32)), "short_and_long"),
    ]
    g.case(
        "sequence_gather_tree",
        "GatherTree-1: beams of width 3 traced through constant parents, lengths 4, 3, 2 and 9 (beyond T), end tokens 2 and 1",
        [ids],
        outs,
        [{"ids": [4, 2, 3]}],
    )


def build():
    ctc()
    ctc_seq_len()
    gather_tree()
