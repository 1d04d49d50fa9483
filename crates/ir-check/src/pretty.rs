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
//!
//! [`PrettyWriter`] writes the same layout by hand, for the report's layers
//! (report.rs): through serde, each key, string and number was a call into
//! the serializer and each string a scan for characters to escape, about a
//! fifth of a 1,000-layer model's run.

use std::io::{self, Write};

use serde::Serialize;
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
    /// The layout of a value written inside `depth` open objects and arrays.
    pub(crate) fn at_depth(depth: usize) -> Self {
        Pretty {
            depth,
            has_value: false,
        }
    }

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

/// How many bytes [`PrettyWriter`] gathers before writing them out: as many
/// as the binary's output buffer holds (main.rs), so that a full chunk goes
/// past that buffer straight to the output, and few pages are touched (a
/// fresh page costs a fault).
const CHUNK: usize = 1 << 16;

/// JSON in serde_json's pretty layout, written piece by piece into a buffer
/// that is written out a chunk at a time. The caller opens and closes the
/// objects and arrays itself: it says at which `level` (how many of them are
/// open) each line starts.
pub(crate) struct PrettyWriter<W: Write> {
    bytes: Vec<u8>,
    /// How many bytes were written out before `bytes[0]`.
    written: usize,
    out: W,
}

impl<W: Write> PrettyWriter<W> {
    pub(crate) fn new(out: W) -> Self {
        PrettyWriter {
            // Room for the chunk and for the piece that fills it.
            bytes: Vec::with_capacity(CHUNK + CHUNK / 4),
            written: 0,
            out,
        }
    }

    /// Writes out what is gathered if it fills a chunk. Called between
    /// pieces of bounded size (a layer's row), it keeps the buffer small.
    pub(crate) fn write_full_chunk(&mut self) -> io::Result<()> {
        if self.bytes.len() >= CHUNK {
            self.out.write_all(&self.bytes)?;
            self.written += self.bytes.len();
            self.bytes.clear();
        }
        Ok(())
    }

    /// Where the next byte goes, counted from the start of the output.
    pub(crate) fn position(&self) -> usize {
        self.written + self.bytes.len()
    }

    /// Writes again the bytes written from position `from` to `to` (see
    /// [`position`](Self::position)), if they are still gathered here;
    /// `false` if they were written out already.
    pub(crate) fn repeat(&mut self, from: usize, to: usize) -> bool {
        match (from.checked_sub(self.written), to.checked_sub(self.written)) {
            (Some(start), Some(end)) if start <= end && end <= self.bytes.len() => {
                self.bytes.extend_from_within(start..end);
                true
            }
            _ => false,
        }
    }

    /// Writes out everything gathered (the output itself is not flushed).
    pub(crate) fn finish(mut self) -> io::Result<()> {
        self.out.write_all(&self.bytes)
    }

    /// The bytes gathered and not written out yet.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// A line break and the indentation of `level`, preceded by a comma
    /// unless `first`.
    pub(crate) fn new_line(&mut self, level: usize, first: bool) {
        let from = usize::from(first);
        let levels = level.min(DEEPEST);
        self.bytes.extend_from_slice(&LINE[from..2 + 2 * levels]);
        for _ in levels..level {
            self.bytes.extend_from_slice(b"  ");
        }
    }

    /// A member's key on a new line: `"key": ` (`key` needs no escaping).
    pub(crate) fn key(&mut self, level: usize, first: bool, key: &str) {
        self.new_line(level, first);
        self.bytes.push(b'"');
        self.bytes.extend_from_slice(key.as_bytes());
        self.bytes.extend_from_slice(b"\": ");
    }

    /// Bytes as they are: brackets, `null`, `true`.
    pub(crate) fn raw(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// A JSON string. Most strings of a report (ids, names, types, dims)
    /// hold nothing to escape and are copied whole; the others are escaped
    /// by serde_json.
    pub(crate) fn string(&mut self, text: &str) {
        self.bytes.push(b'"');
        self.string_contents(text);
        self.bytes.push(b'"');
    }

    /// A JSON string without its quotes, for a caller that writes them
    /// with what comes before and after.
    pub(crate) fn string_contents(&mut self, text: &str) {
        if needs_escaping(text.as_bytes()) {
            self.escaped_contents(text);
        } else {
            self.bytes.extend_from_slice(text.as_bytes());
        }
    }

    /// [`string_contents`](Self::string_contents) of a string with
    /// something to escape: rare, and kept out of the common path (inlined,
    /// it made every string save and restore six registers).
    #[cold]
    #[inline(never)]
    fn escaped_contents(&mut self, text: &str) {
        let quoted = serde_json::to_string(text).unwrap_or_default();
        let contents = quoted.get(1..quoted.len().saturating_sub(1));
        self.bytes
            .extend_from_slice(contents.unwrap_or_default().as_bytes());
    }

    /// An integer, as serde_json writes it (with the same `itoa`).
    pub(crate) fn integer(&mut self, value: i64) {
        self.raw(itoa::Buffer::new().format(value).as_bytes());
    }

    /// An integer, or `null` for none.
    pub(crate) fn integer_or_null(&mut self, value: Option<i64>) {
        match value {
            Some(value) => self.integer(value),
            None => self.raw(b"null"),
        }
    }

    /// A non-negative integer in decimal.
    pub(crate) fn unsigned(&mut self, value: u64) {
        self.raw(itoa::Buffer::new().format(value).as_bytes());
    }

    /// `value` serialized by serde_json, starting inside `level` open
    /// objects and arrays.
    pub(crate) fn serialize(&mut self, level: usize, value: &impl Serialize) -> io::Result<()> {
        let mut serializer =
            serde_json::Serializer::with_formatter(&mut self.bytes, Pretty::at_depth(level));
        value.serialize(&mut serializer).map_err(io::Error::from)
    }
}

/// The bytes `write` writes: a piece of JSON to copy whole later.
pub(crate) fn piece(write: impl FnOnce(&mut PrettyWriter<io::Sink>)) -> Vec<u8> {
    let mut json = PrettyWriter {
        bytes: Vec::new(),
        written: 0,
        out: io::sink(),
    };
    write(&mut json);
    json.bytes
}

/// Whether a JSON string of `bytes` needs escapes: a quote, a backslash or
/// a control character (what serde_json escapes; it writes the rest of
/// UTF-8 as it is). Eight bytes at a time: the strings of a report are
/// short names, too short for the compiler's vector loop.
fn needs_escaping(bytes: &[u8]) -> bool {
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(word);
        if word_needs_escaping(u64::from_le_bytes(eight)) {
            return true;
        }
    }
    words.remainder().iter().any(|&b| ESCAPED[usize::from(b)])
}

