//! The graph: nodes, the edges between their ports, and the symbol table.

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use symdim::SymbolTable;

use crate::attributes::Attributes;
use crate::body::SubGraph;
use crate::diagnostic::{LayerRef, SourceLocation};
use crate::element::ElementType;
use crate::shape::{DeclaredDim, Shape};
use crate::tensor::TensorBytes;

/// A node's handle in a [`Graph`].
pub type NodeId = NodeIndex<u32>;

/// An op's type name and the opset the file names (`Reshape`, `opset1`).
///
/// The `version` is the opset string of the file: OpenVINO writes any opset that
/// contains the op, so `Reshape` with `opset13` is Reshape-1. The shape-inference
/// registry resolves it to the op's own version.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OpType {
    pub name: String,
    pub version: String,
}

/// What the IR itself needs to know of a node's op.
///
/// Parameters, Constants and Results define the graph's interface and data, so
/// their payload is typed here. Every other op keeps its type name and raw
/// attributes, and its rule in `shape-infer` reads typed values from them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// A graph input. The shape is boxed: a `Shape` keeps six dims inline
    /// (160 bytes), and an enum is as large as its largest variant, so an
    /// inline shape would make every node of the graph 112 bytes larger.
    Parameter {
        element_type: ElementType,
        shape: Box<Shape>,
    },
    /// A constant tensor; `data` views the weights file.
    Constant {
        element_type: ElementType,
        shape: Vec<u64>,
        data: TensorBytes,
    },
    /// A graph output.
    Result,
    /// An op that owns nested graphs (If, Loop, TensorIterator); its
    /// [`OpType`] says which.
    SubGraph(Box<SubGraph>),
    /// Any other op, known by its [`OpType`].
    Other,
}

/// A declared port of a layer (`<port id precision names>` with `<dim>`s).
/// The default is port 0 with nothing declared, at no known location.
///
/// Most ports have no tensor names, no other attributes and no `<rt_info>`:
/// those three are kept out of line ([`PortExtras`]; read them with
/// [`PortDecl::names`], [`PortDecl::attributes`], [`PortDecl::rt_info`]),
/// one pointer for all three, so that a port is 48 bytes, not 96: a model
/// holds one or two a layer (the 100,000-layer ReLU chain 200,000 of them,
/// 9 MiB less).
#[derive(Debug, Clone, Default, Eq)]
pub struct PortDecl {
    /// The `id` attribute. Output ids continue the input numbering.
    pub id: u32,
    /// From the `precision` attribute.
    pub element_type: Option<ElementType>,
    /// The declared dims. OpenVINO writes no `<dim>` both for a scalar and for
    /// an unknown rank, so an empty list is ambiguous: checks treat it as
    /// "rank not declared".
    pub dims: Vec<DeclaredDim>,
    /// Where the `<port>` element starts.
    pub location: SourceLocation,
    /// The names, other attributes and `<rt_info>`; `None` when the port
    /// has none (the setters leave no box of three empty ones, and ports
    /// compare by what they declare, boxed or not).
    pub extras: Option<Box<PortExtras>>,
}

/// What few ports declare (see [`PortDecl`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PortExtras {
    /// Tensor names (the comma-separated `names` attribute).
    pub names: Vec<String>,
    /// Any other attributes of the `<port>` element, in file order.
    pub attributes: Attributes,
    /// The port's `<rt_info>` element, kept verbatim.
    pub rt_info: Option<String>,
}

impl PortExtras {
    fn is_empty(&self) -> bool {
        self.names.is_empty() && self.attributes.is_empty() && self.rt_info.is_none()
    }
}

impl PartialEq for PortDecl {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && self.element_type == other.element_type
            && self.dims == other.dims
            && self.location == other.location
            && self.names() == other.names()
            && self.attributes() == other.attributes()
            && self.rt_info() == other.rt_info()
    }
}

/// The attributes of a port that has none.
static NO_ATTRIBUTES: Attributes = Attributes::new();

impl PortDecl {
    /// Tensor names (the comma-separated `names` attribute).
    pub fn names(&self) -> &[String] {
        self.extras.as_ref().map_or(&[], |extras| &extras.names)
    }

    /// Any other attributes of the `<port>` element, in file order.
    pub fn attributes(&self) -> &Attributes {
        self.extras
            .as_ref()
            .map_or(&NO_ATTRIBUTES, |extras| &extras.attributes)
    }

    /// The port's `<rt_info>` element, kept verbatim.
    pub fn rt_info(&self) -> Option<&str> {
        self.extras
            .as_ref()
            .and_then(|extras| extras.rt_info.as_deref())
    }

