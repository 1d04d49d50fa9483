//! A thin layer over quick-xml's streaming reader: events with their byte
//! offsets, and small element subtrees (one `<layer>`, one `<edge>`, one
//! `<rt_info>`) read from the stream without recursion.

use std::borrow::Cow;

use quick_xml::events::attributes::{AttrError, Attributes};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::line_index::LineIndex;
use crate::ReadError;

/// How many levels below the element [`XmlStream::read_element`] reads are
/// kept as [`Element`]s: a `<layer>` needs four (`output`, `port`, `rt_info`,
/// `attribute`) and each level of bodies three more (`body`, `layers`,
/// `layer`).
const MAX_KEPT_DEPTH: usize = 8 + 3 * crate::reader::MAX_BODY_DEPTH;

/// A name and value of an attribute; borrowed from the document unless
/// unescaping changed them.
pub(crate) type Attr<'a> = (Cow<'a, str>, Cow<'a, str>);

/// One element read from the stream: its name, unescaped attributes in file
/// order, children, text, and the byte range of its source text. Names and
/// values borrow the document: a model of a million layers would otherwise
/// make several million small strings just to read them once.
#[derive(Debug, Clone, Default)]
pub(crate) struct Element<'a> {
    pub name: Cow<'a, str>,
    pub attrs: Vec<Attr<'a>>,
    pub children: Vec<Element<'a>>,
    /// The concatenated (unescaped) text directly inside the element.
    pub text: Cow<'a, str>,
    /// Byte offset of the `<` that starts the element.
    pub start: usize,
    /// Byte offset just past the element's end (`/>` or its end tag).
    pub end: usize,
}

impl Element<'_> {
    /// The value of attribute `key`.
    pub fn attr(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_ref())
    }

    /// Appends text found directly inside the element.
    fn push_text<'a>(text: &mut Cow<'a, str>, more: Cow<'a, str>) {
        if text.is_empty() {
            *text = more;
        } else {
            text.to_mut().push_str(&more);
        }
    }
}

/// `bytes` as the stretch of `text` they are, when they are one (a name,
/// value or text quick-xml borrowed from the document): already known to
/// be UTF-8.
fn within<'a>(text: &'a str, bytes: &[u8]) -> Option<&'a str> {
    let start = (bytes.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    text.get(start..start.checked_add(bytes.len())?)
}

/// A streaming reader over a whole document that knows byte offsets.
pub(crate) struct XmlStream<'a> {
    text: &'a str,
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
        XmlStream {
            text,
            reader,
            lines,
        }
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

    /// The name and unescaped attributes of a start tag at byte `at`, borrowed
    /// from the document.
    pub fn tag_parts(
        &self,
        tag: &BytesStart<'_>,
        at: usize,
    ) -> Result<(Cow<'a, str>, Vec<Attr<'a>>), ReadError> {
        // The tag's content (between `<` and `>` or `/>`) is the document's
        // text right after the `<` at `at`: slice it from the document itself,
        // so that what the attributes borrow lives as long as the document.
        let raw: &[u8] = tag;
        let content = at
            .checked_add(1)
            .and_then(|from| self.text.get(from..from.checked_add(raw.len())?))
            .filter(|content| content.as_bytes() == raw)
            .ok_or_else(|| self.error_at(at, "a start tag that is not in the document"))?;
        let name_len = tag.name().as_ref().len();
        let name = content
            .get(..name_len)
            .ok_or_else(|| self.error_at(at, "a tag name that is not UTF-8"))?;
        let mut attrs: Vec<Attr<'a>> = Vec::new();
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
            if let Some((first, _)) = attrs.iter().find(|(k, _)| k == key) {
                let offset = |k: &str| k.as_ptr() as usize - content.as_ptr() as usize;
                let e = AttrError::Duplicated(offset(key), offset(first));
                return Err(self.error_at(at, format!("in `<{name}>`: {e}")));
            }
            // The value is text of the document: only unescaped, not
            // checked as UTF-8 again as quick-xml's `unescape_value` would.
            let value = match within(content, &attr.value) {
                Some(value) => quick_xml::escape::unescape(value).map_err(quick_xml::Error::from),
                None => attr.unescape_value(),
            }
            .map_err(|e| self.error_at(at, format!("in attribute `{key}` of `<{name}>`: {e}")))?;
            attrs.push((Cow::Borrowed(key), value));
        }
        Ok((Cow::Borrowed(name), attrs))
    }

    /// Reads the element whose start tag was just returned by [`XmlStream::next`],
    /// with all its descendants.
    pub fn read_element(
        &mut self,
        tag: &BytesStart<'_>,
        empty: bool,
        at: usize,
    ) -> Result<Element<'a>, ReadError> {
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
                    // Text of the document: only unescaped, as for attributes.
                    let text = match within(self.text, &text) {
                        Some(raw) => {
                            quick_xml::escape::unescape(raw).map_err(quick_xml::Error::from)
                        }
                        None => text.unescape(),
                    }
                    .map_err(|e| self.error_at(at, e.to_string()))?;
                    if let Some(current) = stack.last_mut() {
                        Element::push_text(&mut current.text, text);
                    }
                }
                Event::CData(data) => {
                    let text = Cow::Owned(String::from_utf8_lossy(&data).into_owned());
                    if let Some(current) = stack.last_mut() {
                        Element::push_text(&mut current.text, text);
                    }
                }
                Event::Eof => {
                    let name = stack.last().map(|e| e.name.to_string()).unwrap_or_default();
                    return Err(
                        self.error_at(at, format!("unexpected end of file inside `<{name}>`"))
                    );
                }
                Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
            }
        }
    }
}
