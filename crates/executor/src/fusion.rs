//! Fusion of a convolution's bias, residual Add and activation into its
//! output pass.
//!
//! OpenVINO's converters leave a convolution as `Convolution → Add(bias) →
//! Clamp/ReLU`, and a ResNet block's last one as `Convolution → Add(bias)
//! → Add(shortcut) → ReLU`; run unfused, each step would read and write the
//! whole output again. When the executor is made, [`Plan::new`] finds every
//! f32 Convolution or GroupConvolution followed by a chain of, in this
//! order and each the only consumer of the step before: an Add of a
//! per-channel constant (the bias), an Add of a run-time tensor of the
//! convolution's own shape that the executor computes before the
//! convolution (the shortcut: the run's order puts its producer first, so
//! it is there when the convolution runs), and a Clamp or ReLU; any of the
//! three may be missing. The convolution then runs them on each output
//! tile right after its sums, while the tile is in cache ([`Epilogue`]),
//! and the Adds and the activation pass its output through unchanged. The
//! values are bit-identical to the unfused run's: each output is
//! `act((sum + bias) + shortcut)` in f32, the same roundings in the same
//! order (and each Add's operands in the Add's order) as the Add and the
//! activation kernels.
//!
//! `OVIR_NO_FUSION` set when the executor is made turns fusion off (to
//! measure its gain, or to rule it out).

use std::sync::Arc;

use ir::{ElementType, Graph, NodeId, Op, OutputRef};
use shape_infer::{Inference, NodeOutcome};

use crate::gemm::Scalar;
use crate::kernels::winograd::Prepared;
use crate::kernels::{self, Call, KResult};
use crate::tensor::Tensor;

/// An activation run on a convolution's outputs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Activation<T> {
    Identity,
    /// `max(v, 0)`, NaN kept (as the ReLU kernel).
    Relu,
    /// `v < lo → lo`, then `v > hi → hi`, NaN kept (as the Clamp kernel on
    /// f32, with its bounds rounded to f32).
    Clamp {
        lo: T,
        hi: T,
    },
}

/// Which operand of a fused residual Add the shortcut is: the Add's
/// operand order is kept, so the sum rounds (and a NaN's payload
/// propagates) as the Add kernel's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// `shortcut + v` (the shortcut is the Add's input 0).
    Left,
    /// `v + shortcut`.
    Right,
}

/// What a fused convolution does to each output after its sum: add its
/// channel's bias, then the shortcut's value at the same position, then
/// the activation.
#[derive(Clone, Debug)]
pub(crate) struct Epilogue<T> {
    /// One value per output channel (all of them, across groups).
    pub bias: Option<Vec<T>>,
    /// Whether a shortcut of the output's shape is added (a residual Add),
    /// and on which side: its values come with each call
    /// ([`Epilogue::apply_at`]), they are a run's tensor.
    pub shortcut: Option<Side>,
    pub activation: Activation<T>,
}

impl<T: 'static> Epilogue<T> {
    /// This epilogue as an f32 one when `T` is f32: the hand-vectorized
    /// kernels, f32 only, are reached from generic code.
    pub fn as_f32(&self) -> Option<&Epilogue<f32>> {
        (self as &dyn std::any::Any).downcast_ref()
    }
}

impl<T: Scalar> Epilogue<T> {
    /// Whether the bias has one value per channel of `channels`.
    pub fn fits(&self, channels: usize) -> bool {
        self.bias.as_ref().is_none_or(|b| b.len() == channels)
    }

    /// Runs on `values`, outputs of output channel `channel` (below the
    /// channels [`Epilogue::fits`] checked), adding `shortcut` (the
    /// shortcut's values at the same positions, as long as `values`) when
    /// the epilogue adds one.
    pub fn apply_at(&self, channel: usize, values: &mut [T], shortcut: Option<&[T]>) {
        let bias = self.bias.as_ref().map(|b| b[channel]);
        let shortcut = shortcut.zip(self.shortcut);
        finish(values, bias, shortcut, self.activation);
    }

    /// [`Epilogue::apply_at`] inlined into the caller's loop, so compiled
    /// for the caller's target and without a call per run of values: for a
    /// kernel that finishes many short runs (a depthwise convolution's
    /// rows).
    #[inline(always)]
    pub fn apply_inline(&self, channel: usize, values: &mut [T], shortcut: Option<&[T]>) {
        let bias = self.bias.as_ref().map(|b| b[channel]);
        let shortcut = shortcut.zip(self.shortcut);
        finish_inline(values, bias, shortcut, self.activation);
    }
}

