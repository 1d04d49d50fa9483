//! The reader: OpenVINO IR text (and the `.bin` bytes) to an [`ir::Graph`].
//!
//! The document is streamed with quick-xml. The `<net>` element and the
//! `<layers>` / `<edges>` lists are never held in memory as a tree; each
//! `<layer>` of the model is read from the events straight into its node
//! (the `layer` module), each `<edge>`, `<rt_info>` and body as a small
//! subtree ([`crate::xml::Element`] of a reused [`crate::xml::Tree`]), and
//! turned into IR right away. An edge is added as it is read when its
//! layers came before it, else once every layer is known. Only text that cannot be parsed as XML at all is a
//! [`ReadError`]; every problem with the model itself becomes a [`Diagnostic`]
//! and reading goes on.

use std::borrow::Cow;
use std::collections::HashMap;

/// Layer ids to nodes. Writers number layers 0, 1, 2…: an id written as a
/// plain decimal number (no sign, no leading zero: `"07"` is another id
/// than `"7"`) is an index into a vector, with no hashing and no string to
/// compare (a million-layer file spent 6% of its read in the map). Other
/// ids, and numbers far past the count of layers (a hostile `id="4000000000"`
/// must not size the vector), are hashed with aHash, whose per-process
/// random keys make colliding ids in a hostile file impractical.
#[derive(Default)]
struct IdMap {
    numbered: Vec<Option<NodeId>>,
    named: HashMap<String, NodeId, ahash::RandomState>,
}

impl IdMap {
    /// How far past the layers so far a numbered id may reach the vector.
    const NUMBERED_SLACK: usize = 1 << 16;

    /// `id` as a number, when it is written as the plain decimal of one
    /// (summed digit by digit: `str::parse` first looks for a sign).
    fn number(id: &str) -> Option<usize> {
        let bytes = id.as_bytes();
        if !matches!(bytes, [b'0'] | [b'1'..=b'9', ..]) || bytes.len() > 9 {
            return None;
        }
        bytes.iter().try_fold(0usize, |number, &byte| {
            let digit = byte.wrapping_sub(b'0');
            (digit <= 9).then_some(number * 10 + usize::from(digit))
        })
    }

    #[inline]
    fn get(&self, id: &str) -> Option<NodeId> {
        if let Some(node) = Self::number(id).and_then(|n| self.numbered.get(n).copied().flatten()) {
            return Some(node);
        }
        self.get_named(id)
    }

    /// [`IdMap::get`] of an id not in the vector. Apart: the hash map's
    /// look-up made every call save and restore registers (a third of a
    /// call for a numbered id).
    #[inline(never)]
    fn get_named(&self, id: &str) -> Option<NodeId> {
        // A number may have been too far out for the vector when it came.
        self.named.get(id).copied()
    }

    /// The node of `id` when [`IdMap::get`] knows it; else `id` is added
    /// for `node` (as [`IdMap::insert`] adds it). A numbered id within
    /// reach of the vector is read once, not once for each.
    fn first_or_insert(&mut self, id: &str, node: NodeId) -> Option<NodeId> {
        let limit = node.index().saturating_add(Self::NUMBERED_SLACK);
        let Some(n) = Self::number(id).filter(|&n| n <= limit) else {
            let first = self.get(id);
            if first.is_none() {
                self.insert(id, node);
            }
            return first;
        };
        if let Some(&Some(first)) = self.numbered.get(n) {
            return Some(first);
        }
        if !self.named.is_empty() {
            if let Some(first) = self.get_named(id) {
                return Some(first);
            }
        }
        self.set_numbered(n, node);
        None
    }

    /// Adds `id`, which [`IdMap::get`] does not know.
    fn insert(&mut self, id: &str, node: NodeId) {
        let limit = node.index().saturating_add(Self::NUMBERED_SLACK);
        match Self::number(id).filter(|&n| n <= limit) {
            Some(n) => self.set_numbered(n, node),
            None => {
                self.named.insert(id.to_owned(), node);
            }
        }
    }

    /// Puts `node` in the vector's slot `n`, growing it to reach it.
    fn set_numbered(&mut self, n: usize, node: NodeId) {
        if n >= self.numbered.len() {
            self.numbered.resize(n + 1, None);
        }
        self.numbered[n] = Some(node);
    }
}

use ir::{
    Attributes, BackEdge, Body, BodyRole, DeclaredDim, Diagnostic, Edge, ElementType, Graph,
    InputMap, LayerRef, NodeId, Op, OpType, OutputMap, PortDecl, Provenance, Shape, SliceSpec,
    SourceLocation, SubGraph, SymbolTable, TensorBytes,
};

mod layer;
#[cfg(test)]
mod scan_tests;
mod split;
#[cfg(test)]
mod split_tests;

use layer::LayerScratch;
pub(crate) use split::Split;
use split::{Half, ListEnd, SplitPlan};

use crate::line_index::LineIndex;
use crate::scan::{KeyPattern, KeyedTag};
use crate::symbols;
use crate::text::{MappedText, Releaser};
use crate::xml::{is_gave_up, Attr, Element, Item, Tokenizer, Tree, XmlStream};

/// The attributes of a `<layer>`, `<port>` and `<edge>` start tag as
/// writers write them, in their order (see `XmlStream::keyed_start`).
const LAYER_KEYS: [KeyPattern; 4] = [
    KeyPattern::new("id"),
    KeyPattern::new("name"),
    KeyPattern::new("type"),
    KeyPattern::new("version"),
];
const PORT_KEY_NAMES: [&str; 3] = ["id", "precision", "names"];
const PORT_KEYS: [KeyPattern; 3] = [
    KeyPattern::new(PORT_KEY_NAMES[0]),
    KeyPattern::new(PORT_KEY_NAMES[1]),
    KeyPattern::new(PORT_KEY_NAMES[2]),
];
const EDGE_KEYS: [KeyPattern; 4] = [
    KeyPattern::new("from-layer"),
    KeyPattern::new("from-port"),
    KeyPattern::new("to-layer"),
    KeyPattern::new("to-port"),
];
use crate::{rules, ReadError, ReadOutcome};

/// Reads IR text. `weights` is the content of the `.bin`, `weights_name` how
/// diagnostics name it.
/// When the text is `mapped`, its pages are given back as the reading
/// passes them.
/// `split` says whether and where the model's `<layers>` is read in two
/// parts on two threads; the outcome is the same either way.
pub(crate) fn read(
    xml: &str,
    weights: Option<TensorBytes>,
    weights_name: Option<String>,
    mapped: Option<&MappedText>,
    split: Split,
) -> Result<ReadOutcome, ReadError> {
    // Our scanner reads the subset of XML that IR files are written in and
    // gives up at anything else; quick-xml then reads the text again from
    // the start and gives the outcome, or the error, exactly.
    let own = read_with(
        xml,
        weights.clone(),
        weights_name.clone(),
        mapped,
        split,
        Tokenizer::Own,
    );
    match own {
        Err(error) if is_gave_up(&error) => read_with(
            xml,
            weights,
            weights_name,
            mapped,
            split,
            Tokenizer::QuickXml,
        ),
        outcome => outcome,
    }
}

/// [`read`] with one tokenizer: [`Tokenizer::Own`] may end in the error
/// [`crate::xml::gave_up`] gives.
pub(crate) fn read_with(
    xml: &str,
    weights: Option<TensorBytes>,
    weights_name: Option<String>,
    mapped: Option<&MappedText>,
    split: Split,
    tokenizer: Tokenizer,
) -> Result<ReadOutcome, ReadError> {
    // quick-xml skips a byte-order mark and counts its offsets after it; drop
    // it here so that every offset (locations, verbatim `<rt_info>`) refers to
    // the same text. Found by the `xml_reader` fuzzer.
    let full_len = xml.len();
    let xml = xml.strip_prefix('\u{feff}').unwrap_or(xml);
    let mut releaser = Releaser::new(mapped, full_len - xml.len());
    let lines = LineIndex::new(xml);
    let layer_estimate = layer_estimate(xml);
    let mut stream = XmlStream::new(xml, &lines, tokenizer);
    let mut graph = Graph::default();
    graph.graph.reserve_nodes(layer_estimate);
    let mut builder = Builder::new(xml, &lines, graph, weights, weights_name, None);
    let plan = SplitPlan {
        mapped,
        base: full_len - xml.len(),
        split,
        layer_estimate,
    };

    // The root element.
    let (tag, empty, at) = loop {
        match stream.next()? {
            Item::Start { tag, empty, at } => break (tag, empty, at),
            Item::Text { blank: true, .. } => {}
            Item::Text { blank: false, at } => {
                return Err(stream.error_at(at, "text outside the root element"))
            }
            Item::End { .. } => {
                return Err(stream.error_at(stream.position(), "unexpected end tag"))
            }
            Item::Eof => return Err(stream.error_at(stream.position(), "no root element")),
        }
    };
    let (root_name, root_attrs) = stream.tag_parts(&tag, at)?;
    if root_name != "net" {
        let location = lines.location(at);
        return Err(ReadError::NotNet {
            found: root_name.into_owned(),
            line: location.line,
            column: location.column,
        });
    }
    builder.net_attributes(&root_attrs, at);

    // The edges left to add once every layer is known (see
    // `Builder::edge_read`); the graph's edges are sized when `<edges>`
    // starts (see `edge_estimate`).
    let mut edges = Vec::new();
    // The model's `<rt_info>` is kept until every layer is read; the tree
    // of the other elements of `<net>` is reused.
    let mut model_rt_info = Tree::default();
    let mut has_model_rt_info = false;
    let mut tree = Tree::default();
    if !empty {
        loop {
            match stream.next()? {
                Item::Start { tag, empty, at } => {
                    let name = String::from_utf8_lossy(tag.name().as_ref()).into_owned();
                    match name.as_str() {
                        "layers" | "edges" if !empty => {
                            builder.read_list(
                                &mut stream,
                                &name,
                                &mut edges,
                                &mut releaser,
                                &plan,
                            )?;
                        }
                        "layers" | "edges" => {}
                        "rt_info" if has_model_rt_info => {
                            stream.read_element(&mut tree, &tag, empty, at)?;
                            builder.ignored(tree.root(), "a second model `<rt_info>`");
                        }
                        "rt_info" => {
                            stream.read_element(&mut model_rt_info, &tag, empty, at)?;
                            has_model_rt_info = true;
                        }
                        _ => {
                            stream.read_element(&mut tree, &tag, empty, at)?;
                            builder.ignored(tree.root(), "an unknown element of `<net>`");
                        }
                    }
                }
                Item::Text { .. } => {}
                Item::End { .. } => break,
                Item::Eof => {
                    return Err(stream.error_at(xml.len(), "unexpected end of file inside `<net>`"))
                }
            }
        }
    }
    // Nothing but whitespace may follow the root.
    loop {
        match stream.next()? {
            Item::Eof => break,
            Item::Text { blank: true, .. } => {}
            Item::Start { at, .. } | Item::Text { at, .. } => {
                return Err(stream.error_at(at, "content after the root element"))
            }
            Item::End { .. } => {
                return Err(stream.error_at(stream.position(), "unexpected end tag"))
            }
        }
    }

    // At most one graph edge per pending `<edge>`.
    builder.graph.graph.reserve_edges(edges.len());
    for edge in &edges {
        builder.add_edge(edge);
    }
    drop(edges);
    if has_model_rt_info {
        builder.model_rt_info(model_rt_info.root());
    }
    // The edges' layer ids brought their pages back.
    releaser.all();
    Ok(ReadOutcome {
        graph: builder.graph,
        diagnostics: builder.diagnostics,
    })
}

