//! The layers with bodies: If-8 ([`super::if_op`]), Loop-5
//! ([`super::loop_op`]) and TensorIterator-1 ([`super::tensor_iterator`]).
//!
//! A body runs through its own [`Executor`], prepared with its layer's (so
//! bodies nest), inside the layer's run: the same limits and pool of
//! buffers, and the bytes the run already holds count towards the body's
//! live bytes. This module holds what the three share: running a body once,
//! and the iterated run of Loop and TensorIterator (sliced inputs, back
//! edges, the body's condition, concatenated and last-value outputs), which
//! follows OpenVINO's CPU plugin (`intel_cpu/src/nodes/tensoriterator.cpp`).

use std::collections::HashMap;

use ir::{Body, BodyRole, ElementType, Node, NodeId, Op, SliceSpec, SubGraph};

use super::{norm_axis, OutSpec};
use crate::error::ExecError;
use crate::executor::{Executor, Limits};
use crate::tensor::{byte_size, element_width, Tensor};

/// One run of a layer with bodies.
pub(crate) struct BodyCall<'a> {
    pub node: &'a Node,
    /// An executor per body, in the order of the layer's bodies.
    pub runners: &'a [Executor],
    pub inputs: &'a [Tensor],
    /// What inference says of the outputs.
    pub outputs: &'a [OutSpec],
    /// Per output, its dims where inference knows them (`None` per dim left
    /// to the run; `None` for an unknown rank).
    pub partial: Vec<Option<Vec<Option<usize>>>>,
    pub limits: Limits,
    /// The bytes the layer's run holds.
    pub held: u64,
}

type BodyKernel = fn(&BodyCall<'_>, &SubGraph) -> Result<Vec<Tensor>, ExecError>;

/// The kernel of an op with bodies, if there is one.
pub(crate) fn kernel(type_name: &str) -> Option<BodyKernel> {
    Some(match type_name {
        "If" => super::if_op::run,
        "Loop" => super::loop_op::run,
        "TensorIterator" => super::tensor_iterator::run,
        _ => return None,
    })
}

/// Runs a layer with bodies.
pub(crate) fn run(call: &BodyCall<'_>) -> Result<Vec<Tensor>, ExecError> {
    let Op::SubGraph(sub) = &call.node.op else {
        return Err(call.error("internal: the layer has no bodies"));
    };
    let kernel = kernel(&call.node.op_type.name).ok_or_else(|| ExecError::NoKernel {
        op: format!("{}-{}", call.node.op_type.name, call.node.op_type.version),
        layer: call.node.name.clone(),
    })?;
    kernel(call, sub)
}

/// `error`, which happened inside body `role` of `node` (at `iteration`).
pub(crate) fn in_body(
    node: &Node,
    role: BodyRole,
    iteration: Option<u64>,
    error: ExecError,
) -> ExecError {
    ExecError::InBody {
        layer: node.name.clone(),
        op: node.op_type.name.clone(),
        body: role.name().to_owned(),
        iteration,
        source: Box::new(error),
    }
}

impl BodyCall<'_> {
    /// An error of this layer.
    pub fn error(&self, message: impl Into<String>) -> ExecError {
        ExecError::Kernel {
            layer: self.node.name.clone(),
            op: self.node.op_type.name.clone(),
            message: message.into(),
        }
    }

    pub fn input(&self, index: usize) -> Result<&Tensor, ExecError> {
        self.inputs
            .get(index)
            .ok_or_else(|| self.error(format!("input {index} is missing")))
    }

    /// The body with role `role` and its executor.
    pub fn body<'s>(
        &'s self,
        sub: &'s SubGraph,
        role: BodyRole,
    ) -> Result<(&'s Body, &'s Executor), ExecError> {
        sub.bodies
            .iter()
            .zip(self.runners)
            .find(|(b, _)| b.role == role)
            .ok_or_else(|| self.error(format!("the layer has no {}", role.name())))
    }

    /// The value of a one-element input (a condition, a trip count).
    pub fn scalar_input(&self, index: usize, what: &str) -> Result<i64, ExecError> {
        let t = self.input(index)?;
        scalar(t).ok_or_else(|| {
            self.error(format!(
                "the {what} must hold one integer or boolean, not {} {:?}",
                t.element_type, t.shape
            ))
        })
    }

    /// The error of a layer whose outputs would take the run past a limit.
    fn over_limit(&self, what: String, needed: u64, live: bool) -> ExecError {
        self.limits.exceeded(self.node, what, needed, live)
    }
}

