//! The executor: bind inputs, re-infer shapes from them, run the kernels in
//! topological order, free intermediates after their last consumer.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, PoisonError};

use ir::{ElementType, Graph, Node, NodeId, Op, OutputRef, Shape, SymbolId};
use shape_infer::ops::read_value::variable_id;
use shape_infer::ops::support::{MAX_REAL_VALUE_ELEMENTS, MAX_VALUE_ELEMENTS};
use shape_infer::overrides::find_parameter;
use shape_infer::{infer, infer_node, Inference, NodeOutcome, Options, Registry, TensorInfo};
use symdim::{Expr, SymbolTable};

use crate::compressed::{self, CompressedWeights};
use crate::error::ExecError;
use crate::gemm;
use crate::kernels::winograd::Prepared;
use crate::kernels::{self, Call, KernelFn, OutSpec};
use crate::pool;
use crate::precision::Precision;
use crate::state::State;
use crate::tensor::{byte_size, element_width, limit_tensors, Tensor, MAX_TENSOR_BYTES};

/// How much memory a run may take. Sizes written in a file (a Const-fed
/// Broadcast or Range target) can ask for any size, so each layer's outputs
/// are checked against these before its kernel allocates them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest tensor a kernel may create, in bytes (at most
    /// [`MAX_TENSOR_BYTES`]). Kernels' scratch space is checked against it too.
    pub max_tensor_bytes: u64,
    /// The most bytes the buffers kernels allocated may hold at once
    /// (intermediates not yet freed, and the Results). The inputs and the
    /// Consts (views of the weights) are not counted.
    pub max_live_bytes: u64,
    /// The most iterations one Loop or TensorIterator layer may run in a
    /// run: a Loop's trip count comes from the file or the data (`-1` runs
    /// until the body's condition says stop), and an iteration that
    /// allocates nothing would not meet the memory limits.
    pub max_iterations: u64,
}

impl Limits {
    /// The error of `node`, whose `what` would need `needed` bytes: past
    /// the live-bytes limit (`live`) or the per-tensor one.
    pub(crate) fn exceeded(&self, node: &Node, what: String, needed: u64, live: bool) -> ExecError {
        ExecError::MemoryLimit {
            layer: node.name.clone(),
            op: node.op_type.name.clone(),
            what,
            needed,
            limit: if live {
                self.max_live_bytes
            } else {
                self.max_tensor_bytes
            },
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_tensor_bytes: MAX_TENSOR_BYTES,
            max_live_bytes: 4 * MAX_TENSOR_BYTES,
            max_iterations: MAX_ITERATIONS,
        }
    }
}

/// The default [`Limits::max_iterations`].
pub const MAX_ITERATIONS: u64 = 1 << 20;

/// A graph prepared for running on the CPU.
pub struct Executor {
    graph: Graph,
    registry: Registry,
    order: Vec<NodeId>,
    /// Per node, the producer of each input.
    sources: Vec<Vec<OutputRef>>,
    /// Per node, the number of consumers of each output.
    consumers: Vec<Vec<usize>>,
    /// Per node, the index of its first output among all nodes' outputs
    /// (then one past the last): a run's values are an array.
    slot_base: Vec<usize>,
    /// Per node, its kernel (`None` for Parameters).
    kernels: Vec<Option<KernelFn>>,
    /// Per node, its outputs when they follow from constants alone
    /// (OpenVINO's decompression `Convert` of f16 or int8 weights, and the
    /// `Subtract`/`Multiply` of a zero point and scale): computed once, here,
    /// as OpenVINO folds them when it compiles a model.
    folded: Vec<Option<Vec<Tensor>>>,
    /// Per MatMul, its right operand held compressed, and per Gather, its
    /// data (`crate::compressed`).
    compressed: Vec<Option<Arc<CompressedWeights>>>,
    /// Per Convolution and GroupConvolution whose weights are constant (a
    /// Const, or folded above), the slot its Winograd filters are kept in
    /// from its first Winograd run on (`kernels::winograd`).
    winograd: Vec<Option<Prepared>>,
    /// Per node, whether runs skip it: a compressed product holds what it
    /// computes, or only folded nodes read it.
    skipped: Vec<bool>,
    /// Per node with bodies (If, Loop, TensorIterator), an executor per
    /// body, in the order of the node's bodies.
    bodies: Vec<Vec<Executor>>,
    /// Whether inputs are checked against the Parameters' declared rank and
    /// dims: not in a body, whose Parameters take the shapes the op gives
    /// them (as OpenVINO sets a body Parameter's shape from the op's input).
    declared_dims: bool,
    limits: Limits,
    /// Freed intermediates' buffers kept from one run for the next.
    spare: pool::Spare,
    /// The last re-inference and the Parameter types and dims it was for:
    /// the inference follows from them alone (the graph does not change),
    /// and a model is mostly run again at the shapes of its last run (a
    /// benchmark's repeats, a Loop or TensorIterator iteration feeding its
    /// body the shapes of the iteration before).
    last_bound: Mutex<Option<(BoundShapes, Arc<Inference>)>>,
    /// Per-layer timing ([`Executor::with_profiling`]), of the top-level
    /// graph only.
    profile: Option<crate::profile::Recorder>,
    /// Convolutions that run their bias Add and activation (`crate::fusion`).
    fusion: crate::fusion::Plan,
}

/// Per Parameter, the element type and dims a run binds it to.
type BoundShapes = Vec<(NodeId, ElementType, Vec<usize>)>;

fn is_half(t: ElementType) -> bool {
    matches!(t, ElementType::F16 | ElementType::BF16)
}

/// A folded f16 node's inputs: its f16 and bf16 inputs (constants, or the
/// f32 values of earlier folded nodes) in f32, so that it computes in f32.
fn widen_halves(inputs: Vec<Tensor>, widen: bool) -> Result<Vec<Tensor>, ExecError> {
    if !widen {
        return Ok(inputs);
    }
    inputs
        .into_iter()
        .map(|t| {
            if is_half(t.element_type) {
                kernels::convert::convert(&t, ElementType::F32)
            } else {
                Ok(t)
            }
        })
        .collect()
}

/// The ops whose outputs are folded when all their inputs are constants.
const FOLDED_OPS: &[&str] = &[
    "Convert",
    "Subtract",
    "Multiply",
    "Add",
    "Reshape",
    "Unsqueeze",
    "Squeeze",
    "Transpose",
];

impl std::fmt::Debug for Executor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Executor({} nodes)", self.order.len())
    }
}

