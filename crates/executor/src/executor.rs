//! The executor: bind inputs, re-infer shapes from them, run the kernels in
//! topological order, free intermediates after their last consumer.

use std::collections::HashMap;

use ir::{Graph, Node, NodeId, Op, OutputRef, Shape, SymbolId};
use shape_infer::overrides::find_parameter;
use shape_infer::{infer, Inference, NodeOutcome, Options, Registry, TensorInfo};
use symdim::{Expr, SymbolTable};

use crate::error::ExecError;
use crate::kernels::{self, Call, KernelFn, OutSpec};
use crate::tensor::{element_width, Tensor};

/// A graph prepared for running on the CPU.
pub struct Executor {
    graph: Graph,
    registry: Registry,
    order: Vec<NodeId>,
    /// Per node, the producer of each input.
    sources: Vec<Vec<OutputRef>>,
    /// Per node, the number of consumers of each output.
    consumers: Vec<Vec<usize>>,
    /// Per node, its kernel (`None` for Parameters).
    kernels: Vec<Option<KernelFn>>,
}

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
    /// Checks the graph's structure and that every op has a kernel.
    pub fn new(graph: &Graph) -> Result<Executor, ExecError> {
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
            if !matches!(node.op, Op::Parameter { .. }) {
                kernels[id.index()] =
                    Some(kernels::kernel(&node.op_type.name).ok_or_else(|| {
                        ExecError::NoKernel {
                            op: format!("{}-{}", node.op_type.name, node.op_type.version),
                            layer: node.name.clone(),
                        }
                    })?);
            }
        }
        Ok(Executor {
            graph: graph.clone(),
            registry: Registry::standard(),
            order,
            sources,
            consumers,
            kernels,
        })
    }

    /// The graph.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// Runs the graph on `inputs` (keyed by Parameter layer name or output
    /// tensor name) and returns each Result's tensor keyed by the Result's
    /// layer name.
    pub fn run(
        &self,
        inputs: HashMap<String, Tensor>,
    ) -> Result<HashMap<String, Tensor>, ExecError> {
        let (bound, inference) = self.bind(inputs)?;
        self.execute(bound, &inference)
    }

    /// Checks the inputs against the Parameters and re-infers every shape
    /// with the Parameters' shapes bound to the inputs'.
    fn bind(
        &self,
        inputs: HashMap<String, Tensor>,
    ) -> Result<(HashMap<NodeId, Tensor>, Inference), ExecError> {
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
        let mut symbols: HashMap<SymbolId, (i64, String)> = HashMap::new();
        let mut deferred = Vec::new();
        let mut bound = HashMap::new();
        let mut rebound = graph.clone();
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
            if element_type.is_static() && tensor.element_type != *element_type {
                return Err(ExecError::InputType {
                    name,
                    expected: *element_type,
                    actual: tensor.element_type,
                });
            }
            element_width(tensor.element_type)?;
            if let Some(dims) = shape.dims() {
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
            if let Op::Parameter {
                element_type,
                shape,
            } = &mut rebound.node_mut(id).op
            {
                *element_type = tensor.element_type;
                *shape = Shape::ranked(tensor.shape.iter().map(|&d| Expr::constant(d as i64)));
            }
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
        let options = Options {
            allow_unknown_ops: false,
            check_declared_shapes: false,
        };
        let inference = infer(&rebound, &self.registry, &options);
        if inference.has_errors() {
            return Err(ExecError::Inference(inference.diagnostics));
        }
        Ok((bound, inference))
    }

    fn execute(
        &self,
        mut bound: HashMap<NodeId, Tensor>,
        inference: &Inference,
    ) -> Result<HashMap<String, Tensor>, ExecError> {
        let mut values: HashMap<(usize, usize), Tensor> = HashMap::new();
        let mut remaining: HashMap<(usize, usize), usize> = HashMap::new();
        let mut bindings: HashMap<SymbolId, i64> = HashMap::new();
        let mut results = HashMap::new();
        for &id in &self.order {
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
            let specs: Vec<OutSpec> = infos
                .iter()
                .map(|info| OutSpec {
                    element_type: info.element_type,
                    shape: eval_shape(&info.shape, &bindings),
                })
                .collect();
            let mut inputs = Vec::with_capacity(self.sources[id.index()].len());
            for src in &self.sources[id.index()] {
                let key = (src.node.index(), src.output);
                let t = values.get(&key).cloned().ok_or_else(|| ExecError::Kernel {
                    layer: node.name.clone(),
                    op: node.op_type.name.clone(),
                    message: "internal: an input was freed or never computed".to_owned(),
                })?;
                inputs.push(t);
            }
            let outputs = match self.kernels[id.index()] {
                None => vec![bound.remove(&id).ok_or_else(|| ExecError::MissingInput {
                    name: node.name.clone(),
                    available: available(&self.graph),
                })?],
                Some(kernel) => {
                    let call = Call {
                        node,
                        inputs: &inputs,
                        outputs: &specs,
                    };
                    kernel(&call).map_err(|e| kernels::to_exec(e, node))?
                }
            };
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
            // Free the inputs whose last consumer this was.
            for src in &self.sources[id.index()] {
                let key = (src.node.index(), src.output);
                if let Some(n) = remaining.get_mut(&key) {
                    *n -= 1;
                    if *n == 0 {
                        remaining.remove(&key);
                        values.remove(&key);
                    }
                }
            }
            if matches!(node.op, Op::Result) {
                if let Some(t) = outputs.into_iter().next() {
                    results.insert(node.name.clone(), t);
                }
                continue;
            }
            for (k, t) in outputs.into_iter().enumerate() {
                let n = self.consumers[id.index()].get(k).copied().unwrap_or(0);
                if n > 0 {
                    values.insert((id.index(), k), t);
                    remaining.insert((id.index(), k), n);
                }
            }
        }
        Ok(results)
    }
}

