//! A tokenizer of our own for the subset of XML that IR files are written
//! in: the declaration, comments, CDATA sections, start, empty and end
//! tags, text between tags. It gives the events quick-xml's reader gives
//! (configured as [`crate::xml::XmlStream`] configures it), at the same
//! byte offsets, and splits a tag's attributes in the same pass when they
//! are written plainly (`key="value"`, no `&`, no key twice). It gives up
//! (returns `None`) at anything else it is not sure of: a DOCTYPE, a
//! processing instruction other than the declaration, an end tag that is
//! not its open element's, a tag, comment or CDATA section left open at
//! the end; every error of quick-xml's tokenizer is among these. The read
//! is then done again from the start by quick-xml, which gives the exact
//! error or result (a text that starts with a byte-order mark is left to
//! quick-xml from the start). quick-xml's tokenizer with its searches was
//! a third of a read (cachegrind, relu_1000), and splitting attributes
//! again after it a sixth.

use quick_xml::events::{BytesCData, BytesEnd, BytesStart, BytesText, Event};

use crate::xml::{bytes_below, bytes_equal, first_stop, is_blank, Attr, HIGHS};
use std::borrow::Cow;

/// The bytes that end a tag's name: whitespace (and control characters,
/// left to quick-xml's path), `>`, `/` and quotes (which would change where
/// quick-xml ends the tag). Any other byte may be part of a name, as for
/// quick-xml (a name is all up to the first whitespace).
const NAME_STOPS: [bool; 256] = stops(false);
/// The bytes that end an attribute key: those of a name and `=`.
const KEY_STOPS: [bool; 256] = stops(true);

/// The table of [`NAME_STOPS`], with `=` for [`KEY_STOPS`].
const fn stops(equals: bool) -> [bool; 256] {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = b <= b' ' || matches!(b, b'>' | b'/' | b'"' | b'\'') || (equals && b == b'=');
        byte += 1;
    }
    table
}

/// The offset of the first byte of `bytes` from `from` on that `stops`
/// flags (the length of the text when none is).
#[inline(always)]
fn stop_at(bytes: &[u8], from: usize, stops: &[bool; 256]) -> usize {
    let rest = bytes.get(from..).unwrap_or_default();
    // Every stop is below `@`, and most names and keys are lower-case
    // letters, `_` and `-`: eight bytes at a time, only the bytes below `@`
    // are looked up (the flags after the first may include a byte that is
    // not below `@`, never miss one that is, and every flagged byte is
    // looked up). A byte-by-byte search after a `-` or a digit in the first
    // word (`from-layer`, `precision`) was a fifth of splitting a tag.
    let (words, tail) = rest.as_chunks::<8>();
    for (index, word) in words.iter().enumerate() {
        let mut flags = bytes_below(u64::from_le_bytes(*word), b'@');
        while flags != 0 {
            let at = index * 8 + flags.trailing_zeros() as usize / 8;
            if stops[usize::from(rest[at])] {
                return from + at;
            }
            flags &= flags - 1;
        }
    }
    let done = words.len() * 8;
    from + done
        + tail
            .iter()
            .position(|&b| stops[usize::from(b)])
            .unwrap_or(tail.len())
}

/// An attribute key as [`Scanner::keyed_start`] matches it: ` key="`, one
/// space before the key and `="` after it, up to 16 bytes, compared as two
/// masked little-endian words.
pub(crate) struct KeyPattern {
    words: [u64; 2],
    masks: [u64; 2],
    /// How many bytes the pattern has.
    len: usize,
}

impl KeyPattern {
    /// The pattern of `key` (at most 13 bytes, none a quote or `=`).
    pub const fn new(key: &str) -> Self {
        let key = key.as_bytes();
        let len = key.len() + 3;
        assert!(len <= 16, "a key pattern is at most 16 bytes");
        let mut pattern = [0u8; 16];
        pattern[0] = b' ';
        let mut at = 0;
        while at < key.len() {
            // A byte of a key as the scanner's split finds keys.
            assert!(!KEY_STOPS[key[at] as usize]);
            pattern[at + 1] = key[at];
            at += 1;
        }
        pattern[len - 2] = b'=';
        pattern[len - 1] = b'"';
        let mut words = [0u64; 2];
        let mut masks = [0u64; 2];
        let mut byte = 0;
        while byte < len {
            words[byte / 8] |= (pattern[byte] as u64) << (8 * (byte % 8));
            masks[byte / 8] |= 0xff << (8 * (byte % 8));
            byte += 1;
        }
        KeyPattern { words, masks, len }
    }