/// The value of a one-element integer or boolean tensor.
pub(crate) fn scalar(t: &Tensor) -> Option<i64> {
    if t.len() != 1 || t.element_type.is_real() {
        return None;
    }
    if t.element_type == ElementType::Boolean {
        return t.nonzero_mask().ok()?.first().map(|&b| i64::from(b));
    }
    t.to_i64s().ok()?.first().copied()
}

/// Runs `body` once on `feeds`; an error names the layer, the body and the
/// iteration.
pub(crate) fn run_once(
    call: &BodyCall<'_>,
    body: &Body,
    runner: &Executor,
    feeds: HashMap<NodeId, Tensor>,
    held: u64,
    iteration: Option<u64>,
) -> Result<HashMap<NodeId, Tensor>, ExecError> {
    runner
        .run_body(feeds, held)
        .map_err(|e| in_body(call.node, body.role, iteration, e))
}

/// The tensor body Result `result` received.
pub(crate) fn result_of(
    call: &BodyCall<'_>,
    body: &Body,
    results: &HashMap<NodeId, Tensor>,
    result: NodeId,
) -> Result<Tensor, ExecError> {
    results.get(&result).cloned().ok_or_else(|| {
        call.error(format!(
            "the port map names node {} of the {} as a Result, which gave no tensor",
            result.index(),
            body.role.name()
        ))
    })
}

/// The body's Parameters fed by the layer's inputs as a whole (invariant,
/// or the first value of a merged one); sliced ones are left out.
pub(crate) fn whole_inputs(
    call: &BodyCall<'_>,
    body: &Body,
) -> Result<HashMap<NodeId, Tensor>, ExecError> {
    body.inputs
        .iter()
        .filter(|m| m.slice.is_none())
        .map(|m| Ok((m.param, call.input(m.outer)?.clone())))
        .collect()
}

/// How an iterated body runs.
pub(crate) struct Iterations {
    /// The most iterations (`None`: until the condition says stop).
    pub count: Option<u64>,
    /// Loop's body Parameter that receives the iteration number, with its
    /// element type and shape.
    pub current_iteration: Option<(NodeId, ElementType, Vec<usize>)>,
    /// Loop's body Result that decides whether another iteration runs.
    pub condition: Option<NodeId>,
}

/// One sliced input: part `i` is the `i`-th chunk of `part_size` along the
/// axis, from `start` forwards (backwards for a negative stride), the
/// chunks inference gives the body Parameter. (OpenVINO's CPU plugin cuts
/// chunks of `|stride|` from the start or the end of the axis: the same
/// parts for the `part_size == |stride|` and whole-axis slices OpenVINO
/// writes.)
struct Slicer<'a> {
    param: NodeId,
    outer: usize,
    tensor: &'a Tensor,
    axis: usize,
    part: usize,
    /// The first element of the chunk of iteration 0.
    first: usize,
    forward: bool,
    count: u64,
}

/// The position of `v` on an axis of `dim`: negative ones count from the
/// end (`-1` the last element).
fn position(v: i64, dim: usize) -> i64 {
    if v < 0 {
        v.saturating_add(dim as i64)
    } else {
        v
    }
}

/// How many parts of `slice` an axis of `dim` holds, as inference counts
/// them (`shape_infer::ops::bodies::slice_iterations`): `start` and `end`
/// inclusive, `(|end - start| + 1) / part_size`.
pub(crate) fn slice_count(
    call: &BodyCall<'_>,
    slice: &SliceSpec,
    dim: usize,
) -> Result<u64, ExecError> {
    if slice.part_size <= 0 || slice.stride == 0 {
        return Err(call.error(format!(
            "a slice's part_size {} must be positive and its stride {} non-zero",
            slice.part_size, slice.stride
        )));
    }
    let (start, end) = (position(slice.start, dim), position(slice.end, dim));
    let span = if slice.stride > 0 {
        end - start
    } else {
        start - end
    };
    Ok(u64::try_from((span + 1) / slice.part_size).unwrap_or(0))
}

impl<'a> Slicer<'a> {
    fn new(
        call: &'a BodyCall<'a>,
        param: NodeId,
        outer: usize,
        slice: &SliceSpec,
    ) -> Result<Self, ExecError> {
        let tensor = call.input(outer)?;
        let rank = tensor.shape.len();
        let axis = norm_axis(slice.axis, rank).map_err(|_| {
            call.error(format!(
                "the axis {} of sliced input {outer} is out of range for rank {rank}",
                slice.axis
            ))
        })?;
        let dim = tensor.shape[axis];
        let count = slice_count(call, slice, dim)?;
        let part = slice.part_size as usize;
        let forward = slice.stride > 0;
        let start = position(slice.start, dim);
        // Backwards, iteration 0 takes the chunk ending at `start`.
        let first = if forward {
            start
        } else {
            start + 1 - part as i64
        };
        let last_end = if forward {
            first + (count as i64) * part as i64
        } else {
            start + 1
        };
        let lowest = if forward {
            first
        } else {
            start + 1 - (count as i64) * part as i64
        };
        if count > 0 && (lowest < 0 || last_end > dim as i64) {
            return Err(call.error(format!(
                "sliced input {outer}: start {} and end {} fall outside its axis {axis} of {dim}",
                slice.start, slice.end
            )));
        }
        Ok(Slicer {
            param,
            outer,
            tensor,
            axis,
            part,
            first: usize::try_from(first).unwrap_or(0),
            forward,
            count,
        })
    }