    /// Sets the tensor names.
    #[inline]
    pub fn set_names(&mut self, names: Vec<String>) {
        if names.is_empty() && self.extras.is_none() {
            return;
        }
        self.change_extras(|extras| extras.names = names);
    }

    /// Sets the other attributes.
    #[inline]
    pub fn set_attributes(&mut self, attributes: Attributes) {
        if attributes.is_empty() && self.extras.is_none() {
            return;
        }
        self.change_extras(|extras| extras.attributes = attributes);
    }

    /// Sets the `<rt_info>`.
    #[inline]
    pub fn set_rt_info(&mut self, rt_info: Option<String>) {
        if rt_info.is_none() && self.extras.is_none() {
            return;
        }
        self.change_extras(|extras| extras.rt_info = rt_info);
    }

    /// Applies `change` to the extras, boxed only while one is not empty (a
    /// port with none that is given none, nearly every port, returns before
    /// this in the setters: the reader calls them for every port).
    fn change_extras(&mut self, change: impl FnOnce(&mut PortExtras)) {
        match &mut self.extras {
            Some(extras) => {
                change(extras);
                if extras.is_empty() {
                    self.extras = None;
                }
            }
            None => {
                let mut extras = PortExtras::default();
                change(&mut extras);
                if !extras.is_empty() {
                    self.extras = Some(Box::new(extras));
                }
            }
        }
    }
}

/// One layer of the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The layer's `id` attribute, unique in the file.
    pub id: String,
    /// The layer's `name` (friendly name).
    pub name: String,
    pub op_type: OpType,
    pub op: Op,
    /// The attributes of the `<data>` element, in file order.
    pub attributes: Attributes,
    /// Attributes of the `<layer>` element other than id, name, type and version
    /// (a Result's `output_names`), in file order.
    pub layer_attributes: Attributes,
    pub inputs: Vec<PortDecl>,
    pub outputs: Vec<PortDecl>,
    /// The layer's `<rt_info>` element, kept verbatim.
    pub rt_info: Option<String>,
    /// Where the `<layer>` element starts.
    pub location: SourceLocation,
}

impl Node {
    /// The layer's identity for diagnostics.
    pub fn layer_ref(&self) -> LayerRef {
        LayerRef {
            id: self.id.clone(),
            name: self.name.clone(),
            type_name: self.op_type.name.clone(),
            version: self.op_type.version.clone(),
            parents: Vec::new(),
        }
    }
}

/// An edge from output `from_output` (an index into the source's
/// [`Node::outputs`]) to input `to_input` (an index into the destination's
/// [`Node::inputs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Edge {
    pub from_output: usize,
    pub to_input: usize,
}

/// An output port of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OutputRef {
    pub node: NodeId,
    pub output: usize,
}

/// An input port of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InputRef {
    pub node: NodeId,
    pub input: usize,
}

/// A model: its layers, edges and the symbols its shapes use.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    /// The `<net name>`.
    pub name: String,
    /// The `<net version>` (10 or 11).
    pub ir_version: u32,
    /// Layers and edges; node weights in file order.
    pub graph: DiGraph<Node, Edge>,
    /// The symbols of every symbolic dim in the graph.
    pub symbols: SymbolTable,
    /// The model's `<rt_info>` element, kept verbatim.
    pub rt_info: Option<String>,
}

impl Graph {
    /// Adds a node.
    pub fn add_node(&mut self, node: Node) -> NodeId {
        self.graph.add_node(node)
    }

    /// Connects `from` to `to`.
    pub fn connect(&mut self, from: OutputRef, to: InputRef) {
        self.graph.add_edge(
            from.node,
            to.node,
            Edge {
                from_output: from.output,
                to_input: to.input,
            },
        );
    }

