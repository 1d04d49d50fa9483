//! Soundness of symbolic inference on random graphs of shape ops: a
//! Parameter with static, interval and unbounded dims feeds a random chain
//! (Slice, a Slice whose start and stop are computed from the shape,
//! Concat, Unsqueeze, a flattening Reshape, Transpose, Tile, Pad,
//! MaxPool, Interpolate, Broadcast to a shape computed from ShapeOf (and,
//! numpy, bidirectional or pdpd, to the input's shape with a dim of 1),
//! ReduceSum, Gather of a ShapeOf into a Range), inferred once with the
//! symbolic Parameter and once with a random static binding inside its
//! bounds. Then:
//!
//! - where the static graph is invalid, the symbolic one is invalid too or
//!   one of its recorded constraints is false at the binding (no model is
//!   accepted unconditionally that fails at some binding);
//! - where the static graph is valid, every recorded constraint holds at the
//!   binding (no valid binding is excluded), and every dim and every known
//!   shape value evaluates at the binding to the static one, or, where it
//!   holds a symbol of its own (a run-time size), has bounds containing it.

mod support;

use std::collections::HashMap;

use ir::Op;
use proptest::prelude::*;
use shape_infer::TensorInfo;
use support::{Ir, Out, Run};
use symdim::{Expr, SymbolId};

/// One dim of the Parameter: static, an interval, or unbounded.
#[derive(Debug, Clone)]
enum ParamDim {
    Static(i64),
    Interval(i64, i64),
    Unbounded,
}

/// One step of the chain, applied to the current tensor (of known rank).
#[derive(Debug, Clone)]
enum Step {
    Slice {
        axis: usize,
        start: i64,
        stop: i64,
        step: i64,
    },
    ConcatSelf {
        axis: usize,
    },
    Unsqueeze {
        axis: usize,
    },
    Flatten,
    Transpose,
    Tile {
        repeats: Vec<i64>,
    },
    Pad {
        begin: Vec<i64>,
        end: Vec<i64>,
    },
    MaxPool {
        kernel: i64,
        stride: i64,
        pad: i64,
        ceil: bool,
    },
    Interpolate {
        axis: usize,
        scale: f32,
    },
    BroadcastLeading {
        lead: i64,
    },
    /// Broadcast (`mode`: numpy, bidirectional or pdpd) to the input's own
    /// shape with dim `axis` replaced by 1.
    BroadcastOneAt {
        axis: usize,
        mode: &'static str,
    },
    ReduceSum {
        axis: usize,
    },
    RangeOfDim {
        axis: usize,
    },
    Convolution {
        kernel: i64,
        stride: i64,
        dilation: i64,
        pad: i64,
        auto_pad: &'static str,
    },
    /// The last two dims merged by a pattern computed from ShapeOf.
    MergeLastTwo,
    DepthToSpace {
        block: i64,
    },
    /// `axis` sliced from `dim(source) - start_offset` to
    /// `dim(source) - stop_offset`: start and stop known by their ranges.
    SliceByShape {
        axis: usize,
        source: usize,
        start_offset: i64,
        stop_offset: i64,
        step: i64,
    },
    StridedSlice {
        axis: usize,
        begin: i64,
        end: i64,
        stride: i64,
        begin_mask: bool,
        end_mask: bool,
    },
}