    /// The chunk of iteration `i`.
    fn part(&self, call: &BodyCall<'_>, i: u64) -> Result<Tensor, ExecError> {
        if i >= self.count {
            return Err(call.error(format!(
                "iteration {i} needs part {i} of op input {}, which is sliced in {} parts",
                self.outer, self.count
            )));
        }
        let offset = i as usize * self.part;
        let begin = if self.forward {
            self.first + offset
        } else {
            self.first - offset
        };
        let dims = &self.tensor.shape;
        let inner: usize = dims[self.axis + 1..].iter().product();
        let mut shape = dims.clone();
        shape[self.axis] = self.part;
        let whole = dims[self.axis] * inner;
        let row = self.part * inner;
        super::copy_slices(self.tensor, shape, row, |r| r * whole + begin * inner)
            .map_err(|e| super::to_exec(e, call.node))
    }
}

/// The iteration number as the body Parameter wants it.
fn iteration_tensor(
    call: &BodyCall<'_>,
    i: u64,
    element_type: ElementType,
    shape: &[usize],
) -> Result<Tensor, ExecError> {
    let n = shape.iter().product::<usize>();
    match element_type {
        ElementType::I64 => Tensor::from_vec(shape.to_vec(), vec![i as i64; n]),
        ElementType::I32 => Tensor::from_vec(
            shape.to_vec(),
            vec![
                i32::try_from(i).map_err(|_| call.error("the iteration number overflows i32"))?;
                n
            ],
        ),
        other => Err(call.error(format!(
            "the current-iteration Parameter is {other}; it must be i32 or i64"
        ))),
    }
}

/// Runs an iterated body (Loop, TensorIterator) and gives the layer's
/// outputs.
pub(crate) fn run_iterated(
    call: &BodyCall<'_>,
    body: &Body,
    runner: &Executor,
    plan: &Iterations,
) -> Result<Vec<Tensor>, ExecError> {
    let slicers: Vec<Slicer<'_>> = body
        .inputs
        .iter()
        .filter_map(|m| {
            m.slice
                .as_ref()
                .map(|s| Slicer::new(call, m.param, m.outer, s))
        })
        .collect::<Result<_, _>>()?;
    let mut feeds = whole_inputs(call, body)?;
    let counted = plan
        .current_iteration
        .as_ref()
        .filter(|(param, _, _)| body.back_edge_into(*param).is_none());
    // Per output map of the body, the values of every iteration (concat).
    let mut pieces: Vec<Vec<Tensor>> = vec![Vec::new(); body.outputs.len()];
    let mut concat_bytes = vec![0u64; body.outputs.len()];
    let mut last: Option<HashMap<NodeId, Tensor>> = None;
    let mut i: u64 = 0;
    while !matches!(plan.count, Some(n) if i >= n) {
        if i >= call.limits.max_iterations {
            return Err(ExecError::IterationLimit {
                layer: call.node.name.clone(),
                op: call.node.op_type.name.clone(),
                limit: call.limits.max_iterations,
            });
        }
        for s in &slicers {
            feeds.insert(s.param, s.part(call, i)?);
        }
        if let Some((param, element_type, shape)) = counted {
            feeds.insert(*param, iteration_tensor(call, i, *element_type, shape)?);
        }
        let fed: u64 = feeds.values().map(|t| t.data.len() as u64).sum();
        let gathered: u64 = concat_bytes.iter().sum();
        let held = call.held.saturating_add(fed).saturating_add(gathered);
        let results = run_once(call, body, runner, feeds.clone(), held, Some(i))?;
        for (k, map) in body.outputs.iter().enumerate() {
            if map.concat.is_none() {
                continue;
            }
            let t = result_of(call, body, &results, map.result)?;
            concat_bytes[k] = concat_bytes[k].saturating_add(t.data.len() as u64);
            if concat_bytes[k] > call.limits.max_tensor_bytes {
                return Err(call.over_limit(
                    format!("output {}", map.outer),
                    concat_bytes[k],
                    false,
                ));
            }
            pieces[k].push(t);
        }
        let gathered: u64 = concat_bytes.iter().sum();
        let total = call.held.saturating_add(gathered);
        if total > call.limits.max_live_bytes {
            return Err(call.over_limit("the live tensors".to_owned(), total, true));
        }
        let go_on = match plan.condition {
            None => true,
            Some(c) => {
                let t = result_of(call, body, &results, c)?;
                scalar(&t).ok_or_else(|| {
                    call.error(format!(
                        "the body's condition must hold one boolean, not {} {:?}",
                        t.element_type, t.shape
                    ))
                })? != 0
            }
        };
        for edge in &body.back_edges {
            feeds.insert(edge.to, result_of(call, body, &results, edge.from)?);
        }
        last = Some(results);
        i += 1;
        if !go_on {
            break;
        }
    }
    let mut outputs = Vec::with_capacity(call.node.outputs.len());
    for index in 0..call.node.outputs.len() {
        let (k, map) = body
            .outputs
            .iter()
            .enumerate()
            .find(|(_, m)| m.outer == index)
            .ok_or_else(|| call.error(format!("no body Result gives output {index}")))?;
        let out = match (&map.concat, &last) {
            (Some(slice), _) => concatenate(call, index, std::mem::take(&mut pieces[k]), slice)?,
            (None, Some(results)) => result_of(call, body, results, map.result)?,
            (None, None) => not_run(call, body, index, map.result)?,
        };
        outputs.push(out);
    }
    Ok(outputs)
}