fn show_range(r: &symdim::Interval) -> String {
    let end = |v: Option<i64>, inf: &str| v.map_or(inf.to_owned(), |v| v.to_string());
    format!("[{}, {}]", end(r.lo, "-inf"), end(r.hi, "inf"))
}

/// The static shape under the data-dependent bindings so far, if every dim
/// evaluates to a size.
fn eval_shape(shape: &Shape, bindings: &HashMap<SymbolId, i64>) -> Option<Vec<usize>> {
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
    let mismatch = || ExecError::ShapeMismatch {
        layer: node.name.clone(),
        output: k,
        expected: format!("{} {}", info.element_type, info.shape.display(symbols)),
        actual: t.shape.clone(),
    };
    if info.element_type.is_static() && info.element_type != t.element_type {
        return Err(mismatch());
    }
    if let Some(shape) = &spec.shape {
        return if *shape == t.shape {
            Ok(())
        } else {
            Err(mismatch())
        };
    }
    let Some(dims) = info.shape.dims() else {
        return Ok(());
    };
    if dims.len() != t.shape.len() {
        return Err(mismatch());
    }
    // Bare symbols first (they bind), then every dim must evaluate and agree.
    for (axis, (dim, &actual)) in dims.iter().zip(&t.shape).enumerate() {
        let Some(s) = dim.as_symbol() else { continue };
        if bindings.contains_key(&s) {
            continue;
        }
        let value = i64::try_from(actual).unwrap_or(i64::MAX);
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
                value: actual,
                symbol: symbols.display(dim).to_string(),
                range,
            });
        }
        bindings.insert(s, value);
    }
    for (dim, &actual) in dims.iter().zip(&t.shape) {
        match dim.eval(&|s| bindings.get(&s).copied()) {
            Ok(v) if v == actual as i64 => {}
            _ => return Err(mismatch()),
        }
    }
    Ok(())
}