fn param_dim() -> impl Strategy<Value = ParamDim> {
    prop_oneof![
        (1i64..6).prop_map(ParamDim::Static),
        (0i64..4, 0i64..6).prop_map(|(lo, w)| ParamDim::Interval(lo, lo + w)),
        Just(ParamDim::Unbounded),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (
            0usize..5,
            -4i64..4,
            prop_oneof![
                Just(-1i64),
                Just(-6),
                Just(2),
                Just(5),
                Just(i64::MAX),
                Just(i64::MIN)
            ],
            prop_oneof![Just(1i64), Just(2), Just(-1), Just(-2)]
        )
            .prop_map(|(axis, start, stop, step)| Step::Slice {
                axis,
                start,
                stop,
                step
            }),
        (0usize..5).prop_map(|axis| Step::ConcatSelf { axis }),
        (0usize..5).prop_map(|axis| Step::Unsqueeze { axis }),
        Just(Step::Flatten),
        Just(Step::Transpose),
        prop::collection::vec(1i64..3, 5).prop_map(|repeats| Step::Tile { repeats }),
        (
            prop::collection::vec(-1i64..3, 5),
            prop::collection::vec(-1i64..3, 5)
        )
            .prop_map(|(begin, end)| Step::Pad { begin, end }),
        (1i64..4, 1i64..3, 0i64..2, any::<bool>()).prop_map(|(kernel, stride, pad, ceil)| {
            Step::MaxPool {
                kernel,
                stride,
                pad,
                ceil,
            }
        }),
        (
            0usize..5,
            prop_oneof![Just(2.0f32), Just(0.5), Just(1.5), Just(0.75)]
        )
            .prop_map(|(axis, scale)| Step::Interpolate { axis, scale }),
        (1i64..3).prop_map(|lead| Step::BroadcastLeading { lead }),
        (
            0usize..5,
            prop_oneof![Just("numpy"), Just("bidirectional"), Just("pdpd")]
        )
            .prop_map(|(axis, mode)| Step::BroadcastOneAt { axis, mode }),
        (0usize..5).prop_map(|axis| Step::ReduceSum { axis }),
        (0usize..5).prop_map(|axis| Step::RangeOfDim { axis }),
        (
            1i64..4,
            1i64..3,
            1i64..3,
            0i64..2,
            prop_oneof![
                Just("explicit"),
                Just("same_upper"),
                Just("same_lower"),
                Just("valid")
            ]
        )
            .prop_map(
                |(kernel, stride, dilation, pad, auto_pad)| Step::Convolution {
                    kernel,
                    stride,
                    dilation,
                    pad,
                    auto_pad
                }
            ),
        Just(Step::MergeLastTwo),
        (2i64..3).prop_map(|block| Step::DepthToSpace { block }),
        (
            0usize..5,
            0usize..5,
            -3i64..6,
            -3i64..6,
            prop_oneof![Just(1i64), Just(2), Just(-1), Just(-2)]
        )
            .prop_map(|(axis, source, start_offset, stop_offset, step)| {
                Step::SliceByShape {
                    axis,
                    source,
                    start_offset,
                    stop_offset,
                    step,
                }
            }),
        (
            0usize..5,
            -4i64..4,
            -4i64..6,
            prop_oneof![Just(1i64), Just(2), Just(-1), Just(-2)],
            any::<bool>(),
            any::<bool>()
        )
            .prop_map(|(axis, begin, end, stride, begin_mask, end_mask)| {
                Step::StridedSlice {
                    axis,
                    begin,
                    end,
                    stride,
                    begin_mask,
                    end_mask,
                }
            }),
    ]
}

