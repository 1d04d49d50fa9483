//! A thin layer over quick-xml's streaming reader: events with their byte
//! offsets, the content of one element as a stream of its children, ends and
//! text (a `<layer>` is read that way straight into its node), and small
//! element subtrees (an `<edge>`, an `<rt_info>`, a layer's bodies) read
//! from the stream without recursion.

use std::borrow::Cow;

use quick_xml::events::attributes::{AttrError, Attributes};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::line_index::LineIndex;
use crate::scan::{KeyPattern, KeyedTag, Scanner};
use crate::ReadError;

/// How many levels below the element [`XmlStream::enter`] was called for
/// are kept (returned by [`XmlStream::within`], kept as [`Element`]s): a `<layer>` needs four (`output`, `port`, `rt_info`,
/// `attribute`) and each level of bodies three more (`body`, `layers`,
/// `layer`).
const MAX_KEPT_DEPTH: usize = 8 + 3 * crate::reader::MAX_BODY_DEPTH;

/// A name and value of an attribute, borrowed from the document (the value
/// owned when unescaping changed it; a name has nothing to unescape).
pub(crate) type Attr<'a> = (&'a str, Cow<'a, str>);

/// The elements [`XmlStream::read_element`] read, flat: one list of elements
/// in document order linked to their first child and next sibling, one list
/// of attributes, one of text pieces. A tree is cleared and filled again for
/// each `<layer>` or `<edge>`, so reading a model allocates nothing per
/// element once the lists have grown to the largest layer, and no element is
/// moved from a stack into its parent (a tree of nested vectors did both:
/// a vector of children and one of attributes per element, each element
/// copied into its parent when it ended). Names, values and text borrow the
/// document: a model of a million layers would otherwise make several
/// million small strings just to read them once.
#[derive(Debug, Default)]
pub(crate) struct Tree<'a> {
    slots: Vec<Slot<'a>>,
    attrs: Vec<Attr<'a>>,
    texts: Vec<TextPiece<'a>>,
    /// The elements not yet ended while reading (indices into `slots`).
    open: Vec<usize>,
}

/// No element: the root is nobody's child or sibling, so index 0 marks the
/// end of a list of children (and of text pieces, offset by one).
const NONE: usize = 0;

/// One element of a [`Tree`].
#[derive(Debug)]
struct Slot<'a> {
    name: &'a str,
    /// Its attributes: `attrs[attrs_from..attrs_to]`, in file order.
    attrs_from: usize,
    attrs_to: usize,
    /// Its first and last child and its next sibling ([`NONE`]: none).
    first_child: usize,
    last_child: usize,
    next_sibling: usize,
    child_count: usize,
    /// Its first and last piece of text, one past their index in `texts`
    /// ([`NONE`]: no text).
    first_text: usize,
    last_text: usize,
    /// Byte offset of the `<` that starts the element.
    start: usize,
    /// Byte offset just past the element's end (`/>` or its end tag).
    end: usize,
}

/// A piece of text directly inside an element (text between its children,
/// or split by comments) and the next piece of the same element (one past
/// its index, [`NONE`]: the last).
#[derive(Debug)]
struct TextPiece<'a> {
    text: Cow<'a, str>,
    next: usize,
}

impl<'a> Tree<'a> {
    fn clear(&mut self) {
        self.slots.clear();
        self.attrs.clear();
        self.texts.clear();
        self.open.clear();
    }

    /// The element read last ([`XmlStream::read_element`] fills the tree
    /// with one element and its descendants).
    pub fn root(&self) -> Element<'_, 'a> {
        Element {
            tree: self,
            index: 0,
        }
    }

    /// Adds an element named `name` whose attributes start at `attrs_from`
    /// (the rest of `attrs`) as the last child of the innermost open element.
    fn push(&mut self, name: &'a str, attrs_from: usize, start: usize, end: usize) -> usize {
        let index = self.slots.len();
        self.slots.push(Slot {
            name,
            attrs_from,
            attrs_to: self.attrs.len(),
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            child_count: 0,
            first_text: NONE,
            last_text: NONE,
            start,
            end,
        });
        if let Some(&parent) = self.open.last() {
            let last = self.slots[parent].last_child;
            if last == NONE {
                self.slots[parent].first_child = index;
            } else {
                self.slots[last].next_sibling = index;
            }
            self.slots[parent].last_child = index;
            self.slots[parent].child_count += 1;
        }
        index
    }

    /// Appends text found directly inside element `index`.
    fn push_text(&mut self, index: usize, text: Cow<'a, str>) {
        self.texts.push(TextPiece { text, next: NONE });
        let piece = self.texts.len();
        let slot = &mut self.slots[index];
        if slot.last_text == NONE {
            slot.first_text = piece;
        } else {
            self.texts[slot.last_text - 1].next = piece;
        }
        slot.last_text = piece;
    }
}

/// An element of a [`Tree`]: its name, unescaped attributes in file order,
/// children, text, and the byte range of its source text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Element<'t, 'a> {
    tree: &'t Tree<'a>,
    index: usize,
}

impl<'t, 'a> Element<'t, 'a> {
    fn slot(self) -> &'t Slot<'a> {
        &self.tree.slots[self.index]
    }

