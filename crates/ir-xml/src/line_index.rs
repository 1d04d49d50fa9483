//! Byte offsets to 1-based line and column numbers.

use ir::SourceLocation;

/// The byte offset where each line of a text starts, for turning byte offsets
/// into [`SourceLocation`]s with a binary search.
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
    /// Per line, whether it is all ASCII: its columns are then byte counts,
    /// and a long line (a Concat of 10,000 ports written on one) does not
    /// cost a count of its characters per location.
    ascii: Vec<bool>,
}

impl<'a> LineIndex<'a> {
    /// Indexes the line starts of `text` (lines end at `\n`).
    pub fn new(text: &'a str) -> Self {
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        let ascii = starts
            .iter()
            .zip(starts.iter().skip(1).chain([&text.len()]))
            .map(|(&start, &end)| {
                text.as_bytes()
                    .get(start..end)
                    .is_some_and(<[u8]>::is_ascii)
            })
            .collect();
        LineIndex {
            text,
            starts,
            ascii,
        }
    }

    /// The 1-based line and column of byte `offset`. The column counts
    /// characters (a tab is one column). Offsets past the end are clamped to it.
    pub fn location(&self, offset: usize) -> SourceLocation {
        let offset = offset.min(self.text.len());
        // The number of line starts at or before `offset`; always at least 1.
        let line = self.starts.partition_point(|&start| start <= offset);
        let start = self.starts[line.saturating_sub(1)];
        let column = if self.ascii[line.saturating_sub(1)] {
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
}