fn available(graph: &Graph) -> String {
    graph
        .parameters()
        .map(|(_, n)| format!("`{}`", n.name))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Executor {
    /// Checks the graph's structure and that every op has a kernel; runs
    /// compute f16 values as OpenVINO's CPU plugin does
    /// ([`Precision::Plugin`]).
    pub fn new(graph: &Graph) -> Result<Executor, ExecError> {
        Executor::with_precision(graph, Precision::default())
    }

    /// [`Executor::new`] with the f16 values computed as `precision` says
    /// (`crate::precision` rewrites the graph before it is planned).
    pub fn with_precision(graph: &Graph, precision: Precision) -> Result<Executor, ExecError> {
        match crate::precision::plan(graph, precision) {
            Some(rewritten) => Executor::prepare(&rewritten, true),
            None => Executor::prepare(graph, true),
        }
    }

    /// An executor for a body of a layer of `outer`: the body's shapes name
    /// the symbols of the top-level graph, whose table `outer` holds.
    fn for_body(body: &Graph, outer: &Graph) -> Result<Executor, ExecError> {
        let mut graph = body.clone();
        graph.symbols = outer.symbols.clone();
        Executor::prepare(&graph, false)
    }

    fn prepare(graph: &Graph, declared_dims: bool) -> Result<Executor, ExecError> {
        let diagnostics = shape_infer::validate::validate(graph);
        if diagnostics.iter().any(ir::Diagnostic::is_error) {
            return Err(ExecError::InvalidGraph(diagnostics));
        }
        let order = graph.topological_order().map_err(|_| {
            ExecError::InvalidGraph(vec![ir::Diagnostic::error(
                "graph-cycle",
                "the graph has a cycle",
            )])
        })?;
        let mut sources = vec![Vec::new(); graph.node_count()];
        let mut consumers = vec![Vec::new(); graph.node_count()];
        let mut kernels = vec![None; graph.node_count()];
        let mut bodies: Vec<Vec<Executor>> = (0..graph.node_count()).map(|_| Vec::new()).collect();
        for &id in &order {
            let node = graph.node(id);
            let mut inputs = Vec::new();
            for (i, s) in graph.input_sources(id).into_iter().enumerate() {
                match s.as_slice() {
                    [one] => inputs.push(*one),
                    _ => {
                        return Err(ExecError::InvalidGraph(vec![ir::Diagnostic::error(
                            "input-feed",
                            format!("layer `{}` input {i} is not fed exactly once", node.name),
                        )]))
                    }
                }
            }
            sources[id.index()] = inputs;
            consumers[id.index()] = graph.output_consumers(id).iter().map(Vec::len).collect();
            if let Op::SubGraph(sub) = &node.op {
                // Bodies nest: each is prepared (and checked) as a graph.
                bodies[id.index()] = sub
                    .bodies
                    .iter()
                    .map(|b| {
                        Executor::for_body(&b.graph, graph)
                            .map_err(|e| crate::kernels::bodies::in_body(node, b.role, None, e))
                    })
                    .collect::<Result<_, _>>()?;
                if crate::kernels::bodies::kernel(&node.op_type.name).is_none() {
                    return Err(ExecError::NoKernel {
                        op: format!("{}-{}", node.op_type.name, node.op_type.version),
                        layer: node.name.clone(),
                    });
                }
            } else if !matches!(node.op, Op::Parameter { .. }) {
                kernels[id.index()] =
                    Some(kernels::kernel(&node.op_type.name).ok_or_else(|| {
                        ExecError::NoKernel {
                            op: format!("{}-{}", node.op_type.name, node.op_type.version),
                            layer: node.name.clone(),
                        }
                    })?);
            }
        }
        let slot_base = std::iter::once(0)
            .chain(consumers.iter().scan(0, |total, outputs: &Vec<usize>| {
                *total += outputs.len();
                Some(*total)
            }))
            .collect();
        let mut executor = Executor {
            graph: graph.clone(),
            registry: Registry::standard(),
            order,
            sources,
            consumers,
            slot_base,
            kernels,
            folded: vec![None; graph.node_count()],
            compressed: vec![None; graph.node_count()],
            winograd: Vec::new(),
            skipped: vec![false; graph.node_count()],
            bodies,
            declared_dims,
            limits: Limits::default(),
            spare: pool::Spare::default(),
            last_bound: Mutex::new(None),
            profile: None,
            fusion: crate::fusion::Plan::default(),
        };
        let inference = executor.fold_constants();
        executor.winograd = executor.winograd_slots();
        executor.fusion = crate::fusion::Plan::new(&crate::fusion::Graphs {
            graph: &executor.graph,
            sources: &executor.sources,
            consumers: &executor.consumers,
            folded: &executor.folded,
            skipped: &executor.skipped,
            order: &executor.order,
            inference: &inference,
            declared_dims,
        });
        Ok(executor)
    }

    /// Computes the outputs of the [`FOLDED_OPS`] nodes fed by constants
    /// only (directly or through other folded nodes). A node whose shapes are
    /// not all static, or whose kernel fails, is left to the runs (which then
    /// report the failure with the run's context).
    ///
    /// A folded node the IR types f16 or bf16 is computed in f32, and its
    /// f32 values feed the folded nodes after it: compressed weights'
    /// decompression (`Convert` of u4 to f16, `Subtract` of an f16 zero
    /// point, `Multiply` by an f16 scale, `Convert` to f32) is exact in f32
    /// as OpenVINO's CPU plugin computes it, not rounded to f16 at each step.
    /// A node that is not folded and reads such a value gets it rounded to
    /// the type the IR gives it.
    ///
    /// Memory: a folded node whose consumers are all folded too is not kept
    /// (nor run): only the values runs read stay, so a decompression chain
    /// holds its last step, not every step. A MatMul by compressed weights,
    /// or a Gather from them (`crate::compressed`), keeps them compressed
    /// and its chain is not run.
    ///
    /// Returns the inference at the graph's own Parameter shapes it folded
    /// by (the fusion plan reads it too).
    fn fold_constants(&mut self) -> Inference {
        let options = shape_infer::Options {
            check_declared_shapes: false,
            ..shape_infer::Options::default()
        };
        let inference = shape_infer::infer(&self.graph, &self.registry, &options);
        let count = self.graph.node_count();
        let mut plans: HashMap<NodeId, compressed::Plan> = HashMap::new();
        // The chains' inputs (weights, zero points, scales) stay until
        // their MatMul takes them.
        let mut pinned = vec![false; count];
        for plan in compressed::find(&self.graph, &self.sources, &self.consumers, &inference) {
            for id in &plan.chain {
                self.skipped[id.index()] = true;
                self.sources[id.index()]
                    .iter()
                    .for_each(|src| pinned[src.node.index()] = true);
            }
            plans.insert(plan.consumer, plan);
        }
        let mut constant: Vec<Option<Vec<Tensor>>> = vec![None; count];
        let mut unvisited: Vec<usize> = self.consumers.iter().map(|c| c.iter().sum()).collect();
        let mut read_by_runs = vec![false; count];
        for id in self.order.clone() {
            let folded = !self.skipped[id.index()] && self.fold_node(id, &inference, &mut constant);
            if let Some(plan) = plans.remove(&id) {
                match plan.weights(&constant) {
                    Some(w) => self.compressed[id.index()] = Some(w),
                    // Not constant after all: the chain runs as written.
                    None => plan
                        .chain
                        .iter()
                        .for_each(|c| self.skipped[c.index()] = false),
                }
            }
            if self.graph.node(id).op_type.name == "MatMul" {
                self.align_weights(id, &mut constant);
            }
            let reads_at_run_time = !folded && !self.skipped[id.index()];
            for i in 0..self.sources[id.index()].len() {
                let s = self.sources[id.index()][i].node.index();
                read_by_runs[s] |= reads_at_run_time;
                unvisited[s] = unvisited[s].saturating_sub(1);
                if unvisited[s] == 0 && !read_by_runs[s] && !pinned[s] && self.folded[s].is_some() {
                    self.folded[s] = None;
                    constant[s] = None;
                    self.skipped[s] = true;
                }
            }
        }
        inference
    }

    /// A Winograd filter slot for each Convolution and GroupConvolution
    /// whose weights (input 1) are a Const or a folded value: the same
    /// values every run, so their transform can be kept with the node.
    fn winograd_slots(&self) -> Vec<Option<Prepared>> {
        let mut slots: Vec<Option<Prepared>> = (0..self.graph.node_count()).map(|_| None).collect();
        for (id, node) in self.graph.nodes() {
            if !matches!(
                node.op_type.name.as_str(),
                "Convolution" | "GroupConvolution"
            ) {
                continue;
            }
            let Some(weights) = self.sources[id.index()].get(1).map(|w| w.node) else {
                continue;
            };
            if matches!(self.graph.node(weights).op, Op::Constant { .. })
                || self.folded[weights.index()].is_some()
            {
                slots[id.index()] = Some(Prepared::default());
            }
        }
        slots
    }

    /// Copies a MatMul's misaligned f32 constant operands once, into memory
    /// the GEMM reads in place (`gemm::aligned_weights`); runs then serve
    /// the copy as the Const's output.
    fn align_weights(&mut self, id: NodeId, constant: &mut [Option<Vec<Tensor>>]) {
        for i in 0..self.sources[id.index()].len() {
            let src = self.sources[id.index()][i].node;
            if !matches!(self.graph.node(src).op, Op::Constant { .. }) {
                continue;
            }
            let aligned = constant[src.index()]
                .as_ref()
                .and_then(|out| out.first())
                .and_then(gemm::aligned_weights);
            if let Some(t) = aligned {
                if let Some(original) = constant[src.index()].as_ref().and_then(|c| c.first()) {
                    gemm::release_pages(original.bytes());
                }
                constant[src.index()] = Some(vec![t.clone()]);
                self.folded[src.index()] = Some(vec![t]);
            }
        }
    }

    /// Folds one node if it is a [`FOLDED_OPS`] node (or a Constant) fed by
    /// constants; returns whether it was.
    fn fold_node(
        &mut self,
        id: NodeId,
        inference: &Inference,
        constant: &mut [Option<Vec<Tensor>>],
    ) -> bool {
        let node = self.graph.node(id);
        let is_const = matches!(node.op, Op::Constant { .. });
        if !is_const && !FOLDED_OPS.contains(&node.op_type.name.as_str()) {
            return false;
        }
        let inputs: Option<Vec<Tensor>> = self.sources[id.index()]
            .iter()
            .map(|src| {
                constant[src.node.index()]
                    .as_ref()?
                    .get(src.output)
                    .cloned()
            })
            .collect();
        let (Some(inputs), Some(kernel)) = (inputs, self.kernels[id.index()]) else {
            return false;
        };
        let NodeOutcome::Inferred(infos) = inference.outcome(id) else {
            return false;
        };
        let specs: Option<Vec<OutSpec>> = infos
            .iter()
            .map(|info| {
                Some(OutSpec {
                    element_type: info.element_type,
                    shape: eval_shape(&info.shape, &HashMap::new())?.into(),
                    used: true,
                })
            })
            .collect();
        let Some(mut specs) = specs else {
            return false;
        };
        let widened = !is_const && specs.iter().all(|s| is_half(s.element_type));
        if widened {
            specs
                .iter_mut()
                .for_each(|s| s.element_type = ElementType::F32);
        }
        let Ok(inputs) = widen_halves(inputs, widened) else {
            return false;
        };
        let call = Call {
            node,
            inputs: &inputs,
            outputs: &specs,
        };
        let Ok(outputs) = kernel(&call) else {
            return false;
        };
        if !is_const {
            let typed: Result<Vec<Tensor>, _> = outputs
                .iter()
                .zip(infos)
                .map(|(t, info)| kernels::convert::convert(t, info.element_type))
                .collect();
            let Ok(typed) = typed else {
                return false;
            };
            self.folded[id.index()] = Some(typed);
        }
        constant[id.index()] = Some(outputs);
        !is_const
    }

    /// The same executor with other memory limits.
    pub fn with_limits(mut self, limits: Limits) -> Executor {
        self.set_limits(limits);
        self
    }

    fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
        for body in self.bodies.iter_mut().flatten() {
            body.set_limits(limits);
        }
    }

    /// The same executor timing every kernel call of its runs from now on,
    /// per layer (a layer with bodies as a whole), for
    /// [`Executor::profile`]. Nothing is printed.
    pub fn with_profiling(mut self) -> Executor {
        self.profile = Some(crate::profile::Recorder::default());
        self
    }

    /// The per-layer timing of the runs so far, `None` unless made
    /// [`Executor::with_profiling`].
    pub fn profile(&self) -> Option<crate::Profile> {
        self.profile.as_ref().map(crate::profile::Recorder::profile)
    }

    /// How many times this executor's convolutions have transformed their
    /// filters for a Winograd run and kept the result (bodies included): a
    /// layer with constant weights once per Winograd tile it ran by, at its
    /// first such run; filters a run computes are transformed per call and
    /// not counted.
    pub fn filter_transforms(&self) -> usize {
        self.sum_over_winograd_slots(Prepared::transforms)
    }

    /// The bytes of transformed Winograd filters this executor holds
    /// (bodies included), freed with it.
    pub fn prepared_filter_bytes(&self) -> usize {
        self.sum_over_winograd_slots(Prepared::bytes)
    }

    /// The sum of `count` over the Winograd slots of this executor and of
    /// its bodies' executors.
    fn sum_over_winograd_slots(&self, count: fn(&Prepared) -> usize) -> usize {
        let own: usize = self.winograd.iter().flatten().map(count).sum();
        let bodies: usize = self
            .bodies
            .iter()
            .flatten()
            .map(|body| body.sum_over_winograd_slots(count))
            .sum();
        own + bodies
    }

    /// The memory limits of a run.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The graph it runs: the model's, with the Converts the precision
    /// policy inserted (`crate::precision`).
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// Runs the graph on `inputs` (keyed by Parameter layer name or output
    /// tensor name) and returns each Result's tensor keyed by the Result's
    /// layer name.
    ///
    /// A stateful model's variables (ReadValue, Assign) start from their
    /// initial values, as on a first run; [`Executor::run_with_state`]
    /// keeps them from one run to the next.
    pub fn run(
        &self,
        inputs: HashMap<String, Tensor>,
    ) -> Result<HashMap<String, Tensor>, ExecError> {
        self.run_with_state(inputs, &mut State::new())
    }

    /// Runs the graph as [`Executor::run`] does, its ReadValue layers
    /// reading the variables' values in `state` (their initial values where
    /// it has none) and its Assign layers' values replacing them when the
    /// run succeeds (a failed run leaves `state` as it was).
    pub fn run_with_state(
        &self,
        inputs: HashMap<String, Tensor>,
        state: &mut State,
    ) -> Result<HashMap<String, Tensor>, ExecError> {
        // First, so the other workers are awake by the first split layer.
        let _awake = crate::parallel::KeepAwake::new();
        let _limit = limit_tensors(self.limits.max_tensor_bytes);
        let _pool = pool::during_run(&self.spare);
        let given = self.by_parameter(inputs)?;
        let (bound, inference) = self.bind(given)?;
        let mut variables = Variables {
            current: state,
            written: BTreeMap::new(),
        };
        let results = self.execute(bound, &inference, 0, &mut variables)?;
        let written = variables.written;
        state.commit(written);
        Ok(results
            .into_iter()
            .map(|(id, t)| (self.graph.node(id).name.clone(), t))
            .collect())
    }

    /// Runs a body on `inputs` (keyed by body Parameter) inside the run of
    /// its layer, whose limits and pool of buffers it shares; `held` bytes
    /// are already live outside the body. Returns each Result's tensor.
    pub(crate) fn run_body(
        &self,
        inputs: HashMap<NodeId, Tensor>,
        held: u64,
    ) -> Result<HashMap<NodeId, Tensor>, ExecError> {
        let given = inputs
            .into_iter()
            .map(|(id, t)| (id, (self.graph.node(id).name.clone(), t)))
            .collect();
        let (bound, inference) = self.bind(given)?;
        // Variables in a body start from their initial values on each run
        // of it, and what its Assigns write is not kept.
        let empty = State::new();
        let mut variables = Variables {
            current: &empty,
            written: BTreeMap::new(),
        };
        self.execute(bound, &inference, held, &mut variables)
    }

    /// The ids of the variables the graph's ReadValue layers read, sorted.
    pub fn variables(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .graph
            .nodes()
            .filter(|(_, n)| n.op_type.name == "ReadValue")
            .filter_map(|(_, n)| variable_id(n).ok().map(str::to_owned))
            .collect();
        ids.sort();
        ids.dedup();
        ids
    }

    /// The inputs keyed by the Parameter they name.
    fn by_parameter(
        &self,
        inputs: HashMap<String, Tensor>,
    ) -> Result<HashMap<NodeId, (String, Tensor)>, ExecError> {
        let graph = &self.graph;
        let mut given: HashMap<NodeId, (String, Tensor)> = HashMap::new();
        let mut names: Vec<_> = inputs.into_iter().collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, tensor) in names {
            let id = find_parameter(graph, &name).ok_or_else(|| ExecError::UnknownInput {
                name: name.clone(),
                available: available(graph),
            })?;
            if let Some((first, _)) = given.get(&id) {
                return Err(ExecError::DuplicateInput {
                    name: graph.node(id).name.clone(),
                    first: first.clone(),
                    second: name,
                });
            }
            given.insert(id, (name, tensor));
        }
        Ok(given)
    }

    /// Checks the inputs against the Parameters and re-infers every shape
    /// with the Parameters' shapes bound to the inputs'.
    fn bind(
        &self,
        mut given: HashMap<NodeId, (String, Tensor)>,
    ) -> Result<(HashMap<NodeId, Tensor>, Arc<Inference>), ExecError> {
        let graph = &self.graph;
        let mut symbols: HashMap<SymbolId, (i64, String)> = HashMap::new();
        let mut deferred = Vec::new();
        let mut bound = HashMap::new();
        let mut shapes: BoundShapes = Vec::new();
        for (id, node) in graph.parameters() {
            let Some((name, tensor)) = given.remove(&id) else {
                return Err(ExecError::MissingInput {
                    name: node.name.clone(),
                    available: available(graph),
                });
            };
            let Op::Parameter {
                element_type,
                shape,
            } = &node.op
            else {
                continue;
            };
            // The `.npy` convention for types numpy has no dtype for: their
            // raw codes (u8, bf16's bits as u16).
            let tensor = match crate::npy::from_raw_codes(&tensor, *element_type) {
                Some(decoded) => decoded.map_err(|e| {
                    ExecError::InvalidTensor(format!("input `{name}` for {element_type}: {e}"))
                })?,
                None => tensor,
            };
            if element_type.is_static() && tensor.element_type != *element_type {
                return Err(ExecError::InputType {
                    name,
                    expected: *element_type,
                    actual: tensor.element_type,
                });
            }
            // `Tensor`'s fields are public: its bytes need not match its shape.
            let expected = if tensor.element_type == ElementType::String {
                // The packed layout's own checks.
                Tensor::new(
                    ElementType::String,
                    tensor.shape.clone(),
                    tensor.data.clone(),
                )
                .map(|t| t.data.len())
                .ok()
            } else {
                Some(byte_size(tensor.element_type, &tensor.shape)?)
            };
            if expected != Some(tensor.data.len()) {
                return Err(ExecError::InvalidTensor(format!(
                    "input `{name}`: {} {:?} does not match its {} bytes",
                    tensor.element_type,
                    tensor.shape,
                    tensor.data.len()
                )));
            }
            if let Some(dims) = shape.dims().filter(|_| self.declared_dims) {
                if dims.len() != tensor.shape.len() {
                    return Err(ExecError::InputRank {
                        name,
                        expected: dims.len(),
                        actual: tensor.shape.len(),
                    });
                }
                for (axis, (dim, &actual)) in dims.iter().zip(&tensor.shape).enumerate() {
                    let value = i64::try_from(actual).unwrap_or(i64::MAX);
                    let mismatch = |expected: String| ExecError::InputDim {
                        name: name.clone(),
                        axis,
                        expected,
                        actual,
                    };
                    let shown = graph.symbols.display(dim).to_string();
                    if let Some(c) = dim.as_constant() {
                        if c != value {
                            return Err(mismatch(c.to_string()));
                        }
                    } else if let Some(s) = dim.as_symbol() {
                        let range = graph.symbols.range(s);
                        if !range.contains(value) {
                            return Err(mismatch(format!("{shown} in {}", show_range(&range))));
                        }
                        match symbols.get(&s) {
                            Some((v, by)) if *v != value => {
                                return Err(mismatch(format!(
                                    "{shown} = {v} (bound by input `{by}`)"
                                )))
                            }
                            Some(_) => {}
                            None => {
                                symbols.insert(s, (value, name.clone()));
                            }
                        }
                    } else {
                        deferred.push((name.clone(), axis, dim.clone(), actual));
                    }
                }
            }
            shapes.push((id, tensor.element_type, tensor.shape.clone()));
            bound.insert(id, tensor);
        }
        for (name, axis, dim, actual) in deferred {
            let shown = graph.symbols.display(&dim).to_string();
            let ok = match dim.eval(&|s| symbols.get(&s).map(|(v, _)| *v)) {
                Ok(v) => v == actual as i64,
                Err(_) => graph
                    .symbols
                    .bounds(&dim)
                    .map_or(true, |r| r.contains(actual as i64)),
            };
            if !ok {
                return Err(ExecError::InputDim {
                    name,
                    axis,
                    expected: shown,
                    actual,
                });
            }
        }
        Ok((bound, self.infer_bound(shapes)?))
    }

    /// Every shape re-inferred with the Parameters bound to `shapes`. The
    /// last inference is kept and reused while the shapes stay the same: a
    /// repeated run of ResNet-50 spent about 0.45 ms re-inferring its 182
    /// layers (a run at other shapes infers again and replaces it).
    fn infer_bound(&self, shapes: BoundShapes) -> Result<Arc<Inference>, ExecError> {
        {
            let last = self
                .last_bound
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if let Some((_, inference)) = last.as_ref().filter(|(seen, _)| *seen == shapes) {
                return Ok(Arc::clone(inference));
            }
        }
        let mut rebound = self.graph.clone();
        for (id, bound_type, dims) in &shapes {
            if let Op::Parameter {
                element_type,
                shape,
            } = &mut rebound.node_mut(*id).op
            {
                *element_type = *bound_type;
                **shape = Shape::ranked(dims.iter().map(|&d| Expr::constant(d as i64)));
            }
        }
        let options = Options {
            allow_unknown_ops: false,
            check_declared_shapes: false,
            ..Options::default()
        };
        let inference = infer(&rebound, &self.registry, &options);
        if inference.has_errors() {
            return Err(ExecError::Inference(inference.diagnostics));
        }
        let inference = Arc::new(inference);
        *self
            .last_bound
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some((shapes, Arc::clone(&inference)));
        Ok(inference)
    }

    /// Runs the kernels; `held` bytes are live before the first (a body's
    /// run counts what its layer's run holds).
    fn execute(
        &self,
        mut bound: HashMap<NodeId, Tensor>,
        inference: &Inference,
        held: u64,
        variables: &mut Variables<'_>,
    ) -> Result<HashMap<NodeId, Tensor>, ExecError> {
        let mut values = Slots::new(&self.slot_base);
        let mut bindings: HashMap<SymbolId, i64> = HashMap::new();
        let mut results = HashMap::new();
        let mut live = Live {
            total: held,
            ..Live::default()
        };
        for &id in &self.order {
            if self.skipped[id.index()] {
                continue;
            }
            let node = self.graph.node(id);
            let infos = match inference.outcome(id) {
                NodeOutcome::Inferred(t) => t,
                NodeOutcome::Declared(_) => {
                    return Err(ExecError::Inference(vec![ir::Diagnostic::error(
                        "shape-unknown",
                        "shape inference could not infer this layer's outputs",
                    )
                    .at_layer(node.layer_ref(), node.location)]))
                }
            };
            let consumers = &self.consumers[id.index()];
            let mut specs: Vec<OutSpec> = infos
                .iter()
                .enumerate()
                .map(|(k, info)| OutSpec {
                    element_type: info.element_type,
                    shape: eval_shape(&info.shape, &bindings),
                    used: consumers.get(k).is_some_and(|&n| n > 0),
                })
                .collect();
            let mut inputs = Vec::with_capacity(self.sources[id.index()].len());
            for src in &self.sources[id.index()] {
                if self.skipped[src.node.index()] {
                    // Held by this node (folded, or a compressed product).
                    continue;
                }
                let t = values.get(*src).cloned().ok_or_else(|| ExecError::Kernel {
                    layer: node.name.clone(),
                    op: node.op_type.name.clone(),
                    message: "internal: an input was freed or never computed".to_owned(),
                })?;
                inputs.push(t);
            }
            if self.kernels[id.index()].is_some() && specs.iter().any(|s| s.shape.is_none()) {
                self.rerun_rule(
                    node,
                    &inputs,
                    infos,
                    &mut specs,
                    &inference.symbols,
                    &mut bindings,
                )?;
            }
            if allocates(node) {
                self.check_memory(node, &specs, live.total)?;
            }
            // A ReadValue reads the variable's value once a run has written one.
            let stored = match node.op_type.name.as_str() {
                "ReadValue" => variable_id(node)
                    .ok()
                    .and_then(|v| variables.current.get(v)),
                _ => None,
            };
            let started = self.profile.as_ref().map(|_| std::time::Instant::now());
            let outputs = match self.kernels[id.index()] {
                _ if matches!(node.op, Op::SubGraph(_)) => {
                    let partial = infos
                        .iter()
                        .map(|info| {
                            let dims = info.shape.dims()?;
                            Some(
                                dims.iter()
                                    .map(|d| {
                                        d.eval(&|s| bindings.get(&s).copied())
                                            .ok()
                                            .and_then(|v| usize::try_from(v).ok())
                                    })
                                    .collect(),
                            )
                        })
                        .collect();
                    kernels::bodies::run(&kernels::bodies::BodyCall {
                        node,
                        runners: &self.bodies[id.index()],
                        inputs: &inputs,
                        outputs: &specs,
                        partial,
                        limits: self.limits,
                        held: live.total,
                    })?
                }
                _ if self.folded[id.index()].is_some() => {
                    self.folded[id.index()].clone().unwrap_or_default()
                }
                Some(_) if self.compressed[id.index()].is_some() => {
                    let call = Call {
                        node,
                        inputs: &inputs,
                        outputs: &specs,
                    };
                    let weights = self.compressed[id.index()].as_deref();
                    weights
                        .map_or_else(
                            || Err("internal: the compressed weights are gone".into()),
                            |w| compressed::run(&call, w),
                        )
                        .map_err(|e| kernels::to_exec(e, node))?
                }
                Some(_) if stored.is_some() => stored.into_iter().cloned().collect(),
                None => vec![bound.remove(&id).ok_or_else(|| ExecError::MissingInput {
                    name: node.name.clone(),
                    available: available(&self.graph),
                })?],
                Some(_) if allocates(node) && vast_and_empty(&inputs, &specs) => specs
                    .iter()
                    .filter_map(|s| {
                        Some(Tensor::from_bytes(
                            s.element_type,
                            s.shape.clone()?,
                            Vec::new(),
                        ))
                    })
                    .collect::<Result<Vec<_>, _>>()?,
                Some(kernel) => {
                    let call = Call {
                        node,
                        inputs: &inputs,
                        outputs: &specs,
                    };
                    let prepared = self.winograd.get(id.index()).and_then(Option::as_ref);
                    if self.fusion.applies(id) {
                        // A residual Add's other operand, computed before.
                        let shortcut = self.fusion.shortcut(id).map(|src| {
                            values.get(src).ok_or_else(|| ExecError::Kernel {
                                layer: node.name.clone(),
                                op: node.op_type.name.clone(),
                                message: "internal: the fused shortcut is not computed".to_owned(),
                            })
                        });
                        let shortcut = shortcut.transpose()?;
                        self.fusion.run(id, &call, shortcut, prepared)
                    } else if let Some(prepared) = prepared {
                        kernels::convolution::run_prepared(&call, prepared)
                    } else {
                        kernel(&call)
                    }
                    .map_err(|e| kernels::to_exec(e, node))?
                }
            };
            if let (Some(profile), Some(started)) = (&self.profile, started) {
                let shape = specs.first().and_then(|s| s.shape.as_deref());
                profile.record(
                    (id.index(), &node.name, &node.op_type.name),
                    shape,
                    started.elapsed(),
                );
            }
            drop(inputs);
            if outputs.len() != infos.len() {
                return Err(ExecError::Kernel {
                    layer: node.name.clone(),
                    op: node.op_type.name.clone(),
                    message: format!(
                        "internal: {} outputs but inference has {}",
                        outputs.len(),
                        infos.len()
                    ),
                });
            }
            for (k, (t, info)) in outputs.iter().zip(infos).enumerate() {
                check_output(
                    node,
                    k,
                    t,
                    info,
                    &specs[k],
                    &inference.symbols,
                    &mut bindings,
                )?;
            }
            if node.op_type.name == "Assign" {
                if let (Ok(v), Some(value)) = (variable_id(node), outputs.first()) {
                    variables.written.insert(v.to_owned(), value.clone());
                }
            }
            // Count what is kept before the inputs are released, so a view
            // of an input keeps its buffer counted.
            let external = matches!(node.op, Op::Parameter { .. } | Op::Constant { .. })
                || self.folded[id.index()].is_some();
            let kept: Vec<(usize, Tensor)> = if matches!(node.op, Op::Result) {
                outputs.into_iter().take(1).map(|t| (0, t)).collect()
            } else {
                let (kept, unread): (Vec<_>, Vec<_>) = outputs
                    .into_iter()
                    .enumerate()
                    .partition(|(k, _)| self.consumers[id.index()].get(*k).is_some_and(|&n| n > 0));
                // An output nobody reads (MaxPool's indices in PyTorch's
                // exports) gives its buffer back at once.
                unread.into_iter().for_each(|(_, t)| pool::recycle(t));
                kept
            };
            for (k, t) in &kept {
                let bytes = t.data.len() as u64;
                if !external && bytes > self.limits.max_tensor_bytes {
                    return Err(self.over_limit(node, format!("output {k}"), bytes, false));
                }
                live.hold(t, external);
            }
            if live.total > self.limits.max_live_bytes {
                return Err(self.over_limit(node, "the live tensors".to_owned(), live.total, true));
            }
            // Free the inputs whose last consumer this was.
            for src in &self.sources[id.index()] {
                if let Some(t) = values.consumed(*src) {
                    live.release(&t);
                    pool::recycle(t);
                }
            }
            if matches!(node.op, Op::Result) {
                // Results are held to the end (their buffers stay counted),
                // in buffers of their own size.
                if let Some((_, t)) = kept.into_iter().next() {
                    results.insert(id, pool::detach(t));
                }
                continue;
            }
            for (k, t) in kept {
                let n = self.consumers[id.index()].get(k).copied().unwrap_or(0);
                values.insert(
                    OutputRef {
                        node: id,
                        output: k,
                    },
                    t,
                    n,
                );
            }
        }
        Ok(results)
    }

    /// Sizes the outputs inference left to run time (their shape waited on
    /// values, such as a Slice's starts fed by a Parameter) by the op's own
    /// shape rule evaluated at the concrete inputs, as OpenVINO's CPU plugin
    /// reruns `shape_infer`; binds the symbols those dims stand for. Outputs
    /// whose size only the data decides (NonZero) stay for the kernel.
    fn rerun_rule(
        &self,
        node: &Node,
        inputs: &[Tensor],
        infos: &[TensorInfo],
        specs: &mut [OutSpec],
        symbols: &SymbolTable,
        bindings: &mut HashMap<SymbolId, i64>,
    ) -> Result<(), ExecError> {
        let concrete: Vec<TensorInfo> = inputs.iter().map(concrete_info).collect();
        // Concrete inputs name no symbol: the rule needs no table but its own
        // (for the fresh symbols of sizes only data decides, unused here).
        let outputs =
            infer_node(&self.registry, SymbolTable::new(), node, &concrete).map_err(|e| {
                ExecError::Inference(vec![ir::Diagnostic::error(e.rule_name(), e.to_string())
                    .at_layer(node.layer_ref(), node.location)])
            })?;
        for (k, spec) in specs.iter_mut().enumerate() {
            let (Some(info), Some(out)) = (infos.get(k), outputs.get(k)) else {
                continue;
            };
            if spec.shape.is_some() {
                continue;
            }
            let Some(shape) = eval_shape(&out.shape, &HashMap::new()) else {
                continue;
            };
            bind_shape(node, k, info, &shape, symbols, bindings, Binding::RuleShape)?;
            spec.shape = Some(shape);
        }
        Ok(())
    }

    /// Checks the outputs inference sized against the limits, before the
    /// kernel allocates them (data-dependent sizes are checked by the kernel
    /// through [`crate::byte_size`], and after it).
    fn check_memory(&self, node: &Node, specs: &[OutSpec], live: u64) -> Result<(), ExecError> {
        let mut needed = 0u64;
        for (k, spec) in specs.iter().enumerate() {
            let Some(shape) = &spec.shape else {
                continue;
            };
            let width = match element_width(spec.element_type) {
                Ok(width) => width,
                // The storage types (f8, f4, i4, u1…): their kernels make
                // one-byte codes before packing them.
                Err(_) if crate::packed::is_decodable(spec.element_type) => 1,
                Err(_) => continue,
            };
            // Saturating: a 0 dim still gives 0 after an overflow.
            let bytes = shape
                .iter()
                .fold(width as u128, |acc, &d| acc.saturating_mul(d as u128));
            let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
            if bytes > self.limits.max_tensor_bytes {
                return Err(self.over_limit(node, format!("output {k}"), bytes, false));
            }
            needed = needed.saturating_add(bytes);
        }
        let total = live.saturating_add(needed);
        if total > self.limits.max_live_bytes {
            return Err(self.over_limit(node, "the live tensors".to_owned(), total, true));
        }
        Ok(())
    }

    fn over_limit(&self, node: &Node, what: String, needed: u64, live: bool) -> ExecError {
        self.limits.exceeded(node, what, needed, live)
    }
}