    /// The element's name.
    pub fn name(self) -> &'a str {
        self.slot().name
    }

    /// The attributes in file order.
    pub fn attrs(self) -> &'t [Attr<'a>] {
        let slot = self.slot();
        &self.tree.attrs[slot.attrs_from..slot.attrs_to]
    }

    /// The value of attribute `key`.
    pub fn attr(self, key: &str) -> Option<&'t str> {
        self.attrs()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_ref())
    }

    /// The child elements in file order.
    pub fn children(self) -> Children<'t, 'a> {
        Children {
            tree: self.tree,
            next: self.slot().first_child,
        }
    }

    /// How many child elements there are.
    pub fn child_count(self) -> usize {
        self.slot().child_count
    }

    /// The concatenated (unescaped) text directly inside the element, except
    /// for whitespace before its first other text (callers trim it).
    pub fn text(self) -> Cow<'t, str> {
        let texts = &self.tree.texts;
        let slot = self.slot();
        match slot.first_text {
            NONE => Cow::Borrowed(""),
            first if first == slot.last_text => Cow::Borrowed(texts[first - 1].text.as_ref()),
            first => {
                let mut text = String::new();
                let mut piece = first;
                while piece != NONE {
                    text.push_str(&texts[piece - 1].text);
                    piece = texts[piece - 1].next;
                }
                Cow::Owned(text)
            }
        }
    }

    /// Byte offset of the `<` that starts the element.
    pub fn start(self) -> usize {
        self.slot().start
    }

    /// Byte offset just past the element's end (`/>` or its end tag).
    pub fn end(self) -> usize {
        self.slot().end
    }
}

/// The children of an [`Element`], in file order.
pub(crate) struct Children<'t, 'a> {
    tree: &'t Tree<'a>,
    next: usize,
}

impl<'t, 'a> Iterator for Children<'t, 'a> {
    type Item = Element<'t, 'a>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next == NONE {
            return None;
        }
        let element = Element {
            tree: self.tree,
            index: self.next,
        };
        self.next = self.tree.slots[self.next].next_sibling;
        Some(element)
    }
}

/// `bytes` as the stretch of `text` they are, when they are one (a name,
/// value or text quick-xml borrowed from the document): already known to
/// be UTF-8.
fn within<'a>(text: &'a str, bytes: &[u8]) -> Option<&'a str> {
    let start = (bytes.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    text.get(start..start.checked_add(bytes.len())?)
}

/// `raw` text of the document with its entities and character references
/// replaced, as quick-xml's `unescape`; text without an `&` (nearly every
/// value of a model) is returned as it is without setting up quick-xml's
/// search for `&` and `;`.
fn unescape(raw: &str) -> Result<Cow<'_, str>, quick_xml::Error> {
    if raw.bytes().any(|b| b == b'&') {
        quick_xml::escape::unescape(raw).map_err(quick_xml::Error::from)
    } else {
        Ok(Cow::Borrowed(raw))
    }
}

/// XML's whitespace, as quick-xml's attribute iterator knows it.
pub(crate) fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\r' | b'\n' | b'\t')
}

/// Eight bytes of 1, one per byte of a `u64`.
const ONES: u64 = u64::from_le_bytes([1; 8]);
/// The high bit of every byte of a `u64`.
pub(crate) const HIGHS: u64 = ONES * 0x80;

/// The high bit set in each byte of `word` that is `byte`: exact up to the
/// first such byte (a borrow may flag bytes after it).
pub(crate) fn bytes_equal(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The high bit set in each byte of `word` below `bound` (at most 128):
/// exact up to the first such byte.
pub(crate) fn bytes_below(word: u64, bound: u8) -> u64 {
    word.wrapping_sub(ONES * u64::from(bound)) & !word & HIGHS
}

/// The offset of the first byte of `bytes` that `stops` flags, eight bytes
/// at a time (little-endian words, flagged as [`bytes_equal`] does);
/// `stop` says it of the bytes past the last whole word.
#[inline(always)]
pub(crate) fn first_stop(
    bytes: &[u8],
    stops: impl Fn(u64) -> u64,
    stop: impl Fn(u8) -> bool,
) -> Option<usize> {
    // Most keys and values end within their first word.
    if let Some(first) = bytes.first_chunk::<8>() {
        let flags = stops(u64::from_le_bytes(*first));
        if flags != 0 {
            return Some(flags.trailing_zeros() as usize / 8);
        }
    }
    let (words, rest) = bytes.as_chunks::<8>();
    for (index, word) in words.iter().enumerate() {
        let flags = stops(u64::from_le_bytes(*word));
        if flags != 0 {
            return Some(index * 8 + flags.trailing_zeros() as usize / 8);
        }
    }
    rest.iter()
        .position(|&b| stop(b))
        .map(|at| words.len() * 8 + at)
}

/// Splits the attributes of the start tag whose content (its text between
/// `<` and `>` or `/>`) is `text[content]`, from byte `from` of the
/// content (just past its name), and appends them to `attrs`, when every
/// one is written plainly: `key="value"` or `key='value'`, whitespace
/// allowed around `=`, no `&` in a value, no key twice. `false` at
/// anything else (some attributes may have been appended), and the tag is
/// split again by quick-xml's iterator, which gives the error. The pairs
/// are those quick-xml's iterator gives (the same search, step by step: a
/// key is at least its first byte and ends at `=` or whitespace), found
/// eight bytes at a time, without its state machine and a second pass
/// over each value for `&`: splitting with it was a fifth of a read
/// (cachegrind, relu_1000). Keys and values are found in words read from
/// the text, which may reach up to 7 bytes past the content.
fn push_plain_attrs<'a>(
    text: &'a str,
    content: std::ops::Range<usize>,
    from: usize,
    attrs: &mut Vec<Attr<'a>>,
) -> bool {
    let document = text.as_bytes();
    let end = content.end.min(document.len());
    let bytes = document
        .get(..end.saturating_add(7).min(document.len()))
        .unwrap_or_default();
    let first = attrs.len();
    let skip_blanks = |mut at: usize| {
        while at < end && is_blank(bytes[at]) {
            at += 1;
        }
        at
    };
    let mut at = content.start + from;
    loop {
        let key_start = skip_blanks(at);
        if key_start >= end {
            return true;
        }
        // The key's first byte is part of it whatever it is; it ends at `=`
        // or whitespace (a control character, which quick-xml would keep
        // in the key, is left to it).
        let after_first = bytes.get(key_start + 1..).unwrap_or_default();
        let key_end = match first_stop(
            after_first,
            |word| bytes_below(word, b' ' + 1) | bytes_equal(word, b'='),
            |b| b <= b' ' || b == b'=',
        ) {
            Some(len) if key_start + 1 + len < end => key_start + 1 + len,
            _ => return false,
        };
        let equals = skip_blanks(key_end);
        if equals >= end || bytes[equals] != b'=' {
            return false;
        }
        let open = skip_blanks(equals + 1);
        if open >= end || !matches!(bytes[open], b'"' | b'\'') {
            return false;
        }
        let quote = bytes[open];
        let value_start = open + 1;
        // A value with an `&` is unescaped by quick-xml's path.
        let rest = bytes.get(value_start..).unwrap_or_default();
        let value_end = match first_stop(
            rest,
            |word| bytes_equal(word, quote) | bytes_equal(word, b'&'),
            |b| b == quote || b == b'&',
        ) {
            Some(len) if value_start + len < end && rest[len] == quote => value_start + len,
            _ => return false,
        };
        let (Some(key), Some(value)) = (
            text.get(key_start..key_end),
            text.get(value_start..value_end),
        ) else {
            return false;
        };
        if attrs[first..].iter().any(|(k, _)| *k == key) {
            return false;
        }
        attrs.push((key, Cow::Borrowed(value)));
        at = value_end + 1;
    }
}