/// A last-value output of a body that ran zero times: the initial value of
/// the merged input its Result feeds back, otherwise zeros of the inferred
/// shape (dims inference left to the run are 0, as OpenVINO's CPU plugin
/// gives them).
fn not_run(
    call: &BodyCall<'_>,
    body: &Body,
    index: usize,
    result: NodeId,
) -> Result<Tensor, ExecError> {
    let initial = body
        .back_edges
        .iter()
        .filter(|e| e.from == result)
        .find_map(|e| {
            body.inputs
                .iter()
                .find(|m| m.param == e.to && m.slice.is_none())
        });
    if let Some(m) = initial {
        return Ok(call.input(m.outer)?.clone());
    }
    zeros(call, index)
}

/// Zeros of output `index`'s inferred shape, dims left to the run 0.
fn zeros(call: &BodyCall<'_>, index: usize) -> Result<Tensor, ExecError> {
    let (Some(Some(dims)), Some(spec)) = (call.partial.get(index), call.outputs.get(index)) else {
        return Err(call.error(format!(
            "the body ran zero times and the rank of output {index} is not known"
        )));
    };
    let shape: Vec<usize> = dims.iter().map(|d| d.unwrap_or(0)).collect();
    let size = byte_size(spec.element_type, &shape)?;
    Tensor::from_bytes(spec.element_type, shape, vec![0; size])
}

/// The values of every iteration of a concatenated output, joined along the
/// slice's axis (in reverse iteration order for a negative stride). A
/// scalar per iteration gives a vector.
fn concatenate(
    call: &BodyCall<'_>,
    index: usize,
    mut pieces: Vec<Tensor>,
    slice: &SliceSpec,
) -> Result<Tensor, ExecError> {
    let Some(first) = pieces.first() else {
        return zeros(call, index);
    };
    let element_type = first.element_type;
    let piece_shape = if first.shape.is_empty() {
        vec![1]
    } else {
        first.shape.clone()
    };
    if let Some(odd) = pieces.iter().find(|p| {
        p.element_type != element_type || p.len() != first.len() || (p.shape != first.shape)
    }) {
        return Err(call.error(format!(
            "output {index} concatenates the iterations' values, but they differ: {} {:?} and {} {:?}",
            element_type, first.shape, odd.element_type, odd.shape
        )));
    }
    let axis =
        norm_axis(slice.axis, piece_shape.len()).map_err(|e| super::to_exec(e, call.node))?;
    if slice.stride < 0 {
        pieces.reverse();
    }
    let width = element_width(element_type)?;
    let block = piece_shape[axis..].iter().product::<usize>() * width;
    let outer: usize = piece_shape[..axis].iter().product();
    let mut shape = piece_shape;
    shape[axis] *= pieces.len();
    let size = byte_size(element_type, &shape)?;
    let mut bytes = Vec::with_capacity(size);
    for o in 0..outer {
        for p in &pieces {
            bytes.extend_from_slice(&p.bytes()[o * block..(o + 1) * block]);
        }
    }
    Tensor::from_bytes(element_type, shape, bytes)
}
