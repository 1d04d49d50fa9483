//! Symbol names in the model `<rt_info>`.
//!
//! OpenVINO's IR has no place for the name of a dimension, so the writer keeps
//! the names of the Parameter dims in a nested section of the model rt_info,
//! which OpenVINO reads (and writes back) as a map of strings:
//!
//! ```xml
//! <rt_info>
//!     <info name="OpenVINO Runtime" value="..." />
//!     <symbolic_dims>
//!         <info name="pixel_values" value="N,3,H,W" />
//!     </symbolic_dims>
//! </rt_info>
//! ```
//!
//! `name` is the Parameter's layer name, `value` one entry per dim: the symbol's
//! name, the number of a static dim, or `?` for an unnamed dim. The reader
//! applies the names to the Parameter dims that are plain symbols and removes
//! the section from the rt_info it keeps, so the section never goes stale: the
//! writer regenerates it from the symbol table.

use ir::dim::Expr;
use ir::{Graph, Op, Shape, SymbolTable};

use crate::writer::escape_attr;

/// The element name of the section.
pub(crate) const SECTION: &str = "symbolic_dims";

/// Names the plain-symbol dims of `dims` after the entries of `value`
/// (`"N,3,H,W"`); `?`, numbers and empty entries name nothing.
pub(crate) fn apply_names(
    symbols: &mut SymbolTable,
    dims: &[Expr],
    value: &str,
) -> Result<(), String> {
    let entries: Vec<&str> = value.split(',').map(str::trim).collect();
    if entries.len() != dims.len() {
        return Err(format!("{} entries for {} dims", entries.len(), dims.len()));
    }
    for (dim, entry) in dims.iter().zip(entries) {
        if entry.is_empty() || entry == "?" || entry.parse::<i64>().is_ok() {
            continue;
        }
        if let Some(id) = dim.as_symbol() {
            symbols.set_name(id, entry);
        }
    }
    Ok(())
}

/// The `value` for a Parameter's dims, or `None` when no dim is a named symbol.
fn dims_value(symbols: &SymbolTable, dims: &[Expr]) -> Option<String> {
    let mut any_named = false;
    let entries: Vec<String> = dims
        .iter()
        .map(|dim| {
            if let Some(value) = dim.as_constant() {
                return value.to_string();
            }
            let name = dim
                .as_symbol()
                .and_then(|id| symbols.get(id)?.name.clone())
                .filter(|name| is_writable_name(name));
            match name {
                Some(name) => {
                    any_named = true;
                    name
                }
                None => "?".to_owned(),
            }
        })
        .collect();
    any_named.then(|| entries.join(","))
}

/// Whether a name survives the comma-separated form.
fn is_writable_name(name: &str) -> bool {
    !name.is_empty()
        && name == name.trim()
        && !name.contains(',')
        && name != "?"
        && name.parse::<i64>().is_err()
}

/// The section for `graph` (indented for the model rt_info, ending with a
/// newline), or `None` when no Parameter dim is a named symbol.
pub(crate) fn section(graph: &Graph) -> Option<String> {
    let mut infos = String::new();
    for (_, node) in graph.parameters() {
        let Op::Parameter { shape, .. } = &node.op else {
            continue;
        };
        let Shape::Ranked(dims) = shape.as_ref() else {
            continue;
        };
        if let Some(value) = dims_value(&graph.symbols, dims) {
            infos.push_str(&format!(
                "\t\t\t<info name=\"{}\" value=\"{}\" />\n",
                escape_attr(&node.name),
                escape_attr(&value)
            ));
        }
    }
    (!infos.is_empty()).then(|| format!("\t\t<{SECTION}>\n{infos}\t\t</{SECTION}>\n"))
}

/// `rt_info` (the verbatim model `<rt_info>` element, if any) with `section`
/// added as its last child.
pub(crate) fn with_section(rt_info: Option<&str>, section: &str) -> String {
    let Some(text) = rt_info else {
        return format!("<rt_info>\n{section}\t</rt_info>");
    };
    match text.rfind("</") {
        Some(close)
            if text
                .get(close..)
                .is_some_and(|t| t.starts_with("</rt_info")) =>
        {
            let at = line_start(text, close);
            format!("{}{section}{}", &text[..at], &text[at..])
        }
        // `<rt_info/>`: no content, no closing tag.
        _ => format!("<rt_info>\n{section}\t</rt_info>"),
    }
}

/// The rt_info the writer makes for a graph without one, once the section is
/// removed again: read back as no rt_info.
pub(crate) const EMPTY_RT_INFO: &str = "<rt_info>\n\t</rt_info>";

/// Removes `start..end` from `text` together with the line it sits on: the
/// spaces and tabs before it, and the line break before it (or, when other
/// text precedes it on its line, the line break after it).
pub(crate) fn remove_line(text: &mut String, start: usize, end: usize) {
    let bytes = text.as_bytes();
    let end = end.min(bytes.len());
    let mut from = start.min(end);
    while from > 0 && matches!(bytes[from - 1], b' ' | b'\t') {
        from -= 1;
    }
    let mut to = end;
    if from > 0 && bytes[from - 1] == b'\n' {
        // Only the `\n`: the section's own line break ends with one, so a
        // `\r` before it stays with the line it ends.
        from -= 1;
    } else if bytes.get(to) == Some(&b'\n') {
        to += 1;
    } else if bytes.get(to..to + 2) == Some(b"\r\n") {
        to += 2;
    }
    text.replace_range(from..to, "");
}

/// Where to insert a line before the closing tag at `close`: the start of its
/// line when only spaces and tabs precede it there, else `close` itself.
fn line_start(text: &str, close: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = close;
    while at > 0 && matches!(bytes[at - 1], b' ' | b'\t') {
        at -= 1;
    }
    if at > 0 && bytes[at - 1] == b'\n' {
        at
    } else {
        close
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(rt: &str) {
        let out = with_section(Some(rt), "\t\t<s />\n");
        let at = out.find("<s />").unwrap_or_default();
        let mut back = out.clone();
        remove_line(&mut back, at, at + "<s />".len());
        assert_eq!(back, rt, "via {out:?}");
    }

    #[test]
    fn section_goes_before_the_closing_tag_and_comes_out_again() {
        let rt = "<rt_info>\n\t\t<info name=\"a\" value=\"b\" />\n\t</rt_info>";
        assert_eq!(
            with_section(Some(rt), "\t\t<s />\n"),
            "<rt_info>\n\t\t<info name=\"a\" value=\"b\" />\n\t\t<s />\n\t</rt_info>"
        );
        round_trip(rt);
        round_trip("<rt_info></rt_info>");
        round_trip("<rt_info>\r\n\t\t<a />\r\n\t</rt_info>");
        round_trip("<rt_info><a /></rt_info>");
        assert_eq!(
            with_section(Some("<rt_info />"), "\t\t<s />\n"),
            "<rt_info>\n\t\t<s />\n\t</rt_info>"
        );
        let mut made = with_section(None, "\t\t<s />\n");
        let at = made.find("<s />").unwrap_or_default();
        remove_line(&mut made, at, at + 5);
        assert_eq!(made, EMPTY_RT_INFO);
    }
}