/// quick-xml's reader of `text`, configured as the reader needs it.
fn quick_xml_reader(text: &str, allow_unmatched_ends: bool) -> Reader<&[u8]> {
    let mut reader = Reader::from_str(text);
    let config = reader.config_mut();
    config.check_end_names = true;
    config.expand_empty_elements = false;
    config.trim_text(false);
    config.allow_unmatched_ends = allow_unmatched_ends;
    reader
}

/// A streaming reader over a whole document that knows byte offsets.
pub(crate) struct XmlStream<'a> {
    text: &'a str,
    tokens: Tokens<'a>,
    lines: &'a LineIndex<'a>,
    /// The names of the elements not yet ended inside the element
    /// [`XmlStream::enter`] was called for (that element first), as far as
    /// they are kept.
    open: Vec<&'a str>,
    /// How many elements too deep to keep are open below them.
    skipped: usize,
    /// Where in the document the reader started: its offsets are counted
    /// from there (a part of `<layers>` read on another thread).
    base: usize,
    /// The attributes our scanner split of the start tag
    /// [`XmlStream::next`] returned last.
    item_attrs: Vec<Attr<'a>>,
}

/// Which tokenizer reads the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tokenizer {
    /// Our scanner of the IR subset ([`crate::scan`]), which gives up at
    /// anything else.
    Own,
    /// quick-xml's reader: everything, and every error.
    QuickXml,
}

enum Tokens<'a> {
    Own(Scanner<'a>),
    QuickXml(Reader<&'a [u8]>),
}

/// The error a read with [`Tokenizer::Own`] ends with when the scanner
/// gave up: no location has column 0 (they count from 1).
pub(crate) fn gave_up() -> ReadError {
    ReadError::Xml {
        line: 0,
        column: 0,
        message: String::new(),
    }
}

/// Whether `error` is [`gave_up`]'s.
pub(crate) fn is_gave_up(error: &ReadError) -> bool {
    matches!(error, ReadError::Xml { line: 0, column: 0, message } if message.is_empty())
}

/// A child element [`XmlStream::within`] found.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Opened<'a> {
    pub name: &'a str,
    /// Byte offset of its `<`.
    pub at: usize,
    /// Byte offset just past its start tag (for `<x/>`, past the element).
    pub end: usize,
    /// Written as `<x/>`: no [`Inner::Close`] follows for it.
    pub empty: bool,
}

/// What [`XmlStream::within`] returns.
pub(crate) enum Inner<'a> {
    /// A child element starts.
    Open(Opened<'a>),
    /// The innermost open element ends; `end` is the byte offset just past it.
    Close { end: usize },
    /// Text directly inside the innermost open element, unescaped.
    Text(Cow<'a, str>),
}

/// An event and the byte offset where it starts.
pub(crate) enum Item<'a> {
    /// A start tag; `empty` for `<x/>`.
    Start {
        tag: BytesStart<'a>,
        empty: bool,
        at: usize,
    },
    /// An end tag starting at byte `at` (its `<`).
    End { at: usize },
    /// Text; `true` when it holds only whitespace.
    Text { blank: bool, at: usize },
    /// The end of the document.
    Eof,
}