#[cfg(target_arch = "x86_64")]
impl Epilogue<f32> {
    /// [`Epilogue::apply_at`] on one AVX-512 vector `v` of 16 outputs, in
    /// registers: `bias` the bias of each one's output channel (`None` when
    /// there is none, or it was added already), `shortcut` their
    /// shortcut's values (when the epilogue adds one). The same operations
    /// in the same order and operand order as the scalar loop, so the same
    /// bits (NaN payloads included). For hand-vectorized kernels that hold
    /// outputs in vectors, of one channel or of 16.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub fn apply_vector(
        &self,
        bias: Option<std::arch::x86_64::__m512>,
        v: std::arch::x86_64::__m512,
        shortcut: Option<std::arch::x86_64::__m512>,
    ) -> std::arch::x86_64::__m512 {
        use std::arch::x86_64::{
            _mm512_add_ps, _mm512_cmp_ps_mask, _mm512_maskz_mov_ps, _mm512_max_ps, _mm512_min_ps,
            _mm512_set1_ps, _mm512_setzero_ps, _CMP_NLE_UQ,
        };
        let mut v = v;
        if let Some(bias) = bias {
            v = _mm512_add_ps(v, bias);
        }
        match (shortcut, self.shortcut) {
            (Some(s), Some(Side::Left)) => v = _mm512_add_ps(s, v),
            (Some(s), Some(Side::Right)) => v = _mm512_add_ps(v, s),
            _ => {}
        }
        match self.activation {
            Activation::Identity => v,
            // Kept where `!(v <= 0)`: above zero or NaN; +0 elsewhere.
            Activation::Relu => {
                _mm512_maskz_mov_ps(_mm512_cmp_ps_mask::<_CMP_NLE_UQ>(v, _mm512_setzero_ps()), v)
            }
            // `max(a, b)` is `a > b ? a : b` and `min(a, b)` `a < b ? a :
            // b`: `v < lo → lo`, then `v > hi → hi`, a NaN `v` kept.
            Activation::Clamp { lo, hi } => {
                _mm512_min_ps(_mm512_set1_ps(hi), _mm512_max_ps(_mm512_set1_ps(lo), v))
            }
        }
    }
}

/// `v = act(v + bias)` (or `act(v)`) over `values`, one branchless loop
/// per case. Compiled for AVX-512 and AVX2 too (chosen at run time): the
/// default target vectorizes 4 lanes wide only.
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512cd+avx512dq+avx512vl",
    "x86_64+avx2+fma",
))]
fn finish<T: Scalar>(
    values: &mut [T],
    bias: Option<T>,
    shortcut: Option<(&[T], Side)>,
    activation: Activation<T>,
) {
    finish_inline(values, bias, shortcut, activation);
}

/// [`finish`]'s body, inlined into its callers.
#[inline(always)]
fn finish_inline<T: Scalar>(
    values: &mut [T],
    bias: Option<T>,
    shortcut: Option<(&[T], Side)>,
    activation: Activation<T>,
) {
    match activation {
        Activation::Identity => each(values, bias, shortcut, |v| v),
        Activation::Relu => each(values, bias, shortcut, |v| {
            if v.is_nan() || v > T::ZERO {
                v
            } else {
                T::ZERO
            }
        }),
        Activation::Clamp { lo, hi } => each(values, bias, shortcut, move |v| {
            let v = if v < lo { lo } else { v };
            if v > hi {
                hi
            } else {
                v
            }
        }),
    }
}

/// `v = f((v + bias) + s)` over `values` and the shortcut's values `s`
/// (each term only when given, `s` on its side): one branchless loop each.
#[inline(always)]
fn each<T: Scalar>(
    values: &mut [T],
    bias: Option<T>,
    shortcut: Option<(&[T], Side)>,
    f: impl Fn(T) -> T,
) {
    let Some((s, side)) = shortcut else {
        match bias {
            Some(b) => values.iter_mut().for_each(|v| *v = f(*v + b)),
            None => values.iter_mut().for_each(|v| *v = f(*v)),
        }
        return;
    };
    let pairs = values.iter_mut().zip(s);
    match (bias, side) {
        (Some(b), Side::Right) => pairs.for_each(|(v, &s)| *v = f((*v + b) + s)),
        (Some(b), Side::Left) => pairs.for_each(|(v, &s)| *v = f(s + (*v + b))),
        (None, Side::Right) => pairs.for_each(|(v, &s)| *v = f(*v + s)),
        (None, Side::Left) => pairs.for_each(|(v, &s)| *v = f(s + *v)),
    }
}

/// What a node does in a fused run.
#[derive(Clone, Debug)]
enum Role {
    /// A convolution that runs its consumers' bias, residual Add and
    /// activation; `shortcut` is the residual Add's other operand.
    Fused {
        epilogue: Arc<Epilogue<f32>>,
        shortcut: Option<OutputRef>,
    },
    /// A fused Add or activation: its output is its input `k`, already
    /// computed by the convolution.
    Forward(usize),
}