/// Above this many positions (the product of a shape's nonzero dims), an
/// empty tensor is not walked.
const EMPTY_WALK_LIMIT: u128 = 1 << 16;

/// Whether every output is known to be empty while some input or output has
/// vast nonzero dims (`[2^40, 0]`): there is nothing to compute, but a
/// kernel's loops over the nonzero dims would not end, so the executor makes
/// the empty outputs itself. Small empty tensors still go through the
/// kernels.
fn vast_and_empty(inputs: &[Tensor], specs: &[OutSpec]) -> bool {
    let positions = |shape: &[usize]| {
        shape
            .iter()
            .filter(|&&d| d != 0)
            .fold(1u128, |acc, &d| acc.saturating_mul(d as u128))
    };
    let empty = |s: &OutSpec| {
        s.shape.as_ref().is_some_and(|shape| shape.contains(&0))
            && element_width(s.element_type).is_ok()
    };
    !specs.is_empty()
        && specs.iter().all(empty)
        && inputs
            .iter()
            .map(|t| t.shape.as_slice())
            .chain(specs.iter().filter_map(|s| s.shape.as_deref()))
            .any(|shape| positions(shape) > EMPTY_WALK_LIMIT)
}

/// A run's values waiting for their consumers: one slot per node output
/// (`base[node] + output`), each with the number of consumers yet to read
/// it; a plain array, where a map hashed every lookup (ten a layer).
struct Slots<'a> {
    base: &'a [usize],
    values: Vec<Option<Tensor>>,
    remaining: Vec<usize>,
}

