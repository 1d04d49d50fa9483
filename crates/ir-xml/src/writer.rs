//! The writer: an [`ir::Graph`] to OpenVINO IR text and `.bin` bytes, in the
//! layout OpenVINO's own serializer uses (tab indentation, `<?xml
//! version="1.0"?>`, attributes in stored order, ` />` for empty elements).
//!
//! Parameter `shape`/`element_type` and Const `element_type`/`shape`/`offset`/
//! `size` are regenerated from the typed [`Op`]; every other attribute is
//! written as stored. The `.bin` holds each distinct constant payload once:
//! byte-identical constants share one offset. `<rt_info>` elements are written
//! back verbatim; the model rt_info gets the symbol-name section
//! ([`crate::symbols`]) when a Parameter dim is a named symbol.

use std::collections::HashMap;
use std::fmt::Write as _;

use ir::dim::Expr;
use ir::{
    Attributes, Body, BodyRole, DeclaredDim, Graph, Interval, Node, Op, PortDecl, Shape,
    SymbolTable,
};
use petgraph::visit::EdgeRef;

use crate::reader::format_u64_list;
use crate::{symbols, WriteError};

/// Writes `graph` as IR text and the `.bin` bytes it refers to.
pub(crate) fn write(graph: &Graph) -> Result<(String, Vec<u8>), WriteError> {
    let mut out = String::new();
    let mut writer = Writer {
        symbols: &graph.symbols,
        bin: Vec::new(),
        offsets: HashMap::new(),
    };

    out.push_str("<?xml version=\"1.0\"?>\n");
    out.push_str("<net");
    attr(&mut out, "name", &graph.name)?;
    attr(&mut out, "version", &graph.ir_version.to_string())?;
    out.push_str(">\n");
    writer.layers_and_edges(&mut out, graph, 1)?;

    let rt_info = match symbols::section(graph) {
        Some(section) => Some(symbols::with_section(graph.rt_info.as_deref(), &section)),
        None => graph.rt_info.clone(),
    };
    if let Some(rt_info) = rt_info {
        out.push('\t');
        out.push_str(&rt_info);
        out.push('\n');
    }
    out.push_str("</net>\n");
    Ok((out, writer.bin))
}

/// What writing a model and its bodies shares: the one symbol table and the
/// one `.bin`.
struct Writer<'g> {
    symbols: &'g SymbolTable,
    bin: Vec<u8>,
    /// Payload → offset, so that byte-identical constants share one range.
    offsets: HashMap<&'g [u8], u64>,
}

/// `level` tabs.
fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push('\t');
    }
}

impl<'g> Writer<'g> {
    /// `<layers>` and `<edges>` of `graph` (the model or a body) at
    /// indentation `level`.
    fn layers_and_edges(
        &mut self,
        out: &mut String,
        graph: &'g Graph,
        level: usize,
    ) -> Result<(), WriteError> {
        indent(out, level);
        if graph.node_count() == 0 {
            out.push_str("<layers />\n");
        } else {
            out.push_str("<layers>\n");
            for (_, node) in graph.nodes() {
                self.layer(out, node, level + 1)?;
            }
            indent(out, level);
            out.push_str("</layers>\n");
        }

        let mut edges: Vec<_> = graph.graph.edge_references().collect();
        edges.sort_by_key(|e| e.id());
        indent(out, level);
        if edges.is_empty() {
            out.push_str("<edges />\n");
            return Ok(());
        }
        out.push_str("<edges>\n");
        for edge in edges {
            let from = graph.node(edge.source());
            let to = graph.node(edge.target());
            let e = edge.weight();
            let from_port =
                from.outputs
                    .get(e.from_output)
                    .ok_or_else(|| WriteError::EdgePort {
                        layer: from.name.clone(),
                        index: e.from_output,
                        kind: "output",
                    })?;
            let to_port = to
                .inputs
                .get(e.to_input)
                .ok_or_else(|| WriteError::EdgePort {
                    layer: to.name.clone(),
                    index: e.to_input,
                    kind: "input",
                })?;
            indent(out, level + 1);
            out.push_str("<edge");
            attr(out, "from-layer", &from.id)?;
            attr(out, "from-port", &from_port.id.to_string())?;
            attr(out, "to-layer", &to.id)?;
            attr(out, "to-port", &to_port.id.to_string())?;
            out.push_str(" />\n");
        }
        indent(out, level);
        out.push_str("</edges>\n");
        Ok(())
    }