    /// Whether `bytes` has the pattern at `at` (`false` when fewer than 16
    /// bytes follow `at`: the slower path reads such a tag).
    #[inline(always)]
    fn is_at(&self, bytes: &[u8], at: usize) -> bool {
        let Some(words) = bytes.get(at..).and_then(|rest| rest.first_chunk::<16>()) else {
            return false;
        };
        let (first, second) = words.split_at(8);
        let word = |half: &[u8]| {
            let mut word = [0u8; 8];
            word.copy_from_slice(half);
            u64::from_le_bytes(word)
        };
        ((word(first) ^ self.words[0]) & self.masks[0])
            | ((word(second) ^ self.words[1]) & self.masks[1])
            == 0
    }
}

/// A start tag read by [`Scanner::keyed_start`].
pub(crate) struct KeyedTag<'a, const N: usize> {
    /// The offset of its `<`.
    pub at: usize,
    /// Written `<name .../>`.
    pub empty: bool,
    /// The values of the first `count` keys, in the keys' order.
    pub values: [&'a str; N],
    pub count: usize,
}

/// quick-xml's events of a document, read by our own scanner.
pub(crate) struct Scanner<'a> {
    text: &'a str,
    /// The byte offset reached: past the last event (for text, at the `<`
    /// after it), as quick-xml's `buffer_position`.
    at: usize,
    /// The names of the open elements, for end tags.
    open: Vec<&'a str>,
    /// An end tag with no open element is returned as it is (a part of a
    /// document read from its middle), not given up on.
    allow_unmatched_ends: bool,
    /// Where the last start tag whose attributes were split here starts
    /// (its `<`; `usize::MAX`: none was), and its name.
    split_at: usize,
    split_name: &'a str,
}

impl<'a> Scanner<'a> {
    /// A scanner of `text` from byte `from` (the start of the document, or
    /// a `<` between two elements).
    pub fn new(text: &'a str, from: usize, allow_unmatched_ends: bool) -> Self {
        Scanner {
            text,
            at: from,
            open: Vec::new(),
            allow_unmatched_ends,
            split_at: usize::MAX,
            split_name: "",
        }
    }

    /// The byte offset reached.
    pub fn position(&self) -> usize {
        self.at
    }

    /// Moves on to byte `to` (see `XmlStream::skip_to`); `false` when it is
    /// not ahead within the text.
    pub fn skip_to(&mut self, to: usize) -> bool {
        if to < self.at || to > self.text.len() {
            return false;
        }
        self.at = to;
        true
    }