impl<'a> Slots<'a> {
    /// Empty slots for the outputs `base` numbers (its last entry: their
    /// count).
    fn new(base: &'a [usize]) -> Slots<'a> {
        let count = base.last().copied().unwrap_or(0);
        Slots {
            base,
            values: vec![None; count],
            remaining: vec![0; count],
        }
    }

    fn slot(&self, at: OutputRef) -> Option<usize> {
        let (first, end) = (
            *self.base.get(at.node.index())?,
            *self.base.get(at.node.index() + 1)?,
        );
        Some(first + at.output).filter(|&slot| slot < end)
    }

    fn get(&self, at: OutputRef) -> Option<&Tensor> {
        self.values.get(self.slot(at)?)?.as_ref()
    }

    /// Holds `t` for its `readers` consumers.
    fn insert(&mut self, at: OutputRef, t: Tensor, readers: usize) {
        if let Some(slot) = self.slot(at) {
            self.values[slot] = Some(t);
            self.remaining[slot] = readers;
        }
    }

    /// One consumer of `at` has read it: its value when that was the last.
    fn consumed(&mut self, at: OutputRef) -> Option<Tensor> {
        let slot = self.slot(at)?;
        let left = self.remaining.get_mut(slot)?;
        if *left == 0 {
            return None;
        }
        *left -= 1;
        if *left > 0 {
            return None;
        }
        self.values[slot].take()
    }
}

/// What a run reads from and writes to the model's variables.
struct Variables<'s> {
    /// The values when the run started.
    current: &'s State,
    /// What the run's Assign layers wrote, kept if the run succeeds.
    written: BTreeMap<String, Tensor>,
}

