//! Byte offsets to 1-based line and column numbers.

use std::cell::{Cell, RefCell};

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
    /// How many lines come before the first line start kept (the index of
    /// a part of the text read on another thread starts where that part
    /// does).
    lines_before: usize,
    lines: RefCell<Lines>,
    /// The line of the last location asked for, when it is ASCII and its
    /// end has been found: a location on it is its offset from the line's
    /// start, found without the index (a layer written on one line asks
    /// for its ports' locations on the line of its own).
    last_line: Cell<AsciiLine>,
}

/// A line of ASCII text: its bytes `start..end` (with its `\n`), its
/// 1-based number. Empty (`end` 0) when there is none.
#[derive(Debug, Clone, Copy, Default)]
struct AsciiLine {
    start: usize,
    end: usize,
    number: usize,
}

/// The lines found so far.
#[derive(Debug, Clone)]
struct Lines {
    /// The start of every line that starts at or before `scanned`.
    starts: Vec<usize>,
    /// The lines (indices into `starts`) whose end has been found and that
    /// hold a byte that is not ASCII, in ascending order. The columns of
    /// every other line are byte counts, so a long line (a Concat of
    /// 10,000 ports written on one) does not cost a count of its characters
    /// per location; IR is nearly always ASCII, and a stretch of it is
    /// checked at once rather than line by line.
    non_ascii: Vec<usize>,
    /// How far the text has been searched for line ends: the start of a
    /// line, or the end of the text.
    scanned: usize,
    /// The line (index into `starts`) of the last location asked for: the
    /// reader asks in file order, mostly on that line or the next, which is
    /// then found without a search over millions of line starts.
    last: usize,
}

/// How far past the location asked for the text is searched for line ends
/// in one go: a search per line (a pretty-printed model has lines of 20
/// bytes) cost more than the lines it found. 4 KiB, not more: 64 KiB read
/// the text that far ahead of the tokenizer, which then came to it out of
/// the first-level cache (2-7% of a pretty-printed model's read); 1 KiB was
/// slower again.
const SCAN_AHEAD: usize = 4 << 10;

impl<'a> LineIndex<'a> {
    /// An index of the lines of `text` (lines end at `\n`).
    pub fn new(text: &'a str) -> Self {
        Self::starting_at(text, 0, 0)
    }

    /// An index of the lines of `text` from `line_start`, the start of a
    /// line (0, or just past a `\n`) that `lines_before` lines precede:
    /// for a reader that starts there. Offsets before it are located too,
    /// but each with a count from the start of the text.
    pub(crate) fn starting_at(text: &'a str, line_start: usize, lines_before: usize) -> Self {
        LineIndex {
            text,
            lines_before,
            lines: RefCell::new(Lines {
                starts: vec![line_start],
                non_ascii: Vec::new(),
                scanned: line_start,
                last: 0,
            }),
            last_line: Cell::default(),
        }
    }

    /// The 1-based line and column of byte `offset`. The column counts
    /// characters (a tab is one column). Offsets past the end are clamped to it.
    #[inline]
    pub fn location(&self, offset: usize) -> SourceLocation {
        let offset = offset.min(self.text.len());
        let line = self.last_line.get();
        if line.start <= offset && offset < line.end {
            return location_of(line.number, offset - line.start);
        }
        self.indexed_location(offset)
    }

    /// [`LineIndex::location`] of an offset not on the last line.
    #[inline(never)]
    fn indexed_location(&self, offset: usize) -> SourceLocation {
        let mut lines = self.lines.borrow_mut();
        if offset < lines.starts[0] {
            return counted_location(self.text, offset);
        }
        lines.scan_to(self.text, offset);
        // The number of line starts at or before `offset`; always at least 1.
        let line = lines.line_of(offset);
        lines.last = line - 1;
        let start = lines.starts[line.saturating_sub(1)];
        // The line of `offset` has been scanned to its end.
        let ascii = lines.non_ascii.binary_search(&(line - 1)).is_err();
        self.last_line.set(match lines.starts.get(line) {
            Some(&end) if ascii => AsciiLine {
                start,
                end,
                number: line + self.lines_before,
            },
            _ => AsciiLine::default(),
        });
        let column = if ascii {
            offset - start
        } else {
            self.text
                .get(start..offset)
                .map_or(offset - start, |prefix| prefix.chars().count())
        };
        location_of(line + self.lines_before, column)
    }
}

/// The location of 1-based `line` and 0-based `column`.
fn location_of(line: usize, column: usize) -> SourceLocation {
    SourceLocation {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(column.saturating_add(1)).unwrap_or(u32::MAX),
    }
}

/// The location of byte `offset` (at most the text's length) counted from
/// the start of `text`, without an index.
fn counted_location(text: &str, offset: usize) -> SourceLocation {
    let before = text.as_bytes().get(..offset).unwrap_or_default();
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |at| at + 1);
    let column = text
        .get(line_start..offset)
        .map_or(offset - line_start, |prefix| prefix.chars().count());
    location_of(count_newlines(before) + 1, column)
}