/// Texts up to this size are searched whole for how many layers they hold
/// before reading, larger ones only at their start (see
/// [`layer_estimate`]). The 100,000-layer chains (30-45 MB) are searched
/// whole: below 4 MiB only, their node and edge vectors grew by
/// doubling, and each growth left the old buffer resident until mimalloc's
/// purge; searching first made relu_100000's read 81 -> 65 ms, its page
/// faults -30% and its peak about 5 MiB lower (docs/performance.md, "Node
/// and edge vectors of large models sized up front").
const ESTIMATED_UP_TO: usize = 64 << 20;

/// About how many `<layer>`s `xml` holds (their start tags counted, those
/// of bodies too), so that the graph's node vector is made at its size once
/// instead of grown by doubling: each growth copied the nodes so far into
/// fresh pages, and in a fresh process every fresh page is a page fault (a
/// 1,000-layer model's nodes are a quarter of a MiB). Of a text over
/// [`ESTIMATED_UP_TO`] only the first [`SAMPLED`] bytes are searched, and
/// the count scaled to the whole text: a search of all would make all of a
/// mapped text resident at once, which reading it a stretch at a time
/// avoids (the million-layer chain's XML is 350 MB), and without an
/// estimate that chain's node vector grew by doubling to 256 MB. The scaled
/// count is over (the edges at the end have no layer); slots never written
/// are address space only. An estimate only sizes vectors: a text made of
/// `<layer ` (in comments, say) gets at most one slot per 32 bytes, and
/// never more than [`MAX_LAYER_ESTIMATE`].
fn layer_estimate(xml: &str) -> usize {
    let bytes = xml.as_bytes();
    let searched = if bytes.len() > ESTIMATED_UP_TO {
        bytes.get(..SAMPLED).unwrap_or(bytes)
    } else {
        bytes
    };
    let count = memchr::memmem::find_iter(searched, "<layer ").count();
    let scaled = count.saturating_mul(bytes.len() / searched.len().max(1));
    scaled.min(xml.len() / 32).min(MAX_LAYER_ESTIMATE)
}

/// The most slots [`layer_estimate`] asks for (the node vectors of the
/// model and of a second part are each at most 1 GiB of address space,
/// whatever a text of `<layer ` scaled from its start gives); a model with
/// more layers grows its vector by doubling past them.
const MAX_LAYER_ESTIMATE: usize = 1 << 22;

/// How much of a text over [`ESTIMATED_UP_TO`] [`layer_estimate`] searches.
const SAMPLED: usize = 4 << 20;

/// Up to how many bytes from `<edges>` on [`edge_estimate`] counts the
/// edges (about 15,000 of them; a count costs about 2 µs per 70 KB).
const EDGES_COUNTED_UP_TO: usize = 1 << 20;

/// About how many `<edge>`s the model's `<edges>`, whose content starts at
/// byte `from`, holds, for the graph's edges, sized once (see
/// [`layer_estimate`]). When what is left of the text is at most
/// [`EDGES_COUNTED_UP_TO`], its `<edge ` are counted: the graph keeps the
/// vector, and an estimate over the count put relu_1000's 1,001 edges
/// (32,032 bytes) in the allocator's next size class, whose page of its
/// own pushed pages that inference allocates out of the first huge page
/// (about 17 more page faults). Past that, what is left over the length of its
/// first edge (up to the next `<`): writers put every edge on a line of
/// its own, the first ones with the shortest ids, so this is a little over
/// the count, found without reading the rest. At most one slot per 32
/// bytes.
fn edge_estimate(xml: &str, from: usize) -> usize {
    let rest = xml.as_bytes().get(from..).unwrap_or_default();
    if rest.len() <= EDGES_COUNTED_UP_TO {
        return memchr::memmem::find_iter(rest, b"<edge ")
            .count()
            .min(rest.len() / 32);
    }
    let Some(first) = memchr::memmem::find(rest, b"<edge ") else {
        return 0;
    };
    let after = rest.get(first + 1..).unwrap_or_default();
    let length = memchr::memchr(b'<', after).map_or(rest.len(), |next| next + 1);
    (rest.len() - first) / length.max(32)
}

/// `text` without leading and trailing whitespace, as [`str::trim`] gives
/// it, without its search when `text` starts and ends with a printable
/// ASCII character (nearly every number and name of a model).
fn trimmed(text: &str) -> &str {
    let printable = |byte: Option<&u8>| byte.is_some_and(|&b| (b'!'..=b'~').contains(&b));
    let bytes = text.as_bytes();
    if printable(bytes.first()) && printable(bytes.last()) {
        text
    } else {
        text.trim()
    }
}

/// A port id or an edge's port: `text` trimmed and parsed as a `u32`.
/// Nearly every one is a digit, read without the call to parse it.
#[inline]
fn port_number(text: &str) -> Option<u32> {
    match text.as_bytes() {
        [digit @ b'0'..=b'9'] => Some(u32::from(digit - b'0')),
        _ => trimmed(text).parse::<u32>().ok(),
    }
}

/// Attribute `key` of `element`, trimmed and parsed: a missing one gives
/// `default` and, when there is none, a problem; one that does not parse
/// gives `None` and a problem saying it is not `kind`.
fn parsed_attr<T: std::str::FromStr>(
    element: Element<'_, '_>,
    key: &str,
    default: Option<T>,
    kind: &str,
    problems: &mut Vec<String>,
) -> Option<T> {
    match element.attr(key) {
        None => {
            if default.is_none() {
                problems.push(format!("`{key}` is missing"));
            }
            default
        }
        Some(v) => {
            let value = trimmed(v).parse::<T>().ok();
            if value.is_none() {
                problems.push(format!("`{key}` = \"{v}\" is not {kind}"));
            }
            value
        }
    }
}

/// An `<edge>` as read, resolved once every layer is known: its four
/// attributes parsed (or why they are invalid) and where it starts. Only this
/// is kept of the element: a model's edges are as many as its layers.
pub(crate) struct PendingEdge<'x> {
    /// Byte offset of the `<edge>`.
    at: usize,
    /// The ends, or the problems with the attributes, joined by `, `.
    ends: Result<EdgeEnds<'x>, String>,
}

/// The layer ids (trimmed) and port ids an edge names.
struct EdgeEnds<'x> {
    from_layer: Cow<'x, str>,
    from_port: u32,
    to_layer: Cow<'x, str>,
    to_port: u32,
}

impl<'x> PendingEdge<'x> {
    fn read(edge: Element<'_, 'x>) -> Self {
        Self::from_attrs(edge.attrs(), edge.start())
    }

