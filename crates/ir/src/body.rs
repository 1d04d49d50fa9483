//! Nested graphs: the bodies of If-8, Loop-5 and TensorIterator-1.
//!
//! A node whose op owns bodies has [`Op::SubGraph`](crate::Op::SubGraph). Each
//! [`Body`] is a full [`Graph`] owned by the node (no sharing, no cycle through
//! bodies), plus the maps that join it to the node: which op input feeds which
//! body Parameter (whole, sliced per iteration, or merged with a back edge) and
//! which body Result gives which op output (its last value or the concatenation
//! of every iteration's). Body layers have their own ids (unique only within the
//! body); their symbols live in the top-level graph's [`symdim::SymbolTable`],
//! since a body's shapes are built from the outer ones. The file format
//! (`<body>`, `<port_map>`, `<back_edges>`) belongs to `ir-xml`.

use petgraph::visit::EdgeRef;

use crate::graph::{Graph, NodeId};

/// The bodies a node owns and how they join it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubGraph {
    /// If: the then and else bodies, in that order; Loop and TensorIterator:
    /// one body.
    pub bodies: Vec<Body>,
}

impl SubGraph {
    /// The body with role `role`.
    pub fn body(&self, role: BodyRole) -> Option<&Body> {
        self.bodies.iter().find(|b| b.role == role)
    }
}

/// Which body of its op a [`Body`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BodyRole {
    /// The one body of a Loop or TensorIterator.
    Body,
    /// If's body run when the condition is true.
    Then,
    /// If's body run when the condition is false.
    Else,
}

impl BodyRole {
    /// How diagnostics and reports name the body (`body`, `then_body`, `else_body`).
    pub fn name(self) -> &'static str {
        match self {
            BodyRole::Body => "body",
            BodyRole::Then => "then_body",
            BodyRole::Else => "else_body",
        }
    }
}

/// One nested graph and its port maps.
#[derive(Debug, Clone)]
pub struct Body {
    pub role: BodyRole,
    /// The body's layers and edges. Its `symbols` table stays empty: every
    /// symbol lives in the top-level graph's table.
    pub graph: Graph,
    /// Op inputs to body Parameters, in file order.
    pub inputs: Vec<InputMap>,
    /// Body Results to op outputs, in file order.
    pub outputs: Vec<OutputMap>,
    /// Body Results whose value feeds a body Parameter in the next iteration.
    pub back_edges: Vec<BackEdge>,
    /// Loop-5: the Parameter that receives the iteration number.
    pub current_iteration: Option<NodeId>,
    /// Loop-5: the Result that decides whether another iteration runs.
    pub condition: Option<NodeId>,
}

impl Body {
    /// An empty body with role `role`.
    pub fn new(role: BodyRole) -> Self {
        Body {
            role,
            graph: Graph::default(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            back_edges: Vec::new(),
            current_iteration: None,
            condition: None,
        }
    }

    /// The Result whose value feeds `param` in the next iteration, if any.
    pub fn back_edge_into(&self, param: NodeId) -> Option<NodeId> {
        self.back_edges
            .iter()
            .find(|e| e.to == param)
            .map(|e| e.from)
    }
}

/// Bodies compare by their nodes and edges in index order (`DiGraph` has no
/// `PartialEq`), their port maps and special ports.
impl PartialEq for Body {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.graph, &other.graph);
        let same_nodes = a.node_count() == b.node_count()
            && a.nodes().zip(b.nodes()).all(|((_, x), (_, y))| x == y);
        let edges = |g: &Graph| {
            g.graph
                .edge_references()
                .map(|e| (e.source(), e.target(), *e.weight()))
                .collect::<Vec<_>>()
        };
        self.role == other.role
            && same_nodes
            && edges(a) == edges(b)
            && a.name == b.name
            && a.rt_info == b.rt_info
            && self.inputs == other.inputs
            && self.outputs == other.outputs
            && self.back_edges == other.back_edges
            && self.current_iteration == other.current_iteration
            && self.condition == other.condition
    }
}

impl Eq for Body {}

/// An op input feeding a body Parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputMap {
    /// The op input (an index into the node's `inputs`).
    pub outer: usize,
    /// The body node fed (a Parameter in a valid model).
    pub param: NodeId,
    /// `Some` when the Parameter gets one slice of the input per iteration.
    pub slice: Option<SliceSpec>,
}

/// A body Result giving an op output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputMap {
    /// The op output (an index into the node's `outputs`).
    pub outer: usize,
    /// The body node read (a Result in a valid model).
    pub result: NodeId,
    /// `Some` when the output concatenates every iteration's value; `None`:
    /// the value of the last iteration.
    pub concat: Option<SliceSpec>,
}

/// How an input is sliced, or outputs concatenated, along one axis, as
/// OpenVINO writes it: `part_size` elements per iteration from `start`
/// towards `end` (inclusive; negative values count from the end, `-1` the
/// last element) with step `stride` (negative: backwards).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SliceSpec {
    pub axis: i64,
    pub start: i64,
    pub end: i64,
    pub stride: i64,
    pub part_size: i64,
}

/// A back edge: body Result `from` feeds body Parameter `to` in the next
/// iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BackEdge {
    pub from: NodeId,
    pub to: NodeId,
}