/// The bytes serde_json escapes in a string: a quote, a backslash and the
/// control characters. The last few bytes of a string (all of a short
/// name's, `relu17`) are checked with one load each, not three
/// comparisons.
static ESCAPED: [bool; 256] = {
    let mut escaped = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        escaped[byte] = true;
        byte += 1;
    }
    escaped[b'"' as usize] = true;
    escaped[b'\\' as usize] = true;
    escaped
};

/// Whether one of the eight bytes of `word` is below 0x20, a quote or a
/// backslash ("Bit Twiddling Hacks": `hasless` and `haszero`, exact on
/// whether such a byte is there).
fn word_needs_escaping(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |limit: u8| word.wrapping_sub(ONES * u64::from(limit)) & !word & HIGH;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let quote = has_zero(word ^ (ONES * u64::from(b'"')));
    let backslash = has_zero(word ^ (ONES * u64::from(b'\\')));
    below(0x20) | quote | backslash != 0
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

    #[test]
    fn the_writer_writes_strings_and_integers_as_serde_json() {
        let strings = [
            "",
            "relu1",
            "a \"quoted\" name",
            "back\\slash",
            "line\nbreak\ttab\r\u{8}\u{c}",
            "\u{1}\u{1f}\u{7f}",
            "non-ASCII: é, ∑, 🦀",
        ];
        let integers = [0, 1, -1, 9, 10, 99, 100, 12345, i64::MAX, i64::MIN];
        let mut writer = PrettyWriter::new(Vec::new());
        let mut expected = String::new();
        for text in strings {
            writer.string(text);
            writer.raw(b"<");
            writer.string_contents(text);
            writer.raw(b">");
            let quoted = serde_json::to_string(text).expect("serializes");
            expected += &quoted;
            expected += &format!("<{}>", &quoted[1..quoted.len() - 1]);
        }
        for value in integers {
            writer.integer(value);
            writer.integer_or_null(Some(value));
            expected += &value.to_string().repeat(2);
        }
        writer.integer_or_null(None);
        expected += "null";
        assert_eq!(String::from_utf8_lossy(writer.bytes()), expected);
    }

    #[test]
    fn needs_escaping_finds_every_byte_serde_json_escapes_wherever_it_is() {
        // Backgrounds next to the bytes looked for, where the word
        // arithmetic borrows.
        let backgrounds = [b'a', 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xff];
        for byte in 0..=255u8 {
            let escaped = byte < 0x20 || byte == b'"' || byte == b'\\';
            for len in 1..=19 {
                for at in 0..len {
                    for background in backgrounds {
                        let mut bytes = vec![background; len];
                        bytes[at] = byte;
                        assert_eq!(
                            needs_escaping(&bytes),
                            escaped,
                            "{byte:#x} at {at} of {len} among {background:#x}"
                        );
                    }
                }
            }
        }
        assert!(!needs_escaping(b""));
        assert!(!needs_escaping("non-ASCII é ∑ 🦀 and more".as_bytes()));
    }

    #[test]
    fn repeat_copies_what_is_still_gathered() {
        let mut writer = PrettyWriter::new(Vec::new());
        writer.raw(b"ab");
        let from = writer.position();
        writer.raw(b"cde");
        let to = writer.position();
        assert!(writer.repeat(from, to));
        assert_eq!(writer.bytes(), b"abcdecde");
        writer.raw(&vec![b'x'; CHUNK]);
        writer.write_full_chunk().expect("writes into memory");
        assert_eq!(writer.position(), 8 + CHUNK);
        assert!(!writer.repeat(from, to));
        assert!(writer.bytes().is_empty());
    }

    #[test]
    fn the_writer_indents_as_serde_json() {
        let mut deep = json!([1]);
        for _ in 0..(DEEPEST + 3) {
            deep = json!([deep, 2]);
        }
        // `deep` written by hand, arrays nested `DEEPEST + 3` deep.
        fn write(writer: &mut PrettyWriter<Vec<u8>>, value: &serde_json::Value, level: usize) {
            match value {
                serde_json::Value::Array(items) => {
                    writer.raw(b"[");
                    for (i, item) in items.iter().enumerate() {
                        writer.new_line(level + 1, i == 0);
                        write(writer, item, level + 1);
                    }
                    writer.new_line(level, true);
                    writer.raw(b"]");
                }
                other => writer.integer(other.as_i64().expect("an integer")),
            }
        }
        let mut writer = PrettyWriter::new(Vec::new());
        write(&mut writer, &deep, 0);
        let expected = serde_json::to_string_pretty(&deep).expect("serializes");
        assert_eq!(String::from_utf8_lossy(writer.bytes()), expected);
    }
}