    /// The `<data>` attributes of `node`: the typed payload of Parameters
    /// and Consts regenerated (a Const's bytes placed in the `.bin`).
    fn data(&mut self, node: &'g Node) -> Result<Attributes, WriteError> {
        Ok(match &node.op {
            Op::Parameter {
                element_type,
                shape,
            } => {
                let mut attributes = node.attributes.clone();
                attributes.set("shape", parameter_shape(self.symbols, shape));
                attributes.set("element_type", element_type.name());
                attributes
            }
            Op::Constant {
                element_type,
                shape,
                data,
            } => {
                let bytes = data.as_slice();
                let offset = match self.offsets.get(bytes) {
                    Some(&offset) => offset,
                    None => {
                        let offset =
                            u64::try_from(self.bin.len()).map_err(|_| WriteError::TooLarge)?;
                        self.bin.extend_from_slice(bytes);
                        self.offsets.insert(bytes, offset);
                        offset
                    }
                };
                let mut attributes = node.attributes.clone();
                attributes.set("element_type", element_type.name());
                attributes.set("shape", format_u64_list(shape));
                attributes.set("offset", offset.to_string());
                attributes.set("size", data.len().to_string());
                attributes
            }
            Op::Result | Op::Other | Op::SubGraph(_) => node.attributes.clone(),
        })
    }

    /// One `<layer>` at indentation `level`, with its bodies as OpenVINO
    /// lays them out: port maps and back edges first, bodies last.
    fn layer(&mut self, out: &mut String, node: &'g Node, level: usize) -> Result<(), WriteError> {
        let data = self.data(node)?;
        let bodies: &[Body] = match &node.op {
            Op::SubGraph(sub) => &sub.bodies,
            _ => &[],
        };
        indent(out, level);
        out.push_str("<layer");
        attr(out, "id", &node.id)?;
        attr(out, "name", &node.name)?;
        attr(out, "type", &node.op_type.name)?;
        attr(out, "version", &node.op_type.version)?;
        for (key, value) in node.layer_attributes.iter() {
            attr(out, key, value)?;
        }
        if data.is_empty()
            && node.rt_info.is_none()
            && node.inputs.is_empty()
            && node.outputs.is_empty()
            && bodies.is_empty()
        {
            out.push_str(" />\n");
            return Ok(());
        }
        out.push_str(">\n");
        // OpenVINO writes If's else port map before the then port map.
        for body in bodies.iter().rev() {
            port_map(out, node, body, level + 1)?;
        }
        if !data.is_empty() {
            indent(out, level + 1);
            out.push_str("<data");
            for (key, value) in data.iter() {
                attr(out, key, value)?;
            }
            out.push_str(" />\n");
        }
        if let Some(rt_info) = &node.rt_info {
            indent(out, level + 1);
            out.push_str(rt_info);
            out.push('\n');
        }
        for (tag, ports) in [("input", &node.inputs), ("output", &node.outputs)] {
            if ports.is_empty() {
                continue;
            }
            indent(out, level + 1);
            let _ = writeln!(out, "<{tag}>");
            for p in ports {
                port(out, p, level + 2)?;
            }
            indent(out, level + 1);
            let _ = writeln!(out, "</{tag}>");
        }
        for body in bodies {
            let tag = body_tag(body.role);
            indent(out, level + 1);
            let _ = writeln!(out, "<{tag}>");
            self.layers_and_edges(out, &body.graph, level + 2)?;
            if let Some(rt_info) = &body.graph.rt_info {
                indent(out, level + 2);
                out.push_str(rt_info);
                out.push('\n');
            }
            indent(out, level + 1);
            let _ = writeln!(out, "</{tag}>");
        }
        indent(out, level);
        out.push_str("</layer>\n");
        Ok(())
    }
}

/// The element of a body with role `role`.
fn body_tag(role: BodyRole) -> &'static str {
    match role {
        BodyRole::Body => "body",
        BodyRole::Then => "then_body",
        BodyRole::Else => "else_body",
    }
}