    /// The edge whose start tag at byte `at` has `attrs`.
    fn from_attrs(attrs: &[Attr<'x>], at: usize) -> Self {
        // One pass over the attributes (four searches by key were a tenth of
        // an edge); the first of a key counts, as for `Element::attr`, and
        // the problems come in the same order as before.
        let mut values = [None; 4];
        for (key, value) in attrs {
            let slot = match *key {
                "from-layer" => 0,
                "from-port" => 1,
                "to-layer" => 2,
                "to-port" => 3,
                _ => continue,
            };
            if values[slot].is_none() {
                values[slot] = Some(value);
            }
        }
        Self::from_values(values, at)
    }

    /// The edge whose start tag at byte `at` has the attributes of
    /// [`EDGE_KEYS`] written plainly, the first `tag.count` of them.
    fn from_keyed(tag: &KeyedTag<'x, 4>) -> Self {
        let values = tag.values.map(Cow::Borrowed);
        let mut known = [None; 4];
        for (slot, value) in known.iter_mut().zip(&values).take(tag.count) {
            *slot = Some(value);
        }
        Self::from_values(known, tag.at)
    }

    /// The edge starting at byte `at` whose `from-layer`, `from-port`,
    /// `to-layer` and `to-port` are `values`.
    fn from_values(values: [Option<&Cow<'x, str>>; 4], at: usize) -> Self {
        let [from_layer, from_port, to_layer, to_port] = values;
        // Nearly every edge: all four there, borrowed, both ports numbers;
        // the ends as below, without the problems' closures.
        if let (Some(Cow::Borrowed(from_layer)), Some(Cow::Borrowed(to_layer))) =
            (from_layer, to_layer)
        {
            let from_port = from_port.and_then(|port| port_number(port));
            let to_port = to_port.and_then(|port| port_number(port));
            if let (Some(from_port), Some(to_port)) = (from_port, to_port) {
                let ends = EdgeEnds {
                    from_layer: Cow::Borrowed(trimmed(from_layer)),
                    from_port,
                    to_layer: Cow::Borrowed(trimmed(to_layer)),
                    to_port,
                };
                return PendingEdge { at, ends: Ok(ends) };
            }
        }
        let mut problems = Vec::new();
        let layer = |key: &str, value: Option<&Cow<'x, str>>, problems: &mut Vec<String>| {
            if value.is_none() {
                problems.push(format!("`{key}` is missing"));
            }
            value.map(|v| match v {
                Cow::Borrowed(v) => Cow::Borrowed(trimmed(v)),
                Cow::Owned(v) => Cow::Owned(v.trim().to_owned()),
            })
        };
        let from_layer = layer("from-layer", from_layer, &mut problems);
        let to_layer = layer("to-layer", to_layer, &mut problems);
        // As `parsed_attr` with no default.
        let port = |key: &str, value: Option<&Cow<'x, str>>, problems: &mut Vec<String>| {
            let Some(v) = value else {
                problems.push(format!("`{key}` is missing"));
                return None;
            };
            let port = port_number(v);
            if port.is_none() {
                problems.push(format!("`{key}` = \"{v}\" is not a non-negative integer"));
            }
            port
        };
        let from_port = port("from-port", from_port, &mut problems);
        let to_port = port("to-port", to_port, &mut problems);
        let ends = match (from_layer, to_layer, from_port, to_port) {
            (Some(from_layer), Some(to_layer), Some(from_port), Some(to_port)) => Ok(EdgeEnds {
                from_layer,
                from_port,
                to_layer,
                to_port,
            }),
            _ => Err(problems.join(", ")),
        };
        PendingEdge { at, ends }
    }
}

/// What [`Builder::other_item`] did with an item of a list.
enum Other<'x> {
    /// The item is a `<layer>`, left to be read.
    Layer {
        tag: quick_xml::events::BytesStart<'x>,
        empty: bool,
        at: usize,
    },
    /// The item was read (or was text).
    Read,
    /// The list ends here.
    End(ListEnd),
}

struct Builder<'a> {
    src: &'a str,
    lines: &'a LineIndex<'a>,
    graph: Graph,
    diagnostics: Vec<Diagnostic>,
    /// Layer id → node (the first layer with that id).
    ids: IdMap,
    weights: Option<TensorBytes>,
    weights_name: Option<String>,
    /// How many bodies enclose the layers being read (0: the model's own).
    depth: usize,
    /// For a part of `<layers>` read on another thread (see the `split`
    /// module): the ids of the model's layers are not looked up but left
    /// for the merge, as (node index, count of diagnostics before the
    /// layer's duplicate-id problem would come) of each layer with an id.
    deferred_ids: Option<Vec<(usize, usize)>>,
}

impl<'a> Builder<'a> {
    /// A builder of the model's own layers, with no problem found yet.
    fn new(
        src: &'a str,
        lines: &'a LineIndex<'a>,
        graph: Graph,
        weights: Option<TensorBytes>,
        weights_name: Option<String>,
        deferred_ids: Option<Vec<(usize, usize)>>,
    ) -> Self {
        Builder {
            src,
            lines,
            graph,
            diagnostics: Vec::new(),
            ids: IdMap::default(),
            weights,
            weights_name,
            depth: 0,
            deferred_ids,
        }
    }
}

/// How deeply bodies may nest (a body inside a body inside ...). The XML
/// subtree of a layer is kept to a depth that fits this many levels.
pub(crate) const MAX_BODY_DEPTH: usize = 8;

/// The body role an element names (`body`, `then_body`, `else_body`), and
/// for port maps (`port_map`, ...) the role of the body they map.
fn body_role(element: &str) -> Option<(BodyRole, bool)> {
    Some(match element {
        "body" => (BodyRole::Body, false),
        "then_body" => (BodyRole::Then, false),
        "else_body" => (BodyRole::Else, false),
        "port_map" => (BodyRole::Body, true),
        "then_port_map" => (BodyRole::Then, true),
        "else_port_map" => (BodyRole::Else, true),
        _ => return None,
    })
}

/// What a body's port map refers to: the owning layer and its ports.
struct LayerParts<'a> {
    head: &'a LayerHead,
    inputs: &'a [PortDecl],
    outputs: &'a [PortDecl],
}

/// Which end of an edge a port is at.
#[derive(Clone, Copy)]
enum EdgeEnd {
    Source,
    Destination,
}

/// A `<layer>` being read: what its start tag and the children read so far
/// gave, until [`Builder::finish_layer`] makes its node.
struct LayerDraft {
    head: LayerHead,
    /// Whether the start tag has an `id` (the head's is empty otherwise).
    has_id: bool,
    /// The start tag's attributes other than id, name, type and version.
    layer_attributes: Attributes,
    /// The first `<data>`'s attributes and the byte offset where it starts.
    data: Option<(Attributes, usize)>,
    /// The first `<rt_info>`, verbatim.
    rt_info: Option<String>,
    inputs: Vec<PortDecl>,
    outputs: Vec<PortDecl>,
}

