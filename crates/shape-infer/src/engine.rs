//! The inference walk.

use std::collections::HashMap;

use ir::{Body, Diagnostic, Graph, InputFeeds, NodeId, Op, SubGraph};
use smallvec::SmallVec;
use symdim::{DimError, SymbolTable};

use crate::context::{Constraint, InferContext, SPEC_LENIENCIES};
use crate::declared::{check_declared_into, declared_tensor};
use crate::error::ShapeError;
use crate::registry::{opset_runs, OpCall, OpDef, Registry, Resolution};
use crate::tensor::TensorInfo;
use crate::validate::validate;

/// How to run inference.
#[derive(Debug, Clone)]
pub struct Options {
    /// Treat unknown ops as warnings and go on with their declared shapes,
    /// instead of errors.
    pub allow_unknown_ops: bool,
    /// Compare inferred shapes with the shapes declared on ports. Turned off
    /// when the user overrides input shapes, which makes the declarations stale.
    pub check_declared_shapes: bool,
    /// Report what OpenVINO's runtime accepts beyond its specification
    /// ([`SPEC_LENIENCIES`](crate::context::SPEC_LENIENCIES)) as errors
    /// rather than warnings, for targets that follow the specification.
    pub strict_spec: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            allow_unknown_ops: false,
            check_declared_shapes: true,
            strict_spec: false,
        }
    }
}

/// What inference concluded about one node.
#[derive(Debug, Clone)]
pub enum NodeOutcome {
    /// The op's rule computed the outputs.
    Inferred(Vec<TensorInfo>),
    /// The outputs are the port declarations (unknown op, failed rule, or an
    /// input that could not be inferred).
    Declared(Vec<TensorInfo>),
}

impl NodeOutcome {
    /// The output tensors, inferred or declared.
    pub fn outputs(&self) -> &[TensorInfo] {
        match self {
            NodeOutcome::Inferred(t) | NodeOutcome::Declared(t) => t,
        }
    }
}

/// The result of inference over a whole graph.
#[derive(Debug)]
pub struct Inference {
    /// The graph's symbols plus those inference created.
    pub symbols: SymbolTable,
    /// Every node, in topological order (file order when the graph has a cycle).
    pub order: Vec<NodeId>,
    /// Per node (indexed by `NodeId::index()`), its outcome.
    pub outcomes: Vec<NodeOutcome>,
    /// The inference of each body of the nodes that own bodies (If, Loop,
    /// TensorIterator), in the order of the node's bodies; the last pass's
    /// shapes where a body is inferred more than once.
    pub bodies: HashMap<NodeId, Vec<BodyOutcome>>,
    /// The assumptions rules made.
    pub constraints: Vec<Constraint>,
    /// Every diagnostic, structural and per node.
    pub diagnostics: Vec<Diagnostic>,
}

/// What inference concluded inside one body: as [`Inference`] for a graph,
/// over the one symbol table.
#[derive(Debug, Clone, Default)]
pub struct BodyOutcome {
    /// The body's nodes in topological order.
    pub order: Vec<NodeId>,
    /// Per body node (indexed by `NodeId::index()`), its outcome.
    pub outcomes: Vec<NodeOutcome>,
    /// The bodies of the body's own nodes with bodies.
    pub bodies: HashMap<NodeId, Vec<BodyOutcome>>,
}

impl BodyOutcome {
    /// The tensor body Result `result` receives, if inferred.
    pub fn result_tensor(&self, result: NodeId) -> Option<&TensorInfo> {
        self.outcomes.get(result.index())?.outputs().first()
    }
}

