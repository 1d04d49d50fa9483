//! serde_json's pretty layout (two spaces a level), written with fewer
//! writes.
//!
//! serde_json's `PrettyFormatter` writes a line break and then the
//! indentation two bytes at a time, one write per level: a dim's bound,
//! eight levels deep in the report, costs nine writes before its value.
//! Each write into the buffered output is a call to `memcpy`, which was the
//! report's largest single cost. [`Pretty`] writes the separator, the line
//! break and the whole indentation as one slice of a static line. The bytes
//! written are the same as `PrettyFormatter::new()`'s (a test checks it).

use std::io::{self, Write};

use serde_json::ser::Formatter;

/// `,` + a line break + the indentation of [`DEEPEST`] levels.
const LINE: &[u8] = b",\n                                                                                                                                ";

/// The deepest level [`LINE`] can indent in one write; deeper levels (a
/// report has about ten) are indented a level at a time past it.
const DEEPEST: usize = (LINE.len() - 2) / 2;

/// serde_json's pretty layout, written with one call per line break.
#[derive(Debug, Default)]
pub(crate) struct Pretty {
    /// How many objects and arrays are open.
    depth: usize,
    /// The object or array just closed had a member or element: its closing
    /// bracket goes on a line of its own.
    has_value: bool,
}

impl Pretty {
    /// Writes a line break and the indentation of the current depth,
    /// preceded by a comma unless `first`.
    fn new_line<W: ?Sized + Write>(&self, out: &mut W, first: bool) -> io::Result<()> {
        let from = usize::from(first);
        let levels = self.depth.min(DEEPEST);
        out.write_all(&LINE[from..2 + 2 * levels])?;
        for _ in levels..self.depth {
            out.write_all(b"  ")?;
        }
        Ok(())
    }

    /// Ends an object or array: its closing bracket on a line of its own
    /// when it had members.
    fn close<W: ?Sized + Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.new_line(out, true)?;
        }
        out.write_all(bracket)
    }
}

impl Formatter for Pretty {
    fn begin_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.new_line(out, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.new_line(out, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde::Serialize;
    use serde_json::json;

    use super::*;

    fn pretty(value: &impl Serialize) -> String {
        let mut bytes = Vec::new();
        let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, Pretty::default());
        value.serialize(&mut serializer).expect("serializes");
        String::from_utf8(bytes).expect("UTF-8")
    }

    #[test]
    fn writes_what_serde_json_pretty_writes() {
        let mut deep = json!([1, [], {}]);
        for level in 0..(DEEPEST + 5) {
            deep = json!({ "level": level, "inner": deep, "empty": [], "list": [null, [0, 1]] });
        }
        let values = [
            json!(null),
            json!([]),
            json!({}),
            json!([[]]),
            json!([{}, {"a": {}}]),
            json!({"a": [1, 2, {"b": [[], [3]]}], "c": "d\n\"e\""}),
            deep,
        ];
        for value in &values {
            let expected = serde_json::to_string_pretty(value).expect("serializes");
            assert_eq!(pretty(value), expected);
        }
    }
}
