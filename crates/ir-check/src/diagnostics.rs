//! Compiler-style rendering of diagnostics:
//!
//! ```text
//! model.xml:40:3: error[declared-shape-mismatch]: layer 3 `Add_3` (Add-opset1): dim 1 is declared 4 but inferred 3
//!    40 |         <layer id="3" name="Add_3" type="Add" version="opset1">
//!       = note: declared: [2, 4]
//! ```

use std::fmt::Write;

use ir::Diagnostic;

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
            let _ = writeln!(out, " {number} | {}", text.trim_end());
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