/// Whether a layer's kernel allocates its outputs (the others are views of
/// their input or of the weights).
fn allocates(node: &Node) -> bool {
    !matches!(
        node.op_type.name.as_str(),
        "Parameter" | "Const" | "Reshape" | "Squeeze" | "Unsqueeze" | "Result" | "Assign"
    )
}

/// The bytes of the buffers kernels allocated that live tensors still hold.
/// A buffer is known by its address, so views that share it (a Reshape's
/// output, a Result) count it once; it is released when no tensor the run
/// holds refers to it any more.
#[derive(Default)]
struct Live {
    /// Buffer address → (bytes, the number of held tensors viewing it).
    buffers: HashMap<usize, (u64, usize)>,
    total: u64,
}

/// The address of the buffer a tensor views.
fn buffer_of(t: &Tensor) -> usize {
    (t.data.as_slice().as_ptr() as usize).wrapping_sub(t.data.offset_in_backing())
}

impl Live {
    /// Holds `t`; a buffer seen for the first time counts its bytes unless
    /// the run did not allocate it (`external`: inputs and weights).
    fn hold(&mut self, t: &Tensor, external: bool) {
        // Empty buffers take no memory (and need not have distinct addresses).
        if t.data.is_empty() {
            return;
        }
        let entry = self.buffers.entry(buffer_of(t)).or_insert_with(|| {
            let bytes = if external { 0 } else { t.data.len() as u64 };
            self.total = self.total.saturating_add(bytes);
            (bytes, 0)
        });
        entry.1 += 1;
        // The pool of freed buffers may hold as much as the run needs.
        pool::allow(self.total);
    }