impl Inference {
    /// The outcome of `node`.
    pub fn outcome(&self, node: NodeId) -> &NodeOutcome {
        &self.outcomes[node.index()]
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Validates `graph` and infers the shape of every tensor.
pub fn infer(graph: &Graph, registry: &Registry, options: &Options) -> Inference {
    infer_validated(graph, registry, options, validate(graph))
}

/// Infers the shape of every tensor of `graph`, whose structural diagnostics
/// ([`validate`]'s) are `diagnostics`: [`infer`] in two steps, for callers
/// that time or report the steps apart.
pub fn infer_validated(
    graph: &Graph,
    registry: &Registry,
    options: &Options,
    diagnostics: Vec<Diagnostic>,
) -> Inference {
    infer_validated_with_feeds(graph, registry, options, diagnostics, &graph.input_feeds())
}

/// [`infer_validated`] given the graph's [`Graph::input_feeds`], already
/// built for validation ([`crate::validate::validate_with_feeds`]).
pub fn infer_validated_with_feeds(
    graph: &Graph,
    registry: &Registry,
    options: &Options,
    mut diagnostics: Vec<Diagnostic>,
    feeds: &InputFeeds,
) -> Inference {
    let mut ctx = InferContext::new(graph.symbols.clone());
    let walked = Walker {
        registry,
        options,
        diagnostics: &mut diagnostics,
    }
    .walk(&mut ctx, graph, feeds, &HashMap::new());
    // Variables pair layers across the graph (an Assign with its ReadValue),
    // which no single layer's rule sees.
    diagnostics.extend(crate::ops::assign::check_variables(
        graph,
        registry,
        &walked.outcomes,
        &ctx.symbols,
    ));
    let (symbols, constraints, warnings) = ctx.into_parts();
    diagnostics.extend(warnings.into_iter().map(|warning| {
        if options.strict_spec && SPEC_LENIENCIES.contains(&warning.rule) {
            Diagnostic {
                severity: ir::Severity::Error,
                ..warning
            }
            .with_note("--strict-spec: OpenVINO's runtime accepts this, its specification does not")
        } else {
            warning
        }
    }));
    Inference {
        symbols,
        order: walked.order,
        outcomes: walked.outcomes,
        bodies: walked.bodies,
        constraints,
        diagnostics,
    }
}

/// How many distinct type and version pairs a walk keeps resolved.
const RESOLUTIONS_KEPT: usize = 32;

/// How a node's outputs are inferred (`'r`: the registry, `'g`: the graph).
enum How<'r, 'g> {
    /// By the registry's rule for its op, at this version.
    Rule(&'r OpDef, u32),
    /// Through its bodies (If, Loop, TensorIterator).
    Bodies(&'g SubGraph),
    /// Not at all: the op or its version is unknown.
    Unknown(Resolution<'r>),
}

/// One inference walk over a graph or a body.
pub(crate) struct Walker<'a> {
    registry: &'a Registry,
    options: &'a Options,
    diagnostics: &'a mut Vec<Diagnostic>,
}

impl Walker<'_> {
    /// Infers `body` of `parent` with its Parameters' tensors `seeds`; its
    /// diagnostics name the parent on their path.
    pub(crate) fn body<'g>(
        &mut self,
        ctx: &mut InferContext<'g>,
        parent: &'g ir::Node,
        body: &'g Body,
        seeds: &HashMap<NodeId, TensorInfo>,
    ) -> BodyOutcome {
        let mut inner = Vec::new();
        let parent_ref = parent.layer_ref();
        ctx.push_scope(parent_ref.clone(), body.role.name());
        let outcome = Walker {
            registry: self.registry,
            options: self.options,
            diagnostics: &mut inner,
        }
        .walk(ctx, &body.graph, &body.graph.input_feeds(), seeds);
        ctx.pop_scope();
        ctx.enter(parent);
        self.diagnostics.extend(
            inner
                .into_iter()
                .map(|d| d.within(&parent_ref, body.role.name())),
        );
        outcome
    }

    /// Walks `graph`, whose inputs `feeds` feed, in topological order; a
    /// Parameter in `seeds` takes the tensor given there (a body Parameter
    /// fed by the op's port map).
    fn walk<'g>(
        &mut self,
        ctx: &mut InferContext<'g>,
        graph: &'g Graph,
        feeds: &InputFeeds,
        seeds: &HashMap<NodeId, TensorInfo>,
    ) -> BodyOutcome {
        let registry = self.registry;
        let options = self.options;
        let mut bodies = HashMap::new();
        let (order, acyclic) = match feeds.topological_order(graph) {
            Ok(order) => (order, true),
            Err(_) => (graph.nodes().map(|(id, _)| id).collect(), false),
        };
        // Each node's outcome, written when the walk reaches it; until then
        // an empty `Declared`, which lends no tensor (no allocation: an
        // empty `Vec`). Filled with `resize_with`, not `vec![x; n]`, whose
        // clones were a `memcpy` call per node (issue 18).
        let mut outcomes: Vec<NodeOutcome> = Vec::new();
        outcomes.resize_with(graph.node_count(), || NodeOutcome::Declared(Vec::new()));
        // The resolutions of the type and version pairs met so far: a model
        // has a few op types, each on many layers.
        let mut resolved: Vec<(&str, &str, Resolution<'_>)> = Vec::new();

        for &id in &order {
            let node = graph.node(id);
            ctx.enter(node);
            if let Some(seed) = seeds.get(&id) {
                outcomes[id.index()] = NodeOutcome::Inferred(vec![seed.clone()]);
                continue;
            }
            let declared = |ctx: &mut InferContext| {
                NodeOutcome::Declared(
                    node.outputs
                        .iter()
                        .map(|port| declared_tensor(&mut ctx.symbols, node, port))
                        .collect(),
                )
            };
            // The inputs, when every one is fed once by an inferred or
            // declared tensor: lent to the rule, not copied (their producers'
            // outcomes are not written until the node is inferred).
            // Room for a Slice's five inputs (a `Vec` beyond, allocated and
            // freed at every such node).
            let mut lent: SmallVec<[&TensorInfo; 6]> = SmallVec::new();
            let have_inputs = acyclic
                && feeds.single(id).is_some_and(|sources| {
                    sources.iter().all(|source| {
                        let tensor = outcomes[source.node.index()].outputs().get(source.output);
                        match tensor {
                            Some(tensor) => {
                                lent.push(tensor);
                                true
                            }
                            None => false,
                        }
                    })
                });

            // A layer with bodies is inferred through them, not by a rule.
            let how = match &node.op {
                Op::SubGraph(sub) => How::Bodies(sub),
                _ => {
                    let (name, version) = (&node.op_type.name, &node.op_type.version);
                    let known = resolved
                        .iter()
                        .find(|(n, v, _)| n == name && v == version)
                        .map(|&(_, _, resolution)| resolution);
                    let resolution = known.unwrap_or_else(|| {
                        let resolution = registry.resolve(name, version);
                        // Bounded: a file of thousands of made-up types
                        // must not make the search quadratic.
                        if resolved.len() < RESOLUTIONS_KEPT {
                            resolved.push((name, version, resolution));
                        }
                        resolution
                    });
                    match resolution {
                        Resolution::Known(def, version) => How::Rule(def, version),
                        unknown => How::Unknown(unknown),
                    }
                }
            };
            let inputs = have_inputs.then_some(lent.as_slice());
            let outcome = match (how, inputs) {
                (How::Unknown(resolution), _) => {
                    let (name, version) = (&node.op_type.name, &node.op_type.version);
                    let message = match resolution {
                        Resolution::UnknownType => {
                            format!("unknown op type `{name}` (version `{version}`)")
                        }
                        Resolution::NotInOpset { in_opsets, .. } => format!(
                            "OpenVINO's `{version}` has no op `{name}` (its IR reader refuses \
                             the layer); `{name}` is in {}",
                            opset_runs(in_opsets)
                        ),
                        _ => format!(
                            "op `{name}` has no version in `{version}` that this tool knows"
                        ),
                    };
                    let d = if options.allow_unknown_ops {
                        Diagnostic::warning("op-unknown", message)
                            .with_note("its outputs take the shapes declared in the file")
                    } else {
                        Diagnostic::error("op-unknown", message).with_note(
                        "pass --allow-unknown-ops to go on with the shapes declared in the file",
                    )
                    };
                    self.diagnostics
                        .push(d.at_layer(node.layer_ref(), node.location));
                    declared(ctx)
                }
                (_, None) => declared(ctx),
                (how, Some(inputs)) => {
                    if options.check_declared_shapes {
                        for (port, tensor) in node.inputs.iter().zip(inputs) {
                            check_declared_into(self.diagnostics, &ctx.symbols, node, port, tensor);
                        }
                    }
                    let inferred = match how {
                        How::Rule(def, version) => {
                            let call = OpCall {
                                node,
                                version,
                                inputs,
                            };
                            (def.infer)(ctx, &call)
                        }
                        How::Bodies(sub) => crate::ops::bodies::infer(self, ctx, node, sub, inputs)
                            .map(|(outputs, inferred)| {
                                bodies.insert(id, inferred);
                                outputs
                            }),
                        // Settled by the first arm.
                        How::Unknown(_) => Err(ShapeError::Unreadable),
                    };
                    match inferred {
                        Ok(mut outputs) => {
                            ctx.keep_trackable(&mut outputs);
                            let count_ok = matches!(node.op, Op::Result)
                                || outputs.len() == node.outputs.len();
                            if !count_ok {
                                self.diagnostics.push(
                                    Diagnostic::error(
                                        "output-count-mismatch",
                                        format!(
                                        "the layer declares {} output port(s) but the op has {}",
                                        node.outputs.len(),
                                        outputs.len()
                                    ),
                                    )
                                    .at_layer(node.layer_ref(), node.location),
                                );
                                declared(ctx)
                            } else {
                                if options.check_declared_shapes {
                                    for (port, tensor) in node.outputs.iter().zip(&outputs) {
                                        check_declared_into(
                                            self.diagnostics,
                                            &ctx.symbols,
                                            node,
                                            port,
                                            tensor,
                                        );
                                    }
                                }
                                NodeOutcome::Inferred(outputs)
                            }
                        }
                        Err(ShapeError::Unreadable) => declared(ctx),
                        // A limit of the algebra, not a fault of the model (a
                        // Concat of thousands of dynamic dims sums them all):
                        // go on as OpenVINO would with `?`.
                        Err(ShapeError::Dim(DimError::TooComplex)) => {
                            self.diagnostics.push(
                                Diagnostic::warning(
                                    "dim-too-complex",
                                    format!(
                                        "an output dim would exceed the algebra's limits \
                                     ({} nodes, nesting {})",
                                        symdim::MAX_SIZE,
                                        symdim::MAX_NESTING
                                    ),
                                )
                                .with_note("its outputs take the shapes declared in the file")
                                .at_layer(node.layer_ref(), node.location),
                            );
                            declared(ctx)
                        }
                        Err(error) => {
                            self.diagnostics.push(
                                Diagnostic::error(error.rule_name(), error.to_string())
                                    .at_layer(node.layer_ref(), node.location),
                            );
                            declared(ctx)
                        }
                    }
                }
            };
            drop(lent);
            outcomes[id.index()] = outcome;
        }

        BodyOutcome {
            order,
            outcomes,
            bodies,
        }
    }
}

/// Evaluates the rule of one `node` on `inputs` alone, over `symbols`.
///
/// The executor calls it at run time for a layer whose output shape waited
/// on values only the run knows (a Slice or a Reshape fed by a Parameter):
/// given the concrete input shapes and values, the rule answers with the
/// concrete output shape, as OpenVINO's CPU plugin reruns `shape_infer` on
/// the tensors of each inference. Kernels then produce what the rule says;
/// they never size an output by a computation of their own.
pub fn infer_node(
    registry: &Registry,
    symbols: SymbolTable,
    node: &ir::Node,
    inputs: &[TensorInfo],
) -> Result<Vec<TensorInfo>, ShapeError> {
    let Resolution::Known(def, version) =
        registry.resolve(&node.op_type.name, &node.op_type.version)
    else {
        return Err(ShapeError::rule(
            "op-unknown",
            format!(
                "unknown op `{}` (version `{}`)",
                node.op_type.name, node.op_type.version
            ),
        ));
    };
    let mut ctx = InferContext::new(symbols);
    ctx.enter(node);
    let inputs: SmallVec<[&TensorInfo; 4]> = inputs.iter().collect();
    (def.infer)(
        &mut ctx,
        &OpCall {
            node,
            version,
            inputs: &inputs,
        },
    )
}
