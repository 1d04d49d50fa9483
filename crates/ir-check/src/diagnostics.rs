//! Compiler-style rendering of diagnostics:
//!
//! ```text
//! model.xml:40:3: error[declared-shape-mismatch]: layer 3 `Add_3` (Add-opset1): dim 1 is declared 4 but inferred 3
//!    40 |         <layer id="3" name="Add_3" type="Add" version="opset1">
//!       = note: declared: [2, 4]
//! ```

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use ir::{Diagnostic, Severity};

/// Longest excerpt of a source line quoted, in characters: a file written
/// on one line (minified XML) must not be quoted whole under every
/// diagnostic.
pub const MAX_QUOTE: usize = 160;

/// How many diagnostics of one rule (and severity) are shown in full; the
/// others are summed up on one line: a model with one custom op used 70
/// times must not bury its other errors.
pub const SHOWN_PER_RULE: usize = 3;

/// How many XML lines that one line lists before `…`.
pub const LISTED_LINES: usize = 10;

/// Renders the diagnostics in order, each followed by the quoted source line.
/// Past the first [`SHOWN_PER_RULE`] of a rule, the rest of that rule is one
/// line right after the last one shown:
/// `… and 21 more error[op-unknown]: lines 58, 70, …`.
pub fn render_all(file_name: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    // Nothing to quote: the text (perhaps mapped, its pages given back) is
    // not read again.
    if diagnostics.is_empty() {
        return String::new();
    }
    let lines: Vec<&str> = source.lines().collect();
    let mut by_rule: HashMap<(&str, Severity), Vec<&Diagnostic>> = HashMap::new();
    for d in diagnostics {
        by_rule.entry((d.rule, d.severity)).or_default().push(d);
    }
    let mut shown: HashMap<(&str, Severity), usize> = HashMap::new();
    let mut out = String::new();
    for d in diagnostics {
        let key = (d.rule, d.severity);
        let count = shown.entry(key).or_default();
        *count += 1;
        if *count > SHOWN_PER_RULE {
            continue;
        }
        render(&mut out, file_name, &lines, d);
        let group = &by_rule[&key];
        if *count == SHOWN_PER_RULE && group.len() > SHOWN_PER_RULE {
            summarize(&mut out, &group[SHOWN_PER_RULE..]);
        }
    }
    out
}

/// `… and N more severity[rule]: lines A, B, …`, for the diagnostics of one
/// rule not shown (in line order, each line once, at most [`LISTED_LINES`]).
fn summarize(out: &mut String, rest: &[&Diagnostic]) {
    let Some(first) = rest.first() else {
        return;
    };
    let mut lines: Vec<u32> = rest
        .iter()
        .filter_map(|d| d.location.map(|l| l.line))
        .collect();
    lines.dedup();
    let mut listed: Vec<String> = lines
        .iter()
        .take(LISTED_LINES)
        .map(u32::to_string)
        .collect();
    if lines.len() > LISTED_LINES {
        listed.push("…".to_owned());
    }
    let at = match lines.len() {
        0 => String::new(),
        1 => format!(": line {}", listed.join(", ")),
        _ => format!(": lines {}", listed.join(", ")),
    };
    let _ = writeln!(
        out,
        "… and {} more {}[{}]{at}",
        rest.len(),
        first.severity,
        first.rule
    );
}

/// The verdict, the last line of a text report: `valid` or `INVALID`, then
/// `summary` (what was checked), then [`counts`].
pub fn verdict(summary: &str, diagnostics: &[Diagnostic]) -> String {
    let valid = !diagnostics.iter().any(Diagnostic::is_error);
    format!(
        "{}: {summary}, {}\n",
        if valid { "valid" } else { "INVALID" },
        counts(diagnostics)
    )
}

/// `N errors (rule: n, …), M warnings (rule: m, …)`: the rules most often
/// broken first (then by name), none when the count is 0.
pub fn counts(diagnostics: &[Diagnostic]) -> String {
    let of = |severity: Severity, noun: &str| {
        let mut per_rule: BTreeMap<&str, usize> = BTreeMap::new();
        for d in diagnostics.iter().filter(|d| d.severity == severity) {
            *per_rule.entry(d.rule).or_default() += 1;
        }
        let total: usize = per_rule.values().sum();
        if total == 0 {
            return format!("0 {noun}");
        }
        let mut rules: Vec<(&str, usize)> = per_rule.into_iter().collect();
        // Stable: equal counts keep the rules' alphabetical order.
        rules.sort_by_key(|&(_, count)| std::cmp::Reverse(count));
        let rules: Vec<String> = rules.iter().map(|(r, n)| format!("{r}: {n}")).collect();
        format!("{total} {noun} ({})", rules.join(", "))
    };
    format!(
        "{}, {}",
        of(Severity::Error, "errors"),
        of(Severity::Warning, "warnings")
    )
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

    fn at_line(severity: Severity, rule: &'static str, line: u32) -> Diagnostic {
        let mut d = Diagnostic::new(severity, rule, format!("at {line}"));
        d.location = Some(ir::SourceLocation { line, column: 1 });
        d
    }

    #[test]
    fn a_rule_past_three_is_one_line_listing_ten_lines() {
        let source = "x\n".repeat(40);
        let mut many: Vec<Diagnostic> = (1..=15)
            .map(|line| at_line(Severity::Error, "op-unknown", line * 2))
            .collect();
        many.push(at_line(Severity::Warning, "op-unknown", 31));
        many.push(at_line(Severity::Error, "other", 32));
        let text = render_all("m.xml", &source, &many);
        assert_eq!(text.matches("error[op-unknown]: at").count(), 3, "{text}");
        assert!(
            text.contains("m.xml:6:1: error[op-unknown]: at 6\n 6 | x\n… and 12 more error[op-unknown]: lines 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, …\n"),
            "{text}"
        );
        // Another severity of the same rule, and another rule, are their own groups.
        assert!(text.contains("warning[op-unknown]: at 31"), "{text}");
        assert!(
            text.ends_with("m.xml:32:1: error[other]: at 32\n 32 | x\n"),
            "{text}"
        );
        // Three are shown whole; a fourth makes the one line.
        let three = render_all("m.xml", &source, &many[..3]);
        assert!(!three.contains("more"), "{three}");
        let four = render_all("m.xml", &source, &many[..4]);
        assert!(
            four.ends_with("… and 1 more error[op-unknown]: line 8\n"),
            "{four}"
        );
    }

    #[test]
    fn the_verdict_counts_each_rule_most_frequent_first() {
        let found = [
            at_line(Severity::Warning, "w", 1),
            at_line(Severity::Error, "b", 2),
            at_line(Severity::Error, "c", 3),
            at_line(Severity::Error, "c", 4),
            at_line(Severity::Error, "a", 5),
        ];
        assert_eq!(
            verdict("2 layers", &found),
            "INVALID: 2 layers, 4 errors (c: 2, a: 1, b: 1), 1 warnings (w: 1)\n"
        );
        assert_eq!(
            verdict("2 layers", &found[..1]),
            "valid: 2 layers, 0 errors, 1 warnings (w: 1)\n"
        );
        assert_eq!(counts(&[]), "0 errors, 0 warnings");
    }

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