/// `attrs` of the document as owned attributes of the graph.
fn owned_attributes(attrs: &[Attr<'_>]) -> Attributes {
    attrs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The attributes of a `<layer>` element, for diagnostics before the node exists.
struct LayerHead {
    layer: LayerRef,
    location: SourceLocation,
}

impl LayerHead {
    fn error(&self, rule: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(rule, message).at_layer(self.layer.clone(), self.location)
    }

    fn warning(&self, rule: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::warning(rule, message).at_layer(self.layer.clone(), self.location)
    }
}

impl Builder<'_> {
    fn loc(&self, offset: usize) -> SourceLocation {
        self.lines.location(offset)
    }

    fn verbatim(&self, element: Element<'_, '_>) -> String {
        self.src
            .get(element.start()..element.end())
            .unwrap_or_default()
            .to_owned()
    }

    /// Warns that `element` was skipped.
    fn ignored(&mut self, element: Element<'_, '_>, what: &str) {
        self.ignored_at(element.name(), element.start(), what);
    }

    /// Warns that the element `name` starting at byte `at` was skipped.
    fn ignored_at(&mut self, name: &str, at: usize, what: &str) {
        let location = self.loc(at);
        self.diagnostics.push(
            Diagnostic::warning(
                rules::ELEMENT_IGNORED,
                format!("`<{name}>` is {what}; it is skipped and not written back"),
            )
            .at(location),
        );
    }

    fn net_attributes(&mut self, attrs: &[Attr<'_>], at: usize) {
        let location = self.loc(at);
        for (key, value) in attrs {
            match *key {
                "name" => self.graph.name = value.to_string(),
                "version" => match value.trim().parse::<u32>() {
                    Ok(version @ (10 | 11)) => self.graph.ir_version = version,
                    Ok(version) => {
                        self.graph.ir_version = version;
                        self.diagnostics.push(
                            Diagnostic::error(
                                rules::NET_VERSION_UNSUPPORTED,
                                format!("IR version {version} is not supported (only 10 and 11)"),
                            )
                            .at(location),
                        );
                    }
                    Err(_) => self.diagnostics.push(
                        Diagnostic::error(
                            rules::NET_VERSION_UNSUPPORTED,
                            format!("the `<net>` version \"{value}\" is not an integer"),
                        )
                        .at(location),
                    ),
                },
                _ => {}
            }
        }
        if !attrs.iter().any(|(k, _)| *k == "version") {
            self.diagnostics.push(
                Diagnostic::error(rules::NET_VERSION_UNSUPPORTED, "`<net>` has no `version`")
                    .at(location),
            );
        }
    }

    /// Reads the children of `<layers>` or `<edges>` up to its end tag
    /// (a large `<layers>` in two parts at once, as `plan` says).
    fn read_list<'x>(
        &mut self,
        stream: &mut XmlStream<'x>,
        list: &str,
        edges: &mut Vec<PendingEdge<'x>>,
        releaser: &mut Releaser<'_>,
        plan: &SplitPlan<'_>,
    ) -> Result<(), ReadError> {
        if list == "layers" {
            if let Some(from) = plan.split_point(self.src, stream.position()) {
                return self.read_layers_split(stream, edges, releaser, plan, from);
            }
        } else if self.graph.graph.edge_count() == 0 && edges.is_empty() {
            // Most edges go straight into the graph (`edge_read`).
            let estimate = edge_estimate(self.src, stream.position());
            self.graph.graph.reserve_edges(estimate);
        }
        self.read_items(stream, list, edges, releaser, Half::Whole)
            .map(drop)
    }

    /// Reads the children of `<layers>` or `<edges>` up to its end tag, or
    /// as `half` says, up to where a part read on another thread starts.
    fn read_items<'x>(
        &mut self,
        stream: &mut XmlStream<'x>,
        list: &str,
        edges: &mut Vec<PendingEdge<'x>>,
        releaser: &mut Releaser<'_>,
        mut half: Half<'_>,
    ) -> Result<ListEnd, ReadError> {
        // One tree for every other item, one scratch for every layer: their
        // lists keep their capacity.
        let mut tree = Tree::default();
        let mut scratch = LayerScratch::default();
        // The attributes of an `<edge/>` not split by the scanner.
        let mut edge_attrs = Vec::new();
        let is_edges = list == "edges";
        let is_layers = list == "layers";
        loop {
            // The line break between two items, read as text only to be
            // dropped, is passed over (a tenth of the events of a model).
            stream.skip_blank_text();
            let position = stream.position();
            releaser.reached(position);
            let stop = match half.before_item(position) {
                Ok(stop) => stop,
                Err(end) => return Ok(end),
            };
            // Nearly every item of `<edges>`, without its event.
            if is_edges && position != stop {
                if let Some(tag) = stream.keyed_item(b"edge", &EDGE_KEYS, false) {
                    self.edge_read(edges, PendingEdge::from_keyed(&tag));
                    continue;
                }
                if let Some(at) = stream.plain_empty_item(b"edge", &mut edge_attrs) {
                    self.edge_read(edges, PendingEdge::from_attrs(&edge_attrs, at));
                    continue;
                }
            }
            // Nearly every item of `<layers>`: its start tag without its event.
            if is_layers && position != stop {
                if let Some(tag) = stream.keyed_item(b"layer", &LAYER_KEYS, true) {
                    let draft = self.keyed_layer_head(&tag);
                    self.read_layer(stream, &mut scratch, draft, "layer", tag.empty)?;
                    continue;
                }
            }
            let plain_layer = if is_layers && position != stop {
                scratch.attrs.clear();
                stream.plain_item(b"layer", &mut scratch.attrs)
            } else {
                None
            };
            let (name, empty, at) = match plain_layer {
                Some((at, empty)) => ("layer", empty, at),
                None => {
                    let Some(item) = stream.next_unless_at(stop)? else {
                        return Ok(ListEnd::Reached);
                    };
                    match self.other_item(stream, item, list, edges, &mut tree, &mut edge_attrs)? {
                        Other::Layer { tag, empty, at } => {
                            scratch.attrs.clear();
                            let name = stream.push_tag_parts(&tag, at, &mut scratch.attrs)?;
                            (name, empty, at)
                        }
                        Other::Read => continue,
                        Other::End(end) => return Ok(end),
                    }
                }
            };
            let draft = self.layer_head(&scratch.attrs, at);
            self.read_layer(stream, &mut scratch, draft, name, empty)?;
        }
    }

    /// Reads `item` of `<layers>` or `<edges>` other than a `<layer>`,
    /// which it returns unread.
    fn other_item<'x>(
        &mut self,
        stream: &mut XmlStream<'x>,
        item: Item<'x>,
        list: &str,
        edges: &mut Vec<PendingEdge<'x>>,
        tree: &mut Tree<'x>,
        edge_attrs: &mut Vec<Attr<'x>>,
    ) -> Result<Other<'x>, ReadError> {
        let item_name = if list == "layers" { "layer" } else { "edge" };
        match item {
            Item::Start { tag, empty, at }
                if list == "layers" && tag.name().as_ref() == b"layer" =>
            {
                return Ok(Other::Layer { tag, empty, at });
            }
            // Nearly every item of `<edges>`: straight from its attributes,
            // as `PendingEdge::read` reads it from a tree.
            Item::Start {
                tag,
                empty: true,
                at,
            } if list == "edges" && tag.name().as_ref() == b"edge" => {
                let attrs = stream.tag_attrs(&tag, at, edge_attrs)?;
                self.edge_read(edges, PendingEdge::from_attrs(attrs, at));
            }
            Item::Start { tag, empty, at } => {
                stream.read_element(tree, &tag, empty, at)?;
                let element = tree.root();
                if element.name() != item_name {
                    self.ignored(element, &format!("not a `<{item_name}>` in `<{list}>`"));
                } else if list == "layers" {
                    self.add_layer(element);
                } else {
                    self.edge_read(edges, PendingEdge::read(element));
                }
            }
            Item::Text { .. } => {}
            Item::End { at } => return Ok(Other::End(ListEnd::Closed { at })),
            Item::Eof => {
                return Err(stream.error_at(
                    self.src.len(),
                    format!("unexpected end of file inside `<{list}>`"),
                ))
            }
        }
        Ok(Other::Read)
    }

    /// The head of a `<layer>` whose start tag at `at` has `attrs`: its
    /// identity, its other attributes, and a problem for each of `id`,
    /// `name`, `type` and `version` it lacks.
    fn layer_head(&mut self, attrs: &[Attr<'_>], at: usize) -> LayerDraft {
        let mut known = [None; 4];
        let mut layer_attributes = Vec::new();
        for (key, value) in attrs {
            let slot = match *key {
                "id" => 0,
                "name" => 1,
                "type" => 2,
                "version" => 3,
                _ => {
                    layer_attributes.push((key.to_string(), value.to_string()));
                    continue;
                }
            };
            known[slot] = Some(value.as_ref());
        }
        self.layer_head_from(known, layer_attributes, at)
    }

    /// The head of a `<layer>` whose start tag has the attributes of
    /// [`LAYER_KEYS`] written plainly, the first `tag.count` of them (as
    /// [`Builder::layer_head`] reads them from their pairs).
    fn keyed_layer_head(&mut self, tag: &KeyedTag<'_, 4>) -> LayerDraft {
        let mut known = [None; 4];
        for (slot, value) in known.iter_mut().zip(tag.values).take(tag.count) {
            *slot = Some(value);
        }
        self.layer_head_from(known, Vec::new(), tag.at)
    }

    /// The head of a `<layer>` starting at byte `at` whose `id`, `name`,
    /// `type` and `version` are `known`, with its other attributes.
    fn layer_head_from(
        &mut self,
        known: [Option<&str>; 4],
        layer_attributes: Vec<(String, String)>,
        at: usize,
    ) -> LayerDraft {
        let location = self.loc(at);
        let [id, name, type_name, version] = known;
        let head = LayerHead {
            layer: LayerRef {
                id: id.unwrap_or_default().to_owned(),
                name: name.unwrap_or_default().to_owned(),
                type_name: type_name.unwrap_or_default().to_owned(),
                version: version.unwrap_or_default().to_owned(),
                parents: Vec::new(),
            },
            location,
        };
        for (key, value) in [
            ("id", &id),
            ("name", &name),
            ("type", &type_name),
            ("version", &version),
        ] {
            if value.is_none() {
                self.diagnostics.push(head.error(
                    rules::LAYER_ATTRIBUTE_MISSING,
                    format!("the `<layer>` has no `{key}` attribute"),
                ));
            }
        }
        LayerDraft {
            head,
            has_id: id.is_some(),
            layer_attributes: Attributes::from(layer_attributes),
            data: None,
            rt_info: None,
            inputs: Vec::new(),
            outputs: Vec::new(),
        }
    }

    /// Adds the `<layer>` `element` of a tree (a layer of a body; the
    /// model's own layers are read by [`Builder::read_layer`] straight from
    /// the stream, with the same diagnostics in the same order).
    fn add_layer(&mut self, element: Element<'_, '_>) {
        let mut draft = self.layer_head(element.attrs(), element.start());
        let mut bodies: Vec<(BodyRole, Element)> = Vec::new();
        let mut port_maps: Vec<(BodyRole, Element)> = Vec::new();
        let mut back_edges: Option<Element> = None;
        for child in element.children() {
            if let Some((role, is_map)) = body_role(child.name()) {
                let list = if is_map { &mut port_maps } else { &mut bodies };
                if list.iter().any(|(r, _)| *r == role) {
                    self.ignored(child, "a second such element of the `<layer>`");
                } else {
                    list.push((role, child));
                }
                continue;
            }
            match child.name() {
                "data" if draft.data.is_none() => {
                    draft.data = Some((owned_attributes(child.attrs()), child.start()));
                }
                "back_edges" if back_edges.is_none() => back_edges = Some(child),
                "rt_info" if draft.rt_info.is_none() => draft.rt_info = Some(self.verbatim(child)),
                "input" | "output" => {
                    let is_input = child.name() == "input";
                    // Exactly as many slots as ports: a vector grown one push
                    // at a time reserves four, and the graph keeps them all.
                    let ports = if is_input {
                        &mut draft.inputs
                    } else {
                        &mut draft.outputs
                    };
                    ports.reserve_exact(child.child_count());
                    for port in child.children() {
                        if port.name() != "port" {
                            self.ignored(port, &format!("not a `<port>` in `<{}>`", child.name()));
                            continue;
                        }
                        if let Some(decl) = self.port(port, &draft.head) {
                            if is_input {
                                draft.inputs.push(decl);
                            } else {
                                draft.outputs.push(decl);
                            }
                        }
                    }
                }
                _ => self.ignored(child, "not understood in a `<layer>`"),
            }
        }
        self.finish_layer(draft, bodies, port_maps, back_edges);
    }

    /// Makes the node of a layer whose children have all been read: checks
    /// its ports, reads its op, its bodies, and registers its id.
    fn finish_layer(
        &mut self,
        draft: LayerDraft,
        mut bodies: Vec<(BodyRole, Element<'_, '_>)>,
        port_maps: Vec<(BodyRole, Element<'_, '_>)>,
        back_edges: Option<Element<'_, '_>>,
    ) {
        let LayerDraft {
            head,
            has_id,
            layer_attributes,
            data,
            rt_info,
            inputs,
            outputs,
        } = draft;
        let location = head.location;
        // Port ids must be unique within the layer, or edges are ambiguous.
        for (port, first) in duplicate_ports(&inputs, &outputs) {
            self.diagnostics.push(
                head.error(
                    rules::PORT_ID_INVALID,
                    format!("port id {} is declared twice", port.id),
                )
                .at(port.location)
                .with_note(format!(
                    "first declared at line {}, column {}",
                    first.line, first.column
                )),
            );
        }

        let (attributes, data_location) = match data {
            Some((attributes, at)) => (attributes, self.loc(at)),
            None => (Attributes::default(), location),
        };
        let op = match head.layer.type_name.as_str() {
            "Parameter" => self.parameter(&attributes, &head, data_location),
            "Const" | "Constant" => self.constant(&attributes, &head, data_location),
            "Result" => Op::Result,
            _ => Op::Other,
        };
        let op = if bodies.is_empty() {
            for (_, map) in &port_maps {
                self.ignored(*map, "a port map of a layer without bodies");
            }
            if let Some(back) = back_edges {
                self.ignored(back, "back edges of a layer without bodies");
            }
            op
        } else if self.depth >= MAX_BODY_DEPTH {
            self.diagnostics.push(head.error(
                rules::BODY_TOO_DEEP,
                format!("bodies nest more than {MAX_BODY_DEPTH} levels deep; the layer's bodies are not read"),
            ));
            op
        } else {
            let layer = LayerParts {
                head: &head,
                inputs: &inputs,
                outputs: &outputs,
            };
            let mut read = Vec::with_capacity(bodies.len());
            // If's bodies in then, else order whatever the file's order.
            bodies.sort_by_key(|(role, _)| match role {
                BodyRole::Body | BodyRole::Then => 0,
                BodyRole::Else => 1,
            });
            for (role, body) in &bodies {
                let map = port_maps.iter().find(|(r, _)| r == role).map(|(_, m)| *m);
                let back = if *role == BodyRole::Body {
                    back_edges
                } else {
                    None
                };
                read.push(self.body(&layer, *role, *body, map, back));
            }
            for (role, map) in &port_maps {
                if !bodies.iter().any(|(r, _)| r == role) {
                    self.ignored(*map, "a port map of a body the layer does not have");
                }
            }
            if let (Some(back), false) =
                (back_edges, bodies.iter().any(|(r, _)| *r == BodyRole::Body))
            {
                self.ignored(back, "back edges of a layer without a `<body>`");
            }
            Op::SubGraph(Box::new(SubGraph { bodies: read }))
        };

        let LayerHead {
            layer:
                LayerRef {
                    id: layer_id,
                    name: layer_name,
                    type_name: layer_type,
                    version: layer_version,
                    ..
                },
            ..
        } = head;
        let node = ir::Node {
            id: layer_id,
            name: layer_name,
            op_type: OpType {
                name: layer_type,
                version: layer_version,
            },
            op,
            attributes,
            layer_attributes,
            inputs,
            outputs,
            rt_info,
            location,
        };
        let node_id = self.graph.add_node(node);
        if has_id {
            match &mut self.deferred_ids {
                Some(deferred) if self.depth == 0 => {
                    deferred.push((node_id.index(), self.diagnostics.len()));
                }
                _ => self.register_id(node_id),
            }
        }
    }

    /// Registers the id of the layer `node_id`, or reports that an earlier
    /// layer has it.
    fn register_id(&mut self, node_id: NodeId) {
        let node = self.graph.node(node_id);
        let id = node.id.as_str();
        if let Some(first) = self.ids.first_or_insert(id, node_id) {
            let first_location = self.graph.node(first).location;
            let diagnostic = Diagnostic::error(
                rules::LAYER_ID_DUPLICATE,
                format!("layer id {id} is already used; edges refer to the first layer with it"),
            )
            .at_layer(node.layer_ref(), node.location)
            .with_note(format!(
                "first used at line {}, column {}",
                first_location.line, first_location.column
            ));
            self.diagnostics.push(diagnostic);
        }
    }

    /// Reads one body of a layer: its layers and edges as a graph of its own
    /// (ids resolved within it, symbols in the one table), then its port map
    /// and back edges. Diagnostics found inside name the layer on their path.
    fn body(
        &mut self,
        layer: &LayerParts<'_>,
        role: BodyRole,
        element: Element<'_, '_>,
        port_map: Option<Element<'_, '_>>,
        back_edges: Option<Element<'_, '_>>,
    ) -> Body {
        let first_diagnostic = self.diagnostics.len();
        let mut outer = std::mem::take(&mut self.graph);
        let outer_ids = std::mem::take(&mut self.ids);
        self.graph.symbols = std::mem::take(&mut outer.symbols);
        self.depth += 1;

        let mut edges = Vec::new();
        for child in element.children() {
            match child.name() {
                "layers" | "edges" => {
                    let item = if child.name() == "layers" {
                        "layer"
                    } else {
                        "edge"
                    };
                    for entry in child.children() {
                        if entry.name() != item {
                            self.ignored(
                                entry,
                                &format!("not a `<{item}>` in `<{}>`", child.name()),
                            );
                        } else if item == "layer" {
                            self.add_layer(entry);
                        } else {
                            edges.push(PendingEdge::read(entry));
                        }
                    }
                }
                "rt_info" if self.graph.rt_info.is_none() => {
                    self.graph.rt_info = Some(self.verbatim(child));
                }
                _ => self.ignored(child, "not understood in a body"),
            }
        }
        for edge in &edges {
            self.add_edge(edge);
        }
        // Diagnostics so far are about body layers; the port map's are about
        // the layer itself.
        let inside: Vec<Diagnostic> = self
            .diagnostics
            .drain(first_diagnostic..)
            .map(|d| d.within(&layer.head.layer, role.name()))
            .collect();
        self.diagnostics.extend(inside);
        let mut body = Body::new(role);
        if let Some(map) = port_map {
            self.port_map(layer, map, &mut body);
        }
        if let Some(back) = back_edges {
            self.back_edges(layer, back, &mut body);
        }

        self.depth -= 1;
        outer.symbols = std::mem::take(&mut self.graph.symbols);
        body.graph = std::mem::replace(&mut self.graph, outer);
        self.ids = outer_ids;
        body
    }

    /// The entries of a `<port_map>`, resolved against the layer's ports and
    /// the body's layers (the body being read is `self.graph`).
    fn port_map(&mut self, layer: &LayerParts<'_>, map: Element<'_, '_>, body: &mut Body) {
        for entry in map.children() {
            let is_input = match entry.name() {
                "input" => true,
                "output" => false,
                _ => {
                    self.ignored(entry, "not an `<input>` or `<output>` in a port map");
                    continue;
                }
            };
            let location = self.loc(entry.start());
            let mut problems = Vec::new();
            let int = |key: &str, default: Option<i64>, problems: &mut Vec<String>| {
                parsed_attr(entry, key, default, "an integer", problems)
            };
            let external = int("external_port_id", None, &mut problems);
            let internal: Option<String> =
                parsed_attr(entry, "internal_layer_id", None, "", &mut problems);
            let slice = if entry.attr("axis").is_some() {
                let axis = int("axis", None, &mut problems);
                let start = int("start", Some(0), &mut problems);
                let end = int("end", Some(-1), &mut problems);
                let stride = int("stride", Some(1), &mut problems);
                let part_size = int("part_size", Some(1), &mut problems);
                match (axis, start, end, stride, part_size) {
                    (Some(axis), Some(start), Some(end), Some(stride), Some(part_size)) => {
                        Some(SliceSpec {
                            axis,
                            start,
                            end,
                            stride,
                            part_size,
                        })
                    }
                    _ => None,
                }
            } else {
                None
            };
            let node = internal.and_then(|id| {
                let node = self.ids.get(&id);
                if node.is_none() {
                    problems.push(format!(
                        "`internal_layer_id` {id} names no layer of the body"
                    ));
                }
                node
            });
            let purpose = entry.attr("purpose");
            let outer = match (external, purpose) {
                (_, Some("current_iteration" | "execution_condition")) | (None, _) => None,
                (Some(port), _) => {
                    let ports = if is_input {
                        layer.inputs
                    } else {
                        layer.outputs
                    };
                    let index = u32::try_from(port)
                        .ok()
                        .and_then(|port| ports.iter().position(|p| p.id == port));
                    if index.is_none() {
                        let kind = if is_input { "input" } else { "output" };
                        problems.push(format!(
                            "`external_port_id` {port} is not an {kind} port of the layer"
                        ));
                    }
                    index
                }
            };
            match purpose {
                None => {}
                Some("current_iteration") if is_input => {}
                Some("execution_condition") if !is_input => {}
                Some(other) => problems.push(format!("`purpose` \"{other}\" is not understood")),
            }
            let Some(node) = node.filter(|_| problems.is_empty()) else {
                self.diagnostics.push(
                    layer
                        .head
                        .error(
                            rules::PORT_MAP_INVALID,
                            format!(
                                "the port map `<{}>` is invalid: {}; it is dropped",
                                entry.name(),
                                problems.join(", ")
                            ),
                        )
                        .at(location),
                );
                continue;
            };
            let duplicate = match (purpose, outer) {
                (Some("current_iteration"), _) => body.current_iteration.replace(node).is_some(),
                (Some(_), _) => body.condition.replace(node).is_some(),
                (None, Some(outer)) if is_input => {
                    body.inputs.push(InputMap {
                        outer,
                        param: node,
                        slice,
                    });
                    false
                }
                (None, Some(outer)) => {
                    body.outputs.push(OutputMap {
                        outer,
                        result: node,
                        concat: slice,
                    });
                    false
                }
                (None, None) => false,
            };
            if duplicate {
                self.diagnostics.push(
                    layer
                        .head
                        .error(
                            rules::PORT_MAP_INVALID,
                            format!(
                                "the port map names a second `{}` port; the last one is used",
                                purpose.unwrap_or_default()
                            ),
                        )
                        .at(location),
                );
            }
        }
    }

    /// The `<edge from-layer to-layer/>` entries of `<back_edges>`, resolved
    /// against the body's layers.
    fn back_edges(&mut self, layer: &LayerParts<'_>, element: Element<'_, '_>, body: &mut Body) {
        for edge in element.children() {
            if edge.name() != "edge" {
                self.ignored(edge, "not an `<edge>` in `<back_edges>`");
                continue;
            }
            let location = self.loc(edge.start());
            let end = |key: &str| {
                edge.attr(key)
                    .map(str::trim)
                    .and_then(|id| self.ids.get(id))
            };
            match (end("from-layer"), end("to-layer")) {
                (Some(from), Some(to)) => body.back_edges.push(BackEdge { from, to }),
                _ => self.diagnostics.push(
                    layer.head.error(
                        rules::PORT_MAP_INVALID,
                        format!(
                            "the back edge {} -> {} does not name two layers of the body; it is dropped",
                            edge.attr("from-layer").unwrap_or("(none)"),
                            edge.attr("to-layer").unwrap_or("(none)")
                        ),
                    )
                    .at(location),
                ),
            }
        }
    }

    /// The `<port>` `port` of a tree, with its dims and `<rt_info>`.
    fn port(&mut self, port: Element<'_, '_>, head: &LayerHead) -> Option<PortDecl> {
        let mut decl = self.port_head(port.attrs(), port.start(), head)?;
        let mut dims = Vec::with_capacity(port.child_count());
        for child in port.children() {
            match child.name() {
                "dim" => dims.push(self.declared_dim(&child.text(), child.start(), decl.id, head)),
                "rt_info" if decl.rt_info().is_none() => {
                    decl.set_rt_info(Some(self.verbatim(child)));
                }
                _ => self.ignored(child, "not understood in a `<port>`"),
            }
        }
        decl.dims = dims;
        Some(decl)
    }

    /// A `<port>` starting at byte `at` with `attrs`, without dims yet; `None`
    /// (after a problem) when it has no valid `id`, and then its children
    /// are not read.
    fn port_head(&mut self, attrs: &[Attr<'_>], at: usize, head: &LayerHead) -> Option<PortDecl> {
        let pairs = attrs.iter().map(|(key, value)| {
            let known = match *key {
                "id" => Some(0),
                "precision" => Some(1),
                "names" => Some(2),
                _ => None,
            };
            (known, *key, value.as_ref())
        });
        self.port_head_from(pairs, at, head)
    }

    /// A `<port>` whose start tag has the attributes of [`PORT_KEYS`]
    /// written plainly, the first `tag.count` of them, as
    /// [`Builder::port_head`] reads them from their pairs.
    fn keyed_port_head(&mut self, tag: &KeyedTag<'_, 3>, head: &LayerHead) -> Option<PortDecl> {
        let pairs = (0..tag.count).map(|slot| (Some(slot), PORT_KEY_NAMES[slot], tag.values[slot]));
        self.port_head_from(pairs, tag.at, head)
    }

    /// A `<port>` starting at byte `at` whose attributes are `pairs`, in
    /// file order: which of `id`, `precision` and `names` each is (`None`:
    /// another), its key and its value.
    #[inline(always)]
    fn port_head_from<'v>(
        &mut self,
        pairs: impl Iterator<Item = (Option<usize>, &'v str, &'v str)>,
        at: usize,
        head: &LayerHead,
    ) -> Option<PortDecl> {
        let location = self.loc(at);
        let mut id = None;
        let mut element_type = None;
        let mut names = Vec::new();
        let mut attributes = Vec::new();
        for (known, key, value) in pairs {
            match known {
                Some(0) => match port_number(value) {
                    Some(v) => id = Some(v),
                    None => {
                        self.diagnostics.push(
                            head.error(
                                rules::PORT_ID_INVALID,
                                format!("port id \"{value}\" is not a non-negative integer"),
                            )
                            .at(location),
                        );
                        return None;
                    }
                },
                Some(1) => match ElementType::parse(value) {
                    Some(t) => element_type = Some(t),
                    None => {
                        self.diagnostics.push(
                            head.error(
                                rules::PORT_PRECISION_UNKNOWN,
                                format!("port precision \"{value}\" names no element type"),
                            )
                            .at(location),
                        );
                        // Kept as a raw attribute so that it is written back.
                        attributes.push((key.to_string(), value.to_string()));
                    }
                },
                Some(_) => names = split_names(value),
                None => attributes.push((key.to_string(), value.to_string())),
            }
        }
        let Some(id) = id else {
            self.diagnostics.push(
                head.error(rules::PORT_ID_INVALID, "the `<port>` has no `id`")
                    .at(location),
            );
            return None;
        };
        let mut decl = PortDecl {
            id,
            element_type,
            dims: Vec::new(),
            location,
            ..PortDecl::default()
        };
        decl.set_names(names);
        decl.set_attributes(Attributes::from(attributes));
        Some(decl)
    }

    /// The dim a `<dim>` starting at byte `at` of port `port_id` declares
    /// with `text`: unknown (after a problem) when it is not an integer ≥ -1.
    #[inline]
    fn declared_dim(
        &mut self,
        text: &str,
        at: usize,
        port_id: u32,
        head: &LayerHead,
    ) -> DeclaredDim {
        // Most dims are `-1` or a digit: read in place, without a call.
        match text.as_bytes() {
            [b'-', b'1'] => DeclaredDim::Dynamic,
            [digit @ b'0'..=b'9'] => DeclaredDim::Static(u64::from(digit - b'0')),
            _ => self.parsed_dim(text, at, port_id, head),
        }
    }

    /// [`Builder::declared_dim`] of any text.
    #[inline(never)]
    fn parsed_dim(&mut self, text: &str, at: usize, port_id: u32, head: &LayerHead) -> DeclaredDim {
        let text = trimmed(text);
        match text.parse::<i64>() {
            Ok(-1) => DeclaredDim::Dynamic,
            Ok(d) if d >= 0 => DeclaredDim::Static(d.unsigned_abs()),
            _ => {
                self.diagnostics.push(
                    head.error(
                        rules::PORT_DIM_INVALID,
                        format!("`<dim>{text}</dim>` of port {port_id} is not an integer ≥ -1"),
                    )
                    .at(self.loc(at)),
                );
                // Keeps the rank; the dim is read as unknown.
                DeclaredDim::Dynamic
            }
        }
    }

    fn parameter(
        &mut self,
        attributes: &Attributes,
        head: &LayerHead,
        location: SourceLocation,
    ) -> Op {
        let element_type = match attributes.get("element_type") {
            None => {
                self.diagnostics.push(
                    head.error(
                        rules::PARAMETER_ELEMENT_TYPE_INVALID,
                        "the Parameter has no `element_type`; read as `dynamic`",
                    )
                    .at(location),
                );
                ElementType::Dynamic
            }
            Some(text) => ElementType::parse(text).unwrap_or_else(|| {
                self.diagnostics.push(
                    head.error(
                        rules::ELEMENT_TYPE_UNKNOWN,
                        format!("element type \"{text}\" is unknown; read as `dynamic`"),
                    )
                    .at(location),
                );
                ElementType::Dynamic
            }),
        };
        let shape = match attributes.get("shape") {
            None => {
                self.diagnostics.push(
                    head.error(
                        rules::PARAMETER_SHAPE_INVALID,
                        "the Parameter has no `shape`; read as dynamic rank",
                    )
                    .at(location),
                );
                Shape::DynamicRank
            }
            Some(text) => {
                match parse_parameter_shape(
                    &mut self.graph.symbols,
                    text,
                    &head.layer.name,
                    head.location.line,
                ) {
                    Ok(shape) => shape,
                    Err(error) => {
                        self.diagnostics.push(
                            head.error(
                                rules::PARAMETER_SHAPE_INVALID,
                                format!(
                                    "the Parameter shape \"{text}\" is invalid: {error}; read as dynamic rank"
                                ),
                            )
                            .at(location),
                        );
                        Shape::DynamicRank
                    }
                }
            }
        };
        Op::Parameter {
            element_type,
            shape: Box::new(shape),
        }
    }

    /// A Const with valid attributes and data in the weights, or `Op::Other`
    /// (after diagnostics) so that every `Op::Constant` holds exactly the
    /// bytes its type and shape need.
    fn constant(
        &mut self,
        attributes: &Attributes,
        head: &LayerHead,
        location: SourceLocation,
    ) -> Op {
        let mut ok = true;
        let bad_attribute = |this: &mut Self, message: String| {
            this.diagnostics.push(
                head.error(rules::CONST_ATTRIBUTE_INVALID, message)
                    .at(location),
            );
        };
        let element_type = match attributes.get("element_type") {
            None => {
                bad_attribute(self, "the Const has no `element_type`".into());
                None
            }
            Some(text) => match ElementType::parse(text) {
                None => {
                    self.diagnostics.push(
                        head.error(
                            rules::ELEMENT_TYPE_UNKNOWN,
                            format!("element type \"{text}\" is unknown"),
                        )
                        .at(location),
                    );
                    None
                }
                Some(t) if !t.is_static() => {
                    bad_attribute(self, format!("a Const cannot have element type `{t}`"));
                    None
                }
                Some(t) => Some(t),
            },
        };
        let shape = match attributes.get("shape") {
            None => {
                bad_attribute(self, "the Const has no `shape`".into());
                None
            }
            Some(text) => {
                let parsed = parse_u64_list(text);
                if parsed.is_none() {
                    bad_attribute(
                        self,
                        format!("the Const shape \"{text}\" is not a comma-separated list of non-negative integers"),
                    );
                }
                parsed
            }
        };
        let number = |this: &mut Self, key: &str| match attributes.get(key) {
            None => {
                bad_attribute(this, format!("the Const has no `{key}`"));
                None
            }
            Some(text) => {
                let value = trimmed(text).parse::<u64>().ok();
                if value.is_none() {
                    bad_attribute(
                        this,
                        format!("the Const `{key}` \"{text}\" is not a non-negative integer"),
                    );
                }
                value
            }
        };
        let offset = number(self, "offset");
        let size = number(self, "size");
        let (Some(element_type), Some(shape), Some(offset), Some(size)) =
            (element_type, shape, offset, size)
        else {
            return Op::Other;
        };

        // The bytes the tensor needs (all of `size` for strings).
        let mut needed = None;
        // Strings are stored in a packed layout of their own: no fixed size.
        if element_type != ElementType::String {
            let count = shape
                .iter()
                .try_fold(1u64, |count, &d| count.checked_mul(d));
            let expected = count.and_then(|c| element_type.byte_size(c));
            // OpenVINO reads the first bytes it needs and accepts a larger
            // `size` (it writes `size="1"` for empty constants itself); a
            // smaller one is an error.
            match expected {
                Some(expected) if size >= expected => {
                    needed = Some(expected);
                    if size > expected && expected > 0 {
                        let message = format!(
                            "the Const `size` is {size} bytes but {element_type} [{}] needs only {expected}; the first {expected} are used",
                            format_u64_list(&shape)
                        );
                        self.diagnostics.push(
                            head.warning(rules::CONST_SIZE_OVERSIZED, message)
                                .at(location),
                        );
                    }
                }
                _ => {
                    ok = false;
                    let shape_text = format_u64_list(&shape);
                    let message = match expected {
                        Some(expected) => format!(
                            "the Const `size` is {size} bytes but {element_type} [{shape_text}] needs {expected}"
                        ),
                        None => format!(
                            "the Const `size` is {size} bytes but the byte size of {element_type} [{shape_text}] overflows 64 bits"
                        ),
                    };
                    self.diagnostics
                        .push(head.error(rules::CONST_SIZE_MISMATCH, message).at(location));
                }
            }
        }

        let data = if size == 0 {
            Some(TensorBytes::from_vec(Vec::new()))
        } else {
            match &self.weights {
                None => {
                    let mut diagnostic = head
                        .error(
                            rules::CONST_NO_WEIGHTS,
                            format!("the Const needs {size} bytes of weights but there is no weights file"),
                        )
                        .at(location);
                    if let Some(name) = &self.weights_name {
                        diagnostic = diagnostic.with_note(format!("looked for `{name}`"));
                    }
                    self.diagnostics.push(diagnostic);
                    None
                }
                Some(weights) => {
                    let data = weights.slice(offset, size);
                    if data.is_none() {
                        let end = offset
                            .checked_add(size)
                            .map_or_else(|| "beyond 2^64".to_owned(), |e| e.to_string());
                        self.diagnostics.push(
                            head.error(
                                rules::CONST_OUT_OF_BOUNDS,
                                format!(
                                    "the Const data (offset {offset}, size {size}, ending at {end}) lies outside the {}-byte weights",
                                    weights.len()
                                ),
                            )
                            .at(location),
                        );
                    }
                    data
                }
            }
        };
        // Keep exactly the bytes the tensor needs.
        let data = match needed {
            Some(needed) => data.and_then(|d| d.slice(0, needed)),
            None => data,
        };
        match data {
            Some(data) if ok => Op::Constant {
                element_type,
                shape,
                data,
            },
            _ => Op::Other,
        }
    }

    /// Adds the graph edge of `edge`, or reports why it is dropped.
    #[inline]
    fn add_edge(&mut self, edge: &PendingEdge<'_>) {
        if !self.add_found_edge(edge) {
            self.add_or_report_edge(edge);
        }
    }

    /// Adds the graph edge of `edge` when both its layers and ports are
    /// found (nearly every edge: nothing to report, added without the paths
    /// that explain a problem, whose results, a `String` each, moved about
    /// most of a call); `false`, adding nothing, otherwise.
    #[inline]
    fn add_found_edge(&mut self, edge: &PendingEdge<'_>) -> bool {
        let Ok(ends) = &edge.ends else {
            return false;
        };
        let from = self.ids.get(&ends.from_layer);
        let to = self.ids.get(&ends.to_layer);
        let (Some(from), Some(to)) = (from, to) else {
            return false;
        };
        let from_output = self.port_index(from, ends.from_port, EdgeEnd::Source);
        let to_input = self.port_index(to, ends.to_port, EdgeEnd::Destination);
        let (Some(from_output), Some(to_input)) = (from_output, to_input) else {
            return false;
        };
        let edge = Edge {
            from_output,
            to_input,
        };
        self.graph.graph.add_edge(from, to, edge);
        true
    }

    /// An `<edge>` of the model's `<edges>`, just read: added at once when
    /// it is found (its layers came before it, the usual order) and no
    /// edge before it was left pending, else left in `pending` for when
    /// every layer is known. The outcome is the same as resolving every
    /// edge at the end: a layer id, once known, names the same node to the
    /// end (the first layer with it), a node's ports do not change, an edge
    /// added at once has nothing to report, and the graph's edges keep the
    /// file's order. The 100,000-layer chain's pending list was 6.9 MiB of
    /// its read's peak.
    #[inline]
    fn edge_read<'x>(&mut self, pending: &mut Vec<PendingEdge<'x>>, edge: PendingEdge<'x>) {
        if !pending.is_empty() || !self.add_found_edge(&edge) {
            pending.push(edge);
        }
    }

    /// [`Builder::add_edge`] of any edge, with a problem for each end not
    /// found.
    #[inline(never)]
    fn add_or_report_edge(&mut self, edge: &PendingEdge<'_>) {
        // Only diagnostics need the location and the edge's text: a
        // million-layer model's edges must not each pay a line search and
        // a string.
        let lines = self.lines;
        let location = || lines.location(edge.at);
        let (from_layer, from_port, to_layer, to_port) = match &edge.ends {
            Ok(ends) => (
                ends.from_layer.as_ref(),
                ends.from_port,
                ends.to_layer.as_ref(),
                ends.to_port,
            ),
            Err(problems) => {
                self.diagnostics.push(
                    Diagnostic::error(
                        rules::EDGE_ATTRIBUTE_INVALID,
                        format!("the `<edge>` is invalid: {problems}; it is dropped"),
                    )
                    .at(location()),
                );
                return;
            }
        };

        let from = self.ids.get(from_layer);
        let to = self.ids.get(to_layer);
        for (missing, end, other) in [(from, &from_layer, to), (to, &to_layer, from)] {
            if missing.is_none() {
                let mut diagnostic = Diagnostic::error(
                    rules::EDGE_DANGLING_LAYER,
                    format!("the edge {from_layer}:{from_port} -> {to_layer}:{to_port} refers to layer {end}, which does not exist; it is dropped"),
                )
                .at(location());
                diagnostic.layer = other.map(|n| self.graph.node(n).layer_ref());
                self.diagnostics.push(diagnostic);
            }
        }
        let (Some(from), Some(to)) = (from, to) else {
            return;
        };

        let ends = [
            (from, self.edge_end(from, from_port, EdgeEnd::Source)),
            (to, self.edge_end(to, to_port, EdgeEnd::Destination)),
        ];
        for (node, end) in &ends {
            if let Err(why) = end {
                let diagnostic = Diagnostic::error(
                    rules::EDGE_DANGLING_PORT,
                    format!("the edge {from_layer}:{from_port} -> {to_layer}:{to_port} {why}; it is dropped"),
                )
                .at_layer(self.graph.node(*node).layer_ref(), location());
                self.diagnostics.push(diagnostic);
            }
        }
        if let [(_, Ok(from_output)), (_, Ok(to_input))] = ends {
            self.graph.graph.add_edge(
                from,
                to,
                Edge {
                    from_output,
                    to_input,
                },
            );
        }
    }

    /// The index of `port` among the ports an edge may use at `end` of
    /// `node` (outputs at its source, inputs at its destination), or why
    /// the edge is dropped.
    fn edge_end(&self, node: NodeId, port: u32, end: EdgeEnd) -> Result<usize, String> {
        let n = self.graph.node(node);
        let (other, verb, role, kind) = match end {
            EdgeEnd::Source => (&n.inputs, "starts", "source", "an input"),
            EdgeEnd::Destination => (&n.outputs, "ends", "destination", "an output"),
        };
        self.port_index(node, port, end).ok_or_else(|| {
            if other.iter().any(|p| p.id == port) {
                format!("{verb} at port {port}, {kind} port of its {role} layer")
            } else {
                format!("{verb} at port {port}, which its {role} layer does not declare")
            }
        })
    }

    /// The index of `port` among the ports an edge may use at `end` of
    /// `node`, when it has it.
    #[inline]
    fn port_index(&self, node: NodeId, port: u32, end: EdgeEnd) -> Option<usize> {
        let n = self.graph.node(node);
        let usable = match end {
            EdgeEnd::Source => &n.outputs,
            EdgeEnd::Destination => &n.inputs,
        };
        // Writers number the inputs 0.. and the outputs on from there: try
        // that place first (a Concat of 10,000 inputs must not cost a search
        // of its ports per edge), then search.
        let first_id = match end {
            EdgeEnd::Source => n.inputs.len(),
            EdgeEnd::Destination => 0,
        };
        let guess = usize::try_from(port)
            .ok()
            .and_then(|p| p.checked_sub(first_id))
            .filter(|&i| usable.get(i).is_some_and(|p| p.id == port));
        guess.or_else(|| usable.iter().position(|p| p.id == port))
    }

    /// Keeps the model `<rt_info>` verbatim, except for our symbol-name
    /// section, which is applied to the Parameter dims and removed.
    fn model_rt_info(&mut self, element: Element<'_, '_>) {
        let mut text = self.verbatim(element);
        let mut sections = element
            .children()
            .filter(|c| c.name() == symbols::SECTION)
            .peekable();
        if sections.peek().is_none() {
            self.graph.rt_info = Some(text);
            return;
        }
        let mut names: HashMap<&str, (&str, Element)> = HashMap::new();
        let mut ranges = Vec::new();
        for section in sections {
            ranges.push((
                section.start() - element.start(),
                section.end() - element.start(),
            ));
            for info in section.children() {
                if let (Some(name), Some(value)) = (info.attr("name"), info.attr("value")) {
                    names.insert(name, (value, info));
                }
            }
        }
        let parameters: Vec<NodeId> = self.graph.parameters().map(|(id, _)| id).collect();
        for id in parameters {
            let node = self.graph.node(id);
            let Some((value, info)) = names.get(node.name.as_str()) else {
                continue;
            };
            let result = match &node.op {
                Op::Parameter { shape, .. } => match shape.as_ref() {
                    Shape::Ranked(dims) => {
                        let dims = dims.to_vec();
                        symbols::apply_names(&mut self.graph.symbols, &dims, value)
                    }
                    Shape::DynamicRank => Err("the Parameter has no ranked shape".to_owned()),
                },
                _ => Err("the Parameter has no ranked shape".to_owned()),
            };
            if let Err(why) = result {
                let layer = self.graph.node(id).layer_ref();
                let location = self.loc(info.start());
                self.diagnostics.push(
                    Diagnostic::warning(
                        rules::SYMBOL_NAMES_INVALID,
                        format!("symbol names \"{value}\" do not fit the Parameter: {why}"),
                    )
                    .at_layer(layer, location),
                );
            }
        }
        // Remove each section with the whitespace that leads up to it on its line.
        for &(start, end) in ranges.iter().rev() {
            symbols::remove_line(&mut text, start, end);
        }
        self.graph.rt_info = (text != symbols::EMPTY_RT_INFO).then_some(text);
    }
}