/// The port map of `body` (and, for a Loop or TensorIterator body, its
/// `<back_edges>`) at indentation `level`.
fn port_map(out: &mut String, node: &Node, body: &Body, level: usize) -> Result<(), WriteError> {
    let tag = match body.role {
        BodyRole::Body => "port_map",
        BodyRole::Then => "then_port_map",
        BodyRole::Else => "else_port_map",
    };
    let layer_id = |id: ir::NodeId| -> Result<&str, WriteError> {
        body.graph
            .graph
            .node_weight(id)
            .map(|n| n.id.as_str())
            .ok_or_else(|| WriteError::BodyNode {
                layer: node.name.clone(),
                index: id.index(),
            })
    };
    let port_id = |ports: &[PortDecl], index: usize, kind: &'static str| {
        ports
            .get(index)
            .map(|p| p.id.to_string())
            .ok_or_else(|| WriteError::EdgePort {
                layer: node.name.clone(),
                index,
                kind,
            })
    };
    let entry = |out: &mut String,
                 element: &str,
                 external: &str,
                 internal: &str,
                 slice: Option<&ir::SliceSpec>,
                 purpose: Option<&str>|
     -> Result<(), WriteError> {
        indent(out, level + 1);
        out.push('<');
        out.push_str(element);
        if let Some(slice) = slice {
            attr(out, "axis", &slice.axis.to_string())?;
        }
        attr(out, "external_port_id", external)?;
        attr(out, "internal_layer_id", internal)?;
        if let Some(slice) = slice {
            attr(out, "start", &slice.start.to_string())?;
            attr(out, "end", &slice.end.to_string())?;
            attr(out, "stride", &slice.stride.to_string())?;
            attr(out, "part_size", &slice.part_size.to_string())?;
        }
        if let Some(purpose) = purpose {
            attr(out, "purpose", purpose)?;
        }
        out.push_str(" />\n");
        Ok(())
    };
    indent(out, level);
    let _ = writeln!(out, "<{tag}>");
    for input in &body.inputs {
        let external = port_id(&node.inputs, input.outer, "input")?;
        entry(
            out,
            "input",
            &external,
            layer_id(input.param)?,
            input.slice.as_ref(),
            None,
        )?;
    }
    for output in &body.outputs {
        let external = port_id(&node.outputs, output.outer, "output")?;
        entry(
            out,
            "output",
            &external,
            layer_id(output.result)?,
            output.concat.as_ref(),
            None,
        )?;
    }
    if let Some(param) = body.current_iteration {
        entry(
            out,
            "input",
            "-1",
            layer_id(param)?,
            None,
            Some("current_iteration"),
        )?;
    }
    if let Some(result) = body.condition {
        entry(
            out,
            "output",
            "-1",
            layer_id(result)?,
            None,
            Some("execution_condition"),
        )?;
    }
    indent(out, level);
    let _ = writeln!(out, "</{tag}>");
    if body.role == BodyRole::Body && !body.back_edges.is_empty() {
        indent(out, level);
        out.push_str("<back_edges>\n");
        for edge in &body.back_edges {
            indent(out, level + 1);
            out.push_str("<edge");
            attr(out, "from-layer", layer_id(edge.from)?)?;
            attr(out, "to-layer", layer_id(edge.to)?)?;
            out.push_str(" />\n");
        }
        indent(out, level);
        out.push_str("</back_edges>\n");
    }
    Ok(())
}

fn port(out: &mut String, port: &PortDecl, level: usize) -> Result<(), WriteError> {
    indent(out, level);
    out.push_str("<port");
    attr(out, "id", &port.id.to_string())?;
    if let Some(element_type) = port.element_type {
        attr(out, "precision", element_type.precision())?;
    }
    if !port.names().is_empty() {
        attr(out, "names", &join_names(port.names()))?;
    }
    for (key, value) in port.attributes().iter() {
        attr(out, key, value)?;
    }
    if port.dims.is_empty() && port.rt_info().is_none() {
        out.push_str(" />\n");
        return Ok(());
    }
    out.push_str(">\n");
    for dim in &port.dims {
        indent(out, level + 1);
        match dim {
            DeclaredDim::Static(d) => {
                let _ = writeln!(out, "<dim>{d}</dim>");
            }
            DeclaredDim::Dynamic => out.push_str("<dim>-1</dim>\n"),
        }
    }
    if let Some(rt_info) = port.rt_info() {
        indent(out, level + 1);
        out.push_str(rt_info);
        out.push('\n');
    }
    indent(out, level);
    out.push_str("</port>\n");
    Ok(())
}