impl<'a> XmlStream<'a> {
    pub fn new(text: &'a str, lines: &'a LineIndex<'a>, tokenizer: Tokenizer) -> Self {
        let tokens = match tokenizer {
            // quick-xml skips a byte-order mark without counting it in its
            // offsets: left to it.
            Tokenizer::Own if !text.starts_with('\u{feff}') => {
                Tokens::Own(Scanner::new(text, 0, false))
            }
            Tokenizer::Own | Tokenizer::QuickXml => Tokens::QuickXml(quick_xml_reader(text, false)),
        };
        XmlStream::with_tokens(text, lines, tokens, 0)
    }

    /// A reader of `text` from byte `from` on, which must be the start of
    /// a character (a `<`), as if a reader of the whole text had come
    /// there outside of every element: offsets are the document's, and an
    /// end tag of an element opened before `from` is returned as
    /// [`Item::End`] rather than as an error (its caller checks that it is
    /// the one it expects).
    pub fn starting_at(
        text: &'a str,
        lines: &'a LineIndex<'a>,
        from: usize,
        tokenizer: Tokenizer,
    ) -> Self {
        let rest = text.get(from..).unwrap_or_default();
        let base = text.len() - rest.len();
        let tokens = match tokenizer {
            Tokenizer::Own => Tokens::Own(Scanner::new(text, base, true)),
            Tokenizer::QuickXml => Tokens::QuickXml(quick_xml_reader(rest, true)),
        };
        XmlStream::with_tokens(text, lines, tokens, base)
    }

    /// A reader of `text` whose tokens come from `tokens`, which start at
    /// byte `base`, outside of every element.
    fn with_tokens(
        text: &'a str,
        lines: &'a LineIndex<'a>,
        tokens: Tokens<'a>,
        base: usize,
    ) -> Self {
        XmlStream {
            text,
            tokens,
            lines,
            open: Vec::new(),
            skipped: 0,
            base,
            item_attrs: Vec::new(),
        }
    }

    /// The byte offset the reader has reached.
    #[inline]
    pub fn position(&self) -> usize {
        match &self.tokens {
            Tokens::Own(scanner) => scanner.position(),
            Tokens::QuickXml(reader) => usize::try_from(reader.buffer_position())
                .unwrap_or(usize::MAX)
                .saturating_add(self.base),
        }
    }

    /// The next event of the tokenizer; the attributes of a start tag our
    /// scanner split are appended to `attrs` (see [`XmlStream::split`]).
    #[inline(always)]
    fn read_event(&mut self, attrs: &mut Vec<Attr<'a>>) -> Result<Event<'a>, ReadError> {
        match &mut self.tokens {
            Tokens::Own(scanner) => scanner.next_event(attrs).ok_or_else(gave_up),
            Tokens::QuickXml(reader) => match reader.read_event() {
                Ok(event) => Ok(event),
                Err(e) => Err(self.parse_error(e)),
            },
        }
    }

    /// Whether the attributes of the start tag at byte `at`, just read,
    /// were split by our scanner (and appended to the `attrs` given to
    /// [`XmlStream::read_event`]).
    #[inline(always)]
    fn split(&self, at: usize) -> Option<&'a str> {
        match &self.tokens {
            Tokens::Own(scanner) => scanner.split(at),
            Tokens::QuickXml(_) => None,
        }
    }

    /// Moves the reader on to byte `to` without reading what lies between:
    /// another reader has read it (see [`XmlStream::starting_at`]), from
    /// where this one is now, outside of every element but those it was
    /// started in, to `to`, the `<` of the next end tag. `false` (and
    /// nothing done) when `to` is not ahead within the text.
    pub fn skip_to(&mut self, to: usize) -> bool {
        use std::io::BufRead;
        let Some(ahead) = to.checked_sub(self.position()) else {
            return false;
        };
        let reader = match &mut self.tokens {
            Tokens::Own(scanner) => return scanner.skip_to(to),
            Tokens::QuickXml(reader) => reader,
        };
        let mut stream = reader.stream();
        if ahead > stream.get_ref().len() {
            return false;
        }
        stream.consume(ahead);
        true
    }

    /// A "not well-formed" error at byte `at`.
    pub fn error_at(&self, at: usize, message: impl Into<String>) -> ReadError {
        let location = self.lines.location(at);
        ReadError::Xml {
            line: location.line,
            column: location.column,
            message: message.into(),
        }
    }

    fn parse_error(&self, error: quick_xml::Error) -> ReadError {
        let error_position = match &self.tokens {
            Tokens::Own(_) => 0,
            Tokens::QuickXml(reader) => reader.error_position(),
        };
        let at = usize::try_from(error_position)
            .unwrap_or(usize::MAX)
            .saturating_add(self.base);
        self.error_at(at, error.to_string())
    }

