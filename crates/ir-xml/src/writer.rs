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
use ir::{Attributes, DeclaredDim, Graph, Interval, Node, Op, PortDecl, Shape, SymbolTable};
use petgraph::visit::EdgeRef;

use crate::reader::format_u64_list;
use crate::{symbols, WriteError};

/// Writes `graph` as IR text and the `.bin` bytes it refers to.
pub(crate) fn write(graph: &Graph) -> Result<(String, Vec<u8>), WriteError> {
    let mut out = String::new();
    let mut bin = Vec::new();
    // Payload → offset, so that byte-identical constants share one range.
    let mut offsets: HashMap<&[u8], u64> = HashMap::new();

    out.push_str("<?xml version=\"1.0\"?>\n");
    out.push_str("<net");
    attr(&mut out, "name", &graph.name)?;
    attr(&mut out, "version", &graph.ir_version.to_string())?;
    out.push_str(">\n");

    if graph.node_count() == 0 {
        out.push_str("\t<layers />\n");
    } else {
        out.push_str("\t<layers>\n");
        for (_, node) in graph.nodes() {
            let attributes = match &node.op {
                Op::Parameter {
                    element_type,
                    shape,
                } => {
                    let mut attributes = node.attributes.clone();
                    attributes.set("shape", parameter_shape(&graph.symbols, shape));
                    attributes.set("element_type", element_type.name());
                    attributes
                }
                Op::Constant {
                    element_type,
                    shape,
                    data,
                } => {
                    let bytes = data.as_slice();
                    let offset = match offsets.get(bytes) {
                        Some(&offset) => offset,
                        None => {
                            let offset =
                                u64::try_from(bin.len()).map_err(|_| WriteError::TooLarge)?;
                            bin.extend_from_slice(bytes);
                            offsets.insert(bytes, offset);
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
                Op::Result | Op::Other => node.attributes.clone(),
            };
            layer(&mut out, node, &attributes)?;
        }
        out.push_str("\t</layers>\n");
    }

    let mut edges: Vec<_> = graph.graph.edge_references().collect();
    edges.sort_by_key(|e| e.id());
    if edges.is_empty() {
        out.push_str("\t<edges />\n");
    } else {
        out.push_str("\t<edges>\n");
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
            out.push_str("\t\t<edge");
            attr(&mut out, "from-layer", &from.id)?;
            attr(&mut out, "from-port", &from_port.id.to_string())?;
            attr(&mut out, "to-layer", &to.id)?;
            attr(&mut out, "to-port", &to_port.id.to_string())?;
            out.push_str(" />\n");
        }
        out.push_str("\t</edges>\n");
    }

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
    Ok((out, bin))
}

fn layer(out: &mut String, node: &Node, data: &Attributes) -> Result<(), WriteError> {
    out.push_str("\t\t<layer");
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
    {
        out.push_str(" />\n");
        return Ok(());
    }
    out.push_str(">\n");
    if !data.is_empty() {
        out.push_str("\t\t\t<data");
        for (key, value) in data.iter() {
            attr(out, key, value)?;
        }
        out.push_str(" />\n");
    }
    if let Some(rt_info) = &node.rt_info {
        out.push_str("\t\t\t");
        out.push_str(rt_info);
        out.push('\n');
    }
    for (tag, ports) in [("input", &node.inputs), ("output", &node.outputs)] {
        if ports.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\t\t\t<{tag}>");
        for p in ports {
            port(out, p)?;
        }
        let _ = writeln!(out, "\t\t\t</{tag}>");
    }
    out.push_str("\t\t</layer>\n");
    Ok(())
}

fn port(out: &mut String, port: &PortDecl) -> Result<(), WriteError> {
    out.push_str("\t\t\t\t<port");
    attr(out, "id", &port.id.to_string())?;
    if let Some(element_type) = port.element_type {
        attr(out, "precision", element_type.precision())?;
    }
    if !port.names.is_empty() {
        attr(out, "names", &join_names(&port.names))?;
    }
    for (key, value) in port.attributes.iter() {
        attr(out, key, value)?;
    }
    if port.dims.is_empty() && port.rt_info.is_none() {
        out.push_str(" />\n");
        return Ok(());
    }
    out.push_str(">\n");
    for dim in &port.dims {
        match dim {
            DeclaredDim::Static(d) => {
                let _ = writeln!(out, "\t\t\t\t\t<dim>{d}</dim>");
            }
            DeclaredDim::Dynamic => out.push_str("\t\t\t\t\t<dim>-1</dim>\n"),
        }
    }
    if let Some(rt_info) = &port.rt_info {
        out.push_str("\t\t\t\t\t");
        out.push_str(rt_info);
        out.push('\n');
    }
    out.push_str("\t\t\t\t</port>\n");
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
