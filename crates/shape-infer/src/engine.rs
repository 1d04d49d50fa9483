//! The inference walk.

use ir::{Diagnostic, Graph, NodeId, Op};
use symdim::{DimError, SymbolTable};

use crate::context::{Constraint, InferContext, SPEC_LENIENCIES};
use crate::declared::{check_declared, declared_tensor};
use crate::error::ShapeError;
use crate::registry::{OpCall, Registry, Resolution};
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
    /// The assumptions rules made.
    pub constraints: Vec<Constraint>,
    /// Every diagnostic, structural and per node.
    pub diagnostics: Vec<Diagnostic>,
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
    mut diagnostics: Vec<Diagnostic>,
) -> Inference {
    let (order, acyclic) = match graph.topological_order() {
        Ok(order) => (order, true),
        Err(_) => (graph.nodes().map(|(id, _)| id).collect(), false),
    };
    let mut ctx = InferContext::new(graph.symbols.clone());
    let mut outcomes: Vec<Option<NodeOutcome>> = vec![None; graph.node_count()];

    for &id in &order {
        let node = graph.node(id);
        ctx.enter(node);
        let declared = |ctx: &mut InferContext| {
            NodeOutcome::Declared(
                node.outputs
                    .iter()
                    .map(|port| declared_tensor(&mut ctx.symbols, node, port))
                    .collect(),
            )
        };
        // The inputs, when every one is fed once by an inferred or declared tensor.
        let inputs: Option<Vec<TensorInfo>> = acyclic
            .then(|| {
                graph
                    .input_sources(id)
                    .iter()
                    .map(|sources| match sources.as_slice() {
                        [source] => outcomes[source.node.index()]
                            .as_ref()
                            .and_then(|o| o.outputs().get(source.output).cloned()),
                        _ => None,
                    })
                    .collect()
            })
            .flatten();

        let resolution = registry.resolve(&node.op_type.name, &node.op_type.version);
        let outcome = match (resolution, inputs) {
            (Resolution::UnknownType | Resolution::UnknownVersion, _) => {
                let message = if resolution == Resolution::UnknownType {
                    format!(
                        "unknown op type `{}` (version `{}`)",
                        node.op_type.name, node.op_type.version
                    )
                } else {
                    format!(
                        "op `{}` has no version in `{}` that this tool knows",
                        node.op_type.name, node.op_type.version
                    )
                };
                let d = if options.allow_unknown_ops {
                    Diagnostic::warning("op-unknown", message)
                        .with_note("its outputs take the shapes declared in the file")
                } else {
                    Diagnostic::error("op-unknown", message).with_note(
                        "pass --allow-unknown-ops to go on with the shapes declared in the file",
                    )
                };
                diagnostics.push(d.at_layer(node.layer_ref(), node.location));
                declared(&mut ctx)
            }
            (Resolution::Known(..), None) => declared(&mut ctx),
            (Resolution::Known(def, version), Some(inputs)) => {
                if options.check_declared_shapes {
                    for (port, tensor) in node.inputs.iter().zip(&inputs) {
                        diagnostics.extend(check_declared(&ctx.symbols, node, port, tensor));
                    }
                }
                let call = OpCall {
                    node,
                    version,
                    inputs: &inputs,
                };
                match (def.infer)(&mut ctx, &call) {
                    Ok(mut outputs) => {
                        ctx.keep_trackable(&mut outputs);
                        let count_ok =
                            matches!(node.op, Op::Result) || outputs.len() == node.outputs.len();
                        if !count_ok {
                            diagnostics.push(
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
                            declared(&mut ctx)
                        } else {
                            if options.check_declared_shapes {
                                for (port, tensor) in node.outputs.iter().zip(&outputs) {
                                    diagnostics.extend(check_declared(
                                        &ctx.symbols,
                                        node,
                                        port,
                                        tensor,
                                    ));
                                }
                            }
                            NodeOutcome::Inferred(outputs)
                        }
                    }
                    Err(ShapeError::Unreadable) => declared(&mut ctx),
                    // A limit of the algebra, not a fault of the model (a
                    // Concat of thousands of dynamic dims sums them all):
                    // go on as OpenVINO would with `?`.
                    Err(ShapeError::Dim(DimError::TooComplex)) => {
                        diagnostics.push(
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
                        declared(&mut ctx)
                    }
                    Err(error) => {
                        diagnostics.push(
                            Diagnostic::error(error.rule_name(), error.to_string())
                                .at_layer(node.layer_ref(), node.location),
                        );
                        declared(&mut ctx)
                    }
                }
            }
        };
        outcomes[id.index()] = Some(outcome);
    }

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
        order,
        outcomes: outcomes
            .into_iter()
            .map(|o| o.unwrap_or(NodeOutcome::Declared(Vec::new())))
            .collect(),
        constraints,
        diagnostics,
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
    (def.infer)(
        &mut ctx,
        &OpCall {
            node,
            version,
            inputs,
        },
    )
}