/// The fused nodes of a graph, made once with the executor.
#[derive(Clone, Debug, Default)]
pub(crate) struct Plan {
    roles: Vec<Option<Role>>,
}

/// What the plan reads of the executor: the graph, per node the producer of
/// each input and the consumer count of each output, the values folded at
/// load time, the nodes runs skip, the order runs take the nodes in, and
/// the shapes inferred at the graph's own Parameter shapes (symbolic: a
/// shortcut whose shape equals the convolution's there does at every
/// binding), and whether runs bind the Parameters to those shapes (a
/// body's Parameters take whatever shapes its layer feeds them, so a
/// shortcut whose shape equals the output's at the declared dims may not
/// at a run's: bodies fuse no residual Add).
pub(crate) struct Graphs<'a> {
    pub graph: &'a Graph,
    pub sources: &'a [Vec<OutputRef>],
    pub consumers: &'a [Vec<usize>],
    pub folded: &'a [Option<Vec<Tensor>>],
    pub skipped: &'a [bool],
    pub order: &'a [NodeId],
    pub inference: &'a Inference,
    pub declared_dims: bool,
}

impl Plan {
    /// Finds the fusable convolutions (none with `OVIR_NO_FUSION` set).
    pub fn new(g: &Graphs<'_>) -> Plan {
        if std::env::var_os("OVIR_NO_FUSION").is_some() {
            return Plan::default();
        }
        Plan::find(g)
    }

    /// Finds the fusable convolutions.
    pub fn find(g: &Graphs<'_>) -> Plan {
        let count = g.graph.node_count();
        let mut roles = vec![None; count];
        let mut position = vec![usize::MAX; count];
        for (at, id) in g.order.iter().enumerate() {
            position[id.index()] = at;
        }
        let ids: Vec<NodeId> = g.graph.nodes().map(|(id, _)| id).collect();
        for id in ids {
            if let Some(found) = chain(g, id, &position) {
                roles[id.index()] = Some(Role::Fused {
                    epilogue: Arc::new(found.epilogue),
                    shortcut: found.shortcut,
                });
                for (node, input) in found.forwarded {
                    roles[node.index()] = Some(Role::Forward(input));
                }
            }
        }
        Plan { roles }
    }

    /// Whether node `id` runs through [`Plan::run`].
    pub fn applies(&self, id: NodeId) -> bool {
        self.roles.get(id.index()).is_some_and(Option::is_some)
    }

    /// The run-time operand a fused convolution `id` adds (its residual
    /// Add's other input), which [`Plan::run`] then needs.
    pub fn shortcut(&self, id: NodeId) -> Option<OutputRef> {
        match self.roles.get(id.index())? {
            Some(Role::Fused { shortcut, .. }) => *shortcut,
            _ => None,
        }
    }

    /// Runs node `id` of the plan: a fused convolution (given the value of
    /// its [`Plan::shortcut`], if it has one), or a node passing its input
    /// through. `prepared`: a fused convolution's slot for its Winograd
    /// filters, when its weights are constant.
    pub fn run(
        &self,
        id: NodeId,
        call: &Call<'_>,
        shortcut: Option<&Tensor>,
        prepared: Option<&Prepared>,
    ) -> KResult<Vec<Tensor>> {
        match self.roles.get(id.index()).and_then(Option::as_ref) {
            Some(Role::Fused { epilogue, .. }) => {
                kernels::convolution::run_fused(call, epilogue, shortcut, prepared)
            }
            Some(Role::Forward(k)) => Ok(vec![call.input(*k)?.clone()]),
            None => Err("internal: the layer is not fused".into()),
        }
    }
}

/// The only consumer of output 0 of `id` and the input it reads it at, if
/// it has exactly one (and one output).
fn only_consumer(g: &Graphs<'_>, id: NodeId) -> Option<(NodeId, usize)> {
    if g.consumers[id.index()].as_slice() != [1] {
        return None;
    }
    let consumer = *g.graph.output_consumers(id).first()?.first()?;
    Some((consumer.node, consumer.input))
}

/// The value of a constant output: a Const's, or a folded node's.
fn constant(g: &Graphs<'_>, src: OutputRef) -> Option<Tensor> {
    if let Some(folded) = &g.folded[src.node.index()] {
        return folded.get(src.output).cloned();
    }
    match &g.graph.node(src.node).op {
        Op::Constant {
            element_type,
            shape,
            data,
        } => {
            let shape = shape
                .iter()
                .map(|&d| usize::try_from(d).ok())
                .collect::<Option<Vec<_>>>()?;
            Tensor::new(*element_type, shape, data.clone()).ok()
        }
        _ => None,
    }
}