fn list(values: &[i64]) -> String {
    values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Builds the graph: the Parameter `x` of `shape` (OpenVINO syntax) and the
/// chain; steps that do not apply at the current rank are skipped.
fn build(shape: &str, rank: usize, steps: &[Step]) -> Ir {
    let mut b = Ir::new();
    let mut cur = b.param("x", shape, "f32");
    let mut rank = rank;
    for (n, s) in steps.iter().enumerate() {
        let name = |what: &str| format!("s{n}_{what}");
        let next: Option<(Out, usize)> = match s {
            Step::Slice {
                axis,
                start,
                stop,
                step,
            } if *axis < rank => {
                let start = b.vec(&name("start"), &[*start]);
                let stop = b.vec(&name("stop"), &[*stop]);
                let st = b.vec(&name("step"), &[*step]);
                let axes = b.vec(&name("axes"), &[*axis as i64]);
                Some((
                    b.op(
                        &name("slice"),
                        "Slice",
                        "opset8",
                        &[],
                        &[cur, start, stop, st, axes],
                    ),
                    rank,
                ))
            }
            Step::ConcatSelf { axis } if *axis < rank => {
                let axis = axis.to_string();
                Some((
                    b.op(
                        &name("concat"),
                        "Concat",
                        "opset1",
                        &[("axis", &axis)],
                        &[cur, cur],
                    ),
                    rank,
                ))
            }
            Step::Unsqueeze { axis } if *axis <= rank && rank < 5 => {
                let axes = b.vec(&name("axes"), &[*axis as i64]);
                Some((
                    b.op(&name("unsqueeze"), "Unsqueeze", "opset1", &[], &[cur, axes]),
                    rank + 1,
                ))
            }
            Step::Flatten if rank >= 2 => {
                let pattern = b.vec(&name("pattern"), &[0, -1]);
                Some((
                    b.op(
                        &name("flatten"),
                        "Reshape",
                        "opset1",
                        &[("special_zero", "true")],
                        &[cur, pattern],
                    ),
                    2,
                ))
            }
            Step::Transpose if rank >= 1 => {
                let order: Vec<i64> = (0..rank as i64).rev().collect();
                let order = b.vec(&name("order"), &order);
                Some((
                    b.op(
                        &name("transpose"),
                        "Transpose",
                        "opset1",
                        &[],
                        &[cur, order],
                    ),
                    rank,
                ))
            }
            Step::Tile { repeats } if rank >= 1 => {
                let r = b.vec(&name("repeats"), &repeats[..rank]);
                Some((b.op(&name("tile"), "Tile", "opset1", &[], &[cur, r]), rank))
            }
            Step::Pad { begin, end } if rank >= 1 => {
                let pb = b.vec(&name("pb"), &begin[..rank]);
                let pe = b.vec(&name("pe"), &end[..rank]);
                Some((
                    b.op(
                        &name("pad"),
                        "Pad",
                        "opset12",
                        &[("pad_mode", "constant")],
                        &[cur, pb, pe],
                    ),
                    rank,
                ))
            }
            Step::MaxPool {
                kernel,
                stride,
                pad,
                ceil,
            } if (3..=5).contains(&rank) => {
                let spatial = rank - 2;
                let rep = |v: i64| list(&vec![v; spatial]);
                let attrs = [
                    ("kernel", rep(*kernel)),
                    ("strides", rep(*stride)),
                    ("pads_begin", rep(*pad)),
                    ("pads_end", rep(0)),
                    (
                        "rounding_type",
                        if *ceil { "ceil" } else { "floor" }.to_owned(),
                    ),
                ];
                let attrs: Vec<(&str, &str)> =
                    attrs.iter().map(|(k, v)| (*k, v.as_str())).collect();
                Some((
                    b.op(&name("pool"), "MaxPool", "opset1", &attrs, &[cur]),
                    rank,
                ))
            }
            Step::Interpolate { axis, scale } if *axis < rank => {
                let scales = b.const_f32(&name("scales"), &[1], &[*scale]);
                let axes = b.vec(&name("axes"), &[*axis as i64]);
                let attrs = [("mode", "nearest"), ("shape_calculation_mode", "scales")];
                Some((
                    b.op(
                        &name("resize"),
                        "Interpolate",
                        "opset11",
                        &attrs,
                        &[cur, scales, axes],
                    ),
                    rank,
                ))
            }
            Step::BroadcastLeading { lead } if rank < 5 => {
                let shape = b.op(&name("shape"), "ShapeOf", "opset3", &[], &[cur]);
                let lead = b.vec(&name("lead"), &[*lead]);
                let target = b.op(
                    &name("target"),
                    "Concat",
                    "opset1",
                    &[("axis", "0")],
                    &[lead, shape],
                );
                Some((
                    b.op(
                        &name("broadcast"),
                        "Broadcast",
                        "opset3",
                        &[],
                        &[cur, target],
                    ),
                    rank + 1,
                ))
            }
            Step::BroadcastOneAt { axis, mode } if *axis < rank => {
                let shape = b.op(&name("shape"), "ShapeOf", "opset3", &[], &[cur]);
                let zero = b.scalar(&name("zero"), 0);
                let mut parts = Vec::new();
                if *axis > 0 {
                    let idx = b.vec(&name("before"), &(0..*axis as i64).collect::<Vec<_>>());
                    parts.push(b.op(&name("head"), "Gather", "opset8", &[], &[shape, idx, zero]));
                }
                parts.push(b.vec(&name("one"), &[1]));
                if *axis + 1 < rank {
                    let after: Vec<i64> = (*axis as i64 + 1..rank as i64).collect();
                    let idx = b.vec(&name("after"), &after);
                    parts.push(b.op(&name("tail"), "Gather", "opset8", &[], &[shape, idx, zero]));
                }
                let target = b.op(
                    &name("target"),
                    "Concat",
                    "opset1",
                    &[("axis", "0")],
                    &parts,
                );
                Some((
                    b.op(
                        &name("broadcast"),
                        "Broadcast",
                        "opset3",
                        &[("mode", mode)],
                        &[cur, target],
                    ),
                    rank,
                ))
            }
            Step::ReduceSum { axis } if *axis < rank => {
                let axes = b.vec(&name("axes"), &[*axis as i64]);
                Some((
                    b.op(
                        &name("reduce"),
                        "ReduceSum",
                        "opset1",
                        &[("keep_dims", "true")],
                        &[cur, axes],
                    ),
                    rank,
                ))
            }
            Step::RangeOfDim { axis } if *axis < rank => {
                // A 1-D tensor as long as the dim: [0, 1, …, D - 1], as f32.
                let shape = b.op(&name("shape"), "ShapeOf", "opset3", &[], &[cur]);
                let index = b.scalar(&name("index"), *axis as i64);
                let zero = b.scalar(&name("zero"), 0);
                let dim = b.op(&name("dim"), "Gather", "opset8", &[], &[shape, index, zero]);
                let one = b.scalar(&name("one"), 1);
                let range = b.op(
                    &name("range"),
                    "Range",
                    "opset4",
                    &[("output_type", "f32")],
                    &[zero, dim, one],
                );
                Some((range, 1))
            }
            Step::Convolution {
                kernel,
                stride,
                dilation,
                pad,
                auto_pad,
            } if (3..=5).contains(&rank) => {
                let spatial = rank - 2;
                let rep = |v: i64| list(&vec![v; spatial]);
                let mut shape = vec![2, 1];
                shape.extend(vec![*kernel as usize; spatial]);
                let count: usize = shape.iter().product();
                let w = b.const_f32(&name("w"), &shape, &vec![1.0; count]);
                // The filter takes one input channel: the data's channels
                // sliced to the first.
                let zero = b.vec(&name("c0"), &[0]);
                let one = b.vec(&name("c1"), &[1]);
                let axis = b.vec(&name("caxis"), &[1]);
                let x = b.op(
                    &name("first_channel"),
                    "Slice",
                    "opset8",
                    &[],
                    &[cur, zero, one, one, axis],
                );
                let attrs = [
                    ("strides", rep(*stride)),
                    ("dilations", rep(*dilation)),
                    ("pads_begin", rep(*pad)),
                    ("pads_end", rep(0)),
                    ("auto_pad", (*auto_pad).to_owned()),
                ];
                let attrs: Vec<(&str, &str)> =
                    attrs.iter().map(|(k, v)| (*k, v.as_str())).collect();
                Some((
                    b.op(&name("conv"), "Convolution", "opset1", &attrs, &[x, w]),
                    rank,
                ))
            }
            Step::SliceByShape {
                axis,
                source,
                start_offset,
                stop_offset,
                step,
            } if *axis < rank && *source < rank => {
                let shape = b.op(&name("shape"), "ShapeOf", "opset3", &[], &[cur]);
                let zero = b.scalar(&name("zero"), 0);
                let idx = b.vec(&name("source"), &[*source as i64]);
                let dim = b.op(&name("dim"), "Gather", "opset8", &[], &[shape, idx, zero]);
                let so = b.vec(&name("start_offset"), &[*start_offset]);
                let eo = b.vec(&name("stop_offset"), &[*stop_offset]);
                let start = b.op(&name("start"), "Subtract", "opset1", &[], &[dim, so]);
                let stop = b.op(&name("stop"), "Subtract", "opset1", &[], &[dim, eo]);
                let st = b.vec(&name("step"), &[*step]);
                let axes = b.vec(&name("axes"), &[*axis as i64]);
                Some((
                    b.op(
                        &name("slice"),
                        "Slice",
                        "opset8",
                        &[],
                        &[cur, start, stop, st, axes],
                    ),
                    rank,
                ))
            }
            Step::MergeLastTwo if rank >= 2 => {
                let shape = b.op(&name("shape"), "ShapeOf", "opset3", &[], &[cur]);
                let lead: Vec<i64> = (0..rank as i64 - 2).collect();
                let zero = b.scalar(&name("zero"), 0);
                let mut parts = Vec::new();
                if !lead.is_empty() {
                    let idx = b.vec(&name("lead_idx"), &lead);
                    parts.push(b.op(&name("lead"), "Gather", "opset8", &[], &[shape, idx, zero]));
                }
                let a = b.vec(&name("a_idx"), &[rank as i64 - 2]);
                let c = b.vec(&name("b_idx"), &[rank as i64 - 1]);
                let da = b.op(&name("da"), "Gather", "opset8", &[], &[shape, a, zero]);
                let db = b.op(&name("db"), "Gather", "opset8", &[], &[shape, c, zero]);
                parts.push(b.op(&name("merged"), "Multiply", "opset1", &[], &[da, db]));
                let pattern = b.op(
                    &name("pattern"),
                    "Concat",
                    "opset1",
                    &[("axis", "0")],
                    &parts,
                );
                Some((
                    b.op(
                        &name("reshape"),
                        "Reshape",
                        "opset1",
                        &[("special_zero", "false")],
                        &[cur, pattern],
                    ),
                    rank - 1,
                ))
            }
            Step::DepthToSpace { block } if (3..=5).contains(&rank) => {
                let block = block.to_string();
                let attrs = [("block_size", block.as_str()), ("mode", "blocks_first")];
                Some((
                    b.op(&name("d2s"), "DepthToSpace", "opset1", &attrs, &[cur]),
                    rank,
                ))
            }
            Step::StridedSlice {
                axis,
                begin,
                end,
                stride,
                begin_mask,
                end_mask,
            } if *axis < rank => {
                let mut bv = vec![0; rank];
                let mut ev = vec![0; rank];
                let mut sv = vec![1; rank];
                bv[*axis] = *begin;
                ev[*axis] = *end;
                sv[*axis] = *stride;
                let mask = |set: bool| {
                    list(
                        &(0..rank)
                            .map(|a| i64::from(a != *axis || set))
                            .collect::<Vec<_>>(),
                    )
                };
                let (bm, em) = (mask(*begin_mask), mask(*end_mask));
                let bv = b.vec(&name("begin"), &bv);
                let ev = b.vec(&name("end"), &ev);
                let sv = b.vec(&name("stride"), &sv);
                let attrs = [("begin_mask", bm.as_str()), ("end_mask", em.as_str())];
                Some((
                    b.op(
                        &name("strided"),
                        "StridedSlice",
                        "opset1",
                        &attrs,
                        &[cur, bv, ev, sv],
                    ),
                    rank,
                ))
            }
            _ => None,
        };
        if let Some((out, r)) = next {
            cur = out;
            rank = r;
        }
    }
    b.result(cur);
    b
}

/// The Parameter symbols bound to `values`.
fn binding(run: &Run, values: &[i64]) -> HashMap<SymbolId, i64> {
    let mut map = HashMap::new();
    for (_, node) in run.graph.parameters() {
        let Op::Parameter { shape, .. } = &node.op else {
            continue;
        };
        for (dim, &v) in shape.dims().into_iter().flatten().zip(values) {
            if let Some(s) = dim.as_symbol() {
                map.insert(s, v);
            }
        }
    }
    map
}

/// Checks a symbolic dim against the static one: equal at the binding, or
/// (a symbol of its own in it) bounds that contain it.
fn agrees(
    run: &Run,
    bind: &HashMap<SymbolId, i64>,
    symbolic: &Expr,
    concrete: &Expr,
) -> Result<(), String> {
    let Some(c) = concrete.as_constant() else {
        return Ok(()); // a run-time size in the static graph too
    };
    let show = run.inference.symbols.display(symbolic).to_string();
    match symbolic.eval(&|s| bind.get(&s).copied()) {
        Ok(v) if v == c => Ok(()),
        Ok(v) => Err(format!(
            "{show} is {v} at the binding, the static graph says {c}"
        )),
        Err(_) => {
            let bounds = run
                .inference
                .symbols
                .bounds(symbolic)
                .map_err(|e| e.to_string())?;
            if bounds.contains(c) {
                Ok(())
            } else {
                Err(format!(
                    "{show} has bounds {bounds:?}, the static value is {c}"
                ))
            }
        }
    }
}

fn tensors(run: &Run) -> HashMap<String, &[TensorInfo]> {
    run.graph
        .nodes()
        .map(|(id, n)| (n.name.clone(), run.inference.outcome(id).outputs()))
        .collect()
}

fn check(dims: &[ParamDim], values: &[i64], steps: &[Step]) -> Result<(), TestCaseError> {
    let symbolic_shape: Vec<String> = dims
        .iter()
        .map(|d| match d {
            ParamDim::Static(v) => v.to_string(),
            ParamDim::Interval(lo, hi) => format!("{lo}..{hi}"),
            ParamDim::Unbounded => "?".into(),
        })
        .collect();
    let symbolic = build(&symbolic_shape.join(","), dims.len(), steps).run();
    let fixed = build(&list(values), dims.len(), steps).run();
    let bind = binding(&symbolic, values);
    // `None`: the constraint involves a run-time size (a symbol of its own,
    // not the Parameter's), so the binding does not decide it.
    let holds: Vec<Option<bool>> = symbolic
        .inference
        .constraints
        .iter()
        .map(|c| c.predicate.eval(&|s| bind.get(&s).copied()).ok())
        .collect();
    let symbolic_errors = symbolic.errors();
    let static_errors = fixed.errors();
    if !static_errors.is_empty() {
        prop_assert!(
            !symbolic_errors.is_empty() || holds.iter().any(|h| *h != Some(true)),
            "the static graph fails ({static_errors:?}) but the symbolic one is valid with every constraint holding at {values:?}"
        );
        return Ok(());
    }
    if !symbolic_errors.is_empty() {
        // The symbolic graph may be provably invalid only where every
        // binding is; this one is valid.
        prop_assert!(false, "the symbolic graph fails ({symbolic_errors:?}) but the static one at {values:?} is valid");
    }
    for (c, ok) in symbolic.inference.constraints.iter().zip(&holds) {
        prop_assert!(
            *ok != Some(false),
            "constraint `{}` of {} is false at the valid binding {values:?}",
            symbolic.inference.symbols.display_predicate(&c.predicate),
            c.layer.name
        );
    }
    let (sym, stat) = (tensors(&symbolic), tensors(&fixed));
    for (name, outputs) in &sym {
        let Some(static_outputs) = stat.get(name) else {
            continue;
        };
        for (a, b) in outputs.iter().zip(static_outputs.iter()) {
            let (Some(da), Some(db)) = (a.shape.dims(), b.shape.dims()) else {
                continue;
            };
            prop_assert_eq!(da.len(), db.len(), "rank of {}", name);
            for (x, y) in da.iter().zip(db) {
                agrees(&symbolic, &bind, x, y)
                    .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
            }
            if let (Some(va), Some(vb)) = (&a.value, &b.value) {
                for (x, y) in va.iter().zip(vb) {
                    agrees(&symbolic, &bind, x, y)
                        .map_err(|e| TestCaseError::fail(format!("{name} (value): {e}")))?;
                }
            }
        }
    }
    Ok(())
}

/// A Parameter's dims and a binding inside their bounds.
fn param() -> impl Strategy<Value = (Vec<ParamDim>, Vec<i64>)> {
    prop::collection::vec(param_dim(), 1..5).prop_flat_map(|dims| {
        let values: Vec<BoxedStrategy<i64>> = dims
            .iter()
            .map(|d| match *d {
                ParamDim::Static(v) => Just(v).boxed(),
                ParamDim::Interval(lo, hi) => (lo..=hi).boxed(),
                ParamDim::Unbounded => (0i64..9).boxed(),
            })
            .collect();
        (Just(dims), values)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn symbolic_inference_is_sound_at_every_binding(
        (dims, values) in param(),
        steps in prop::collection::vec(step(), 1..10),
    ) {
        check(&dims, &values, &steps)?;
    }
}
