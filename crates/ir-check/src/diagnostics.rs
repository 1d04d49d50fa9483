//! Compiler-style rendering of diagnostics:
//!
//! ```text
//! model.xml:40:3: error[declared-shape-mismatch]: layer 3 `Add_3` (Add-opset1): dim 1 is declared 4 but inferred 3
//!    40 |         <layer id="3" name="Add_3" type="Add" version="opset1">
//!       = note: declared: [2, 4]
//! ```

use std::fmt::Write;

use ir::Diagnostic;

/// Longest excerpt of a source line quoted, in characters: a file written
/// on one line (minified XML) must not be quoted whole under every
/// diagnostic.
pub const MAX_QUOTE: usize = 160;

/// Renders every diagnostic, each followed by the quoted source line.
pub fn render_all(file_name: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let mut out = String::new();
    for d in diagnostics {
        render(&mut out, file_name, &lines, d);
    }
    out
}

fn render(out: &mut String, file_name: &str, lines: &[&str], d: &Diagnostic) {
    let position = match d.location {
        Some(l) => format!("{file_name}:{}:{}", l.line, l.column),
        None => file_name.to_owned(),
    };
    let layer = d
        .layer
        .as_ref()
        .map(|l| format!("{l}: "))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "{position}: {}[{}]: {layer}{}",
        d.severity, d.rule, d.message
    );
    if let Some(loc) = d.location {
        let index = (loc.line as usize).checked_sub(1);
        if let Some(text) = index.and_then(|i| lines.get(i)) {
            let number = loc.line.to_string();
            let _ = writeln!(out, " {number} | {}", excerpt(text, loc.column));
            let pad = " ".repeat(number.len());
            for note in &d.notes {
                let _ = writeln!(out, " {pad} = note: {note}");
            }
            return;
        }
    }
    for note in &d.notes {
        let _ = writeln!(out, "   = note: {note}");
    }
}

/// The line, or when it is longer than [`MAX_QUOTE`] characters, a window
/// of it from the 1-based `column` on (moved left so that it is full), with
/// `…` where it was cut.
fn excerpt(line: &str, column: u32) -> String {
    let line = line.trim_end();
    let length = line.chars().count();
    if length <= MAX_QUOTE {
        return line.to_owned();
    }
    let start = (column as usize).saturating_sub(1).min(length - MAX_QUOTE);
    let window: String = line.chars().skip(start).take(MAX_QUOTE).collect();
    let before = if start > 0 { "…" } else { "" };
    let after = if start + MAX_QUOTE < length {
        "…"
    } else {
        ""
    };
    format!("{before}{window}{after}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_quoted_in_part() {
        assert_eq!(excerpt("<layer id=\"1\"/>  ", 1), "<layer id=\"1\"/>");
        let line = format!(
            "<net>{}<layer id=\"7\">{}</net>",
            "é".repeat(500),
            "x".repeat(500)
        );
        let column =
            u32::try_from(line[..line.find("<layer").unwrap()].chars().count() + 1).unwrap();
        let quoted = excerpt(&line, column);
        assert!(quoted.starts_with("…<layer id=\"7\">xxx"), "{quoted}");
        assert!(quoted.ends_with("x…"), "{quoted}");
        assert_eq!(quoted.chars().count(), MAX_QUOTE + 2);
        // Near the end, the window moves left to stay full.
        let tail = excerpt(&line, u32::try_from(line.chars().count()).unwrap());
        assert!(tail.ends_with("x</net>") && tail.starts_with('…'), "{tail}");
        assert_eq!(tail.chars().count(), MAX_QUOTE + 1);
        // Past the line (a bad column) is the same as its end.
        assert_eq!(excerpt(&line, u32::MAX), tail);
    }
}