    /// The node behind `id`.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.graph[id]
    }

    /// The node behind `id`, mutably.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.graph[id]
    }

    /// All nodes in file order.
    pub fn nodes(&self) -> impl Iterator<Item = (NodeId, &Node)> {
        self.graph
            .node_indices()
            .map(move |id| (id, &self.graph[id]))
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.graph.node_count()
    }

    /// The producers of each input of `node`: entry `i` lists every output
    /// feeding input `i` (a valid graph has exactly one).
    pub fn input_sources(&self, node: NodeId) -> Vec<Vec<OutputRef>> {
        let mut sources = vec![Vec::new(); self.graph[node].inputs.len()];
        for edge in self.graph.edges_directed(node, Direction::Incoming) {
            let e = edge.weight();
            if let Some(slot) = sources.get_mut(e.to_input) {
                slot.push(OutputRef {
                    node: edge.source(),
                    output: e.from_output,
                });
            }
        }
        for slot in &mut sources {
            slot.sort();
        }
        sources
    }

    /// The one producer of each input of `node`, or `None` when an input is
    /// fed by no output or by several: what [`Graph::input_sources`] says of
    /// a valid node, in one list instead of one per input (inference asks
    /// for every node).
    pub fn single_input_sources(&self, node: NodeId) -> Option<Vec<OutputRef>> {
        let mut sources = vec![None; self.graph[node].inputs.len()];
        for edge in self.graph.edges_directed(node, Direction::Incoming) {
            let e = edge.weight();
            if let Some(slot) = sources.get_mut(e.to_input) {
                let source = OutputRef {
                    node: edge.source(),
                    output: e.from_output,
                };
                if slot.replace(source).is_some() {
                    return None;
                }
            }
        }
        sources.into_iter().collect()
    }

    /// How every input of every node is fed, from one pass over the edges:
    /// what [`Graph::single_input_sources`] and the count of
    /// [`Graph::input_sources`] say of each node, without a list allocated
    /// per node (validation and inference ask for every node).
    pub fn input_feeds(&self) -> InputFeeds {
        let mut starts = Vec::with_capacity(self.graph.node_count() + 1);
        let mut total = 0;
        for node in self.graph.node_weights() {
            starts.push(total);
            total += node.inputs.len();
        }
        starts.push(total);
        let unfed = OutputRef {
            node: NodeId::end(),
            output: 0,
        };
        let mut sources = vec![unfed; total];
        let mut counts = vec![0u32; total];
        let mut file_ordered = true;
        for edge in self.graph.raw_edges() {
            file_ordered &= edge.source() < edge.target();
            let target = edge.target().index();
            let (start, end) = (starts[target], starts[target + 1]);
            let slot = start + edge.weight.to_input;
            if edge.weight.to_input < end - start {
                sources[slot] = OutputRef {
                    node: edge.source(),
                    output: edge.weight.from_output,
                };
                counts[slot] = counts[slot].saturating_add(1);
            }
        }
        InputFeeds {
            starts,
            sources,
            counts,
            file_ordered,
        }
    }

    /// The consumers of each output of `node`.
    pub fn output_consumers(&self, node: NodeId) -> Vec<Vec<InputRef>> {
        let mut consumers = vec![Vec::new(); self.graph[node].outputs.len()];
        for edge in self.graph.edges_directed(node, Direction::Outgoing) {
            let e = edge.weight();
            if let Some(slot) = consumers.get_mut(e.from_output) {
                slot.push(InputRef {
                    node: edge.target(),
                    input: e.to_input,
                });
            }
        }
        for slot in &mut consumers {
            slot.sort();
        }
        consumers
    }

    /// The nodes in a topological order (ties broken by file order), or a node
    /// on a cycle. Iterative: deep graphs cannot overflow the stack.
    pub fn topological_order(&self) -> Result<Vec<NodeId>, NodeId> {
        // Kahn's algorithm with a min-heap so the order is deterministic and
        // follows the file where the graph allows.
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        // When every edge goes forward in file order (as OpenVINO writes
        // them), the smallest node not yet taken always has all its
        // producers taken, so Kahn's order below is the file order itself.
        if self
            .graph
            .raw_edges()
            .iter()
            .all(|e| e.source() < e.target())
        {
            return Ok(self.graph.node_indices().collect());
        }
        let mut in_degree: Vec<usize> = self
            .graph
            .node_indices()
            .map(|n| self.graph.edges_directed(n, Direction::Incoming).count())
            .collect();
        let mut ready: BinaryHeap<Reverse<NodeId>> = self
            .graph
            .node_indices()
            .filter(|n| in_degree[n.index()] == 0)
            .map(Reverse)
            .collect();
        let mut order = Vec::with_capacity(self.graph.node_count());
        while let Some(Reverse(n)) = ready.pop() {
            order.push(n);
            for edge in self.graph.edges_directed(n, Direction::Outgoing) {
                let t = edge.target();
                in_degree[t.index()] -= 1;
                if in_degree[t.index()] == 0 {
                    ready.push(Reverse(t));
                }
            }
        }
        if order.len() == self.graph.node_count() {
            return Ok(order);
        }
        // Every node left has a predecessor left; walking predecessors from
        // any of them must revisit a node, and that node lies on a cycle.
        let Some(start) = self.graph.node_indices().find(|n| in_degree[n.index()] > 0) else {
            return Ok(order);
        };
        let mut seen = vec![false; self.graph.node_count()];
        let mut current = start;
        while !seen[current.index()] {
            seen[current.index()] = true;
            let Some(prev) = self
                .graph
                .edges_directed(current, Direction::Incoming)
                .map(|e| e.source())
                .find(|s| in_degree[s.index()] > 0)
            else {
                break;
            };
            current = prev;
        }
        Err(current)
    }

    /// The nodes of a shortest cycle through `on_cycle` (as found by
    /// [`Graph::topological_order`]), starting with it, in edge order.
    pub fn cycle_through(&self, on_cycle: NodeId) -> Vec<NodeId> {
        // Breadth-first search from the node's successors back to it.
        use std::collections::VecDeque;
        let mut parent: Vec<Option<NodeId>> = vec![None; self.graph.node_count()];
        let mut queue = VecDeque::new();
        for s in self.graph.neighbors_directed(on_cycle, Direction::Outgoing) {
            if parent[s.index()].is_none() {
                parent[s.index()] = Some(on_cycle);
                queue.push_back(s);
            }
        }
        while let Some(n) = queue.pop_front() {
            if n == on_cycle {
                // Walk the parents back to the start, then read them forwards.
                let mut cycle = Vec::new();
                let mut at = parent[on_cycle.index()];
                while let Some(p) = at {
                    if p == on_cycle || cycle.len() > self.graph.node_count() {
                        break;
                    }
                    cycle.push(p);
                    at = parent[p.index()];
                }
                cycle.push(on_cycle);
                cycle.reverse();
                return cycle;
            }
            for s in self.graph.neighbors_directed(n, Direction::Outgoing) {
                if parent[s.index()].is_none() {
                    parent[s.index()] = Some(n);
                    queue.push_back(s);
                }
            }
        }
        vec![on_cycle]
    }

    /// The bodies `node` owns (none for most ops).
    pub fn bodies(&self, node: NodeId) -> &[crate::body::Body] {
        match &self.graph[node].op {
            Op::SubGraph(sub) => &sub.bodies,
            _ => &[],
        }
    }

    /// The Parameter nodes in file order.
    pub fn parameters(&self) -> impl Iterator<Item = (NodeId, &Node)> {
        self.nodes()
            .filter(|(_, n)| matches!(n.op, Op::Parameter { .. }))
    }

    /// The Result nodes in file order.
    pub fn results(&self) -> impl Iterator<Item = (NodeId, &Node)> {
        self.nodes().filter(|(_, n)| matches!(n.op, Op::Result))
    }
}