/// How many `\n` `bytes` holds. A byte-wise count the compiler turns into
/// SIMD compares (memchr's iterator stops at each one: a pretty-printed model
/// has one every 20-40 bytes).
pub(crate) fn count_newlines(bytes: &[u8]) -> usize {
    // Per block, the counts are summed in bytes: at most 255 per lane.
    const BLOCK: usize = 255 * 16;
    let mut count = 0;
    let mut blocks = bytes.chunks_exact(BLOCK);
    for block in &mut blocks {
        let mut lanes = [0u8; 16];
        for chunk in block.chunks_exact(16) {
            for (lane, &byte) in lanes.iter_mut().zip(chunk) {
                *lane += u8::from(byte == b'\n');
            }
        }
        count += lanes.iter().map(|&lane| usize::from(lane)).sum::<usize>();
    }
    count + blocks.remainder().iter().filter(|&&b| b == b'\n').count()
}

/// Whether `bytes` are all ASCII: their bytes or-ed together, sixteen at
/// a time as the compiler writes it (`<[u8]>::is_ascii` looks at eight at
/// a time, with a branch for each: most of what finding a line cost).
fn is_ascii(bytes: &[u8]) -> bool {
    bytes.iter().fold(0u8, |all, &byte| all | byte) < 0x80
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
    /// the line `offset` is on (searching up to [`SCAN_AHEAD`] further).
    fn scan_to(&mut self, text: &str, offset: usize) {
        let bytes = text.as_bytes();
        if offset < self.scanned || self.scanned >= bytes.len() && !bytes.is_empty() {
            return;
        }
        let from = self.scanned;
        let first_new_line = self.starts.len() - 1;
        // One SIMD search for the newlines of all the lines to find (memchr's
        // iterator), up to a stretch past `offset`, then on to the end of the
        // line that stretch ends in.
        let ahead = offset.max(from.saturating_add(SCAN_AHEAD)).min(bytes.len());
        let mut scanned = bytes.len();
        for at in memchr::memchr_iter(b'\n', bytes.get(from..).unwrap_or_default()) {
            let end = from + at + 1;
            self.starts.push(end);
            if end > ahead {
                scanned = end;
                break;
            }
        }
        self.scanned = scanned;
        let stretch = bytes.get(from..scanned).unwrap_or_default();
        if !is_ascii(stretch) {
            // The new lines whose end was found, the last one too at the end
            // of the text.
            let ends = self.starts[first_new_line + 1..]
                .iter()
                .copied()
                .chain((scanned == bytes.len()).then_some(bytes.len()));
            let mut start = from;
            for (line, end) in (first_new_line..).zip(ends) {
                if !bytes.get(start..end).unwrap_or_default().is_ascii() {
                    self.non_ascii.push(line);
                }
                start = end;
            }
        }
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

    /// The location of every character boundary of `text` (and of its
    /// end), counted in one pass from its start.
    fn counted(text: &str) -> Vec<(usize, SourceLocation)> {
        let (mut line, mut column) = (1, 1);
        let mut all = Vec::new();
        for (offset, c) in text.char_indices() {
            all.push((offset, loc(line, column)));
            (line, column) = if c == '\n' {
                (line + 1, 1)
            } else {
                (line, column + 1)
            };
        }
        all.push((text.len(), loc(line, column)));
        all
    }

    #[test]
    fn lines_past_a_stretch_and_non_ascii_ones_anywhere_are_counted() {
        // Three stretches of short lines, a few with `é`, and a long last
        // line without a newline.
        let mut text = String::new();
        for i in 0..(3 * SCAN_AHEAD / 10) {
            text.push_str(if i % 997 == 5 {
                "a é b\n"
            } else {
                "<d>1</d>\n"
            });
        }
        text.push_str(&"xé".repeat(40_000));
        let expected = counted(&text);
        let index = LineIndex::new(&text);
        for &(offset, location) in expected.iter().step_by(5) {
            assert_eq!(index.location(offset), location, "{offset}");
        }
        let jumping = LineIndex::new(&text);
        for &(offset, location) in expected.iter().rev().step_by(1009) {
            assert_eq!(jumping.location(offset), location, "{offset}");
        }
        for text in ["", "\n", "é", "a\n\n", "é\nx"] {
            let index = LineIndex::new(text);
            for (offset, location) in counted(text) {
                assert_eq!(index.location(offset), location, "{text:?} {offset}");
            }
        }
    }

    #[test]
    fn an_index_started_mid_text_locates_as_one_from_the_start() {
        let mut text = String::new();
        for i in 0..2000 {
            text.push_str(if i % 300 == 7 { "x é\n" } else { "<d>1</d>\n" });
        }
        let whole = LineIndex::new(&text);
        let expected: Vec<_> = (0..=text.len()).map(|o| whole.location(o)).collect();
        for line_start in [0, 9, 9 * 1000 + 2, text.len()] {
            let lines_before = count_newlines(&text.as_bytes()[..line_start]);
            let part = LineIndex::starting_at(&text, line_start, lines_before);
            for offset in (line_start..=text.len())
                .step_by(7)
                .chain([0, 5, text.len()])
            {
                assert_eq!(
                    part.location(offset),
                    expected[offset],
                    "{line_start} {offset}"
                );
            }
        }
    }

    #[test]
    fn newlines_are_counted_in_blocks_and_the_rest() {
        for len in [0, 1, 15, 16, 4079, 4080, 4081, 10_000] {
            let bytes: Vec<u8> = (0..len)
                .map(|i| if i % 3 == 0 { b'\n' } else { b'a' })
                .collect();
            let expected = bytes.iter().filter(|&&b| b == b'\n').count();
            assert_eq!(count_newlines(&bytes), expected, "{len}");
        }
        assert_eq!(count_newlines(&[b'\n'; 9000]), 9000);
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