/// A fusable convolution's epilogue, the residual Add's other operand (when
/// it adds one), and the nodes it takes over, each with the input it
/// passes through.
struct Chain {
    epilogue: Epilogue<f32>,
    shortcut: Option<OutputRef>,
    forwarded: Vec<(NodeId, usize)>,
}

/// The chain of convolution `id`, if `id` is a fusable convolution;
/// `position` is each node's place in the run's order.
fn chain(g: &Graphs<'_>, id: NodeId, position: &[usize]) -> Option<Chain> {
    let node = g.graph.node(id);
    let grouped = match node.op_type.name.as_str() {
        "Convolution" => false,
        "GroupConvolution" => true,
        _ => return None,
    };
    let runs = |n: NodeId| !g.skipped[n.index()] && g.folded[n.index()].is_none();
    if !runs(id) {
        return None;
    }
    // The output channels, from constant f32 filters.
    let w = constant(g, *g.sources[id.index()].get(1)?)?;
    if w.element_type != ElementType::F32 {
        return None;
    }
    let channels = if grouped {
        w.shape.first()? * w.shape.get(1)?
    } else {
        *w.shape.first()?
    };
    let rank = w.shape.len() - usize::from(grouped);
    let mut forwarded = Vec::new();
    let mut bias = None;
    let mut next = only_consumer(g, id);
    let is_add = |(n, input): &(NodeId, usize)| {
        g.graph.node(*n).op_type.name == "Add" && runs(*n) && *input <= 1
    };
    if let Some((add, input)) = next.filter(is_add) {
        let numpy = matches!(broadcast(g, add), None | Some("numpy"));
        if let Some(values) = bias_values(g, add, 1 - input, channels, rank).filter(|_| numpy) {
            bias = Some(values);
            forwarded.push((add, input));
            next = only_consumer(g, add);
        }
    }
    let mut shortcut = None;
    let mut side = None;
    if let Some((add, input)) = next.filter(is_add) {
        let src = g.sources[add.index()][1 - input];
        let elementwise = matches!(broadcast(g, add), None | Some("numpy" | "none"));
        if elementwise && is_shortcut(g, id, src, position) {
            shortcut = Some(src);
            side = Some(if input == 0 { Side::Right } else { Side::Left });
            forwarded.push((add, input));
            next = only_consumer(g, add);
        }
    }
    let mut activation = Activation::Identity;
    if let Some((act, input)) = next {
        let act_node = g.graph.node(act);
        let found = match act_node.op_type.name.as_str() {
            "ReLU" => Some(Activation::Relu),
            "Clamp" => {
                let bound = |key| act_node.attributes.get(key)?.trim().parse::<f64>().ok();
                let (lo, hi) = (bound("min")?, bound("max")?);
                // An invalid interval is the kernel's to report.
                (lo <= hi).then_some(Activation::Clamp {
                    lo: lo as f32,
                    hi: hi as f32,
                })
            }
            _ => None,
        };
        if let Some(found) = found.filter(|_| runs(act) && input == 0) {
            activation = found;
            forwarded.push((act, 0));
        }
    }
    if forwarded.is_empty() {
        return None;
    }
    Some(Chain {
        epilogue: Epilogue {
            bias,
            shortcut: side,
            activation,
        },
        shortcut,
        forwarded,
    })
}

/// The `auto_broadcast` of Add `add`, if written: a bias broadcasts as
/// numpy (the default); a shortcut of the output's own shape adds
/// elementwise under numpy or none.
fn broadcast<'g>(g: &Graphs<'g>, add: NodeId) -> Option<&'g str> {
    g.graph
        .node(add)
        .attributes
        .get("auto_broadcast")
        .map(str::trim)
}

/// Whether `src` can be the shortcut convolution `conv` adds: a run-time
/// f32 tensor (not one runs skip) whose producer runs before `conv`, of
/// the same inferred shape as `conv`'s output (equal expressions in the
/// graph's symbols, so equal at every binding: no broadcasting), in a
/// graph whose runs bind its Parameters to their declared dims.
fn is_shortcut(g: &Graphs<'_>, conv: NodeId, src: OutputRef, position: &[usize]) -> bool {
    let before = position[src.node.index()] < position[conv.index()];
    if !g.declared_dims || !before || g.skipped[src.node.index()] {
        return false;
    }
    let info = |node: NodeId, k: usize| match g.inference.outcome(node) {
        NodeOutcome::Inferred(infos) => infos.get(k),
        NodeOutcome::Declared(_) => None,
    };
    let (Some(out), Some(other)) = (info(conv, 0), info(src.node, src.output)) else {
        return false;
    };
    out.element_type == ElementType::F32
        && other.element_type == ElementType::F32
        && out.shape.dims().is_some()
        && out.shape == other.shape
}