    /// The name of the start tag at byte `at` when it was the last one
    /// read and its attributes were split here (appended to the `attrs`
    /// given).
    #[inline]
    pub fn split(&self, at: usize) -> Option<&'a str> {
        (self.split_at == at).then_some(self.split_name)
    }

    /// The next event, or `None` to give up. The attributes of a start tag
    /// written plainly are appended to `attrs` ([`Scanner::split`] then
    /// says so).
    #[inline]
    pub fn next_event(&mut self, attrs: &mut Vec<Attr<'a>>) -> Option<Event<'a>> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        // Text up to the next `<`: mostly a line break and indentation, or
        // a short number; memchr's search pays from a few words on.
        let mut lt = start;
        let near = bytes.len().min(start + 16);
        while lt < near && bytes[lt] != b'<' {
            lt += 1;
        }
        if lt == near && lt < bytes.len() {
            lt = memchr::memchr(b'<', &bytes[lt..]).map_or(bytes.len(), |i| lt + i);
        }
        if lt > start || lt == bytes.len() {
            self.at = lt;
            if lt == start {
                return Some(Event::Eof);
            }
            return Some(Event::Text(BytesText::from_escaped(&self.text[start..lt])));
        }
        match bytes.get(lt + 1) {
            Some(b'/') => self.end_tag(lt),
            Some(b'!') => self.comment(lt),
            Some(b'?') => self.declaration(lt),
            Some(_) => self.start_tag(lt, attrs),
            None => None,
        }
    }

    /// Moves past whitespace (XML's four blanks) when a `<` follows it:
    /// what [`Scanner::next_event`] would give as a text of only
    /// whitespace, for a caller that drops it.
    #[inline]
    pub fn skip_blank_text(&mut self) {
        let bytes = self.text.as_bytes();
        let mut at = self.at;
        while at < bytes.len() && is_blank(bytes[at]) {
            at += 1;
        }
        if bytes.get(at) == Some(&b'<') {
            self.at = at;
        }
    }

    /// Where a start tag `<name` at the position reached, followed by a
    /// byte `then` accepts, has its `<` and its name's end; `None` when
    /// the text there is something else.
    #[inline(always)]
    fn tag_named(&self, name: &[u8], then: impl Fn(u8) -> bool) -> Option<(usize, usize)> {
        let bytes = self.text.as_bytes();
        let lt = self.at;
        let name_end = lt + 1 + name.len();
        if bytes.get(lt) != Some(&b'<')
            || bytes.get(lt + 1..name_end) != Some(name)
            || !bytes.get(name_end).is_some_and(|&b| then(b))
        {
            return None;
        }
        Some((lt, name_end))
    }

    /// The name of a tag [`Scanner::tag_named`] found, from just after its
    /// `<` at `lt` to `name_end`, without `str::get`'s boundary checks (a
    /// call per tag that was not inlined).
    #[inline(always)]
    fn tag_name(&self, lt: usize, name_end: usize) -> &'a str {
        debug_assert!(
            self.text.as_bytes()[lt] == b'<' && self.text.as_bytes()[name_end].is_ascii()
        );
        // SAFETY: `tag_named` found `<` at `lt` and an ASCII byte at
        // `name_end`, both within the text, with `lt < name_end`: a byte
        // after an ASCII one and an ASCII byte start characters, so both
        // ends are character boundaries.
        unsafe { self.text.get_unchecked(lt + 1..name_end) }
    }

    /// The start tag `<name>` (no attributes, no whitespace) at the
    /// position reached, read when it is written so: the offset of its
    /// `<`, or `None` and nothing read. The same as [`Scanner::next_event`]
    /// giving that start tag.
    #[inline(always)]
    pub fn plain_start(&mut self, name: &[u8]) -> Option<(usize, &'a str)> {
        let (lt, name_end) = self.tag_named(name, |b| b == b'>')?;
        // A stretch of the text, as every open name is (see `same_name`).
        let open = self.tag_name(lt, name_end);
        self.open.push(open);
        self.at = name_end + 1;
        Some((lt, open))
    }

    /// The start tag `<name ...>` or `<name .../>` at the position reached,
    /// its attributes written plainly, read when it is written so (only an
    /// empty one unless `nonempty`): the offset of its `<` and whether it
    /// is empty, its attributes appended to `attrs` as
    /// [`Scanner::next_event`] appends them; or `None` and nothing read
    /// (some attributes may have been appended).
    #[inline(always)]
    pub fn plain_start_with_attrs(
        &mut self,
        name: &[u8],
        nonempty: bool,
        attrs: &mut Vec<Attr<'a>>,
    ) -> Option<(usize, bool)> {
        let (lt, name_end) = self.tag_named(name, is_blank)?;
        let (content_end, empty) = self.split_attrs_from(name_end, attrs)?;
        if !empty && !nonempty {
            return None;
        }
        if !empty {
            self.open.push(self.tag_name(lt, name_end));
        }
        self.at = content_end + if empty { 2 } else { 1 };
        Some((lt, empty))
    }

    /// The start tag `<name ...>` or `<name .../>` at the position reached
    /// when its attributes are, in order, the first of `keys` (any number
    /// of them, none of the others), each written ` key="value"` (one space
    /// before it, no `&` in the value), then whitespace and `>` or `/>`
    /// (only an empty one unless `nonempty`): the tag read, its values
    /// taken in place, with no list of pairs and no key searched for or
    /// compared with the others (they are distinct). Those are the pairs
    /// [`Scanner::plain_start_with_attrs`] splits such a tag into, in the
    /// same order, with the same end. `None`, and nothing read, otherwise.
    /// Nearly every `<layer>`, `<port>` and `<edge>` of a model is written
    /// so; splitting them into pairs and matching the keys again was a
    /// quarter of a read (relu_1000).
    #[inline(always)]
    pub fn keyed_start<const N: usize>(
        &mut self,
        name: &[u8],
        keys: &[KeyPattern; N],
        nonempty: bool,
    ) -> Option<KeyedTag<'a, N>> {
        let (lt, name_end) = self.tag_named(name, |b| b == b' ')?;
        let bytes = self.text.as_bytes();
        let mut values = [""; N];
        let mut count = 0;
        let mut at = name_end;
        for key in keys {
            if !key.is_at(bytes, at) {
                break;
            }
            let value_start = at + key.len;
            let rest = bytes.get(value_start..)?;
            let len = first_stop(
                rest,
                |word| bytes_equal(word, b'"') | bytes_equal(word, b'&'),
                |b| b == b'"' || b == b'&',
            )?;
            if rest[len] != b'"' {
                return None;
            }
            let value_end = value_start + len;
            debug_assert!(bytes[value_start - 1] == b'"' && bytes[value_end] == b'"');
            // SAFETY: `value_start` follows the quote that ends the key's
            // pattern and `value_end` is a quote, both within the text
            // (read above): an ASCII byte and whatever follows one start a
            // character, so both are character boundaries.
            values[count] = unsafe { self.text.get_unchecked(value_start..value_end) };
            count += 1;
            at = value_end + 1;
        }
        while at < bytes.len() && is_blank(bytes[at]) {
            at += 1;
        }
        let empty = match *bytes.get(at)? {
            b'>' => false,
            b'/' if bytes.get(at + 1) == Some(&b'>') => true,
            _ => return None,
        };
        if !empty && !nonempty {
            return None;
        }
        if !empty {
            self.open.push(self.tag_name(lt, name_end));
        }
        self.at = at + if empty { 2 } else { 1 };
        Some(KeyedTag {
            at: lt,
            empty,
            values,
            count,
        })
    }

    /// The end tag `</name>` of the element opened last at the position
    /// reached, read when it is written so (no whitespace before `>`): the
    /// offset just past it, or `None` and nothing read. The same as
    /// [`Scanner::next_event`] giving that end tag.
    #[inline(always)]
    pub fn plain_end(&mut self) -> Option<usize> {
        self.at = self.close_at(self.at)?;
        Some(self.at)
    }

    /// Closes the element opened last when its end tag `</name>` (no
    /// whitespace before `>`) is at byte `lt`: the offset just past it, or
    /// `None` and nothing changed.
    #[inline(always)]
    fn close_at(&mut self, lt: usize) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let open = *self.open.last()?;
        let name_start = lt + 2;
        let name_end = name_start + open.len();
        if bytes.get(lt..name_start) != Some(b"</")
            || !same_name(bytes, name_start, self.text, open)
            || bytes.get(name_end) != Some(&b'>')
        {
            return None;
        }
        self.open.pop();
        Some(name_end + 1)
    }

    /// The text of the element opened last and its end tag, read at once
    /// when they are written plainly: a few printable ASCII bytes (no
    /// whitespace, `<` or `&`) then `</name>` (a `<dim>`'s number). The
    /// text, or `None` and nothing read. The same as [`Scanner::next_event`]
    /// giving that text and then that end tag, in two events.
    #[inline]
    pub fn plain_text_and_end(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        let is_plain = |b: u8| matches!(b, b'!'..=b'~') && !matches!(b, b'<' | b'&');
        // Most numbers end within their first word: its first byte that is
        // not plain, found without a loop over its bytes (each part flags
        // exactly up to its first flagged byte, so the first flag of all
        // is a byte that is not plain).
        let in_word = bytes
            .get(start..)
            .and_then(|rest| rest.first_chunk::<8>())
            .map(|word| {
                let word = u64::from_le_bytes(*word);
                bytes_below(word, b'!')
                    | bytes_equal(word, b'<')
                    | bytes_equal(word, b'&')
                    | bytes_equal(word, 0x7f)
                    | word & HIGHS
            });
        let lt = match in_word {
            Some(flags) if flags != 0 => start + flags.trailing_zeros() as usize / 8,
            _ => {
                let near = bytes.len().min(start + 32);
                let mut lt = start;
                while lt < near && is_plain(bytes[lt]) {
                    lt += 1;
                }
                lt
            }
        };
        if lt == start {
            return None;
        }
        self.at = self.close_at(lt)?;
        // SAFETY: `lt > start` and every byte of `start..lt` is printable
        // ASCII (checked above): both ends are character boundaries (an
        // ASCII byte and whatever follows one start a character), within
        // the text.
        Some(unsafe { self.text.get_unchecked(start..lt) })
    }

    /// A `<dim>` written `<dim>N</dim>` at the position reached, `N` up to
    /// seven printable ASCII bytes (no `<` or `&`): read at once, nothing
    /// opened or closed; the offset of its `<` and its text. The same as
    /// [`Scanner::plain_start`] of `dim` then [`Scanner::plain_text_and_end`]
    /// (those read anything else, or give up). `None`, and nothing read,
    /// otherwise. Three words compared: the two calls, with the open
    /// element pushed and popped, were a tenth of a read (relu_1000).
    #[inline(always)]
    pub fn plain_dim(&mut self) -> Option<(usize, &'a str)> {
        const OPEN: u64 = u64::from_le_bytes(*b"<dim>\0\0\0");
        const CLOSE: u64 = u64::from_le_bytes(*b"</dim>\0\0");
        let bytes = self.text.as_bytes();
        let word_at = |at: usize| {
            bytes
                .get(at..)
                .and_then(|rest| rest.first_chunk::<8>())
                .map(|word| u64::from_le_bytes(*word))
        };
        let lt = self.at;
        if (word_at(lt)? ^ OPEN) & (u64::MAX >> 24) != 0 {
            return None;
        }
        let start = lt + 5;
        let word = word_at(start)?;
        // As `plain_text_and_end` ends the text in its first word.
        let flags = bytes_below(word, b'!')
            | bytes_equal(word, b'<')
            | bytes_equal(word, b'&')
            | bytes_equal(word, 0x7f)
            | word & HIGHS;
        let end = start + (flags.trailing_zeros() as usize / 8).min(8);
        if flags == 0 || end == start || (word_at(end)? ^ CLOSE) & (u64::MAX >> 16) != 0 {
            return None;
        }
        self.at = end + 6;
        debug_assert!(bytes[start..end].iter().all(|b| b.is_ascii_graphic()));
        // SAFETY: `end > start`, and every byte of `start..end` is
        // printable ASCII (the first flagged byte of the word ends the
        // text): both ends are character boundaries within the text.
        Some((lt, unsafe { self.text.get_unchecked(start..end) }))
    }

    /// The start tag whose `<` is at `lt`.
    #[inline]
    fn start_tag(&mut self, lt: usize, attrs: &mut Vec<Attr<'a>>) -> Option<Event<'a>> {
        let bytes = self.text.as_bytes();
        let name_start = lt + 1;
        let name_end = stop_at(bytes, name_start, &NAME_STOPS);
        let attrs_from = attrs.len();
        let plain = match bytes.get(name_end) {
            _ if name_end == name_start => None,
            Some(b'>') => Some((name_end, false)),
            Some(b'/') if bytes.get(name_end + 1) == Some(&b'>') => Some((name_end, true)),
            Some(&b) if is_blank(b) => self.split_attrs_from(name_end, attrs),
            _ => None,
        };
        let (content_end, empty) = match plain {
            Some(found) => {
                self.split_at = lt;
                found
            }
            None => {
                // Not written plainly: the tag's end as quick-xml finds it
                // (the first `>` outside quotes), its attributes split by
                // the caller as they are for quick-xml's events.
                attrs.truncate(attrs_from);
                self.split_at = usize::MAX;
                let gt = tag_end(bytes, name_start)?;
                let empty = gt > name_start && bytes[gt - 1] == b'/';
                (if empty { gt - 1 } else { gt }, empty)
            }
        };
        let content = self.text.get(name_start..content_end)?;
        let name_len = if plain.is_some() {
            name_end - name_start
        } else {
            content.bytes().position(is_blank).unwrap_or(content.len())
        };
        // Ends at whitespace or the content's end: ASCII, a boundary.
        let name = content.get(..name_len)?;
        self.split_name = name;
        let tag = BytesStart::from_content(content, name_len);
        self.at = content_end + if empty { 2 } else { 1 };
        if empty {
            Some(Event::Empty(tag))
        } else {
            self.open.push(name);
            Some(Event::Start(tag))
        }
    }

    /// Splits the attributes of a start tag from byte `at` (just past its
    /// name: a whitespace byte, else `None`) into `attrs` when they are
    /// written plainly; the offset of the
    /// tag's `>` (of its `/>` for an empty one) and whether it is empty, or
    /// `None` at anything else (some attributes may have been appended).
    /// The pairs are those `push_plain_attrs` would split the tag's content
    /// into (a key is all up to `=`, here without whitespace, quotes, `>`
    /// or `/`, which would change where quick-xml ends the tag).
    #[inline]
    fn split_attrs_from(
        &mut self,
        mut at: usize,
        attrs: &mut Vec<Attr<'a>>,
    ) -> Option<(usize, bool)> {
        let bytes = self.text.as_bytes();
        // Every key then follows an ASCII byte (see below); the callers
        // give the whitespace after a tag's name.
        if !bytes.get(at).is_some_and(|&b| is_blank(b)) {
            return None;
        }
        let first = attrs.len();
        loop {
            while at < bytes.len() && is_blank(bytes[at]) {
                at += 1;
            }
            match *bytes.get(at)? {
                b'>' => return Some((at, false)),
                b'/' => return (bytes.get(at + 1) == Some(&b'>')).then_some((at, true)),
                _ => {}
            }
            let key_start = at;
            let key_end = stop_at(bytes, key_start, &KEY_STOPS);
            if key_end == key_start || bytes.get(key_end) != Some(&b'=') {
                return None;
            }
            let quote = *bytes.get(key_end + 1)?;
            if quote != b'"' && quote != b'\'' {
                return None;
            }
            let value_start = key_end + 2;
            let rest = bytes.get(value_start..)?;
            let len = first_stop(
                rest,
                |word| bytes_equal(word, quote) | bytes_equal(word, b'&'),
                |b| b == quote || b == b'&',
            )?;
            if rest[len] != quote {
                return None;
            }
            let value_end = value_start + len;
            debug_assert!(key_start < key_end && key_end < value_start && value_start <= value_end);
            // SAFETY: `key_start` follows an ASCII byte (whitespace, or the
            // closing quote of the value before), `key_end` is an `=`,
            // `value_start` follows a quote and `value_end` is one: in
            // UTF-8, an ASCII byte and whatever follows one start a
            // character, so all four are character boundaries, and all are
            // within the text (bytes at or before them were read above).
            // Checking them was a tenth of the split.
            let (key, value) = unsafe {
                (
                    self.text.get_unchecked(key_start..key_end),
                    self.text.get_unchecked(value_start..value_end),
                )
            };
            if attrs[first..].iter().any(|(k, _)| *k == key) {
                return None;
            }
            attrs.push((key, Cow::Borrowed(value)));
            at = value_end + 1;
        }
    }

    /// The end tag whose `<` is at `lt`: only that of the innermost open
    /// element, written `</name>` or with whitespace before the `>`.
    #[inline]
    fn end_tag(&mut self, lt: usize) -> Option<Event<'a>> {
        let bytes = self.text.as_bytes();
        let name_start = lt + 2;
        let name_end = match self.open.last() {
            Some(&open) => {
                // The open element's name, a stretch of the same text.
                let end = name_start + open.len();
                if !same_name(bytes, name_start, self.text, open) {
                    return None;
                }
                self.open.pop();
                end
            }
            None if self.allow_unmatched_ends => stop_at(bytes, name_start, &NAME_STOPS),
            None => return None,
        };
        let mut at = name_end;
        while at < bytes.len() && is_blank(bytes[at]) {
            at += 1;
        }
        if bytes.get(at) != Some(&b'>') || name_end == name_start {
            return None;
        }
        self.at = at + 1;
        Some(Event::End(BytesEnd::new(
            self.text.get(name_start..name_end)?,
        )))
    }

    /// The CDATA section or comment whose `<` is at `lt` (a comment ends at the first `-->` after
    /// its `<!--`, as quick-xml ends it).
    fn comment(&mut self, lt: usize) -> Option<Event<'a>> {
        let bytes = self.text.as_bytes();
        if bytes[lt..].starts_with(b"<![CDATA[") {
            // Ends at the first `]]>` after its `<![CDATA[`, as quick-xml
            // ends it.
            let data = lt + 9;
            let end = data + memchr::memmem::find(bytes.get(data..)?, b"]]>")?;
            self.at = end + 3;
            return Some(Event::CData(BytesCData::new(self.text.get(data..end)?)));
        }
        if !bytes[lt..].starts_with(b"<!--") {
            return None;
        }
        let body = lt + 4;
        let end = body + memchr::memmem::find(bytes.get(body..)?, b"-->")?;
        self.at = end + 3;
        Some(Event::Comment(BytesText::from_escaped(
            self.text.get(body..end)?,
        )))
    }

    /// The declaration `<?xml ...?>` whose `<` is at `lt`; any other
    /// processing instruction is given up on.
    fn declaration(&mut self, lt: usize) -> Option<Event<'a>> {
        let bytes = self.text.as_bytes();
        let question = lt + 1;
        // quick-xml's end: the first `>` after the `<?` right after a `?`.
        let mut from = question + 1;
        let gt = loop {
            let gt = from + memchr::memchr(b'>', bytes.get(from..)?)?;
            if bytes[gt - 1] == b'?' {
                break gt;
            }
            from = gt + 1;
        };
        // `<?>` is an error; `<?xml?>` and `<?xml ...?>` are declarations.
        let content = bytes.get(question + 1..gt.checked_sub(1)?)?;
        if gt < question + 2 || !content.starts_with(b"xml") {
            return None;
        }
        if content.len() > 3 && !is_blank(content[3]) {
            return None;
        }
        self.at = gt + 1;
        Some(Event::Comment(BytesText::from_escaped("")))
    }
}

