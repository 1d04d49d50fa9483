//! Byte offsets to 1-based line and column numbers.

use std::cell::RefCell;

use ir::SourceLocation;

/// The byte offset where each line of a text starts, for turning byte offsets
/// into [`SourceLocation`]s with a binary search.
///
/// The line starts are found as locations are asked for, not all up front:
/// the reader asks in file order, so the text is scanned once, interleaved
/// with parsing, and a mapped text's pages need not all be resident at once
/// (a separate pass would touch every page before parsing starts).
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a str,
    lines: RefCell<Lines>,
}

/// The lines found so far.
#[derive(Debug, Clone)]
struct Lines {
    /// The start of every line that starts at or before `scanned`.
    starts: Vec<usize>,
    /// Per line whose end has been found (every line in `starts` but the
    /// last, and the last too once the whole text is scanned), whether it
    /// is all ASCII: its
    /// columns are then byte counts, and a long line (a Concat of 10,000
    /// ports written on one) does not cost a count of its characters per
    /// location.
    ascii: Vec<bool>,
    /// How far the text has been searched for line ends.
    scanned: usize,
    /// The line (index into `starts`) of the last location asked for: the
    /// reader asks in file order, mostly on that line or the next, which is
    /// then found without a search over millions of line starts.
    last: usize,
}

impl<'a> LineIndex<'a> {
    /// An index of the lines of `text` (lines end at `\n`).
    pub fn new(text: &'a str) -> Self {
        LineIndex {
            text,
            lines: RefCell::new(Lines {
                starts: vec![0],
                ascii: Vec::new(),
                scanned: 0,
                last: 0,
            }),
        }
    }

    /// The 1-based line and column of byte `offset`. The column counts
    /// characters (a tab is one column). Offsets past the end are clamped to it.
    pub fn location(&self, offset: usize) -> SourceLocation {
        let offset = offset.min(self.text.len());
        let mut lines = self.lines.borrow_mut();
        lines.scan_to(self.text, offset);
        // The number of line starts at or before `offset`; always at least 1.
        let line = lines.line_of(offset);
        lines.last = line - 1;
        let start = lines.starts[line.saturating_sub(1)];
        // The line of `offset` has been scanned to its end.
        let ascii = lines.ascii.get(line.saturating_sub(1)).copied();
        let column = if ascii.unwrap_or(false) {
            offset - start
        } else {
            self.text
                .get(start..offset)
                .map_or(offset - start, |prefix| prefix.chars().count())
        };
        SourceLocation {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column.saturating_add(1)).unwrap_or(u32::MAX),
        }
    }
}

impl Lines {
    /// The number of line starts at or before `offset` (at least 1): found
    /// among the few lines after or before the last one asked for when
    /// `offset` is on them, else by a binary search. The reader asks in
    /// file order but not strictly: a layer's `<data>` is located after its
    /// ports, a few lines back (a binary search over the line starts for
    /// each was 4% of reading BERT).
    fn line_of(&self, offset: usize) -> usize {
        const NEAR: usize = 16;
        let starts = &self.starts;
        let last = self.last.min(starts.len().saturating_sub(1));
        match starts.get(last) {
            Some(&start) if start <= offset => {
                let end = (last + 1 + NEAR).min(starts.len());
                let ahead = starts.get(last + 1..end).unwrap_or_default();
                match ahead.iter().position(|&next| next > offset) {
                    Some(i) => return last + 1 + i,
                    None if end == starts.len() => return end,
                    None => {}
                }
            }
            Some(_) => {
                let from = last.saturating_sub(NEAR);
                let behind = starts.get(from..last).unwrap_or_default();
                if let Some(i) = behind.iter().rposition(|&start| start <= offset) {
                    return from + i + 1;
                }
            }
            None => {}
        }
        starts.partition_point(|&start| start <= offset).max(1)
    }

    /// Finds every line that starts at or before `offset`, and the end of
    /// the line `offset` is on.
    fn scan_to(&mut self, text: &str, offset: usize) {
        let complete = self.ascii.len() == self.starts.len();
        if offset < self.scanned || complete {
            return;
        }
        let bytes = text.as_bytes();
        let from = self.scanned;
        // One SIMD scan for the newlines of all the lines to find (memchr's
        // iterator: a search per line costs more on the short lines of IR).
        for at in memchr::memchr_iter(b'\n', bytes.get(from..).unwrap_or_default()) {
            let start = self.starts.last().copied().unwrap_or_default();
            let end = from + at + 1;
            let line = bytes.get(start..end).unwrap_or_default();
            self.ascii.push(line.is_ascii());
            self.starts.push(end);
            if end > offset {
                self.scanned = end;
                return;
            }
        }
        // The last line, without a newline: complete at the end.
        let start = self.starts.last().copied().unwrap_or_default();
        let rest = bytes.get(start..).unwrap_or_default();
        self.ascii.push(rest.is_ascii());
        self.scanned = text.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(line: u32, column: u32) -> SourceLocation {
        SourceLocation { line, column }
    }

    #[test]
    fn lines_and_columns_are_one_based() {
        let index = LineIndex::new("ab\n\tcd\n\nxé y");
        assert_eq!(index.location(0), loc(1, 1));
        assert_eq!(index.location(2), loc(1, 3));
        assert_eq!(index.location(3), loc(2, 1));
        assert_eq!(index.location(4), loc(2, 2));
        assert_eq!(index.location(7), loc(3, 1));
        assert_eq!(index.location(8), loc(4, 1));
        // `é` is two bytes but one column.
        assert_eq!(index.location(11), loc(4, 3));
        assert_eq!(index.location(1000), loc(4, 5));
    }

    #[test]
    fn any_order_of_offsets_gives_the_same_locations() {
        let text = "ab\n\tcd\n\nxé y\nlast";
        let forwards = LineIndex::new(text);
        let expected: Vec<_> = (0..=text.len() + 1).map(|o| forwards.location(o)).collect();
        let backwards = LineIndex::new(text);
        for offset in (0..=text.len() + 1).rev() {
            assert_eq!(backwards.location(offset), expected[offset], "{offset}");
        }
        let jumping = LineIndex::new(text);
        for offset in [9, 0, 13, 4, 11, 2, 15] {
            assert_eq!(jumping.location(offset), expected[offset], "{offset}");
        }
    }

    #[test]
    fn near_and_far_lines_are_found_either_way() {
        // 100 lines "l00\n" .. "l99\n": past the near window both ways.
        let text: String = (0..100).map(|i| format!("l{i:02}\n")).collect();
        let index = LineIndex::new(&text);
        let line = |offset: usize| index.location(offset).line;
        for offset in [
            0,
            5,
            399,
            4 * 50 + 2,
            4 * 49,
            4 * 48 + 3,
            4 * 10,
            4 * 90 + 1,
            4 * 89,
            4,
        ] {
            assert_eq!(line(offset) as usize, offset / 4 + 1, "{offset}");
            assert_eq!(
                index.location(offset).column as usize,
                offset % 4 + 1,
                "{offset}"
            );
        }
        assert_eq!(line(400), 101);
    }
}