    fn release(&mut self, t: &Tensor) {
        if t.data.is_empty() {
            return;
        }
        let key = buffer_of(t);
        if let Some(entry) = self.buffers.get_mut(&key) {
            entry.1 = entry.1.saturating_sub(1);
            if entry.1 == 0 {
                self.total = self.total.saturating_sub(entry.0);
                self.buffers.remove(&key);
            }
        }
    }
}

fn show_range(r: &symdim::Interval) -> String {
    let end = |v: Option<i64>, inf: &str| v.map_or(inf.to_owned(), |v| v.to_string());
    format!("[{}, {}]", end(r.lo, "-inf"), end(r.hi, "inf"))
}

/// The static shape under the data-dependent bindings so far, if every dim
/// evaluates to a size.
pub(crate) fn eval_shape(shape: &Shape, bindings: &HashMap<SymbolId, i64>) -> Option<Vec<usize>> {
    shape
        .dims()?
        .iter()
        .map(|d| {
            d.eval(&|s| bindings.get(&s).copied())
                .ok()
                .and_then(|v| usize::try_from(v).ok())
        })
        .collect()
}

/// Checks a kernel's output against inference; binds data-dependent symbols
/// (checking their ranges) when the inferred shape was not yet known.
fn check_output(
    node: &Node,
    k: usize,
    t: &Tensor,
    info: &TensorInfo,
    spec: &OutSpec,
    symbols: &SymbolTable,
    bindings: &mut HashMap<SymbolId, i64>,
) -> Result<(), ExecError> {
    if info.element_type.is_static() && info.element_type != t.element_type {
        return Err(shape_mismatch(node, k, info, symbols, &t.shape));
    }
    match &spec.shape {
        Some(shape) if *shape == t.shape => Ok(()),
        Some(_) => Err(shape_mismatch(node, k, info, symbols, &t.shape)),
        // A body's run decides its layer's shapes, as OpenVINO's does: a
        // dim inference could not foresee (a Loop's carried state at zero
        // iterations, a state that grows past the range inference gave
        // it) is not bound, and layers after it size their outputs from
        // the tensors they get.
        None => bind_shape(
            node,
            k,
            info,
            &t.shape,
            symbols,
            bindings,
            if matches!(node.op, Op::SubGraph(_)) {
                Binding::Lenient
            } else {
                Binding::Strict
            },
        ),
    }
}