/// Joins tensor names with commas, escaping commas inside names as `\,`.
fn join_names(names: &[String]) -> String {
    names
        .iter()
        .map(|n| n.replace(',', "\\,"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The Parameter `shape` attribute in OpenVINO's syntax: `1,?,2..10,1..,..8`,
/// `...` for a dynamic rank, the empty text for a scalar.
pub(crate) fn parameter_shape(symbols: &SymbolTable, shape: &Shape) -> String {
    match shape {
        Shape::DynamicRank => "...".to_owned(),
        Shape::Ranked(dims) => dims
            .iter()
            .map(|d| dim_text(symbols, d))
            .collect::<Vec<_>>()
            .join(","),
    }
}

fn dim_text(symbols: &SymbolTable, dim: &Expr) -> String {
    if let Some(value) = dim.as_constant() {
        return if value >= 0 {
            value.to_string()
        } else {
            "?".to_owned()
        };
    }
    match dim.as_symbol() {
        Some(id) => symbols
            .get(id)
            .map_or_else(|| "?".to_owned(), |info| interval_text(info.range)),
        // A compound expression has no OpenVINO spelling but "unknown".
        None => "?".to_owned(),
    }
}

/// A dim range in OpenVINO's syntax: `?` for `[0, ∞)`, `2..10`, `1..`, `..8`.
fn interval_text(range: Interval) -> String {
    let lo = range.lo.filter(|&lo| lo > 0);
    let hi = range.hi.filter(|&hi| hi >= 0);
    match (lo, hi) {
        (None, None) => "?".to_owned(),
        (Some(lo), Some(hi)) if lo == hi => lo.to_string(),
        (Some(lo), Some(hi)) => format!("{lo}..{hi}"),
        (Some(lo), None) => format!("{lo}.."),
        (None, Some(hi)) => format!("..{hi}"),
    }
}

/// Appends ` key="value"` with the value escaped.
fn attr(out: &mut String, key: &str, value: &str) -> Result<(), WriteError> {
    if !is_xml_name(key) {
        return Err(WriteError::InvalidName(key.to_owned()));
    }
    out.push(' ');
    out.push_str(key);
    out.push_str("=\"");
    out.push_str(&checked_escape(value)?);
    out.push('"');
    Ok(())
}

fn is_xml_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == ':')
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '-' | '.'))
}

fn checked_escape(value: &str) -> Result<String, WriteError> {
    if let Some(c) = value
        .chars()
        .find(|&c| c < ' ' && !matches!(c, '\t' | '\n' | '\r'))
    {
        return Err(WriteError::InvalidText {
            text: value.to_owned(),
            code: u32::from(c),
        });
    }
    Ok(escape_attr(value))
}

/// Escapes an attribute value: `& < > "` and the line breaks and tabs an XML
/// parser would otherwise normalize to spaces.
pub(crate) fn escape_attr(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\t' => escaped.push_str("&#9;"),
            '\n' => escaped.push_str("&#10;"),
            '\r' => escaped.push_str("&#13;"),
            _ => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_in_openvino_syntax() {
        assert_eq!(interval_text(Interval::new(Some(0), None)), "?");
        assert_eq!(interval_text(Interval::new(None, None)), "?");
        assert_eq!(interval_text(Interval::new(Some(2), Some(10))), "2..10");
        assert_eq!(interval_text(Interval::new(Some(1), None)), "1..");
        assert_eq!(interval_text(Interval::new(Some(0), Some(8))), "..8");
    }

    #[test]
    fn escaping() {
        assert_eq!(
            escape_attr("a<b>&\"c\"\n"),
            "a&lt;b&gt;&amp;&quot;c&quot;&#10;"
        );
        assert!(checked_escape("a\u{1}").is_err());
        assert_eq!(join_names(&["a,b".into(), "c".into()]), "a\\,b,c");
    }
}