/// The per-channel values of input `input` of Add `add` (which broadcasts
/// as numpy), when it is a constant f32 bias for `channels` output channels of a convolution whose
/// output has `rank` dims: its dims, aligned to the output's from the
/// right (numpy broadcasting), are 1 except at the channel axis (`channels`
/// or 1), so the Add's output has the convolution's shape.
fn bias_values(
    g: &Graphs<'_>,
    add: NodeId,
    input: usize,
    channels: usize,
    rank: usize,
) -> Option<Vec<f32>> {
    let b = constant(g, *g.sources[add.index()].get(input)?)?;
    if b.element_type != ElementType::F32 || b.shape.len() > rank {
        return None;
    }
    let lead = rank - b.shape.len();
    let per_channel = b
        .shape
        .iter()
        .enumerate()
        .all(|(i, &d)| d == 1 || (lead + i == 1 && d == channels));
    if !per_channel {
        return None;
    }
    let values = b.to_vec::<f32>().ok()?;
    match values.len() {
        1 => Some(vec![values[0]; channels]),
        n if n == channels => Some(values),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_vector_epilogue_gives_the_scalar_bits() {
        use std::arch::x86_64::{_mm512_loadu_ps, _mm512_set1_ps, _mm512_storeu_ps};
        if !crate::simd::has_avx512() {
            return;
        }
        // Zeros of both signs, NaNs of two payloads, values at and past
        // the clamp's bounds, a sum that rounds.
        let nan = |payload: u32| f32::from_bits(0x7fc0_0000 | payload);
        let values: [f32; 16] = [
            0.0,
            -0.0,
            1.5,
            -1.5,
            6.0,
            6.5,
            -3.0,
            -3.5,
            nan(1),
            1e-8,
            3.0,
            -0.0,
            7.0,
            0.1,
            -7.0,
            2.0,
        ];
        let shortcut: [f32; 16] = [
            -0.0,
            0.0,
            1.0,
            nan(2),
            -6.5,
            0.0,
            0.0,
            1.0,
            nan(3),
            1.0,
            -3.0,
            -0.0,
            0.2,
            0.2,
            1.0,
            -2.0,
        ];
        let activations = [
            Activation::Identity,
            Activation::Relu,
            Activation::Clamp { lo: 0.0, hi: 6.0 },
            Activation::Clamp { lo: -3.0, hi: 6.0 },
        ];
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        for activation in activations {
            for bias in [None, Some(vec![0.0, -0.0, 0.3])] {
                for side in [None, Some(Side::Left), Some(Side::Right)] {
                    let e = Epilogue {
                        bias: bias.clone(),
                        shortcut: side,
                        activation,
                    };
                    for channel in 0..3 {
                        let near = side.map(|_| &shortcut[..]);
                        let mut want = values;
                        e.apply_at(channel, &mut want, near);
                        let mut got = [0.0f32; 16];
                        // SAFETY: the CPU has AVX-512 (checked above); 16
                        // values each.
                        unsafe {
                            let v = _mm512_loadu_ps(values.as_ptr());
                            let s = near.map(|s| _mm512_loadu_ps(s.as_ptr()));
                            let b = e.bias.as_ref().map(|b| _mm512_set1_ps(b[channel]));
                            _mm512_storeu_ps(got.as_mut_ptr(), e.apply_vector(b, v, s));
                        }
                        assert_eq!(bits(&got), bits(&want), "{e:?} channel {channel}");
                    }
                }
            }
        }
    }

    /// `x [1, 2, 3, 3] → Convolution (4 filters 1x1) → Add (a Const of
    /// `bias_shape`) → Clamp(0, 6) → Result`; with `observe`, a second
    /// Result reads the convolution.
    fn chain_xml(bias_shape: &[usize], observe: bool) -> (String, Vec<u8>) {
        let bias: usize = bias_shape.iter().product();
        let weights = vec![0u8; (8 + bias) * 4];
        let dims = |d: &[usize]| {
            d.iter()
                .map(|v| format!("<dim>{v}</dim>"))
                .collect::<String>()
        };
        let shape = |d: &[usize]| d.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
        let out = dims(&[1, 4, 3, 3]);
        let mut layers = vec![
            format!(
                r#"<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,2,3,3" element_type="f32"/><output><port id="0">{}</port></output></layer>"#,
                dims(&[1, 2, 3, 3])
            ),
            format!(
                r#"<layer id="1" name="w" type="Const" version="opset1"><data element_type="f32" shape="4,2,1,1" offset="0" size="32"/><output><port id="0">{}</port></output></layer>"#,
                dims(&[4, 2, 1, 1])
            ),
            format!(
                r#"<layer id="2" name="conv" type="Convolution" version="opset1"><data strides="1,1" dilations="1,1" pads_begin="0,0" pads_end="0,0" auto_pad="explicit"/><input><port id="0">{}</port><port id="1">{}</port></input><output><port id="2">{out}</port></output></layer>"#,
                dims(&[1, 2, 3, 3]),
                dims(&[4, 2, 1, 1])
            ),
            format!(
                r#"<layer id="3" name="b" type="Const" version="opset1"><data element_type="f32" shape="{}" offset="32" size="{}"/><output><port id="0">{}</port></output></layer>"#,
                shape(bias_shape),
                bias * 4,
                dims(bias_shape)
            ),
            format!(
                r#"<layer id="4" name="add" type="Add" version="opset1"><input><port id="0">{out}</port><port id="1">{}</port></input><output><port id="2">{out}</port></output></layer>"#,
                dims(bias_shape)
            ),
            format!(
                r#"<layer id="5" name="clamp" type="Clamp" version="opset1"><data min="0" max="6"/><input><port id="0">{out}</port></input><output><port id="1">{out}</port></output></layer>"#
            ),
            format!(
                r#"<layer id="6" name="out" type="Result" version="opset1"><input><port id="0">{out}</port></input></layer>"#
            ),
        ];
        let mut edges = vec![
            (0, 0, 2, 0),
            (1, 0, 2, 1),
            (2, 2, 4, 0),
            (3, 0, 4, 1),
            (4, 2, 5, 0),
            (5, 1, 6, 0),
        ];
        if observe {
            layers.push(format!(r#"<layer id="7" name="seen" type="Result" version="opset1"><input><port id="0">{out}</port></input></layer>"#));
            edges.push((2, 2, 7, 0));
        }
        let edges: String = edges
            .iter()
            .map(|(a, p, b, q)| {
                format!(r#"<edge from-layer="{a}" from-port="{p}" to-layer="{b}" to-port="{q}"/>"#)
            })
            .collect();
        let xml = format!(
            r#"<?xml version="1.0"?><net name="t" version="11"><layers>{}</layers><edges>{edges}</edges></net>"#,
            layers.join("")
        );
        (xml, weights)
    }

    /// The plan of a graph, and the op type of each node with a role.
    fn plan(xml: &str, weights: Vec<u8>) -> Vec<(String, String)> {
        plan_as(xml, weights, true)
    }

    /// [`plan`] of a top-level graph (`declared_dims`) or a body.
    fn plan_as(xml: &str, weights: Vec<u8>, declared_dims: bool) -> Vec<(String, String)> {
        let read = ir_xml::read_model_from_str(xml, Some(ir::TensorBytes::from_vec(weights)))
            .expect("well-formed XML");
        let graph = read.graph;
        let count = graph.node_count();
        let mut sources = vec![Vec::new(); count];
        let mut consumers = vec![Vec::new(); count];
        for (id, _) in graph.nodes() {
            sources[id.index()] = graph.input_sources(id).into_iter().flatten().collect();
            consumers[id.index()] = graph.output_consumers(id).iter().map(Vec::len).collect();
        }
        let options = shape_infer::Options {
            check_declared_shapes: false,
            ..shape_infer::Options::default()
        };
        let inference = shape_infer::infer(&graph, &shape_infer::Registry::standard(), &options);
        let order = graph.topological_order().expect("acyclic");
        let plan = Plan::find(&Graphs {
            graph: &graph,
            sources: &sources,
            consumers: &consumers,
            folded: &vec![None; count],
            skipped: &vec![false; count],
            order: &order,
            inference: &inference,
            declared_dims,
        });
        graph
            .nodes()
            .filter_map(|(id, node)| {
                let role = match plan.roles[id.index()].as_ref()? {
                    Role::Fused {
                        epilogue: e,
                        shortcut,
                    } => {
                        let mut role =
                            format!("fused {:?} bias {}", e.activation, e.bias.is_some());
                        if let (Some(side), Some(src)) = (e.shortcut, shortcut) {
                            let name = &graph.node(src.node).name;
                            role.push_str(&format!(" shortcut {name} {side:?}"));
                        }
                        role
                    }
                    Role::Forward(k) => format!("forward {k}"),
                };
                Some((node.name.clone(), role))
            })
            .collect()
    }

    #[test]
    fn a_convolution_takes_its_bias_and_clamp_when_nothing_else_reads_it() {
        let roles = |shape: &[usize], observe: bool| {
            let (xml, weights) = chain_xml(shape, observe);
            plan(&xml, weights)
        };
        let fused = |bias: bool| {
            vec![
                (
                    "conv".to_owned(),
                    format!("fused Clamp {{ lo: 0.0, hi: 6.0 }} bias {bias}"),
                ),
                ("add".to_owned(), "forward 0".to_owned()),
                ("clamp".to_owned(), "forward 0".to_owned()),
            ]
        };
        // Per-channel biases of every rank, and one value for all.
        assert_eq!(roles(&[1, 4, 1, 1], false), fused(true));
        assert_eq!(roles(&[4, 1, 1], false), fused(true));
        assert_eq!(roles(&[1], false), fused(true));
        // Read elsewhere: nothing fused. A bias over the planes: not a
        // per-channel bias, so neither it nor the Clamp after it.
        assert_eq!(roles(&[1, 4, 1, 1], true), vec![]);
        assert_eq!(roles(&[1, 1, 3, 3], false), vec![]);
    }

    /// A net built layer by layer for the plan: each layer has one output
    /// of the dims given (`-1`: dynamic), its ports numbered inputs first.
    #[derive(Default)]
    struct Layers {
        xml: Vec<String>,
        dims: Vec<Vec<i64>>,
        edges: Vec<String>,
        weights: Vec<u8>,
    }

    impl Layers {
        fn add(
            &mut self,
            name: &str,
            op: &str,
            data: &str,
            inputs: &[usize],
            dims: &[i64],
        ) -> usize {
            let id = self.xml.len();
            let port = |d: &[i64]| {
                d.iter()
                    .map(|v| format!("<dim>{v}</dim>"))
                    .collect::<String>()
            };
            let mut xml =
                format!(r#"<layer id="{id}" name="{name}" type="{op}" version="opset1">"#);
            if !data.is_empty() {
                xml.push_str(&format!("<data {data}/>"));
            }
            if !inputs.is_empty() {
                xml.push_str("<input>");
                for (k, &src) in inputs.iter().enumerate() {
                    xml.push_str(&format!(
                        r#"<port id="{k}">{}</port>"#,
                        port(&self.dims[src])
                    ));
                    self.edges.push(format!(
                        r#"<edge from-layer="{src}" from-port="{}" to-layer="{id}" to-port="{k}"/>"#,
                        self.out_port(src)
                    ));
                }
                xml.push_str("</input>");
            }
            if op != "Result" {
                xml.push_str(&format!(
                    r#"<output><port id="{}">{}</port></output>"#,
                    inputs.len(),
                    port(dims)
                ));
            }
            xml.push_str("</layer>");
            self.xml.push(xml);
            self.dims.push(dims.to_vec());
            id
        }

        /// The output port of layer `id` (after its input ports).
        fn out_port(&self, id: usize) -> usize {
            self.xml[id].matches("<port ").count() - 1
        }

        fn param(&mut self, name: &str, dims: &[i64]) -> usize {
            let shape = dims
                .iter()
                .map(|&d| if d < 0 { "?".to_owned() } else { d.to_string() })
                .collect::<Vec<_>>()
                .join(",");
            let data = format!(r#"shape="{shape}" element_type="f32""#);
            self.add(name, "Parameter", &data, &[], dims)
        }

        /// An f32 Const of `dims` (zeros: the plan reads only shapes).
        fn konst(&mut self, name: &str, dims: &[i64]) -> usize {
            let size = dims.iter().product::<i64>() * 4;
            let shape = dims
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(",");
            let data = format!(
                r#"element_type="f32" shape="{shape}" offset="{}" size="{size}""#,
                self.weights.len()
            );
            self.weights.resize(self.weights.len() + size as usize, 0);
            self.add(name, "Const", &data, &[], dims)
        }

        /// A 1x1 Convolution of `x` to `cout` channels of `dims`.
        fn conv(&mut self, name: &str, x: usize, cin: i64, dims: &[i64]) -> usize {
            let w = self.konst(&format!("{name}_w"), &[dims[1], cin, 1, 1]);
            let data = r#"strides="1,1" dilations="1,1" pads_begin="0,0" pads_end="0,0" auto_pad="explicit""#;
            self.add(name, "Convolution", data, &[x, w], dims)
        }

        fn roles(self) -> Vec<(String, String)> {
            self.roles_as(true)
        }

        /// The roles in a top-level graph (`declared_dims`) or a body.
        fn roles_as(self, declared_dims: bool) -> Vec<(String, String)> {
            let xml = format!(
                r#"<?xml version="1.0"?><net name="t" version="11"><layers>{}</layers><edges>{}</edges></net>"#,
                self.xml.concat(),
                self.edges.concat()
            );
            plan_as(&xml, self.weights, declared_dims)
        }
    }

    fn role(name: &str, role: &str) -> (String, String) {
        (name.to_owned(), role.to_owned())
    }

    #[test]
    fn a_convolution_takes_the_residual_add_of_a_shortcut_computed_before_it() {
        let dims = [-1, 4, -1, -1];
        // x + conv(x), then ReLU: the shortcut is the graph's input, on
        // either side of the Add; with a bias Add before the residual one.
        for (left, bias) in [(false, false), (true, false), (false, true)] {
            let mut n = Layers::default();
            let x = n.param("x", &dims);
            let conv = n.conv("conv", x, 4, &dims);
            let mut last = conv;
            if bias {
                let b = n.konst("b", &[1, 4, 1, 1]);
                last = n.add("bias", "Add", "", &[last, b], &dims);
            }
            let inputs = if left { [x, last] } else { [last, x] };
            let add = n.add("add", "Add", "", &inputs, &dims);
            let relu = n.add("relu", "ReLU", "", &[add], &dims);
            n.add("out", "Result", "", &[relu], &[]);
            let side = if left { "Left" } else { "Right" };
            let mut want = vec![role(
                "conv",
                &format!("fused Relu bias {bias} shortcut x {side}"),
            )];
            if bias {
                want.push(role("bias", "forward 0"));
            }
            want.push(role("add", if left { "forward 1" } else { "forward 0" }));
            want.push(role("relu", "forward 0"));
            assert_eq!(n.roles(), want, "left {left} bias {bias}");
        }
    }

    #[test]
    fn of_two_convolutions_into_one_add_the_later_one_takes_it() {
        // A ResNet block with a projection: the block's last convolution
        // runs first, so the projection (run after it) adds its output.
        let dims = [1, 4, 5, 5];
        let mut n = Layers::default();
        let x = n.param("x", &[1, 3, 5, 5]);
        let main = n.conv("main", x, 3, &dims);
        let projection = n.conv("projection", x, 3, &dims);
        let add = n.add("add", "Add", "", &[main, projection], &dims);
        let relu = n.add("relu", "ReLU", "", &[add], &dims);
        n.add("out", "Result", "", &[relu], &[]);
        assert_eq!(
            n.roles(),
            vec![
                role("projection", "fused Relu bias false shortcut main Left"),
                role("add", "forward 1"),
                role("relu", "forward 0"),
            ]
        );
    }

    #[test]
    fn a_shortcut_computed_after_the_convolution_or_broadcast_is_not_added() {
        let dims = [-1, 4, -1, -1];
        // Produced after the convolution (file order): the Add and the ReLU
        // after it run as written.
        let mut n = Layers::default();
        let x = n.param("x", &dims);
        let conv = n.conv("conv", x, 4, &dims);
        let late = n.add("late", "Sigmoid", "", &[x], &dims);
        let add = n.add("add", "Add", "", &[conv, late], &dims);
        let relu = n.add("relu", "ReLU", "", &[add], &dims);
        n.add("out", "Result", "", &[relu], &[]);
        assert_eq!(n.roles(), vec![]);
        // A shortcut that broadcasts ([N, 4, 1, 1], a run-time tensor), and
        // one of another Parameter's dims: equal shapes are not known.
        for other in [[-1, 4, 1, 1], [-1, 4, -1, -1]] {
            let mut n = Layers::default();
            let x = n.param("x", &dims);
            let y = n.param("y", &other);
            let conv = n.conv("conv", x, 4, &dims);
            let add = n.add("add", "Add", "", &[conv, y], &dims);
            n.add("out", "Result", "", &[add], &[]);
            assert_eq!(n.roles(), vec![], "shortcut {other:?}");
        }
        // In a body, whose Parameters take the shapes its layer feeds them:
        // the shapes equal at the declared dims may not be at a run's.
        let residual = || {
            let mut n = Layers::default();
            let x = n.param("x", &dims);
            let conv = n.conv("conv", x, 4, &dims);
            let add = n.add("add", "Add", "", &[conv, x], &dims);
            n.add("out", "Result", "", &[add], &[]);
            n
        };
        assert_eq!(residual().roles_as(false), vec![]);
        assert_eq!(residual().roles_as(true).len(), 2, "fused at top level");
        // `auto_broadcast="pdpd"`: not taken, though the shapes are equal.
        let mut n = Layers::default();
        let x = n.param("x", &dims);
        let conv = n.conv("conv", x, 4, &dims);
        let add = n.add("add", "Add", r#"auto_broadcast="pdpd""#, &[conv, x], &dims);
        n.add("out", "Result", "", &[add], &[]);
        assert_eq!(n.roles(), vec![]);
    }
}