fn shape_mismatch(
    node: &Node,
    k: usize,
    info: &TensorInfo,
    symbols: &SymbolTable,
    actual: &[usize],
) -> ExecError {
    ExecError::ShapeMismatch {
        layer: node.name.clone(),
        output: k,
        expected: format!("{} {}", info.element_type, info.shape.display(symbols)),
        actual: actual.to_vec(),
    }
}

/// How [`bind_shape`] treats what it cannot bind or check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Binding {
    /// A symbol out of its range and a dim that does not evaluate are
    /// errors: a kernel's output checked against inference.
    Strict,
    /// A symbol out of its range is an error, but a dim that does not
    /// evaluate is not checked: the shape comes from the op's own rule on
    /// the concrete inputs, so it is right by construction, and a dim of
    /// several symbols a body left unbound (a Loop's carried state
    /// `bcast(?s, ?t)`) cannot be solved for them.
    RuleShape,
    /// A symbol out of its range is left unbound and a dim that does not
    /// evaluate is not checked: a body's run decides its layer's shapes.
    Lenient,
}

/// Binds the data-dependent symbols of inferred output `k` to the dims of
/// `actual` (checking each against its range), then checks that every dim
/// evaluates to the actual one, as `mode` says.
fn bind_shape(
    node: &Node,
    k: usize,
    info: &TensorInfo,
    actual: &[usize],
    symbols: &SymbolTable,
    bindings: &mut HashMap<SymbolId, i64>,
    mode: Binding,
) -> Result<(), ExecError> {
    let mismatch = || shape_mismatch(node, k, info, symbols, actual);
    // Lenient: a value outside a symbol's range leaves it unbound.
    let bind = |axis, s, value, bindings: &mut HashMap<SymbolId, i64>| match bind_symbol(
        node, axis, s, value, symbols, bindings,
    ) {
        Err(_) if mode == Binding::Lenient => Ok(()),
        other => other,
    };
    let Some(dims) = info.shape.dims() else {
        return Ok(());
    };
    if dims.len() != actual.len() {
        return Err(mismatch());
    }
    // Bare symbols first (they bind), then dims of one unbound symbol in
    // which they are linear (a Loop's carried state `?s + 1`: `?s` is
    // solved), then every dim must evaluate and agree.
    for (axis, (dim, &actual)) in dims.iter().zip(actual).enumerate() {
        let Some(s) = dim.as_symbol() else { continue };
        if bindings.contains_key(&s) {
            continue;
        }
        let value = i64::try_from(actual).unwrap_or(i64::MAX);
        bind(axis, s, value, bindings)?;
    }
    for (axis, (dim, &actual)) in dims.iter().zip(actual).enumerate() {
        let unbound: Vec<SymbolId> = dim
            .symbols()
            .into_iter()
            .filter(|s| !bindings.contains_key(s))
            .collect();
        let [s] = unbound.as_slice() else { continue };
        let at = |v: i64| {
            dim.eval(&|x| {
                if x == *s {
                    Some(v)
                } else {
                    bindings.get(&x).copied()
                }
            })
            .ok()
        };
        let (Some(f0), Some(f1), Some(f2)) = (at(0), at(1), at(2)) else {
            continue;
        };
        let slope = f1 - f0;
        let value = i64::try_from(actual).unwrap_or(i64::MAX);
        if slope == 0 || f2 - f1 != slope || (value - f0) % slope != 0 {
            continue;
        }
        let solved = (value - f0) / slope;
        if at(solved) == Some(value) {
            bind(axis, *s, solved, bindings)?;
        }
    }
    for (dim, &actual) in dims.iter().zip(actual) {
        match dim.eval(&|s| bindings.get(&s).copied()) {
            Ok(v) if v == actual as i64 => {}
            Err(_) if mode != Binding::Strict => {}
            _ => return Err(mismatch()),
        }
    }
    Ok(())
}