/// Each port (of a layer's `inputs` then `outputs`) whose id an earlier one
/// has, with the location of the latest such earlier port. A layer has a few ports: they are
/// compared pairwise, without a map per layer; a layer of many (a Concat of
/// 10,000 inputs) gets a map.
fn duplicate_ports<'p>(
    inputs: &'p [PortDecl],
    outputs: &'p [PortDecl],
) -> Vec<(&'p PortDecl, SourceLocation)> {
    const PAIRWISE_UP_TO: usize = 32;
    let ports = || inputs.iter().chain(outputs);
    let mut duplicates = Vec::new();
    if inputs.len() + outputs.len() <= PAIRWISE_UP_TO {
        for (index, port) in ports().enumerate() {
            // The latest earlier port with the id, as the map below says.
            if let Some(first) = ports().take(index).filter(|p| p.id == port.id).last() {
                duplicates.push((port, first.location));
            }
        }
    } else {
        let mut seen = HashMap::new();
        for port in ports() {
            if let Some(first) = seen.insert(port.id, port.location) {
                duplicates.push((port, first));
            }
        }
    }
    duplicates
}

/// Parses a Parameter `shape` in OpenVINO's syntax ([`ir::shape::parse_openvino_shape`]):
/// unknown and interval dims become fresh symbols whose provenance names the
/// Parameter and the dim.
pub(crate) fn parse_parameter_shape(
    symbols: &mut SymbolTable,
    text: &str,
    layer: &str,
    line: u32,
) -> Result<Shape, String> {
    ir::shape::parse_openvino_shape(symbols, text, &|index| Provenance {
        layer: layer.to_owned(),
        line,
        reason: format!("dim {index} of Parameter `{layer}`"),
    })
}

