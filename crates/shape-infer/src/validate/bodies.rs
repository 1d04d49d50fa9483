//! Checks of the bodies an If, Loop or TensorIterator owns: each body is a
//! graph with the usual structural checks (recursively, so bodies in bodies
//! too), and its port maps and back edges must join it to the op soundly:
//! every entry names an op port and a body Parameter (inputs) or Result
//! (outputs), every body Parameter is fed once, every op output is given by
//! each body, back edges run from a Result to a Parameter with an initial
//! value and a compatible declared shape, slices have a valid axis, a
//! positive `part_size` and a non-zero `stride`. Diagnostics about body layers
//! name the op layer on their path.

use ir::{Body, BodyRole, DeclaredDim, Diagnostic, Graph, Node, NodeId, Op, SliceSpec, SubGraph};

/// A port-map entry names a port or body node that does not fit.
const PORT_MAP_INVALID: &str = "port-map-invalid";
/// A body Parameter that no port-map entry feeds, or that two feed.
const BODY_PARAMETER_UNFED: &str = "body-parameter-unfed";
/// An op output that a body does not give, or gives twice.
const BODY_OUTPUT_UNMAPPED: &str = "body-output-unmapped";
/// A back edge that does not join a Result to a fed Parameter.
const BACK_EDGE_INVALID: &str = "back-edge-invalid";
/// A back edge whose ends have different element types or ranks.
const BACK_EDGE_MISMATCH: &str = "back-edge-mismatch";
/// A slice or concatenation with an invalid axis, part size or stride.
const SLICE_INVALID: &str = "body-slice-invalid";
/// An op with the wrong bodies for its type (If: then and else; Loop and
/// TensorIterator: one body).
const BODIES_INVALID: &str = "bodies-invalid";

