//! A thin layer over quick-xml's streaming reader: events with their byte
//! offsets, and small element subtrees (one `<layer>`, one `<edge>`, one
//! `<rt_info>`) read from the stream without recursion.

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::line_index::LineIndex;
use crate::ReadError;

/// How many levels below the element [`XmlStream::read_element`] reads are
/// kept as [`Element`]s: a `<layer>` needs four (`output`, `port`, `rt_info`,
/// `attribute`) and each level of bodies three more (`body`, `layers`,
/// `layer`).
const MAX_KEPT_DEPTH: usize = 8 + 3 * crate::reader::MAX_BODY_DEPTH;

/// One element read from the stream: its name, unescaped attributes in file
/// order, children, text, and the byte range of its source text.
#[derive(Debug, Clone, Default)]
pub(crate) struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Element>,
    /// The concatenated (unescaped) text directly inside the element.
    pub text: String,
    /// Byte offset of the `<` that starts the element.
    pub start: usize,
    /// Byte offset just past the element's end (`/>` or its end tag).
    pub end: usize,
}

impl Element {
    /// The value of attribute `key`.
    pub fn attr(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// A streaming reader over a whole document that knows byte offsets.
pub(crate) struct XmlStream<'a> {
    reader: Reader<&'a [u8]>,
    lines: &'a LineIndex<'a>,
}

/// An event and the byte offset where it starts.
pub(crate) enum Item<'a> {
    /// A start tag; `empty` for `<x/>`.
    Start {
        tag: BytesStart<'a>,
        empty: bool,
        at: usize,
    },
    /// An end tag.
    End,
    /// Text; `true` when it holds only whitespace.
    Text { blank: bool, at: usize },
    /// The end of the document.
    Eof,
}

impl<'a> XmlStream<'a> {
    pub fn new(text: &'a str, lines: &'a LineIndex<'a>) -> Self {
        let mut reader = Reader::from_str(text);
        let config = reader.config_mut();
        config.check_end_names = true;
        config.expand_empty_elements = false;
        config.trim_text(false);
        XmlStream { reader, lines }
    }

    /// The byte offset the reader has reached.
    pub fn position(&self) -> usize {
        usize::try_from(self.reader.buffer_position()).unwrap_or(usize::MAX)
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
        let at = usize::try_from(self.reader.error_position()).unwrap_or(usize::MAX);
        self.error_at(at, error.to_string())
    }

    /// The next structural event, skipping comments, processing instructions,
    /// the declaration and the doctype.
    pub fn next(&mut self) -> Result<Item<'a>, ReadError> {
        loop {
            let at = self.position();
            let event = self.reader.read_event().map_err(|e| self.parse_error(e))?;
            return Ok(match event {
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
                Event::End(_) => Item::End,
                Event::Text(text) => {
                    let blank = text.iter().all(u8::is_ascii_whitespace);
                    Item::Text { blank, at }
                }
                Event::CData(_) => Item::Text { blank: false, at },
                Event::Eof => Item::Eof,
                Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => continue,
            });
        }
    }

    /// The name and unescaped attributes of a start tag at byte `at`.
    pub fn tag_parts(
        &self,
        tag: &BytesStart<'_>,
        at: usize,
    ) -> Result<(String, Vec<(String, String)>), ReadError> {
        let name = String::from_utf8_lossy(tag.name().as_ref()).into_owned();
        let mut attrs = Vec::new();
        for attr in tag.attributes().with_checks(true) {
            let attr = attr.map_err(|e| self.error_at(at, format!("in `<{name}>`: {e}")))?;
            let key = String::from_utf8_lossy(attr.key.as_ref()).into_owned();
            let value = attr
                .unescape_value()
                .map_err(|e| self.error_at(at, format!("in attribute `{key}` of `<{name}>`: {e}")))?
                .into_owned();
            attrs.push((key, value));
        }
        Ok((name, attrs))
    }

    /// Reads the element whose start tag was just returned by [`XmlStream::next`],
    /// with all its descendants.
    pub fn read_element(
        &mut self,
        tag: &BytesStart<'_>,
        empty: bool,
        at: usize,
    ) -> Result<Element, ReadError> {
        let (name, attrs) = self.tag_parts(tag, at)?;
        let root = Element {
            name,
            attrs,
            start: at,
            end: self.position(),
            ..Element::default()
        };
        if empty {
            return Ok(root);
        }
        // An explicit stack: deeply nested input cannot overflow the call
        // stack. Elements deeper than `MAX_KEPT_DEPTH` below `root` are checked
        // and counted but not kept (their source text still is, in the range
        // of their ancestors), so dropping the tree cannot recurse deeply either.
        let mut stack = vec![root];
        let mut skipped = 0usize;
        loop {
            let at = self.position();
            let event = self.reader.read_event().map_err(|e| self.parse_error(e))?;
            let keep = skipped == 0 && stack.len() <= MAX_KEPT_DEPTH;
            match event {
                Event::Start(tag) if keep => {
                    let (name, attrs) = self.tag_parts(&tag, at)?;
                    stack.push(Element {
                        name,
                        attrs,
                        start: at,
                        ..Element::default()
                    });
                }
                Event::Empty(tag) if keep => {
                    let (name, attrs) = self.tag_parts(&tag, at)?;
                    let child = Element {
                        name,
                        attrs,
                        start: at,
                        end: self.position(),
                        ..Element::default()
                    };
                    if let Some(parent) = stack.last_mut() {
                        parent.children.push(child);
                    }
                }
                Event::Start(tag) => {
                    self.tag_parts(&tag, at)?;
                    skipped += 1;
                }
                Event::Empty(tag) => {
                    self.tag_parts(&tag, at)?;
                }
                Event::End(_) if skipped > 0 => skipped -= 1,
                Event::End(_) => {
                    let Some(mut done) = stack.pop() else {
                        return Err(self.error_at(at, "unexpected end tag"));
                    };
                    done.end = self.position();
                    match stack.last_mut() {
                        Some(parent) => parent.children.push(done),
                        None => return Ok(done),
                    }
                }
                Event::Text(_) | Event::CData(_) if skipped > 0 => {}
                Event::Text(text) => {
                    let text = text
                        .unescape()
                        .map_err(|e| self.error_at(at, e.to_string()))?;
                    if let Some(current) = stack.last_mut() {
                        current.text.push_str(&text);
                    }
                }
                Event::CData(data) => {
                    let text = String::from_utf8_lossy(&data);
                    if let Some(current) = stack.last_mut() {
                        current.text.push_str(&text);
                    }
                }
                Event::Eof => {
                    let name = stack.last().map(|e| e.name.clone()).unwrap_or_default();
                    return Err(
                        self.error_at(at, format!("unexpected end of file inside `<{name}>`"))
                    );
                }
                Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
            }
        }
    }
}
