"""State (issue 17): ReadValue-3 and -6, Assign-3 and -6. Variables of a
static and a dynamic declared shape, with an initial value from a Parameter,
from a Const (i32) and without one (zeros; a dynamic dim starts at 0), a
state that grows each inference (Concat), and ReadValue-3's variable typed by
its initial value. The models end in Assign sinks (no Result reads them).
The executor goldens run each model twice in one infer request
(``scripts/gen_exec_goldens.py``: models with sinks), so the second run
reads what the first assigned."""

import numpy as np
import openvino as ov
import openvino.opset3 as ops3
import openvino.opset6 as ops6
from openvino.op.util import Variable, VariableInfo

import gen_op_goldens as g

D = g.D


def variable(variable_id, shape, element_type):
    info = VariableInfo()
    info.variable_id = variable_id
    info.data_shape = ov.PartialShape(shape)
    info.data_type = element_type
    return Variable(info)


def variables():
    x = g.P("x", [D(1, 8), 3])
    y = g.P("y", [2, 3])
    acc = variable("acc", [-1, 3], ov.Type.f32)
    hist = variable("hist", [-1, 3], ov.Type.f32)
    count = variable("count", [2, 3], ov.Type.f32)
    steps = variable("steps", [4], ov.Type.i32)
    read_acc = g.N(ops6.read_value(x, acc), "read_acc")
    # Not `read_acc + x`: OpenVINO's CPU plugin fails on that Add of [?,3]
    # and [2,3] ("Can't reorder data with dynamic shapes" at the Assign).
    sum_acc = g.N(ops6.multiply(read_acc, g.C(0.5, "half", np.float32)), "acc_sum")
    read_hist = g.N(ops6.read_value(hist), "read_hist")
    grown = g.N(ops6.concat([read_hist, x], 0), "hist_grown")
    read_count = g.N(ops6.read_value(count), "read_count")
    counted = g.N(ops6.add(read_count, y), "count_sum")
    read_v3 = g.N(ops3.read_value(y, "v3"), "read_v3")
    doubled = g.N(ops3.multiply(read_v3, g.C(2.0, "two", np.float32)), "v3_doubled")
    read_steps = g.N(ops6.read_value(g.C([1, 2, 3, 4], "steps_init", np.int32), steps), "read_steps")
    stepped = g.N(ops6.add(read_steps, g.C(10, "ten", np.int32)), "steps_next")
    g.case(
        "state_variables",
        "ReadValue-6 with a Parameter initial value and a dynamic variable [?,3] (halved each run), without one (a growing Concat history from [0,3]; a static [2,3] from zeros), with an i32 Const initial value; ReadValue-3 typed by its initial value; Assign-6 and Assign-3 sinks",
        [x, y],
        [(sum_acc, "acc"), (grown, "hist"), (counted, "count"), (doubled, "v3"), (stepped, "steps")],
        [{"x": [2, 3]}, {"x": [5, 3]}],
    )
    sinks = [
        g.N(ops6.assign(sum_acc, acc), "assign_acc"),
        g.N(ops6.assign(grown, hist), "assign_hist"),
        g.N(ops6.assign(counted, count), "assign_count"),
        g.N(ops3.assign(doubled, "v3"), "assign_v3"),
        g.N(ops6.assign(stepped, steps), "assign_steps"),
    ]
    # The Assigns are sinks of the model (Case makes it of Results only;
    # opset3's assign is no `Sink` for `Model.add_sinks`).
    case = g.CASES[-1]
    case.model = ov.Model(case.model.get_results(), sinks, case.model.get_parameters(), case.name)

def build():
    variables()