/// Whether `bytes` has `name`, a stretch of `text` (whose bytes `bytes`
/// are), at `at`: a name of at most 8 bytes is compared as a word read
/// at each place, without a call to compare bytes.
#[inline(always)]
fn same_name(bytes: &[u8], at: usize, text: &str, name: &str) -> bool {
    let len = name.len();
    let word = |from: usize| {
        bytes
            .get(from..)
            .and_then(|rest| rest.first_chunk::<8>())
            .map(|word| u64::from_le_bytes(*word))
    };
    let name_at = (name.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    if len <= 8 {
        if let (Some(found), Some(open)) = (word(at), word(name_at)) {
            let mask = u64::MAX >> (64 - 8 * len.max(1));
            return len > 0 && (found ^ open) & mask == 0;
        }
    }
    bytes.get(at..at + len) == Some(name.as_bytes())
}

/// The offset of the `>` that ends a tag whose name starts at `from`: the
/// first one outside quotes, as quick-xml's tokenizer finds it.
fn tag_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut quote = None;
    for at in memchr::memchr3_iter(b'>', b'\'', b'"', bytes.get(from..)?) {
        let byte = bytes[from + at];
        match (quote, byte) {
            (None, b'>') => return Some(from + at),
            (None, b'\'' | b'"') => quote = Some(byte),
            (Some(open), _) if open == byte => quote = None,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_are_found_as_a_byte_search_finds_them() {
        // Random texts of name bytes, digits, `-`, stops and non-ASCII,
        // searched from every offset.
        let pieces: [&[u8]; 14] = [
            b"a",
            b"Z",
            b"_",
            b"-",
            b".",
            b"7",
            b":",
            b"=",
            b" ",
            b"\t",
            b"/",
            b"\"",
            b">",
            "\u{e9}".as_bytes(),
        ];
        let mut random = crate::Random(0x2545_f491_4f6c_dd1du64);
        let mut next = |bound: usize| random.below(bound);
        for _ in 0..3_000 {
            let mut text = Vec::new();
            for _ in 0..next(40) {
                let piece = if next(4) == 0 {
                    pieces[next(pieces.len())]
                } else {
                    pieces[next(7)]
                };
                text.extend_from_slice(piece);
            }
            for stops in [&NAME_STOPS, &KEY_STOPS] {
                for from in 0..=text.len() {
                    let expected = from
                        + text[from..]
                            .iter()
                            .position(|&b| stops[usize::from(b)])
                            .unwrap_or(text.len() - from);
                    assert_eq!(stop_at(&text, from, stops), expected, "{text:?} {from}");
                }
            }
        }
    }

    #[test]
    fn end_tag_names_compare_as_bytes_do() {
        // Names of 1 to 10 bytes opened at the start of a text, compared
        // with end tags that match or differ in each byte, near the end of
        // the text too (no whole word there).
        for len in 1..=10 {
            let name: String = "abcdefghij"[..len].to_owned();
            for tail in ["", ">", ">\n\n\n\n\n\n\n\n"] {
                for differ in 0..=len {
                    let mut end = name.clone().into_bytes();
                    if differ < len {
                        end[differ] = b'z';
                    }
                    let end = String::from_utf8(end).unwrap_or_default();
                    let text = format!("<{name}></{end}{tail}");
                    let at = name.len() + 4;
                    let open = &text[1..1 + len];
                    assert_eq!(
                        same_name(text.as_bytes(), at, &text, open),
                        differ == len,
                        "{text:?}"
                    );
                }
            }
        }
    }
}