/// Splits a port's `names` attribute at commas; `\,` is a comma inside a name.
pub(crate) fn split_names(text: &str) -> Vec<String> {
    if text.is_empty() {
        return Vec::new();
    }
    // Without a `\`, the names are the pieces between commas: no copy
    // character by character (a port's names were 3% of reading BERT).
    if !text.contains('\\') {
        return text.split(',').map(str::to_owned).collect();
    }
    split_names_by_chars(text)
}

/// [`split_names`] character by character: what a `\` needs, and what the
/// split at commas must agree with.
fn split_names_by_chars(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&',') => {
                current.push(',');
                chars.next();
            }
            ',' => names.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    names.push(current);
    names
}

/// `"1, 1, 3"` as numbers; the empty text is the empty list.
fn parse_u64_list(text: &str) -> Option<Vec<u64>> {
    if text.trim().is_empty() {
        return Some(Vec::new());
    }
    text.split(',')
        .map(|item| item.trim().parse::<u64>().ok())
        .collect()
}

/// Numbers as OpenVINO writes a Const shape: `"1, 1, 3"`.
pub(crate) fn format_u64_list(values: &[u64]) -> String {
    values
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_at_unescaped_commas() {
        assert_eq!(split_names("a\\,b,c"), ["a,b", "c"]);
        assert_eq!(split_names("x"), ["x"]);
        assert!(split_names("").is_empty());
        // Split with and without a `\\` as character by character.
        for text in [
            "a,b,",
            ",",
            "a,,b",
            ",a",
            "\u{e9},\u{fc}x",
            "a\\b,c",
            "a\\",
            "\\,",
            " a , b ",
            "a.b:0",
        ] {
            assert_eq!(split_names(text), split_names_by_chars(text), "{text:?}");
        }
    }

    #[test]
    fn duplicate_ports_name_the_latest_earlier_port_either_way() {
        let port = |id: u32, line: u32| PortDecl {
            id,
            location: SourceLocation { line, column: 1 },
            ..PortDecl::default()
        };
        let found = |inputs: &[PortDecl], outputs: &[PortDecl]| {
            duplicate_ports(inputs, outputs)
                .into_iter()
                .map(|(port, first)| (port.location.line, first.line))
                .collect::<Vec<_>>()
        };
        // Id 1 three times (lines 2, 3, 5), id 0 in both lists (1, 4).
        let inputs = [port(0, 1), port(1, 2), port(1, 3)];
        let outputs = [port(0, 4), port(1, 5)];
        assert_eq!(found(&inputs, &outputs), [(3, 2), (4, 1), (5, 3)]);
        // Past the pairwise limit: the map says the same.
        let many: Vec<_> = (0..40).map(|i| port(100 + i, 100 + i)).collect();
        let inputs: Vec<_> = inputs.iter().cloned().chain(many).collect();
        assert_eq!(found(&inputs, &outputs), [(3, 2), (4, 1), (5, 3)]);
        assert!(found(&inputs[3..], &[]).is_empty());
    }

    #[test]
    fn layer_ids_are_strings_whether_numbered_or_named() {
        let node = NodeId::new;
        let mut ids = IdMap::default();
        for (index, id) in ["0", "7", "07", "+7", "x", " 8", "8", "123456789012"]
            .into_iter()
            .enumerate()
        {
            assert_eq!(ids.get(id), None, "{id}");
            ids.insert(id, node(index));
        }
        assert_eq!(ids.get("0"), Some(node(0)));
        assert_eq!(ids.get("7"), Some(node(1)));
        assert_eq!(ids.get("07"), Some(node(2)));
        assert_eq!(ids.get("+7"), Some(node(3)));
        assert_eq!(ids.get("x"), Some(node(4)));
        assert_eq!(ids.get(" 8"), Some(node(5)));
        assert_eq!(ids.get("8"), Some(node(6)));
        assert_eq!(ids.get("123456789012"), Some(node(7)));
        assert_eq!(ids.get("9"), None);
        assert_eq!(ids.get("00"), None);
        // Plain numbers only reach as far as the layers so far allow.
        assert_eq!(ids.numbered.len(), 9);
        let far = IdMap::NUMBERED_SLACK + 100;
        ids.insert(&far.to_string(), node(8));
        assert_eq!(ids.numbered.len(), 9);
        // The vector grows past it later; the number is still found.
        ids.insert(&(far - 1).to_string(), node(200));
        assert_eq!(ids.get(&far.to_string()), Some(node(8)));
        assert_eq!(ids.get(&(far - 1).to_string()), Some(node(200)));
    }

    #[test]
    fn first_or_insert_is_get_then_insert() {
        let far = IdMap::NUMBERED_SLACK + 100;
        let (far, nearer) = (far.to_string(), (far - 1).to_string());
        // Duplicates of every kind, a number too far out for the vector
        // when it comes and within reach when it comes again.
        let mut sequence = vec![
            (0, "0"),
            (1, "7"),
            (2, "07"),
            (3, "x"),
            (4, "7"),
            (5, "x"),
            (6, far.as_str()),
            (7, far.as_str()),
            (8, "0"),
            (9, " 8"),
        ];
        sequence.extend([(200, nearer.as_str()), (201, far.as_str()), (202, "8")]);
        sequence.extend([(203, nearer.as_str()), (204, "8"), (205, "123456789012")]);
        let (mut one, mut two) = (IdMap::default(), IdMap::default());
        for (index, id) in sequence {
            let node = NodeId::new(index);
            let expected = two.get(id);
            if expected.is_none() {
                two.insert(id, node);
            }
            assert_eq!(one.first_or_insert(id, node), expected, "{index} {id}");
            assert_eq!(one.numbered, two.numbered, "{index} {id}");
            assert_eq!(one.named, two.named, "{index} {id}");
        }
    }

    #[test]
    fn trimmed_is_trim() {
        for text in [
            "",
            " ",
            "1",
            " 1",
            "1 ",
            "\t-1\n",
            "a b",
            "\u{a0}x",
            "x\u{2003}",
            "é",
            "~!",
        ] {
            assert_eq!(trimmed(text), text.trim(), "{text:?}");
        }
    }

    #[test]
    fn u64_lists() {
        assert_eq!(parse_u64_list("1, 1, 3"), Some(vec![1, 1, 3]));
        assert_eq!(parse_u64_list(""), Some(vec![]));
        assert_eq!(parse_u64_list("1,-1"), None);
        assert_eq!(format_u64_list(&[1, 1, 3]), "1, 1, 3");
    }

    #[test]
    fn estimates_count_small_texts_and_scale_large_ones_within_bounds() {
        let edge = "<edge from-layer=\"1\" from-port=\"1\" to-layer=\"2\" to-port=\"0\"/>\n";
        // Counted: the first edges' shorter ids do not make it over.
        let edges = format!("<edges>\n{}</edges>", edge.repeat(10));
        assert_eq!(edge_estimate(&edges, 0), 10);
        assert_eq!(edge_estimate(&edges, edges.len()), 0);
        let layer = format!("<layer {}/>", " ".repeat(92));
        assert_eq!(layer_estimate(&layer.repeat(3)), 3);
        // Past `ESTIMATED_UP_TO`, the start's count scaled to the whole
        // text, at most one slot per 32 bytes and `MAX_LAYER_ESTIMATE`.
        let large = layer.repeat(ESTIMATED_UP_TO / layer.len() + 1);
        let sampled = large[..SAMPLED].matches("<layer ").count();
        assert_eq!(layer_estimate(&large), sampled * (large.len() / SAMPLED));
        let dense = "<layer ".repeat(ESTIMATED_UP_TO / 7 + 1);
        let bound = MAX_LAYER_ESTIMATE.min(dense.len() / 32);
        assert_eq!(layer_estimate(&dense), bound);
    }
}