    /// The next structural event, skipping comments, processing instructions,
    /// the declaration and the doctype.
    pub fn next(&mut self) -> Result<Item<'a>, ReadError> {
        // No offset is `usize::MAX`: the reader never stops there.
        Ok(self.next_unless_at(usize::MAX)?.unwrap_or(Item::Eof))
    }

    /// As [`XmlStream::next`], but `None` when the reader has come to byte
    /// `stop` between two events (before a comment skipped too).
    #[inline(always)]
    pub fn next_unless_at(&mut self, stop: usize) -> Result<Option<Item<'a>>, ReadError> {
        loop {
            let at = self.position();
            if at == stop {
                return Ok(None);
            }
            self.item_attrs.clear();
            let mut attrs = std::mem::take(&mut self.item_attrs);
            let event = self.read_event(&mut attrs);
            self.item_attrs = attrs;
            return Ok(Some(match event? {
                Event::Start(tag) => Item::Start {
                    tag,
                    empty: false,
                    at,
                },
                Event::Empty(tag) => Item::Start {
                    tag,
                    empty: true,
                    at,
                },
                Event::End(_) => Item::End { at },
                Event::Text(text) => {
                    let blank = text.iter().all(u8::is_ascii_whitespace);
                    Item::Text { blank, at }
                }
                Event::CData(_) => Item::Text { blank: false, at },
                Event::Eof => Item::Eof,
                Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => continue,
            }));
        }
    }

    /// The name and unescaped attributes of a start tag at byte `at`, borrowed
    /// from the document.
    pub fn tag_parts(
        &self,
        tag: &BytesStart<'_>,
        at: usize,
    ) -> Result<(Cow<'a, str>, Vec<Attr<'a>>), ReadError> {
        let mut attrs = Vec::new();
        let name = self.push_tag_parts(tag, at, &mut attrs)?;
        Ok((Cow::Borrowed(name), attrs))
    }

    /// The name of a start tag at byte `at`, its unescaped attributes
    /// appended to `attrs`; all borrowed from the document.
    pub fn push_tag_parts(
        &self,
        tag: &BytesStart<'_>,
        at: usize,
        attrs: &mut Vec<Attr<'a>>,
    ) -> Result<&'a str, ReadError> {
        // The tag's content (between `<` and `>` or `/>`) is the document's
        // text right after the `<` at `at`: slice it from the document itself,
        // so that what the attributes borrow lives as long as the document.
        // quick-xml borrows the tag from the document: it is found there by
        // its address, without comparing its bytes with the text after `at`.
        if let Some(name) = self.split(at) {
            // Split as the tag was scanned (by `next`).
            attrs.extend_from_slice(&self.item_attrs);
            return Ok(name);
        }
        let raw: &[u8] = tag;
        let content = within(self.text, raw)
            .filter(|content| content.as_ptr() as usize == self.text.as_ptr() as usize + at + 1)
            .ok_or_else(|| self.error_at(at, "a start tag that is not in the document"))?;
        let name_len = tag.name().as_ref().len();
        let name = content
            .get(..name_len)
            .ok_or_else(|| self.error_at(at, "a tag name that is not UTF-8"))?;
        if name_len == content.len() {
            // No attributes (half the tags of a model: `<dim>`, `<input>`...).
            return Ok(name);
        }
        let first = attrs.len();
        let content_start = at + 1;
        let content_range = content_start..content_start + content.len();
        if push_plain_attrs(self.text, content_range, name_len, attrs) {
            return Ok(name);
        }
        attrs.truncate(first);
        // Duplicate keys are found here, in the list being built, rather than
        // by quick-xml's check, which keeps a vector of its own per tag (an
        // allocation per element of the file); the error is the same.
        for attr in Attributes::new(content, name_len).with_checks(false) {
            let attr = attr.map_err(|e| self.error_at(at, format!("in `<{name}>`: {e}")))?;
            let key = match within(content, attr.key.into_inner()) {
                Some(key) => key,
                None => std::str::from_utf8(attr.key.into_inner())
                    .map_err(|e| self.error_at(at, format!("in `<{name}>`: {e}")))?,
            };
            if let Some((first, _)) = attrs[first..].iter().find(|(k, _)| *k == key) {
                let offset = |k: &str| k.as_ptr() as usize - content.as_ptr() as usize;
                let e = AttrError::Duplicated(offset(key), offset(first));
                return Err(self.error_at(at, format!("in `<{name}>`: {e}")));
            }
            // The value is text of the document: only unescaped, not
            // checked as UTF-8 again as quick-xml's `unescape_value` would.
            let value = match within(content, &attr.value) {
                Some(value) => unescape(value),
                None => attr.unescape_value(),
            }
            .map_err(|e| self.error_at(at, format!("in attribute `{key}` of `<{name}>`: {e}")))?;
            attrs.push((key, value));
        }
        Ok(name)
    }

    /// The unescaped attributes of the start tag at byte `at` just returned
    /// by [`XmlStream::next`]: those our scanner split, or else split into
    /// `scratch` (cleared first), with the errors of
    /// [`XmlStream::push_tag_parts`].
    pub fn tag_attrs<'s>(
        &'s self,
        tag: &BytesStart<'_>,
        at: usize,
        scratch: &'s mut Vec<Attr<'a>>,
    ) -> Result<&'s [Attr<'a>], ReadError> {
        if self.split(at).is_some() {
            return Ok(&self.item_attrs);
        }
        scratch.clear();
        self.push_tag_parts(tag, at, scratch)?;
        Ok(scratch)
    }

    /// Passes over whitespace up to the next `<` when our scanner reads:
    /// the text [`XmlStream::next`] would give as `Item::Text { blank:
    /// true }`, for a caller that drops it.
    #[inline]
    pub fn skip_blank_text(&mut self) {
        if let Some(scanner) = self.own_scanner() {
            scanner.skip_blank_text();
        }
    }

    /// Reads the element whose start tag was just returned by [`XmlStream::next`],
    /// with all its descendants, into `tree` (cleared first; its root is the
    /// element).
    pub fn read_element(
        &mut self,
        tree: &mut Tree<'a>,
        tag: &BytesStart<'_>,
        empty: bool,
        at: usize,
    ) -> Result<(), ReadError> {
        tree.clear();
        let name = self.push_tag_parts(tag, at, &mut tree.attrs)?;
        let root = tree.push(name, 0, at, self.position());
        if empty {
            return Ok(());
        }
        self.enter(name);
        tree.open.push(root);
        self.fill_tree(tree)
    }

    /// Reads the element [`XmlStream::within`] just returned as `opened`
    /// (its attributes `attrs`) with all its descendants into `tree`
    /// (cleared first; its root is the element). What is kept is counted from the element [`XmlStream::enter`]
    /// was called for, as if that element were read whole.
    pub fn read_child(
        &mut self,
        tree: &mut Tree<'a>,
        opened: Opened<'a>,
        attrs: &[Attr<'a>],
    ) -> Result<(), ReadError> {
        tree.clear();
        tree.attrs.extend_from_slice(attrs);
        let root = tree.push(opened.name, 0, opened.at, opened.end);
        if opened.empty {
            return Ok(());
        }
        tree.open.push(root);
        self.fill_tree(tree)
    }

    /// Reads events into `tree` until its open elements have ended.
    fn fill_tree(&mut self, tree: &mut Tree<'a>) -> Result<(), ReadError> {
        loop {
            let attrs_from = tree.attrs.len();
            // Whitespace before an element's first other text (the
            // indentation of a pretty-printed file, before and between its
            // children) is not kept: it could only lead the text, which every
            // reader of an element's text trims.
            let blanks = tree
                .open
                .last()
                .is_some_and(|&current| tree.slots[current].first_text != NONE);
            match self.within(&mut tree.attrs, blanks)? {
                Inner::Open(opened) => {
                    let index = tree.push(opened.name, attrs_from, opened.at, opened.end);
                    if !opened.empty {
                        tree.open.push(index);
                    }
                }
                Inner::Close { end } => {
                    let Some(done) = tree.open.pop() else {
                        return Err(self.error_at(end, "unexpected end tag"));
                    };
                    tree.slots[done].end = end;
                    if tree.open.is_empty() {
                        return Ok(());
                    }
                }
                Inner::Text(text) => {
                    if let Some(&current) = tree.open.last() {
                        tree.push_text(current, text);
                    }
                }
            }
        }
    }

    /// Starts reading inside the element `name`, whose start tag (not an
    /// empty one) was just read: [`XmlStream::within`] then returns what it
    /// holds, up to its end tag.
    pub fn enter(&mut self, name: &'a str) {
        self.open.clear();
        self.open.push(name);
        self.skipped = 0;
    }

    /// The next event inside the element [`XmlStream::enter`] was called for:
    /// a child element kept (its attributes appended to `attrs`), the end of
    /// one (the last is the element's own), or text directly inside one;
    /// text of only whitespace only when `blanks` asks for it (a caller that
    /// has no use for it would only loop back: it is most of a
    /// pretty-printed file's events).
    /// Elements deeper than `MAX_KEPT_DEPTH` below the element are checked
    /// (their attributes split, as for a kept one) and not returned, nor is
    /// their text; an explicit stack, so deeply nested input cannot overflow
    /// the call stack.
    // Inlined into each loop over an element's events: called per event, a
    // call returning its result through memory cost 10% of a read.
    #[inline(always)]
    pub fn within(
        &mut self,
        attrs: &mut Vec<Attr<'a>>,
        blanks: bool,
    ) -> Result<Inner<'a>, ReadError> {
        loop {
            let at = self.position();
            let attrs_from = attrs.len();
            let event = self.read_event(attrs)?;
            match event {
                Event::Start(ref tag) | Event::Empty(ref tag) => {
                    let empty = matches!(event, Event::Empty(_));
                    let split = self.split(at);
                    if self.skipped == 0 && self.open.len() <= MAX_KEPT_DEPTH {
                        let name = match split {
                            Some(name) => name,
                            None => self.push_tag_parts(tag, at, attrs)?,
                        };
                        if !empty {
                            self.open.push(name);
                        }
                        return Ok(Inner::Open(Opened {
                            name,
                            at,
                            end: self.position(),
                            empty,
                        }));
                    }
                    // Too deep to keep: checked as one kept would be.
                    attrs.truncate(attrs_from);
                    if split.is_none() {
                        self.check_tag(attrs, tag, at)?;
                    }
                    if !empty {
                        self.skipped += 1;
                    }
                }
                Event::End(_) if self.skipped > 0 => self.skipped -= 1,
                Event::End(_) => {
                    if self.open.pop().is_none() {
                        return Err(self.error_at(at, "unexpected end tag"));
                    }
                    return Ok(Inner::Close {
                        end: self.position(),
                    });
                }
                Event::Text(_) | Event::CData(_) if self.skipped > 0 => {}
                Event::Text(text) if text.iter().all(u8::is_ascii_whitespace) => {
                    if blanks {
                        // No `&` to unescape.
                        let text = within(self.text, &text).map_or_else(
                            || Cow::Owned(String::from_utf8_lossy(&text).into_owned()),
                            Cow::Borrowed,
                        );
                        return Ok(Inner::Text(text));
                    }
                }
                Event::Text(text) => {
                    // Text of the document: only unescaped, as for attributes.
                    let text = match within(self.text, &text) {
                        Some(raw) => unescape(raw),
                        None => text.unescape(),
                    }
                    .map_err(|e| self.error_at(at, e.to_string()))?;
                    return Ok(Inner::Text(text));
                }
                Event::CData(data) => {
                    let text = Cow::Owned(String::from_utf8_lossy(&data).into_owned());
                    return Ok(Inner::Text(text));
                }
                Event::Eof => {
                    let name = self.open.last().copied().unwrap_or_default();
                    return Err(
                        self.error_at(at, format!("unexpected end of file inside `<{name}>`"))
                    );
                }
                Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
            }
        }
    }

    /// Our scanner, when it is the one reading: the fast paths below read
    /// plainly written text with it, and leave everything to the events
    /// when quick-xml reads.
    #[inline(always)]
    fn own_scanner(&mut self) -> Option<&mut Scanner<'a>> {
        match &mut self.tokens {
            Tokens::Own(scanner) => Some(scanner),
            Tokens::QuickXml(_) => None,
        }
    }

    /// The text and end tag of the element [`XmlStream::within`] opened
    /// last, read at once when our scanner finds them written plainly (see
    /// `Scanner::plain_text_and_end`): what `within` would give as that
    /// text and then its close, without the two events. `None`, and
    /// nothing read, otherwise.
    #[inline(always)]
    pub fn plain_text_and_close(&mut self) -> Option<&'a str> {
        if self.skipped > 0 || self.open.len() < 2 {
            return None;
        }
        let scanner = self.own_scanner()?;
        let text = scanner.plain_text_and_end()?;
        self.open.pop();
        Some(text)
    }

    /// A child `<dim>N</dim>` of the innermost open element, read at once
    /// when our scanner finds it written so (see `Scanner::plain_dim`):
    /// what [`XmlStream::plain_start`] of `dim` then
    /// [`XmlStream::plain_text_and_close`] would read, here its offset and
    /// text. `None`, and nothing read, otherwise.
    #[inline(always)]
    pub fn plain_dim(&mut self) -> Option<(usize, &'a str)> {
        if self.skipped > 0 || self.open.is_empty() || self.open.len() >= MAX_KEPT_DEPTH {
            return None;
        }
        self.own_scanner()?.plain_dim()
    }

    /// A child `<name>` (no attributes) of the innermost open element,
    /// read at once when our scanner finds it written so at the position
    /// reached: what [`XmlStream::within`] would return as its
    /// [`Inner::Open`] (not empty, ending where the reader is then), here
    /// its offset. `None`, and nothing read, otherwise.
    #[inline(always)]
    pub fn plain_start(&mut self, name: &[u8]) -> Option<usize> {
        if self.skipped > 0 || self.open.len() > MAX_KEPT_DEPTH {
            return None;
        }
        let scanner = self.own_scanner()?;
        let (at, name) = scanner.plain_start(name)?;
        self.open.push(name);
        Some(at)
    }

    /// A child `<name ...>` of the innermost open element with its
    /// attributes written plainly, read at once when our scanner finds it
    /// so at the position reached: what [`XmlStream::within`] would return
    /// as its [`Inner::Open`], its attributes appended to `attrs`. `None`,
    /// and nothing read, otherwise (some attributes may have been
    /// appended).
    #[inline(always)]
    pub fn plain_start_with_attrs(
        &mut self,
        name: &'static str,
        attrs: &mut Vec<Attr<'a>>,
    ) -> Option<Opened<'a>> {
        if self.skipped > 0 || self.open.len() > MAX_KEPT_DEPTH {
            return None;
        }
        let scanner = self.own_scanner()?;
        let (at, empty) = scanner.plain_start_with_attrs(name.as_bytes(), true, attrs)?;
        let end = scanner.position();
        if !empty {
            self.open.push(name);
        }
        Some(Opened {
            name,
            at,
            end,
            empty,
        })
    }

    /// A child `<name ...>` of the innermost open element whose attributes
    /// are the first of `keys`, written as [`Scanner::keyed_start`] reads
    /// them, read at once when our scanner finds it so: what
    /// [`XmlStream::within`] would return as its [`Inner::Open`], its
    /// attributes those pairs. `None`, and nothing read, otherwise.
    #[inline(always)]
    pub fn keyed_start<const N: usize>(
        &mut self,
        name: &'static str,
        keys: &[KeyPattern; N],
    ) -> Option<KeyedTag<'a, N>> {
        if self.skipped > 0 || self.open.len() > MAX_KEPT_DEPTH {
            return None;
        }
        let scanner = self.own_scanner()?;
        let tag = scanner.keyed_start(name.as_bytes(), keys, true)?;
        if !tag.empty {
            self.open.push(name);
        }
        Some(tag)
    }

    /// A `<name ...>` or `<name .../>` (only an empty one unless
    /// `nonempty`) at the position reached, between two items of a list,
    /// whose attributes are the first of `keys`, written as
    /// [`Scanner::keyed_start`] reads them, read at once when our scanner
    /// finds it so: what [`XmlStream::next`] would give as its
    /// [`Item::Start`], its attributes those pairs. `None`, and nothing
    /// read, otherwise.
    #[inline(always)]
    pub fn keyed_item<const N: usize>(
        &mut self,
        name: &[u8],
        keys: &[KeyPattern; N],
        nonempty: bool,
    ) -> Option<KeyedTag<'a, N>> {
        self.own_scanner()?.keyed_start(name, keys, nonempty)
    }

    /// A `<name ...>` or `<name .../>` at the position reached, between two
    /// items of a list, its attributes written plainly, read at once when
    /// our scanner finds it so: what [`XmlStream::next`] would give as its
    /// [`Item::Start`], its attributes appended to `attrs`; here its offset
    /// and whether it is empty. `None`, and nothing read, otherwise (some
    /// attributes may have been appended).
    #[inline(always)]
    pub fn plain_item(&mut self, name: &[u8], attrs: &mut Vec<Attr<'a>>) -> Option<(usize, bool)> {
        let scanner = self.own_scanner()?;
        scanner.plain_start_with_attrs(name, true, attrs)
    }

    /// An empty `<name .../>` at the position reached, between two items of
    /// a list, its attributes written plainly, read at once when our
    /// scanner finds it so: what [`XmlStream::next`] would give as its
    /// [`Item::Start`], its attributes in `attrs` (cleared first); here its
    /// offset. `None`, and nothing read, otherwise.
    #[inline(always)]
    pub fn plain_empty_item(&mut self, name: &[u8], attrs: &mut Vec<Attr<'a>>) -> Option<usize> {
        let scanner = self.own_scanner()?;
        attrs.clear();
        scanner
            .plain_start_with_attrs(name, false, attrs)
            .map(|(at, _)| at)
    }

    /// The end tag of the innermost open element, read at once when our
    /// scanner finds it written plainly at the position reached: what
    /// [`XmlStream::within`] would return as [`Inner::Close`], here the
    /// offset just past it. `None`, and nothing read, otherwise.
    #[inline(always)]
    pub fn plain_end(&mut self) -> Option<usize> {
        if self.skipped > 0 || self.open.is_empty() {
            return None;
        }
        let scanner = self.own_scanner()?;
        let end = scanner.plain_end()?;
        self.open.pop();
        Some(end)
    }

    /// Checks the start tag of an element too deep to keep, as one kept
    /// would be (its attributes are dropped again).
    fn check_tag(
        &self,
        attrs: &mut Vec<Attr<'a>>,
        tag: &BytesStart<'_>,
        at: usize,
    ) -> Result<(), ReadError> {
        let attrs_from = attrs.len();
        let checked = self.push_tag_parts(tag, at, attrs);
        attrs.truncate(attrs_from);
        checked.map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pairs quick-xml's iterator splits `content` (a tag's text, name
    /// first) into, or `None` at an error or a duplicate key.
    fn split_by_quick_xml(content: &str) -> Option<Vec<(String, String)>> {
        let name_len = content
            .find([' ', '\t', '\r', '\n'])
            .unwrap_or(content.len());
        let mut pairs = Vec::new();
        for attr in Attributes::new(content, name_len).with_checks(true) {
            let attr = attr.ok()?;
            let key = std::str::from_utf8(attr.key.into_inner()).ok()?.to_owned();
            pairs.push((key, attr.unescape_value().ok()?.into_owned()));
        }
        Some(pairs)
    }

    #[test]
    fn plain_attributes_split_as_quick_xml_splits_them() {
        let plain = [
            "layer",
            "layer ",
            "layer id=\"0\" name=\"x\" type='Parameter' version=\"opset1\"",
            "port\tid = \"1\"\n precision=\"FP32\"\r\n",
            "data a=\"\" b='\"' c=\"'\" é=\"ü\"",
            "x =x=\"1\" y\"z=\"2\" <=\">\"",
            "x a=\"1\"b=\"2\"",
        ];
        let irregular = [
            "x a",
            "x a ",
            "x a b=\"1\"",
            "x a=",
            "x a= ",
            "x a=1",
            "x a=\"1",
            "x a='1\"",
            "x a=\"1\" a=\"2\"",
            "x a=\"&amp;\"",
            "x a=\"&bad;\"",
        ];
        for content in plain.iter().chain(&irregular) {
            let name_len = content
                .find([' ', '\t', '\r', '\n'])
                .unwrap_or(content.len());
            let mut attrs = Vec::new();
            // The tag in a text that goes on past it.
            let text = format!("{content}>\n</x>");
            let fast = push_plain_attrs(&text, 0..content.len(), name_len, &mut attrs);
            assert_eq!(fast, plain.contains(content), "{content:?}");
            if fast {
                let pairs: Vec<_> = attrs
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect();
                assert_eq!(Some(pairs), split_by_quick_xml(content), "{content:?}");
            }
        }
    }

    #[test]
    fn any_tag_split_plainly_is_split_as_quick_xml_splits_it() {
        // Tags of random pieces, many of them plain: whatever the fast
        // split accepts, quick-xml splits the same way, without an error.
        let pieces = [
            " ",
            "\t",
            "\n",
            "a",
            "bc",
            "=",
            "\"",
            "'",
            "&",
            "&amp;",
            ";",
            "é",
            "<",
            ">",
            "\u{1}",
            " k=\"v\"",
            " k='w'",
            " id=\"12\"",
            " a = \"x y\"",
        ];
        let mut random = crate::Random(0x9e37_79b9_7f4a_7c15u64);
        let mut next = |bound: usize| random.below(bound);
        let mut accepted = 0;
        for _ in 0..20_000 {
            let mut content = String::from("x");
            for _ in 0..next(8) {
                content.push_str(pieces[next(pieces.len())]);
            }
            let text = format!("{content}>\n</x>");
            let mut attrs = Vec::new();
            let name_len = content
                .find([' ', '\t', '\r', '\n'])
                .unwrap_or(content.len());
            if push_plain_attrs(&text, 0..content.len(), name_len, &mut attrs) {
                accepted += 1;
                let pairs: Vec<_> = attrs
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect();
                assert_eq!(Some(pairs), split_by_quick_xml(&content), "{content:?}");
            }
        }
        assert!(accepted > 1000, "{accepted}");
    }
}