/// Binds symbol `s` (of output dim `axis` of `node`) to `value`, checking
/// it against the symbol's range.
fn bind_symbol(
    node: &Node,
    axis: usize,
    s: SymbolId,
    value: i64,
    symbols: &SymbolTable,
    bindings: &mut HashMap<SymbolId, i64>,
) -> Result<(), ExecError> {
    let info_s = symbols.info(s);
    let upper = info_s
        .upper
        .as_ref()
        .and_then(|u| u.eval(&|x| bindings.get(&x).copied()).ok());
    if !info_s.range.contains(value) || upper.is_some_and(|u| value > u) {
        let mut range = show_range(&info_s.range);
        if let Some(u) = &info_s.upper {
            range.push_str(&format!(", <= {}", symbols.display(u)));
        }
        return Err(ExecError::DataDependentRange {
            layer: node.name.clone(),
            axis,
            value: usize::try_from(value).unwrap_or(0),
            symbol: symbols.display(&Expr::symbol(s)).to_string(),
            range,
        });
    }
    bindings.insert(s, value);
    Ok(())
}

/// What the shape rules see of a run-time tensor: its shape, and its values
/// when it is small enough that inference would carry them for a Const
/// (integers up to [`MAX_VALUE_ELEMENTS`], floats up to
/// [`MAX_REAL_VALUE_ELEMENTS`]): the starts of a Slice, the target of a
/// Reshape, the bounds of a Range.
fn concrete_info(t: &Tensor) -> TensorInfo {
    let dims = t.shape.iter().map(|&d| Expr::constant(d as i64));
    let info = TensorInfo::new(t.element_type, Shape::ranked(dims));
    let n = t.len();
    if n <= MAX_VALUE_ELEMENTS {
        if let Ok(values) = t.to_i64s() {
            return info.with_value(values.into_iter().map(Expr::constant).collect::<Vec<_>>());
        }
    }
    if n <= MAX_REAL_VALUE_ELEMENTS && t.element_type.is_real() {
        if let Ok(values) = kernels::to_f64s(t) {
            return info.with_real_value(values);
        }
    }
    info
}