/// Checks `sub`, the bodies of `node`, pushing what is wrong to `out`.
pub(super) fn validate_sub_graph(node: &Node, sub: &SubGraph, out: &mut Vec<Diagnostic>) {
    let parent = node.layer_ref();
    let at_node = |d: Diagnostic| d.at_layer(parent.clone(), node.location);
    let roles: Vec<BodyRole> = sub.bodies.iter().map(|b| b.role).collect();
    let expected: &[BodyRole] = match node.op_type.name.as_str() {
        "If" => &[BodyRole::Then, BodyRole::Else],
        _ => &[BodyRole::Body],
    };
    if roles != expected {
        let names = |roles: &[BodyRole]| {
            roles
                .iter()
                .map(|r| r.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push(at_node(Diagnostic::error(
            BODIES_INVALID,
            format!(
                "a {} needs the bodies [{}] but has [{}]",
                node.op_type.name,
                names(expected),
                names(&roles)
            ),
        )));
    }
    for body in &sub.bodies {
        for diagnostic in super::validate(&body.graph) {
            out.push(diagnostic.within(&parent, body.role.name()));
        }
        let mut checks = BodyChecks {
            node,
            body,
            out: &mut *out,
        };
        checks.port_map();
        checks.back_edges();
    }
}

struct BodyChecks<'a> {
    node: &'a Node,
    body: &'a Body,
    out: &'a mut Vec<Diagnostic>,
}

/// The declared rank of a port, when it declares dims (no `<dim>` is
/// ambiguous between a scalar and an unknown rank).
fn declared_rank(dims: &[DeclaredDim]) -> Option<usize> {
    (!dims.is_empty()).then_some(dims.len())
}

impl BodyChecks<'_> {
    fn error(&mut self, rule: &'static str, message: String) {
        let body = self.body.role.name();
        self.out.push(
            Diagnostic::error(rule, format!("{body}: {message}"))
                .at_layer(self.node.layer_ref(), self.node.location),
        );
    }

    fn warning(&mut self, rule: &'static str, message: String) {
        let body = self.body.role.name();
        self.out.push(
            Diagnostic::warning(rule, format!("{body}: {message}"))
                .at_layer(self.node.layer_ref(), self.node.location),
        );
    }

    fn graph(&self) -> &Graph {
        &self.body.graph
    }

    /// The body node `id`, if it exists.
    fn body_node(&self, id: NodeId) -> Option<&Node> {
        self.graph().graph.node_weight(id)
    }

    /// Whether body node `id` exists and is a Parameter (`want_param`) or a
    /// Result; otherwise says why not.
    fn is_kind(&mut self, id: NodeId, want_param: bool, what: &str) -> bool {
        let kind = if want_param { "Parameter" } else { "Result" };
        let found = self.body_node(id).map(|n| {
            let ok = match n.op {
                Op::Parameter { .. } => want_param,
                Op::Result => !want_param,
                _ => false,
            };
            (
                ok,
                format!("layer {} `{}` ({})", n.id, n.name, n.op_type.name),
            )
        });
        match found {
            Some((true, _)) => true,
            Some((false, layer)) => {
                self.error(
                    PORT_MAP_INVALID,
                    format!("{what} names {layer}, not a {kind}"),
                );
                false
            }
            None => {
                self.error(
                    PORT_MAP_INVALID,
                    format!(
                        "{what} names body node {}, which does not exist",
                        id.index()
                    ),
                );
                false
            }
        }
    }

    fn slice(&mut self, slice: &SliceSpec, rank: Option<usize>, what: &str) {
        if slice.part_size <= 0 {
            self.error(
                SLICE_INVALID,
                format!(
                    "{what} has part_size {}; it must be positive",
                    slice.part_size
                ),
            );
        }
        if slice.stride == 0 {
            self.error(SLICE_INVALID, format!("{what} has stride 0"));
        }
        if let Some(rank) = rank.and_then(|r| i64::try_from(r).ok()) {
            if slice.axis < -rank || slice.axis >= rank {
                self.error(
                    SLICE_INVALID,
                    format!(
                        "{what} has axis {} outside [{}, {}] of its rank-{rank} tensor",
                        slice.axis,
                        -rank,
                        rank - 1
                    ),
                );
            }
        }
    }

    fn port_map(&mut self) {
        let body = self.body;
        let node = self.node;
        let mut fed: Vec<NodeId> = Vec::new();
        for (index, input) in body.inputs.iter().enumerate() {
            let what = format!("port-map input {index}");
            let outer = node.inputs.get(input.outer);
            if outer.is_none() {
                self.error(
                    PORT_MAP_INVALID,
                    format!(
                        "{what} names op input {}, which does not exist",
                        input.outer
                    ),
                );
            }
            if !self.is_kind(input.param, true, &what) {
                continue;
            }
            if fed.contains(&input.param) || body.current_iteration == Some(input.param) {
                let name = self.body_node(input.param).map(|n| n.name.clone());
                self.error(
                    BODY_PARAMETER_UNFED,
                    format!(
                        "the body Parameter `{}` is fed twice",
                        name.unwrap_or_default()
                    ),
                );
            }
            fed.push(input.param);
            if let Some(slice) = &input.slice {
                let rank = outer.and_then(|p| declared_rank(&p.dims));
                self.slice(slice, rank, &what);
            }
        }
        if let Some(param) = body.current_iteration {
            if self.is_kind(param, true, "the current-iteration port") {
                fed.push(param);
            }
        }
        if let Some(result) = body.condition {
            self.is_kind(result, false, "the execution-condition port");
        }
        let unfed: Vec<String> = self
            .graph()
            .parameters()
            .filter(|(id, _)| !fed.contains(id))
            .map(|(_, n)| format!("`{}` (layer {})", n.name, n.id))
            .collect();
        if !unfed.is_empty() {
            self.error(
                BODY_PARAMETER_UNFED,
                format!(
                    "no port-map input feeds the body Parameter(s) {}",
                    unfed.join(", ")
                ),
            );
        }

        let mut given = vec![0usize; node.outputs.len()];
        for (index, output) in body.outputs.iter().enumerate() {
            let what = format!("port-map output {index}");
            match given.get_mut(output.outer) {
                Some(count) => *count += 1,
                None => self.error(
                    PORT_MAP_INVALID,
                    format!(
                        "{what} names op output {}, which does not exist",
                        output.outer
                    ),
                ),
            }
            if !self.is_kind(output.result, false, &what) {
                continue;
            }
            if let Some(slice) = &output.concat {
                let rank = self
                    .body_node(output.result)
                    .and_then(|n| n.inputs.first())
                    .and_then(|p| declared_rank(&p.dims));
                self.slice(slice, rank, &what);
            }
        }
        for (index, count) in given.iter().enumerate() {
            let port = node.outputs.get(index).map_or(0, |p| p.id);
            match count {
                1 => {}
                0 => self.error(
                    BODY_OUTPUT_UNMAPPED,
                    format!("no body Result gives output port {port}"),
                ),
                n => self.error(
                    BODY_OUTPUT_UNMAPPED,
                    format!("{n} body Results give output port {port}"),
                ),
            }
        }
    }

    fn back_edges(&mut self) {
        let body = self.body;
        let mut targets: Vec<NodeId> = Vec::new();
        for edge in &body.back_edges {
            let nodes = &body.graph.graph;
            let (Some(from), Some(to)) = (nodes.node_weight(edge.from), nodes.node_weight(edge.to))
            else {
                self.error(
                    BACK_EDGE_INVALID,
                    "a back edge names a body node that does not exist".to_owned(),
                );
                continue;
            };
            let text = format!("the back edge {} -> {}", from.id, to.id);
            if !matches!(from.op, Op::Result) || !matches!(to.op, Op::Parameter { .. }) {
                self.error(
                    BACK_EDGE_INVALID,
                    format!(
                        "{text} must run from a Result to a Parameter, not from {} to {}",
                        from.op_type.name, to.op_type.name
                    ),
                );
                continue;
            }
            if targets.contains(&edge.to) {
                self.error(
                    BACK_EDGE_INVALID,
                    format!("{text}: a second back edge into Parameter `{}`", to.name),
                );
            }
            targets.push(edge.to);
            match body.inputs.iter().find(|i| i.param == edge.to) {
                None => self.error(
                    BACK_EDGE_INVALID,
                    format!(
                        "{text}: Parameter `{}` has no initial value (no port-map input feeds it)",
                        to.name
                    ),
                ),
                Some(input) if input.slice.is_some() => self.warning(
                    BACK_EDGE_INVALID,
                    format!(
                        "{text}: Parameter `{}` is a sliced input; OpenVINO ignores the back edge",
                        to.name
                    ),
                ),
                Some(_) => {}
            }
            let (from_port, to_port) = (from.inputs.first(), to.outputs.first());
            let (Some(from_port), Some(to_port)) = (from_port, to_port) else {
                continue;
            };
            if let (Some(a), Some(b)) = (from_port.element_type, to_port.element_type) {
                if a != b {
                    self.error(
                        BACK_EDGE_MISMATCH,
                        format!("{text} carries {a} into a Parameter of {b}"),
                    );
                }
            }
            match (declared_rank(&from_port.dims), declared_rank(&to_port.dims)) {
                (Some(a), Some(b)) if a != b => self.error(
                    BACK_EDGE_MISMATCH,
                    format!("{text} carries a rank-{a} value into a rank-{b} Parameter"),
                ),
                (Some(_), Some(_)) => {
                    let differing: Vec<String> = from_port
                        .dims
                        .iter()
                        .zip(&to_port.dims)
                        .enumerate()
                        .filter_map(|(axis, pair)| match pair {
                            (DeclaredDim::Static(a), DeclaredDim::Static(b)) if a != b => {
                                Some(format!("dim {axis}: {a} vs {b}"))
                            }
                            _ => None,
                        })
                        .collect();
                    if !differing.is_empty() {
                        self.warning(
                            BACK_EDGE_MISMATCH,
                            format!(
                                "{text} changes the declared shape ({}): the value's shape changes per iteration",
                                differing.join(", ")
                            ),
                        );
                    }
                }
                _ => {}
            }
        }
    }
}
