//! Fusion of a convolution's bias and activation into its output pass.
//!
//! OpenVINO's converters leave a convolution as `Convolution → Add(bias) →
//! Clamp/ReLU`, and run unfused each step would read and write the whole
//! output again. When the executor is made, [`Plan::new`] finds every f32
//! Convolution or GroupConvolution whose only consumer is an Add of a
//! per-channel constant (the bias) and/or a Clamp or ReLU (the Add's only
//! consumer, when there is an Add): the convolution then runs the bias and
//! the activation on each output tile right after its sums, while the tile
//! is in cache ([`Epilogue`]), and the Add and the activation pass its
//! output through unchanged. The values are bit-identical to the unfused
//! run's: each output is `act(sum + bias)` in f32, the same two roundings
//! in the same order as the Add and the activation kernels.
//!
//! `OVIR_NO_FUSION` set when the executor is made turns fusion off (to
//! measure its gain, or to rule it out).

use std::sync::Arc;

use ir::{ElementType, Graph, NodeId, Op, OutputRef};

use crate::gemm::Scalar;
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

/// What a fused convolution does to each output after its sum: add its
/// channel's bias, then the activation.
#[derive(Clone, Debug)]
pub(crate) struct Epilogue<T> {
    /// One value per output channel (all of them, across groups).
    pub bias: Option<Vec<T>>,
    pub activation: Activation<T>,
}

impl<T: Scalar> Epilogue<T> {
    /// Whether the bias has one value per channel of `channels`.
    pub fn fits(&self, channels: usize) -> bool {
        self.bias.as_ref().is_none_or(|b| b.len() == channels)
    }

    /// Runs on `values`, outputs of output channel `channel` (below the
    /// channels [`Epilogue::fits`] checked).
    pub fn apply(&self, channel: usize, values: &mut [T]) {
        let bias = self.bias.as_ref().map(|b| b[channel]);
        finish(values, bias, self.activation);
    }
}

/// `v = act(v + bias)` (or `act(v)`) over `values`, one branchless loop
/// per case. Compiled for AVX-512 and AVX2 too (chosen at run time): the
/// default target vectorizes 4 lanes wide only.
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512cd+avx512dq+avx512vl",
    "x86_64+avx2+fma",
))]
fn finish<T: Scalar>(values: &mut [T], bias: Option<T>, activation: Activation<T>) {
    match activation {
        Activation::Identity => each(values, bias, |v| v),
        Activation::Relu => each(values, bias, |v| {
            if v.is_nan() || v > T::ZERO {
                v
            } else {
                T::ZERO
            }
        }),
        Activation::Clamp { lo, hi } => each(values, bias, move |v| {
            let v = if v < lo { lo } else { v };
            if v > hi {
                hi
            } else {
                v
            }
        }),
    }
}

/// `v = f(v + bias)` (or `f(v)`) over `values`: one branchless loop each.
#[inline(always)]
fn each<T: Scalar>(values: &mut [T], bias: Option<T>, f: impl Fn(T) -> T) {
    match bias {
        Some(b) => values.iter_mut().for_each(|v| *v = f(*v + b)),
        None => values.iter_mut().for_each(|v| *v = f(*v)),
    }
}

/// What a node does in a fused run.
#[derive(Clone, Debug)]
enum Role {
    /// A convolution that runs its consumers' bias and activation.
    Fused(Arc<Epilogue<f32>>),
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
/// load time, and the nodes runs skip.
pub(crate) struct Graphs<'a> {
    pub graph: &'a Graph,
    pub sources: &'a [Vec<OutputRef>],
    pub consumers: &'a [Vec<usize>],
    pub folded: &'a [Option<Vec<Tensor>>],
    pub skipped: &'a [bool],
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
        let mut roles = vec![None; g.graph.node_count()];
        let ids: Vec<NodeId> = g.graph.nodes().map(|(id, _)| id).collect();
        for id in ids {
            if let Some((epilogue, forwarded)) = chain(g, id) {
                roles[id.index()] = Some(Role::Fused(Arc::new(epilogue)));
                for (node, input) in forwarded {
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

    /// Runs node `id` of the plan: a fused convolution, or a node passing
    /// its input through.
    pub fn run(&self, id: NodeId, call: &Call<'_>) -> KResult<Vec<Tensor>> {
        match self.roles.get(id.index()).and_then(Option::as_ref) {
            Some(Role::Fused(epilogue)) => kernels::convolution::run_fused(call, epilogue),
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

/// The nodes a fused convolution takes over, each with the input it passes
/// through.
type Forwarded = Vec<(NodeId, usize)>;

/// The epilogue of convolution `id` and the nodes it takes over, if `id` is
/// a fusable convolution.
fn chain(g: &Graphs<'_>, id: NodeId) -> Option<(Epilogue<f32>, Forwarded)> {
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
    if let Some((add, input)) = next.filter(|&(n, _)| g.graph.node(n).op_type.name == "Add") {
        if !runs(add) || input > 1 {
            return None;
        }
        bias = Some(bias_values(g, add, 1 - input, channels, rank)?);
        forwarded.push((add, input));
        next = only_consumer(g, add);
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
    Some((Epilogue { bias, activation }, forwarded))
}

/// The per-channel values of input `input` of Add `add`, when it is a
/// constant f32 bias for `channels` output channels of a convolution whose
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
    let node = g.graph.node(add);
    let broadcast = node.attributes.get("auto_broadcast").map(str::trim);
    if !matches!(broadcast, None | Some("numpy")) {
        return None;
    }
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
        let plan = Plan::find(&Graphs {
            graph: &graph,
            sources: &sources,
            consumers: &consumers,
            folded: &vec![None; count],
            skipped: &vec![false; count],
        });
        graph
            .nodes()
            .filter_map(|(id, node)| {
                let role = match plan.roles[id.index()].as_ref()? {
                    Role::Fused(e) => format!("fused {:?} bias {}", e.activation, e.bias.is_some()),
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
}