/// How the inputs of every node of a graph are fed ([`Graph::input_feeds`]).
#[derive(Debug, Clone)]
pub struct InputFeeds {
    /// Where each node's inputs start in `sources` and `counts`, plus the end.
    starts: Vec<usize>,
    /// Per input of every node, a producer (the last edge's when several).
    sources: Vec<OutputRef>,
    /// Per input of every node, how many edges feed it.
    counts: Vec<u32>,
    /// Whether every edge goes forward in file order.
    file_ordered: bool,
}

impl InputFeeds {
    /// [`Graph::topological_order`] of `graph`, the graph these feeds were
    /// built from: when every edge goes forward in file order (as OpenVINO
    /// writes them), the file order, known from the pass over the edges
    /// that built the feeds, so validation and inference do not each scan
    /// the edges again (issue 18).
    pub fn topological_order(&self, graph: &Graph) -> Result<Vec<NodeId>, NodeId> {
        if self.file_ordered {
            Ok(graph.graph.node_indices().collect())
        } else {
            graph.topological_order()
        }
    }

    /// A node on a cycle of `graph`, the graph these feeds were built from,
    /// as [`Graph::topological_order`] names it, or `None`: without another
    /// pass over the edges when every one goes forward in file order.
    pub fn node_on_cycle(&self, graph: &Graph) -> Option<NodeId> {
        if self.file_ordered {
            None
        } else {
            graph.topological_order().err()
        }
    }

    /// How many edges feed each input of `node`.
    #[inline]
    pub fn counts(&self, node: NodeId) -> &[u32] {
        &self.counts[self.starts[node.index()]..self.starts[node.index() + 1]]
    }

    /// The one producer of each input of `node`, or `None` when an input is
    /// fed by no output or by several: [`Graph::single_input_sources`].
    #[inline]
    pub fn single(&self, node: NodeId) -> Option<&[OutputRef]> {
        let range = self.starts[node.index()]..self.starts[node.index() + 1];
        self.counts[range.clone()]
            .iter()
            .all(|&count| count == 1)
            .then(|| &self.sources[range])
    }
}

/// The IR name of an op type that OpenVINO's IR reader also accepts under
/// its class name (its `translate_type_name`): `Relu` is `ReLU`, `PRelu`
/// `PReLU`, `Softmax` `SoftMax`. A file that spells them so runs in
/// OpenVINO, so it is checked and run here too. Other names are unchanged.
pub fn ir_type_name(type_name: &str) -> &str {
    match type_name {
        "PRelu" => "PReLU",
        "Relu" => "ReLU",
        "Softmax" => "SoftMax",
        other => other,
    }
}
